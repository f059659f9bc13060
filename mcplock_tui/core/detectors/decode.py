"""Encoded text: find base64, base32, hex, percent, HTML-entity and escape encodings and undo them.

Models decode base64 and hex on sight and read entities and escapes as the characters they
stand for, so a payload that a keyword filter cannot see is still an instruction to them.
Opaque runs (base64, hex) come back as :class:`Decoded` runs and the caller reports findings
on the whole run; in-line encodings (``&#105;gnore``, ``%69gnore``, ``\\u0069gnore``) come
back as a rewritten :class:`Variant` of the whole string with a map to the original, so a
finding points at exactly the encoded characters.

Which way it fails: a run must decode to mostly printable UTF-8 with some letters, which
rejects hashes, ids and identifiers (no noise) but also payloads that are compressed or
encrypted before encoding (missed). Runs shorter than 16 characters (12 bytes) are
ignored. ROT13 and reversed text are tried only when two common payload words appear so
disguised; other ciphers are not tried.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import re
from collections.abc import Callable, Iterator
from typing import NamedTuple

from mcplock_tui.core.detectors.base import vocab
from mcplock_tui.core.detectors.hidden import Decoded

MAX_RUNS = 32
"""Per string; a string made of thousands of runs is reported on its first ones."""

# A run may follow "=" (``data=aGVsbG8...``, a query string); padding only ends one.
_CANDIDATE = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,}={0,6}(?![A-Za-z0-9+/=_-])")
# Spaced hex of text: every byte of printable ASCII starts with 2-7, which lets the regex skip
# ahead to digits instead of trying every letter a-f.
_HEX_SPACED = re.compile(
    r"[2-7][0-9A-Fa-f][ :,](?:[0-9A-Fa-f]{2}[ :,]){6,}[0-9A-Fa-f]{2}(?![0-9A-Fa-f])"
)
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
_BASE32 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
_PERCENT = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});?")
_ESCAPE = re.compile(
    r"\\(?:u[0-9A-Fa-f]{4}|u\{[0-9A-Fa-f]{1,6}\}|U[0-9A-Fa-f]{8}|x[0-9A-Fa-f]{2}|[0-3][0-7]{2})"
)


class Variant(NamedTuple):
    """The whole string with one in-line encoding undone, mapped to the original."""

    text: str
    starts: list[int]
    ends: list[int]
    encoding: str


def readable(data: bytes) -> str | None:
    """The text ``data`` holds if it is mostly printable UTF-8 with letters, else None."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(text) < 6:
        return None
    printable = sum(c.isprintable() or c in "\n\t\r" for c in text)
    letters = sum(c.isalpha() for c in text)
    wordish = sum(c.isalnum() or c == " " for c in text)
    if printable < 0.9 * len(text) or letters < 3 or wordish < 0.5 * len(text):
        return None
    return text


def _decode_candidate(run: str) -> tuple[str, str] | None:
    body = run.rstrip("=")
    if body[:2] in ("0x", "0X") and len(body) % 2 == 0 and set(body[2:]) <= _HEX_DIGITS:
        text = readable(bytes.fromhex(body[2:]))
        return (text, "hex") if text is not None else None
    if len(body) % 2 == 0 and set(body) <= _HEX_DIGITS:
        text = readable(bytes.fromhex(body))
        if text is not None:
            return text, "hex"
    if len(run) % 8 == 0 and run.isupper() and set(body) <= _BASE32:
        try:
            text = readable(base64.b32decode(run))
        except (binascii.Error, ValueError):
            text = None
        if text is not None:
            return text, "base32"
    if not (any(c.isdigit() for c in body) or (body.lower() != body and body.upper() != body)):
        return None
    if len(body) % 4 == 1:
        return None
    padded = body + "=" * (-len(body) % 4)
    url = "-" in body or "_" in body
    if url and ("+" in body or "/" in body):
        return None
    try:
        data = (base64.urlsafe_b64decode if url else base64.b64decode)(padded.encode("ascii"))
    except (binascii.Error, ValueError):
        return None
    text = readable(data)
    return (text, "base64url" if url else "base64") if text is not None else None


