"""The left-hand list: servers with their state, and each drifted item under its server.

One :class:`~textual.widgets.OptionList` option per row, so thousands of changes cost one
widget, not thousands. Prompts are :class:`~textual.content.Content` built by
:mod:`.safe_text`; a server or tool name is never read as markup.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option, OptionDoesNotExist

from mcplock_tui.core.graded import GradedChange
from mcplock_tui.core.model import ChangeType, Kind
from mcplock_tui.core.report import Status
from mcplock_tui.tui.render.hanging import Hanging
from mcplock_tui.tui.render.safe_text import MUTED, badge, one_line
from mcplock_tui.tui.session import (
    ACCEPTED,
    CHECKING,
    CONNECTING,
    NOT_CHECKED,
    PENDING,
    REJECTED,
    NavRow,
    ReviewSession,
    ServerState,
)

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
KIND_LABEL = {
    Kind.TOOL: "tool",
    Kind.PROMPT: "prompt",
    Kind.RESOURCE: "resource",
    Kind.RESOURCE_TEMPLATE: "template",
    Kind.INSTRUCTIONS: "instructions",
    Kind.SERVER: "server",
}
TYPE_MARK = {
    ChangeType.ADDED: "+",
    ChangeType.REMOVED: "-",
    ChangeType.MODIFIED: "~",
    ChangeType.RENAMED: "→",
}
STATE_MARK = {
    PENDING: ("○", "$text-warning"),
    ACCEPTED: ("✓", "bold $text-success"),
    REJECTED: ("✗", "bold $text-error"),
    CHECKING: ("…", MUTED),
}
NAME_LIMIT = 60
SINGLETON_KINDS = frozenset({Kind.INSTRUCTIONS, Kind.SERVER})
"""Kinds a server has one of: the row names the kind alone."""


Prompt = Content | Hanging


def change_prompt(change: GradedChange, state: str) -> Prompt:
    mark, mark_style = STATE_MARK[state]
    lead: list[Content | str | tuple[str, str]] = [
        "  ",
        badge(change.severity),
        " ",
        (mark, mark_style),
        " ",
        (TYPE_MARK[change.change], "bold"),
        (KIND_LABEL[change.kind], MUTED),
    ]
    rest: list[Content | str | tuple[str, str]] = []
    if change.kind not in SINGLETON_KINDS:  # "instructions instructions" says nothing twice
        lead.append(" ")
        rest.append(one_line(change.name, limit=NAME_LIMIT))
    if state in (ACCEPTED, REJECTED):
        rest.append((f"  {state}", mark_style))
    if change.kind in SINGLETON_KINDS:
        return Content.assemble(*lead, *rest)
    return Hanging(Content.assemble(*lead), Content.assemble(*rest))


def group_prompt(row: NavRow, session: ReviewSession) -> Prompt:
    """``▸ 100 resources added under test://…/{n}  (100 pending)``; enter expands it."""
    group = row.group
    assert group is not None
    waiting = sum(1 for c in group.members if session.state(c) == PENDING)
    return Hanging(
        Content.assemble(
            "  ", badge(group.severity), " ", ("▾" if row.expanded else "▸", "bold"), " "
        ),
        Content.assemble(
            one_line(group.label, "bold", limit=NAME_LIMIT + 20),
            (f"  ({waiting} pending)" if waiting else "  (decided)", MUTED),
        ),
    )


def server_prompt(state: ServerState, frame: int = 0) -> Prompt:
    name = one_line(state.name, "bold", limit=40)
    report = state.report
    if state.status == CONNECTING:
        return Content.assemble(name, "  ", (f"{SPINNER[frame % len(SPINNER)]} connecting", MUTED))
    if state.status == NOT_CHECKED:
        return Content.assemble(name, "  ", ("not checked", MUTED))
    if state.status == Status.CLEAN:
        return Content.assemble(name, "  ", ("clean", "$text-success"))
    if state.status == Status.UNPINNED:
        return Content.assemble(name, "  ", ("unpinned", "$text-warning"))
    if state.status == Status.FAILED:
        cause = report.error if report is not None and report.error else "capture failed"
        cause = cause.split("; see ", 1)[0]  # the log path is in the detail pane
        return Hanging(
            Content.assemble(name, "  "),
            Content.assemble(
                ("failed: ", "bold $text-error"), one_line(cause, "$text-error", limit=70)
            ),
        )
    count = len(report.changes) if report is not None else 0
    return Content.assemble(
        name, "  ", (f"{count} change{'s' if count != 1 else ''}", "$text-warning")
    )


class Navigator(OptionList):
    """Rows from :meth:`ReviewSession.rows`; option ids are :attr:`NavRow.key`.

    Until the reviewer moves in the list, the highlight stays on the first row while rows
    arrive and reorder; afterwards it follows the item the reviewer picked.
    """

    touched = False
    moved: Callable[[str | None], None] | None = None
    """Called with the highlighted row's key as the highlight moves, in the same step: the
    detail is rebuilt before the next frame, so a move paints once, not once for the
    highlight and again when a posted message has updated the detail."""

    def watch_highlighted(self, highlighted: int | None) -> None:
        if highlighted is None or self.moved is None:
            super().watch_highlighted(highlighted)
        elif not self._options[highlighted].disabled:
            self.scroll_to_highlight()
            self.moved(self._options[highlighted].id)

    def on_key(self) -> None:
        self.touched = True

    def on_click(self) -> None:
        self.touched = True

    def show_rows(self, session: ReviewSession, rows: Sequence[NavRow], frame: int = 0) -> None:
        """Replace every row, keeping the highlight on the same item when it is still shown."""
        keep = self.highlighted_option.id if self.highlighted_option is not None else None
        old_index = self.highlighted or 0
        options = [Option(self.prompt_for(session, row, frame), id=row.key) for row in rows]
        self.set_options(options)
        if not options:
            return
        try:
            index = self.get_option_index(keep) if keep is not None and self.touched else 0
        except OptionDoesNotExist:
            index = min(old_index, len(options) - 1)
        self.highlighted = index

    def prompt_for(self, session: ReviewSession, row: NavRow, frame: int = 0) -> Prompt:
        if row.group is not None:
            return group_prompt(row, session)
        if row.change is not None:
            return change_prompt(row.change, session.state(row.change))
        return server_prompt(session.servers[row.server], frame)

    def refresh_row(self, session: ReviewSession, row: NavRow, frame: int = 0) -> None:
        try:
            self.replace_option_prompt(row.key, self.prompt_for(session, row, frame))
        except OptionDoesNotExist:
            pass  # filtered out of view

    def select_key(self, key: str) -> bool:
        try:
            self.highlighted = self.get_option_index(key)
        except OptionDoesNotExist:
            return False
        self.touched = True
        return True
