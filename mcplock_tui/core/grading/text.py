"""Is a text edit cosmetic, or does it change what a model reads? The text half of grading.

Descriptions, parameter descriptions, prompt text, instructions and titles are guidance a
model follows, so an edit is graded low only when it is provably cosmetic: the same words
after folding case, whitespace and punctuation, or at most two misspellings of words of four
letters or more. A misspelling is refused as such (and graded as a change in meaning) when it
touches a negation, modal, quantifier, number or permission word, when one word is the other
with an affix (``file``/``files``, ``reversible``/``irreversible``, ``allowed``/``allows``), or
when the two words are not written in the same single script (a Cyrillic ``е`` slipped into
``Fetch``). Failure direction: a genuine typo fix that trips one of these rules is graded as a
meaning change (high, a false positive a reviewer accepts in one keystroke); a meaning change
made of two in-script, affix-free, non-sensitive substitutions grades low (a silent miss, which
the detectors still scan).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from mcplock_tui.core.canonical import has_hidden
from mcplock_tui.core.grading.text_delta import Signal, delta, known_locator, signals, text_signals
from mcplock_tui.core.hosts import text_hosts
from mcplock_tui.core.model import Reason, Severity

_SENSITIVE_WORDS = """
    not no nor never none nothing nobody neither cannot cant can don't dont do does doesn't
    doesnt is isn't isnt are aren't arent was wasn't will won't wont would wouldn't should
    shouldn't must mustn't may might only all any every each always also without with unless
    except before after read write delete remove create update send receive allow deny disable
    enable safe unsafe true false yes public private internal external local remote own
    zero one two three four five six seven eight nine ten hundred thousand million once twice
    first last single multiple many few more most less least fewer
    include includes included including exclude excludes excluded excluding omit omits
    omitted omitting allowed allows denied denies enabled disabled visible hidden