def runs(text: str) -> list[Decoded]:
    """Base64 and hex runs in ``text`` that decode to readable text."""
    out: list[Decoded] = []
    if len(text) < 16:
        return out
    # Runs live inside long blank-separated tokens; finding those first skips the regex on
    # ordinary prose, where no token reaches 16 characters.
    tokens = text.split()
    if max(map(len, tokens), default=0) < 16:
        tokens = []
    pos = 0
    for token in tokens:
        start = text.find(token, pos)
        pos = start + len(token)
        if len(token) < 16:
            continue
        for m in _CANDIDATE.finditer(token):
            found = _decode_candidate(m.group())
            if found is not None:
                out.append(Decoded(start + m.start(), start + m.end(), found[0], found[1]))
                if len(out) >= MAX_RUNS:
                    return out
    for m in _HEX_SPACED.finditer(text):
        if m.start() and text[m.start() - 1] in _HEX_DIGITS:
            continue
        digits = re.sub(r"[ :,]", "", m.group())
        decoded = readable(bytes.fromhex(digits))
        if decoded is not None:
            out.append(Decoded(m.start(), m.end(), decoded, "hex"))
    return out[:MAX_RUNS]


Pieces = Iterator[tuple[str, int, int]]
"""Decoded text pieces with the original span each comes from."""


def _rewrite(
    text: str, pattern: re.Pattern[str], decode: Callable[[re.Match[str]], Pieces], encoding: str
) -> Variant | None:
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    pos = 0
    changed = False
    for m in pattern.finditer(text):
        for i in range(pos, m.start()):
            out.append(text[i])
            starts.append(i)
            ends.append(i + 1)
        for piece, s, e in decode(m):
            changed = changed or piece != text[s:e]
            for c in piece:
                out.append(c)
                starts.append(s)
                ends.append(e)
        pos = m.end()
    if not changed:
        return None
    for i in range(pos, len(text)):
        out.append(text[i])
        starts.append(i)
        ends.append(i + 1)
    return Variant("".join(out), starts, ends, encoding)


def _percent(m: re.Match[str]) -> Pieces:
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    char_start = m.start()
    for k in range(m.start(), m.end(), 3):
        chunk = decoder.decode(bytes([int(m.string[k + 1 : k + 3], 16)]))
        if chunk:
            yield chunk, char_start, k + 3
            char_start = k + 3
    tail = decoder.decode(b"", final=True)
    if tail:
        yield tail, char_start, m.end()


def _entity(m: re.Match[str]) -> Pieces:
    yield html.unescape(m.group()), m.start(), m.end()


def _escape(m: re.Match[str]) -> Pieces:
    if m.group()[1].isdigit():  # octal, as C, Python and shells write it
        yield chr(int(m.group()[1:], 8)), m.start(), m.end()
        return
    body = m.group()[2:].strip("{}")
    cp = int(body, 16)
    yield (chr(cp) if cp <= 0x10FFFF else m.group()), m.start(), m.end()


# Words that open most payloads. A text is tried as ROT13 or reversed only when its own
# words contain two of them in that disguise, so ordinary prose costs one set intersection.
_TRIGGERS = vocab(
    "ignore previous prior instructions system prompt user tell secret password token send "
    "read ssh key conversation forget disregard important mention hidden credentials upload "
    "assistant silently private exfiltrate"
)
_ROT13 = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "nopqrstuvwxyzabcdefghijklmNOPQRSTUVWXYZabcdefghijklm",
)
_ROT13_WORDS = frozenset(w.translate(_ROT13) for w in _TRIGGERS)
_REVERSED_WORDS = frozenset(w[::-1] for w in _TRIGGERS)
CIPHER_WORDS = _ROT13_WORDS | _REVERSED_WORDS
"""A text holding none of these has no cipher reading worth trying."""


def ciphers(text: str, words: frozenset[str]) -> list[Variant]:
    """ROT13 and reversed readings of ``text`` when ``words`` (its casefolded words) hold
    at least two trigger words so disguised; maps point at the original characters."""
    out: list[Variant] = []
    n = len(text)
    if not words.isdisjoint(_ROT13_WORDS) and len(words & _ROT13_WORDS) >= 2:
        out.append(Variant(text.translate(_ROT13), list(range(n)), list(range(1, n + 1)), "ROT13"))
    if not words.isdisjoint(_REVERSED_WORDS) and len(words & _REVERSED_WORDS) >= 2:
        out.append(
            Variant(text[::-1], list(range(n - 1, -1, -1)), list(range(n, 0, -1)), "reversal")
        )
    return out


def variants(text: str) -> list[Variant]:
    """In-line decodings of ``text`` that differ from it."""
    out: list[Variant | None] = []
    if "%" in text:
        out.append(_rewrite(text, _PERCENT, _percent, "percent-encoding"))
    if "&" in text:
        out.append(_rewrite(text, _ENTITY, _entity, "HTML entities"))
    if "\\" in text:
        out.append(_rewrite(text, _ESCAPE, _escape, "escape sequences"))
    return [v for v in out if v is not None]
