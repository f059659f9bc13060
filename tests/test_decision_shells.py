"""The CLI and the app decide through one function: same decisions, same bytes on disk.

One pinned, drifted project is copied twice. The same reviewer with the same key accepts
one change and rejects another, once with ``mcplock-tui accept`` / ``reject`` and once with
the app's keys, at the same frozen clock (records are signed with Ed25519, which is
deterministic). The lockfiles and the decision logs must come out byte for byte equal.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
from pathlib import Path

import pytest

from mcplock_tui.cli.main import main
from mcplock_tui.evidence import records as evidence
from mcplock_tui.evidence.records import KEY_ENV, EvidencePaths
from mcplock_tui.tui.screens.modals import RejectNoteScreen
from tests.servers.harness import mcp_json
from tests.tui.conftest import Project, make_project, settle
from tests.tui.test_app import SIZE

ACCEPT = "files/tool/write_file"
REJECT = "files/tool/delete_file"
NOTE = "flips readOnlyHint on a delete"


@pytest.fixture
def twins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Project, Project]:
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("USER", "reviewer")
    monkeypatch.delenv(KEY_ENV, raising=False)
    # One instant for every record, so the two runs can be compared byte for byte.
    monkeypatch.setattr(evidence, "now_utc", lambda: "2026-12-01T12:00:00.000Z")
    first = make_project(tmp_path / "cli")
    second = tmp_path / "app"
    shutil.copytree(first.folder, second, symlinks=True)
    # Both shells launch the same servers (the first copy's definition files).
    config = mcp_json({spec.name: spec for spec in first.specs})
    for folder in (first.folder, second):
        (folder / ".mcp.json").write_text(json.dumps(config), encoding="utf-8")
    twin = Project(second, second / first.lock_path.name, first.specs, first.defs, first.log_dir)
    return first, twin


async def _cli(*argv: str) -> int:
    """The CLI runs its own event loop: a thread of its own, without this test's context."""
    return await asyncio.get_running_loop().run_in_executor(None, main, list(argv))


def _log(project: Project) -> bytes:
    return EvidencePaths.for_lock(project.lock_path).log.read_bytes()


async def test_cli_and_app_decisions_write_the_same_bytes(
    twins: tuple[Project, Project], monkeypatch: pytest.MonkeyPatch
) -> None:
    by_cli, by_app = twins
    assert by_cli.lock_path.read_bytes() == by_app.lock_path.read_bytes()
    assert _log(by_cli) == _log(by_app)

    monkeypatch.chdir(by_cli.folder)
    assert await _cli("accept", ACCEPT, "--timeout", "10") == 0
    assert await _cli("reject", REJECT, "--note", NOTE, "--timeout", "10") == 0

    monkeypatch.chdir(by_app.folder)
    app = by_app.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.jump_to(ACCEPT)
        await pilot.press("a")
        await settle(pilot)
        app.jump_to(REJECT)
        await pilot.press("r")
        assert isinstance(app.screen, RejectNoteScreen)
        await pilot.press(*NOTE, "enter")
        await settle(pilot)

    cli_log, app_log = _log(by_cli), _log(by_app)
    assert len(cli_log.splitlines()) == len(app_log.splitlines()) > 0
    assert [json.loads(line)["decision"] for line in cli_log.splitlines()[-2:]] == [
        "accept",
        "reject",
    ]
    assert cli_log == app_log
    assert by_cli.lock_path.read_bytes() == by_app.lock_path.read_bytes()
