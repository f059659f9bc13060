"""Drift you can act on: natural order, groups of like changes, and glob selectors.

A real upgrade can add a hundred resources that differ only in a number
(``test://static/resource/1`` … ``/100``); listed one by one they bury the one change that
matters. Changes are grouped when they are of the same server, kind and change type, their
names have the same *shape* (digit runs replaced by ``{n}``), and they were graded for the same
reasons (messages compared by shape too, as a reason may name the item or its siblings) with
the same findings: one line says "100 resources added under test://static/resource/{n}", and
one decision covers them all.

Which way it fails: a group hides only numbers. Reasons that differ in any other way (two
new hosts ``alpha.example`` and ``beta.example``) keep their changes apart, while reasons that
differ only in a number (hosts ``h1.example``, ``h2.example``) are grouped and shown once, as
the first member's (every new host is still listed per server); changes that are alike but
whose names do not share a shape (``alpha``, ``beta``) are not grouped.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING

from mcplock_tui.core.model import Kind, Severity

if TYPE_CHECKING:  # diff sorts with natural_key, so it cannot be imported here at run time
    from mcplock_tui.core.graded import GradedChange

MIN_GROUP = 3
"""Fewer alike changes than this are listed one by one."""
_DIGITS = re.compile(r"(\d+)")
_GLOB = re.compile(r"[*?\[]")
_PLURAL = {
    Kind.TOOL: "tools",
    Kind.PROMPT: "prompts",
    Kind.RESOURCE: "resources",
    Kind.RESOURCE_TEMPLATE: "resource templates",
    Kind.INSTRUCTIONS: "instructions",
    Kind.SERVER: "server entries",
}


NaturalKey = tuple[tuple[str | tuple[int, str], ...], str]


def natural_key(text: str) -> NaturalKey:
    """Sort key that reads digit runs as numbers: 1, 2, 10, 11, 100 (not 1, 10, 100, 11).

    ``re.split`` with a group alternates text and digits, so position ``i`` of every key holds
    the same type (text at even, number at odd) and keys always compare. A number is compared
    as (digit count, digits) without leading zeros: numeric order without ``int()``, which
    refuses the 5,000-digit runs a hostile name can hold.
    """
    parts = _DIGITS.split(text.casefold())
    return tuple(_number(p) if i % 2 else p for i, p in enumerate(parts)), text


def _number(digits: str) -> tuple[int, str]:
    bare = digits.lstrip("0")
    return len(bare), bare


def natural_sorted(names: Iterable[str]) -> list[str]:
    return sorted(names, key=natural_key)


def change_order(change: GradedChange) -> tuple[int, int, NaturalKey]:
    """Report order: worst first, then kind, then name in natural order."""
    return (-change.severity, list(Kind).index(change.kind), natural_key(change.name))


def shape(name: str) -> str:
    """The name with every digit run replaced by ``{n}``."""
    return _DIGITS.sub("{n}", name)


@dataclass(frozen=True, slots=True)
class Group:
    """Alike changes: shown as one line, expandable, decided together."""

    server: str
    kind: Kind
    change: str
    pattern: str
    """The shared name shape, e.g. ``test://static/resource/{n}``."""
    members: tuple[GradedChange, ...]

    @property
    def severity(self) -> Severity:
        return max(c.severity for c in self.members)

    @property
    def id(self) -> str:
        return f"{self.server}/{self.kind.value}/{self.pattern}"

    @property
    def selector(self) -> str:
        """A glob selector that ``accept``/``reject`` resolve to exactly these changes' shape."""
        return f"{self.server}/{self.kind.value}/{self.pattern.replace('{n}', '*')}"

    @property
    def label(self) -> str:
        where = "under" if "/" in self.pattern else "matching"
        noun = _PLURAL[self.kind]
        return f"{len(self.members)} {noun} {self.change} {where} {self.pattern}"


def _likeness(c: GradedChange, rejected: bool) -> tuple[object, ...]:
    reasons = tuple((r.category, int(r.severity), shape(r.message), r.path) for r in c.reasons)
    findings = tuple((f.code, f.path) for f in c.findings)
    return (c.server, c.kind, c.change, shape(c.name), int(c.severity), reasons, findings, rejected)


def group_changes(
    changes: Sequence[GradedChange],
    min_size: int = MIN_GROUP,
    *,
    rejected: Container[str] = (),
) -> list[Group]:
    """Groups of at least ``min_size`` alike changes whose names contain a number, in report
    order; every other change stays on its own. Changes whose id is in ``rejected`` are
    grouped apart from pending ones: a group is decided as one."""
    buckets: dict[tuple[object, ...], list[GradedChange]] = {}
    for c in changes:
        if _DIGITS.search(c.name) and c.old_name is None:
            buckets.setdefault(_likeness(c, c.id in rejected), []).append(c)
    groups = [
        Group(
            server=members[0].server,
            kind=members[0].kind,
            change=members[0].change.value,
            pattern=shape(members[0].name),
            members=tuple(sorted(members, key=change_order)),
        )
        for members in buckets.values()
        if len(members) >= min_size
    ]
    groups.sort(key=lambda g: change_order(g.members[0]))
    return groups


def is_glob(pattern: str) -> bool:
    return bool(_GLOB.search(pattern))


def name_matches(pattern: str, name: str | None) -> bool:
    """Exact name, or a shell-style glob (``get_*``, ``resource/?``) over the whole name."""
    if name is None:
        return False
    return pattern == name or (is_glob(pattern) and fnmatchcase(name, pattern))
