"""Rules compared as rules: is every rule of the old text still a rule in the new one?

A long rewrite moves negation, modal and quantifier words around ("left out unless the user
wrote them" -> "shown only to their author"; "cannot be undone" -> "is permanent"), so the
word-class bags of :mod:`text_delta` see a flip that is not there. Here each sentence of the
old text that limits something (a negation, "only", a cap, a requirement, an exclusion) is a
rule: what it is about (its content words, folded to roots) and its gate (the words after
"unless", "until", "after", "only when" ...). A rule is retold when one new sentence, or two
adjacent ones, still limits, names most of what the rule was about, keeps its gate (and the
person the gate waited for), and brings no hedge or leave the rule lacked.

Which way it fails: a rule whose act or object changed, whose gate lost a person or most of
its words, or that is now told without any limiting word is not retold, and the flips stand
(high). A rule retold in synonyms for most of its content words is also not retold (the
flips stand: a false alarm, never a miss).
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass

from mcplock_tui.core.grading.sentences import sentences as _sentences

_WORD = re.compile(r"[^\W\d_][\w'’-]*|\d+(?:[.,]\d+)*")
_MAX_SENTENCES = 64

_LIMITS = re.compile(
    r"(?<!-)\b(?:not|no|never|none|nothing|nobody|neither|nor|cannot|without|unless|except|until|"
    r"only|solely|exclusively|alone|single|one|at most|no more than|up to|limited|restricted|"
    r"capped|exceeds?|must|requires?|required|requiring|needs?|needed|mandatory|has to|have to|"
    r"shall|omit\w*|left out|leaves? out|exclud\w*|reject\w*|refus\w*|den(?:y|ies|ied)|"
    r"withh[eo]ld\w*|block\w*|forbid\w*|prohibit\w*|masked|redacted|hidden|within)\b|n't\b"
)
"""Words that make a sentence a rule: it denies, limits, excludes or requires something
("read-only" is a label, not a limit)."""
_GATE = re.compile(
    r"\b(?:unless|until|once|only (?:\w+ ){0,2}?(?:when|if|for|to)|except|when|if|"
    r"(?:after|before)(?!\s+(?:at most\s+|up to\s+)?\d)|"
    r"without (?:first )?(?:asking|checking|confirming|approval|consent|permission|the \w+'s)|"
    r"(?:over|above|below|under|exceeding|more than|less than)(?=\s+\d))\b"
)
"""Where a rule's gate starts ("unless the user asked", "without asking the user first");
"after 7 days" is a time, not a gate; "over 200.00" is a threshold the act waits on."""
_HEDGE = re.compile(
    r"\b(?:may|might|optional\w*|usually|normally|generally|ideally|preferabl[ey]|try to|"
    r"where possible|if possible|recommended|encouraged|helps?|immediately|directly|"
    r"automatically|any time|anytime|no longer)\b"
)
"""Words that give leave or a way around: a rule told with one it lacked is not the same."""
_PEOPLE = (
    "user", "customer", "operator", "owner", "member", "patient", "clinician", "manager",
    "administrator", "admin", "author", "human", "requester", "caller",
)  # fmt: skip
_PERSON = re.compile(r"\b(?:" + "|".join(_PEOPLE) + r"|person|people)(?:s|'s|s')?\b")
_STOP_WORDS = """
    a an the and or of to in on for with by at as from into onto over under than then so is
    are was were be been being am it its it's this that these those there their theirs they
    them he she his her we our you your i me my which who whom whose what where how also do
    does did done has have had having can could will would should may might must shall any
    all each every some one only not no never more most less per via such own same other just
    very too here s through about across upon try attempt above over below under
