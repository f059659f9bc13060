"""TOML for the lockfile at the speed of regular expressions, same bytes, same values.

``tomli_w`` escapes strings and ``tomllib`` reads them one character at a time in Python;
a lockfile of 5,000 tools holds megabytes of pretty JSON in strings, so both dominated a
pin and a check. Here:

- :func:`dumps` writes exactly what ``tomli_w.dumps`` writes for the lockfile's documents
  (tables, strings, integers, booleans, lists), with strings escaped by one ``re.sub``.
  Anything else (floats, dates, inline tables in lists) goes to ``tomli_w`` itself.
- :func:`loads` reads the narrow dialect :func:`dumps` emits (one statement per line, no
  whitespace it does not write, no comments after values, no single-line literal strings,
  no arrays but arrays of strings)
  and gives every other document, valid or not, to ``tomllib``. It refuses rather than
  guesses: any line outside the dialect, a key or table defined twice, an escape that is
  not a Unicode scalar value or an oversized integer sends the whole text to ``tomllib``, so
  what a hand-edited or hostile file means, and every error it raises, is tomllib's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from mcplock_tui.core.canonical import has_hidden

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_CONTROL_ESCAPES = {"\b": "\\b", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
_CONTROLS = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_CONTROLS_MULTILINE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_PLAIN_LINE = re.compile(r'[^"\\\x00-\x08\x0a-\x1f\x7f]*')
"""A single-line basic string's text that needs no escape (tab is allowed as it is)."""


def _escape_control(match: re.Match[str]) -> str:
    ch = match[0]
    return _CONTROL_ESCAPES.get(ch) or f"\\u{ord(ch):04x}"


def literal_allowed(text: str) -> bool:
    """Whether ``text`` can be a multi-line literal string (``'''``) and read back exactly.

    Literal strings have no escapes, so the text must hold no control character but tab and
    LF (no CR: a CRLF would fold), no hidden character (those are shown as ``\\uXXXX``
    escapes, which only basic strings have), no ``'''``, and must not end with a quote
    (it would merge with the closing delimiter).
    """
    if "\n" not in text or "'''" in text or text.endswith("'"):
        return False
    return not has_hidden(text)  # the controls but LF and tab are hidden, CR among them


def format_string(text: str, *, multiline: bool, literal: bool = False) -> str:
    """``tomli_w``'s string form: multi-line basic when allowed and there is a newline.

    ``literal`` prefers a multi-line literal string where :func:`literal_allowed`: a schema's
    JSON then reads as JSON in a diff, with no escaped quotes.
    """
    if literal and multiline and literal_allowed(text):
        return "'''\n" + text + "'''"
    if not (multiline and "\n" in text) and _PLAIN_LINE.fullmatch(text):
        return '"' + text + '"'  # nothing to escape: hashes, names, most descriptions
    # Backslash first, so the quotes' escapes are not escaped again; controls are rare.
    body = text.replace("\\", "\\\\").replace('"', '\\"')
    if multiline and "\n" in text:
        body = body.replace("\r\n", "\n")
        return '"""\n' + _CONTROLS_MULTILINE.sub(_escape_control, body) + '"""'
    return '"' + _CONTROLS.sub(_escape_control, body) + '"'


@lru_cache(maxsize=4096)  # the same few keys in every item
def _key(part: str) -> str:
    return part if _BARE_KEY.fullmatch(part) else format_string(part, multiline=False)


class _Unsupported(Exception):
    """A value outside the lockfile's shapes: let tomli_w write the whole document."""


def _literal(value: object, multiline: int) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return format_string(value, multiline=bool(multiline), literal=multiline == _LITERAL)
    if isinstance(value, list | tuple):
        if not value:
            return "[]"
        items = ",\n".join("    " + _inline(v, multiline) for v in value)
        return f"[\n{items},\n]"
    raise _Unsupported


def _inline(value: object, multiline: int) -> str:
    """An array item: a scalar, or a table of scalars written inline."""
    if isinstance(value, list | tuple):
        raise _Unsupported  # nested arrays: not a lockfile shape
    if not isinstance(value, Mapping):
        return _literal(value, multiline)
    if not value:
        return "{}"
    parts = ", ".join(f"{_key(k)} = {_inline_scalar(v, multiline)}" for k, v in value.items())
    return "{ " + parts + " }"


