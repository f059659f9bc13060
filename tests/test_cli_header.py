"""The text report opens with the files it was made from."""

from __future__ import annotations

import json
from pathlib import Path

from tests.servers.harness import mcp_json, stdio_spec, write_defs
from tests.test_cli import Run, project
from tests.test_cli import run as run


def test_text_report_opens_with_config_and_lockfile(tmp_path: Path, run: Run) -> None:
    project(tmp_path, a=None)
    cursor = tmp_path / ".cursor"
    cursor.mkdir()
    defs = write_defs(tmp_path / "b.json")
    (cursor / "mcp.json").write_text(json.dumps(mcp_json({"b": stdio_spec("b", defs)})))
    assert run("pin").returncode == 0
    result = run("--check")
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.splitlines()[:2]
    assert first.startswith("configs ")
    assert ".mcp.json" in first and ".cursor/mcp.json" in first
    assert second.startswith("lockfile ") and "mcplock.lock" in second


def test_pin_counts_are_singular_for_one(tmp_path: Path, run: Run) -> None:
    defs = project(tmp_path, a=None)
    doc = json.loads(defs["a"].read_text())
    doc["tools"] = doc["tools"][:1]
    defs["a"].write_text(json.dumps(doc))
    result = run("pin")
    assert result.returncode == 0, result.stderr
    assert "1 tool," in result.stdout and "1 tools" not in result.stdout
    assert "3 prompts" in result.stdout
