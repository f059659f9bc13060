"""Grade changes: structural reasons + detector findings on new text + lint drift + policy.

A finding only counts against a change when the change introduced it: findings already
present in the pinned definition (same rule, field and excerpt) were reviewed at pin time
and are reported as known instead. Only changed items are scanned, which keeps a check of
thousands of tools fast.

Analysis is bounded: a string longer than :data:`MAX_FIELD_CHARS` is analysed by its head
and tail only, and once a server's changes have used :data:`MAX_SERVER_CHARS` of text the
rest are not scanned. Either cap adds an ``analysis-capped`` reason (high) to the item it
touched, so a cap is never a silent pass.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from mcplock_tui.core.canonical import has_hidden
from mcplock_tui.core.detectors.base import ScanContext
from mcplock_tui.core.detectors.foreign_names import ForeignTools
from mcplock_tui.core.detectors.normalize import skeleton
from mcplock_tui.core.diff import Change
from mcplock_tui.core.graded import GradedChange
from mcplock_tui.core.hosts import URI_FIELDS, item_hosts, known_place, surface_places
from mcplock_tui.core.model import (
    JSON,
    ChangeType,
    Finding,
    Kind,
    Origin,
    Reason,
    Severity,
    Surface,
)
from mcplock_tui.core.policy import Policy
from mcplock_tui.core.rules import get_rule
from mcplock_tui.core.scan_memo import ScanMemo


@dataclass(frozen=True, slots=True)
class GradeContext:
    server: str
    foreign_tools: Mapping[str, str] = field(default_factory=dict)
    """Tools of the other configured servers: name -> server."""
    policy: Policy = field(default_factory=Policy)
    known_hosts: frozenset[str] = frozenset()
    """Hosts the pinned surface already names (resource URIs, URLs in any text)."""
    own_tools: frozenset[str] = frozenset()
    """This server's own tool names (pinned and live): naming them is not steering."""
    memo: ScanMemo | None = field(default=None, compare=False)
    """Findings of earlier scans by exact input (see :mod:`.scan_memo`); None: scan all."""

    def detector_context(self) -> ScanContext:
        foreign = ForeignTools(self.foreign_tools, self.own_tools)  # a view, not a copy per item
        return ScanContext(foreign_tools=foreign, server=self.server)


MAX_FIELD_CHARS = 65_536
"""Longest string analysed whole; longer ones are analysed by head and tail."""
_HEAD, _TAIL = 49_152, 16_384
MAX_SERVER_CHARS = 8_000_000
"""Text one server's changes may have scanned before the rest are graded unscanned."""


def _clip(value: Any, path: str, cut: list[tuple[str, int]], depth: int = 0) -> Any:
    """``value`` with every over-long string cut to head and tail; cut paths recorded.

    What holds no over-long string is returned as it is, not copied: a drifted server's
    changes are held twice otherwise while they are graded."""
    if isinstance(value, str):
        if len(value) <= MAX_FIELD_CHARS:
            return value
        cut.append((path, len(value)))
        return value[:_HEAD] + " … " + value[-_TAIL:]
    if depth > 250:  # surfaces are refused deeper than this already
        return value
    if isinstance(value, dict):
        items = [
            (k, v, _clip(v, f"{path}.{k}" if path else str(k), cut, depth + 1))
            for k, v in value.items()
        ]
        if all(c is v for _, v, c in items):
            return value
        return {k: c for k, _, c in items}
    if isinstance(value, list):
        clipped = [_clip(v, f"{path}[{i}]", cut, depth + 1) for i, v in enumerate(value)]
        return value if all(c is v for c, v in zip(clipped, value, strict=True)) else clipped
    return value


def _size(value: Any, depth: int = 0) -> int:
    if isinstance(value, str):
        return len(value)
    if depth > 250:
        return 0
    if isinstance(value, dict):
        return sum(len(str(k)) + _size(v, depth + 1) for k, v in value.items())
    if isinstance(value, list):
        return sum(_size(v, depth + 1) for v in value)
    return 8


