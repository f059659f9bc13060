"""Canonical JSON, digests and the hidden-character model.

Hashes are computed over the canonical JSON of what the server sent, so key order and
whitespace never count as drift while every character of every string does. The same
module decides which characters are "hidden": the lockfile writes them as escapes and the
UI and reports show them as visible tokens, so a reviewer never reads around them.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import unicodedata
from collections.abc import Mapping
from functools import lru_cache
from json.encoder import encode_basestring
from typing import Any

HASH_MODEL = 1
"""Version of what the hashes cover. A lockfile written under another model is refused."""

# Characters that render as nothing, as blank, or that change how neighbours render.
# Categories: Cc control, Cf format (zero-width, bidi, tags, soft hyphen), Co private use,
# Cs surrogates, Cn unassigned, Zl/Zp separators. Plus blanks that are not U+0020,
# variation selectors (used to smuggle bytes) and fillers that look empty.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
_EXTRA_HIDDEN = frozenset(
    {0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x180E, 0x034F}
    | set(range(0xFE00, 0xFE10))
    | set(range(0xE0100, 0xE01F0))
)
_ALLOWED_CONTROLS = frozenset("\n\t")


@lru_cache(maxsize=4096)
def is_hidden(ch: str) -> bool:
    """True for a character a reviewer could not see, or that alters rendering."""
    if ch in _ALLOWED_CONTROLS:
        return False
    cp = ord(ch)
    if cp < 0x80:
        return cp < 0x20 or cp == 0x7F
    if cp in _EXTRA_HIDDEN:
        return True
    cat = unicodedata.category(ch)
    return cat in _HIDDEN_CATEGORIES or (cat == "Zs" and cp != 0x20)


_ASCII_HIDDEN = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def has_hidden(text: str) -> bool:
    """Whether :func:`is_hidden` holds for any character of ``text``, at C speed but for
    the non-ASCII characters (each looked up once)."""
    if text.isascii():  # hidden there: the controls but LF and tab, and DEL
        return not text.replace("\n", "").replace("\t", "").isprintable()
    if _ASCII_HIDDEN.search(text):
        return True
    return any(is_hidden(ch) for ch in _NON_ASCII.findall(text))


_TAG_RUN = re.compile("[\U000e0020-\U000e007e]{2,}")


def _tag_token(match: re.Match[str]) -> str:
    decoded = "".join(chr(ord(ch) - 0xE0000) for ch in match.group(0))
    return f"<tags:{decoded!r}>"


def visible(text: str) -> str:
    """Display form: C0/C1 controls as ``\\x1b``, other hidden characters as ``<U+200B>``.

    A run of Unicode tag characters (invisible ASCII) is shown decoded, as
    ``<tags:'read ~/.ssh'>``. Newlines and tabs stay as they are. The result contains no
    control character but ``\\n`` and ``\\t``, so it can go to a terminal.
    """
    if not has_hidden(text):
        return text
    out: list[str] = []
    pos = 0
    for match in _TAG_RUN.finditer(text):
        out.append(_escape_each(text[pos : match.start()]))
        out.append(_tag_token(match))
        pos = match.end()
    out.append(_escape_each(text[pos:]))
    return "".join(out)


def _escape_each(text: str) -> str:
    return "".join(
        (f"\\x{ord(ch):02x}" if ord(ch) < 0xA0 else f"<U+{ord(ch):04X}>") if is_hidden(ch) else ch
        for ch in text
    )


_CANON = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True)
"""One encoder for every call: ``json.dumps`` with options builds a new one each time, which
costs as much as encoding a small tool definition."""


def canon_json(value: Any) -> str:
    """Compact, key-sorted, ASCII-only JSON: the form every digest is taken over."""
    return _CANON.encode(value)


def digest(value: Any) -> str:
    return "sha256:" + hashlib.sha256(canon_json(value).encode("ascii")).hexdigest()


def digest_text(text: str) -> str:
    """``digest(value)`` for ``text = canon_json(value)``, without encoding it again."""
    return "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()


class HashedItem(dict[str, Any]):
    """A pinned item read from a lockfile, with its digest.

    Reading a lockfile computes every item's canonical JSON (for its digest, which the
    decision log binds); keeping that digest lets a diff compare a pinned item with a live
    one by encoding only the live one. The item cannot be changed at the top level (a
    change would leave the digest stale); a copy (``dict(item)``, ``copy``, ``pickle``) is
    a plain dict.
    Nested values are the decoded JSON and are never changed by the product either.
    """

    __slots__ = ("digest",)

    def __init__(self, item: Mapping[str, Any], digest: str) -> None:
        super().__init__(item)
        self.digest = digest

    def _refuse(self, *args: object, **kwargs: object) -> Any:
        raise TypeError("a pinned item is read-only")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[type[dict[str, Any]], tuple[dict[str, Any]]]:
        return dict, (dict(self),)


def item_digest(value: Any) -> str:
    """``digest(value)``, without encoding a pinned item whose digest is already known."""
    if type(value) is HashedItem:
        return value.digest
    return digest(value)


def same_json(a: Any, b: Any) -> bool:
    """``canon_json(a) == canon_json(b)``, by digest where one side's is known already."""
    if a is b:  # an unchanged pinned item shares its live object (``share_unchanged``)
        return True
    if type(a) is HashedItem or type(b) is HashedItem:
        return item_digest(a) == item_digest(b)
    return canon_json(a) == canon_json(b)


