"""Quitting while a capture runs stops the servers the app started before the app returns.

Textual cancels the workers on exit and does not wait for them; the event loop then closes
under a capture that is still stopping its server, and a server that ignores its stdin
closing outlives the app.
"""

from __future__ import annotations

import json
import os

import pytest

from mcplock_tui.capture.logs import log_path_for
from tests.tui.conftest import Project


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _read(path: os.PathLike[str]) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return ""


async def test_quit_during_a_hung_capture_stops_the_server(project: Project) -> None:
    defs = json.loads(project.defs["notes"].read_text(encoding="utf-8"))
    defs["mode"] = "hang"  # never answers tools/list, ignores stdin closing
    project.defs["notes"].write_text(json.dumps(defs), encoding="utf-8")
    log = log_path_for(project.log_dir, "notes")
    app = project.app()
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):  # until the other servers are in and notes hangs in tools/list
            await pilot.pause(0.05)
            if app.session.servers["files"].report is not None and "(pid " in _read(log):
                break
        else:
            pytest.fail("the capture did not get going")
        pid = int(_read(log).split("(pid ")[1].split(")")[0])
        assert _alive(pid)
        await pilot.press("q")
    assert app.return_code == 0
    assert not _alive(pid), "the hung server outlived the app"


async def test_quit_as_the_first_change_is_shown_exits_cleanly(project: Project) -> None:
    """The change tabs mount and the server's lint starts when a change is first shown; an
    app quitting in that moment exits without an error from either."""
    from tests.tui.conftest import settle

    app = project.app()
    async with app.run_test(size=(110, 36)) as pilot:
        await settle(pilot)
        nav = app.review.nav
        rows = [nav.get_option_at_index(i).id or "" for i in range(nav.option_count)]
        change = next(k for k in rows if app.session.change(k) is not None)
        nav.highlighted = rows.index(change)
        assert app.review.detail.active_tab == "diff"
    # leaving the block closes the app; run_test raises whatever the app raised meanwhile