def _inline_scalar(value: object, multiline: int) -> str:
    if isinstance(value, Mapping | list | tuple):
        raise _Unsupported
    return _literal(value, multiline)


def _aot(value: object, multiline: int) -> bool:
    """``tomli_w``'s choice: a list of tables too long for one line each is ``[[...]]``."""
    if not isinstance(value, list | tuple) or not value:
        return False
    if not all(isinstance(v, Mapping) for v in value):
        return False
    for item in value:
        rendered = f"    {_inline(item, multiline)},"
        if len(rendered) > _MAX_LINE or "\n" in rendered:
            return True
    return False


_MAX_LINE = 100


def _table(
    table: Mapping[str, Any], name: str, out: list[str], multiline: int, aot: bool = False
) -> None:
    """Append ``table``'s chunks in ``tomli_w``'s order."""
    literals: list[tuple[str, Any]] = []
    tables: list[tuple[str, Mapping[str, Any], bool]] = []
    for key, value in table.items():
        if isinstance(value, str | int):  # most values: no Mapping check (an ABC: slow)
            literals.append((key, value))
        elif isinstance(value, Mapping):
            tables.append((key, value, False))
        elif _aot(value, multiline):
            tables.extend((key, item, True) for item in value)
        else:
            literals.append((key, value))
    written = False
    if aot or (name and (literals or not tables)):
        written = True
        out.append(f"[[{name}]]\n" if aot else f"[{name}]\n")
    for key, value in literals:
        written = True
        out.append(f"{_key(key)} = {_literal(value, multiline)}\n")
    for key, value, in_aot in tables:
        if written:
            out.append("\n")
        written = True
        part = _key(key)
        _table(value, f"{name}.{part}" if name else part, out, multiline, in_aot)


_LITERAL = 2
"""The ``multiline`` level that also prefers literal strings (0: single-line, 1: basic)."""


def dumps(
    doc: Mapping[str, Any], *, multiline_strings: bool = False, literal_strings: bool = False
) -> str:
    """``tomli_w.dumps(doc, multiline_strings=...)``, byte for byte.

    ``literal_strings`` (with ``multiline_strings``) writes multi-line strings as literal
    strings where their text allows; tomli_w has no such mode, so neither does its fallback.
    """
    out: list[str] = []
    level = _LITERAL if literal_strings and multiline_strings else int(multiline_strings)
    try:
        _table(doc, "", out, level)
    except _Unsupported:
        import tomli_w  # only for shapes the lockfile never has

        return tomli_w.dumps(doc, multiline_strings=multiline_strings)
    return "".join(out)


# --- reading ---------------------------------------------------------------------------

_STR_BODY = r'(?:[^"\\\x00-\x08\x0a-\x1f\x7f]++|\\[btnfr"\\]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})*+'
_ML_BODY = r'(?:[^"\\\x00-\x08\x0b-\x1f\x7f]++|\\[btnfr"\\]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})*+'
_KEY_PART = rf'(?:[A-Za-z0-9_-]+|"{_STR_BODY}")'
_KEY_PARTS = re.compile(rf'([A-Za-z0-9_-]+)|"({_STR_BODY})"')
_LIT_BODY = r"(?:[^'\x00-\x08\x0b-\x1f\x7f]++|'{1,2}+(?!'))*+"
"""A multi-line literal string's text: anything but controls (LF and tab allowed) and ``'''``."""
_ARRAY_ITEM = re.compile(rf'    "({_STR_BODY})",\n')
_BLANK_OR_COMMENT = r"(?:\n|#[^\x00-\x08\x0a-\x1f\x7f]*+\n)+"
_UNESCAPE = re.compile(r'\\(?:([btnfr"\\])|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8}))')
_SIMPLE = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}


class _Fallback(Exception):
    """The text is outside the dialect: tomllib decides what it means."""


def _unescape_one(match: re.Match[str]) -> str:
    if match[1] is not None:
        return _SIMPLE[match[1]]
    cp = int(match[2] or match[3], 16)
    if 0xD800 <= cp <= 0xDFFF or cp > 0x10FFFF:
        raise _Fallback
    return chr(cp)


