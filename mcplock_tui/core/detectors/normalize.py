"""Normalised views of hostile text, each with a map back to the original characters.

Detectors match keywords, and attackers defeat keyword matching by changing the bytes but
not what a model reads: zero-width characters inside a word, Cyrillic or Greek look-alikes,
fullwidth or mathematical letters, accents, leetspeak. A :class:`View` undoes that
(NFKD, hidden characters dropped, confusables folded to Latin, casefolded) while remembering,
for every character it produces, which original characters it came from, so a finding's
span and excerpt always point at what the server actually sent.

Which way it fails: folding is per word, so an all-Cyrillic Russian word stays Cyrillic
(Russian patterns still match it) while a word mixing scripts, or spelt only with
look-alike letters, becomes Latin. A real word that happens to consist only of look-alike
letters ("сор") is folded too; that can only create a Latin word, never hide one. Scripts
whose confusables are not in the table (Coptic, Canadian syllabics, ...) are missed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

# Look-alike letters folded to Latin. Upper-case forms come first because casefolding
# changes what a letter resembles (Greek capital Eta looks like H, its small form like n).
_CONFUSABLE_PAIRS = (
    # Cyrillic capitals and small letters
    "AaВbЕeКkМmНhОoРpСcТtХxУyЅsІiЈjҮyҺhԚqԜwЁe"
    "аaвbеeкkмmнhоoрpсcтtхxуyѕsіiјjүyһhԛqԝwӏlԁdёeѵvɡgʋv"
    # Greek capitals and small letters
    "ΑaΒbΕeΖzΗhΙiΚkΜmΝnΟoΡpΤtΥyΧx"
    "αaβbεeηnιiκkνvοoρpτtυuχxγyωwϲcϳj"
    # Armenian
    "օoսuոnհhցgզqւi"
    # Latin small capitals and other Latin look-alikes without a decomposition
    "ᴀaʙbᴄcᴅdᴇeꜰfɢgʜhɪiᴊjᴋkʟlᴍmɴnᴏoᴘpʀrꜱsᴛtᴜuᴠvᴡwʏyᴢz"
    "ıiɩiǀlłløođdħhŧtƅbɑaɒaꞵbſs"
    # Cherokee and Lisu capitals (Cherokee small letters casefold to these)
    "\u13a0d\u13a2t\u13a5i\u13a9y\u13aaa\u13abj\u13ace\u13b3w\u13b7m\u13bbh\u13c0g\u13c2h"
    "\u13c3z\u13cfb\u13d2r\u13d4w\u13das\u13del\u13dfc\u13e2p\u13e6k\u13f4b\u13d9v"
    "ꓮaꓐbꓚcꓓdꓰeꓝfꓖgꓧhꓲiꓙjꓗkꓡlꓟmꓠnꓳoꓑpꓣrꓢsꓔtꓴuꓦvꓪwꓫxꓬyꓜz"
)
CONFUSABLES: dict[str, str] = {
    _CONFUSABLE_PAIRS[i]: _CONFUSABLE_PAIRS[i + 1] for i in range(0, len(_CONFUSABLE_PAIRS), 2)
}

LEET = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
)
LEET_L = str.maketrans({"1": "l", "|": "l"})
"""Second reading of ``1`` (``a11`` is "all", ``1gnore`` is "ignore")."""

# Characters dropped outright: they render as nothing, so a model reads the word as joined.
_DROP_CATEGORIES = frozenset({"Cf", "Mn", "Me", "Co", "Cs", "Cn"})
_DROP_EXTRA = frozenset("\u115f\u1160\u3164\uffa0\u17b4\u17b5")
_BLANK_AS_SPACE = frozenset("\u2800\x0b\x0c")
_NEWLINES = frozenset("\u2028\u2029\x85")

_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_LETTER_RUN = re.compile(r"[a-z]")
_LEET_IN_WORD = re.compile(r"[013457@$|](?<=[a-z][013457@$|])|[013457@$|][a-z]")

SCRIPT_NONE, SCRIPT_LATIN, SCRIPT_FOLDABLE, SCRIPT_OTHER = 0, 1, 2, 3


@dataclass(frozen=True, slots=True)
class View:
    """A normalised string and, per character, the original span it came from."""

    text: str
    starts: Sequence[int] | None = None
    """``None`` means the identity map (plain ASCII input)."""
    ends: Sequence[int] | None = None

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Original ``(start, end)`` covering normalised characters ``start:end``."""
        if self.starts is None or self.ends is None:
            return start, end
        if end <= start:
            pos = (
                self.starts[start]
                if start < len(self.starts)
                else (self.ends[-1] if self.ends else 0)
            )
            return pos, pos
        return self.starts[start], self.ends[end - 1]


