"""The app's one-line widgets keep every server string on one line, whatever separator it holds."""

from __future__ import annotations

import re

import pytest

from mcplock_tui.tui.render.safe_text import one_line

BREAKS = re.compile(r"[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


@pytest.mark.parametrize(
    "sep", ["\n", "\r", "\r\n", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"]
)
def test_one_line_shows_every_separator_as_a_token(sep: str) -> None:
    shown = one_line(f"read_file{sep}::error::x", "bold", limit=80).plain
    assert not BREAKS.search(shown), repr(shown)
    assert shown.startswith("read_file") and "::error::x" in shown


def test_one_line_clip_does_not_split_a_token() -> None:
    shown = one_line("a" * 10 + "\u2028" + "b" * 10, limit=12).plain
    assert not BREAKS.search(shown) and shown.endswith("…")