"""
_STOP = frozenset(_STOP_WORDS.split())
_STEMS = (
    "ations", "ation", "ions", "ion", "ings", "ly", "ing", "ies", "ied", "es", "ed", "s", "e", "y"
)  # fmt: skip


def _root(word: str) -> str:
    """``expire``/``expiry``, ``inferred``/``infer``, ``tagged``/``tag``: one root."""
    for suffix in _STEMS:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiou":
        word = word[:-1]  # a doubled consonant before -ed/-ing
    return word


_PERSON_ROOTS = frozenset([*(_root(w) for w in _PEOPLE), "person", "peopl"])


_AGENTS = {
    "author": "write", "authors": "write", "writer": "write", "writers": "write",
    "wrote": "write", "written": "write", "owner": "own", "owners": "own", "owned": "own",
    "creator": "create", "creators": "create", "sender": "send", "senders": "send",
    "sent": "send", "organizer": "organize", "organiser": "organize",
    "requester": "request", "requesters": "request",
}  # fmt: skip
"""The one who did an act is named by the act: "unless the user wrote them" is "only for
their author"; "the owner" is who owns it."""


def _content(text: str) -> set[str]:
    plain = _LIMITS.sub(" ", _normal(text))  # "left out", "at most 7": limits, not content
    words = (w.replace("’", "'").removesuffix("'s") for w in _WORD.findall(plain))
    parts = (p for w in words for p in w.replace("_", "").split("-"))  # "pii-tagged"
    return {
        p if p[0].isdigit() else _root(_AGENTS.get(p, p))
        for p in parts
        if len(p) > 2 and p not in _STOP and not _LIMITS.fullmatch(p)
    }


@dataclass(frozen=True, slots=True)
class Rule:
    text: str
    about: frozenset[str]
    """Content roots outside the gate: the act and its object."""
    gate: frozenset[str]
    """Content roots of the gate ("unless the user wrote them"): empty when there is none."""
    person: bool
    """The gate waits for a person."""


def _rule(sentence: str) -> Rule | None:
    m = _GATE.search(sentence)
    if not _kinds(sentence) and not (m and _PERSON.search(sentence[m.end() :])):
        return None  # neither a limit nor an act that waits for a person
    head, tail = (sentence[: m.start()], sentence[m.end() :]) if m else (sentence, "")
    if "," in tail:  # "if attendees are listed, sends them invitations": the gate ends
        tail, rest = tail.split(",", 1)
        head = f"{head} {rest}"
    gate = _content(tail)
    about = _content(head) - gate
    if not about and not gate:
        return None
    return Rule(sentence, frozenset(about), frozenset(gate), bool(_PERSON.search(tail)))


_CAPPED = re.compile(
    r"\b(?:not|never|no|n't)\s+((?:\w+\s+){0,3}?)(?:more|longer|later) than(?:\s+\d\S*)?"
    r"|\b(?:(?:may|must|does|will|can|shall) )?(?:not|never) exceed\w*(?:\s+\d\S*)?"
    r"|\b(?:at most|up to)(?:\s+\d\S*)?|\b(?:limited|restricted|capped) (?:to|at) (?:\w+ )?\d\S*|(?<!-)\b(?:a single|single|one)\b(?!\s*(?:[.;:,)]|of\b|$))"
)
_FINAL = re.compile(
    r"\b(?:cannot|can't|can not) be (?:undone|reversed|recovered|restored)\b"
    r"|\birreversibl\w*|\bpermanent\w*"
)
"""Finality told either way: "cannot be undone" and "permanent" are one rule."""
_GATES = frozenset(["unless", "until", "except"])
_DUTY = frozenset(["must", "require", "requires", "required", "requiring", "need", "needs"])


def _normal(sentence: str) -> str:
    capped = _CAPPED.sub(lambda m: f" {m.group(1) or ''} single ", sentence)
    return _FINAL.sub(" permanentrule ", capped)


