"""The first screen is whole before capture starts: the footer's keys are drawn first.

Importing the MCP SDK in the capture worker holds the interpreter for most of a second; if it
starts before the footer has filled in, the reviewer looks at a screen without keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from mcplock_tui.spec import ServerSpec
from mcplock_tui.tui import app as app_module
from mcplock_tui.tui.app import ReviewApp
from tests.tui.conftest import Project, settle


class _Watched(ReviewApp):
    CSS_PATH = str(
        Path(app_module.__file__).with_name("app.tcss")
    )  # relative to the subclass otherwise
    keys_at_capture: list[str] | None = None

    def capture_servers(self, specs: Sequence[ServerSpec]) -> None:  # type: ignore[override]
        footer = self.screen.query_one(Footer)
        self.keys_at_capture = [k.description for k in footer.query(FooterKey)]
        super().capture_servers(specs)


async def test_capture_starts_after_the_footer_shows_its_keys(project: Project) -> None:
    app = _Watched(project.session(), log_dir=project.log_dir, timeout=10.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.keys_at_capture is not None, "capture never started"
        assert {"Accept", "Reject", "Quit"} <= set(app.keys_at_capture)
        assert all(s.report is not None for s in app.session.servers.values())
