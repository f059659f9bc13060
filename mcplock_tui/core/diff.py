"""Semantic diff of a pinned surface against a captured one.

Items are matched by key, so the order tools arrive in never matters, and compared as
key-sorted JSON, so key order never matters either. Each modified item carries the list of
leaf fields that moved, with paths such as ``inputSchema.properties.path.type``. A removed
and an added item whose definitions are near-identical apart from the name are reported
as one rename, which is how a reviewer thinks of it.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from mcplock_tui.core.canonical import canon_json, digest
from mcplock_tui.core.lockfile import Rejection
from mcplock_tui.core.model import (
    ITEM_KINDS,
    JSON,
    SINGLETON_KINDS,
    ChangeType,
    Finding,
    Kind,
    Reason,
    Severity,
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


@dataclass(frozen=True, slots=True)
class FieldChange:
    path: str
    old: JSON = MISSING
    new: JSON = MISSING


@dataclass(frozen=True, slots=True)
class Change:
    """One drifted item. ``severity``/``reasons``/``findings`` are filled in by grading."""

    server: str
    kind: Kind
    name: str
    change: ChangeType
    old: Mapping[str, JSON] | None
    new: Mapping[str, JSON] | None
    old_name: str | None = None
    fields: tuple[FieldChange, ...] = ()
    severity: Severity = Severity.HIGH
    reasons: tuple[Reason, ...] = ()
    findings: tuple[Finding, ...] = ()
    rejection: Rejection | None = None
    """Set when a reviewer already refused exactly this new definition."""
    explain: Mapping[str, Any] | None = field(default=None, compare=False)

    @property
    def id(self) -> str:
        return f"{self.server}/{self.kind.value}/{self.name}"

    @property
    def old_hash(self) -> str | None:
        return None if self.old is None else digest(self.old)

    @property
    def new_hash(self) -> str:
        """What a decision is bound to: the new definition, or ``removed``."""
        return "removed" if self.new is None else digest(self.new)

    @property
    def status(self) -> str:
        return "rejected" if self.rejection is not None else "pending"


def _walk(old: JSON, new: JSON, path: str) -> Iterator[FieldChange]:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            sub = f"{path}.{key}" if path else str(key)
            yield from _walk(old.get(key, MISSING), new.get(key, MISSING), sub)
        return
    if isinstance(old, list) and isinstance(new, list):
        if path.endswith("required") and all(isinstance(v, str) for v in (*old, *new)):
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


def _ratio(a: str, b: str) -> float:
    if a == b:
        return 1.0
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < RENAME_THRESHOLD or matcher.quick_ratio() < RENAME_THRESHOLD:
        return 0.0
    return matcher.ratio()


def _similarity(old: Mapping[str, JSON], new: Mapping[str, JSON]) -> float:
    """Description and the rest of the definition must both be close; names are left out."""
    strip = ("name", "title", "description", "uri", "uriTemplate")
    a_text, b_text = old.get("description"), new.get("description")
    text = _ratio(
        a_text if isinstance(a_text, str) else "", b_text if isinstance(b_text, str) else ""
    )
    rest = _ratio(
        canon_json({k: v for k, v in old.items() if k not in strip}),
        canon_json({k: v for k, v in new.items() if k not in strip}),
    )
    return min(text, rest)


def _pair_renames(
    removed: dict[str, Mapping[str, JSON]], added: dict[str, Mapping[str, JSON]]
) -> list[tuple[str, str]]:
    scored = []
    for old_key, old in removed.items():
        for new_key, new in added.items():
            score = _similarity(old, new)
            if score >= RENAME_THRESHOLD:
                scored.append((-score, old_key, new_key))
    pairs: list[tuple[str, str]] = []
    used_old: set[str] = set()
    used_new: set[str] = set()
    for _score, old_key, new_key in sorted(scored):
        if old_key not in used_old and new_key not in used_new:
            pairs.append((old_key, new_key))
            used_old.add(old_key)
            used_new.add(new_key)
    return pairs


def diff_surfaces(server: str, old: Surface, new: Surface) -> list[Change]:
    """Ungraded changes, in a stable order (kind, then name)."""
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
            if canon_json(before[key]) != canon_json(after[key]):
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
        if (a is None and b is None) or (
            a is not None and b is not None and canon_json(a) == canon_json(b)
        ):
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
    changes.sort(key=lambda c: (list(Kind).index(c.kind), c.name))
    return changes
