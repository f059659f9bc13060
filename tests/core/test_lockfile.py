"""Lockfile model and bytes: determinism, exact round-trip, visible escapes, refusals."""

from __future__ import annotations

import random
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcplock_tui import storage
from mcplock_tui.core.lockfile import Lockfile, LogHead, Rejection, ServerPin
from mcplock_tui.core.model import Kind
from mcplock_tui.core.surface import build_surface
from mcplock_tui.errors import LockfileError

INIT = {
    "protocolVersion": "2025-11-25",
    "serverInfo": {"name": "demo", "version": "1.0.0", "x-vendor": None},
    "capabilities": {"tools": {"listChanged": True}, "prompts": {}},
    "instructions": "Use the tools.\r\nCRLF kept.",
}
TOOLS: list[dict[str, object]] = [
    {
        "name": "read_file",
        "description": "Read a file.\nSecond line with zero\u200bwidth and bidi \u202e and ESC \x1b[31m.",
        "inputSchema": {
            "type": "object",
            "properties": {"path": {"type": "string"}},
            "required": ["path"],
        },
        "annotations": {"readOnlyHint": True},
        "x-unknown": {"nested": None},
    },
    {
        "name": "write_file",
        "description": 'Has """ quotes and a trailing backslash \\',
        "inputSchema": {},
    },
    {"name": "odd key \u00e9 [x].y", "title": "Caf\u00e9", "inputSchema": {"type": "object"}},
]


def make_lock(tools: list[dict[str, object]] | None = None) -> Lockfile:
    surface = build_surface(
        initialize_result=INIT,
        launch="stdio: python server.py",
        tools=tools if tools is not None else TOOLS,
        prompts=[{"name": "review", "arguments": [{"name": "code", "required": True}]}],
        resources=[{"uri": "file:///tmp/a.txt", "name": "a"}],
        resource_templates=[{"uriTemplate": "https://api.example.com/{id}", "name": "item"}],
    )
    return Lockfile({"demo": ServerPin(surface)})


def test_round_trip_is_exact() -> None:
    lock = make_lock()
    assert storage.loads(storage.dumps(lock)) == lock


def test_same_surface_gives_identical_bytes_whatever_the_order() -> None:
    shuffled = [dict(reversed(list(t.items()))) for t in TOOLS]
    random.Random(7).shuffle(shuffled)
    assert storage.dumps(make_lock(shuffled)) == storage.dumps(make_lock())


def test_hidden_characters_are_escaped_in_the_file() -> None:
    text = storage.dumps(make_lock())
    assert "\u200b" not in text and "\u202e" not in text and "\x1b" not in text
    assert "\\u200B" in text and "\\u202E" in text and "\\u001b" in text
    assert "Caf\u00e9" in text, "readable non-ASCII stays readable"


def test_crlf_survives_and_long_text_is_multiline() -> None:
    text = storage.dumps(make_lock())
    doc = tomllib.loads(text)
    assert doc["servers"]["demo"]["instructions"]["text"] == "Use the tools.\r\nCRLF kept."
    assert 'description = """\nRead a file.\nSecond line' in text
    assert "input_schema = '''\n{\n  \"properties\"" in text  # JSON as JSON: no escapes


def test_schema_is_pretty_json_so_a_diff_shows_one_line() -> None:
    before = storage.dumps(make_lock()).splitlines()
    tools = [
        dict(
            TOOLS[0],
            inputSchema={
                "type": "object",
                "properties": {"path": {"type": "integer"}},
                "required": ["path"],
            },
        ),
        *TOOLS[1:],
    ]
    after = storage.dumps(make_lock(tools)).splitlines()
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    # no hash sits beside the definition, so the property's own line is all that moves
    assert changed == [('      "type": "string"', '      "type": "integer"')]


def test_rejections_round_trip() -> None:
    lock = make_lock()
    pin = lock.servers["demo"]
    rejected = Rejection(Kind.TOOL, "read_file", "sha256:" + "0" * 64, "looks poisoned")
    lock = Lockfile({"demo": ServerPin(pin.surface, (rejected,))})
    back = storage.loads(storage.dumps(lock))
    assert back.servers["demo"].rejection_for(Kind.TOOL, "read_file") == rejected


FORMAT_1 = Path(__file__).resolve().parent.parent / "corpus" / "lockfile_format1.toml"
"""``make_lock()`` with a log head at record 3, as the format-1 writer wrote it."""


def test_a_format_1_lockfile_reads_as_it_did_and_is_written_as_format_2() -> None:
    text = FORMAT_1.read_text(encoding="utf-8")
    lock = storage.loads(text)
    assert replace(lock, log_head=None) == make_lock()
    assert lock.log_head == LogHead(3, "sha256:" + "cd" * 32)
    assert storage.dumps(lock) == storage.dumps(make_lock())
    written = storage.dumps(lock)
    assert "version = 2\n" in written and "hash = " not in written and "[log]" not in written


def test_a_hand_edit_of_a_format_1_lockfile_is_refused_by_its_stored_hash() -> None:
    text = FORMAT_1.read_text(encoding="utf-8").replace("Read a file.", "Read any file.")
    with pytest.raises(
        LockfileError,
        match=r"servers\.demo\.tools\.read_file: the pinned definition does not match",
    ):
        storage.loads(text)


def test_other_format_version_is_refused() -> None:
    text = storage.dumps(make_lock()).replace("version = 2\n", "version = 3\n", 1)
    with pytest.raises(LockfileError, match="format version 3 is not supported"):
        storage.loads(text)


def test_syntax_error_names_line_and_column() -> None:
    with pytest.raises(LockfileError, match=r"line 3, column"):
        storage.loads("version = 1\nhash_model = 1\n[servers\n")


_text = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40)


@settings(max_examples=150, deadline=None)
@given(description=_text, title=_text, key=_text.filter(bool))
def test_any_string_reads_back_exactly(description: str, title: str, key: str) -> None:
    tools: list[dict[str, object]] = [
        {
            "name": key,
            "title": title,
            "description": description,
            "inputSchema": {"enum": [description]},
        }
    ]
    lock = make_lock(tools)
    text = storage.dumps(lock)
    assert storage.loads(text) == lock
    assert not any(ch in text for ch in "\u200b\u202e\x1b\x85\u2028")


def test_schemas_are_readable_json_in_the_lockfile() -> None:
    text = storage.dumps(make_lock())
    assert '\\"' not in text.split("write_file")[0]  # no escaped quote before the odd tool
    assert "input_schema = '''\n{\n" in text
    assert '    "path": {\n' in text


def test_text_that_cannot_be_literal_stays_a_basic_string() -> None:
    text = storage.dumps(make_lock())
    # the zero-width and bidi characters must stay visible escapes, so not a literal string
    assert "\\u200B" in text and "\\u202E" in text
    assert storage.loads(text) == make_lock()
