"""Semantic diff of a pinned surface against a captured one.

Items are matched by key, so the order tools arrive in never matters, and compared as
key-sorted JSON, so key order never matters either, nor does the order of ``required`` names
or of a ``type`` array. Each modified item carries the list of
leaf fields that moved, with paths such as ``inputSchema.properties.path.type``. A removed
and an added item whose definitions are near-identical apart from the name are reported
as one rename, which is how a reviewer thinks of it; so is one whose old description
survives whole inside a longer new one. Failure direction of the pairing: two unrelated
tools with near-identical schemas and one description containing the other are reported
as a rename (its text change still grades high), and a rename that also rewrites most of
the definition, or one among more than ``MAX_LOOSE_PAIRS`` unpaired candidates, is reported
as a removal plus an addition.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from mcplock_tui.core.canonical import canon_json, item_digest, same_json
from mcplock_tui.core.groups import natural_key
from mcplock_tui.core.model import (
    ITEM_KINDS,
    JSON,
    PROMPT_MESSAGES_KEY,
    SINGLETON_KINDS,
    ChangeType,
    Kind,
    Surface,
)


class _Missing:
    """Marks a field that is absent on one side (distinct from an explicit null)."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()

RENAME_THRESHOLD = 0.85
"""Similarity (0..1) of two definitions, names left out, above which remove+add is a rename."""
CONTAINED_THRESHOLD = 0.9
"""Share of the old description that must survive in the new one to pair on containment."""
CONTAINED_REST = 0.95
"""How close the other half (description or rest) must be for a containment pairing."""
MAX_LOOSE_PAIRS = 2_500
"""Above this many pairs left unpaired, containment is not tried (it costs a full diff each)."""
MIN_CONTAINED_TEXT = 20
"""Shorter old descriptions say too little to pair on containment."""
MIN_CONTAINED_REST = 60
"""Shorter definitions (an empty object schema and little else) match any tool's."""
MAX_PAIR_UNITS = 1_000_000
"""Largest ``len(a) * len(b)`` compared in order for one pair (characters, then tokens)."""
MAX_COMPARE_UNITS = 20_000_000
"""Ordered-comparison work one diff may spend on rename pairing, all pairs together."""


@dataclass(frozen=True, slots=True)
class FieldChange:
    path: str
    old: JSON = MISSING
    new: JSON = MISSING


@dataclass(frozen=True, slots=True)
class Change:
    """One drifted item: what moved, nothing about how bad (grading wraps it, see
    :class:`~mcplock_tui.core.graded.GradedChange`)."""

    server: str
    kind: Kind
    name: str
    change: ChangeType
    old: Mapping[str, JSON] | None
    new: Mapping[str, JSON] | None
    old_name: str | None = None
    fields: tuple[FieldChange, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.server}/{self.kind.value}/{self.name}"

    @property
    def old_hash(self) -> str | None:
        return None if self.old is None else item_digest(self.old)

    @property
    def new_hash(self) -> str:
        """What a decision is bound to: the new definition, or ``removed``."""
        return "removed" if self.new is None else item_digest(self.new)


_SET_LIKE = ("required", ".type")
"""Lists whose order carries no meaning: ``required`` names and ``type`` arrays."""


def _walk(old: JSON, new: JSON, path: str) -> Iterator[FieldChange]:
    # A named list that appears or disappears as a whole is still diffed per name, so a
    # prompt that gains its first argument reads as one added argument.
    if old is MISSING and isinstance(new, list) and new and _named(new):
        old = []
    elif new is MISSING and isinstance(old, list) and old and _named(old):
        new = []
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            sub = f"{path}.{key}" if path else str(key)
            yield from _walk(old.get(key, MISSING), new.get(key, MISSING), sub)
        return
    if isinstance(old, list) and isinstance(new, list):
        if path == PROMPT_MESSAGES_KEY:  # prompt messages: compared turn by turn, as text
            # Leaf by leaf while a turn keeps its shape; a turn whose text moved between keys
            # is one change of the turn, not a removal plus an addition of the same words.
            for i in range(max(len(old), len(new))):
                before = old[i] if i < len(old) else MISSING
                after = new[i] if i < len(new) else MISSING
                if _same_shape(before, after):
                    yield from _walk(before, after, f"{path}[{i}]")
                elif (
                    before is MISSING or after is MISSING or canon_json(before) != canon_json(after)
                ):
                    yield FieldChange(f"{path}[{i}]", before, after)
            return
        if path.endswith(_SET_LIKE) and all(isinstance(v, str) for v in (*old, *new)):
            if set(old) != set(new):
                yield FieldChange(path, old, new)
            return
        if _named(old) and _named(new):
            old_by = {v["name"]: v for v in old}
            new_by = {v["name"]: v for v in new}
            for key in sorted(set(old_by) | set(new_by)):
                sub = f"{path}[{key}]"
                yield from _walk(old_by.get(key, MISSING), new_by.get(key, MISSING), sub)
            return
    if old is MISSING and new is MISSING:
        return
    if old is MISSING or new is MISSING or canon_json(old) != canon_json(new):
        yield FieldChange(path, old, new)


