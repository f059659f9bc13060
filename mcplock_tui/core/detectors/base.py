"""What every detector family shares: the hit record, the scan context, pattern helpers.

Families match over the casefolded, normalised text of a :class:`~.normalize.View`; their
patterns are therefore written in lower case and without accents, and use :func:`rx`, which
lets any run of blanks, newlines or Markdown emphasis stand between two words, so
"ignore\\n\\n  **all** previous" reads like "ignore all previous".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from mcplock_tui.core.canonical import visible


class Hit(NamedTuple):
    """A detector match in the coordinates of the text the family was given."""

    code: str
    start: int
    end: int
    message: str


@dataclass(frozen=True)
class ScanContext:
    """What a scan knows beyond the string itself."""

    foreign_tools: Mapping[str, str] = field(default_factory=dict)
    """Tool name -> server name, for the tools of the OTHER configured servers. Callers leave
    out names the scanned server defines itself, so a server naming its own tool is fine."""
    server: str = ""
    """Name of the server whose text is scanned; copied into every finding."""


EMPTY_CONTEXT = ScanContext()

SEP = r"[\s*_~`'\"-]+"
"""Between two words: blanks, newlines, Markdown emphasis, quotes, hyphens."""

WORDS = re.compile(r"[a-z]+")
_NOT_LETTER = bytes(c if 97 <= c <= 122 else 32 for c in range(256))


def word_set(text: str) -> frozenset[str]:
    """The runs of ``a-z`` in casefolded ``text`` (a translate is 3x faster than findall)."""
    if text.isascii():
        return frozenset(text.encode("ascii").translate(_NOT_LETTER).decode("ascii").split())
    return frozenset(WORDS.findall(text))


SEP_OPT = r"[\s*_~`'\"-]*"


def vocab(spaced: str) -> tuple[str, ...]:
    """Space-separated words as a tuple, so long vocabularies stay readable."""
    return tuple(spaced.split())


def rx(pattern: str) -> re.Pattern[str]:
    """Compile ``pattern``: a literal space stands for :data:`SEP`, " ?" for optional SEP."""
    return re.compile(pattern.replace(" ?", SEP_OPT).replace(" ", SEP))


def alt(*words: str) -> str:
    """A non-capturing alternation of words (spaces inside are kept for :func:`rx`)."""
    return "(?:" + "|".join(words) + ")"


def quote(text: str, limit: int = 60) -> str:
    """A short, printable rendering of matched text for a finding message."""
    flat = " ".join(visible(text).split())
    if len(flat) > limit:
        flat = flat[: limit - 1] + "…"
    return repr(flat)


Need = frozenset[str] | str
"""A gate condition: a set of words one of which must occur, or a substring that must."""


class Pattern(NamedTuple):
    """One regex of a family, run only when all its needs are met by the text.

    Needs are necessary conditions checked with set intersections and substring tests,
    which cost a fraction of a regex pass, so most patterns never run on ordinary prose.
    ``needs`` of ``None`` means the pattern is for non-Latin scripts and runs on any
    non-ASCII text.
    """

    code: str
    label: str
    regex: re.Pattern[str]
    needs: tuple[Need, ...] | None


NON_LATIN = None


def forms(*stems: str) -> str:
    """Anchor words for verbs that patterns allow inflected: send, sends, sending, ..."""
    out: list[str] = []
    for stem in stems:
        out += [stem, stem + "s", stem + "es", stem + "ed", stem + "d", stem + "ing"]
        out.append(stem[:-1] + "ing" if stem.endswith("e") else stem + stem[-1] + "ing")
    return " ".join(out)


def pattern(code: str, label: str, regex: str, *needs: str | None) -> Pattern:
    """A :class:`Pattern` from an :func:`rx` source and its needs, each either
    space-separated words (one must occur) or a substring such as ``<|`` or ``.ssh``."""
    if needs == (None,):
        return Pattern(code, label, rx(regex), None)
    parsed: list[Need] = []
    for need in needs:
        assert need
        if all(c.isalpha() or c == " " for c in need):
            parsed.append(frozenset(need.split()))
        else:
            parsed.append(need)
    return Pattern(code, label, rx(regex), tuple(parsed))


def _met(need: Need, text: str, words: frozenset[str]) -> bool:
    return need in text if isinstance(need, str) else not need.isdisjoint(words)


def _all_met(needs: tuple[Need, ...], text: str, words: frozenset[str]) -> bool:
    """Needs after the first (the index already met it); a plain loop, as this runs for
    every candidate pattern of every string."""
    for need in needs[1:]:
        if isinstance(need, str):
            if need not in text:
                return False
        elif need.isdisjoint(words):
            return False
    return True


class PatternSet:
    """Patterns indexed by their first need, so a text only pays for patterns it can match."""

    def __init__(self, patterns: tuple[Pattern, ...]) -> None:
        self.patterns = patterns
        self.by_word: dict[str, list[int]] = {}
        self.marks: list[tuple[str, int]] = []
        self.non_latin: list[int] = []
        for i, p in enumerate(patterns):
            if p.needs is None:
                self.non_latin.append(i)
            elif isinstance(p.needs[0], str):
                self.marks.append((p.needs[0], i))
            else:
                for word in p.needs[0]:
                    self.by_word.setdefault(word, []).append(i)
        self.keys = frozenset(self.by_word)

    def run(self, text: str, words: frozenset[str], out: list[Hit]) -> None:
        """Append a hit for every match of every pattern whose needs are met."""
        chosen: set[int] = set()
        for word in self.keys.intersection(words):
            chosen.update(self.by_word[word])
        for mark, i in self.marks:
            if mark in text:
                chosen.add(i)
        if self.non_latin and not text.isascii():
            chosen.update(self.non_latin)
        for i in sorted(chosen):
            p = self.patterns[i]
            if p.needs is not None and not _all_met(p.needs, text, words):
                continue
            for m in p.regex.finditer(text):
                if m.end() > m.start():
                    out.append(Hit(p.code, m.start(), m.end(), f"{p.label}: {quote(m.group())}"))
