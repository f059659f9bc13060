"""SVG snapshots of the app on the bundled demo: one per screen state a reviewer meets.

The demo project is pinned from live demo servers and then drifted (see
:mod:`mcplock_tui.demo`), so these pictures show what a user of ``mcplock-tui demo`` sees.
Paths on screen live under the test's home folder and are shown as ``~/…``; captures are
awaited before the picture is taken, so no spinner or "capturing" text is in it.

Regenerate with ``pytest tests/tui/test_snapshots.py --snapshot-update`` and review the
SVGs as images before committing them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from mcplock_tui.config import load_servers
from mcplock_tui.core.policy import Policy
from mcplock_tui.demo import prepare_demo
from mcplock_tui.tui.app import ReviewApp
from mcplock_tui.tui.session import ReviewSession, server_key
from tests.tui.conftest import settle

SnapCompare = Callable[..., bool]
SIZE = (100, 32)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return prepare_demo(tmp_path_factory.mktemp("demo"))


def demo_app(project: Path) -> ReviewApp:
    specs = load_servers(project, [project / ".mcp.json"])
    session = ReviewSession.open(project / "mcplock.lock", specs, Policy())
    log_dir = Path.home() / ".cache" / "mcplock-tui" / "logs" / "snapshot"
    return ReviewApp(session, log_dir=log_dir, timeout=15.0)


def showing(
    key: str | None = None,
    tab: str | None = None,
    theme: str | None = None,
    keys: tuple[str, ...] = (),
) -> Callable[[Pilot[Any]], Awaitable[None]]:
    async def run_before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, ReviewApp)
        if theme is not None:
            app.theme = theme
        await settle(pilot)
        if key is not None:
            app.jump_to(key)
        if tab is not None:
            app.review.detail.activate(tab)
        if keys:
            await pilot.press(*keys)
        await settle(pilot)

    return run_before


def test_overview(snap_compare: SnapCompare, demo: Path) -> None:
    assert snap_compare(demo_app(demo), terminal_size=SIZE, run_before=showing())


def test_description_diff(snap_compare: SnapCompare, demo: Path) -> None:
    run = showing("slack/tool/search_messages")
    assert snap_compare(demo_app(demo), terminal_size=SIZE, run_before=run)


def test_schema_diff(snap_compare: SnapCompare, demo: Path) -> None:
    run = showing("github/tool/create_issue")
    assert snap_compare(demo_app(demo), terminal_size=SIZE, run_before=run)


def test_findings_tab(snap_compare: SnapCompare, demo: Path) -> None:
    run = showing("filesystem/tool/read_file", tab="findings")
    assert snap_compare(demo_app(demo), terminal_size=SIZE, run_before=run)


def test_failed_server(snap_compare: SnapCompare, demo: Path) -> None:
    run = showing(server_key("jira"))
    assert snap_compare(demo_app(demo), terminal_size=SIZE, run_before=run)


def test_help_screen(snap_compare: SnapCompare, demo: Path) -> None:
    run = showing(keys=("question_mark",))
    assert snap_compare(demo_app(demo), terminal_size=SIZE, run_before=run)


def test_annotation_flip_at_80x24(snap_compare: SnapCompare, demo: Path) -> None:
    run = showing("filesystem/tool/search_files")
    assert snap_compare(demo_app(demo), terminal_size=(80, 24), run_before=run)


def test_light_theme_at_80x24(snap_compare: SnapCompare, demo: Path) -> None:
    run = showing("slack/tool/search_messages", theme="textual-light")
    assert snap_compare(demo_app(demo), terminal_size=(80, 24), run_before=run)


# 80×24 is the smallest terminal the app promises: the main states and every modal.


def test_overview_at_80x24(snap_compare: SnapCompare, demo: Path) -> None:
    assert snap_compare(demo_app(demo), terminal_size=(80, 24), run_before=showing())


def test_help_at_80x24(snap_compare: SnapCompare, demo: Path) -> None:
    run = showing(keys=("question_mark",))
    assert snap_compare(demo_app(demo), terminal_size=(80, 24), run_before=run)


def test_reject_note_at_80x24(snap_compare: SnapCompare, demo: Path) -> None:
    run = showing("slack/tool/search_messages", keys=("r",))
    assert snap_compare(demo_app(demo), terminal_size=(80, 24), run_before=run)


def test_accept_all_at_80x24(snap_compare: SnapCompare, demo: Path) -> None:
    run = showing(server_key("github"), keys=("A", "4"))
    assert snap_compare(demo_app(demo), terminal_size=(80, 24), run_before=run)


def test_failed_server_at_80x24(snap_compare: SnapCompare, demo: Path) -> None:
    run = showing(server_key("jira"))
    assert snap_compare(demo_app(demo), terminal_size=(80, 24), run_before=run)


@pytest.mark.parametrize("tab", ["findings", "lint", "explain", "raw"])
def test_each_tab_at_80x24(snap_compare: SnapCompare, demo: Path, tab: str) -> None:
    run = showing("filesystem/tool/read_file", tab=tab)
    assert snap_compare(demo_app(demo), terminal_size=(80, 24), run_before=run)