def _same_shape(a: Any, b: Any, depth: int = 0) -> bool:
    """Same keys at every level and the same kinds of value (strings may differ)."""
    if depth > 50:
        return False
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_shape(a[k], b[k], depth + 1) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(
            _same_shape(x, y, depth + 1) for x, y in zip(a, b, strict=True)
        )
    return type(a) is type(b) and a is not MISSING


def _named(values: list[Any]) -> bool:
    """A list of objects with unique string names (prompt arguments) is diffed by name."""
    names = [v.get("name") for v in values if isinstance(v, dict)]
    return (
        len(names) == len(values)
        and all(isinstance(n, str) for n in names)
        and len(set(names)) == len(names)
    )


def field_changes(old: Mapping[str, JSON], new: Mapping[str, JSON]) -> tuple[FieldChange, ...]:
    return tuple(_walk(dict(old), dict(new), ""))


class _Budget:
    """Work units (product of compared lengths) left for the quadratic comparisons of one diff.

    ``SequenceMatcher`` costs up to ``len(a) * len(b)`` on repetitive text, so each pair
    pays that product up front; past the per-pair cap or the budget, pairs are scored on
    word tokens and then on token counts alone, which are linear.
    """

    def __init__(self, units: int = MAX_COMPARE_UNITS) -> None:
        self.units = units

    def take(self, cost: int) -> bool:
        if cost > MAX_PAIR_UNITS or cost > self.units:
            return False
        self.units -= cost
        return True


_TOKEN = re.compile(r"\w+|[^\w\s]")


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _dice(a: Counter[str], b: Counter[str]) -> float:
    """Shared share of two token multisets: an upper bound of the ordered ratio."""
    total = sum(a.values()) + sum(b.values())
    if not total:
        return 1.0
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    return 2 * sum(min(n, large[t]) for t, n in small.items()) / total


def _ratio(a: str, b: str, budget: _Budget) -> float:
    if a == b:
        return 1.0
    if 2 * min(len(a), len(b)) < RENAME_THRESHOLD * (len(a) + len(b)):
        return 0.0  # lengths alone rule it out
    if budget.take(len(a) * len(b)):
        matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
        if matcher.quick_ratio() < RENAME_THRESHOLD:
            return 0.0
        return matcher.ratio()
    ta, tb = _tokens(a), _tokens(b)
    score = _dice(Counter(ta), Counter(tb))
    if score < RENAME_THRESHOLD or not budget.take(len(ta) * len(tb)):
        return score if score >= RENAME_THRESHOLD else 0.0
    return difflib.SequenceMatcher(None, ta, tb, autojunk=False).ratio()


def _kept(a: str, b: str, budget: _Budget) -> float:
    """Share of ``a`` that survives, in order, inside ``b`` (text appended or wrapped)."""
    if not a:
        return 0.0
    if a in b:
        return 1.0
    have = Counter(b)
    if sum(min(n, have[ch]) for ch, n in Counter(a).items()) < CONTAINED_THRESHOLD * len(a):
        return 0.0  # cheap bound first: not even the characters are there
    if budget.take(len(a) * len(b)):
        matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
        return sum(block.size for block in matcher.get_matching_blocks()) / len(a)
    ta, tb = _tokens(a), _tokens(b)
    if not ta or not budget.take(len(ta) * len(tb)):
        return 0.0  # too long to compare in order: reported as removal plus addition
    blocks = difflib.SequenceMatcher(None, ta, tb, autojunk=False).get_matching_blocks()
    return sum(block.size for block in blocks) / len(ta)


def _text(item: Mapping[str, JSON]) -> str:
    value = item.get("description")
    return value if isinstance(value, str) else ""


_Halves = tuple[str, str]


def _halves(item: Mapping[str, JSON]) -> _Halves:
    """(description, canonical JSON of the rest): names, titles and URIs are left out."""
    strip = ("name", "title", "description", "uri", "uriTemplate")
    return _text(item), canon_json({k: v for k, v in item.items() if k not in strip})


def _similarity(old: _Halves, new: _Halves, budget: _Budget) -> float:
    """Description and the rest of the definition must both be close; names are left out."""
    (a_text, a_rest), (b_text, b_rest) = old, new
    rest = _ratio(a_rest, b_rest, budget)
    return 0.0 if rest < RENAME_THRESHOLD else min(rest, _ratio(a_text, b_text, budget))


