"""The app's decisions go through the same guarded path as the CLI's, tried as an attacker.

A decision taken in the app must never land without its record: a damaged log tail or a
log planted as a symbolic link refuses it with the lockfile untouched, and a key that git
tracks signs nothing.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from mcplock_tui.core.canonical import item_digest
from mcplock_tui.evidence.ledger import bind
from mcplock_tui.evidence.records import EvidencePaths
from mcplock_tui.storage import read_lockfile
from mcplock_tui.tui.app import ReviewApp
from tests.tui.conftest import Project, settle
from tests.tui.test_app import SIZE


def status(app: object) -> str:
    """The whole status line, not just what fits on screen (these messages are long)."""
    from textual.widgets import Static

    assert isinstance(app, ReviewApp)
    return str(app.review.query_one("#status", Static).render())


async def _accept(app: ReviewApp, pilot: Pilot[Any], key: str) -> str:
    """Press `a` on one change, let every worker finish, and return the status line."""
    app.jump_to(key)
    await pilot.press("a")
    await settle(pilot)
    return status(app)


def _damage_log_tail(project: Project) -> None:
    log = EvidencePaths.for_lock(project.lock_path).log
    with log.open("ab") as handle:
        handle.write(b'{"seq": 99, "cut sho')  # a record cut short


async def test_app_accept_with_a_damaged_log_tail_writes_nothing(project: Project) -> None:
    _damage_log_tail(project)
    before = project.lock_path.read_bytes()
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        said = await _accept(app, pilot, "files/tool/write_file")
        assert project.lock_path.read_bytes() == before
        assert "damaged at its last record" in said


async def test_app_accept_through_a_symlinked_log_is_refused(
    project: Project, tmp_path: Path
) -> None:
    log = EvidencePaths.for_lock(project.lock_path).log
    outside = tmp_path / "outside.txt"
    outside.write_bytes(log.read_bytes())
    log.unlink()
    log.symlink_to(outside)
    kept = outside.read_bytes()
    before = project.lock_path.read_bytes()
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        said = await _accept(app, pilot, "files/tool/write_file")
        assert project.lock_path.read_bytes() == before
        assert outside.read_bytes() == kept
        assert "symbolic link" in said


async def test_app_accept_is_recorded_and_the_record_binds_the_new_pin(project: Project) -> None:
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await _accept(app, pilot, "files/tool/write_file")
    lock = read_lockfile(project.lock_path)
    log = EvidencePaths.for_lock(project.lock_path).log.read_text().splitlines()
    last = json.loads(log[-1])
    assert last["change"] == "files/tool/write_file" and last["seq"] == len(log)
    assert last["new_hash"] == item_digest(lock.servers["files"].surface.tools["write_file"])
    assert bind(project.lock_path, lock) is lock


def _track_in_git(folder: Path, key: Path) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull}
    subprocess.run(["git", "init", "-q"], cwd=folder, check=True, env=env)
    subprocess.run(["git", "add", "-f", str(key)], cwd=folder, check=True, env=env)


async def test_app_refuses_to_sign_with_a_key_git_tracks(project: Project) -> None:
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await _accept(app, pilot, "files/tool/move_file")  # makes the key
        key = EvidencePaths.for_lock(project.lock_path).key
        await asyncio.to_thread(_track_in_git, project.folder, key)
        before = project.lock_path.read_bytes()
        said = await _accept(app, pilot, "files/tool/write_file")
        assert project.lock_path.read_bytes() == before
        assert "tracked by git" in said
