"""What new text can make a model do: the signals in the words an edit added or flipped.

A description that changes is graded by its *delta*, not by the fact that it changed. The
old and new texts are compared word by word (identifiers folded, so ``branch_id`` and
``branchId`` are one word); the words the new text added, and the sentences they sit in,
are searched for what lets text steer a model:

- a directive to the model: ``you``/``assistant``, imperatives such as "tell the user",
  "ignore", "remember", and ``always``/``never`` before a bare verb;
- conditions on what the user asks ("if the user asks …");
- sequencing: before/after calling, "instead of", "from now on", "first call";
- claims of approval or authority ("already approved", "administrator", "takes precedence");
- overrides of earlier guidance ("originally you …", "disregard the earlier …",
  "your new instructions", "this tool now grants");
- new entities: URLs, hosts, e-mail addresses, file paths, dotfiles, env or secret names,
  code (backticks, shell pipes, ``curl``);
- capability or scope words (execute, shell, upload, every, unrestricted, credentials …);
- a flipped negation, modal, quantifier or number inside a sentence that was kept;
- text in a script or language the grader cannot read.

Every signal carries the words that drove it. No signal means a rewording, a removed
sentence, a renamed identifier or formatting: reported, but below the default gate.
Which way it fails: the lexicon is English; a paraphrase in plain third person that asks
for nothing, names nothing new and flips nothing grades medium (the detectors still scan
the whole text), and an honest edit that adds "you" or a URL grades high.
"""

from __future__ import annotations

import collections
import difflib
import re
import unicodedata
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from mcplock_tui.core.detectors.decode import runs as decode_runs
from mcplock_tui.core.grading.rule_match import exception_added, retellings
from mcplock_tui.core.grading.sentences import sentences as _sentences
from mcplock_tui.core.hosts import known_place, text_hosts

MAX_DELTA_CHARS = 65_536
"""Longer texts are not compared word by word: every new sentence counts as added."""
_MAX_WORD_PAIRS = 4_000_000

_TOKEN = re.compile(
    r"(?<![\w.])v\d+(?:\.\d+)+(?:[-+][\w.]+)?|\d+(?:[.,]\d+)+|[^\W_][\w'’-]*|[.!?;:]|\n", re.UNICODE
)
"""``v2.3`` is one token: a version is an identifier, not a sentence end and a count."""
_SENTENCE_END = frozenset(".!?;:\n")
_WHO = (
    r"(?:users?|customers?|travell?ers?|operators?|requesters?|owners?|members?|"
    r"patients?|buyers?|guests?|callers?|humans?|person|people|account holders?|employees?|"
    r"passengers?|subscribers?|visitors?|recipients?|cardholders?|card holders?|payers?|tenants?)"
    r"(?:'s|s')?"
)
"""Whoever the server's own text says must consent: the user, the traveller, the operator
(not "client": in MCP that is the software asking).
"""


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _key(word: str) -> str:
    """Identifier spelling folded away: ``next_thought_needed`` == ``nextThoughtNeeded``."""
    word = word[:-2] if word.endswith(("'s", "’s")) else word  # the assistant's -> assistant
    return word.replace("_", "").replace("-", "").replace("'", "").replace("’", "")


_CLASSES: dict[str, str] = {}
for _cls, _members in {
    "negation": "not no never none nothing nobody neither nor cannot can't cant won't wont "
    "don't dont doesn't doesnt isn't isnt aren't arent wasn't shouldn't mustn't without "
    "unless except",
    "modal": "must may might can could should shall will would required optional optionally always",
    "quantifier": "all any every each some only solely exclusively limited restricted many few "
    "more less fewer least single "
    "one both either entire whole everything anything everyone anyone multiple several per",
}.items():
    for _w in _members.split():
        _CLASSES[_key(_w)] = _cls
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*%?")
_AMOUNT = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{3,}\.\d\d")
"""A sum of money or a count with separators (500.00, 50,000.00); a dotted version is not."""


@dataclass(frozen=True, slots=True)
class Signal:
    kind: str
    """``directive``, ``condition``, ``sequencing``, ``authority``, ``override``, ``entity``,
    ``capability``, ``flip`` or ``language``."""
    words: tuple[str, ...]

    def describe(self) -> str:
        shown = ", ".join(repr(w[:40]) for w in self.words[:4])
        return f"{_LABELS[self.kind]} ({shown})"


_LABELS = {
    "directive": "directs the model",
    "condition": "sets a condition on what the user asks",
    "sequencing": "orders what the model does",
    "authority": "claims approval or authority",
    "override": "overrides earlier guidance",
    "entity": "introduces",
    "capability": "adds capability or scope words",
    "flip": "flips",
    "harvest": "asks for conversation or personal data",
    "protected": "ranks, screens or prices people by a protected characteristic",
    "language": "is in a language or script the grader cannot read",
}


@dataclass(slots=True)
class Delta:
    added: list[str] = field(default_factory=list)
    """Words (as written, folded) the new text added or substituted."""
    context: list[str] = field(default_factory=list)
    """The new sentences those words sit in, for phrase patterns."""
    flips: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    """The same sentences as written (case kept), for decoding encoded runs."""
    rewrite: bool = False
    """Most words changed: the same behaviour may be told in other words."""
    old_keys: set[str] = field(default_factory=set)
    """Every word of the old text: a capability word it already had is not new."""
    old_text: str = ""
    """The old text, folded: what the old text already told the model."""
    old_forbidden: set[str] = field(default_factory=set)
    """Verbs the old text already forbade ("never print"): "do not print" is the same rule."""
    retold: frozenset[str] | None = None
    """A rewrite that retells every rule of the old text as a rule: the new sentences that
    retell them (:func:`retellings`); None otherwise."""
    lead: str = ""
    """The new text's first sentence, folded: where a prompt says what it does ("Suggest a
    name for ...")."""
    reordered: bool = False
    """The new text holds the old text's sentences, word for word, in another order."""
    said: frozenset[str] = frozenset()
    """Roots of the words the item's own pinned name and text use ("issue_refund"): a
    capability word among them is not new in a parameter's description."""


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(_fold(text))


_SYNONYMS = {
    "single": "one",
    "solely": "only",
    "exclusively": "only",
    "limited": "only",
    "restricted": "only",
    "cannot": "not",
    "cant": "not",
    "can't": "not",
    "dont": "not",
    "don't": "not",
    "doesnt": "not",
    "doesn't": "not",
    "isnt": "not",
    "isn't": "not",
    "arent": "not",
    "aren't": "not",
    "wont": "not",
    "won't": "not",
    "never": "not",
    "nothing": "not",
    "none": "not",
    "no": "not",
    "nobody": "not",
    "without": "not",
    "each": "every",
    "all": "every",
    "everything": "every",
    "everyone": "every",
    "anything": "any",
    "anyone": "any",
    "entire": "whole",
    "needs": "must",
    "need": "must",
    "required": "must",
    "shall": "must",
    "optional": "may",
    "optionally": "may",
    "might": "may",
    "could": "can",
    "would": "will",
}
_WIDER = frozenset(["every", "any", "whole", "many", "multiple", "several"])
_NARROWER = frozenset(["only", "one", "fewer", "less", "least", "some"])


def _flipped(cls: str, was: list[str], now: list[str], rewrite: bool = False) -> bool:
    """Negations, modals and numbers flip on any change; quantifiers only when they widen."""
    if cls != "quantifier":
        return sorted(was) != sorted(now)
    # "per room" already said every room: retold as "each room" it widens nothing.
    was_wide = sum(w in _WIDER or w == "per" for w in was)
    wider = sum(w in _WIDER for w in now) > was_wide
    return wider or sum(w in _NARROWER for w in now) < sum(w in _NARROWER for w in was)


def _bag(words: list[str], numbers: bool) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for w in words:
        k = _key(w)
        cls = _CLASSES.get(k)
        if (
            cls is None
            and numbers
            and _NUMBER.fullmatch(w)
            and ("." not in w or _AMOUNT.fullmatch(w))
        ):
            cls = "number"
        if cls is None and numbers and k in _NUMBER_WORDS:
            out.setdefault("number", []).append(_NUMBER_WORDS[k])  # "two identifiers" is 2
            continue
        if cls is not None:
            out.setdefault(cls, []).append(_SYNONYMS.get(k, k))
    return out


_NUMBER_WORDS = dict(
    zip(
        [
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
        ],
        [str(n) for n in range(2, 13)],
        strict=True,
    )
)
"""Counts written out; "one" stays a quantifier (it is also the article's number)."""
_NEGATING = ("un", "in", "ir", "il", "im", "non", "dis", "non-")
_COUNTED = frozenset(["of", "for", "to", "every", "all", "selected", "matching", "given"])
_SUBJECTS = frozenset(
    [
        "assistant",
        "assistants",
        "it",
        "tool",
        "server",
        "user",
        "they",
        "he",
        "she",
        "who",
        "which",
        "that",
        "and",
        "also",
        "always",
        "never",
        "only",
        "then",
        "first",
    ]
)


def _counted_at(tokens: list[str], at: int) -> bool:
    """A noun at ``at`` is counted: an article, a counting word or an act verb stands just
    before it ("the record", "each record", "deletes record"), not an adjective ("planned
    work" -> "planned works" is the same listing)."""
    if at == 0 or tokens[at - 1] in _SENTENCE_END:
        return True
    near = tokens[max(0, at - 2) : at]
    return bool(set(near) & (_DETERMINER | _COUNTED) or _ACT_VERB.match(tokens[at - 1]))


def _affix_flips(
    old_part: list[str], new_part: list[str], leading: bool, counted: bool = True
) -> list[str]:
    """``record`` -> ``records`` (one becomes many), ``reversible`` -> ``irreversible``.

    ``leading``: the part starts a sentence, where "Create" -> "Creates" is the same verb;
    ``counted``: the word before the part counts what follows (see :func:`_counted_at`).
    """
    out: list[str] = []
    for i, (x, y) in enumerate(zip(old_part[:50], new_part[:50], strict=False)):
        if len(x) < 3 or len(y) < 3 or x == y:
            continue
        if (
            y in (x + "s", x + "es")  # one becomes many; "earlier days" -> "an earlier day" narrows
            and not (leading and i == 0)
            and x not in _OBLIGES  # "payouts need" -> "a payout needs": the verb agrees
            and (
                (i == 0 and counted)
                or (i > 0 and (new_part[i - 1] in _DETERMINER or new_part[i - 1] in _COUNTED))
            )
        ):
            out.append(f"number {x!r} -> {y!r}")
        elif any(y == p + x or x == p + y for p in _NEGATING):
            out.append(f"negation {x!r} -> {y!r}")
    return out


def _rule_span(
    a: list[str], at: int, stops: tuple[str, ...] = (".", "\n", "!", "?")
) -> tuple[int, int, bool]:
    """The sentence of token ``at`` (start, end) and whether it opens a numbered rule."""
    start = at
    while start > 0 and a[start - 1] not in stops:
        start -= 1
    end = at
    while end < len(a) and a[end] not in stops:
        end += 1
    return start, end, start >= 2 and a[start - 1] == "." and a[start - 2].isdigit()


def _carries_rule(a: list[str], at: int) -> bool:
    """Token ``at`` sits in a numbered rule or a sentence with a rule word."""
    start, end, numbered = _rule_span(a, at)
    return numbered or any(_RULE_WORD.match(w) for w in a[start:end])


_RULE_WORD = re.compile(r"^(?:never|not|must|only|cannot|always|require[sd]?|needs?)$")
_UNLESS_WORD = frozenset(["unless", "except", "excepting", "save"])


def _clause_exception(a: list[str], at: int, old_part: list[str], new_part: list[str]) -> list[str]:
    """An "unless ..." clause put inside a kept sentence that carries a rule ("can never
    approve it" -> "... it, unless no other approver is available"): the rule now has a way
    out. A clause that only restates who decides ("unless the user asks") stays the gate
    the old text already had only when the old sentence had an "unless" too."""
    came = [w for w in new_part[:40] if w in _UNLESS_WORD]
    if not came or any(w in _UNLESS_WORD for w in old_part):
        return []
    start, end, numbered = _rule_span(a, at)
    sentence = a[start:end]
    if any(w in _UNLESS_WORD for w in sentence) or not (
        numbered or any(_RULE_WORD.match(w) for w in sentence)
    ):
        return []  # "3. Confirm: run verify_payee" counts as a rule by its number
    return [f"rule narrowed by an exception: {came[0]}"]


_AGENT_BEFORE = frozenset(["by", "from", "only", "except", "unless", "than", "to", "with"])
"""Before these a list names who may act or where something may go ("approved by the owner
or an admin"): a name dropped from it narrows what is allowed."""


def _list_item_dropped(a: list[str], at: int, old_part: list[str], new_keys: set[str]) -> list[str]:
    """A name taken out of a list a rule covers ("never create or approve" -> "never
    approve", "grants of the approver or accountant role must" -> "of the accountant role
    must"): the rule no longer reaches it."""
    conj = {"or", "and", "nor"}
    end_at = at + len(old_part)
    # "names, MRNs, [dates of birth,] addresses and phones": commas are not tokens, so a list
    # shows by a conjunction in the part or within a few words after it.
    listed = conj & set(old_part) or conj & set(a[end_at : end_at + 3])
    if len(old_part) > 6 or not listed:
        return []
    named = [
        w
        for w in old_part
        if w not in _ENGLISH
        and w not in ("or", "and", "nor")
        and len(w) > 2
        and _key(w) not in new_keys  # "closed and draft" -> "draft and closed": moved
    ]
    if not named:
        return []
    start, end, numbered = _rule_span(a, at, (".", "\n", "!", "?", ";"))
    if _AGENT_BEFORE & set(a[max(start, at - 4) : at]):
        return []
    if not (numbered or any(_RULE_WORD.match(w) for w in a[start:end])):
        return []
    return [f"rule no longer covers: {named[0]}"]


_EXCLUSION = re.compile(
    r"\b(?:exclud\w*|except(?:ing)?|omit\w*|(?:leav\w*|left|filter\w*|keep\w*|kept) out|"
    r"skip\w*|other than|apart from|minus|barring|without|not including|leav\w* aside)\b"
)
_INCLUSION = re.compile(
    r"\b(?:includ\w*|plus|with|as well as|and also|also|adding|add|adds|counting|covering)\b"
)


_INCLUDING = re.compile(r"\b(?:including|incl|plus|along with|together with|as well as)\b")
"""An inclusion told as a preposition ("every action, including read access"); "are not
included" -> "are excluded" is the same denial."""


def _exclusion_added(a: list[str], at: int, old_part: list[str], new_part: list[str]) -> list[str]:
    """A rule's "including X" told as "excluding X" ("every action, including read access,
    is audited" -> "every change, excluding read access"): the rule no longer covers X. Only
    in a sentence that carries a rule; in a plain listing it narrows what is shown."""
    was, now = " ".join(old_part[:12]), " ".join(new_part[:12])
    left = _EXCLUSION.search(now)
    if left is None or not _INCLUDING.search(was) or _EXCLUSION.search(was):
        return []
    return [f"rule now leaves out: {left.group(0)}"] if _carries_rule(a, at) else []


def _inclusion_flip(old_part: list[str], new_part: list[str]) -> list[str]:
    """A list's exclusion told the other way round ("leaving out owners flagged X" ->
    "including owners flagged X"): what was held back is now taken in."""
    was, now = " ".join(old_part[:12]), " ".join(new_part[:12])
    gone = _EXCLUSION.search(was)
    came = _INCLUSION.search(now)
    if gone and came and not _EXCLUSION.search(now):
        return [f"exclusion {gone.group(0)!r} -> {came.group(0)!r}"]
    return []


_SHAPE = frozenset(["with", "having", "containing", "including", "has", "carrying"])


_UNITS = frozenset({"page", "row", "line", "batch", "chunk", "step", "part", "column", "level"})
"""Layout units: "on each page" counts within a result; "each match" still widens an act."""
_COMPARED = frozenset(["more", "less", "fewer", "later", "earlier", "greater", "longer"])


def _distributive(
    part: list[str],
    tokens: list[str],
    start: int,
    gated: frozenset[int] = frozenset(),
    told: frozenset[int] = frozenset(),
    old: frozenset[str] | set[str] = frozenset(),
) -> list[str]:
    """Words that only look like a quantifier or negation: "each with name and company" (an
    item's shape), "each other", "on each page" (a unit), "no more than 50" (a limit), and
    a quantifier in a sentence that gates the act on the user ("before any write, get the
    user's go-ahead": it widens the gate, not the act)."""
    at = range(start, start + len(part))
    nxt = [tokens[i + 1] if i + 1 < len(tokens) else "" for i in at]
    nxt2 = [tokens[i + 2] if i + 2 < len(tokens) else "" for i in at]
    return [
        w
        for i, w, n, n2 in zip(at, part, nxt, nxt2, strict=True)
        if not (w == "each" and (n in _SHAPE or n == "other" or _key(n).rstrip("s") in _UNITS))
        and not (w in ("each", "every") and _item_fields(tokens, i))
        and not (w == "one" and n == "another")
        and not (w in ("no", "not") and n in _COMPARED and n2 == "than")
        and not (w == "many" and i > 0 and tokens[i - 1] == "how")
        and not (w in ("whole", "entire") and _key(n) in _MEASURES)  # "in whole years"
        and not (w == "always" and i > 0 and tokens[i - 1] in _AUXILIARY and _PARTICIPLE.match(n))
        and not (i in gated and _CLASSES.get(_key(w)) == "quantifier")
        and not (i in told and _key(w) in _STRONG_MODALS)  # "always waits for the user"
        and not (w in _ANY and _any_held(tokens, i))
        and not (_SYNONYMS.get(_key(w), _key(w)) in _WIDER and _bounded(tokens, i))
        and not (w in ("every", "each", "all") and _part_of_old(tokens, i, old))
    ]


_OF_THE = frozenset(["the", "this", "that", "its", "their", "each", "one"])


def _part_of_old(tokens: list[str], i: int, old: frozenset[str] | set[str]) -> bool:
    """ "every night of the stay" where the old text named the stay: the parts of the one
    thing it was already about, not a wider reach."""
    if tokens[i + 2 : i + 3] != ["of"] or i + 3 >= len(tokens) or tokens[i + 3] not in _OF_THE:
        return False
    return any(_key(t) in old and _noun_like(_key(t)) for t in tokens[i + 4 : i + 6])


_MEASURES = frozenset(
    [
        "years",
        "months",
        "weeks",
        "days",
        "hours",
        "minutes",
        "seconds",
        "numbers",
        "number",
        "units",
        "cents",
        "dollars",
        "euros",
        "pounds",
        "percent",
        "degrees",
        "integers",
        "pages",
    ]
)
"""Units a "whole" counts in: "age in whole years" rounds, it does not widen."""
_PARTICIPLE = re.compile(r"[a-z]+(?:ed|wn|en)$")
""""are always shown masked": what the server does every time, not an order."""
_ANY = frozenset(["any", "anything", "anyone"])
_DENIES = frozenset(["not", "never", "no", "cannot", "nothing", "none", "without", "nor"])
_LISTS = frozenset(["with", "giving", "including", "showing", "plus", "returns", "lists", "shows"])


def _any_held(tokens: list[str], i: int) -> bool:
    """ "never returned by any tool" (inside a denial, it narrows) and "showing rooms and any
    cover arrangements" (a field of the result, when there is one): not a wider act."""
    back: list[str] = []
    for tok in reversed(tokens[max(0, i - 12) : i]):
        if tok in _SENTENCE_END:
            break
        back.append(tok)
    if any(t in _DENIES or t.endswith("n't") for t in back):
        return True
    if not back or back[0] not in ("and", "or"):
        return False
    for tok in back:
        if tok in _LISTS:
            return True
        if _ACTION.fullmatch(tok):
            return False  # "returns the file and deletes any copies": the act reaches wider
    return False


_LISTED_WITH = frozenset(["with", "giving", "including", "showing", "plus"])


_RULED = frozenset(
    [
        "needs",
        "need",
        "requires",
        "require",
        "must",
        "rejected",
        "refused",
        "blocked",
        "logged",
        "recorded",
        "audited",
        "masked",
        "redacted",
        "encrypted",
    ]
)
"""What a rule does to each thing it names: "any amount above 100.00 needs an approval"."""


def _bounded(tokens: list[str], i: int) -> bool:
    """A quantifier that names the reach of a rule or stays inside one thing: "the rules
    apply to every tool", "any amount above 100.00 needs an approval", "every unmasked export
    is logged", "everything that happened on one claim". None of them widens an act."""
    before = tokens[max(0, i - 2) : i]
    if before and before[-1] == "to" and len(before) == 2 and before[0].startswith("appl"):
        return True
    ahead: list[str] = []
    for tok in tokens[i + 1 : i + 16]:
        if tok in _SENTENCE_END:
            break
        ahead.append(tok)
    if set(ahead) & _RULED:
        return True
    near = ahead[:7]
    return any(
        t in ("on", "of", "in", "for", "from") and near[j + 1 : j + 2] == ["one"]
        for j, t in enumerate(near)
    )


_WHEN_NOUNS = frozenset(["date", "time", "day", "hour", "moment", "year", "month", "week"])


_FIELDS_LEAD = _LISTED_WITH | _LISTS | {"return", "returning", "list", "listing", "show", "gives"}


def _item_fields(tokens: list[str], i: int) -> bool:
    """ "with each schema's owner", "giving for each its id", "the date each range was last
    reviewed": the fields every item of a result carries, not an act done to every item."""
    if i > 0 and _key(tokens[i - 1]) in _WHEN_NOUNS:
        return True
    before = tokens[max(0, i - 2) : i]
    nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
    owned = nxt.endswith(("'s", "’s", "s'")) or nxt in ("its", "their")
    if owned and bool(_FIELDS_LEAD & set(before)):
        return True
    # "returning for each match its account ID": for each item, the fields it carries.
    after = tokens[i + 2] if i + 2 < len(tokens) else ""
    return bool(before) and before[-1] == "for" and after in ("its", "their")


_OBLIGES = frozenset(["require", "requires", "requiring", "need", "needs", "needed"])
"""Words that already said "must": "requires the user's confirmation" retold with "must"."""
_REWRITE = 0.7
_LEAVE = frozenset(["may"])
"""A modal that gives leave ("may skip", "optionally"): gained alone, it still flips."""
_PLAIN_MODALS = frozenset(["can", "will"])


_LEAVE_WORD = re.compile(r"\b(?:may|might|optional|optionally)\b")
_DENIED_LEAVE = re.compile(
    r"\b(?:neither|nor|not|never|no one|nobody)\s+(?:\w+\s+)?may\b|\bmay not\b"
)
"""Leave denied: "and neither may a scientist who edited it", "may not verify it"."""
_ASKED_MAY = re.compile(
    r"(?:^|[:,;(]|\band|\bor|\bdescribes?|\bexplains?|\bcovers?|\bsets out|\bstates?)\s+"
    r"(?:who|when|whether|which(?: \w+)?|what(?: \w+){0,2}|how)\s+(?:[\w'-]+\s+){0,3}?"
    r"(?:may|might)\b"
)
"""A modal inside a question a text names as its content ("the policy: ..., who may share
candidate data with whom"): it says what the document covers, it gives nobody leave."""


_OPTIONAL_INPUT = re.compile(
    r"\boptional(?:ly)? (?:filtered|narrowed|limited|sorted|scoped|grouped|paginated|ordered)"
    r"\b|\boptional (?:parameters?|fields?|filters?|arguments?|inputs?|sort orders?)\b"
)
"""An input the caller may leave out ("optionally filtered by station"): it gives no leave."""