@dataclass(slots=True)
class _Bounded:
    """The definitions of one change as analysed (clipped), and the notes on what was cut."""

    old: Mapping[str, JSON] | None
    new: Mapping[str, JSON] | None
    notes: list[Reason]
    scanned: bool = True


def _plain(item: Mapping[str, JSON]) -> dict[str, JSON]:
    return item if isinstance(item, dict) else dict(item)


def _bounded(change: Change, spent: int) -> tuple[_Bounded, int]:
    cut: list[tuple[str, int]] = []
    old = _clip(_plain(change.old), "", cut) if change.old is not None else None
    new = _clip(_plain(change.new), "", cut) if change.new is not None else None
    notes = [
        Reason(
            "analysis-capped",
            Severity.HIGH,
            f"{path or 'text'} is {n:,} characters: only its first {_HEAD:,} and last "
            f"{_TAIL:,} were analysed",
            path,
        )
        for path, n in sorted(set(cut))
    ]
    cost = _size(old) + _size(new)
    if spent + cost > MAX_SERVER_CHARS:
        notes.append(
            Reason(
                "analysis-capped",
                Severity.HIGH,
                f"the analysis budget of {MAX_SERVER_CHARS:,} characters for this server "
                "was spent: this item's text was not scanned by the detectors",
            )
        )
        return _Bounded(old, new, notes, scanned=False), spent
    return _Bounded(old, new, notes), spent + cost


def known_hosts(surface: Surface) -> frozenset[str]:
    """Every host the pinned surface names, in any field, and every domain it names as
    ``*.domain`` (see :func:`~mcplock_tui.core.hosts.known_place`)."""
    return surface_places(surface)


def _host_reasons(change: Change, known: frozenset[str]) -> list[Reason]:
    """Hosts that text, defaults or metadata name for the first time (URIs are graded
    structurally, so a resource's own host is not repeated here)."""
    if change.new is None:
        return []
    from mcplock_tui.core.grading.severity import hosts_of

    before = item_hosts(change.kind, change.old)
    uri_key = URI_FIELDS.get(change.kind)
    own = hosts_of(change.new.get(uri_key)) if uri_key else set()
    return [
        Reason("host-added", Severity.HIGH, f"names new outbound host {host}", path)
        for host, path in sorted(item_hosts(change.kind, change.new).items())
        if host not in before and not known_place(host, known) and host not in own
    ]


def item_findings(
    kind: Kind, name: str, item: Mapping[str, JSON] | None, ctx: GradeContext
) -> list[Finding]:
    if item is None:
        return []
    memo = ctx.memo
    key = None if memo is None else memo.key(kind, item, ctx, ctx.detector_context)
    found = None if memo is None or key is None else memo.get(key)
    if found is None:
        # Imported here: compiling the detector patterns is wasted on a fully memoised run.
        from mcplock_tui.core.detectors.items import scan_item

        found = tuple(scan_item(kind, item, ctx.detector_context()))
        if memo is not None and key is not None:
            memo.put(key, found)
    return [replace(f, server=ctx.server, kind=kind.value, item=name) for f in found]


def scan_surface(
    server: str, surface: Surface, ctx: GradeContext, skip: Container[tuple[str, str]] = ()
) -> list[Finding]:
    """Every detector finding in a whole surface (what ``pin`` reports as known), leaving
    out the items named in ``skip`` as ``(kind, name)``."""
    out: list[Finding] = []
    for kind, name, item in surface.all_items():
        if (kind.value, name) not in skip:
            out.extend(item_findings(kind, name, item, ctx))
    return out


def _fingerprint(f: Finding) -> tuple[str, str, str]:
    # "do not show them" retold as "Do not show them": the same finding, not a new one.
    return (f.code, f.path, " ".join(f.excerpt.casefold().split()))


def new_findings(change: Change, ctx: GradeContext, view: _Bounded | None = None) -> list[Finding]:
    old, new = (view.old, view.new) if view is not None else (change.old, change.new)
    after = item_findings(change.kind, change.name, new, ctx)
    if old is None or not after:
        return after
    before = {_fingerprint(f) for f in item_findings(change.kind, change.name, old, ctx)}
    return [f for f in after if _fingerprint(f) not in before]


