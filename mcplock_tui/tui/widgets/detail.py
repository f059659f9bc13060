"""The right-hand pane: what the highlighted row is, and the tabs that explain it.

A change shows a two-line head and the Diff, Findings, Lint, Explain and Raw tabs; a server
shows its summary (state, cause of a failure, the tail of its log) instead of the tabs.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static, TabbedContent, TabPane

from mcplock_tui.core.graded import GradedChange
from mcplock_tui.core.model import Finding
from mcplock_tui.core.verdict import Explained
from mcplock_tui.tui.session import ServerState
from mcplock_tui.tui.widgets.field_diff import change_blocks
from mcplock_tui.tui.widgets.report_text import (
    change_head,
    explain_text,
    findings_text,
    lint_text,
    raw_text,
    server_text,
)
from mcplock_tui.tui.widgets.split_view import SplitView

TABS = (
    ("diff", "Diff"),
    ("findings", "Findings"),
    ("lint", "Lint"),
    ("explain", "Explain"),
    ("raw", "Raw"),
)


class DetailPane(Vertical):
    def compose(self) -> ComposeResult:
        yield Static(id="detail-head")
        with VerticalScroll(id="server-info"):
            yield Static(id="server-body")
        with TabbedContent(id="tabs", initial="tab-diff"):
            for key, title in TABS:
                with TabPane(title, id=f"tab-{key}"), VerticalScroll(id=f"scroll-{key}"):
                    yield Static(id=f"body-{key}")

    def on_mount(self) -> None:
        self.show_message(Content.styled("Capturing servers…", "$text-muted"))

    def _mode(self, tabs: bool) -> None:
        self.query_one("#tabs").display = tabs
        self.query_one("#server-info").display = not tabs
        self.query_one("#detail-head").display = tabs

    def _body(self, key: str, content: Content | SplitView) -> None:
        self.query_one(f"#body-{key}", Static).update(content)

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
        if not moved:
            return
        self._body("diff", SplitView(change_blocks(change.diff)))
        self._body("findings", findings_text(change))
        self._body("raw", raw_text(change))
        tabs = self.query_one("#tabs", TabbedContent)
        count = len(change.findings)
        tabs.get_tab("tab-findings").label = f"Findings {count}" if count else "Findings"
        for key, _title in TABS:
            self.query_one(f"#scroll-{key}", VerticalScroll).scroll_home(animate=False)

    def show_lint(
        self, change: GradedChange, findings: Sequence[Finding] | None, captured: bool
    ) -> None:
        self._body("lint", lint_text(change, findings, captured))

    def show_explain(self, answer: Explained | None, asking: bool) -> None:
        self._body("explain", explain_text(answer, asking))

    @property
    def active_tab(self) -> str:
        return self.query_one("#tabs", TabbedContent).active.removeprefix("tab-")

    def activate(self, key: str) -> None:
        self.query_one("#tabs", TabbedContent).active = f"tab-{key}"

    def cycle(self, step: int) -> None:
        keys = [k for k, _ in TABS]
        index = keys.index(self.active_tab) if self.active_tab in keys else 0
        self.activate(keys[(index + step) % len(keys)])