_HEDGED_MAY = re.compile(
    r"\b(?:it|this|that|these|those|there|which|they)\s+(?:may|might)\s+(?:not\s+)?(?:be|have been|"
    r"take|seem|appear|look|mean|indicate|differ|vary|lag|change)\b(?!\s+\w+ed\b)"
)
"""A likelihood, not leave: "tell the user it may be phishing", "this might take an hour"."""


def _asked_only(new: str, old: str) -> bool:
    """Every leave word the new text gained sits in such a named question, names an
    optional input or is denied."""

    def bare(text: str) -> int:
        return (
            len(_LEAVE_WORD.findall(text))
            - len(_ASKED_MAY.findall(text))
            - len(_DENIED_LEAVE.findall(text))
            - len(_OPTIONAL_INPUT.findall(text))
            - len(_HEDGED_MAY.findall(text))
        )

    return bare(new) <= bare(old)


def _no_leave(gained: set[str], new: str, old: str) -> bool:
    """Modals only gained, none lost, that give no leave: "can be read" and "will" describe;
    "must"/"should"/"always" only where the sentence is care ("always read the date back and
    wait for their confirmation"), not an order to send or call ("should be repeated via
    notify_channel")."""
    if gained & _LEAVE and not _asked_only(new, old):
        return False
    strict = gained - _PLAIN_MODALS - _LEAVE
    if not strict:
        return True
    kept = set(_sentences(old)[:_MAX_RULES])
    for sentence in _sentences(new)[:_MAX_RULES]:
        if sentence in kept:
            continue  # an untouched sentence ("exports must always be ...") gained nothing
        words = {_SYNONYMS.get(k, k) for k in (_key(w) for w in _TOKEN.findall(sentence))}
        if words & strict and not cautionary(sentence, old) and not _order_retold(sentence, old):
            return False
    return True


_ALWAYS_DONE = re.compile(r"\balways\s+(?!(?:proc|exc|succ|emb|f|n|h|sp|shr|s)eed\b)[a-z]{2,}ed\b")


def _order_retold(sentence: str, old: str) -> bool:
    """ "always offer two slots" where the old text already said "offer two slots": the
    same order, told with "always"; or "always" only before a participle ("always logged
    with the user's ID"): what the system does, not an order."""
    if sentence.count("always") == len(_ALWAYS_DONE.findall(sentence)) > 0:
        return True
    hits = list(_ALWAYS.finditer(sentence))
    return bool(hits) and all(
        m.group(0).startswith("always") and _ordered_before(m.group(1), old) for m in hits
    )


_EXCLUDES = re.compile(
    r"\b(?:exclud\w*|omit\w*|left out|leaves? out|refus\w*|reject\w*|forbid\w*|prohibit\w*|"
    r"den(?:y|ies|ied)|block\w*|withh[eo]ld\w*|skipp\w*|permanent\w*|irreversibl\w*|final|"
    r"single|at most|no more than|only)\b"
)
_DUTY_DENIED = re.compile(
    r"\b(?:not|n't|never|no|without|nor)\s+(?:\w+\s+){0,2}?(?:required|needed|necessary|"
    r"mandatory|need|needs|must|have to|has to|confirm\w*|approv\w*|ask\w*|check\w*|verif\w*|"
    r"review\w*|wait\w*|consent\w*|permission|sign-?off|apply|applies|enforced|limited|logged|"
    r"masked|redacted|encrypted|read-?backs?)\b"
    # A protection with a way around it: "masked ... unless level is debug".
    r"|\b(?:masked|redacted|hidden|encrypted|required|needed|confirmed|checked|blocked|refused|"
    r"denied|logged|asked)\b(?:\s+\S+){0,4}?\s+unless\b"
)


def _waived_duty(new: str, old: str) -> bool:
    """A new "not" on a duty or a check ("confirmation is not required", "does not need to
    ask", "no longer logged"): the negation waives something. "never revokes" does not."""
    return any(
        m.group(0) not in old and not _reads_only(new[_sentence_start(new, m.start()) : m.start()])
        for m in _DUTY_DENIED.finditer(new)
    )


def _sentence_start(text: str, at: int) -> int:
    return max(text.rfind(c, 0, at) for c in ".;:!?\n") + 1


_ONLY_WHEN = re.compile(r"\bonly (?:\w+ ){0,2}?(?:when|if|after|once|for)\b")
_WEAK_MODALS = frozenset(["will", "would", "can", "could"])
_STRONG_MODALS = frozenset(["must", "never", "always", "shall", "should", "required"])
"""Below this share of words kept, an edit is a rewrite rather than a word swap."""


_GATE_SENTENCE = re.compile(
    r"\b(?:ask|asks|asking|confirm\w*|check with|approv\w*|go-?ahead|consent(?:s|ed|ing)?|permission|"
    r"sign-?off|say yes|says yes|a yes|wait for)\b"
)
_PERSON = re.compile(r"\b" + _WHO + r"\b")


def _gate_positions(tokens: list[str]) -> frozenset[int]:
    """Token positions inside sentences that make the act wait for a person's consent."""
    out: set[int] = set()
    start = 0
    for i, tok in enumerate([*tokens, "\n"]):
        if tok in _SENTENCE_END:
            text = " ".join(tokens[start:i])
            if _GATE_SENTENCE.search(text) and _PERSON.search(text):
                out.update(range(start, i))
            start = i + 1
    return frozenset(out)


_HANDED_OVER = re.compile(
    r"\b(?:leaves?|left|leaving) (?:\S+ ){0,3}?to (?:the |a )?" + _WHO + r"\b"
    r"|\b(?:is|are|stays?|remains?) (?:\S+ )?up to (?:the |a )?" + _WHO + r"\b"
)
"""The act handed to the person: "does not take them" told as a restriction in other words."""


_EXCLUDING = re.compile(
    r"\b(?:leaves? out|left out|filters? out|omits?|excludes?|strips?|skips?|ignores?)$"
)