def _shadowing(change: Change, ctx: GradeContext, siblings: Iterable[str]) -> list[Reason]:
    """A new or renamed tool named like a tool elsewhere: calls may land on the wrong one."""
    if change.kind is not Kind.TOOL or change.change not in (ChangeType.ADDED, ChangeType.RENAMED):
        return []
    reasons: list[Reason] = []
    mine = skeleton(change.name)
    for other, server in sorted(ctx.foreign_tools.items()):
        if skeleton(other) == mine:
            how = "has the same name as" if other == change.name else "is a look-alike of"
            reasons.append(
                Reason(
                    "tool-shadowing",
                    Severity.CRITICAL,
                    f"{how} tool {other!r} on server {server!r}",
                    "name",
                )
            )
        elif _one_letter(other, change.name):
            reasons.append(
                Reason(
                    "tool-shadowing",
                    Severity.HIGH,
                    f"is one typo away from tool {other!r} on server {server!r}: calls "
                    "meant for one may land on the other",
                    "name",
                )
            )
    for other in siblings:
        if other != change.name and skeleton(other) != mine and _one_letter(other, change.name):
            reasons.append(
                Reason(
                    "tool-shadowing",
                    Severity.HIGH,
                    f"is one typo away from sibling tool {other!r}: calls meant for one "
                    "may land on the other",
                    "name",
                )
            )
    for other in siblings:
        if other != change.name and skeleton(other) == mine:
            reasons.append(
                Reason(
                    "tool-shadowing",
                    Severity.CRITICAL,
                    f"is a look-alike of sibling tool {other!r}",
                    "name",
                )
            )
    return reasons


_LOOKALIKE_MIN = 8
"""Shorter names one letter apart (``get``/``set``) are different words, not a look-alike."""


def _one_letter(a: str, b: str) -> bool:
    """``list_service`` beside ``list_services``: one letter added, dropped or changed, or
    two neighbouring letters swapped."""
    a, b = a.casefold(), b.casefold()
    if min(len(a), len(b)) < _LOOKALIKE_MIN or abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    rest = i + 1 if len(a) == len(b) else i
    if b[i].isdigit() or (rest > i and a[i].isdigit()):
        return False  # item_1 beside item_2: a numbered series, not a look-alike
    if a[rest:] == b[i + 1 :]:
        return True
    # Two neighbouring letters swapped, the commonest typo: adjust_inventroy.
    return (
        len(a) == len(b)
        and i + 1 < len(a)
        and a[i] == b[i + 1]
        and a[i + 1] == b[i]
        and not a[i + 1].isdigit()
        and a[i + 2 :] == b[i + 2 :]
    )


def _letter_scripts(name: str) -> set[str]:
    return {
        "LATIN" if ch.isascii() else unicodedata.name(ch, "UNKNOWN").split(" ")[0]
        for ch in name
        if ch.isalpha()
    }


def _name_problem(name: str) -> str | None:
    """Why a name is not what it looks like: invisible, mixed-script or look-alike letters."""
    if has_hidden(name):
        return "contains invisible characters"
    if name.isascii():
        return None
    scripts = _letter_scripts(name)
    if len(scripts) > 1:
        return f"mixes scripts ({', '.join(sorted(scripts))})"
    if skeleton(name).isascii() and skeleton(name) != name.casefold():
        return "uses look-alike letters"
    return None


def _schema_names(item: Mapping[str, JSON] | None) -> set[str]:
    item = item or {}
    schema = item.get("inputSchema")
    props = schema.get("properties") if isinstance(schema, dict) else None
    names = {str(k) for k in props} if isinstance(props, dict) else set()
    args = item.get("arguments")
    for arg in args if isinstance(args, list) else []:
        if isinstance(arg, dict) and isinstance(arg.get("name"), str):
            names.add(arg["name"])
    return names


