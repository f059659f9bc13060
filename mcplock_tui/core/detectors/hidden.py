"""Hidden and invisible characters, terminal escapes and blank padding, on the ORIGINAL text.

A model reads every code point; a reviewer sees only what renders. This family reports what
renders as nothing or changes how neighbours render, and hands the two invisible encodings
(Unicode tag characters, variation-selector byte runs) to the decoder so their payload is
scanned like any other text.

Which way it fails: legitimate uses are exempt by shape (a ZWJ between emoji, ZWJ/ZWNJ
inside Arabic or Indic words, direction marks in right-to-left text, a single variation
selector, emoji flag tag sequences, a BOM at the very start). An attack that hides inside
those shapes (a ZWJ between two emoji carrying nothing) is missed; it also carries no text.
Findings are one per class per string (first occurrence, with a count), not one per
character, so a string salted with hundreds of invisible characters stays readable.
"""

from __future__ import annotations

import bisect
import re
import sys
import unicodedata
from typing import NamedTuple

from mcplock_tui.core.detectors.base import Hit, quote
from mcplock_tui.core.detectors.normalize import is_plain


class Decoded(NamedTuple):
    """An encoded run found in the original text and what it decodes to."""

    start: int
    end: int
    text: str
    encoding: str


_ZW = re.compile(
    "[\u200b-\u200f\u2060-\u2064\ufeff\u00ad\u180e\u034f\u115f\u1160\u3164\uffa0"
    "\u17b4\u17b5\u061c\u206a-\u206f\ufff9-\ufffb\U0001d173-\U0001d17a]+"
)
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
_BIDI_REGION = re.compile(
    "[\u202a-\u202e\u2066-\u2069][^\n]*?(?:[\u202c\u2069](?![\u202c\u2069])|(?=\n)|$)"
)
_TAG = re.compile("[\U000e0000-\U000e007f]+")
_FLAG = re.compile("\U0001f3f4[\U000e0030-\U000e0039\U000e0061-\U000e007a]{2,6}\U000e007f")
_VS = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]+")
_ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[PX^_][^\x1b\x9c]*(?:\x1b\\|\x9c)?|\x1b[@-Z\\-_]?"
    r"|\x9b[0-?]*[ -/]*[@-~]|\x9d[^\x07\x1b\x9c]*(?:\x07|\x9c)?"
)
_CTRL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9a\x9c\x9e\x9f]+|\r(?!\n)")
_BLANK = "[\x20\t\u00a0\u2000-\u200a\u202f\u205f\u3000\u2800\u3164\u115f\u1160\uffa0]"
# Each pattern may only start where a blank run starts and never backtracks into it, so a
# megabyte of spaces costs one pass, not a quadratic search.
_PAD_LINES = re.compile(f"(?<![\n\r]|{_BLANK})(?:{_BLANK}*+\r?\n){{8,}}+{_BLANK}*+(?=\\S)")
_PAD_SPACES = re.compile(f"(?<!{_BLANK}){_BLANK}{{64,}}+(?=\\S)")
_WORD_AROUND = 40
_SIXTY_FOUR_SPACES = " " * 64

_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufefc]")
_JOINING_SCRIPTS = re.compile("[\u0590-\u109f\ua840-\uabff]")
_EMOJI = re.compile("[\u2600-\u27bf\ufe0f\u200d\U0001f000-\U0001faff]")


def _names(chars: str) -> str:
    seen = dict.fromkeys(chars)
    parts = [f"U+{ord(c):04X} {unicodedata.name(c, 'control')}" for c in list(seen)[:3]]
    return ", ".join(parts) + (", ..." if len(seen) > 3 else "")


def _covered(spans: list[tuple[int, int]], pos: int) -> bool:
    """Whether ``pos`` lies in one of ``spans`` (sorted, non-overlapping)."""
    i = bisect.bisect_right(spans, (pos, sys.maxsize)) - 1
    return i >= 0 and spans[i][0] <= pos < spans[i][1]


