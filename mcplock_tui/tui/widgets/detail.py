"""The right-hand pane: what the highlighted row is, and the tabs that explain it.

A change shows a two-line head and the Diff, Findings, Lint, Explain and Raw tabs; a server
shows its summary (state, cause of a failure, the tail of its log) instead of the tabs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from mcplock_tui.core.graded import GradedChange
from mcplock_tui.core.model import Finding
from mcplock_tui.tui.render.report_text import (
    change_head,
    change_why,
    explain_text,
    findings_text,
    lint_text,
    raw_text,
    server_text,
)
from mcplock_tui.tui.session import ServerState

if TYPE_CHECKING:
    from textual.widgets import Tab, TabbedContent

    from mcplock_tui.core.verdict import Explained
    from mcplock_tui.tui.widgets.split_view import SplitView

TABS = (
    ("diff", "Diff"),
    ("findings", "Findings"),
    ("lint", "Lint"),
    ("explain", "Explain"),
    ("raw", "Raw"),
)


class DetailPane(Vertical):
    """Server summary or change tabs. The tabs are mounted when the first change is shown:
    the first frame (servers still connecting) has none to show, and is drawn sooner."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._bodies: dict[str, Static] = {}
        self._scrolls: dict[str, VerticalScroll] = {}
        self._tabs: TabbedContent | None = None
        self._active = "diff"
        """The tab to open with, until the tabs exist."""

    def compose(self) -> ComposeResult:
        yield Static(id="detail-head")
        yield Static(id="detail-why")
        with VerticalScroll(id="server-info"):
            yield Static(id="server-body")

    def on_mount(self) -> None:
        self.show_message(Content.styled("Capturing servers…", "$text-muted"))

    def _ensure_tabs(self) -> TabbedContent:
        if self._tabs is None:
            from textual.widgets import TabbedContent, TabPane  # not in the first frame

            self._bodies = {key: Static(id=f"body-{key}") for key, _ in TABS}
            self._scrolls = {
                key: VerticalScroll(self._bodies[key], id=f"scroll-{key}") for key, _ in TABS
            }
            # The first tab opens without ``initial``: a named tab is looked up as the tab
            # strip mounts, and an app quitting at that moment raised instead of exiting.
            first = self._active != TABS[0][0]
            self._tabs = TabbedContent(id="tabs", initial=f"tab-{self._active}" if first else "")
            for key, title in TABS:  # as the ``with TabbedContent():`` form adds them
                self._tabs.compose_add_child(TabPane(title, self._scrolls[key], id=f"tab-{key}"))
            self._tabs.display = False  # shown by ``_mode``, whoever needed it first
            self.mount(self._tabs)
        return self._tabs

    def _with_tabs(self, act: Callable[[TabbedContent], object]) -> None:
        """``act`` on the tabs now, or after the next refresh when they were mounted just now
        (their tab strip exists only then)."""
        tabs = self._ensure_tabs()
        if tabs.is_mounted:
            act(tabs)
        else:
            self.call_after_refresh(act, tabs)

    def _mode(self, tabs: bool) -> None:
        if tabs:
            self._ensure_tabs().display = True
        elif self._tabs is not None:
            self._tabs.display = False
        self.query_one("#server-info").display = not tabs
        self.query_one("#detail-head").display = tabs
        self.query_one("#detail-why").display = tabs

    def _body(self, key: str, content: Content | SplitView) -> None:
        self._ensure_tabs()
        self._bodies[key].update(content)

    def show_message(self, content: Content) -> None:
        self._mode(False)
        self.query_one("#server-body", Static).update(content)

    def show_server(self, state: ServerState) -> None:
        self._mode(False)
        self.query_one("#server-body", Static).update(server_text(state))
        self.query_one("#server-info", VerticalScroll).scroll_home(animate=False)

    def show_change(
        self, change: GradedChange, state: str, note: str = "", *, moved: bool = True
    ) -> None:
        """Everything about ``change``; ``moved`` is False when only its decision state changed."""
        self._mode(True)
        self.query_one("#detail-head", Static).update(change_head(change, state, note))
        self.query_one("#detail-why", Static).update(change_why(change))
        if not moved:
            return
        from mcplock_tui.tui.render.field_diff import change_blocks  # difflib, on first use
        from mcplock_tui.tui.widgets.split_view import SplitView

        self._body("diff", SplitView(change_blocks(change.diff)))
        self._body("findings", findings_text(change))
        self._body("raw", raw_text(change))
        count = len(change.findings)
        label = f"Findings {count}" if count else "Findings"
        self._with_tabs(lambda tabs: _relabel(tabs.get_tab("tab-findings"), label))
        if self._ensure_tabs().is_mounted:  # tabs mounted just now start at the top
            for scroll in self._scrolls.values():
                if scroll.scroll_offset != (0, 0):
                    scroll.scroll_home(animate=False)

    def show_lint(
        self, change: GradedChange, findings: Sequence[Finding] | None, captured: bool
    ) -> None:
        self._body("lint", lint_text(change, findings, captured))

    def show_explain(self, answer: Explained | None, asking: bool) -> None:
        self._body("explain", explain_text(answer, asking))

    @property
    def active_tab(self) -> str:
        if self._tabs is None or not self._tabs.is_mounted:
            return self._active
        return self._tabs.active.removeprefix("tab-")

    def activate(self, key: str) -> None:
        self._active = key  # the tabs open on it when they are mounted later
        if self._tabs is not None:
            self._with_tabs(lambda tabs: setattr(tabs, "active", f"tab-{self._active}"))

    def cycle(self, step: int) -> None:
        keys = [k for k, _ in TABS]
        index = keys.index(self.active_tab) if self.active_tab in keys else 0
        self.activate(keys[(index + step) % len(keys)])


def _relabel(tab: Tab, label: str) -> None:
    """A tab's label is set only when it differs: each set lays the tab strip out again."""
    if str(tab.label) != label:
        tab.label = label
