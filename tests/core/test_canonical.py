"""Hidden characters are shown, never passed through; digests ignore key order only."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcplock_tui.core.canonical import digest, has_hidden, is_hidden, pretty_json, visible

TAGS = "".join(chr(0xE0000 + ord(c)) for c in "send ~/.ssh")


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("plain text\nnext\tline", "plain text\nnext\tline"),
        ("zero\u200bwidth", "zero<U+200B>width"),
        ("bidi \u202egnp.exe", "bidi <U+202E>gnp.exe"),
        ("esc \x1b[31mred\x1b]52;c;AAA\x07", "esc \\x1b[31mred\\x1b]52;c;AAA\\x07"),
        ("c1 \x9b31m", "c1 \\x9b31m"),
        ("nbsp\u00a0and\u3000ideographic", "nbsp<U+00A0>and<U+3000>ideographic"),
        ("caf\u00e9 \u65e5\u672c", "caf\u00e9 \u65e5\u672c"),
        (f"x{TAGS}y", "x<tags:'send ~/.ssh'>y"),
        ("variation\ufe0fselector", "variation<U+FE0F>selector"),
    ],
)
def test_visible(raw: str, shown: str) -> None:
    assert visible(raw) == shown


@given(st.text())
def test_visible_output_has_no_control_or_hidden_characters(text: str) -> None:
    out = visible(text)
    assert not has_hidden(out)
    assert "\x1b" not in out and "\x9b" not in out


@given(st.dictionaries(st.text(max_size=5), st.text(max_size=10), max_size=5))
def test_pretty_json_reads_back_and_hides_nothing(value: dict[str, str]) -> None:
    text = pretty_json(value)
    assert json.loads(text) == value
    assert not has_hidden(text.replace("\n", ""))


def test_digest_ignores_key_order_but_not_content() -> None:
    assert digest({"a": 1, "b": [1, 2]}) == digest({"b": [1, 2], "a": 1})
    assert digest({"a": "x"}) != digest({"a": "x\u200b"})
    assert digest({"a": [1, 2]}) != digest({"a": [2, 1]})


def test_text_at_follows_dotted_indexed_and_odd_keys() -> None:
    from mcplock_tui.core.model import text_at

    item = {
        "inputSchema": {
            "properties": {"q": {"description": "query"}, "a.b": {"description": "dotted"}}
        },
        "arguments": [{"name": "a"}],
    }
    assert text_at(item, "inputSchema.properties.q.description") == "query"
    assert text_at(item, "inputSchema.properties.a.b.description") == "dotted"
    assert text_at(item, "arguments[0].name") == "a"
    assert text_at(item, "arguments[3].name") is None
    assert text_at(item, "inputSchema.properties") is None
    assert text_at(None, "x") is None


@settings(max_examples=500, deadline=None)
@given(
    st.text(
        alphabet=st.one_of(
            st.characters(max_codepoint=0x7F),
            st.sampled_from("\u200b\u202e\u00a0\u3000\ufeff\U000e0041\u00e9\u4e2d\ufdd0\ud800"),
        )
    )
)
def test_the_fast_hidden_check_is_the_character_test(text: str) -> None:
    """``has_hidden`` takes shortcuts for ASCII and for the ASCII part of other text; it
    must still answer what :func:`is_hidden` says of one character at a time."""
    assert has_hidden(text) == any(is_hidden(ch) for ch in text)