_KIND = (
    ("deny", re.compile(
        r"\b(?:not|no|never|none|nothing|nobody|neither|nor|cannot|without|omit\w*|left out|"
        r"leaves? out|exclud\w*|reject\w*|refus\w*|den(?:y|ies|ied)|withh[eo]ld\w*|block\w*|"
        r"forbid\w*|prohibit\w*|masked|redacted|hidden)\b|n't\b"
    )),
    ("only", re.compile(
        r"(?<!-)\b(?:only|solely|exclusively|alone|limited|restricted|no other|nothing else|"
        r"no one else|nobody else)\b"
    )),
    ("cap", re.compile(r"\b(?:single|capped|exceeds?|within)\b")),
    ("duty", re.compile(
        r"\b(?:must|requires?|required|requiring|needs?|needed|mandatory|has to|have to|shall)\b"
    )),
    ("final", re.compile(r"\bpermanentrule\b")),
)  # fmt: skip
_CONSENT = re.compile(
    r"\b(?:ask|asks|asking|asked|confirm\w*|approv\w*|go-?ahead|consent\w*|permission|"
    r"sign-?off|says? yes|a yes|their yes|wait for|waits for|waiting for)\b"
)
_EXCEPTION = re.compile(
    r"\b(?:unless|except|other than|apart from|first time|once per|urgent\w*|emergenc\w*)\b"
)
"""An exception told in the new words ("only the first time", "unless urgent"): a gate
narrowed, not retold."""
_HELD = frozenset(["deny", "only", "duty"])
"""Behind a gate these are one limit: "never ... unless the user asked", "only when the user
asked" and "requires the user to ask" hold the act back the same way."""


def _plain_kinds(sentence: str) -> frozenset[str]:
    """The kinds of limit as written, before a gate makes them one held-back act."""
    text = _normal(sentence)
    return frozenset(kind for kind, pattern in _KIND if pattern.search(text))


def _kinds(sentence: str) -> frozenset[str]:
    """The kinds of limit a sentence sets, with the usual retellings as one: "never more than
    one" and "a single" are one cap, "cannot be undone" and "permanent" one finality; a
    duty that carries another limit ("must expire within") is that limit, and behind a gate
    a denial, "only" and a duty are one held-back act."""
    text = _normal(sentence)
    kinds = {kind for kind, pattern in _KIND if pattern.search(text)}
    if len(kinds) > 1:
        kinds.discard("duty")
    if (kinds & _HELD and _GATE.search(text)) or (_CONSENT.search(text) and _PERSON.search(text)):
        kinds = (kinds - _HELD) | {"held"}  # "requires the user's confirmation" = "wait for"
    return frozenset(kinds)


@dataclass(frozen=True, slots=True)
class _Said:
    """One new sentence: its content roots and the kinds of limit it sets."""

    text: str
    words: frozenset[str]
    kinds: frozenset[str]
    plain: frozenset[str]


@dataclass(frozen=True, slots=True)
class _Window:
    said: tuple[_Said, ...]
    words: frozenset[str]
    text: str


def _windows(sentences: list[str]) -> list[_Window]:
    """Each sentence and each pair of neighbours: a rule split in two is still one rule."""
    said = [_Said(s, frozenset(_content(s)), _kinds(s), _plain_kinds(s)) for s in sentences]
    spans = [(s,) for s in said] + list(itertools.pairwise(said))
    return [
        _Window(span, frozenset().union(*(s.words for s in span)), " ".join(s.text for s in span))
        for span in spans
    ]


def _excepted(rule: Rule, win: _Window, old: str = "") -> list[str]:
    """Exception words the window has and the rule lacked (an old text that says "by
    default" already said a setting makes an exception: "unless send_now is true")."""
    had = set(_EXCEPTION.findall(rule.text))
    if _DEFAULTED.search(old or rule.text):
        had |= {"unless", "except"}
    for m in _UNLESS.finditer(win.text):
        if _content(m.group(1)) <= rule.about | rule.gate:
            had.add(m.group(0).split()[0])  # "requires allow_external" -> "unless allow_external"
    return sorted(set(_EXCEPTION.findall(win.text)) - had)


