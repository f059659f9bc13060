"""A lockfile reads as what was reviewed: a one-property change is one line of its diff.

The hashes that bind each pinned definition to a signed decision live in the decision log,
not in the lockfile; ``--check``, every decision and the runtime guard re-derive them from
the lockfile's content and compare them with the log, so a hand edit or a dropped record is
still refused, by a message that names the command that fixes it.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mcplock_tui import decisions, storage
from mcplock_tui.core.errors import PinHashError
from mcplock_tui.evidence import ledger
from tests.core.test_lockfile import make_lock
from tests.test_cli import Run, edit, project
from tests.test_cli import run as run


def _changed(before: str, after: str) -> list[str]:
    return [
        line
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


def _narrow_path(doc: dict[str, Any]) -> None:
    doc["tools"][0]["inputSchema"]["properties"]["path"]["type"] = "integer"


def test_accepting_a_one_property_schema_change_changes_one_line(tmp_path: Path, run: Run) -> None:
    defs = project(tmp_path, a=None)
    assert run("pin").returncode == 0
    lock = tmp_path / "mcplock.lock"
    before = lock.read_text()
    edit(defs["a"], _narrow_path)
    assert "read_file" in run("--check").stdout, "the change is reported"
    accepted = run("accept", "a/read_file")
    assert accepted.returncode == 0, accepted.stderr
    after = lock.read_text()
    assert _changed(before, after) == [
        '-      "type": "string"',
        '+      "type": "integer"',
    ]
    assert run("--check").returncode == 0
    verify = run("log", "verify")
    assert verify.returncode == 0, verify.stdout + verify.stderr


def test_a_hand_edit_of_a_decided_pin_is_refused_by_check_decisions_and_pin(
    tmp_path: Path, run: Run
) -> None:
    defs = project(tmp_path, a=None)
    assert run("pin").returncode == 0
    edit(defs["a"], _narrow_path)
    assert run("accept", "a/read_file").returncode == 0
    lock = tmp_path / "mcplock.lock"
    text = lock.read_text()
    # What a pull request could do: widen the reviewed schema back by hand.
    lock.write_text(text.replace('"type": "integer"', '"type": "string"', 1))
    edit(
        defs["a"],
        lambda d: d["tools"][0]["inputSchema"]["properties"]["path"].update(type="string"),
    )
    fix = "mcplock-tui pin --server a --replace"
    for argv in (("--check",), ("accept", "a/read_file"), ("pin",)):
        result = run(*argv)
        assert result.returncode == 2, (argv, result.stdout, result.stderr)
        assert "edited by hand" in result.stderr and fix in result.stderr, argv
    replaced = run("pin", "--server", "a", "--replace")
    assert replaced.returncode == 0, replaced.stderr
    assert run("--check").returncode == 0
    assert run("log", "verify").returncode == 0


def test_a_dropped_record_is_refused(tmp_path: Path, run: Run) -> None:
    defs = project(tmp_path, a=None)
    assert run("pin").returncode == 0
    edit(defs["a"], _narrow_path)
    assert run("accept", "a/read_file").returncode == 0
    log = tmp_path / "mcplock.decisions.jsonl"
    lines = log.read_text().splitlines(keepends=True)
    assert json.loads(lines[-1])["decision"] == "accept"
    log.write_text("".join(lines[:-1]))
    result = run("--check")
    assert result.returncode == 2
    assert "record 1" in result.stderr and "pin --server a --replace" in result.stderr


def _edits(text: str) -> Iterator[tuple[str, str]]:
    """One edit per field kind: a TOML string, a JSON field, ``extra``, a server field."""
    yield "description", text.replace("Read a file.", "Read any file.")
    yield "schema", text.replace('"type": "string"', '"type": "number"', 1)
    yield "extra", text.replace('"nested": null', '"nested": 1', 1)
    yield "annotations", text.replace('"readOnlyHint": true', '"readOnlyHint": false', 1)
    yield "server", text.replace('"x-vendor": null', '"x-vendor": "y"', 1)
    yield "prompt", text.replace('"required": true', '"required": false', 1)
    yield "resource", text.replace('name = "a"', 'name = "b"', 1)


@pytest.mark.parametrize(
    "field", ["description", "schema", "extra", "annotations", "server", "prompt", "resource"]
)
def test_an_edit_of_any_field_of_a_recorded_pin_is_refused(tmp_path: Path, field: str) -> None:
    lock_path = tmp_path / "mcplock.lock"
    decisions.pin_new(lock_path, {"demo": make_lock().servers["demo"].surface})
    text = lock_path.read_text(encoding="utf-8")
    assert ledger.bind(lock_path, storage.loads(text)).servers  # as pinned: it binds
    edited = dict(_edits(text))[field]
    assert edited != text, f"the {field} edit must change the file"
    with pytest.raises(PinHashError, match=r"servers\.demo: .* but record \d+ pinned") as exc:
        ledger.bind(lock_path, storage.loads(edited))
    assert exc.value.server == "demo"
    assert "edited by hand" in str(exc.value)