"""
_SENSITIVE = frozenset(_SENSITIVE_WORDS.split())
"""Words whose change flips meaning even when the spelling barely moves (can -> can't)."""

_LOCATOR = re.compile(
    r"(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*+://[^\s<>\"'`]++"
    r"|(?<![\w.+-])[\w.+-]++@[\w-]++(?:\.[\w-]++)++"
    r"|(?<![a-z0-9.-])(?:[a-z0-9-]++\.)+[a-z]{2,}+",
    re.IGNORECASE,
)
"""URLs, e-mail addresses and host or file names: no edit inside one is a typo.

Linear on any input: each alternative may only start where its run of characters starts
(the look-behinds), and possessive repeats never give characters back, so a long word
is scanned once instead of once per position.
"""
_SUFFIXES = ("ing", "ers", "est", "ed", "es", "er", "ly", "s")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
_MAX_TYPO_EDITS = 2
_PROSE_TITLE_WORDS = 8


def _squash(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(_WORD.findall(text))


def _distance(a: str, b: str) -> int:
    """Optimal-string-alignment distance, capped: only "is it <= 2" matters."""
    if abs(len(a) - len(b)) > _MAX_TYPO_EDITS:
        return _MAX_TYPO_EDITS + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = ca != cb
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


def _scripts(word: str) -> set[str]:
    """Scripts of a word's letters by Unicode name prefix (LATIN, CYRILLIC, GREEK, ...)."""
    out: set[str] = set()
    for ch in word:
        if ch.isascii():
            out.add("LATIN")
        elif ch.isalpha():
            out.add(unicodedata.name(ch, "UNKNOWN").split(" ")[0])
    return out


def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _is_typo(x: str, y: str) -> bool:
    if x in _SENSITIVE or y in _SENSITIVE or any(ch.isdigit() for ch in x + y):
        return False
    if min(len(x), len(y)) < 4 or _distance(x, y) > _MAX_TYPO_EDITS:
        return False
    if x.startswith(y) or y.startswith(x) or x.endswith(y) or y.endswith(x):
        return False  # an affix: plural, tense, un-/in-/ir- negation
    if _stem(x) == _stem(y):
        return False  # allowed -> allows
    sx, sy = _scripts(x), _scripts(y)
    return sx == sy and len(sy) == 1


_FILE_TYPES = frozenset({
    "py", "md", "json", "txt", "csv", "tsv", "yaml", "yml", "toml", "js", "ts", "tsx", "jsx",
    "html", "css", "png", "jpg", "jpeg", "gif", "svg", "pdf", "xml", "lock", "cfg", "ini",
    "log", "rs", "go", "java", "rb", "cpp", "hpp", "sql", "zip", "gz", "tar", "docx", "xlsx",
})  # fmt: skip
"""A dotted name ending in one of these is a file name ("src/app.py"), not a host."""


def _locators(text: str) -> set[str]:
    found = {m.group(0).casefold().rstrip(".,;:!?)]}") for m in _LOCATOR.finditer(text)}
    return {
        loc
        for loc in found
        if "://" in loc or "@" in loc or loc.rpartition(".")[2] not in _FILE_TYPES
    }


def _compat(text: str) -> set[str]:
    """Letters and digits that NFKC would rewrite: fullwidth, mathematical, ligatures."""
    if text.isascii():
        return set()
    return {ch for ch in text if ch.isalnum() and unicodedata.normalize("NFKC", ch) != ch}


_RETIRED = re.compile(
    r"\b(?:and |it )?(?:will|is to|are to|is going to) be (?:removed|dropped|retired|deleted) "
    r"(?:in|from|with|after|by) (?:[\w.-]+ ){0,3}?(?:v(?:ersion)? ?\d+(?:\.\d+)*|\d+(?:\.\d+)+|(?:a|the next|a "
    r"later|a future) (?:major |minor )?(?:release|version))",
    re.IGNORECASE,
)
"""The end of a deprecation note ("is deprecated and will be removed in 3.0"): it says when
the server drops a feature, not that the tool removes anything or that the model will."""


def _retired_dropped(text: str) -> str:
    return _RETIRED.sub("", text) if "deprecat" in text.casefold() else text


def _meaning_cause(old: str, new: str, known: frozenset[str] = frozenset()) -> str | None:
    """Why an edit is a change of meaning before any word is compared, or None."""
    if has_hidden(old) != has_hidden(new) or (has_hidden(new) and old != new):
        return "hidden characters"  # never cosmetic
    if _compat(new) - _compat(old):
        return "look-alike letters slipped in"  # they dodge keyword filters
    came, gone = _locators(new) - _locators(old), _locators(old) - _locators(new)
    # A link added on a host the server already names is not a new place; one that
    # replaces another link still moves where the text points.
    fresh = {loc for loc in came if gone or not known_locator(loc, known)}
    if fresh and gone and _hosts_of(fresh) == _hosts_of(gone) != {""}:
        return None  # the same host's page moved (docs /v2/ -> /v3/): not a new place
    if fresh:
        return f"a link, address or host name moved ({clip(sorted(fresh)[0], 50)})"
    return None  # a link only dropped points nowhere new: read as the words it removed


def _hosts_of(locators: set[str]) -> set[str]:
    return {host for loc in locators for host in (text_hosts(loc) if "://" in loc else {""})}


def classify_text(old: str, new: str) -> str:
    """``same``, ``cosmetic`` (space/punctuation/case), ``typo``, or ``meaning``."""
    if old == new:
        return "same"
    if _meaning_cause(old, new) is not None:
        return "meaning"
    a, b = _squash(old), _squash(new)
    if a == b:
        return "cosmetic"
    wa, wb = a.split(), b.split()
    if len(wa) != len(wb):
        return "meaning"
    edits = [(x, y) for x, y in zip(wa, wb, strict=True) if x != y]
    if len(edits) > _MAX_TYPO_EDITS or not all(_is_typo(x, y) for x, y in edits):
        return "meaning"
    return "typo"


def clip(value: Any, limit: int = 60) -> str:
    """A server value for a reason message: escaped by ``repr`` and cut to ``limit``."""
    shown = repr(value)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _signal_text(found: list[Signal]) -> str:
    return "; ".join(sig.describe() for sig in found[:4])


def _plain(words: list[str]) -> str:
    shown = ", ".join(repr(w) for w in dict.fromkeys(words[:6]))
    return shown or "none"


def text_reason(
    path: str,
    old: Any,
    new: Any,
    what: str,
    ignore: tuple[str, ...] = (),
    known_hosts: frozenset[str] = frozenset(),
    said: frozenset[str] = frozenset(),
) -> Reason:
    """Grade one text field; ``old``/``new`` may be any JSON value or a missing marker.

    High when the edit can make a model do something new (see :mod:`text_delta`), medium
    for a rewording, low for a cosmetic or typo-level edit. A link added on a host in
    ``known_hosts`` (the server already names it) is not a new entity; ``said``: the roots
    of the item's own name and text (:func:`said_roots`), whose capability words are not new.
    """
    both = isinstance(old, str) and isinstance(new, str)
    if both:
        kind = classify_text(old, new)
        if kind in ("cosmetic", "typo", "same"):
            label = "whitespace/punctuation" if kind != "typo" else "typo-level"
            return Reason("text-cosmetic", Severity.LOW, f"{what}: {label} edit", path)
    if not isinstance(old, str) and (old is None or not old):
        if not isinstance(new, str):
            return Reason("description-changed", Severity.HIGH, f"{what} added", path)
        return added_text_reason(path, new, what, ignore, known_hosts, said)
    if not isinstance(new, str) and (new is None or not new):
        return Reason("description-removed", Severity.MEDIUM, f"{what} removed", path)
    if not both:
        return Reason("description-changed", Severity.HIGH, f"{what} changed in meaning", path)
    cause = _meaning_cause(old, new, known_hosts)
    if cause is not None:
        return Reason("description-changed", Severity.HIGH, f"{what} changed: {cause}", path)
    d = delta(_retired_dropped(old), _retired_dropped(new))
    if d.reordered:
        return Reason(
            "description-changed",
            Severity.MEDIUM,
            f"{what}: the same sentences in another order",
            path,
        )
    if not d.added and not d.removed:
        return Reason(
            "text-cosmetic", Severity.LOW, f"{what}: identifiers respelled, same words", path
        )
    found = [sig for sig in signals(d, known_hosts, said) if sig.kind not in ignore]
    if found:
        return Reason(
            "description-changed", Severity.HIGH, f"{what} changed: {_signal_text(found)}", path
        )
    how = f"words added {_plain(d.added)}" if d.added else f"words removed {_plain(d.removed)}"
    return Reason(
        "description-changed",
        Severity.MEDIUM,
        f"{what} reworded: no directive, new entity, scope word or flip ({how})",
        path,
    )


def added_text_reason(
    path: str,
    new: str,
    what: str,
    ignore: tuple[str, ...] = (),
    known_hosts: frozenset[str] = frozenset(),
    said: frozenset[str] = frozenset(),
) -> Reason:
    """Text where there was none: high when it can steer a model, medium when it is plain.

    ``ignore`` leaves out signal kinds the caller judges itself (a new tool's side effects);
    a link on a host in ``known_hosts`` is not a new entity.
    """
    if has_hidden(new) or _compat(new):
        return Reason(
            "description-changed",
            Severity.HIGH,
            f"{what} added with hidden or look-alike characters",
            path,
        )
    found = [
        sig
        for sig in text_signals("", _retired_dropped(new), known_hosts, said)
        if sig.kind not in ignore
    ]
    if found:
        return Reason(
            "description-changed", Severity.HIGH, f"{what} added: {_signal_text(found)}", path
        )
    return Reason(
        "description-changed",
        Severity.MEDIUM,
        f"{what} added: plain text, no directive, entity or scope word",
        path,
    )


def _spelled(text: str) -> str:
    """Letters and digits only, folded: ``Send follow-up`` and ``send_followup`` agree."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", text).casefold() if ch.isalnum())


_TITLE_SCOPE = re.compile(r"\b(?:every|all|any|each|everyone|anyone|always|never)\b", re.I)


def _leading_verb(title: str, sig: Signal) -> bool:
    """ "Send reply to customer": the verb a title starts with names the act. "Send the
    follow-up to every contact" says more than a label."""
    first = title.strip().split(" ", 1)[0].casefold()
    if _TITLE_SCOPE.search(title):
        return False
    return all(w.strip(" ,.;:").casefold() == first for w in sig.words)


def title_reason(path: str, old: Any, new: Any, what: str, name: str = "") -> Reason:
    """Titles are display text: low, unless the new one can steer a model or reads as prose.

    A title that is only the item's ``name`` written out for people is cosmetic.
    """
    if isinstance(new, str):
        before = old if isinstance(old, str) else ""
        if has_hidden(new) and new != before:
            return Reason("title-changed", Severity.HIGH, f"{what} has hidden characters", path)
        if name and _spelled(new) and _spelled(new) == _spelled(name) and not _compat(new):
            return Reason("title-changed", Severity.LOW, f"{what}: the name written out", path)
        found = text_signals(before, new) if classify_text(before, new) == "meaning" else []
        # A title names the action ("Delete Entities", "Send reply"): scope words, flips and
        # its leading verb are its job.
        found = [
            sig
            for sig in found
            if sig.kind != "capability"
            and not (sig.kind == "directive" and _leading_verb(new, sig))
        ]
        if found:
            return Reason(
                "title-changed", Severity.HIGH, f"{what} changed: {_signal_text(found)}", path
            )
        words = len(_squash(new).split())
        if words > _PROSE_TITLE_WORDS and classify_text(before, new) == "meaning":
            return Reason(
                "title-changed",
                Severity.MEDIUM,
                f"{what} now reads as prose ({words} words): text a model may be shown",
                path,
            )
    return Reason("title-changed", Severity.LOW, f"{what} changed", path)