def is_plain(text: str) -> bool:
    """ASCII without control characters other than tab, CR and LF: no normalisation needed."""
    return text.isascii() and _ASCII_CONTROL.search(text) is None


@lru_cache(maxsize=8192)
def char_forms(ch: str) -> tuple[str, str, int]:
    """``(plain, folded, script)`` for one original character.

    ``plain`` is NFKD without marks, casefolded; ``folded`` additionally maps look-alikes
    to Latin; ``script`` says how the character votes in the per-word folding decision.
    """
    if ch in _NEWLINES:
        return "\n", "\n", SCRIPT_NONE
    if ch in _BLANK_AS_SPACE:
        return " ", " ", SCRIPT_NONE
    if ch in "\t\n\r":
        return ch, ch, SCRIPT_NONE
    if ch in _DROP_EXTRA or ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0:
        return "", "", SCRIPT_NONE
    if unicodedata.category(ch) in _DROP_CATEGORIES:
        return "", "", SCRIPT_NONE
    if ch in CONFUSABLES:  # before decomposition: capital Eta must not become "η"
        latin = CONFUSABLES[ch]
        plain = "".join(c for c in unicodedata.normalize("NFKD", ch) if not _is_mark(c)).casefold()
        return plain, latin, SCRIPT_FOLDABLE
    plain_parts: list[str] = []
    folded_parts: list[str] = []
    script = SCRIPT_NONE
    for c in unicodedata.normalize("NFKD", ch):
        if _is_mark(c) or unicodedata.category(c) in _DROP_CATEGORIES:
            continue
        for low in c.casefold():
            plain_parts.append(low)
            if low.isascii():
                folded_parts.append(low)
                if low.isalpha():
                    script = max(script, SCRIPT_LATIN)
            elif low in CONFUSABLES:
                folded_parts.append(CONFUSABLES[low])
                script = max(script, SCRIPT_FOLDABLE)
            else:
                folded_parts.append(low)
                if low.isalpha():
                    script = SCRIPT_OTHER
    return "".join(plain_parts), "".join(folded_parts), script


def _is_mark(c: str) -> bool:
    return unicodedata.category(c) in ("Mn", "Me")


def _close_word(word: list[int], use_fold: list[bool], keep_script: bool) -> None:
    if keep_script:
        for k in word:
            use_fold[k] = False


def normalize(text: str, plain: bool | None = None) -> View:
    """The matching form of ``text``: see the module docstring for what it undoes.

    ``plain`` is :func:`is_plain` of ``text`` when the caller knows it."""
    return normalize_pair(text, plain)[0]


