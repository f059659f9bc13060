"""The fast TOML writer and reader agree with tomli_w and tomllib, byte for byte and value for value.

The lockfile's bytes are an API (committed files, golden files), and a hostile lockfile must
mean exactly what tomllib says it means; so both directions are checked differentially, on
generated documents and on generated (mostly invalid) text.
"""

from __future__ import annotations

import tomllib
from typing import Any

import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcplock_tui import storage, toml_fast
from mcplock_tui.core import lockfile as lf
from tests.core.test_lockfile import FORMAT_1, make_lock

_TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=["Cs"])
    | st.sampled_from(list("\"\\\n\r\t\x00\x1f\x7f\u200b\u202e\ufdd0 .[]=#'")),
    max_size=40,
)
_KEYS = st.text(st.sampled_from(list("ab_-9 .\"é[]'\\\n")), max_size=8)
_SCALARS = _TEXT | st.integers(min_value=-(10**20), max_value=10**20) | st.booleans()
_INLINE = st.dictionaries(_KEYS, _SCALARS, max_size=4)
_VALUES = (
    _SCALARS
    | st.lists(_TEXT | st.integers(), max_size=3)
    | st.lists(_INLINE, min_size=1, max_size=3)
)
_DOCS = st.recursive(
    st.dictionaries(_KEYS, _VALUES, max_size=4),
    lambda inner: st.dictionaries(_KEYS, inner | _VALUES, max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_DOCS, st.booleans())
def test_dumps_is_tomli_w_byte_for_byte(doc: dict[str, Any], multiline: bool) -> None:
    assert toml_fast.dumps(doc, multiline_strings=multiline) == tomli_w.dumps(
        doc, multiline_strings=multiline
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_DOCS, st.booleans())
def test_loads_of_written_text_is_tomllib(doc: dict[str, Any], multiline: bool) -> None:
    text = storage._escape_hidden(tomli_w.dumps(doc, multiline_strings=multiline))
    assert toml_fast.loads(text) == tomllib.loads(text)


def _same_as_tomllib(text: str) -> None:
    try:
        expected: object = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        expected = "error"
    try:
        got: object = toml_fast.loads(text)
    except tomllib.TOMLDecodeError:
        got = "error"
    assert got == expected


_LINES = st.sampled_from(
    [
        "[a]\n",
        "[a.b]\n",
        '["a"]\n',
        "[a]]\n",
        "[[a]]\n",
        '[a."b\\u0041"]\n',
        "a = 1\n",
        'a = "x"\n',
        'a = """\nx\ny"""\n',
        'a = """\nx""""\n',
        'a = "\\ud800"\n',
        'a = "\\udc00"\n',
        'a = "\\uDFFF\\u0041\\\\u0041"\n',
        'a = "\\U0001F600\\t\\"\\\\"\n',
        'a = "\\U00110000"\n',
        "a = 01\n",
        "a = -0\n",
        "a = true\n",
        'b = "\\q"\n',
        'c = "tab\there"\n',
        "# comment\n",
        "\n",
        " a = 1\n",
        "a=1\n",
        "a.b = 1\n",
        '"a" = 2\n',
        'a = "x" # c\n',
        "a = 1",
        "\r\n",
        'a = """\nx\\\n  y"""\n',
        "[b]\n",
        'k = "\x7f"\n',
        'k = """\n\x01"""\n',
        "a = 99999999999999999999999\n",
        "[ a ]\n",
    ]
)


@settings(max_examples=600, deadline=None)
@given(st.lists(_LINES, max_size=8))
def test_loads_agrees_with_tomllib_on_hostile_text(lines: list[str]) -> None:
    _same_as_tomllib("".join(lines))


def test_lockfile_text_takes_the_fast_path() -> None:
    """The reader must actually understand what the writer writes, or nothing got faster."""
    text = storage.dumps(make_lock())
    assert toml_fast._fast_loads(text) == tomllib.loads(text)
    doc = lf.encode(make_lock())
    assert toml_fast.dumps(doc, multiline_strings=True) == tomli_w.dumps(
        doc, multiline_strings=True
    )


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(_DOCS)
def test_literal_strings_read_back_the_same_through_both_readers(doc: dict[str, Any]) -> None:
    # Same meaning as the basic form (which folds CRLF, like tomli_w: storage swaps CR first).
    text = toml_fast.dumps(doc, multiline_strings=True, literal_strings=True)
    meant = tomllib.loads(toml_fast.dumps(doc, multiline_strings=True))
    assert tomllib.loads(text) == meant
    assert toml_fast.loads(text) == meant


@given(st.text(st.sampled_from(list("ab'\n\t\"\\")), min_size=1, max_size=30))
def test_quotes_and_backslashes_in_literal_strings(text: str) -> None:
    doc = {"t": {"s": text}}
    written = toml_fast.dumps(doc, multiline_strings=True, literal_strings=True)
    assert tomllib.loads(written) == doc == toml_fast.loads(written)
    if toml_fast.literal_allowed(text):
        assert "s = '''\n" + text + "'''\n" in written  # verbatim: nothing escaped


def _corpus_locks() -> list[lf.Lockfile]:
    """The reference servers' real definitions and the red-team drift rounds, pinned."""
    import json
    from pathlib import Path

    from mcplock_tui.core.surface import build_surface

    corpus = Path(__file__).resolve().parent / "corpus"
    docs = json.loads((corpus / "real_servers.json").read_text(encoding="utf-8"))["servers"]
    docs |= {
        p.stem: json.loads(p.read_text(encoding="utf-8"))["base"]
        for p in sorted(corpus.glob("redteam_drift_*.json"))
    }
    locks = []
    for name, doc in docs.items():
        init = {"serverInfo": doc.get("serverInfo", {}), "instructions": doc.get("instructions")}
        surface = build_surface(
            initialize_result=init,
            launch=f"stdio: {name}",
            tools=doc.get("tools", ()),
            prompts=doc.get("prompts", ()),
            resources=doc.get("resources", ()),
        )
        locks.append(lf.Lockfile({name: lf.ServerPin(surface)}))
    return locks


def test_every_corpus_lockfile_takes_the_fast_path_to_tomllibs_document() -> None:
    locks = _corpus_locks()
    assert len(locks) > 15
    for lock in locks:
        text = storage.dumps(lock)
        assert toml_fast._fast_loads(text) == tomllib.loads(text)
        assert storage.loads(text) == lock
    older = FORMAT_1.read_text(encoding="utf-8")  # with its [log] table and stored hashes
    assert toml_fast._fast_loads(older) == tomllib.loads(older)


@given(_TEXT)
def test_hidden_characters_and_carriage_returns_become_escapes_and_nothing_else(text: str) -> None:
    from mcplock_tui.core.canonical import is_hidden

    expected = "".join(
        storage._toml_escape(ch) if ch == "\r" or (ord(ch) > 0x7F and is_hidden(ch)) else ch
        for ch in text
    )
    assert storage._escape_hidden(text) == expected