_UNLESS = re.compile(r"\b(?:unless|except)\b([^,;:.]*)")
"""An "unless" clause: made only of the rule's own words it retells the rule's condition
("requires allow_external to be true" -> "rejected unless allow_external is true")."""
_DEFAULTED = re.compile(r"\bby default\b|\bdefaults?\b|\botherwise\b")


def _retold_in(rule: Rule, win: _Window) -> bool:
    return _said_again(rule, win) and not _excepted(rule, win)


def _said_again(rule: Rule, win: _Window) -> bool:
    """The window still limits what the rule limited, in most of its words and its gate."""
    # The limit sits in a sentence about the rule, not in a neighbour that limits another.
    about = [s for s in win.said if s.words & (rule.about or rule.gate)]
    kinds = frozenset().union(*(s.kinds for s in about))
    plain = frozenset().union(*(s.plain for s in about))
    need = _kinds(rule.text)
    if "held" in need and kinds & (_HELD | {"held"}):
        kinds = (kinds - _HELD) | {"held"}  # "never ... when searching" -> "must never ..."
    if not need <= kinds and not need <= plain:  # "never reuse one" beside a consent rule
        return False  # "only the fields ..., and never copy" -> "all fields ..., never copy"
    if {m.group(0) for m in _HEDGE.finditer(win.text)} - set(_HEDGE.findall(rule.text)):
        return False  # "can be paid immediately", "should normally": leave the rule lacked
    if rule.about and len(rule.about & win.words) < math.ceil(0.6 * len(rule.about)):
        return False  # the act or its object is another one
    if rule.gate:
        if len(rule.gate & win.words) < (len(rule.gate) + 1) // 2:
            return False
        if not _GATE.search(win.text) and (rule.person or not rule.gate <= win.words):
            return False  # a person's gate told again as a gate; "when searching" as "to search"
        if (
            rule.person
            and not _PERSON.search(win.text)
            and not rule.gate - _PERSON_ROOTS <= win.words
        ):
            return False  # "until the user approves" -> "until approved": nobody waits now
    return True


def _compared(old: str, new: str) -> tuple[list[Rule], list[_Window]] | None:
    """The rules of ``old`` and the windows of ``new``, or None past the sentence cap."""
    before, after = _sentences(old), _sentences(new)
    if not before or len(before) > _MAX_SENTENCES or len(after) > _MAX_SENTENCES:
        return None
    return [r for s in before if (r := _rule(s)) is not None], _windows(after)


def retellings(old: str, new: str) -> frozenset[str] | None:
    """The sentences of ``new`` (folded text) that retell the rules of ``old``, when every
    rule of ``old`` is still a rule in ``new``, reworded or not; else None.

    None too when the old text has no rule to keep, or more sentences than are compared: the
    caller's word flips then stand as they are. Capped: at most 64 rules against 127
    windows of one or two sentences; a single sentence is preferred to a pair.
    """
    split = _compared(old, new)
    if split is None:
        return None
    rules, windows = split
    if not rules:
        return None
    used: set[str] = set()
    for rule in rules:
        win = next((w for w in windows if _retold_in(rule, w)), None)
        if win is None:
            return None
        used.update(s.text for s in win.said if s.words & (rule.about | rule.gate))
    return frozenset(used)


def exception_added(old: str, new: str) -> str | None:
    """A rule of ``old`` (folded text) said again in ``new`` only with an exception it
    lacked ("ask the user ... the first time", "unless it is urgent"): the gate narrowed.
    Returns the exception's words, or None. Capped as :func:`retellings`."""
    split = _compared(old, new)
    if split is None:
        return None
    rules, windows = split
    for rule in rules:
        again = [w for w in windows if _said_again(rule, w)]
        if again and all(_excepted(rule, w, old) for w in again):
            return ", ".join(_excepted(rule, again[0], old))
    return None