def _containment(old: _Halves, new: _Halves, budget: _Budget) -> float:
    """How much of one half survives inside the new one while the other half stays close.

    Text added at the moment of a rename (a sentence appended to the description, a clause
    to a parameter's) is the change a reviewer most needs to see against the old
    definition, not as a brand-new tool. 0.0 when the pair does not qualify.
    """
    (a_text, a_rest), (b_text, b_rest) = old, new
    if len(a_text) < MIN_CONTAINED_TEXT or len(a_rest) < MIN_CONTAINED_REST:
        return 0.0
    best = 0.0
    if _ratio(a_rest, b_rest, budget) >= CONTAINED_REST:
        best = max(best, _kept(a_text, b_text, budget))
    if _ratio(a_text, b_text, budget) >= CONTAINED_REST:
        best = max(best, _kept(a_rest, b_rest, budget))
    return best if best >= CONTAINED_THRESHOLD else 0.0


def _greedy(scored: list[tuple[float, str, str]], pairs: list[tuple[str, str]]) -> None:
    """Best score first, each key used once; ties fall to key order, so runs are stable."""
    used_old = {o for o, _ in pairs}
    used_new = {n for _, n in pairs}
    for _score, old_key, new_key in sorted(scored):
        if old_key not in used_old and new_key not in used_new:
            pairs.append((old_key, new_key))
            used_old.add(old_key)
            used_new.add(new_key)


def _pair_renames(
    removed: dict[str, Mapping[str, JSON]], added: dict[str, Mapping[str, JSON]]
) -> list[tuple[str, str]]:
    """Exact matches by hash first, then scored pairs, each comparison within one budget."""
    halves_old = {k: _halves(v) for k, v in removed.items()}
    halves_new = {k: _halves(v) for k, v in added.items()}
    pairs: list[tuple[str, str]] = []
    by_sig: dict[_Halves, list[str]] = {}
    for key, sig in sorted(halves_new.items()):
        by_sig.setdefault(sig, []).append(key)
    for key, sig in sorted(halves_old.items()):
        if by_sig.get(sig):
            pairs.append((key, by_sig[sig].pop(0)))  # the same definition under a new name
    budget = _Budget()
    rest_old = {k: v for k, v in halves_old.items() if k not in {o for o, _ in pairs}}
    rest_new = {k: v for k, v in halves_new.items() if k not in {n for _, n in pairs}}
    strict = [
        (-score, old_key, new_key)
        for old_key, old in sorted(rest_old.items())
        for new_key, new in sorted(rest_new.items())
        if (score := _similarity(old, new, budget)) >= RENAME_THRESHOLD
    ]
    _greedy(strict, pairs)
    rest_old = {k: v for k, v in rest_old.items() if k not in {o for o, _ in pairs}}
    rest_new = {k: v for k, v in rest_new.items() if k not in {n for _, n in pairs}}
    if rest_old and rest_new and len(rest_old) * len(rest_new) <= MAX_LOOSE_PAIRS:
        loose = [
            (-score, old_key, new_key)
            for old_key, old in sorted(rest_old.items())
            for new_key, new in sorted(rest_new.items())
            if (score := _containment(old, new, budget)) > 0.0
        ]
        _greedy(loose, pairs)
    return pairs


def diff_surfaces(server: str, old: Surface, new: Surface) -> list[Change]:
    """Ungraded changes, in a stable order (kind, then name in natural order)."""
    changes: list[Change] = []
    for kind in ITEM_KINDS:
        before, after = old.items(kind), new.items(kind)
        removed = {k: v for k, v in before.items() if k not in after}
        added = {k: v for k, v in after.items() if k not in before}
        renames = _pair_renames(removed, added) if removed and added else []
        for old_key, new_key in renames:
            changes.append(
                Change(
                    server,
                    kind,
                    new_key,
                    ChangeType.RENAMED,
                    removed.pop(old_key),
                    added[new_key],
                    old_name=old_key,
                    fields=field_changes(before[old_key], added.pop(new_key)),
                )
            )
        for key, item in removed.items():
            changes.append(Change(server, kind, key, ChangeType.REMOVED, item, None))
        for key, item in added.items():
            changes.append(Change(server, kind, key, ChangeType.ADDED, None, item))
        for key in before.keys() & after.keys():
            if not same_json(before[key], after[key]):  # a pinned item's digest is known
                fields = field_changes(before[key], after[key])
                if fields:  # e.g. only the order of `required` moved: not a change
                    changes.append(
                        Change(
                            server,
                            kind,
                            key,
                            ChangeType.MODIFIED,
                            before[key],
                            after[key],
                            fields=fields,
                        )
                    )
    for kind in SINGLETON_KINDS:
        a, b = old.singleton(kind), new.singleton(kind)
        if (a is None and b is None) or (a is not None and b is not None and same_json(a, b)):
            continue
        change = (
            ChangeType.ADDED
            if a is None
            else ChangeType.REMOVED
            if b is None
            else ChangeType.MODIFIED
        )
        fields = field_changes(a or {}, b or {})
        if a is not None and b is not None and not fields:
            continue
        changes.append(Change(server, kind, kind.value, change, a, b, fields=fields))
    changes.sort(key=lambda c: (list(Kind).index(c.kind), natural_key(c.name)))
    return changes