def _json_escape(ch: str) -> str:
    cp = ord(ch)
    if cp > 0xFFFF:
        cp -= 0x10000
        return f"\\u{0xD800 + (cp >> 10):04x}\\u{0xDC00 + (cp & 0x3FF):04x}"
    return f"\\u{cp:04x}"


class _NotPlain(Exception):
    """A value :func:`_indented` leaves to the standard encoder (a non-string key, an object)."""


def _float_text(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (math.inf, -math.inf):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


def _indented(value: Any, indent: str) -> str:
    """``json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False)``, byte for byte.

    The standard encoder indents in pure Python through nested generators; building each
    container with one ``join`` is about twice as fast, and a lockfile holds thousands of
    schemas. Plain dicts and lists are recognised first (no other type can be one); other
    values are checked in the standard encoder's order (str, None, True, False, int, float,
    list/tuple, dict), and anything else raises :class:`_NotPlain` for the fallback.
    """
    kind = type(value)
    if kind is dict:
        return _object(value, indent)
    if kind is list:
        return _array(value, indent)
    if isinstance(value, str):
        return encode_basestring(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _float_text(value)
    if isinstance(value, list | tuple):
        return _array(value, indent)
    if isinstance(value, dict):
        return _object(value, indent)
    raise _NotPlain


def _array(value: list[Any] | tuple[Any, ...], indent: str) -> str:
    if not value:
        return "[]"
    inner = indent + "  "
    body = (",\n" + inner).join(
        [encode_basestring(v) if type(v) is str else _indented(v, inner) for v in value]
    )
    return "[\n" + inner + body + "\n" + indent + "]"


def _object(value: dict[Any, Any], indent: str) -> str:
    if not value:
        return "{}"
    for key in value:
        if not isinstance(key, str):
            raise _NotPlain
    inner = indent + "  "
    body = (",\n" + inner).join(
        [  # string leaves inline: most of a schema, and a call each otherwise
            encode_basestring(k)
            + ": "
            + (encode_basestring(v) if type(v) is str else _indented(v, inner))
            for k, v in sorted(value.items())
        ]
    )
    return "{\n" + inner + body + "\n" + indent + "}"


def pretty_json(value: Any) -> str:
    """Key-sorted, indented JSON for people: readable non-ASCII stays, hidden chars are escaped.

    With ``ensure_ascii=False`` hidden characters can only occur inside JSON strings, where a
    ``\\uXXXX`` escape is valid, so escaping them keeps the text parseable to the same value.
    """
    return escape_hidden_json(plain_pretty_json(value))


def plain_pretty_json(value: Any) -> str:
    """``json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False)``, hidden chars raw."""
    try:
        return _indented(value, "")
    except _NotPlain:
        return json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False)


def escape_hidden_json(text: str) -> str:
    """Hidden characters of the JSON ``text`` as ``\\uXXXX`` escapes (newlines stay)."""
    if not has_hidden(text):
        return text
    return "".join(_json_escape(ch) if is_hidden(ch) and ch != "\n" else ch for ch in text)


def display_json(value: Any) -> str:
    """Key-sorted, indented JSON for screens: hidden characters as visible tokens.

    Unlike :func:`pretty_json` the result is not meant to be parsed back: a tag-character
    payload reads as ``<tags:'…'>`` rather than as a wall of surrogate escapes.
    """
    return visible(json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False))
