"""Server text cannot forge report lines or GitHub Actions workflow commands.

A tool name, description line, unknown key or error message may hold newlines, other line
separators and ``::error::``; the text report must keep each on one line, and no output line
may start (after blanks, as the Actions runner reads it) with server-controlled text.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mcplock_tui.cli.render import github_escape_data, github_escape_property, one_line
from tests.servers.harness import mcp_json, stdio_spec, write_defs

SEPARATORS = ["\n", "\r", "\r\n", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1e"]
FORGED = "::error::pwned"


def _run(
    cwd: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    root = Path(__file__).resolve().parent.parent
    full = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    full.update({"PYTHONPATH": str(root), **(env or {})})
    return subprocess.run(
        [sys.executable, "-m", "mcplock_tui", *args],
        cwd=cwd,
        env=full,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _hostile(doc: dict[str, Any]) -> None:
    tool = doc["tools"][0]
    lines = [f"Read a file.{sep}{FORGED}{i}" for i, sep in enumerate(SEPARATORS)]
    tool["description"] = "\n".join(lines) + "\n  ::warning::indented"
    tool["::notice::key"] = "x\n::error::in-an-unknown-key"
    doc["tools"].append(
        {
            "name": "evil\n✓ docs  clean\nNo drift. Exit 0.\n::error::forged\r::add-mask::x",
            "description": "\u2028::stop-commands::abc\u2029::error::y",
            "inputSchema": {"type": "object"},
        }
    )


def _commands(text: str) -> list[str]:
    """Lines the Actions runner would treat as workflow commands (it trims leading blanks)."""
    return [line for line in re.split(r"\r\n|\r|\n", text) if line.lstrip().startswith("::")]


@pytest.fixture
def drifted(tmp_path: Path) -> Path:
    defs = write_defs(tmp_path / "docs.json")
    (tmp_path / ".mcp.json").write_text(json.dumps(mcp_json({"docs": stdio_spec("docs", defs)})))
    assert _run(tmp_path, "pin").returncode == 0
    doc = json.loads(defs.read_text())
    _hostile(doc)
    defs.write_text(json.dumps(doc))
    return tmp_path


def test_check_report_has_no_forged_lines(drifted: Path) -> None:
    result = _run(drifted, "--check")
    assert result.returncode == 1, result.stderr
    assert _commands(result.stdout) == []
    assert _commands(result.stderr) == []
    lines = result.stdout.splitlines()
    assert "No drift. Exit 0." not in [line.strip() for line in lines]
    assert not any(line.strip().startswith("✓ docs") for line in lines)
    assert "\\n::error::forged" in result.stdout, "the newline is shown as an escape"
    for sep in ("\\x0d", "<U+2028>", "<U+2029>", "\\x85", "\\x0b", "\\x0c"):
        assert sep in result.stdout, sep


def test_pin_output_of_hostile_names_is_one_line_each(drifted: Path) -> None:
    result = _run(drifted, "pin")
    assert result.returncode == 1, result.stderr  # drift is listed, the pin kept
    assert "\\n::error::forged" in result.stdout, "the drifted name is listed, escaped"
    assert _commands(result.stdout) == [] and _commands(result.stderr) == []


def test_github_annotations_are_ours_and_escaped(drifted: Path) -> None:
    result = _run(drifted, "--check", env={"GITHUB_ACTIONS": "true"})
    assert result.returncode == 1, result.stderr
    commands = _commands(result.stdout)
    assert commands, "real annotations are emitted under GitHub Actions"
    shape = re.compile(r"^::(error|warning) file=[^:,]*,title=[^:,\r\n]*::[^\r\n]*$")
    for line in commands:
        assert shape.match(line), line
    assert any("evil%0A" in line for line in commands), "the name travels escaped"


def test_github_escaping_follows_the_documented_rules() -> None:
    assert github_escape_data("50%\r\nnext") == "50%25%0D%0Anext"
    assert github_escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"


@pytest.mark.parametrize("sep", [*SEPARATORS, "\t", "\x1b[31m", "\u200b"])
def test_one_line_leaves_no_separator(sep: str) -> None:
    shown = one_line(f"a{sep}::error::b")
    assert len(re.split(r"[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]", shown)) == 1
    assert "\x1b" not in shown