def _word_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen an invisible run to the visible word around it, so the excerpt shows context."""
    lo = start
    while lo > 0 and start - lo < _WORD_AROUND and not text[lo - 1].isspace():
        lo -= 1
    hi = end
    while hi < len(text) and hi - end < _WORD_AROUND and not text[hi].isspace():
        hi += 1
    return lo, hi


def _zero_width_exempt(text: str, start: int, end: int) -> bool:
    run = text[start:end]
    if run == "\ufeff" and start == 0:
        return True
    prev = text[start - 1] if start else ""
    nxt = text[end] if end < len(text) else ""
    if set(run) <= {"\u200d"} and prev and nxt and _EMOJI.match(prev) and _EMOJI.match(nxt):
        return True
    if set(run) <= {"\u200c", "\u200d"} and (
        (prev and _JOINING_SCRIPTS.match(prev)) or (nxt and _JOINING_SCRIPTS.match(nxt))
    ):
        return True
    return set(run) <= {"\u200e", "\u200f", "\u061c"} and _RTL.search(text) is not None


def _decode_tags(run: str) -> str:
    return "".join(chr(ord(c) - 0xE0000) for c in run if 0xE0020 <= ord(c) <= 0xE007E)


def _decode_selectors(run: str) -> str:
    data = bytes(ord(c) - 0xFE00 if ord(c) <= 0xFE0F else ord(c) - 0xE0100 + 16 for c in run)
    return data.decode("utf-8", errors="replace")


def _ansi_label(seq: str) -> str:
    if seq.startswith(("\x1b]52", "\x9d52")):
        return "OSC 52 clipboard write"
    if seq.startswith(("\x1b]8;", "\x9d8;")):
        return "OSC 8 hyperlink"
    if seq.startswith(("\x1b]", "\x9d")):
        return "OSC sequence"
    if seq.startswith(("\x1b[", "\x9b")):
        return "CSI sequence"
    return "escape sequence"


def detect(text: str, plain: bool | None = None) -> tuple[list[Hit], list[Decoded]]:
    """Hits in original coordinates, and invisible encoded runs for the decoder.

    ``plain`` is :func:`~.normalize.is_plain` of ``text`` when the caller knows it."""
    hits: list[Hit] = []
    decoded: list[Decoded] = []
    if (is_plain(text) if plain is None else plain) and "\r" not in text:
        _padding(text, hits)
        return hits, decoded
    _zero_width(text, hits)
    bidi = _BIDI_REGION.search(text)
    if bidi:
        marks = "".join(_BIDI.findall(text))
        message = f"{len(marks)} bidirectional control character(s) ({_names(marks)})"
        hits.append(Hit("MCPL-INJ-011", bidi.start(), bidi.end(), message))
    _tags(text, hits, decoded)
    _selectors(text, hits, decoded)
    escapes = list(_ANSI.finditer(text))
    if escapes:
        first = escapes[0]
        hits.append(
            Hit(
                "MCPL-INJ-013",
                first.start(),
                first.end(),
                f"{len(escapes)} terminal escape sequence(s), first: {_ansi_label(first.group())}",
            )
        )
    inside = [(m.start(), m.end()) for m in escapes]
    controls = [m for m in _CTRL.finditer(text) if not _covered(inside, m.start())]
    if controls:
        chars = "".join(m.group() for m in controls)
        hits.append(
            Hit(
                "MCPL-INJ-014",
                controls[0].start(),
                controls[0].end(),
                f"{len(chars)} control character(s) ({_names(chars)})",
            )
        )
    _padding(text, hits)
    return hits, decoded


def _zero_width(text: str, hits: list[Hit]) -> None:
    runs = [m for m in _ZW.finditer(text) if not _zero_width_exempt(text, m.start(), m.end())]
    # A lone variation selector after a letter or digit has no presentation to select,
    # unless it starts a keycap emoji (1 U+FE0F U+20E3).
    runs += [
        m
        for m in _VS.finditer(text)
        if m.end() - m.start() == 1
        and m.start()
        and text[m.start() - 1].isascii()
        and text[m.start() - 1].isalnum()
        and text[m.end() : m.end() + 1] != "\u20e3"
    ]
    if not runs:
        return
    runs.sort(key=lambda m: m.start())
    chars = "".join(m.group() for m in runs)
    lo, hi = _word_span(text, runs[0].start(), runs[0].end())
    hits.append(
        Hit("MCPL-INJ-010", lo, hi, f"{len(chars)} invisible character(s) ({_names(chars)})")
    )


def _tags(text: str, hits: list[Hit], decoded: list[Decoded]) -> None:
    flags = [(m.start(), m.end()) for m in _FLAG.finditer(text)]
    runs = [m for m in _TAG.finditer(text) if not _covered(flags, m.start())]
    for m in runs:
        plain = _decode_tags(m.group())
        if plain.strip():
            decoded.append(Decoded(m.start(), m.end(), plain, "Unicode tag characters"))
    if runs:
        first = runs[0]
        total = sum(m.end() - m.start() for m in runs)
        hits.append(
            Hit(
                "MCPL-INJ-012",
                first.start(),
                first.end(),
                f"{total} tag character(s) spelling {quote(_decode_tags(first.group()))}",
            )
        )


def _selectors(text: str, hits: list[Hit], decoded: list[Decoded]) -> None:
    runs = [m for m in _VS.finditer(text) if m.end() - m.start() >= 2]
    for m in runs:
        plain = _decode_selectors(m.group())
        if sum(c.isprintable() or c.isspace() for c in plain) >= 0.8 * len(plain):
            decoded.append(Decoded(m.start(), m.end(), plain, "variation selectors"))
    if runs:
        first = runs[0]
        hits.append(
            Hit(
                "MCPL-INJ-015",
                first.start(),
                first.end(),
                f"{first.end() - first.start()} variation selectors in a row, "
                f"bytes read as {quote(_decode_selectors(first.group()))}",
            )
        )


def _padding(text: str, hits: list[Hit]) -> None:
    if text.count("\n") >= 8:
        m = _PAD_LINES.search(text)
        if m:
            lines = m.group().count("\n")
            hits.append(
                Hit(
                    "MCPL-INJ-016",
                    m.start(),
                    m.end(),
                    f"{lines} line breaks of blank padding before more text",
                )
            )
            return
    if _SIXTY_FOUR_SPACES in text or not text.isascii():
        m = _PAD_SPACES.search(text)
        if m:
            hits.append(
                Hit(
                    "MCPL-INJ-016",
                    m.start(),
                    m.end(),
                    f"{m.end() - m.start()} blank characters before more text",
                )
            )