def normalize_pair(text: str, plain: bool | None = None) -> tuple[View, View | None]:
    """:func:`normalize`, and the same form with no look-alike folded to Latin when that
    differs (``None`` otherwise): non-Latin keyword tables read the second, so the Russian
    "не" inside an English sentence is not read as "he"."""
    if is_plain(text) if plain is None else plain:
        return View(text.lower()), None
    forms = [char_forms(ch) for ch in text]
    # Per word (a run of letters, hidden characters ignored): fold look-alikes unless the
    # word holds a letter of another script that has no Latin look-alike. A word made only
    # of look-alikes is folded when the text is mostly Latin (an attack spelt in Cyrillic
    # look-alikes), not when it is mostly another script (the Russian word "все").
    scripts = [f[2] for f in forms]
    latin_text = scripts.count(SCRIPT_LATIN) >= scripts.count(SCRIPT_OTHER)
    use_fold = [True] * len(text)
    word: list[int] = []
    has_latin = has_other = False
    for i, (base, _folded, script) in enumerate(forms):
        if base == "" or base.isalpha():
            if base:
                has_latin = has_latin or script == SCRIPT_LATIN
                has_other = has_other or script == SCRIPT_OTHER
            word.append(i)
            continue
        _close_word(word, use_fold, has_other or not (has_latin or latin_text))
        word, has_latin, has_other = [], False, False
    _close_word(word, use_fold, has_other or not (has_latin or latin_text))

    folded_any = any(use_fold[i] and f[0] != f[1] for i, f in enumerate(forms))
    view = _build(forms, use_fold)
    return view, (_build(forms, [False] * len(forms)) if folded_any else None)


def _build(forms: list[tuple[str, str, int]], use_fold: list[bool]) -> View:
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    for i, (base, folded, _script) in enumerate(forms):
        piece = folded if use_fold[i] else base
        for c in piece:
            out.append(c)
            starts.append(i)
            ends.append(i + 1)
    return View("".join(out), starts, ends)


_SPACED_RUN = re.compile(r"(?<![a-z])[a-z]([ .\-_*/|+~:\u00b7\u2022])(?:[a-z]\1){1,}[a-z](?![a-z])")
_SPACERS = frozenset(" .-_*/|+~:\u00b7\u2022")


def spaced_variant(view: View) -> View | None:
    """``i g n o r e  a l l`` read as ``ignore all`` and ``i.g.n.o.r.e`` as ``ignore``:
    single letters joined by one repeated separator are joined, wider gaps stay as word
    breaks. ``None`` when the text has no such run of three letters or more."""
    text = view.text
    if _SPACERS.isdisjoint(text):
        return None
    runs = list(_SPACED_RUN.finditer(text))
    if not runs:
        return None
    keep = [True] * len(text)
    for m in runs:
        for k in range(m.start() + 1, m.end(), 2):
            keep[k] = False
    starts = view.starts if view.starts is not None else range(len(text))
    ends = view.ends if view.ends is not None else range(1, len(text) + 1)
    idx = [k for k in range(len(text)) if keep[k]]
    return View("".join(text[k] for k in idx), [starts[k] for k in idx], [ends[k] for k in idx])


def leet_variants(view: View) -> list[View]:
    """Leetspeak readings of ``view`` that differ from it, sharing its offset map."""
    text = view.text
    if _LEET_IN_WORD.search(text) is None:
        return []
    out: list[View] = []
    seen = {text}
    for table in (LEET, LEET_L):
        variant = text.translate(table)
        if table is LEET_L:
            variant = variant.translate(LEET)
        if variant not in seen and _LETTER_RUN.search(variant):
            seen.add(variant)
            out.append(View(variant, view.starts, view.ends))
    return out


_SKELETON_MAP = str.maketrans({"i": "l", "1": "l", "|": "l", "0": "o"})
_SKELETON_SEPARATORS = re.compile(r"[\s_.\-]+")


def skeleton(name: str) -> str:
    """A comparison key under which look-alike names are equal: ``read_fiIe``,
    ``read-fi1e``, ``READ_FILE`` and ``reаd_file`` (Cyrillic a) all match ``read_file``.

    Hidden characters are dropped, every look-alike letter is folded whatever the script,
    the text is casefolded, ``i``/``1``/``|`` read as ``l`` and ``0`` as ``o``, ``rn`` as
    ``m`` and ``vv`` as ``w``, and separators become one ``_``. The key is not meant to be
    shown. Fails towards merging: two honestly different names that differ only like this
    (``fix``/``flx``) are reported as look-alikes.
    """
    folded = "".join(ch if ch.isascii() else char_forms(ch)[1] for ch in name).casefold()
    folded = folded.translate(_SKELETON_MAP).replace("rn", "m").replace("vv", "w")
    return _SKELETON_SEPARATORS.sub("_", folded).strip("_")