def _identity(change: Change) -> list[Reason]:
    """Tool, prompt, argument and property names that deceive, however they arrived."""
    if change.kind not in (Kind.TOOL, Kind.PROMPT) or change.new is None:
        return []
    reasons: list[Reason] = []
    if change.change is not ChangeType.MODIFIED:
        problem = _name_problem(change.name)
        if problem:
            reasons.append(
                Reason("tool-shadowing", Severity.HIGH, f"name {change.name!r} {problem}", "name")
            )
    old_name = change.old_name
    if old_name and old_name != change.name and skeleton(old_name) == skeleton(change.name):
        reasons.append(
            Reason(
                "tool-shadowing",
                Severity.CRITICAL,
                f"renamed to a look-alike of its own name ({old_name!r} -> {change.name!r}): "
                "approvals of the old name may carry over",
                "name",
            )
        )
    for name in sorted(_schema_names(change.new) - _schema_names(change.old)):
        problem = _name_problem(name)
        if problem:
            reasons.append(
                Reason(
                    "tool-shadowing",
                    Severity.HIGH,
                    f"parameter name {name!r} {problem}",
                    "inputSchema",
                )
            )
    return reasons


def _finding_reason(f: Finding, policy: Policy) -> Reason:
    rule = get_rule(f.code)
    origin = Origin.LINT if rule is not None and rule.family == "lint" else Origin.DETECTOR
    reason = Reason(f.code, f.severity, f"{f.code}: {f.message}", f.path, origin)
    return replace(reason, severity=policy.severity(reason, rule.family if rule else ""))


def grade_changes(
    changes: Sequence[Change],
    ctx: GradeContext,
    old: Surface | None = None,
    new: Surface | None = None,
) -> tuple[list[GradedChange], tuple[Finding, ...]]:
    """Grade each change (band, reasons, findings); return (graded, suppressed findings)."""
    if not changes:  # a clean server: grading's modules (regex tables) need not even load
        return [], ()
    from mcplock_tui.core.grading.severity import structural_reasons
    from mcplock_tui.core.lint import lint_drift

    views: dict[int, _Bounded] = {}
    spent = 0
    for i, change in enumerate(changes):
        views[i], spent = _bounded(change, spent)
    lint_by_tool: dict[str, list[Finding]] = {}
    tool_views = [
        (c, views[i]) for i, c in enumerate(changes) if c.kind is Kind.TOOL and views[i].scanned
    ]
    if tool_views:
        old_tools = {c.old_name or c.name: v.old for c, v in tool_views if v.old is not None}
        new_tools = {c.name: v.new for c, v in tool_views if v.new is not None}
        for f in lint_drift(ctx.server, old_tools, new_tools):
            lint_by_tool.setdefault(f.item, []).append(
                replace(f, server=ctx.server, kind=Kind.TOOL.value)
            )
    siblings = list(new.tools) if new is not None else []
    suppressed: list[Finding] = []
    graded: list[GradedChange] = []
    for i, change in enumerate(changes):
        view = views[i]
        found = new_findings(change, ctx, view) if view.scanned else []
        if change.kind is Kind.TOOL:
            found.extend(lint_by_tool.get(change.name, []))
        kept, dropped = ctx.policy.filter(found)
        suppressed.extend(dropped)
        reasons = [
            replace(r, severity=ctx.policy.severity(r))
            for r in (
                *structural_reasons(change, set(ctx.known_hosts)),
                *_shadowing(change, ctx, siblings),
                *_identity(change),
                *view.notes,
                *_host_reasons(change, ctx.known_hosts),
            )
        ]
        finding_reasons = [_finding_reason(f, ctx.policy) for f in kept]
        kept = tuple(
            replace(f, severity=r.severity) for f, r in zip(kept, finding_reasons, strict=True)
        )
        reasons.extend(finding_reasons)
        reasons.sort(key=lambda r: (-r.severity, r.category, r.path))
        severity = max((r.severity for r in reasons), default=Severity.LOW)
        graded.append(GradedChange(change, severity, tuple(reasons), kept))
    return graded, tuple(suppressed)