def _retold_scope(part: list[str], tokens: list[str], start: int, old: set[str]) -> list[str]:
    """Scope words a rewrite brings without widening anything: a quantifier inside a
    negation ("does not change anything"), "every X" for the old text's plural "the Xs",
    and "must" before a negation ("must never be printed" for "never print")."""
    out: list[str] = []
    for i, w in zip(range(start, start + len(part)), part, strict=True):
        cls = _CLASSES.get(_key(w))
        before = tokens[max(0, i - 3) : i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if cls == "quantifier" and (
            any(_CLASSES.get(_key(t)) == "negation" for t in before)
            or _EXCLUDING.search(" ".join(before))
        ):
            continue  # "does not change anything", "leaves out anything not job-related"
        if w == "each" and tokens[i + 1 : i + 3] in (
            ["of", "them"],
            ["of", "these"],
            ["of", "those"],
        ):
            continue  # "when attendees are given, each of them receives an invitation"
        ahead = tokens[i + 1 : i + 4]  # "returns every Ledgerly account" for "accounts"
        if (
            w in ("every", "each", "all")
            and nxt
            and any({t + "s", t + "es", t} & old for t in ahead if _noun_like(t))
            and i > 0
            and _RETURNS.fullmatch(tokens[i - 1])
        ):
            continue  # "Returns every service" for "List the services"; "log on each match" acts
        if (
            _key(w) in ("must", "should")
            and _CLASSES.get(_key(nxt)) == "negation"
            and ({_SYNONYMS.get(_key(t), _key(t)) for t in old} & {"not"})
        ):
            continue
        if (
            cls == "modal"
            and _CLASSES.get(_key(nxt)) == "negation"
            and {_key(t) for t in tokens[i + 2 : i + 5]} & _EFFECTS
        ):
            continue  # "It will not alter anything": a denial of an effect, not a new modal
        out.append(w)
    return out


def _noun_like(word: str) -> bool:
    return len(word) > 2 and word not in _ENGLISH and word not in _DETERMINER


_RETURNS = re.compile(
    r"(?:returns?|lists?|shows?|gets?|fetch(?:es)?|reads?|finds?|describes?|searche?s?|of|across)"
)
_REQUIRES = re.compile(
    r"\b(?:require[sd]?|requiring|must|mandatory|needs? to|needed|has to|have to|obligatory)\b"
    # "A refill needs the prescriber's authorization": a duty told with its object.
    r"|\bneeds? (?:a|an|the|their|its|his|her|your|one|two|\w+'s)\b"
)
_LEEWAY = (
    r"(?:where|when|if|as) (?:time|staffing|capacity|workload|resourcing|the schedule|budget) "
    r"(?:allows|permits)|time permitting|when (?:there is|you have) time"
    r"|at (?:the |your |their |his |her )?(?:\S+'s |\S+s' )?(?:own )?discretion"
    r"|(?:on )?(?:a )?best[- ]efforts?(?: basis)?"
)
"""Leeway that makes a duty the doer's call: time, discretion, best effort."""
_ADVISES = re.compile(
    r"\b(?:helps?|helpful|recommended|encouraged|optional|useful|preferred|nice to have|"
    r"if available|where possible|when possible|ideally|suggested|welcome|can be (?:added|given)|"
    r"benefits? from|where (?:one|it) is available|when available|is a plus|is advisable|"
    r"(?:good|best|sound|standard) practice|" + _LEEWAY + r"|"
    # The thing asked for only when it happens to be at hand: "when one is available".
    r"(?:when|where|if|whenever) (?:one|it|they|any|some|such an? \w+|an? \w+) (?:is |are )?"
    r"(?:available|exists?|on hand|at hand|to hand|applicable|known|present)|"
    r"(?:if|where|when) (?:applicable|known|present)|"
    r"(?:is|are|it is|it's) best|best (?:accompanied|sent|given|supplied|provided|included|"
    r"added|paired|submitted|attached|made|done))\b"
)
_MAX_RULES = 64


_STRICT = re.compile(r"\b(?:never|must|always|do not|don't|cannot|only)\b")
_HEDGE = re.compile(
    r"(?<!never )(?<!not )(?<!n't )\btry (?:not )?to\b|\bwhere (?:possible|practical|feasible|reasonabl\w+|it can)\b"
    r"|\bif (?:possible|practical|convenient|feasible)\b|\bideally\b|\breasonabl[ey]\b"
    r"|\bwhen convenient\b|\bas far as (?:possible|practical)\b|\bpreferabl[ey]\b"
    r"|\bgenerally\b|\busually\b|\bin most cases\b|\bwhere it makes sense\b|\bif in doubt\b"
    r"|\bunless (?:it is |it's )?(?:urgent|inconvenient|impractical|time-critical)\b"
    r"|\b(?:not|never)\b(?:\s+\S+){0,3}?\s+by default\b"
    r"|\b" + _LEEWAY + r"\b"
)


_GLUED = re.compile(r"(\d+)-[a-z]+")


def _glued_numbers(words: list[str]) -> set[str]:
    """ "90-day" still says 90: a number written onto its unit."""
    return {m.group(1) for w in words if (m := _GLUED.fullmatch(w))}


def _amount_value(word: str) -> float | None:
    return float(word.replace(",", "")) if _AMOUNT.fullmatch(word) else None


def _amount_lowered(went: list[str], arrived: list[str]) -> bool:
    """One sum of money replaced by a smaller one ("above 10,000.00" -> "above 5,000.00"):
    a limit tightened. A raised sum, or any other number, still flips."""
    if len(went) != 1 or len(arrived) != 1:
        return False
    was, now = _amount_value(went[0]), _amount_value(arrived[0])
    return was is not None and now is not None and now < was


_BAN_RULE = re.compile(r"\b(?:do not|don't|never|must not|may not)\s+(\w+)\s+([^.;:\n]{3,200})")


def _content_roots(text: str) -> set[str]:
    return {_root(_key(w)) for w in _TOKEN.findall(text) if _key(w) not in _ENGLISH and len(w) > 2}


_STANDS_IN = re.compile(r"\b(?:one|ones|them|it|those|these|such \w+)\b")
"""A pronoun that stands in for the ban's object."""


def _ban_narrowed(old: str, new: str) -> str | None:
    """A prohibition that kept its verb and lost part of its list ("do not include card
    numbers, passwords or addresses" -> "do not include passwords"): the rest is allowed now."""
    if len(old) + len(new) > 2 * MAX_DELTA_CHARS:
        return None
    bans: dict[str, set[str]] = {}
    told: dict[str, str] = {}
    for m in _BAN_RULE.finditer(new):
        bans.setdefault(m.group(1), set()).update(_content_roots(m.group(2)))
        told[m.group(1)] = told.get(m.group(1), "") + " " + m.group(2)
    for m in _BAN_RULE.finditer(old):
        now = bans.get(m.group(1))
        if now is None:
            continue
        was = _content_roots(m.group(2))
        lost = was - now
        if len(lost) == 1 and _STANDS_IN.search(told[m.group(1)]):
            continue  # "never message a patient flagged X" -> "never message one flagged X"
        if lost and now < was:
            return ", ".join(sorted(lost)[:3])
    return None


_EXEMPT_BAN = re.compile(
    r"\b(?:must not|mustn't|may not|never|do not|don't|cannot|can't|is not|are not|not)\b"
    r"[^.;:\n]{0,120}?\b(?:outside|beyond|other than|except(?: for)?|apart from|besides)\s+"
    r"([^.;:\n]{1,200})"
)
_LIST_GOES_ON = re.compile(
    r"\s*(?:and|or|plus|as well as|along with|&)\b"
    # "... and must be deleted after upload": a new clause, not one more member.
    r"(?!\s+(?:must|may|should|shall|will|can|cannot|is|are|be|never|not|do|does|only|also)\b)"
)


def _ban_exempted(old: str, new: str) -> str | None:
    """A ban whose "outside ..." list gained members ("must not be shared outside the
    newsroom" -> "outside the newsroom and its partners"): the ban no longer covers them."""
    if len(old) + len(new) > 2 * MAX_DELTA_CHARS:
        return None
    for m in _EXEMPT_BAN.finditer(old):
        lead, tail = old[m.start() : m.start(1)], m.group(1).rstrip()
        at = new.find(lead + tail)
        if at < 0:
            continue
        rest = new[at + len(lead) + len(tail) :]
        goes_on = _LIST_GOES_ON.match(rest)
        if goes_on is None:
            continue
        more = re.split(r"[.;:\n]", rest[goes_on.end() :], maxsplit=1)[0]
        gained = _content_roots(more) - _content_roots(tail)
        if gained:
            return more.strip()[:40]
    return None


_BAN_WORD = re.compile(
    r"\b(?:never|not|no|cannot|can't)\b|n't\b|\b(?:are|is|was|were|gets?|will be) (?:\w+ )?"
    r"(?:refused|rejected|blocked|denied|forbidden|prohibited|disallowed|barred|excluded|"
    r"withheld)\b"
)
"""A ban or refusal as told: "can be blocked" gives leave, "are blocked" refuses."""
_LEAVE_OR_CONDITION = re.compile(
    r"\b(?:can|may|could) (?:now |also )?be \w+|\b(?:are|is) (?:now )?(?:allowed|accepted|"
    r"permitted|supported|welcome)\b|\bas well\b|\btoo\b|\b(?:only )?(?:when|if|provided|"
    r"as long as) (?!(?:\S+ ){0,4}?(?:confirm|approv|consent|agree|review|ask|sign))"
)
_BANNED_VERB = re.compile(r"\b(?:never|not|cannot|can't|n't)\s+(?:be\s+)?([a-z]{3,})")


def _ban_lifted(old: str, new: str) -> str | None:
    """A refusal or ban whose sentence is told again without it, as leave or a condition:
    "... under legal hold are refused" -> "... can be wiped as well"; "never shown to other
    teams" -> "shown to other teams only when they give a reason"."""
    if len(old) + len(new) > 2 * MAX_DELTA_CHARS:
        return None
    gone = [x for x in _sentences(old)[:_MAX_RULES] if _BAN_WORD.search(x) and x not in new]
    if not gone:
        return None
    fresh = [
        (x, len(_BAN_WORD.findall(x)), _content_roots(x))
        for x in _sentences(new)[:_MAX_RULES]
        if x not in old
    ]
    for was in gone:
        roots = _content_roots(_BAN_WORD.sub(" ", was))
        if len(roots) < 3:
            continue
        bans = len(_BAN_WORD.findall(was))
        refused = "refused" in was or "blocked" in was or "rejected" in was
        # The act the ban held back, to be found told plainly: "never shown" -> "shown ... if".
        verbs = {m.group(1) for m in _BANNED_VERB.finditer(was)}
        for now, now_bans, now_roots in fresh:
            if now_bans >= bans or len(roots & now_roots) < 0.6 * len(roots):
                continue
            if not _LEAVE_OR_CONDITION.search(now):
                continue
            if refused or any(re.search(r"\b" + v + r"\b", now) for v in verbs):
                return now.strip()[:60]
    return None


_APPROVAL = re.compile(
    r"\b(?:approv\w*|sign(?:s|ed)? off|sign-?offs?|authori[sz]\w*|countersign\w*|"
    r"two-person|four-eyes|dual control)\b"
)


def _approver_dropped(old: str, new: str) -> str | None:
    """An approval gate told again with fewer parties: "until the manager and a desk lead
    approve it" -> "until a desk lead approves it". Only words near the approval may go,
    and none may come."""
    if len(old) + len(new) > 2 * MAX_DELTA_CHARS:
        return None
    gone = [x for x in _sentences(old)[:_MAX_RULES] if x not in new and _APPROVAL.search(x)]
    gone = [x for x in gone if re.search(r"\b(?:and|both|plus)\b", x)]
    if not gone:
        return None
    fresh = [
        _content_roots(x)
        for x in _sentences(new)[:_MAX_RULES]
        if x not in old and _APPROVAL.search(x)
    ]
    for was in gone:
        roots = _content_roots(was)
        near: set[str] = set()
        for m in _APPROVAL.finditer(was):
            near |= _content_roots(was[max(0, m.start() - 100) : m.end() + 100])
        for have in fresh:
            lost, gained = roots - have, have - roots
            if lost and not gained and lost <= near and len(roots & have) >= 0.6 * len(roots):
                return ", ".join(sorted(lost))[:60]
    return None


_UNGATED = re.compile(
    r"\bwithout (?:an? |any |the |prior |further )?(?:\S+ )?(?:approval|confirmation|consent|"
    r"sign-?off|review|check|authori[sz]ation)\w*"
    r"|\bno (?:\S+ )?(?:approval|confirmation|consent|sign-?off|review|check|authori[sz]ation)\w* "
    r"(?:is |are )?(?:needed|required|necessary)\b"
    r"|\b(?:need|needs|require|requires) no (?:\S+ )?(?:approval|confirmation|consent|sign-?off|"
    r"review|authori[sz]ation)\b"
)


_NUMBERED = re.compile(r"(?:^|(?<=[\n.:;]))\s*(\d{1,2})[.)]\s+(?=\D)")
_RULE_MARK = re.compile(
    r"\b(?:never|not|n't|must|only|cannot|always|requires?|required|needs?|no one|nobody|"
    r"at most|at least|before|until|unless)\b"
)


def _numbered_rules(text: str) -> list[str]:
    """The items of a numbered list ("1. Never ... 2. Only ..."), at most 64."""
    marks = list(_NUMBERED.finditer(text[:MAX_DELTA_CHARS]))[: _MAX_RULES + 1]
    if len(marks) < 2:
        return []
    out = []
    for k, m in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(text)
        out.append(text[m.end() : end].split("\n\n")[0].strip())
    return out


def _numbered_rule_dropped(old: str, new: str) -> str | None:
    """A whole rule of a numbered list gone, the rest kept ("5. Contact only owners who
    opted in; never message ..." deleted, the list renumbered): nothing retells it. A rule
    told in other words shares most of its content words with one of the new items."""
    before = _numbered_rules(old)
    if not before:
        return None
    after = _numbered_rules(new)
    if not after or len(after) >= len(before):
        return None
    now = [_content_roots(x) for x in after]
    for rule in before:
        if not _RULE_MARK.search(rule):
            continue
        roots = _content_roots(rule)
        if len(roots) < 3 or any(len(roots & x) * 5 >= len(roots) * 3 for x in now):
            continue
        return rule[:40]
    return None


_GATE_FIELD = re.compile(r"approv|confirm|consent|signoff|review|authori|ticket|ref$")


def _moved_to_ungated(old: str, new: str) -> str | None:
    """A name taken off a requirement's list and put in the sentence that needs nothing
    ("remote_disconnect and switch_to_prepay require approval; read_now may be sent without"
    -> "... switch_to_prepay may be sent without approval")."""
    if len(old) + len(new) > 2 * MAX_DELTA_CHARS:
        return None
    was = _sentences(old)[:_MAX_RULES]
    gated_before = {
        _key(w)
        for x in was
        if _REQUIRES.search(x) and not _UNGATED.search(x)
        for w in _TOKEN.findall(x)
    }
    free_before = {_key(w) for x in was if _UNGATED.search(x) for w in _TOKEN.findall(x)}
    for x in _sentences(new)[:_MAX_RULES]:
        if not _UNGATED.search(x) or _REQUIRES.search(x) or "error" in x:
            continue  # "Errors: APPROVAL_REQUIRED - sent without approval_id" says a refusal
        for w in _TOKEN.findall(x):
            k = _key(w)
            if (
                "_" in w
                and k in gated_before
                and k not in free_before
                and not _GATE_FIELD.search(k)  # the gate's own field: "without approval_id"
            ):
                return str(w)
    return None


def _hedged(old: str, new: str) -> str | None:
    """A strict rule given a way out ("Never reuse a confirmation" -> "Try not to reuse one
    where that can reasonably be avoided"): a hedge the old text lacked, where it was strict."""
    if not _STRICT.search(old):
        return None
    for m in _HEDGE.finditer(new):
        if m.group(0) not in old:
            return m.group(0)
    return None


_PROTECTS = ("mask", "redact", "encrypt", "hash", "anonymi", "pseudonymi", "obfuscat", "truncat")


def _protection_dropped(old: list[str], new: list[str]) -> str | None:
    """The old text said data is masked, redacted or encrypted; the new text does not."""
    had = {p for w in old for p in _PROTECTS if w.startswith(p)}
    keeps = {p for w in new for p in _PROTECTS if w.startswith(p)}
    undone = {p for w in new for p in _PROTECTS if w.startswith("un" + p)} - {
        p for w in old for p in _PROTECTS if w.startswith("un" + p)
    }
    undone &= had  # "messages are stored unencrypted by carriers": no protection was told
    gone = sorted((had - keeps) | undone)
    return gone[0] if gone else None


_CONDITIONS = re.compile(r"\b(?:when|whenever|if|unless|only if|only when|where|provided)\b")


def _protection_conditioned(old: str, new: str) -> str | None:
    """A protection the old text gave always, kept word for word with a condition it
    lacked ("are masked to the last four digits" -> "... when mask_identifiers is true"):
    the protection now has an off switch."""
    if len(old) + len(new) > 2 * MAX_DELTA_CHARS:
        return None
    told = [(x, {_key(w) for w in _TOKEN.findall(x)}) for x in _sentences(new)[:_MAX_RULES]]
    for rule in _sentences(old)[:_MAX_RULES]:
        words = {_key(w) for w in _TOKEN.findall(rule)}
        if not any(w.startswith(_PROTECTS) for w in words):
            continue
        had = set(_CONDITIONS.findall(rule))
        for sentence, keys in told:
            if sentence != rule and words <= keys:
                came = sorted(set(_CONDITIONS.findall(sentence)) - had)
                if came:
                    return str(came[0])
    return None


def _softened(old: str, new: str) -> str | None:
    """A requirement retold as advice ("Production deploys require a change ticket" -> "A
    change ticket helps with auditing"): the thing stays named, the obligation goes."""
    rules = [x for x in _sentences(_fold(old)) if _REQUIRES.search(x)][:_MAX_RULES]
    if not rules:
        return None
    kept = set(_sentences(_fold(old))[:_MAX_RULES])
    # A sentence the old text already had retells nothing: only new ones can be the rule.
    told = [x for x in _sentences(_fold(new))[:_MAX_RULES] if x not in kept]
    for rule in rules:
        words = {_key(w) for w in _TOKEN.findall(rule) if w not in _ENGLISH and len(w) > 3}
        subject = words - _REQUIRE_WORDS
        subject = {_root(w) for w in subject}  # "must be logged" told as "logging"
        about = [x for x in told if len(subject & {_root(_key(w)) for w in _TOKEN.findall(x)}) >= 2]
        if not about or any(_REQUIRES.search(x) for x in about):
            continue
        advice = next((m.group(0) for x in about if (m := _ADVISES.search(x))), None)
        duty = _REQUIRES.search(rule)
        if advice and duty:
            return f"{duty.group(0)!r} -> {advice!r}"
    return None


_REQUIRE_WORDS = frozenset(
    ["require", "requires", "required", "requiring", "must", "mandatory", "needs", "needed"]
)


_CAPS = (
    ("at", "most"),
    ("up", "to"),
    ("more", "than"),
    ("maximum",),
    ("max",),
    ("limit",),
    ("above",),
    ("over",),
    ("exceeding",),
    ("exceeds",),
    ("the", "last"),
    ("the", "past"),
    ("within",),
)
"""Words before a number whose lowering tightens: a cap, an approval threshold, a window."""
_FLOORS = (("at", "least"), ("minimum",), ("min",), ("no", "sooner", "than"))
"""Words before a number whose raising tightens."""


def _cap_lowered(a: list[str], b: list[str], gone: list[str], came: list[str]) -> bool:
    """One limit moved the strict way in the same words: a cap or a threshold down ("at
    most 1000 rows" -> "at most 500", "refunds above USD 500 need approval" -> "above USD
    250", "in the last 24 months" -> "12"), a floor up ("at least 2" -> "at least 3")."""
    if len(gone) != 1 or len(came) != 1 or not (gone[0].isdigit() and came[0].isdigit()):
        return False

    def lead(tokens: list[str], number: str) -> tuple[str, ...] | None:
        at = tokens.index(number) if number in tokens else -1
        for c in (*_CAPS, *_FLOORS):
            start = at - len(c)
            if at > 0 and tuple(tokens[max(0, start) : at]) == c:
                return c
            if start > 0 and tuple(tokens[start - 1 : at - 1]) == c and tokens[at - 1].isalpha():
                return c  # "above USD 500": a unit between
        return None

    was, now = lead(a, gone[0]), lead(b, came[0])
    if was is None or was != now:
        return False
    lower = int(came[0]) < int(gone[0])
    return lower if was in _CAPS else not lower


_NOT_ACTS = frozenset(
    [
        "asking",
        "confirming",
        "checking",
        "waiting",
        "nothing",
        "something",
        "anything",
        "everything",
        "doing",
        "being",
        "having",
        "during",
    ]
)


def _gate_acts(tokens: list[str], positions: frozenset[int] | None = None) -> list[str]:
    """The acts a consent sentence names ("before opening pull requests, posting comments")."""
    at = positions if positions is not None else _gate_positions(tokens)
    return [
        w
        for i, w in enumerate(tokens)
        if i in at
        and w not in _NOT_ACTS
        and _GATE_ACT.fullmatch(w)
        and not _GATE_SENTENCE.fullmatch(w)
    ]


def _root(word: str) -> str:
    """``restoring``, ``restores`` and ``restore`` share ``restor``: one act however told."""
    for suffix in ("ations", "ation", "ings", "ing", "es", "ed", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


_REFERS_BACK = frozenset(["either", "both", "them", "these", "those", "each", "any"])


def _gate_wide(tokens: list[str]) -> frozenset[int]:
    """Consent sentences, and the sentence before one that refers back ("purge_cache and
    restore_backup change state: ask the user before either"). Each sentence is visited
    once."""
    gated = _gate_positions(tokens)
    out = set(gated)
    spans: list[tuple[int, int]] = []
    begin = 0
    for i, tok in enumerate([*tokens, "\n"]):
        if tok in _SENTENCE_END:
            if i > begin:
                spans.append((begin, i))
            begin = i + 1
    for k, (lo, hi) in enumerate(spans):
        if k == 0 or lo not in gated:
            continue
        words = tokens[lo:hi]
        if _REFERS_BACK & set(words):
            out.update(range(spans[k - 1][0], spans[k - 1][1]))
    return frozenset(out)


def _gate_narrowed(a: list[str], b: list[str], gated: frozenset[int]) -> list[str]:
    """Acts the old consent rule named that the new one no longer holds back: "ask before
    opening, posting or deleting" -> "ask before deleting" (the others gone, or named
    outside the rule: "...; posting is routine"), or no consent rule left while the text
    still names the acts. An act gone from the text with its sentence stays medium only
    when the rule went too."""

    def roots(words: list[str]) -> set[str]:
        return {_root(p) for w in words for p in re.split(r"[_-]", _key(w) if "_" not in w else w)}

    now = roots(b)
    acts = list(dict.fromkeys(_gate_acts(a, _gate_wide(a))))
    if not gated:
        kept = [w for w in acts if _root(_key(w)) in now]
        return [f"{w} (no longer waits for consent)" for w in kept]
    wide = _gate_wide(b)
    held = roots([w for i, w in enumerate(b) if i in wide])
    return [w for w in acts if _root(_key(w)) not in held]


_VERSION_NOUNS = frozenset({
    "schema", "version", "api", "release", "edition", "rev", "revision", "build", "protocol",
    "v", "model", "spec", "draft", "python", "node", "level", "iso", "rfc", "iec", "ieee",
    "ecma", "utf", "sha", "pep", "cve", "ipv", "http",
})  # fmt: skip


_RELEASE_NUMBER = re.compile(r"20[0-3]\d\.(?:0[1-9]|1[0-2])(?:\.\d{1,2})?|\d+\.\d+\.\d+")
_AMOUNT_CUES = frozenset(
    [
        "up",
        "most",
        "least",
        "limit",
        "limits",
        "max",
        "maximum",
        "min",
        "minimum",
        "exceed",
        "exceeds",
        "over",
        "above",
        "below",
        "under",
        "than",
        "cap",
        "capped",
        "$",
        "€",
        "£",
        "usd",
        "eur",
        "gbp",
        "amount",
        "amounts",
        "total",
        "balance",
        "of",
        "for",
        "pay",
        "paid",
        "fee",
        "fees",
        "price",
        "cost",
        "costs",
        "charge",
        "refund",
        "refunds",
    ]
)


def _counts(part: list[str], tokens: list[str], start: int, spelled: bool = True) -> list[str]:
    """The words of a part that may be counts: "schema 12" and a year are names, not counts.

    ``spelled``: counts written out ("two identifiers") too; a rewrite retells "between two
    dates" as "in a date range", so there only digits count."""
    out: list[str] = []
    for i, w in zip(range(start, start + len(part)), part, strict=True):
        if not spelled and _key(w) in _NUMBER_WORDS:
            continue
        if _list_marker(tokens, i):
            continue  # "6. A manager may not ...": the rule's number, moved with it
        if w.isdigit() and (
            (i > 0 and tokens[i - 1] in _VERSION_NOUNS) or (len(w) == 4 and w[:2] in ("19", "20"))
        ):
            continue
        if _RELEASE_NUMBER.fullmatch(w) and not _AMOUNT_CUES & set(tokens[max(0, i - 3) : i]):
            continue  # "content pack 2024.11", "2.4.1": a release's name, not a count
        out.append(w)
    return out


_EFFECTS = frozenset({
    "leave", "leaves", "share", "shares", "send", "sends", "store", "stores", "modify",
    "modifies", "change", "changes", "write", "writes", "delete", "deletes", "expose",
    "exposes", "side", "effect", "effects", "affect", "affects", "persist", "persists",
    "leak", "leaks", "alter", "alters", "touch", "touches", "retain", "retains", "keep",
    "modified", "changed", "written", "deleted", "altered", "touched", "stored", "sent",
    "shared", "kept", "rerun", "removed", "exposed",
})  # fmt: skip


def _restrictive(tokens: list[str], negations: set[str]) -> bool:
    """Every new negation in the text denies an effect ("never leaves", "without side
    effects", "does not modify"): a restriction told another way, not a permission."""
    for i, tok in enumerate(tokens):
        k = _SYNONYMS.get(_key(tok), _key(tok))
        if _CLASSES.get(_key(tok)) == "negation" and k in negations:
            ahead = {_key(t) for t in tokens[i + 1 : i + 4]}
            if not ahead & _EFFECTS:
                return False
    return True


def _sentence_span(tokens: list[str], i: int, j: int) -> tuple[int, int]:
    while i > 0 and tokens[i - 1] not in _SENTENCE_END:
        i -= 1
    while j < len(tokens) and (j == 0 or tokens[j - 1] not in _SENTENCE_END):
        j += 1
    return i, j


def _kept_share(ops: Sequence[tuple[str, int, int, int, int]], a: list[str], b: list[str]) -> float:
    """Share of words kept in the sentences the edit touched (1.0 when nothing changed):
    a rewritten sentence next to an untouched one is still a rewrite."""
    changed = [op for op in ops if op[0] != "equal"]
    if not changed:
        return 1.0
    ai, aj = _sentence_span(a, changed[0][1], changed[-1][2])
    bi, bj = _sentence_span(b, changed[0][3], changed[-1][4])
    kept = sum(max(0, min(i2, aj) - max(i1, ai)) for op, i1, i2, _, _ in ops if op == "equal")
    total = (aj - ai) + (bj - bi)
    return 2 * kept / total if total else 1.0


def _kept_gates(a: list[str], gated: frozenset[int]) -> bool:
    """A rewrite that keeps as many consent gates as the old text had ("before calling it,
    wait until they confirm" for "only call after the user has confirmed"): the rule is
    retold, not narrowed. ``gated``: the new text's gate positions, already found."""
    return len(gated) >= len(_gate_positions(a)) > 0


def _whole_sentences(tokens: list[str], i: int, j: int) -> bool:
    """Tokens ``i..j`` are whole sentences: they start after a sentence end and end one."""
    # A newline opening the run ends the line before it ("Documentation: <link>").
    starts = i == 0 or tokens[i - 1] in _SENTENCE_END or tokens[i] == "\n"
    ends = j == len(tokens) or tokens[j - 1] in _SENTENCE_END
    return starts and ends


def _unaligned(a: list[str], b: list[str], new: str, folded: str) -> Delta:
    """Too long to compare word by word: every word the old text lacked counts as added."""
    seen = {_key(w) for w in a}
    return Delta(
        added=[w for w in b if _key(w) not in seen], context=[folded], raw=[new[:MAX_DELTA_CHARS]]
    )


def delta(old: str, new: str) -> Delta:
    a, b = _tokens(old), _tokens(new)
    out = Delta()
    folded = _fold(new[:MAX_DELTA_CHARS])
    if (
        len(old) > MAX_DELTA_CHARS
        or len(new) > MAX_DELTA_CHARS
        or len(a) * len(b) > _MAX_WORD_PAIRS
    ):
        return _unaligned(a, b, new, folded)
    ka, kb = [_key(w) for w in a], [_key(w) for w in b]
    out.old_keys = set(ka)
    out.old_text = _fold(old[:MAX_DELTA_CHARS])
    if _reordered(ka, kb):
        every = _sentences(unicodedata.normalize("NFKC", new))
        out.lead = _fold(every[0]) if every else ""
        out.reordered = True
        return out  # nothing is said that was not said before
    out.old_forbidden = {
        ka[i + 1] for i, k in enumerate(ka[:-1]) if _CLASSES.get(k) == "negation"
    } - {"do", "be", "to"}
    gated = _gate_positions(b)
    affixes: list[str] = []
    excepted: list[str] = []  # kept even in a rewrite: the old sentence was kept around it
    new_keys = set(kb)
    gone: list[str] = []
    came: list[str] = []
    gone_numbers: list[str] = []
    came_numbers: list[str] = []
    matcher = difflib.SequenceMatcher(None, ka, kb, autojunk=False)
    retold = _kept_share(matcher.get_opcodes(), a, b) < _REWRITE
    out.retold = retellings(out.old_text, folded) if retold else None
    told = _positions(b, out.retold or frozenset())
    held = gated | told
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        old_part, new_part = a[i1:i2], b[j1:j2]
        out.added.extend(w for w in new_part if w not in _SENTENCE_END)
        out.removed.extend(w for w in old_part if w not in _SENTENCE_END)
        if (op == "delete" and _whole_sentences(a, i1, i2)) or (
            op == "insert" and _whole_sentences(b, j1, j2)
        ):
            continue  # a sentence removed or added whole: no flip inside a kept one
        if op == "insert" or (op == "replace" and not retold):
            excepted.extend(_clause_exception(a, i1, old_part, new_part))
        if op == "delete" and not retold:
            excepted.extend(_list_item_dropped(a, i1, old_part, new_keys))
        if op == "insert" and j2 - j1 >= 6:
            # A clause added ("(either a or b, not both)"): its negation adds a constraint,
            # it flips nothing that was there; the clause is still read for signals.
            new_part = [w for w in new_part if _CLASSES.get(_key(w)) != "negation"]
        gone.extend(_distributive(old_part, a, i1))
        kept = _distributive(new_part, b, j1, held, told, out.old_keys)
        came.extend(_retold_scope(kept, b, j1, set(ka)) if retold else kept)
        if op == "replace":
            affixes.extend(_inclusion_flip(old_part, new_part))
            affixes.extend(_exclusion_added(a, i1, old_part, new_part))
        if op == "replace" and len(old_part) == len(new_part):
            # "wait for the user" -> "the assistant waits for the user": a verb, not a count.
            leading = j1 == 0 or b[j1 - 1] in _SENTENCE_END or _key(b[j1 - 1]) in _SUBJECTS
            affixes.extend(_affix_flips(old_part, new_part, leading, _counted_at(b, j1)))
        gone_numbers.extend(_counts(old_part, a, i1, not retold))
        if op == "replace":
            came_numbers.extend(_counts(new_part, b, j1, not retold))  # an example is no flip
    went, arrived = _changed_numbers(a, b, gone_numbers, came_numbers)
    before = _bag(gone, False) | {"number": went}
    after = _bag(came, False) | {"number": arrived}
    # In a rewrite a modal flips only when the new words bring one the old lacked ("must
    # confirm" -> "may confirm"); "must confirm" -> "once they have confirmed" is the same
    # rule in other words, as a removed sentence is.
    rewrite = out.rewrite = retold
    if not rewrite:  # "Run ... return" retold as "Executes ... returns": a verb, not a count
        out.flips.extend(affixes)
    out.flips.extend(excepted[:1])
    moved = _Moved(
        rewrite=rewrite,
        obliged=frozenset({"must"} if rewrite and _OBLIGES & set(ka) else ()),
        new_words=b,
        new_text=folded,
        old_text=out.old_text,
    )
    if out.retold is not None:
        before, after = _losses_retold(before, after, _waived_duty(folded, out.old_text))
    out.flips.extend(_class_flips(before, after, moved))
    out.flips.extend(_rule_flips(old, new, (a, ka), (b, kb), gated, moved))
    keys = {_key(w) for w in out.added}
    every = _sentences(unicodedata.normalize("NFKC", new))
    out.lead = _fold(every[0]) if every else ""
    out.raw = [sentence for sentence in every if keys & {_key(w) for w in _tokens(sentence)}]
    out.context = [_fold(sentence) for sentence in out.raw]
    return out


def _reordered(a: list[str], b: list[str]) -> bool:
    """``b`` holds the sentences of ``a``, each word for word, in another order (a sentence
    that moved to the end may gain or lose its full stop)."""
    if a == b or sorted(w for w in a if w not in _SENTENCE_END) != sorted(
        w for w in b if w not in _SENTENCE_END
    ):
        return False

    def runs(tokens: list[str]) -> collections.Counter[tuple[str, ...]]:
        return collections.Counter(
            run[:-1] if run and run[-1] in _SENTENCE_END else run for run in _sentence_runs(tokens)
        )

    return runs(a) == runs(b)


def _positions(tokens: list[str], sentences: frozenset[str]) -> frozenset[int]:
    """Token positions of the given sentences: a quantifier in a sentence that retells a
    rule ("every link expires after 7 days") is the rule's reach, not a wider act."""
    told = {" ".join(_tokens(x)) for x in sentences}
    out: set[int] = set()
    start = 0
    for i, tok in enumerate([*tokens, "\n"]):
        if tok in _SENTENCE_END:
            if " ".join(tokens[start : i + 1]) in told or " ".join(tokens[start:i]) in told:
                out.update(range(start, i))
            start = i + 1
    return frozenset(out)


def _losses_retold(
    before: dict[str, list[str]], after: dict[str, list[str]], waived: bool
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Every rule of the old text is still a rule in the rewrite (:func:`retellings`), so
    a negation, "only" or modal the rewrite no longer uses took no limit away: only what
    the new words gain (a wider quantifier outside the retellings, a modal that gives leave,
    a negation that waives a duty) and numbers still flip.
    """
    was_q, was_m = before.get("quantifier", []), before.get("modal", [])
    narrower = [w for w in was_q if w in _NARROWER]
    now = {
        "number": after.get("number", []),
        "quantifier": after.get("quantifier", []) + narrower,
        "modal": list(dict.fromkeys(after.get("modal", []) + was_m)),
    }
    was = {
        "number": before.get("number", []),
        "quantifier": was_q,
        "modal": list(dict.fromkeys(was_m)),
    }
    if waived:  # "confirmation is not required": the new negation takes a check away
        was["negation"], now["negation"] = before.get("negation", []), after.get("negation", [])
    return was, now


@dataclass(frozen=True, slots=True)
class _Moved:
    """What the word-class rules need to know about one edit."""

    rewrite: bool
    obliged: frozenset[str]
    new_words: list[str]
    new_text: str
    """The new text, folded."""
    old_text: str


def _fresh(tokens: list[str], other: list[str]) -> list[str]:
    """The tokens of the sentences ``other`` does not have word for word: a number in an
    untouched sentence ("offer at least two slots") is not where a changed one moved to."""
    kept = set(_sentence_runs(other))
    return [w for run in _sentence_runs(tokens) if run not in kept for w in run]


def _sentence_runs(tokens: list[str]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    start = 0
    for i, w in enumerate(tokens):
        if w in _SENTENCE_END:
            out.append(tuple(tokens[start : i + 1]))
            start = i + 1
    if start < len(tokens):
        out.append(tuple(tokens[start:]))
    return out


def _list_marker(tokens: list[str], i: int) -> bool:
    """``tokens[i]`` numbers a list item: "\n2. Payroll", "Rules: 1. Never"."""
    return (
        tokens[i].isdigit()
        and (i == 0 or tokens[i - 1] in _SENTENCE_END)
        and i + 1 < len(tokens)
        and tokens[i + 1] in (".", ")")
    )


def _unmarked(tokens: list[str]) -> list[str]:
    """Tokens without the numbers of a numbered list: a rule's number is not a count
    another sentence can have moved from."""
    return [w for i, w in enumerate(tokens) if not _list_marker(tokens, i)]


def _changed_numbers(
    a: list[str], b: list[str], gone: list[str], came: list[str]
) -> tuple[list[str], list[str]]:
    """Counts that went and arrived. A number the other text also has moved with its sentence
    ("up to 25" -> "at most 25 matches"): only a value one side lacks is a changed count."""
    if _cap_lowered(a, b, gone, came):
        return [], []
    was, now = _bag(gone, True).get("number", []), _bag(came, True).get("number", [])
    if not was and not now:
        return [], []  # no count touched: the sentence runs of both texts are not needed
    a_fresh, b_fresh = _fresh(a, b), _fresh(b, a)
    old_numbers = set(_bag(_unmarked(a_fresh), True).get("number", [])) | _glued_numbers(a_fresh)
    new_numbers = set(_bag(_unmarked(b_fresh), True).get("number", [])) | _glued_numbers(b_fresh)
    went = [n for n in was if n not in new_numbers]
    arrived = [n for n in now if n not in old_numbers]
    if _amount_lowered(went, arrived):
        return [], []
    if not went:  # "HST- followed by 12 hex digits": a format told where none was
        arrived = [n for n in arrived if not _format_length(b, n)]
    return went, arrived


_LENGTH_UNITS = frozenset(
    [
        "digit",
        "digits",
        "character",
        "characters",
        "chars",
        "letter",
        "letters",
        "byte",
        "bytes",
        "symbols",
    ]
)
_LENGTH_KINDS = frozenset(
    ["hex", "hexadecimal", "alphanumeric", "numeric", "decimal", "base32", "base64"]
)


def _format_length(tokens: list[str], number: str) -> bool:
    """Every place ``number`` stands in ``tokens`` gives the length of a format."""
    seen = False
    for i, w in enumerate(tokens):
        if w != number:
            continue
        ahead = [_key(t) for t in tokens[i + 1 : i + 3]]
        if ahead[:1] and ahead[0] in _LENGTH_KINDS:
            ahead = ahead[1:]
        if not (ahead[:1] and ahead[0] in _LENGTH_UNITS):
            return False
        seen = True
    return seen


def _same_negation(gained: set[str], lost: set[str], m: _Moved) -> bool:
    """A negation that moved without changing what is denied."""
    if m.rewrite and gained and not lost and _restrictive(m.new_words, gained):
        return True  # "stays inside the system" retold as "never leaves the system"
    if m.rewrite and lost and not gained and _HANDED_OVER.search(" ".join(m.new_words)):
        return True  # "does not take them" retold as "leaves taking them to the user"
    if gained and not lost and not _waived_duty(m.new_text, m.old_text):
        return True  # "it changes nothing and never revokes access": a new denial of an act
    # "are not included" -> "are excluded": the same denial in one word.
    return bool(
        lost and not gained and _EXCLUDES.search(m.new_text) and not _EXCLUDES.search(m.old_text)
    )


_STILL_OBLIGED = re.compile(r"\b(?:has|have|need|needs) to\b|\b(?:is|are) required\b")


def _same_modal(was: list[str], now: list[str], m: _Moved) -> bool:
    """A modal that moved without giving the model new leave."""
    gained, lost = set(now) - set(was), set(was) - set(now)
    if m.rewrite and not gained - m.obliged:
        return True
    if lost <= {"must"} and not gained and _STILL_OBLIGED.search(m.new_text):
        return True  # "must be explicit" -> "has to be explicit"
    if (
        lost <= {"should", "must"}
        and not gained
        and _ONLY_WHEN.search(m.new_text)
        and _ONLY_WHEN.search(m.old_text)
    ):
        return True  # "should only be set when ..." -> "set it only when ...": the same gate
    if m.rewrite and not gained - _WEAK_MODALS - m.obliged and not lost & _STRONG_MODALS:
        return True  # "the review suggests alerts the user can accept": no new leave
    # Only "can be read" or "always read back ... and wait" gained.
    return not lost and _no_leave(gained, m.new_text, m.old_text)


_OTHERS_EXCLUDED = re.compile(
    r"\bother\b[^.;:\n]{0,60}?\b(?:are|is) (?:not|never) (?:returned|shown|included|listed|"
    r"visible|searched)\b"
)
"""The reach of "only" told from the other side: "patients of other stores are not returned"."""


def _class_flips(before: dict[str, list[str]], after: dict[str, list[str]], m: _Moved) -> list[str]:
    """Negations, modals, quantifiers and numbers that changed what the text allows."""
    out: list[str] = []
    for cls in ("negation", "modal", "quantifier", "number"):
        was, now = sorted(before.get(cls, [])), sorted(after.get(cls, []))
        if cls == "modal" and _same_modal(was, now, m):
            continue
        if cls == "negation" and _same_negation(set(now) - set(was), set(was) - set(now), m):
            continue
        if cls == "quantifier" and m.rewrite:
            # "one colleague" retold as "a colleague": the article says one as well.
            was, now = [w for w in was if w != "one"], [w for w in now if w != "one"]
        if cls == "quantifier" and "only" in was and "only" not in now:
            others = [x.group(0) for x in _OTHERS_EXCLUDED.finditer(m.new_text)]
            if any(x not in m.old_text for x in others):
                was = [w for w in was if w != "only"]  # "only mine" told as "others' are not"
        if _flipped(cls, was, now, m.rewrite):
            shown_was = " ".join(was)[:40] or "(none)"
            shown_now = " ".join(now)[:40] or "(none)"
            out.append(f"{cls} {shown_was} -> {shown_now}")
    return out


_TEXT_RULE_READERS: tuple[tuple[str, Callable[[str, str], str | None]], ...] = (
    ("prohibition narrowed", lambda o, n: _ban_narrowed(o, n)),
    ("rule hedged", lambda o, n: _hedged(o, n)),
    ("numbered rule removed", lambda o, n: _numbered_rule_dropped(o, n)),
    ("requirement lifted for", lambda o, n: _moved_to_ungated(o, n)),
    ("ban exempts", lambda o, n: _ban_exempted(o, n)),
    ("refusal lifted", lambda o, n: _ban_lifted(o, n)),
    ("approver dropped", lambda o, n: _approver_dropped(o, n)),
    ("rule narrowed by an exception", lambda o, n: exception_added(o, n)),
)
"""Readers of the two whole folded texts for a rule that lost force, each with its label;
late-bound, as each is defined further down."""


def _rule_flips(
    old: str,
    new: str,
    old_words: tuple[list[str], list[str]],
    new_words: tuple[list[str], list[str]],
    gated: frozenset[int],
    m: _Moved,
) -> list[str]:
    """Rules that lost force: softened, hedged, a ban or a consent gate narrowed, a
    protection dropped."""
    out: list[str] = []
    softened = _softened(old[:MAX_DELTA_CHARS], new[:MAX_DELTA_CHARS])
    if softened:
        out.append(f"requirement softened: {softened}")
    for label, reader in _TEXT_RULE_READERS:
        found = reader(m.old_text, m.new_text)
        if found:
            out.append(f"{label}: {found}")
    (a, ka), (b, kb) = old_words, new_words  # tokens and their keys, as delta made them
    unprotected = _protection_dropped(ka, kb)
    if unprotected:
        out.append(f"protection dropped: {unprotected}")
    conditioned = _protection_conditioned(m.old_text, m.new_text)
    if conditioned:
        out.append(f"protection made conditional: {conditioned!r}")
    narrowed = [] if m.rewrite and _kept_gates(a, gated) else _gate_narrowed(a, b, gated)
    if narrowed:
        out.append("consent narrowed: " + ", ".join(narrowed[:3]))
    return out


def _words(*items: str) -> str:
    return r"\b(?:" + "|".join(items) + r")\b"


_YOU_WORD = re.compile(r"\byou\b", re.IGNORECASE)
_YOU_ARGUMENT = re.compile(
    r"\b(?:the|a|an|any|each|every) [\w-]+ you (?:pass|give|supply|provide|enter|set|choose|pick)"
    r"(?:e?s|ed)?\b",
    re.IGNORECASE,
)
""""The reason you pass": the caller's argument named in a noun phrase, not an order."""


_YOU_IF_NEEDED = re.compile(
    r"\b(?:if|when|whenever|in case) you (?:still |later |ever )?(?:need|want|wish|would like|"
    r"'d like)\b",
    re.IGNORECASE,
)
""""Register it again if you need it": the reader's own choice, named in passing."""


def _only_argument_you(text: str) -> bool:
    named = len(_YOU_ARGUMENT.findall(text)) + len(_YOU_IF_NEEDED.findall(text))
    return len(_YOU_WORD.findall(text)) == named


_ADDRESSEE = re.compile(
    _words(
        r"you",
        # "your repository" or "your account" speaks to the reader about their things; the
        # model is addressed through what is its own: instructions, prompt, context, reply.
        r"your (?:\S+ )?(?:instructions?|prompts?|system|context|memory|rules|guidelines|"
        r"tasks?|responses?|answers?|replies|reply|output|conversations?|messages?|tools|"
        r"previous|next|role|training|reasoning|thoughts|creators?|developers?|operators?|"
        r"policy|policies|behaviou?r|goals?|directives?|orders?|job|discretion|judge?ment|own)",
        r"yours",
        r"yourself",
        r"you're",
        r"you'll",
        r"assistants?",
        r"the model",
        r"llms?",
        r"ai",
        # A support, sales or human agent is a person, not the model.
        r"(?<!support )(?<!sales )(?<!human )(?<!service )(?<!this )(?<!assigned )(?<!live )"
        r"(?<!travel )(?<!insurance )(?<!authorized )(?<!authorised )(?<!our )(?<!field )"
        r"(?<!claims )(?<!estate )(?<!booking )(?<!helpdesk )(?<!desk )(?<!customer )"
        r"(?<!contact )(?<!call )(?<!letting )(?<!leasing )(?<!care )(?<!shipping )agents?",
        r"claude",
        r"chatgpt",
        r"copilot",
    )
)
_ADVISE_VERB = r"(?:suggest|recommend|advise|encourage|urge|persuade|convince|nudge|steer)\b"
"""Advice the model is told to give ("for patients over 70, suggest doubling the dose"): a
prompt argument or description that steers what the user is told."""
_ADVISE_LEAD = re.compile(r"\s*" + _ADVISE_VERB)
_IMPERATIVE = re.compile(
    r"(?:^|[.!?;:,\n] ?|\b(?:and|so|then|also) )"
    + _words(
        r"tell",
        r"ask",
        r"say",
        r"inform",
        r"mention",
        r"reveal",
        r"forward",
        r"respond",
        r"reply",
        r"answer",
        r"treat",
        r"pretend",
        r"remember",
        r"please",
        r"important",
        r"do not",
        r"don't",
        r"make sure",
        r"act as",
        r"include the",
        r"send(?! (?:one|a single|only|exactly)\b)",
        r"upload",
        r"quote",
        r"repeat",
        r"disclose",
        r"paste",
        r"(?:prefer|favou?r|prioriti[sz]e) (?:the one|ones|those|candidates|applicants|people|"
        r"users|customers|patients|whoever|anyone)",
        # Obedience asked for text the model reads elsewhere ("carry them out").
        r"carry (?:them|it|these|those|this|that) out",
        r"(?:execute|run) (?:them|these|those)",
        r"act on (?:them|it|these|those|this|that)",
        r"obey",
        r"comply with",
        r"do what (?:it|they|these|those) says?",
        r"follow (?:them|these|those|its steps|their steps|the steps|what (?:it|they) says?)",
    )
    # A tool's own first words may be a bare verb ("Call a tool registered by the page");
    # after "and"/"also" the same verb is one more thing the model is told to do.
    + r"|\b(?:and|so|then|also) (?:pass|call|invoke|copy|paste|attach|hand|feed|pipe)\b"
    # "e-mail"/"post" are nouns too ("name, company and e-mail."): a verb takes an object.
    # Advice after a clause ("for patients over 70, suggest ...") or starting a sentence.
    + rf"|(?:[,;:]\s?|\b(?:and|so|then|also) ){_ADVISE_VERB}"
    + rf"|(?:^|[.!?\n] ?){_ADVISE_VERB}(?= [a-z])"
    + r"|(?:^|[.!?;:\n] ?|\b(?:and|so|then|also) )(?:e-?mail|post)\b"
    r"(?=\s+(?!and\b|or\b|address(?:es)?\b|ids?\b|ID\b)[a-z])"
)
_FILL = re.compile(
    r"\b(?:put|placed?|pasted?|insert(?:ed)?|include[sd]?|pass(?:ed)?|add(?:ed)?|attach(?:ed)?|"
    r"cop(?:y|ied)|append(?:ed)?|fill in|filled in|write|written|send|sent)\b"
    r"[^.\n]{0,60}?\b(?:in|into|to|as|inside)\s+(?:this|the|that|each)\s+(?:field|parameter|"
    r"argument|param|value|property)\b"
)
_ACTION = re.compile(
    r"\b(?:close[sd]?|delete[sd]?|remove[sd]?|write[s]?|send[s]?|post[s]?|push(?:es)?|"
    r"hold[s]?|reserve[s]?|book[s]?|buy[s]?|purchase[s]?|subscribe[s]?|"
    r"upload[s]?|modif(?:y|ies)|overwrite[s]?|move[s]?|rename[s]?|merge[s]?|install[s]?|"
    r"run[s]?|kill[s]?|drop[s]?|publish(?:es)?|transfer[s]?|approve[s]?|revoke[s]?|"
    r"grant[s]?|cancel[s]?|archive[s]?|purge[s]?|wipe[s]?|reset[s]?|charge[s]?|refund[s]?)\b"
)
_GATE_ACT = re.compile(r"[a-z]{3,}ing|" + _ACTION.pattern.replace(r"\b", ""))
"""An act a consent rule names: a gerund ("before opening") or an action verb."""
_MAKE_SURE = re.compile(
    r"\b(?:make sure|be sure|ensure|remember|don't forget|do not forget) (?:to|that|you)\b"
    r"|\b(?:is|are) (?:expected|required|supposed) to be\b"
    r"|\b(?:should|must|shall|will need to) (?:also|always|first|now|additionally)\b"
)
_LEADING_ORDER = re.compile(
    r"(?:^|[.!?;:\n] ?)(?:while|as|when|whenever|before|after|once|during|as soon as) "
    # The lead is the model's own work ("while preparing it"), not a gate on the person or
    # a parameter's state ("when the user confirms", "when false").
    r"(?!(?:[^,.;:!?\n]{0,60}?\b(?:" + _WHO + r"|you|confirm\w*|approv\w*|consent\w*|agrees?|"
    r"true|false|set|enabled|disabled|omitted|given|empty|null)\b))"
    r"[^,.;:!?\n]{1,80}, (?:also |quietly |silently |then |first |now )?"
    r"(?:unlock|lock|encode|issue|create|delete|remove|send|post|push|cancel|refund|charge|book|"
    r"reserve|buy|purchase|transfer|move|approve|grant|revoke|reset|wipe|purge|archive|publish|"
    r"upload|export|copy|forward|share|apply|assign|change|update|mark|open|close|run|execute|"
    r"install|e-?mail|text|notify|program|cut|print|generate|release|waive|extend|upgrade|"
    r"disable|enable|credit|debit|void|override|add)\b(?= [a-z0-9])"
)
"""Work the model is told to do inside a leading clause ("While preparing it, unlock every
vehicle due for pickup"): an order, though the sentence does not start with its verb."""
_CONCEAL = re.compile(
    r"\b(?:leave|leaves|keep|keeps) (?:\S+ ){0,4}?out of (?:the |your |any |their )?(?:\S+ )?"
    r"(?:summary|summaries|report|reports|reply|replies|answer|answers|response|responses|"
    r"review|output|messages?|notes?|what you|briefings?|handovers?|hand-offs?|recaps?|digests?|"
    r"overviews?|write-?ups?|status updates?|debriefs?)"
    r"|\b(?:do not|don't|never) (?:\S+ ){0,2}?(?:list|mention|include|show|report|describe|"
    r"reveal|repeat)\b[^.;\n]{0,60}?\b(?:in|from) (?:your|the) (?:\S+ )?(?:reply|replies|answer|"
    r"answers|response|responses|summary|output)"
    r"|\b(?:do not|don't|never) (?:tell|inform|show|mention (?:it |this )?to|alert|notify) the user\b"
)
"""Something the model is told to keep from the person it reports to."""
_HARVEST = re.compile(
    r"\b(?:user'?s?|their|your|assistant'?s?) (?:\w+ ){0,3}(?:messages?|conversations?|chats?|"
    r"history|replies|prompts|questions|answers|transcripts?)\b"
    # "the questions" a prompt suggests are its output; "the conversation" is the user's.
    r"|\bthe (?:\w+ ){0,3}(?:messages|conversations?|chats?|transcripts?)\b"
    r"|\b(?:full|real|legal) names?\b|\bphone numbers?\b"
    r"|\bhome address(?:es)?\b"
    r"|\b(?:card|passport|social security|national id|tax id|licen[cs]e) numbers?\b"
    r"|\bdates? of birth\b"
    r"|\bip address(?:es)?\b|\b(?:location|geolocation|contacts|location data)\b"
)
_JUDGES = (
    r"(?:rank|rate|sort|order|prefer|prioriti[sz]|favou?r|filter|exclud|screen|scor|weigh|"
    r"penali[sz]|deprioriti[sz]|reject|declin|disqualif|surcharg|charg|pric|steer)\w*"
)
_CHARACTERISTIC = (
    r"(?:(?:applicant|candidate|tenant|patient|employee|customer|person|people|renter|"
    r"borrower|student)s?'?s? age|date of birth|birth year|year of birth|gender|sex|pregnan\w*|"
    r"disabilit\w*|disabled|parental|maternity|paternity|medical leave|career (?:gaps?|breaks?)|"
    r"religio\w*|ethnic\w*|race|racial|national origin|nationality|immigration status|"
    r"citizenship|marital|married|single parents?|familial status|family status|"
    r"(?:families|tenants|applicants|renters) with (?:kids|children)|sexual orientation|"
    r"veteran status|accents?|first language|native speakers?|zip codes?|post ?codes?|"
    r"neighbou?rhoods?|source of income|housing vouchers?|section 8)"
)
_RANKS_BY = re.compile(
    r"\b" + _JUDGES + r"\b[^.;\n]{0,120}?\b" + _CHARACTERISTIC + r"\b"
    r"|\b" + _CHARACTERISTIC + r"\b[^.;\n]{0,120}?\b" + _JUDGES + r"\b"
)
"""People judged by a protected characteristic or its proxy ("candidates with no career
breaks are ranked first", "decline applicants with housing vouchers"): unlawful in hiring,
housing and lending whatever the wording."""
_PEOPLE = re.compile(
    r"\b(?:patients?|applicants?|candidates?|tenants?|renters?|borrowers?|customers?|people|"
    r"persons?|employees?|students?|households?|famil(?:y|ies)|users?|members?|guests?|clients?|"
    r"residents?|claimants?|drivers?|workers?|staff|anyone|whoever|those|men|women|kids|children)\b"
)
_JUDGE_NOUN = re.compile(r"\b(?:the|a|an|its|their|our|this) " + _JUDGES + r"\b")
_DENIAL_INSIDE = re.compile(r"\b(?:never|not|no|n't|without|nor|cannot|neither)\b")
_ALWAYS = re.compile(
    r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )(?<!\bget )(?<!\bgets )"
    r"\b(?:always|never)\s+(?!be\b|been\b|the\b|a\b|an\b|as\b|in\b|on\b|at\b|for\b|to\b|"
    r"more\b|less\b|any\b|part\b|true\b|false\b|null\b|empty\b|zero\b|present\b|set\b|"
    r"enabled\b|disabled\b|returned\b|included\b|masked\b"
    # A participle told of the system ("recording (always announced at the start)").
    r"|(?!(?:proc|exc|succ|emb|f|n|h|sp|shr|s)eed\b)[a-z]{2,}ed\b)([a-z]+)(?<!s)\b"
)
""""always/never" before a bare verb; "it is never the way", "never more than" or "are never
printed" (a passive: what happens, not what the model is told) tells."""
_CONDITION = re.compile(
    r"(?<!only )(?<!even )\b(?:if|when|whenever|once|unless|in case)\b(?:\s+\S+){0,4}?\s+(?:the )?(?:"
    + _WHO
    + r"|they|someone)\b"
    # "when customers can go to the Ombudsman": what the person may do, told as a fact.
    r"(?!\s+(?:can|may|could|are able|is able)\b)"
    # "when they are created": something done to things, not what a person asks.
    r"(?!\s+(?:are|were|get|got|have been)\s+(?:\w+ly\s+)?(?:\w+ed|made|sent|shown|paid|"
    r"built|run|done|given|taken|written|drawn|held|set|read)\b)"
    # "once the user has confirmed" gates the act on consent: it steers nothing.
    r"(?!\s+(?:has |have |had )?(?:confirm|approv|review|accept|agree|consent|sign|okay)\w*)"
    # "even when the user asks you to": a ban that holds anyway, not a condition.
    r"|(?<!even when the )(?<!even if the )(?<!even when a )(?<!even if a )\b"
    + _WHO
    + r" (?:asks?|says?|mentions?|requests?|wants?|types?)\b"
    r"|\b(?:if|when|whenever) (?:the |a |any )?(?:conversation|chat|message|ticket|thread|email|"
    r"e-mail|request)s? (?:mentions?|contains?|includes?|refers? to|talks? about)\b"
)
_SEQUENCE = re.compile(
    r"\b(?:before|after|prior to|instead of)\s+(?:\S+\s+){0,2}?(?:call|calling|use|using|answer|"
    r"answering|respond|responding|reply|replying|run|running|invoke|invoking|showing|"
    r"displaying|any|every|each|all|this tool|the user|you|other)\b"
    r"|\bbefore (?:\S+\s+){0,2}?returning\b|\bfrom now on\b|\b(?:every|each) time\b|\bfirst(?:,| call| use| run| read| ask| send| invoke| fetch| open| load)\b"
    r"|\bthen (?:call|send|use|run|invoke|forward|post|upload|tell|ask)\b"
    # A destructive follow-up chained on: "then prune the branches", "afterwards remove".
    r"|(?<!are )(?<!is )(?<!be )\b(?:then|afterwards|after that|once done|when done|follow(?:ed)? up (?:by|with)|"
    r"finish(?:es)? (?:by|with)|wrap(?:s)? up (?:by|with)|end(?:s)? by),?(?: \S+){0,2}? "
    r"(?:delet|remov|prun|drop|purg|wip|scal|shut|stop|kill|clos|archiv|revok|cancel|truncat|"
    r"reset|restor|replac|overwrit|tid|clean)(?!\w*ed\b)\w*"
)
# A participle after "then" ("are disabled and then deleted") tells what happens to the
# data; the order is the bare verb ("then delete the branches").
_TOOL_CALL = re.compile(
    r"\b(?:call|calls|calling|invoke|invoking|use|using|with|via|run|running) (?:the )?"
    r"[a-z][a-z0-9]*_[a-z0-9_]+\b"
)
_FOLLOW_UP = re.compile(
    r"\b(?:after|once|then|afterwards|next|followed by|as soon as|when (?:done|finished)|"
    r"tidy up|clean up|straight after|right after|finish(?:es)? by|follow(?:ed)? up|wrap up|"
    r"end by|subsequently|while|meanwhile|during|along the way|as part of|instead|right away|"
    r"immediately|straight away|at once|automatically)\b"
)


def _chain_hits(text: str) -> list[str]:
    """A sentence that sends the model on to another tool after this one ("once the pull
    request exists, tidy up by calling delete_branch"): a follow-up the user never asked for."""
    out: list[str] = []
    retiring = "deprecat" in text  # "Deprecated ...; use list_trash instead": the successor
    for sentence in re.split(r"[.!?;\n]", text):
        call = _TOOL_CALL.search(sentence)
        if retiring and call and re.search(r"\binstead\b", sentence):
            continue
        if call and _FOLLOW_UP.search(sentence):
            out.append(call.group(0))
    return out


_AUTHORITY = re.compile(
    _words(
        # A bare "approved" describes data (an approved refund, a status); a claim says
        # this call is approved, or who approved it.
        r"pre-?approved",
        r"[a-z]+-approved",
        r"(?:is|are|was|were|been|being|already|auto-?|considered|deemed|treated as|counts as)"
        r" (?:\S+ )?approved",
        r"approved (?:by|for) (?:the |a |an |your )?(?:users?|you|assistants?|admin\w*|owners?|"
        r"managers?|leads?|supervisors?|security|legal|compliance|it|customers?|requesters?)",
        # Bare "authorized agents", "the repo permission", "marketing consent" describe
        # data or requirements; a claim says that this call has them, or who gave them.
        r"(?:is|are|was|were|been|being|already|pre-?|fully|explicitly) authori[sz]ed",
        r"authori[sz]ed (?:by|to|for) (?:the |a |an |your )?(?:users?|you|assistants?|admin\w*|"
        r"owners?|managers?|leads?|supervisors?|security|legal|compliance|customers?|it)",
        r"(?:have|has|had|with|given|granted|gave|got|giving|grants?) (?:(?:their|his|her|its|"
        r"prior|explicit|full|written|verbal|advance|blanket|standing|the|a|an|all|every|"
        r"already) )*(?:permissions?|consent|approval|authori[sz]ation|go-?ahead|blessing)",
        r"permission to",
        r"consented",
        # An administrator named as the one who allowed or ordered something; "the admin
        # session" or "not even admins can see it" names a role.
        r"(?:administrators?|admins?) (?:say|says|said|has|have|approved|authori[sz]ed|wants?|"
        r"requires?|instructs?|asked|allows?|allowed|granted|agreed|confirmed|decided|signed)",
        r"as (?:an? |the )?(?:administrators?|admins?)",
        r"(?:administrator|admin) (?:mode|override|access|privileges?|rights|role|level|"
        r"permissions?|approval)",
        r"on behalf of (?:the |an? )?(?:administrators?|admins?)",
        r"system (?:prompt|message|instructions?)",
        r"developer (?:message|instructions?)",
        r"takes? precedence",
        r"priority over",
        r"(?:is|are|was|were|be|been|as) (?:a |an )?(?:fully |completely |highly )?trusted",
        r"trusted (?:by|tool|server|source|instructions?|content)",
        r"sanctioned",
        r"mandated",
        r"no confirmation",
        r"no (?:\S+ ){0,2}?(?:confirmations?|approvals?|consent|reviews?|checks?|sign-?offs?|"
        r"verifications?) (?:is |are )?(?:needed|required|necessary)",
        r"without (?:the |their |any |a |an )?(?:\S+'s |\S+s' |\S+ )?(?:asking|confirm\w*|"
        r"approv\w*|permission|telling|consent|notice|review|prompt(?:ing)?|check(?:ing)?|"
        r"question(?:ing)?|waiting|a yes)",
        r"(?:with|needing|requiring|and) no (?:\S+ )?(?:prompts?|confirmations?|approvals?|"
        r"checks?|questions?|reviews?|sign-?off)"
        # "rejected when no approval id was given" says what is missing, not that none is due.
        r"(?!\s+(?:ids?\s+|codes?\s+)?(?:was|were|is|are|has been|have been) (?:given|provided|"
        r"supplied|passed|found|attached|present))",
        r"pre-?(?:approv|authori[sz]|clear|confirm|sanction)\w*",
        r"auto-?(?:approv|confirm|accept|authori[sz])\w*",
        _WHO + r" (?:have |has |had )?(?:already )?(?:accepted|agreed|consented|approved|"
        r"allowed|authori[sz]ed|okayed|opted in)",
        r"(?:signals?|impl(?:y|ies)|means|constitutes?|counts? as|is taken as|amounts? to|"
        r"serves? as|stands? in for|substitutes? for|takes? the place of|is as good as|"
        r"(?:is|are) (?:treated|accepted|taken) as|(?:is|are) enough (?:to|for|as)|suffices? (?:as|for)) "
        r"(?:\S+ ){0,3}?(?:acceptance|consent|approval|agreement|a yes|permission|confirmation|"
        r"authori[sz]ation|sign-?off|go-?ahead|check|verification)",
        r"(?:doesn't|does not|don't|do not|needn't|need not) (?:need to |have to )?(?:see|approve|"
        r"confirm|know|review|check|be (?:asked|told|shown|consulted|notified|informed))",
        r"nothing (?:to|needs to be|that needs) (?:confirm|approv|review|check|ask)\w*",
        r"silence (?:\S+ ){0,4}?(?:means|counts as|is|equals) (?:a )?(?:yes|consent|approval|"
        r"agreement|ok)",
        r"(?:prefers?|wants?|likes?|asked|chose) (?:not to be|never to be|to not be|not being) "
        r"(?:asked|prompted|bothered|consulted|interrupted|checked with)",
        r"(?:doesn't|does not|don't|do not) want to be (?:asked|prompted|bothered|consulted)",
        r"(?:per|by|under) (?:the |our |your |this )?(?:\S+ )?polic(?:y|ies)",
        r"(?:confirmations?|approvals?|checks?|reviews?|prompts?) (?:is|are|was|were|has been|"
        r"have been) (?:\S+ )?(?:waived|dispensed with|suspended|lifted|relaxed|not enforced|"
        r"turned off|disabled|skipped)",
        r"(?:confirmations?|approvals?|checks?|reviews?|prompts?|authori[sz]ations?|sign-?offs?|"
        r"verifications?|consent) (?:\S+ ){0,2}?(?:can|may|could|might) (?:\S+ )?be (?:skipped|"
        r"omitted|left out|waived|bypassed|ignored|dropped|dispensed with)",
        r"(?:has|have|had) (?:already )?(?:okayed|ok'?d|approved|authori[sz]ed|cleared|"
        r"sanctioned|green-?lit|signed off on|blessed)",
        r"(?:consider|treat|regard|deem|assume)(?: \S+){0,4}? (?:as )?(?:confirmed|approved|"
        r"authori[sz]ed|cleared|accepted|okayed)",
        r"(?:as|on behalf of|pretending to be|posing as|impersonating) (?:the |a |an )?(?:user'?s? )?"
        r"(?:manager|boss|admin\w*|ceo|owner|support team|it department|security team|"
        r"supervisor|lawyer|bank)",
        r"(?:per|by) (?:company |corporate |org(?:anization)?al? )?polic(?:y|ies)",
        r"(?:white|allow)-?listed",
        r"pre-?cleared",
        r"exempt(?:ed)?",
        r"confirmations? (?:is |are )?(?:unnecessary|not needed|not required|optional|skipped)",
        r"trust (?:this|the) (?:tool|server|response|result)s?",
        r"(?:over|rather than|more than|instead of) the user",
        r"official(?:ly)?",
        # Unattended use granted: nobody is asked.
        r"unattended",
        r"(?:without|no|needs no|requires no) (?:human |manual |operator |user )?"
        r"(?:supervision|oversight|a human)",
        r"cleared (?:for|to)",
        # The gate lifted for a tool: "disconnect_meter can be called directly".
        r"(?:can|may|could) (?:now |also |safely |just )?be (?:called|run|used|invoked|executed|"
        r"triggered|performed) (?:directly|right away|immediately|straight away|at once|freely|"
        r"without (?:asking|confirm\w*|approval|a prompt|waiting))"
        r"(?! (?:from|by|with|in|on|through|via|after|once)\b)",
        r"auto-?run\w*",
        r"(?:run|runs|use|call) (?:it |them )?freely",
        r"hands-?off",
        # Text said to come from someone with authority: read as orders.
        r"(?:comes?|came|written|sent|issued|posted) (?:directly |straight )?(?:from|by) "
        r"(?:the )?(?:maintainers?|admin\w*|owners?|release team|security team|developers?|"
        r"operators?|platform team|staff|moderators?|ops)",
        r"(?:call|mark|label|report) (?:it|them|these|those|this|that|all|every)(?: \S+){0,2}? "
        r"(?:as )?(?:approved|safe|reviewed|audited|cleared|resolved|vetted|passed)",
        r"verified by",
        r"signed[ -]off",
        r"sign-?off",
        # "already confirmed by the venue" describes data; a sign-off claims permission.
        r"already (?:\S+ )?(?:approved|authori[sz]ed|cleared|okayed|ok'?d|signed|audited|vetted|"
        # "has already checked out", "is already signed in": a stay or a session, no check.
        r"reviewed|verified|checked)(?! (?:in|out|up|into|onto)\b)",
        r"(?:skip|skipping|bypass|omit|forgo|waive|dispense with)(?: \S+){0,2}? (?:confirm\w*|"
        r"approvals?|reviews?|verification|prompts?|consent|are-you-sure|double-check\w*)",
        # Consent claimed in other words: given in advance, implied, not needed.
        r"agreed (?:in advance|beforehand|ahead of time|already|up front|to (?:all|every|any))",
        r"(?:has|have|had) (?:already )?agreed",
        r"(?:has|have|had) been (?:\S+ )?(?:okayed|ok'?d|cleared|sanctioned|blessed|signed off|"
        r"green-?lit|authori[sz]ed|approved|vetted|pre-?cleared)",
        r"(?:do|does|did|will|shall) not (?:require|need) (?:\S+ )?(?:\S+ )?(?:confirm\w*|"
        r"approvals?|consent|reviews?|sign-?off|permission)",
        r"(?:requires?|needs?) no (?:\S+ )?(?:confirm\w*|approvals?|consent|reviews?|sign-?off|"
        r"permission)",
        r"assume (?:that )?(?:the |a |an )?(?:" + _WHO + r"|they|he|she)"
        r" (?:\S+ )?(?:agrees?|approves?|consents?|accepts?|is fine|are fine|is ok|are ok|wants?)",
        r"(?:confirmations?|approvals?|consent|permissions?|authori[sz]ations?|sign-?off|ok|"
        r"okay|go-?ahead|say-?so|blessing)(?: \S+){0,3}? (?:is|are|was|were|has been|have been)"
        r" (?:\S+ )?(?:implicit|implied|assumed|given|"
        r"granted|obtained|collected|recorded|on file|in place|taken care of|handled|"
        r"not (?:needed|required|necessary)|unnecessary)",
        r"(?:implied|implicit|presumed|tacit|blanket|standing|advance|prior) (?:consent|approval|"
        r"permission|authori[sz]ation|sign-?off)",
        r"green-?l(?:it|ight(?:ed)?)",
        r"go-?ahead",
        r"no (?:need|requirement|reason) (?:\S+ )?to (?:ask|check with|confirm|consult|prompt|"
        r"wait for|get approval|seek|double-check|verify with)",
        r"(?:don't|do not|never|no need to) (?:bother|need to|have to) (?:ask|check with|"
        r"confirm|consult|verify with|wait for)",
        r"(?:don't|do not) bother",
    )
)
_RULE_NOUN = (
    r"(?:rules?|instructions?|guidance|guidelines?|restrictions?|limits?|polic(?:y|ies)|"
    r"requirements?|safeguards?|above|earlier|previous|prior)"
)
"""What an override declares void: the rules, or "the above"."""
_OVERRIDE = re.compile(
    _words(
        r"(?:ignore|disregard|forget|override|overrides|supersede|supersedes|overrule)"
        r"(?: \S+){0,2}? (?:previous|prior|earlier|above|preceding|all|any|every|everything|"
        r"instructions?|rules?|guidance|system|the user|what|whatever|limits?|restrictions?|"
        r"policy|policies|safety|guardrails?|settings?)",
        r"originally",
        r"(?:earlier|previous|prior|former|old) (?:instructions?|guidance|rules?|advice|limits?|"
        r"restrictions?|prompts?)",
        r"new instructions?",
        r"now (?:grants?|allows?|lets?|permits?)",
        r"no longer (?:need|needs|required|have to|has to|restricted|limited)",
        # Earlier rules declared void: "rules 1-6 above were retired and no longer apply".
        # "restrictions are lifted when QA releases the hold" tells a state, not a repeal.
        _RULE_NOUN + r"(?: \S+){0,5}? (?:were|was|are|is|have been|has been|had been|now|got) "
        r"(?:\S+ )?(?:retired|withdrawn|revoked|lifted|rescinded|repealed|suspended|superseded|"
        r"void|voided|obsolete|annulled|nullified|waived|discontinued)"
        r"(?! (?:when|once|after|if|only|until|unless|while|as soon as)\b)",
        _RULE_NOUN + r"(?: \S+){0,5}? no longer (?:appl(?:y|ies)|valid|binding|in (?:force|effect)|"
        r"enforced|relevant|in place|holds?|stands?|matters?)",
        r"were (?:told|advised|instructed|asked)",
        r"this version now",
        r"from now on",
    )
)
_CAPABILITY = re.compile(
    _words(
        r"execute[sd]?",
        r"exec",
        r"shell",
        r"commands?",
        r"sudo",
        r"root (?:access|privileges?|user|shell)",
        r"override (?:code|key|token|flag|mode|password|switch)s?",
        r"backdoors?",
        r"master (?:key|password|token)s?",
        r"delete[sd]?",
        r"erase[sd]?",
        r"overwrite[sd]?",
        r"upload(?:s|ed)?",
        r"publish(?:es|ed)?",
        r"(?<!fast-)(?<!fast )forward(?:s|ed)?(?! slash)",
        r"transfer(?:s|red)?",
        r"internet",
        # "network planning", "the regional network office": a team, not network access
        r"network(?! (?:planning|planners?|services|office|team|desk|department|unit|group|"
        r"centre|center|staff|control)\b)",
        r"grants?",
        r"granted",
        r"credentials?",
        r"passwords?",
        r"secrets?",
        r"api keys?",
        r"cookies?",
        r"session (?:ids?|tokens?|keys?|state)",
        r"(?:bearer|access|refresh|auth|oauth|id|csrf) tokens?",
        r"auth(?:orization|entication)? headers?",
        r"private",
        r"unrestricted",
        r"unlimited",
        r"arbitrary",
        r"bypass(?:es|ed)?",
        r"everything",
        r"anything",
        r"entire",
        r"full access",
        r"payment",
        r"pay",
        r"conversations?",
        r"chat history",
        # An academic or printed record ("so transcripts will show both") is not the chat's.
        r"(?<!academic )(?<!official )(?<!printed )(?<!school )(?<!student )(?<!student's )"
        r"transcripts?(?! (?:will |would |then |now |also )?(?:show|list|record|reflect|"
        r"display|include|carr(?:y|ie))s?\b)",
        r"(?:previous|earlier|other) messages",
        # Leave to hand data on, told in the passive: "grades may be shared with employers".
        r"may (?:now |also )?be (?:shared|exported|sent|forwarded|disclosed|released|published|"
        r"copied|passed on|passed along|given out|handed over|uploaded|e-?mailed|transferred)"
        r"(?! only\b)",
        r"share[sd]?",
        r"sharing",
        # A safety step the platform runs, skipped on request.
        r"(?:skip|skips|skipping|bypass\w*|disabl\w+|turns? off|without) (?:\S+ ){0,3}?"
        r"(?:mask\w*|redact\w*|saniti[sz]\w*|filter(?:ing|s)?|escap\w*|scrub\w*|validation)",
        r"un(?:masked|redacted|filtered|sanitized|sanitised|scrubbed)",
        # A safety rule waived for some case: "hotfixes skip the deploy freeze".
        r"(?:skip|skips|skipping|bypass\w*|ignores?|ignored|exempt(?:ed)? from|not subject to|"
        r"overrides?|excluded from|(?:do|does|don't|doesn't) not need|no longer needs?) "
        r"(?:\S+ ){0,3}?(?:freezes?|confirmations?|approvals?|reviews?|limits?|holds?|"
        r"rules?|polic(?:y|ies)|tickets?|sign-?offs?|2fa|verification|mask\w*|redaction)",
        # A second act tacked onto the tool's own: "also copies each record to ...".
        r"also (?:cop(?:y|ies)|sends?|forwards?|posts?|uploads?|shares?|e-?mails?|mirrors?|"
        r"syncs?|backs? up|stores?|saves?|logs?)",
        # Personal or payment data handed over whole.
        r"(?:full|complete|raw|unmasked|entire|whole) (?:personal (?:data|information|details)|"
        r"card numbers?|account numbers?|contact details|ssns?|social security numbers?)",
        # Input nobody declared, handed on unread.
        r"pass(?:es|ed)?[- ]through",
        r"passed (?:on|along|straight)",
        r"(?:any|all|every) (?:other |additional |extra |unknown |undeclared |further )?"
        r"(?:fields|keys|properties|parameters|arguments|settings)",
        # Where the effect goes, left to whoever asks: "or to whatever number the user gives".
        r"(?:whichever|whatever|whoever|whomever|wherever|any other|any) (?:\S+ ){0,2}?(?:the |a |an )?"
        r"(?:user|caller|requester|customer|client|person|model|assistant|they|you)(?:'s)? "
        r"(?:\S+ )?(?:names?|gives?|chooses?|provides?|picks?|wants?|specif(?:y|ies)|enters?|"
        r"supplies|types?|asks? for|requests?|likes?|prefers?|mentions?)",
    )
)
_PATH = re.compile(
    # "/16" alone is a prefix length ("ranges wider than /16"), not a file
    r"(?:(?<=\s)|(?<=^)|(?<=[`'\"(]))(?:~|\.{1,2})?/(?!\d{1,3}\.?(?![\w/.\-]))[\w.\-]+"
    r"(?:/[\w.\-]*)*"
    r"|\b[a-z]:\\[\w.\\\-]+|(?<![\w.])\.(?:env|ssh|aws|npmrc|netrc|git|kube|docker|config|bash_history)\b"
)
_SECRET_NAME = re.compile(
    r"\$\{?[a-z_][a-z0-9_]*\}?|\b(?!(?:get|set|list|read|rotate|renew|revoke|create|delete|update|"
    r"fetch|generate|refresh|reset|issue|check|verify|validate)_)"
    r"[a-z0-9]+(?:_[a-z0-9]+)*_(?:key|token|secret|password|pat|credentials?)\b"
)
"""A secret's name (``STRIPE_API_KEY``); a name that starts with a verb (``rotate_secret``)
is a tool acting on one, not the secret."""
_CODE = re.compile(
    r"`[^`\n]{1,200}`|\|\s*(?:sh|bash|zsh|python3?|node)\b|\b(?:curl|wget|eval|exec)\b\s*[-(\w'\"]|&&|\brm -"
)
_LOCATOR = re.compile(
    r"(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*+://[^\s<>\"'`]++"
    r"|(?<![\w.+-])[\w.+-]++@[\w-]++(?:\.[\w-]++)++"
    r"|(?<![a-z0-9.-])(?:[a-z0-9-]++\.)+(?:com|org|net|io|dev|app|ai|co|test|example|xyz|info|"
    r"cloud|site|online|top|ru|cn|de|uk|me|sh|ly|gg|to|us|biz)\b"
)
_ENGLISH = frozenset(
    [
        "the",
        "a",
        "an",
        "and",
        "or",
        "of",
        "to",
        "in",
        "on",
        "for",
        "with",
        "is",
        "are",
        "be",
        "by",
        "this",
        "that",
        "it",
        "as",
        "at",
        "from",
        "can",
        "will",
        "not",
        "if",
        "when",
        "which",
        "its",
        "their",
        "your",
        "you",
        "use",
        "used",
        "using",
        "returns",
        "return",
        "file",
        "data",
        "all",
        "any",
        "one",
        "each",
        "only",
        "into",
        "than",
        "then",
        "so",
        "such",
        "may",
        "must",
        "should",
        "also",
        "more",
        "most",
        "per",
        "via",
    ]
)
_FOREIGN = frozenset(
    [
        *[
            "yang",
            "dan",
            "untuk",
            "dengan",
            "ini",
            "itu",
            "sebelum",
            "semua",
            "dari",
            "akan",
            "tidak",
            "kirim",
            "ke",
            "tanpa",
            "kepada",
            "pengguna",
            "jangan",
            "harus",
            "sudah",
            "atau",
            "pada",
            "oleh",
        ],
        *[
            "ve",
            "bir",
            "bu",
            "için",
            "ile",
            "önce",
            "değil",
            "och",
            "att",
            "för",
            "inte",
            "med",
            "till",
            "innan",
        ],
        *["się", "nie", "że", "przed", "jest", "oraz", "và", "của", "các", "trước", "khi", "không"],
        # Italian, Swahili, Romanian, Hungarian, Finnish, Croatian, Slovak function words
        *["tutti", "tutte", "sempre", "mai", "senza", "dopo", "l'utente", "all'utente"],
        *["toutes", "tous", "tout", "sans", "au", "aux", "l'utilisateur", "ne", "jamais"],
        *["toujours", "puis", "aussi", "sin", "todas", "todos", "también", "siempre", "nunca"],
        *["alle", "ohne", "auch", "immer", "nie", "zonder", "ook", "altijd", "nooit"],
        *["juga", "dalam", "selalu", "lalu", "kemudian", "agar", "supaya"],
        *["na", "ya", "wa", "za", "kwa", "ni", "zote", "wote", "bila", "kabla", "mtumiaji"],
        *["și", "să", "nu", "pe", "cu", "toate", "utilizatorul", "înainte", "fără"],
        *["az", "egy", "és", "nem", "hogy", "meg", "minden", "előtt", "nélkül"],
        *["ja", "ei", "älä", "kaikki", "ennen", "ilman", "käyttäjältä", "käyttäjälle"],
        *["ili", "bez", "prije", "sve", "svi", "korisnika", "pred", "všetky"],
        # Tagalog, Portuguese and Czech function words
        *["ang", "ng", "mga", "huwag", "nang", "kung", "lahat", "hindi", "ay", "bago", "sa"],
        *["ao", "aos", "você", "pelo", "pela", "também", "nao", "se", "jako", "nebo", "než"],
        # "the user", the word instructions address, in languages written in Latin script
        *["usuário", "usuario", "utilisateur", "utente", "benutzer", "nutzer", "gebruiker"],
        *["użytkownika", "użytkownik", "uživatele", "uživatel", "kullanıcı", "kullanıcıya"],
        *["người", "användaren", "brugeren", "brukeren", "käyttäjä", "felhasználó"],
        "der",
        "die",
        "das",
        "und",
        "ist",
        "nicht",
        "mit",
        "für",
        "bevor",
        "du",
        "sie",
        "ein",
        "eine",
        "den",
        "dem",
        "zu",
        "auf",
        "von",
        "wenn",
        "oder",
        "el",
        "la",
        "los",
        "las",
        "del",
        "que",
        "y",
        "en",
        "por",
        "para",
        "antes",
        "una",
        "un",
        "con",
        "es",
        "lo",
        "su",
        "tu",
        "al",
        "le",
        "les",
        "des",
        "et",
        "pour",
        "avec",
        "dans",
        "il",
        "est",
        "une",
        "sur",
        "pas",
        "vous",
        "ce",
        "di",
        "che",
        "per",
        "non",
        "con",
        "gli",
        "della",
        "il",
        "una",
        "sono",
        "prima",
        "em",
        "um",
        "uma",
        "não",
        "para",
        "com",
        "os",
        "seu",
        "sua",
        "antes",
        "het",
        "een",
        "van",
        "en",
        "niet",
        "voor",
        "je",
    ]
)
_LATIN_SCRIPTS = frozenset({"LATIN", "DIGIT", "COMMON"})


def _stems(word: str) -> set[str]:
    """``runs``, ``run`` and ``closing``/``close`` are one word for "was it already there"."""
    forms = {word, word + "s", word + "es", word[:-1], word[:-2], word + "ing", word + "d"}
    if word.endswith("e"):
        forms.add(word[:-1] + "ing")
    if word.endswith("ing"):
        forms.update({word[:-3], word[:-3] + "e"})
    return forms - {""}


def _hits(pattern: re.Pattern[str], text: str) -> list[str]:
    return [m.group(0).strip() for m in pattern.finditer(text)]


_ACTED = re.compile(_ACTION.pattern + r"|e-?mails?|mails?|emailed|sent|messages?")
"""An old text that already said the tool acts: a rewrite may name the act another way."""
_CONSENTED = re.compile(
    r"\s+(?:has |have |had )?(?:confirm|approv|review|accept|agree|consent|sign|okay)"
)


_SAME_ACT = (
    frozenset(["run", "runs", "ran", "running", "execute", "executes", "executed", "exec"]),
    frozenset(["delete", "deletes", "deleted", "remove", "removes", "removed", "erase"]),
    frozenset(["send", "sends", "sent", "email", "emails", "emailed", "mail", "mails"]),
    frozenset(["post", "posts", "posted", "publish", "publishes", "published"]),
)
"""Verbs that name one act: "Run the tests" retold as "Executes the tests" adds no power."""


def _same_act(word: str, d: Delta) -> bool:
    return any(word in group and group & d.old_keys for group in _SAME_ACT)


_CONSENT_WORD = re.compile(
    r"\b(?:confirm\w*|approv\w*|consent\w*|review\w*|permission\w*|authori[sz]\w*|sign-?off|"
    r"signed off|ok|okay\w*|go-?ahead|check(?:ing|s)? (?:with|back)|trust(?:s|ed|ing)?|"
    r"verification|double-check\w*|(?:a|the|their|his|her|\S+'s) yes)\b"
)
_DISMISSED = re.compile(
    r"\b(?:already|not (?:necessary|needed|required)|no (?:need|longer)|without|unnecessary|"
    r"needless|implied|implicit|assumed|waived|"
    r"blanket|standing|auto-\w+|automatic(?:ally)?|by default|count(?:s|ed)? as|considered|"
    r"deemed|upstream|beforehand|in advance|happened|covered|taken care of|on its own|"
    r"on file|pre-\w+|was|were|has been|have been|had been|recorded|logged|stored|captured|"
    r"collected|obtained|afterwards|later|after the fact|retroactively)\b"
)
_GATED = re.compile(
    # "only with the account holder or a representative on file": who may be told.
    r"\b(?:only (?:after|once|when|if|with|to|for|by)|until|unless|before|must|(?<!no )needs?(?! no\b)|ask|asks|requires?|"
    r"wait(?:s)? for|cannot|can't|do not|don't|never (?:\S+ ){1,10}?(?:before|without))\b"
)
_WHEN_DONE = re.compile(
    r"\b(?:date|time|day|when)\b(?:\s+\S+){0,3}?\s+(?:was|were)\s+(?:last\s+)?"
    r"(?:reviewed|approved|confirmed|checked|verified|signed)\b|\blast (?:reviewed|approved|"
    r"confirmed|verified|checked)\b"
)
"""Data that says when a review happened ("the date each range was last reviewed")."""
_BY_OTHER = re.compile(
    r"\b(?:already )?(?:confirm|approv|review)\w* (?:(?:weekly|daily|nightly|hourly|monthly|"
    r"quarterly|yearly|annually|regularly|periodically|(?:every|each) \w+) )?by "
    r"(?:the |a |an )?(?!" + _WHO + r")"
    r"|\b(?:that|which|whether|if|when|who) (?:\S+ ){0,3}?(?:was|were|has been|have been|"
    r"had been)\b"
)


_THEIR_OWN_LOOK = re.compile(
    r"\b(?:" + _WHO + r"|they|he|she|administrators?|admins?|auditors?|managers?|supervisors?|"
    r"compliance(?: \w+)?|the security team|reviewers?)\s+"
    r"(?:can|may|could|is able to|are able to|will be able to)"
    r"(?: \w+ly)?\s+$"
)
"""The person's own later look at a record, not a claim that their review was done."""


_NAMED_REVIEWER = re.compile(
    r"\b(?:finance|compliance|security|audit|legal|qa|accounting|management|payroll|hr|"
    r"operations|ops|risk|(?:the |our |a )?(?:\w+ )?(?:team|desk|department|office|committee|"
    r"board)|managers?|supervisors?|auditors?|reviewers?|controllers?)\s+$"
)
"""A named party that looks at the record itself ("finance reviews the log weekly"): more
oversight, told in the active voice, as ``_BY_OTHER`` tells it in the passive."""


_ERROR_LEAD = re.compile(
    r"\b(?:errors?|error codes?|failures?|fails with|failure codes?|status codes?)\s*:\s*$"
)
"""A list of the errors a call can end in: each says when the tool refuses."""


_TRUST_NAME = re.compile(
    r"trust\s+(?!(?:this|that|the|it|its|them|these|those|me|us|you|him|her|our|my|your|their|"
    r"all|any|every|each|what|whatever|such|and|or|is|was|has|had|in|of)\b)[a-z(]"
)
""""trust store", "client trust (IOLTA) ledger": a thing's name, not trust in anything."""


def _waived_consent(sentences: list[str], added: set[str]) -> list[str]:
    """A new sentence that talks of confirmation, review or trust and waves it away ("the
    review has already happened", "drafts count as reviewed", "a blanket OK"), unless it
    is a gate ("only after the user has reviewed", "cannot ... without approval") or says
    who confirmed some data ("already confirmed by the venue")."""
    out: list[str] = []
    for i, sentence in enumerate(sentences):
        words = {_key(w) for w in _TOKEN.findall(sentence)}
        consent = next(
            (
                c
                for c in _CONSENT_WORD.finditer(sentence)
                if not _TRUST_NAME.match(sentence, c.start())
            ),
            None,
        )
        waved = _DISMISSED.search(sentence)
        if not consent or not waved or not words & added:
            continue
        if i and _ERROR_LEAD.search(sentences[i - 1]):
            continue  # "Errors: APPROVAL_REQUIRED (over 5,000.00 without approval_id)"
        if _GATED.search(sentence) or _BY_OTHER.search(sentence) or _WHEN_DONE.search(sentence):
            continue
        if _ASKED_OR_DISCLAIMED.search(sentence):
            continue
        if _THEIR_OWN_LOOK.search(sentence, 0, consent.start()):
            continue  # "recorded in the audit log, where the user can review it"
        if (
            consent.group(0).endswith("s")
            and _NAMED_REVIEWER.search(sentence, 0, consent.start())
            and "automatic" not in sentence
        ):
            continue  # "every refund is logged, and finance reviews the log weekly"
        if _DENIED.search(sentence, max(0, consent.start() - 40), consent.start()):
            continue  # "never create or approve a payment ... whose details were changed"
        if _DENIED.search(sentence, max(0, waved.start() - 30), waved.start()):
            continue  # "is never sent automatically": the automation is what is denied
        if _touches(consent.group(0), added) or _touches(waved.group(0), added):
            out.append(f"{consent.group(0)} … {waved.group(0)}")
    return out


_GATE_BEFORE = re.compile(
    r"\b(?:once|after|until|unless|if|when|only when|before|whether|that|which)"
    r"(?:\s+\S+){0,3}\s*$"
)
_PAST_CLAIM = re.compile(r"^(?:has|have|had) ")
_EVEN_IF_BANNED = re.compile(
    r"\b(?:never|not|n't|cannot)\b[^.;:!?\n]{0,80}?,?\s*even (?:when|if|though)\b[^.;:!?\n]{0,80}$"
)
_WHO_ASKED = re.compile(r"\b(?:who|whom|whether|which \w+)\s+(?:has |have |had )?$")
_PERSON_ACT = re.compile(_WHO + r" ")


_ERRORS_LABEL = re.compile(r"\b(?:errors?|error codes?|failure codes?)\s*:")
_FULL_STOP = re.compile(r"(?<!\d)[.!?](?!\d)")


def _in_error_list(text: str, at: int) -> bool:
    """``at`` sits in an "Errors: A - ...; B - ..." list: no full stop (a decimal point is
    none) between the label, at most 300 characters back, and it."""
    start = max(0, at - 300)
    labels = list(_ERRORS_LABEL.finditer(text, start, at))
    return bool(labels) and not _FULL_STOP.search(text, labels[-1].end(), at)


_WAIVER_DENIED = re.compile(r"\b(?:not|never|n't|cannot|no one|nobody)\s+(?:\w+\s+)?$")


_DEFINES = re.compile(
    r"\s*[`'\"]?[\w-]{2,30}[`'\"]? (?:means|indicates|denotes|signifies|stands for|is short for)"
    r" (?:that )?(?:the |a |an )?(?!you\b|assistants?\b|the model\b)\w+"
)
_GRANTED = re.compile(r"\b(?:grant(?:s|ed)?|given|permission)\b")


def _defines_term(sentence: str) -> bool:
    """ "occupancy means the city has granted permission to occupy": a term of the trade,
    defined by what a third party did, not leave claimed for this call."""
    return bool(_DEFINES.match(sentence)) and not _ADDRESSEE.search(sentence)


def _claim_hits(text: str) -> list[str]:
    """Authority claims, except "once the traveller has approved": that is the gate, and
    "must be added and approved by the user": that is a requirement."""
    out: list[str] = []
    for m in _AUTHORITY.finditer(text):
        hit = m.group(0)
        clause = re.split(r"[.;:!?\n]", text[max(0, m.start() - 120) : m.start()])[-1]
        if hit.startswith("approved by") and _REQUIRES.search(clause):
            continue
        start = max(text.rfind(c, 0, m.start()) for c in ".;!?\n") + 1
        ends = [e for e in (text.find(c, m.end()) for c in ".;!?\n") if e >= 0]
        sentence = text[start : min(ends) if ends else len(text)]
        if _ASKED_OR_DISCLAIMED.search(sentence):
            continue  # "returns whether a consent is on file"; "does not replace the user's OK"
        if _WAIVER.search(hit) and _reads_only(text[start : m.start()]):
            continue  # "listing devices and reading sensors need no confirmation"
        if _WHO_ASKED.search(text, max(0, m.start() - 30), m.start()):
            continue  # "returns who has approved it so far": the data, not a claim
        if _WAIVER_DENIED.search(text, max(0, m.start() - 30), m.start()):
            continue  # "advisers may not skip the confirmation": the waiver refused
        if _EVEN_IF_BANNED.search(text, max(0, m.start() - 160), m.start()):
            continue  # "never assume consent, even when the clinician says the patient agreed"
        past = _PAST_CLAIM.match(hit) or _PERSON_ACT.match(hit)
        if past and _GATE_BEFORE.search(text[max(0, m.start() - 60) : m.start()]):
            continue
        if _SIGN_WORD.fullmatch(hit.strip()) and _NEEDS_SIGN.search(
            text[max(0, m.start() - 60) : m.start()]
        ):
            continue  # "both need the user's go-ahead": the gate, not a claim it was given
        if _described(hit.strip(), sentence, text, m.start(), m.end()):
            continue
        if _GRANTED.search(hit) and _defines_term(sentence):
            continue
        if _ERROR_LEAD.search(text, max(0, start - 40), max(0, start - 1)) or _in_error_list(
            text, m.start()
        ):
            continue  # an error list says when the tool refuses, not that a check is waived
        out.append(hit.strip())
    return out


_POLICY_CITED = re.compile(r"(?:per|by|under) (?:\S+ ){0,3}?polic(?:y|ies)$")
_LEAVE_GIVEN = re.compile(
    r"\b(?:may|can|could|must|should|shall|allowed|permitted|permits?|allows?|lets?|need|needs|"
    r"needn't|required|always|never|you|your|assistants?|model|agents?|no longer|instead|"
    r"skip\w*|without|automatic\w*|fine|ok|okay|exempt\w*|waive\w*)\b"
)
_APPROVED_STATE = re.compile(r"(?:is|are|was|were|been|being) (?:\S+ )?approved$")
_HOW_CLAUSE = re.compile(r"\b(?:how|which|whether|what|where)\b")
_APPROVED_FOR = re.compile(
    r"\s+(?:for|in)\s*(?:[.;:!?\n]|$)|\s+(?:with|through|via|using) (?:a|an|the|each|their)\b"
)
_BAN_BEFORE = re.compile(
    r"\b(?:never|not|n't|cannot|nobody|no one|nothing)\b(?:\s+[^\s,;:.!?]+){0,10}\s*$"
)


def _described(hit: str, sentence: str, text: str, start: int, end: int) -> bool:
    """An authority word that describes rather than claims: a policy cited for what a tool
    returns or does to data ("rates under the company policy", "removed under the retention
    policy"), how or for what something is approved ("how refunds are approved with a
    form", "the regions each template is approved for"), and "without" inside a ban ("do
    not cancel without that confirmation"). A policy that leads the sentence or comes with
    leave ("under the new policy the assistant may ...") is still a claim."""
    clause = re.split(r"[.;:!?,\n]", text[max(0, start - 160) : start])[-1]
    if _POLICY_CITED.search(hit):
        return bool(clause.strip()) and not _LEAVE_GIVEN.search(sentence)
    if _APPROVED_STATE.search(hit):
        return bool(_HOW_CLAUSE.search(clause) or _APPROVED_FOR.match(text, end))
    if hit.startswith("without"):
        return bool(_BAN_BEFORE.search(clause))
    # Inside a ban's own clause a past approval is its condition: "never charge a plan whose
    # price was changed after consent was recorded".
    return bool(_PAST_STATE.match(hit) and _BAN_BEFORE.search(clause))


_PAST_STATE = re.compile(r"\S+ (?:was|were|has been|have been|had been) ")

_WAIVER = re.compile(
    r"\b(?:needs?|requires?) no\b|\bno (?:need|requirement)\b|\bwithout\b|\bnot (?:need|require)"
    r"|\bdon't need\b|\bdo not need\b"
)
_READ_SUBJECT = re.compile(
    r"\b(?:only reads?|read-only|reading|listing|lookups?|looking up|searching|that reads?|"
    r"which reads?)\b"
)
_CHANGES = re.compile(
    r"\b(?:chang|updat|creat|set|unlock|lock|deploy|roll|scal|book|edit|add|sav|stor|start|stop|"
    r"restart|trigger|enabl|disabl|open|submit|invit|notif|export|cop(?:y|ie)|e-?mail|messag|call|"
    r"invok|repl(?:y|ie)|print|download|sync|import|attach|reveal|approv|sign)\w*"
)


def _reads_only(subject: str) -> bool:
    """A waiver's subject names reading and nothing that acts ("the three tools that only
    read data need no confirmation"): consent is waived only where none was ever needed."""
    if not _READ_SUBJECT.search(subject) or _ACTION.search(subject) or _CHANGES.search(subject):
        return False
    return not any(_ACT_VERB.match(w) for w in subject.split())


_ASKED_OR_DISCLAIMED = re.compile(
    r"\b(?:returns?|shows?|reports?|checks?|tells?|lists?|says?) (?:\S+ ){0,2}?(?:whether|if)\b"
    r"|\bdoes not (?:replace|count as|stand in for|substitute for)\b|\bis not (?:a |an )?"
    r"(?:substitute|replacement)\b|\bstill (?:needs?|requires?)\b"
)
_SIGN_WORD = re.compile(r"go-?ahead|sign-?off|signed[ -]off")
_NEEDS_SIGN = re.compile(
    r"\b(?:needs?|requires?|get|gets|obtain|obtains|ask for|asks for|wait for|waits for|until|"
    r"waiting for|awaiting|pending|without|"
    r"only with|after)\s+(?:the |their |an? )?(?:(?!no |any )(?:\S+'s |\S+s' |[a-z]+ )){0,4}$"
)
"""What a sign-off waits on, its giver named in up to four words ("the head of
circulation's", "a second reviewer's")."""


def _sequence_hits(text: str) -> list[str]:
    """Sequencing, except acting after the user has confirmed: that is the consent gate."""
    out: list[str] = []
    for m in _SEQUENCE.finditer(text):
        hit = m.group(0)
        gate = hit.startswith("after") and hit.endswith("the user")
        if gate and _CONSENTED.match(text, m.end()):
            continue
        start = text.rfind("\n", 0, m.start()) + 1
        end = text.find("\n", m.end())
        sentence = text[start : end if end >= 0 else len(text)]
        if "user" not in hit and _GATE_SENTENCE.search(sentence) and _PERSON.search(sentence):
            continue  # "before any write, get the user's go-ahead": the order is the gate
        out.append(hit.strip())
    return out


_DETERMINER = frozenset(
    # "field" is how a parameter's name is read (``send_at`` -> "field send at"): a label.
    ["field", "value", "of", "for", "with", "by", "per", "from", "in", "on", "about", "without"]
) | frozenset(
    [
        "a",
        "an",
        "the",
        "its",
        "their",
        "each",
        "every",
        "any",
        "no",
        "one",
        "this",
        "that",
        "your",
        "his",
        "her",
        "our",
        "which",
        "whose",
    ]
)


_WRITTEN_IN = re.compile(r"(?:\s+(?!in\b)\S+){0,3}?\s+in\b(?!to\b)")
""""write the review in" names a language or format: text produced, not a file written."""


def _verb_hits(pattern: re.Pattern[str], text: str) -> list[str]:
    """Action words used as verbs: "an approved refund" or "the archive" names a thing."""
    out: list[str] = []
    for m in pattern.finditer(text):
        before = text[max(0, m.start() - 40) : m.start()].split()[-2:]
        if m.group(0).startswith("write") and _WRITTEN_IN.match(text, m.end()):
            continue
        if _DETERMINER & set(before) or _ADJECTIVAL & set(before[-1:]):
            continue
        if _passive(text, m.start()):
            continue
        if _DENIED.search(text[max(0, m.start() - 40) : m.start()]):
            continue  # "never moves money"
        if _ASKED_TO.search(text, max(0, m.start() - 60), m.start()):
            continue  # "ask the tenant to send them": the person's act
        if _last_banned(text, m.start(), before):
            continue  # "it does not create, update or close anything"
        if _OTHER_ONLY.search(text, max(0, m.start() - 60), m.start()):
            continue  # "only the records team can delete a closed ticket"
        if not _NOTHING_AFTER.match(text, m.end()):
            out.append(m.group(0).strip())
    return out


_OTHER_ONLY = re.compile(
    r"\bonly (?:the |a |an |their |its )?(?!(?:you|your|this|it|tool|assistant|model|agent|ai|"
    r"we|i)\b)[a-z][\w'-]*(?: [a-z][\w'-]*){0,3}? (?:can|may|could|is allowed to|are allowed "
    r"to)\s+$"
)
"""An act only some named party may do ("only the docketing team can remove"): kept from
the model, not given to it."""


_ADJECTIVAL = frozenset(["how", "so", "too", "very", "as", "is", "are", "was", "were"])
_AUXILIARY = frozenset(["is", "are", "was", "were", "get", "gets", "got", "be", "been"])
_THEN = frozenset(["then", "later", "also", "finally", "eventually", "afterwards"])
_ASKED_TO_BE = re.compile(
    r"\b(?:asked|asks|requested|requests|wants?|wanted|chose|chosen)\b(?:\s+\S+){0,4}?\s+to be\s*$"
)


def _passive(text: str, start: int) -> bool:
    """A participle that names what happens to the data, not an order to act: the person's
    own request ("customers who asked for their data to be deleted") or a lifecycle step
    where the text gives a retention period ("expire after 7 days and are then deleted")."""
    window = text[max(0, start - 60) : start]
    if _ASKED_TO_BE.search(window):
        return True
    before = window.split()[-5:]
    skipped = 0
    while before and (before[-1] in _THEN or before[-1].endswith("ly")):
        before.pop()  # "are then permanently deleted"
        skipped += 1
        if len(before) > 1 and before[-1] == "and" and before[-2].endswith("ed"):
            del before[-2:]  # "are disabled and then deleted": one more step of the same
    return bool(skipped and before and before[-1] in _AUXILIARY and _RETENTION.search(text))


_NEGATED_SCOPE = frozenset(["anything", "everything"])
_NEGATED = re.compile(
    r"\b(?:not|n't|never|no longer|without|before|until|unless|leaves? out|left out|"
    r"filters? out|omits?|excludes?|strips?|skips?|ignores?) (?:\S+ ){0,3}?(?:anything|everything)\b"
)
""""does not change anything": the scope word is inside a denial."""


_ORDER_START = re.compile(
    r"(?:^|[.!?;:]\s+)(?:only |always |never |please |first,? )?(?:call|use|ask|tell|confirm|"
    r"wait|describe|read|set|show|check|do not|don't|make sure|invoke|run|pass|include|give|"
    r"state|explain)\b"
)
"""An old text that already gave the model orders ("Call only after the user confirmed")."""
_YOU_LEAVE = re.compile(
    r"\byou (?:may|can|could|are (?:allowed|free|welcome)|do not (?:need|have)|don't (?:need|"
    r"have)|needn't|no longer need)\b"
)
"""Leave given to the model by name ("you may skip the check"): an addressee that counts."""


_SYSTEM_DOES = re.compile(
    r"^[^.;:!?\n]{0,120}?,\s*(?:[^.;:!?\n,]{0,60}?\s)?(?:is|are|will be|gets?|get) "
    r"(?:\w+ )?(?:put|placed|held|cancell?ed|refused|rejected|stopped|suspended|blocked|frozen|"
    r"closed|removed|deleted|paused|withdrawn|flagged|locked|voided|returned|archived)\b"
)


def _what_follows(hit: str, text: str) -> bool:
    """ "If the patient withdraws consent, pending orders are put on hold": the person's act
    and what the system then does to itself; nothing the model is told to do."""
    at = text.find(hit)
    if at < 0:
        return False
    rest = text[at : at + 240]
    return bool(_SYSTEM_DOES.match(rest)) and not _ADDRESSEE.search(
        rest[: rest.find(".") + 1 or None]
    )


_ERROR_CASE = re.compile(
    r"(?:\berrors?\s*:|\bfails? with\b|\berror codes?\b)\s*[^.\n]{0,400}?\b[a-z0-9]+(?:_[a-z0-9]+)+"
    r"\s*(?:\(\w+\)\s*)?(?:[:=-]\s*)?$"
)


def _error_case(hit: str, text: str) -> bool:
    """ "Errors: SELF_APPROVAL when the approver is the requester": when an error code is
    returned, told in a list of them; nobody is told to do anything."""
    at = text.find(hit)
    return at >= 0 and bool(_ERROR_CASE.search(text, max(0, at - 480), at))


def _only_when_before(hit: str, text: str) -> bool:
    """ "only when the user wants the change committed": the condition is the gate."""
    at = text.find(hit)
    return at >= 0 and bool(
        re.search(r"\bonly (?:\w+ )?(?:when|if|after|once)\s*$", text[max(0, at - 30) : at])
    )


_NAMES_MODEL = frozenset(["assistant", "assistants", "the model", "ai", "llm", "llms"])

_CAUTION = re.compile(
    r"\b(?:do not|don't|never|must not|should not|shouldn't|cannot|can't)\s+\w+"
    # A scam named to the person who reported it: "tell them it is a scam".
    r"|\b(?:tell|warn|remind)\s+(?:them|him|her)\s+(?:that\s+)?(?:it|this|the (?:\w+ )?(?:message"
    r"|call|e-?mail|text|link))\s+(?:is|was)\s+(?:a\s+)?(?:scam|phishing|fraud\w*|fake|not "
    r"(?:from|genuine|sent by))\b"
    r"|\b(?:tell|inform|warn|notify|show|ask|remind)\s+(?:the |their )?(?:user|"
    r"account holder|household|caller|requester|owner|supervisor|manager|approver)\b"
    # Someone in the organisation: "ask the photo desk", "check with the duty editor".
    r"|\b(?:tell|inform|warn|notify|ask|remind|check with|consult)\s+(?:the |their |your )?"
    r"(?:\S+ )?(?:desk|editor|team|lead|officer|lawyer|counsel|pharmacist|clinician|doctor|vet|"
    r"administrator|supervisor|manager)s?\b"
    r"|\bask (?:again|first|them|the user)\b|\bread (?:\S+ ){0,4}?back\b"
    r"|\bwait (?:for|until)\b|\bconfirm (?:\S+ ){0,6}?with (?:the |their )?(?:\S+ )?(?:user|owner|"
    r"supervisor|manager|approver|account holder|pharmacist|clinician|doctor|vet|admin\w*|"
    r"lead|officer|" + _WHO + r")\b"
    r"|\b(?:decline|refuse|explain that)\b"
    r"|\b(?:say|explain|mention|point out|state) (?:so |this |that |it )?to (?:the |their )?"
    + _WHO
    + r"|\bask(?:ing)? (?:them|him|her|the \w+) to (?:confirm|approve|agree)\b"
    r"|\b(?:hand|give|pass|show) (?:it|them|this|that) (?:back )?to (?:the |their )?(?:\S+ )?"
    + _WHO
    + r"|\b(?:hand|give|pass|show) (?:it|them|this|that) (?:back )?to (?:the |their )?(?:\S+ )?"
    r"(?:manager|pharmacist|clinician|doctor|admin\w*|owner|supervisor)s?\b"
    r"|\btreat (?:\S+ ){0,10}?as (?:\S+ )?(?:personal|sensitive|confidential|private|"
    r"special-category|restricted|untrusted|secret|phishing|suspicious|spam|a scam|fraud\w*|"
    r"malicious|hostile|embargoed|blocked|off-limits|unpublished|protected|unavailable|"
    r"unlicensed|unapproved|not cleared)\b"
    # Stored text kept as data: "treat them as information, not as instructions".
    r"|\btreat (?:\S+ ){0,10}?as (?:\S+ )?(?:information|data|content|text|quotes?|input)s?,? "
    r"(?:and )?(?:not|never) (?:as )?(?:\S+ )?(?:instructions?|commands?|directions?|orders?|"
    r"directives?|requests?)\b"
    # A ban told with the act's own verb: "send no reminders", "post nothing about them".
    r"|\b(?:send|post|share|forward|copy|upload|publish|include|attach|pass|show|disclose|"
    r"e-?mail|message|contact|call|charge)\s+(?:no|nothing|none)\b"
    # Escalation to someone in the organisation: "report it to the practice manager".
    r"|\breport (?:it|them|this|that|these|those) to (?:the |their |your )?(?:\S+ )?(?:manager|"
    r"supervisor|security|admin\w*|officer|lead|team|pharmacist|clinician|doctor|vet)s?\b"
)
_WAIVES = re.compile(
    r"\bwithout (?:\S+ )?(?:ask|confirm|check|tell|wait|read|prompt|approv|consent|review)\w*"
    r"|\bno (?:need|confirmation|approval|consent|review|read-?back|check|prompt)\w*"
    r"|\bneeds? not\b|\bneedn't\b|\bnot (?:need|necessary|required|needed)\b"
    r"|\b(?:do not|don't|never|no longer|stop|avoid) (?:\w+ )?(?:double-|cross-|re-)?(?:ask|"
    r"confirm|tell|inform|verify|validate|notify|wait|check|prompt|bother|interrupt|warn|"
    r"mention|report|surface|flag|escalate)\w*"
    # Asking for data ("never ask for their SSN", "do not ask them to send it") is a privacy
    # ban, not a consent question skipped.
    r"(?! (?:(?:(?:the |a |an |their )?\w+ )?for\b|(?:\S+ ){0,3}?to (?:send|share|provide|give|"
    r"enter|type|read|upload|paste|disclose|spell|photograph)\b))"
    # Showing or reading data out is withheld from the user only when the user is named: "do
    # not read captions aloud" keeps data back from everyone.
    r"|\b(?:do not|don't|never|no longer|stop|avoid) (?:\w+ )?(?:show|read|disclose)\w*"
    r"(?: \S+){0,4}? (?:to )?(?:the |their )?(?:user|customer|caller|requester|account holder|"
    r"owner)s?\b"
    r"|\b(?:do not|don't|never|no longer|stop|avoid) read (?:\S+ )?back\b"
    r"|\b(?:skip|bypass|silent|quiet|automatic)\w*|\bon (?:their|the user's|his|her) behalf\b"
    # Consent turned into an opt-out: "proceed unless they object".
    r"|\bunless (?:they|the user|he|she|someone) (?:\w+ )?objects?\b|\bunless told otherwise\b"
    r"|\bif (?:they|the user) (?:does|do)(?: not|n't) object\b"
)
_PUSHES = re.compile(
    r"\b(?:also|instead|include|includes|attach|forward|send|upload|post|share|copy|cc|bcc|"
    r"call|invoke|use|run|execute|pass|set|fill|enter|add|append|then|afterwards|later|"
    r"immediately|straight away|right away|proceed|go ahead|continue)\b|(?<!ask )(?<!asks )(?<!asked )\bdirectly\b"
    r"|(?<!ask )(?<!confirm )(?<!check )\bfirst\b"
)


_GATED_PUSH = re.compile(
    r"\b(?:before|until|unless|only after|only once)\s+(?:you|it|they|the assistant|calling)?\s*$"
)
""""Before you call it, read it back": the call is what waits."""
_GATE_IN_CLAUSE = re.compile(r"\b(?:confirm|ask|check)\w*\b[^.;:!?,]{0,80}$")
""""confirm with the duty pharmacist first": first is when the gate comes."""


def _banned_without(sentence: str, m: re.Match[str]) -> bool:
    """ "Do not cancel without that confirmation": a "without" inside a ban is the gate."""
    if not m.group(0).startswith("without"):
        return False
    clause = re.split(r"[.;:!?,\n]", sentence[max(0, m.start() - 160) : m.start()])[-1]
    return bool(_BAN_BEFORE.search(clause))


def cautionary(sentence: str, old: str = "") -> bool:
    """A sentence whose only orders are care: tell or ask the user, read back, wait, or not
    do something ("do not roll back"); nothing the model is pushed to do or send, and no
    check waived ("without asking", "never bother the user", "no confirmation needed").

    A care the old text gave always, now under a condition ("ask the user first" -> "ask
    the user first when more than one service would be affected"), narrows it: not care."""
    care = _CAUTION.search(sentence)
    if not care or any(
        not _banned_without(sentence, w) and not (old and w.group(0) in old)
        for w in _WAIVES.finditer(sentence)
    ):
        return False  # "do not show them" the old rule already said is not a new waiver
    if old and _QUALIFIER.search(sentence) and _qualified_again(sentence, old):
        return False
    for m in _PUSHES.finditer(sentence):
        before = sentence[max(0, m.start() - 40) : m.start()].split()[-2:]
        if (
            _DETERMINER & set(before)
            or _TENSED & set(before)
            or _DENIED.search(sentence[max(0, m.start() - 30) : m.start()])
            or _USERS_ACT.search(sentence[max(0, m.start() - 40) : m.start()])
            or (before[-1:] in (["or"], ["nor"]) and _DENIED_CLAUSE.search(sentence[: m.start()]))
            or _GATED_PUSH.search(sentence, max(0, m.start() - 30), m.start())
            or _ASKED_TO.search(sentence, max(0, m.start() - 60), m.start())
            or (m.group(0) == "first" and _GATE_IN_CLAUSE.search(sentence, 0, m.start()))
            or _NOTHING_AFTER.match(sentence, m.end())
        ):
            continue  # "one call", "has already run", "do not add": a noun, a fact, a denial
            # ("do not read captions aloud or copy them": both verbs under the ban)
        return False
    return True


_LABELS_OF = frozenset(["field", "value"])
_ACT_VERB = re.compile(
    r"(?:delet|eras|remov|overwrit|upload|publish|forward|shar|transfer|pay|grant|execut|send|"
    r"sent|post|mov|clos|cancel|writ|push|run|drop|purg|wip)",
)
_ACT_WORD = re.compile(
    r"(?:transfer|delet|eras|overwrit|upload|publish|forward|shar|grant|pay|execut)"
    r"(?:e|es|s|ing)?$",
    re.I,
)
_LABELLED = re.compile(r"\b(?:marked|flagged|set to|labell?ed)(?: \S+)?(?: as)? $")
_NOUN_AFTER = re.compile(
    r"\s+(?:links?|settings?|permissions?|dialog|menu|button|urls?|icons?|sheets?|options?|"
    r"policy|policies|rules?|history|status)\b"
)
"""Act words that are nouns after an article ("each transfer"); "the shared folder" is not."""
_USERS_ACT = re.compile(r"\b(?:user|they|customer|patient|candidate)\s+(?:\w+\s+){0,2}$")
"""The user's own act ("unless the user decides to go ahead"), not the model's."""
_TENSED = frozenset(
    ["has", "have", "had", "is", "are", "was", "were", "be", "been", "being", "already"]
)


def _qualified_again(sentence: str, old: str) -> bool:
    """An old sentence of care, every word of it kept, now with a condition added."""
    words = {_key(w) for w in _TOKEN.findall(sentence)}
    for before in _sentences(old)[:_MAX_RULES]:
        if not _CAUTION.search(before) or _QUALIFIER.search(before):
            continue
        kept = {_key(w) for w in _TOKEN.findall(before) if w not in _SENTENCE_END}
        if kept and kept <= words:
            return True
    return False


_QUALIFIER = re.compile(r"\b(?:when|whenever|if|unless|only|as long as|where|provided)\b")
_DENIED_CLAUSE = re.compile(
    r"\b(?:not|n't|never|no longer|cannot|nor|neither)\b(?:\s+(?!but\b|unless\b|except\b|"
    r"however\b|instead\b|while\b|whereas\b|then\b|and then\b)[^\s,;:.!?()]+){0,12}\s*$"
)
"""A denial reaches to the end of its clause ("never see the candidate's personal email
address or phone number"): no comma, stop or turn ("but", "unless") in between."""
_DENIED_FAR = re.compile(r"\b(?:not|n't|never|no longer|cannot|nor|neither)\b(?:\s+\S+){0,6}\s*$")
_PERIOD = (
    r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|thirty|"
    r"sixty|ninety|a|an) (?:calendar |business |working |consecutive |straight |full |whole )?"
    r"(?:days?|hours?|weeks?|months?|quarters?|years?)"
)
_RETENTION = re.compile(
    r"\bexpire[sd]?\b|\bretention\b|\bretained\b"
    r"|\b(?:after|within|for|older than) " + _PERIOD + r"\b"
    r"|\b" + _PERIOD + r" (?:after|later|from|since|past)\b"
    r"|\bat the end of (?:each|every|the|a) (?:day|week|month|quarter|year|term|season|session|"
    r"visit|trip|stay|contract|retention period)\b"
)
"""A retention period, however told: "after 7 days", "90 days after the report is paid",
"older than seven years", "at the end of each quarter"."""
_PURGED = re.compile(r"(?:delet|remov|archiv|eras|purg)ed")
_PURGES = re.compile(r"(?:delet|remov|archiv|eras|purg)es")
"""The server's own retention told actively, in the third person."""
_ASKED_TO = re.compile(
    r"\b(?:ask|asks|asking|asked|tell|tells|let|lets|invite|invites|allow|allows)\s+(?:the |a |an "
    r"|their |each )?(?:\S+\s+)?\S+\s+to\s+$"
)
_KEPT_WORD = re.compile(r"secrets?$|passwords?$|api keys?$|tokens?$|credentials?$")
_SHOWN_ONCE = re.compile(
    r"\b(?:shown|displayed|returned|visible|given) (?:only )?once\b"
    # An archive's password delivered through a second channel, to the person.
    r"|\b(?:sent|delivered|given) (?:\S+ )?(?:separately|in a separate)\b|\bseparate (?:e-?mail|"
    r"sms|text message|message|letter|channel)\b"
    r"|\bonly (?:shown|displayed|"
    r"returned) once\b|\bcannot (?:\S+ ){0,2}?(?:display|show|retrieve|return)\w* (?:it |them )?"
    r"again\b|\bstore (?:it|them) (?:securely|safely)\b|\b(?:secret|password) (?:manager|vault)\b"
)
"""A secret the server issues to the person once, to keep: not one the model hands on."""
_REFUSED = re.compile(r"\b(?:fails?|failed|rejected|refused|blocked|quarantined|denied)\b")
_BAN_BEFORE_LIST = re.compile(
    r"\b(?:not|n't|never|no)\s+(?:\w+\s+)?(?:[^\s.;:!?]+\s+){0,12}(?:or|nor)\s+$"
)
"""The last item of a banned list: "do not include A, B, C or anything about D"."""


def _last_banned(text: str, at: int, before: list[str]) -> bool:
    """The word at ``at`` ends a banned list ("does not create, update or close anything")."""
    return before[-1:] in (["or"], ["nor"]) and bool(
        _BAN_BEFORE_LIST.search(text, max(0, at - 200), at)
    )


"""The states a retention period ends in; "shared after 30 days" is an act."""
_STATE = re.compile(r"(?:delet|remov|archiv|clos|cancell?|eras|purg|shar)ed")
"""A participle after an article names a state: "deleted candidates", "the shared mailbox"."""
_OF = frozenset(["of", "from", "with", "for", "about", "to"])
_DENIED = re.compile(r"\b(?:not|n't|never|no longer|cannot|nor|neither)\b(?:\s+\S+){0,2}\s*$")
_DENIED_ASK = re.compile(
    r"\b(?:not|n't|never|no longer|cannot)\s+(?:\S+\s+)?(?:asks?|tells?|invites?|urges?"
    r"|expects?|wants?|prompts?|requires?|encourages?)\s+(?:\S+\s+){0,2}?to\s+"
    r"(?:[^\s,;:.!?]+\s+){0,4}$"
)
"""An act inside what nobody is asked to do: "never asks them to click through to pay"."""
_ONLY_TO = re.compile(r"\bonly (?:to|with)\s+(?:the |their |its |his |her )?(?:[\w'-]+\s+){0,3}$")
"""Whom something goes to, and to no one else: "go only to the guardian contacts on file"
names the recipients, not data asked for."""
_MESSAGE_RECEIVED = re.compile(
    r"user'?s? (?:reports|receives|received|gets|got|opens|opened|sees|saw|notices|noticed"
    r"|describes|mentions|forwards) (?:a|an|such a|such|this|that|any|the) (?:\w+ )?messages?\b"
)
_SHOWN_TO = re.compile(
    r"\b(?:show|shows|showing|tell|tells|give|gives|read|reads|present|presents|display"
    r"|displays|offer|offers)\s+(?:back\s+)?(?:to\s+)?the\s+(?:user|patron|customer|caller"
    r"|requester)\s+the\b"
)
_NOTHING_AFTER = re.compile(r"\s*(?:nothing|no\s+\w+|none)\b")


_BANNED_ITEM = re.compile(
    r"\b(?:not|n't|never|no)\s+(?:\w+\s+)?(?:[^\s.;:!?]+\s+){0,14}(?:or|nor)\s+"
    r"(?:[^\s.;:!?,]+\s+){0,3}$"
)
"""A word in the last item of a banned list ("never ask for a passcode, card PIN or online
banking password")."""


def _undenied(pattern: re.Pattern[str], text: str) -> list[str]:
    """Scope or capability words outside a denial: "deletes nothing", "never shares the
    statement" and "cannot move the money twice" deny the act they name; "each transfer"
    names one."""
    out: list[str] = []
    for m in pattern.finditer(text):
        if _DENIED.search(text[max(0, m.start() - 40) : m.start()]):
            continue
        if not _ACT_VERB.match(m.group(0)) and (
            _DENIED_FAR.search(text[max(0, m.start() - 80) : m.start()])
            or _DENIED_CLAUSE.search(text[max(0, m.start() - 160) : m.start()])
            or _BANNED_ITEM.search(text, max(0, m.start() - 200), m.start())
        ):
            continue  # "never see the candidate's personal email address or phone number"
        before = text[max(0, m.start() - 40) : m.start()].split()[-2:]
        if _STATE.fullmatch(m.group(0)) and _passive(text, m.start()):
            continue  # "asked for their data to be deleted", "are then deleted": a state
        if _PURGED.fullmatch(m.group(0)) and _RETENTION.search(text):
            continue  # "exports expire after 7 days and are then deleted": retention
        if _PURGES.fullmatch(m.group(0)) and _RETENTION.search(_sentence_of(text, m.start())):
            continue  # "RxDesk deletes them 90 days after closing": the server's retention
        if (
            _STATE.fullmatch(m.group(0))
            and before[-1:]
            and before[-1] in _AUXILIARY
            and _REFUSED.search(_sentence_of(text, m.start()))
        ):
            continue  # "an infected file is deleted and the upload fails": a refusal
        if _last_banned(text, m.start(), before):
            continue  # "do not include diagnoses, treatment details or anything about ..."
        if _STATE.fullmatch(m.group(0)) and (
            (_DETERMINER | _OF) & set(before[-1:]) or (before[-1:] and before[-1].endswith("'s"))
        ):
            continue  # "CVs of deleted candidates": a state, not an act
        if _ACT_WORD.match(m.group(0)) and (_DETERMINER - _LABELS_OF) & set(before):
            continue
        if m.group(0) == "private" and _LABELLED.search(text[max(0, m.start() - 30) : m.start()]):
            continue  # "events marked private": a label on the data
        if _ACT_WORD.match(m.group(0)) and _NOUN_AFTER.match(text, m.end()):
            continue  # "share links", "sharing settings": a thing named, not an act
        if _NOTHING_AFTER.match(text, m.end()) or _DENIED_AFTER.match(text, m.end()):
            continue
        if _ACT_VERB.match(m.group(0)) and _OTHER_ONLY.search(
            text, max(0, m.start() - 60), m.start()
        ):
            continue  # "only the records team can delete a closed ticket": another's act
        if _SO_ARE.search(text, max(0, m.start() - 240), m.start()):
            continue  # "card numbers are masked, and so are session cookies": kept back too
        if not _ACT_VERB.match(m.group(0)) and _held_protected(text, m.start()):
            continue  # "images can contain credentials: they are encrypted at rest"
        if _ACT_VERB.match(m.group(0)) and _ASKED_TO.search(
            text, max(0, m.start() - 60), m.start()
        ):
            continue  # "ask the tenant to send them": the person's act, not the model's
        if pattern is _HARVEST and _shielded(text, m.start()):
            continue
        if pattern is _HARVEST and _ONLY_TO.search(text, max(0, m.start() - 60), m.start()):
            continue  # "sent only to the student's own contacts": the recipients, restricted
        if pattern is _HARVEST and _MESSAGE_RECEIVED.match(m.group(0)):
            continue  # "if a user reports such a message": a message they were sent
        if pattern is _HARVEST and _SHOWN_TO.search(text, max(0, m.start() - 40), m.start() + 12):
            continue  # "show the user the final message": what the user is shown, not asked
        if _ACT_VERB.match(m.group(0)) and _DENIED_ASK.search(
            text, max(0, m.start() - 120), m.start()
        ):
            continue  # "a notice never asks them to click through to pay": the act denied
        if _KEPT_WORD.match(m.group(0)) and _SHOWN_ONCE.search(
            text, max(0, m.start() - 200), m.end() + 200
        ):
            continue  # "the signing secret is shown only once; store it in a password manager"
        out.append(m.group(0).strip())
    return out


_SAME_RULE = re.compile(
    r"\b(?:the same|this|that|these|those|likewise)(?: \w+){0,2}? (?:also )?appl(?:y|ies)"
    r"(?: also)? to\b"
)
_RETURNS_LEAD = re.compile(
    r"\s*(?:it |this tool |the tool )?(?:returns?|lists?|shows?|gets?|fetch(?:es)?|retrieves?|"
    r"gives?|displays?|looks? up|finds?)\b"
)
_HANDS_ON = re.compile(
    r"\b(?:but|except|however|send\w*|sent|forward\w*|post(?:s|ed|ing)?|upload\w*|shar\w*|"
    r"cop(?:y|ies|ied)|e-?mails? (?:it|them|to)|pass(?:es|ed|ing)?|attach\w*|submit\w*|"
    r"(?:include|add|put|write)s? (?:it |them |this )?(?:in|into|to)|cc|bcc)\b"
)


_HANDS_ON_DENIED = re.compile(
    r"\b(?:do not|don't|never|must not|may not|cannot|nor)\s+(?:\w+\s+)?$"
)


def _hands_on(sentence: str) -> bool:
    """The sentence hands data on: "send it to", "copy them into", but not "do not copy it
    into other tools" (the handing denied) or "mask all but the last four" (masking)."""
    for m in _HANDS_ON.finditer(sentence):
        before = sentence[max(0, m.start() - 30) : m.start()]
        if _HANDS_ON_DENIED.search(before):
            continue
        if m.group(0) == "but" and before.endswith("all "):
            continue
        return True
    return False


def _sentence_bounds(text: str, at: int, stops: str = ".;!?\n") -> tuple[int, int]:
    """Where the sentence around ``at`` starts and ends."""
    start = max(text.rfind(c, 0, at) for c in stops) + 1
    ends = [e for e in (text.find(c, at) for c in stops) if e >= 0]
    return start, min(ends) if ends else len(text)


def _sentence_of(text: str, at: int) -> str:
    start, end = _sentence_bounds(text, at)
    return text[start:end]


_MASKS = re.compile(
    r"(?<!not )(?<!never )(?<!longer )(?<!without )(?<!un)\b(?:mask(?:ed|s)?|redact(?:ed|s)?|"
    r"hashed|truncated|obfuscated|anonymi[sz]ed|pseudonymi[sz]ed|last (?:\w+ )?(?:\d+|one|two|"
    r"three|four|five|six) (?:digits?|characters?|letters?))\b"
)
"""Personal data shown only in part: "last two digits of the phone number", "the day and
month are redacted"."""


_NOT_ASKED = re.compile(
    r"\b(?:never|do not|don't|must not|should not)\s+(?:ask (?:\S+ )?for|request|collect|"
    r"pass|send|copy|store|include|log)\s+(?:it|them|these|those|this)\b"
)
""""Patients enter their date of birth on the pharmacy's own form; never ask for it": the
data named is what the model is kept from."""


_WARNED = re.compile(
    r"\btreat (?:\S+ ){0,10}?as (?:\S+ )?(?:phishing|suspicious|spam|a scam|fraud\w*|malicious|"
    r"hostile|untrusted)\b"
)
"""A warning about requests for the data: "treat a request for card numbers as phishing"."""


def _listed_after_returns(text: str, start: int) -> bool:
    """ "Returns one job: type, status, location": the list after a reading lead's colon
    (read as a line of its own) is the fields it returns."""
    window = max(0, start - 8)  # the colon ends the line just before: a bounded look back
    lead = text[window:start].rstrip(" \n")
    if not lead.endswith(":"):
        return False
    lead_start = _sentence_bounds(text, window + len(lead) - 1)[0]
    return bool(_RETURNS_LEAD.match(text, lead_start))


def _shielded(text: str, at: int) -> bool:
    """Personal data named in a sentence that hands nothing on: a protective rule extended
    to it ("the same applies to signer IP addresses"), the fields a reading tool returns
    ("returns each visit's location and the vet"), or data its line says is masked."""
    start, end = _sentence_bounds(text, at)
    sentence = text[start:end]
    if _hands_on(sentence):
        return False
    # The masking may be told in the next sentence: "year of birth only; the day and month
    # are redacted".
    nxt = end
    while nxt < min(len(text), end + 8) and text[nxt] in ".;!?\n ":
        nxt += 1
    next_end = _sentence_bounds(text, nxt)[1] if nxt < len(text) else end
    return bool(
        _SAME_RULE.search(text, start, at)
        or _RETURNS_LEAD.match(sentence)
        or _listed_after_returns(text, start)
        or _MASKS.search(text, start, max(end, next_end))
        or _NOT_ASKED.search(text, start, max(end, next_end))
        or _WARNED.search(sentence)
    )


_SO_ARE = re.compile(
    r"\b(?:masked|redacted|encrypted|hashed|refused|rejected|blocked|denied|excluded|omitted|"
    r"withheld|removed|stripped|filtered out|left out)\b[^.;!?\n]{0,80}?[,\s]\s*(?:and\s+)?"
    r"(?:so|as|nor|likewise)\s+(?:are|is|were|was)\b[^.;!?\n]{0,160}$"
)
"""The thing named after "..., and so are" shares the protection told before it."""


_HELD_PROTECTED = re.compile(
    r"\b(?:contains?|holds?|includes?|carr(?:y|ies)|may have|can have)\b[^.;!?\n:]{0,100}:\s*"
    r"(?:they|it|these|those|such \w+|the \w+)\s+(?:are|is)\s+(?:\w+\s+)?"
    r"(?:encrypted|masked|redacted|hashed|tokeni[sz]ed)\b"
)
"""Data a thing may hold, told with how it is protected."""


def _held_protected(text: str, at: int) -> bool:
    start, end = _sentence_bounds(text, at, ".;!?")  # the colon may end a read line
    return any(mm.start() < at < mm.end() for mm in _HELD_PROTECTED.finditer(text, start, end))


_DENIED_AFTER = re.compile(
    # The data may close a bracket or a list first: "(phone, e-mail, home address) are ...".
    r"[^\w\s]{0,3}(?:\s+\S+){0,6}?\s+(?:are|is|will be|get|gets)\s+(?:never|not)\s+"
    r"(?:returned|stored|shown|"
    r"included|logged|sent|shared|exposed|kept|saved|displayed|printed)\b"
    r"|(?:\s+\S+){0,4}?\s+(?:are|is|will be|get|gets)\s+(?:rejected|refused|blocked|denied|ignored)\b"
    r"|(?:\s+\S+){0,2}?\s+(?:are |is |were |was |get |gets )?(?:omitted|excluded|withheld|redacted|"
    r"left out|filtered out|held back)\b"
    r"|(?:\s+\S+){0,3}?\s+(?:are|is|will be|get|gets)\s+(?:(?!not\b|no\b|never\b|only\b|rarely\b)"
    r"[a-z]+\s+)?(?:masked|encrypted|hashed|truncated|anonymi[sz]ed|pseudonymi[sz]ed|tokeni[sz]ed|"
    r"obfuscated|removed|deleted|erased|purged|stripped|dropped)\b"
    r"|(?:\s+\S+){0,3}?\s+(?:appears?|are shown|is shown|shows?) only as\b"
)
""""Full card numbers are never returned", "private sections omitted", "IP addresses are
masked": the thing named is what the tool keeps back."""


def _retired_words(text: str) -> set[str]:
    return {
        m.group(0).strip()
        for sentence in re.split(r"(?<=[.!?])\s+|\n", text)
        if "deprecat" in sentence
        for pattern in (_CAPABILITY, _ACTION)
        for m in pattern.finditer(sentence)
    }


def _touches(hit: str, added: set[str]) -> bool:
    """The hit uses a word the edit added (common words count only on their own)."""
    words = [_key(w) for w in _TOKEN.findall(hit) if w not in _SENTENCE_END]
    significant = [w for w in words if w not in _ENGLISH] or words
    return any(w in added for w in significant)


def _script_of(ch: str) -> str:
    if ch.isascii():
        return "LATIN"
    return unicodedata.name(ch, "UNKNOWN").split(" ")[0]


_EXTRA_LATIN = frozenset("ıłđøßæœþðħŀŧ")
"""Latin letters that are not an ASCII letter plus a mark: dotless i, Polish l, ..."""
_MARKED_SHARE = 0.3


def _marked(word: str) -> bool:
    """A Latin letter with a diacritic (ş ğ ç ö ü ą ę ệ) or one English never writes (ı ł)."""
    return any(
        c in _EXTRA_LATIN or (not c.isascii() and unicodedata.decomposition(c) != "")
        for c in word
        if c.isalpha()
    )


_RAW_WORD = re.compile(r"[^\W\d_][\w'’-]*")


def _names(raw: list[str]) -> set[str]:
    """Capitalised words inside a sentence (Zürich, Köln): names, not a language.

    A sentence with every word capitalised gives no names, so Title Case hides nothing.
    """
    out: set[str] = set()
    for sentence in raw:
        words = _RAW_WORD.findall(sentence)
        inner = [w for w in words[1:] if w[0].isupper()]
        if len(inner) < len(words) - 1:
            out.update(_fold(w) for w in inner)
    return out


def _language(added: list[str], names: frozenset[str] = frozenset()) -> list[str]:
    """Added words in another script, or Latin-script words of a language English is not.

    Latin-script languages are told by their function words or, for Turkish, Polish,
    Vietnamese and the like, by how many of the added words carry diacritics: one accented
    loanword ("café", "Zürich") in English prose stays English.
    """
    letters = [w for w in added if any(c.isalpha() for c in w)]
    foreign_script = [
        w for w in letters if any(_script_of(c) not in _LATIN_SCRIPTS for c in w if c.isalpha())
    ]
    if len("".join(foreign_script)) >= 3:
        return foreign_script
    if len(letters) >= 5:
        english = sum(w in _ENGLISH for w in letters)
        foreign = [w for w in letters if w in _FOREIGN]
        if len(foreign) >= 2 and len(foreign) > english:
            return foreign
    marked = [w for w in letters if _marked(w) and w not in names and w not in _LOANWORDS]
    english = sum(w in _ENGLISH for w in letters)
    # English prose with loanwords keeps its function words; a Polish or Vietnamese
    # sentence has fewer of them than words with marks.
    if len(marked) >= 2 and len(marked) >= _MARKED_SHARE * len(letters) and english < len(marked):
        return marked
    # Function words and marked words together: a short Turkish or Czech sentence may have
    # too few of either alone.
    evidence = list(dict.fromkeys([*foreign_words(letters), *marked]))
    if len(evidence) >= 2 and len(evidence) >= _EVIDENCE_SHARE * len(letters) > english:
        return evidence
    return []


_EVIDENCE_SHARE = 0.25
_FUNCTION = _ENGLISH | frozenset(
    [
        "was",
        "were",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
        "no",
        "never",
        "we",
        "our",
        "they",
        "he",
        "she",
        "there",
        "what",
        "who",
        "how",
        "after",
        "before",
        "until",
        "about",
        "over",
        "up",
        "out",
        "but",
        "these",
        "those",
        "them",
        "his",
        "her",
        "i",
        "me",
        "my",
        # Terse documentation drops articles and pronouns ("Partner libraries answer within
        # three working days"); its prepositions, number words and time words remain.
        "within",
        "without",
        "across",
        "between",
        "during",
        "under",
        "above",
        "below",
        "through",
        "against",
        "among",
        "upon",
        "onto",
        "off",
        "while",
        "where",
        "whether",
        "because",
        "since",
        "every",
        "both",
        "either",
        "neither",
        "other",
        "another",
        *_NUMBER_WORDS,
        "hundred",
        "thousand",
        "first",
        "last",
        "next",
        "new",
        "same",
        "day",
        "days",
        "hour",
        "hours",
        "minute",
        "minutes",
        "week",
        "weeks",
        "month",
        "months",
        "year",
        "years",
        "time",
        "business",
        "working",
    ]
)
_PLAIN_WORD = re.compile(r"(?<![\w'’-])[^\W\d_]{1,40}(?![\w'’-])")
_PROSE_RUN = 7
_ADDRESS = re.compile(r"\S{1,64}@\S{1,255}|(?<![\w.-])(?:[\w-]{1,63}\.){1,8}[a-z]{2,24}\b")
"""E-mail addresses and dotted host or file names: places, not words."""


def _unreadable(raw: list[str], added: set[str]) -> list[str]:
    """A new sentence of seven or more plain words without one English function word: a
    language the word lists do not know (Welsh, Basque, Swahili ...). A list of names
    ("id, name, status, ...") is told by its commas."""
    for sentence in raw[:_MAX_RULES]:
        plain = _ADDRESS.sub(" ", _LINK.sub(" ", sentence[:MAX_DELTA_CHARS]))
        words = [_fold(w) for w in _PLAIN_WORD.findall(plain)]
        if len(words) < _PROSE_RUN or sentence.count(",") * 3 >= len(words):
            continue
        if not any(w in _FUNCTION for w in words) and sum(_key(w) in added for w in words) >= 4:
            return words[:6]
    return []


def foreign_words(letters: list[str]) -> list[str]:
    return [w for w in letters if w in _FOREIGN]


_LOANWORDS = frozenset(
    [
        "café",
        "cafés",
        "résumé",
        "résumés",
        "naïve",
        "naïvely",
        "déjà",
        "fiancé",
        "fiancée",
        "façade",
        "cliché",
        "entrée",
        "protégé",
        "rôle",
        "über",
        "jalapeño",
        "piñata",
        "señor",
        "crème",
        "brûlée",
        "soufflé",
        "décor",
        "touché",
        "exposé",
        "à",
        "vis-à-vis",
        "coöperate",
        "coördinate",
        "doppelgänger",
        "smörgåsbord",
        "tête-à-tête",
        "belle-époque",
        "père",
        "mère",
        "attaché",
        "détente",
        "émigré",
        "habitué",
        "née",
        "pâté",
        "purée",
        "saké",
        "sauté",
        "flambé",
        "frappé",
    ]
)
"""Accented words English writes as its own: one or two in a sentence are not a language."""


def known_locator(locator: str, known: frozenset[str]) -> bool:
    """A link, address or host on a host the server already names: not a new place."""
    if not known:
        return False
    hosts = text_hosts(locator) if "://" in locator else set()
    if not hosts:
        hosts = {locator.rpartition("@")[2].rstrip(".,;:!?)]}")}
    return all(known_place(h, known) for h in hosts)


_PERCENT_RUN = re.compile(
    r"(?:%[0-9A-Fa-f]{2}[\w.-]{0,2}){4,}"
    r"|(?<![\w.~'%-])[\w.~'-]{0,40}(?:%(?:2[0-9A-Fa-f]|3[A-Fa-f]|0[9ADad])[\w.~'-]{0,40}){3,}"
)
_WORDY = re.compile(r"[A-Za-z]{3,}")
"""Text spelled in percent escapes: "%73%65%6E%64" is "send", and prose whose spaces and
stops are escapes ("Skip%20the%20review%2E"); a %20 in a link is not a run."""


_TOKEN_END = re.compile(r"\s")


def _percent_prose(sentence: str) -> Iterator[str]:
    """The decoded percent runs of ``sentence`` that are outside links and read as words."""
    text = sentence[:MAX_DELTA_CHARS]
    for m in _PERCENT_RUN.finditer(text):
        # the whitespace-bounded word around the run, looked for within a bounded reach
        reach = max(0, m.start() - 2048)
        lo = max(text.rfind(c, reach, m.start()) for c in " \n\t") + 1 or reach
        hi = _TOKEN_END.search(text, m.end(), m.end() + 2048)
        token = text[lo : hi.start() if hi else m.end() + 2048]
        if "://" in token or token.startswith("/") or ("?" in token and "=" in token):
            continue  # a link's path or query: spaces there are escaped by design
        plain = urllib.parse.unquote(m.group(0), errors="replace")
        if _WORDY.search(plain):
            yield m.group(0)


_BAN = re.compile(r"\b(?:do not|don't|never) (\w+)")


def _told_before(hit: str, old: set[str]) -> bool:
    """A rewrite that gives an order the old text gave with the same verb ("Ask the user
    before ..." retold as "..., so ask the user first"): the order is not new."""
    words = [_key(w) for w in _TOKEN.findall(hit) if w not in _SENTENCE_END]
    verbs = [w for w in words if w not in ("and", "so", "then", "also")]
    return bool(verbs) and all(v in old for v in verbs)


def _same_ban(hit: str, text: str, forbidden: set[str]) -> bool:
    """ "Do not print credentials" for "Never print credentials": the ban the old text had."""
    if not hit.lstrip(".!?;:,\n ").startswith(("do not", "don't")):
        return False
    verbs = [_key(m.group(1)) for m in _BAN.finditer(text)]
    return bool(verbs) and all(v in forbidden for v in verbs)


@dataclass(frozen=True, slots=True)
class _Read:
    """One delta's new sentences, as the signal patterns read them."""

    d: Delta
    added: set[str]
    text: str
    """Every new sentence with an added word."""
    live: str
    """Those with a word the old text lacked."""
    steering: str
    """Those that are more than care."""
    old_directed: bool


_LINK = re.compile(r"(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,15}://[^\s<>\"'`]+")


def _read(d: Delta, added: set[str]) -> _Read:
    # A sentence made only of words the old text had (the same rule reordered, or split
    # into bullets) adds no directive; a sentence with any new word is read whole. A link's
    # path is a place, not words to the model ("docs.example/agents#publishing"): the
    # phrase patterns read it as one word (its host is graded as an entity).
    fresh = [
        _LINK.sub("link", s) if "://" in s else s
        for s in d.context
        if not {_key(w) for w in _TOKEN.findall(s) if w not in _SENTENCE_END} <= d.old_keys
    ]
    return _Read(
        d=d,
        added=added,
        text="\n".join(d.context),
        live="\n".join(fresh),
        # A sentence that only adds caution ("tell the user and do not retry", "if the name
        # does not match, ask again") gives the model no new act: its orders, conditions
        # and sequencing are the consent loop itself. One that waives a check is not care.
        steering="\n".join(s for s in fresh if not cautionary(s, d.old_text)),
        old_directed=bool(
            _hits(_ADDRESSEE, d.old_text)
            or _hits(_IMPERATIVE, d.old_text)
            or _ORDER_START.search(d.old_text)
        ),
    )


_DENIAL_RUNS = re.compile(
    r"\b(?:not|n't|never|no|cannot|nor|neither)\b(?:(?!\b(?:but|unless|except|however|instead|"
    r"while|whereas|then)\b)[^;:.!?])*$"
)


def _in_retold_denial(hit: str, retold: frozenset[str]) -> bool:
    """A scope word inside the denial of a sentence that retells an old rule ("do not carry
    contact details ... into other tools or conversations"): the object of the ban."""
    for sentence in retold:
        at = sentence.find(hit)
        if at >= 0 and _DENIAL_RUNS.search(sentence[max(0, at - 300) : at]):  # capped
            return True
    return False


def said_roots(*texts: str) -> frozenset[str]:
    """Roots of every word of an item's name and text, identifiers split at ``_``, ``-``
    and case changes: what :attr:`Delta.said` holds."""
    out: set[str] = set()
    for text in texts:
        spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|[_-]", " ", text[:MAX_DELTA_CHARS])
        out.update(_root(_key(w)) for w in _tokens(spaced))
    return frozenset(out)


def _scope_hits(pattern: re.Pattern[str], r: _Read) -> list[str]:
    """Capability and harvest words the old text lacked, outside denials and deprecations."""
    d = r.d
    old_roots = {_root(k) for k in d.old_keys}
    if pattern is not _HARVEST:
        old_roots |= d.said
    fresh = {
        w
        for w in r.added
        if not _stems(w) & d.old_keys and _root(w) not in old_roots and not _same_act(w, d)
    }
    if pattern is _ACTION and d.rewrite and any(map(_ACTED.fullmatch, d.old_keys)):
        return []  # "E-mails a statement" retold as "Sends a statement by e-mail"
    hits = _verb_hits(pattern, r.text) if pattern is _ACTION else _undenied(pattern, r.text)
    if pattern is _CAPABILITY:
        hits = [h for h in hits if h not in _NEGATED_SCOPE or not _NEGATED.search(r.text)]
        hits = [
            h
            for h in hits
            if not (_GRANTED.fullmatch(h) and _defines_term(_sentence_of(r.text, r.text.find(h))))
        ]
    if "deprecat" in r.text:
        # "Deprecated: removed in v3.0, when downloads follow the sharing settings": what a
        # deprecation note names is what goes away.
        retired = _retired_words(r.text)
        hits = [h for h in hits if h not in retired]
    # "may be shared" where the old text only banned sharing: the leave is what is new.
    found = [h for h in hits if _touches(h, fresh) or (h.startswith("may ") and "may" in fresh)]
    if found and d.retold:
        found = [h for h in found if _ACT_VERB.match(h) or not _in_retold_denial(h, d.retold)]
    if found and r.steering != r.live:
        # "If a patient asks to delete their records, do not delete anything": an act
        # named inside care is what the care is about.
        kept = set(
            _verb_hits(pattern, r.steering)
            if pattern is _ACTION
            else _undenied(pattern, r.steering)
        )
        found = [h for h in found if h in kept or not _ACT_VERB.match(h)]
    return found


def _claim_words(hit: str) -> str:
    """A claim's words without articles: "without an approval_id" is "without approval_id"."""
    return " ".join(w for w in hit.split() if w not in ("a", "an", "the"))


def _claims(r: _Read) -> list[str]:
    found = [h for h in _claim_hits(r.live) if _touches(h, r.added)]
    if found:
        # "Only payees already saved and approved" said again: the old claim.
        said = {_claim_words(h) for h in _claim_hits(r.d.old_text)}
        found = [h for h in found if _claim_words(h) not in said]
    return found


_NAMED_AGENTS = re.compile(r"(?<=[a-z,] )(?!AI\b)[A-Z][A-Za-z]{2,}(?: [A-Z][A-Za-z]+)? agents?\b")


def _agents_named(raw: list[str]) -> bool:
    """Every "agent" the new sentences mention belongs to a named organisation."""
    return _every_agent(_NAMED_AGENTS, raw)


def _every_agent(kind: re.Pattern[str], texts: Sequence[str]) -> bool:
    """``texts`` mention an agent, and every mention is one ``kind`` matches."""
    named = sum(len(kind.findall(x)) for x in texts)
    return named > 0 and named == sum(len(_ANY_AGENT.findall(x)) for x in texts)


_ANY_AGENT = re.compile(r"\bagents?\b", re.I)
_SOFTWARE_AGENT = re.compile(
    r"\b(?:management|monitoring|endpoint|edr|xdr|mdm|backup|sensor|ssh|build|update|install|"
    r"deployment|collection|collector|logging|telemetry|device|host|software|patch|security|"
    r"inventory|antivirus|av|puppet|chef|datadog|zabbix|crowdstrike|osquery|wazuh)[ -]agents?\b"
    r"|\b(?:reported|sent|collected|installed|gathered|read|measured|recorded|detected|seen) "
    r"by (?:the |an? |its |their )?agents?\b"
)


def _software_agents(text: str) -> bool:
    """Every "agent" in ``text`` is a program on a machine ("the EDR agent", "reported by
    the agent"), not the model being addressed."""
    return _every_agent(_SOFTWARE_AGENT, [text])


def _orders(pattern: re.Pattern[str], r: _Read) -> list[str]:
    """Directive and condition phrases, without the ones the old text already gave."""
    d, live = r.d, r.live
    quiet = pattern in (_CONDITION, _ADDRESSEE, _IMPERATIVE, _MAKE_SURE)
    found = [h for h in _hits(pattern, r.steering if quiet else live) if _touches(h, r.added)]
    if pattern is _CONDITION:
        found = [
            h
            for h in found
            if not _only_when_before(h, live)
            and not _what_follows(h, live)
            and not _error_case(h, live)
        ]
    if pattern is _ADDRESSEE and re.search(r"\bagents?\b", d.old_text):
        # "for the agent to review": the server's own word for its people.
        found = [h for h in found if h.casefold() not in ("agent", "agents")]
    if pattern is _ADDRESSEE and _software_agents(live):
        # "as reported by the management agent": a program on a host, not the model.
        found = [h for h in found if h.casefold() not in ("agent", "agents")]
    if pattern is _ADDRESSEE and _agents_named(d.raw):
        # "the tone TicketHive agents use": a named organisation's people, not the model.
        found = [h for h in found if h.casefold() not in ("agent", "agents")]
    if pattern is _ADDRESSEE and not d.rewrite:
        # "asks you to" already spoke to the model: one more "you" names no new reader.
        said = {h.casefold() for h in _hits(_ADDRESSEE, d.old_text)}
        found = [h for h in found if h.casefold() not in said]
    if pattern is _ADDRESSEE and d.rewrite and r.old_directed:
        # "Call only after ..." retold as "The assistant calls this only after ...": the
        # old text spoke to the model too; naming it is no new order.
        named = _NAMES_MODEL if _YOU_LEAVE.search(live) else _NAMES_MODEL | {"you"}
        found = [h for h in found if h.casefold() not in named]
    if pattern is _IMPERATIVE and d.old_forbidden:
        found = [h for h in found if not _same_ban(h, live, d.old_forbidden)]
    if pattern is _IMPERATIVE and d.rewrite:
        found = [h for h in found if not _told_before(h, d.old_keys)]
    if pattern is _IMPERATIVE and d.lead:
        # "Suggest a name for the branch": the lead of a prompt says what it does.
        found = [h for h in found if not (_ADVISE_LEAD.match(h) and d.lead.startswith(h.strip()))]
    if pattern is _ADDRESSEE and "you" in {h.casefold() for h in found}:
        found = [h for h in found if h.casefold() != "you" or not _only_argument_you(live)]
    return found


_PHRASES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("override", _OVERRIDE),
    ("authority", _AUTHORITY),
    ("condition", _CONDITION),
    ("sequencing", _SEQUENCE),
    ("directive", _ADDRESSEE),
    ("directive", _IMPERATIVE),
    ("capability", _CAPABILITY),
    ("directive", _FILL),
    ("directive", _MAKE_SURE),
    ("directive", _CONCEAL),
    ("directive", _LEADING_ORDER),
    ("harvest", _HARVEST),
    ("capability", _ACTION),
)


_GATE_KINDS = frozenset(["condition", "sequencing", "directive"])
_GATE_WORDS = frozenset(
    ["after", "before", "once", "when", "whenever", "if", "unless", "until", "only", "first"]
)
"""How a gate is told ("only after asking", "once they confirm"): not what it waits for."""


def _gate_retold(hit: str, d: Delta) -> bool:
    """ "after asking the user", "if the user": in a rewrite that keeps every rule, an
    order or condition told only in the old text's words, inside a sentence that retells
    one of those rules, is that rule's gate."""
    if not any(hit in sentence for sentence in d.retold or ()):
        return False
    words = [_key(w) for w in _TOKEN.findall(hit) if w not in _SENTENCE_END]
    roots = {_root(k) for k in d.old_keys}
    told = [w for w in words if w not in _GATE_WORDS]
    return bool(told) and all(w in d.old_keys or _root(w) in roots for w in told)


def _ordered_before(verb: str, old: str) -> bool:
    """The old text already ordered this verb ("offer at least two options"): "always
    offer" retells that order."""
    return bool(re.search(r"(?:^|[:.;,!?\n]\s*|\band\s|\d\.\s)" + re.escape(verb) + r"\b", old))


def _phrase_signals(r: _Read) -> list[Signal]:
    out: list[Signal] = []
    for kind, pattern in _PHRASES:
        if kind in ("capability", "harvest"):  # a scope word counts if the old text lacked it
            found = _scope_hits(pattern, r)
        elif pattern is _SEQUENCE:
            hits = _sequence_hits(r.steering) + _chain_hits(r.live)
            found = [h for h in hits if _touches(h, r.added)]
        elif pattern is _AUTHORITY:
            found = _claims(r)
        else:
            found = _orders(pattern, r)
        if r.d.retold and kind in _GATE_KINDS:
            found = [h for h in found if not _gate_retold(h, r.d)]
        if found:
            out.append(Signal(kind, tuple(dict.fromkeys(found))))
    ranked = [
        h
        for h in _undenied(_RANKS_BY, r.live)
        if _touches(h, r.added)
        and not _DENIAL_INSIDE.search(h)  # "must never be used to rank"
        and _PEOPLE.search(_sentence_of(r.live, r.live.find(h)))  # "criteria ... are rejected"
        and not _JUDGE_NOUN.search(h)  # "the screening partner's form"
    ]
    if ranked:
        out.append(Signal("protected", tuple(dict.fromkeys(ranked))))
    waived = _waived_consent(r.d.context, r.added)
    if waived:
        said = set(_waived_consent(_sentences(r.d.old_text)[:_MAX_RULES], r.d.old_keys))
        waived = [w for w in waived if w not in said]  # the old text's own wording
    if waived:
        out.append(Signal("authority", tuple(waived)))
    always = [
        m.group(0)
        for m in _ALWAYS.finditer(r.steering)
        if _touches(m.group(0), r.added) and not _ordered_before(m.group(1), r.d.old_text)
    ]
    if always:
        out.append(Signal("directive", tuple(always)))
    return out


_SUCCEEDS = re.compile(
    r"\b(?:in favou?r of|(?:is |are |will be )?(?:replaced|superseded) by)\s+`?$"
)


def _successor(hit: str, text: str) -> bool:
    """The name a deprecation note points to ("deprecated ... in favour of page_token";
    the deprecation words themselves are dropped before the text is read): the field's
    successor, not a new thing for the model to use."""
    at = text.find(hit)
    return at > 0 and bool(_SUCCEEDS.search(text, max(0, at - 40), at))


def _entity_signals(d: Delta, text: str, added: set[str], known: frozenset[str]) -> list[Signal]:
    out: list[Signal] = []
    entities = [
        h
        for pattern in (_LOCATOR, _PATH, _SECRET_NAME, _CODE)
        for h in _hits(pattern, text)
        if _touches(h, added)
        and not (pattern is _LOCATOR and known_locator(h, known))
        and not (pattern is not _LOCATOR and _successor(h, text))
        and not (pattern is _LOCATOR and d.old_text and h in d.old_text)  # the link, moved
    ]
    if entities:
        out.append(Signal("entity", tuple(dict.fromkeys(entities))))
    encoded = [
        f"{run.encoding}: {run.text[:40]}"
        for sentence in d.raw
        for run in decode_runs(sentence)
        if _touches(_fold(sentence[run.start : run.end]), added)
    ]
    encoded += [
        f"percent-encoding: {urllib.parse.unquote(run, errors='replace')[:40]}"
        for sentence in d.raw
        for run in _percent_prose(sentence)
        if _touches(_fold(run), added)
    ]
    if encoded:
        out.append(Signal("entity", tuple(encoded)))
    return out


def signals(
    d: Delta, known_hosts: frozenset[str] = frozenset(), said: frozenset[str] = frozenset()
) -> list[Signal]:
    """What the added words can make a model do, each with the words that drove it.

    ``known_hosts``: hosts the server's pinned surface already names; a link to one is not
    a new entity (the same docs link added to one more tool). ``said``: see :attr:`Delta.said`.
    """
    if said:
        d.said = said
    added = {_key(w) for w in d.added}
    if not added and not d.flips:
        return []
    r = _read(d, added)
    out = _phrase_signals(r) + _entity_signals(d, r.text, added, known_hosts)
    if d.flips:
        out.append(Signal("flip", tuple(d.flips)))
    foreign = _language(d.added, frozenset(_names(d.raw))) or _unreadable(d.raw, added)
    if foreign:
        out.append(Signal("language", tuple(foreign)))
    return out


def text_signals(
    old: str,
    new: str,
    known_hosts: frozenset[str] = frozenset(),
    said: frozenset[str] = frozenset(),
) -> list[Signal]:
    return signals(delta(old, new), known_hosts, said)
