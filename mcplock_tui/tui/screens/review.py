"""The main screen: summary line, navigator on the left, detail on the right.

It owns what is shown (filters, highlight, spinner) and nothing that writes: decisions and
captures live in the app, which tells this screen what changed. It asks the app for lint
through :class:`LintWanted`, so it never imports the app.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input, OptionList, Static

from mcplock_tui.core.graded import GradedChange
from mcplock_tui.core.groups import Group
from mcplock_tui.core.model import Kind, Severity
from mcplock_tui.tui.render.report_text import summary_text
from mcplock_tui.tui.render.safe_text import safe
from mcplock_tui.tui.session import CONNECTING, PENDING, Filter, NavRow, ReviewSession, server_key
from mcplock_tui.tui.widgets.detail import DetailPane
from mcplock_tui.tui.widgets.footer import KeyFooter
from mcplock_tui.tui.widgets.navigator import Navigator

SPIN_INTERVAL = 0.1
FILTER_HINT = "/ filter"


class FilterBox(Input):
    """The filter input. Typing here takes the letter keys, which leaves the footer with no
    key of the review; it shows how to leave the box instead."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "screen.clear_filter", "Clear filter"),
        Binding("enter", "submit", "Back to the list"),
    ]


class ReviewScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_filter", "Filter", show=False),
        Binding("n", "next_pending", "Next"),
        Binding("1", "band(1)", "All bands", show=False),
        Binding("2", "band(2)", "Medium and up", show=False),
        Binding("3", "band(3)", "High and up", show=False),
        Binding("4", "band(4)", "Critical only", show=False),
        Binding("escape", "clear_filter", "Clear filter", show=False),
        Binding("right_square_bracket", "cycle_tab(1)", "Next tab", show=False),
        Binding("left_square_bracket", "cycle_tab(-1)", "Previous tab", show=False),
    ]

    class LintWanted(Message):
        def __init__(self, server: str) -> None:
            super().__init__()
            self.server = server

    def __init__(self, session: ReviewSession) -> None:
        super().__init__()
        self.session = session
        self.filter = Filter()
        self.frame = 0
        self._shown: object = None
        self._spinner: Timer | None = None
        self.expanded: set[str] = set()
        """Ids of the groups whose members the navigator shows."""
        self._groups: dict[str, Group] = {}
        self._filter_lock = asyncio.Lock()

    def compose(self) -> ComposeResult:
        yield Static(id="summary")
        problem = self.session.lock_problem
        if problem is not None:  # a hidden banner still costs a widget in the first layout
            yield Static(safe(problem), id="banner")
        with Horizontal(id="main"):
            with Vertical(id="nav-pane"):
                # The filter box is drawn as text in the first frame and becomes an input
                # right after it: an Input costs a tenth of the first frame to mount.
                yield Static(FILTER_HINT, id="filter", classes="stub")
                yield Navigator(id="nav")
            yield DetailPane(id="detail")
        yield Static(id="status")
        yield KeyFooter()

    def on_mount(self) -> None:
        self._spinner = self.set_interval(SPIN_INTERVAL, self._spin, pause=True)
        self.nav.moved = lambda key: self.show_key(key)
        self.refresh_rows()
        self.query_one(Navigator).focus()
        self.call_after_refresh(self.mount_filter)

    async def mount_filter(self) -> Input | None:
        """The filter input, in place of its first-frame stand-in; None when the screen is
        closing (a quit typed while the app starts runs before this swap)."""
        async with self._filter_lock:  # "/" pressed while the first frame's swap runs
            if not self.is_attached:
                return None
            found = self.query_one("#filter")
            if isinstance(found, Input):
                return found
            pane = self.query_one("#nav-pane")
            box = FilterBox(placeholder=FILTER_HINT, id="filter")
            await found.remove()
            if not pane.is_attached:  # the quit came during the removal
                return None
            await pane.mount(box, before=0)
            return box

    def _clear_filter_box(self) -> None:
        box = self.query_one("#filter")
        if isinstance(box, Input):
            box.value = ""

    # what is shown --------------------------------------------------------------------------

    @property
    def nav(self) -> Navigator:
        return self.query_one(Navigator)

    @property
    def detail(self) -> DetailPane:
        return self.query_one(DetailPane)

    @property
    def current_key(self) -> str | None:
        option = self.nav.highlighted_option
        return option.id if option is not None else None

    @property
    def current_change(self) -> GradedChange | None:
        key = self.current_key
        return self.session.change(key) if key is not None else None

    @property
    def current_group(self) -> Group | None:
        """The highlighted group of alike changes, if a group row is highlighted."""
        key = self.current_key
        return self._groups.get(key) if key is not None else None

    @property
    def current_server(self) -> str | None:
        """The highlighted server, or the server of the highlighted change."""
        key = self.current_key
        if key is None:
            return None
        change = self.session.change(key)
        if change is not None:
            return change.server
        if key in self._groups:
            return self._groups[key].server
        return key.removeprefix(server_key(""))

    def refresh_rows(self) -> None:
        """Rebuild the navigator from the session (after a capture or a filter change)."""
        rows = self.session.rows(self.filter, frozenset(self.expanded))
        self._groups = {row.key: row.group for row in rows if row.group is not None}
        self.nav.show_rows(self.session, rows, self.frame)
        self.refresh_summary()
        if not rows:
            self._shown = None
            text = (
                "Nothing matches the filter; press escape to clear it."
                if self.filter.active
                else "No servers are configured."
            )
            self.detail.show_message(Content.styled(text, "$text-muted"))
        if self._spinner is not None:
            if self.session.connecting:
                self._spinner.resume()
            else:
                self._spinner.pause()

    def refresh_summary(self) -> None:
        s = self.session
        self.query_one("#summary", Static).update(
            summary_text(
                s.lock_path.name,
                len(s.servers),
                s.counts(),
                s.pending_count(),
                self.filter,
                s.connecting,
            )
        )

    def refresh_decided(self, change_ids: tuple[str, ...]) -> None:
        """Redraw rows whose decision state moved, the summary and the head if it is one of them."""
        for change_id in change_ids:
            change = self.session.change(change_id)
            if change is not None:
                self.nav.refresh_row(self.session, NavRow(change.server, change), self.frame)
        for group in self._groups.values():
            if any(c.id in change_ids for c in group.members):
                row = NavRow(group.server, group=group, expanded=group.id in self.expanded)
                self.nav.refresh_row(self.session, row, self.frame)
        self.refresh_summary()
        current = self.current_change
        if current is not None and current.id in change_ids:
            self.show_key(current.id, moved=False)

    def show_key(self, key: str | None, *, moved: bool = True) -> None:
        group = self._groups.get(key) if key is not None else None
        if group is not None:
            key = group.members[0].id  # a group shows its first change; the others are alike
        change = self.session.change(key) if key is not None else None
        if change is not None:
            fresh = moved and self._shown is not change
            self.detail.show_change(
                change, self.session.state(change), self.session.note(change), moved=fresh
            )
            self._shown = change
            if fresh:
                self.show_side_tabs(change)
            return
        self._shown = None
        name = key.removeprefix(server_key("")) if key is not None else None
        if name is not None and name in self.session.servers:
            self.detail.show_server(self.session.servers[name])

    def show_side_tabs(self, change: GradedChange) -> None:
        """Lint and Explain for ``change``, asking the app for lint when it is not cached."""
        s = self.session
        state = s.servers.get(change.server)
        captured = (
            state is not None and state.capture is not None and state.capture.surface is not None
        )
        findings = s.lint.get(change.server)
        if findings is None and captured and change.kind is Kind.TOOL:
            self.post_message(self.LintWanted(change.server))
        self.detail.show_lint(change, findings, captured)
        key = (change.id, change.new_hash)
        self.detail.show_explain(s.explained.get(key), key in s.asking)

    def set_status(self, content: Content) -> None:
        self.query_one("#status", Static).update(content)

    def jump_to(self, key: str) -> None:
        """Highlight ``key``, clearing the filters when they hide it."""
        if not self.nav.select_key(key):
            self.filter = Filter()
            self._clear_filter_box()
            self.refresh_rows()
            self.nav.select_key(key)
        self.nav.focus()

    def _spin(self) -> None:
        self.frame += 1
        connecting = [n for n, s in self.session.servers.items() if s.status == CONNECTING]
        for name in connecting:
            self.nav.refresh_row(self.session, NavRow(name), self.frame)
        if not connecting and self._spinner is not None:
            self._spinner.pause()

    # events ---------------------------------------------------------------------------------

    @on(OptionList.OptionSelected, "#nav")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        group = self._groups.get(event.option.id or "")
        if group is None:
            return
        self.expanded.symmetric_difference_update({group.id})
        self.refresh_rows()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.filter = replace(self.filter, text=event.value)
        self.refresh_rows()

    @on(Input.Submitted, "#filter")
    def _filter_done(self) -> None:
        self.nav.focus()

    def on_tabbed_content_tab_activated(self) -> None:  # TabbedContent loads lazily
        change = self.current_change
        if change is not None:
            self.show_side_tabs(change)

    # actions --------------------------------------------------------------------------------

    async def action_focus_filter(self) -> None:
        box = await self.mount_filter()
        if box is not None:
            box.focus()

    def action_clear_filter(self) -> None:
        self.filter = Filter()
        self._clear_filter_box()
        self.refresh_rows()
        self.nav.focus()

    def action_band(self, band: int) -> None:
        self.filter = replace(self.filter, min_severity=Severity(band))
        self.refresh_rows()

    def action_cycle_tab(self, step: int) -> None:
        self.detail.cycle(step)

    def action_next_pending(self) -> None:
        options = self.nav.options
        if not options:
            return
        start = self.nav.highlighted if self.nav.highlighted is not None else -1
        for offset in range(1, len(options) + 1):
            index = (start + offset) % len(options)
            key = options[index].id
            change = self.session.change(key) if key is not None else None
            if change is not None and self.session.state(change) == PENDING:
                self.nav.highlighted = index
                return
        what = "in this filter" if self.filter.active else "left"
        self.set_status(Content.styled(f"No pending change {what}.", "$text-muted"))
