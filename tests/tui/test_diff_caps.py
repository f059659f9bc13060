"""The app's diff of a huge description is capped: lines, not words, with a visible note."""

from __future__ import annotations

import time

from mcplock_tui.tui.render.field_diff import LONG_TEXT_NOTE, Row, line_rows


def _plain(rows: list[Row]) -> list[str]:
    return [
        (r.left.plain if r.left else "") + "|" + (r.right.plain if r.right else "") for r in rows
    ]


def test_long_line_falls_back_to_lines_with_a_note() -> None:
    old = " ".join(f"w{i}" for i in range(30_000))
    new = " ".join(f"w{i}" for i in range(1, 30_001))
    started = time.monotonic()
    rows = line_rows(old, new)
    assert time.monotonic() - started < 10, "capped, not quadratic"  # generous: blow-up guard
    shown = _plain(rows)
    assert any(LONG_TEXT_NOTE in line for line in shown)
    assert any(old in line for line in shown) and any(new in line for line in shown)


def test_many_lines_fall_back_with_a_note() -> None:
    old = "\n".join(f"line {i} a" for i in range(20_000))
    new = "\n".join(f"line {i} b" for i in range(20_000))
    started = time.monotonic()
    rows = line_rows(old, new)
    assert time.monotonic() - started < 10
    shown = _plain(rows)
    assert any(LONG_TEXT_NOTE in line for line in shown)
    assert len(rows) <= 4002 and "16000 more old and 16000 more new lines" in shown[-1]


def test_short_text_keeps_the_word_diff() -> None:
    [row] = line_rows("Read the file.", "Read the whole file.")
    assert LONG_TEXT_NOTE not in _plain([row])[0]
    assert row.changed
