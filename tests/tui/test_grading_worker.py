"""Grading a big capture runs off the event loop: keys answer while it is graded."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from textual.app import App

from mcplock_tui.tui.screens.modals import HelpScreen
from tests.tui.conftest import Project, make_project, settle

BIG = [
    {
        "name": f"note_tool_{i}",
        "description": f"Tool {i}. " + "Looks up a note by its title and returns the text. " * 40,
        "inputSchema": {"type": "object", "properties": {f"p{i}": {"type": "string"}}},
    }
    for i in range(300)
]


@pytest.fixture
def big(tmp_path: Path) -> Project:
    return make_project(tmp_path / "project", extra_tools=BIG)


def _grading(app: App[Any]) -> bool:
    return any(w.group == "grade" and w.is_running for w in app.workers)


async def test_keys_answer_while_a_big_capture_is_graded(big: Project) -> None:
    app = big.app()
    async with app.run_test(size=(110, 36)) as pilot:
        deadline = time.monotonic() + 60
        others = ("files", "broken")  # small: graded first; then only `notes` is left
        while not (_grading(app) and all(app.session.servers[n].report for n in others)):
            assert time.monotonic() < deadline, "grading of the big server never started"
            await pilot.pause(0.01)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert app.session.servers["notes"].report is None, "answered before grading ended"
        await pilot.press("escape", "down")
        assert not isinstance(app.screen, HelpScreen)
        await settle(pilot)
        assert app.session.servers["notes"].report is not None
        assert len(app.session.server_changes("notes")) >= len(BIG)
        await pilot.press("q")
    assert app.return_code is not None or not app.is_running