_JSON_UNSAFE = re.compile(r"\\U|\\u[dD][89a-fA-F]")
"""Escapes JSON reads differently from TOML: 8-digit ``\\U`` and surrogate halves."""


def _unescape(body: str) -> str:
    if "\\" not in body:
        return body
    if _JSON_UNSAFE.search(body) is None:
        # The body already passed the TOML escape grammar, whose escapes other than these
        # two mean the same in JSON; the C decoder is far faster than a callback per escape.
        value: str = json.loads(f'"{body}"', strict=False)
        return value
    return _UNESCAPE.sub(_unescape_one, body)


def _header_keys(path: str) -> list[str]:
    return [m[1] if m[1] is not None else _unescape(m[2]) for m in _KEY_PARTS.finditer(path)]


def _open_table(root: dict[str, Any], keys: list[str], defined: set[int]) -> dict[str, Any]:
    node = root
    for key in keys:
        child = node.get(key)
        if child is None:
            child = node[key] = {}
        elif not isinstance(child, dict):
            raise _Fallback
        node = child
    if id(node) in defined or node:  # a table defined twice, or reopened: tomllib's call
        raise _Fallback
    defined.add(id(node))
    return node


_BARE_OR_QUOTED = rf'(?:([A-Za-z0-9_-]+)|"({_STR_BODY})")'
_STATEMENT = re.compile(
    rf"({_BLANK_OR_COMMENT})"  # 1: blank lines and comments
    rf"|\[({_KEY_PART}(?:\.{_KEY_PART})*)\]\n"  # 2: a table header
    rf'|{_BARE_OR_QUOTED} = (?:"""\n({_ML_BODY})"""|"({_STR_BODY})"'  # 3, 4: key; 5, 6
    rf"|(-?(?:0|[1-9][0-9]{{0,17}}))|(true|false)|'''\n({_LIT_BODY})''')\n"  # 7, 8, 9
    # 10, 11: key; 12: an array of strings as dumps writes it (each server's ``hosts``)
    rf'|{_BARE_OR_QUOTED} = (?:\[\]|\[\n((?:    "{_STR_BODY}",\n)*+)\])\n'
)
"""One statement of the dialect per match, the alternatives in the order they were tried
one pattern at a time: blank lines and comments, a header, an assignment, an array."""


def _fast_loads(text: str) -> dict[str, Any]:
    if "\r" in text or (text and not text.endswith("\n")):
        raise _Fallback
    root: dict[str, Any] = {}
    defined: set[int] = {id(root)}
    table = root
    pos, end = 0, len(text)
    match = _STATEMENT.match  # anchored: a search would rescan hostile text from every offset
    while pos < end:
        m = match(text, pos)
        if m is None:
            raise _Fallback
        pos = m.end()
        if m[1] is not None:
            continue
        header = m[2]
        if header is not None:  # also arrays of tables fail here: only long rejection notes
            keys = header.split(".") if '"' not in header else _header_keys(header)
            table = _open_table(root, keys, defined)
            continue
        if m[10] is None and m[11] is None:
            key = m[3] if m[3] is not None else _unescape(m[4])
            if key in table:
                raise _Fallback
            if m[5] is not None:
                table[key] = _unescape(m[5])
            elif m[6] is not None:
                table[key] = _unescape(m[6])
            elif m[7] is not None:
                table[key] = int(m[7])
            elif m[9] is not None:
                table[key] = m[9]  # literal: no escapes to undo
            else:
                table[key] = m[8] == "true"
            continue
        key = m[10] if m[10] is not None else _unescape(m[11])
        if key in table:
            raise _Fallback
        table[key] = [_unescape(item) for item in _ARRAY_ITEM.findall(m[12] or "")]
    return root


def loads(text: str) -> dict[str, Any]:
    """``tomllib.loads(text)``: the same document, or the same TOMLDecodeError."""
    try:
        return _fast_loads(text)
    except _Fallback:
        import tomllib  # a lockfile as written never gets here: kept off the first frame

        return tomllib.loads(text)
