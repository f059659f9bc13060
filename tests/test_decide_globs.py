"""``accept``/``reject`` with glob selectors, end to end against a real fixture server."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from mcplock_tui.cli.main import main
from mcplock_tui.evidence.records import KEY_ENV
from tests.servers.harness import default_defs, mcp_json, stdio_spec


@pytest.fixture(autouse=True)
def _identity(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("USER", "reviewer")
    monkeypatch.delenv(KEY_ENV, raising=False)


def upgraded() -> dict[str, Any]:
    defs = default_defs()
    defs["resources"] += [
        {"uri": f"test://static/resource/{i}", "name": f"Resource {i}"} for i in range(1, 13)
    ]
    defs["tools"] += [
        {"name": name, "description": "Return one record.", "inputSchema": {"type": "object"}}
        for name in ("get_user", "get_team", "put_team")
    ]
    return defs


@pytest.fixture
def defs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "defs.json"
    path.write_text(json.dumps(default_defs()), encoding="utf-8")
    (tmp_path / ".mcp.json").write_text(
        json.dumps(mcp_json({"files": stdio_spec("files", path)})), encoding="utf-8"
    )
    assert main(["pin", "--timeout", "10"]) == 0
    path.write_text(json.dumps(upgraded()), encoding="utf-8")
    return path


def pending(capsys: pytest.CaptureFixture[str]) -> list[str]:
    capsys.readouterr()
    main(["--check", "--format", "json"])
    return [c["id"] for c in json.loads(capsys.readouterr().out)["servers"][0]["changes"]]


def accepted(out: str) -> list[str]:
    return [line.removeprefix("accept ") for line in out.splitlines() if line.startswith("accept ")]


def test_glob_accepts_a_group_and_a_name_pattern(
    defs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert len(pending(capsys)) == 15
    assert main(["accept", "files/resource/test://static/resource/*"]) == 0
    out = capsys.readouterr().out
    assert accepted(out) == [f"files/resource/test://static/resource/{i}" for i in range(1, 13)]
    assert pending(capsys) == ["files/tool/get_team", "files/tool/get_user", "files/tool/put_team"]

    assert main(["accept", "files/tool/get_*"]) == 0
    assert accepted(capsys.readouterr().out) == ["files/tool/get_team", "files/tool/get_user"]
    assert pending(capsys) == ["files/tool/put_team"]


def test_server_star_selects_everything_and_a_glob_that_matches_nothing_is_an_error(
    defs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["reject", "files/tool/nothing_*", "--note", "x"]) == 2
    assert "no change matches it" in capsys.readouterr().err
    assert main(["accept", "files/*", "--dry-run"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len([x for x in lines if x.startswith("would accept ")]) == 15
