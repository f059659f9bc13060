"""Grade changes: structural reasons + detector findings on new text + lint drift + policy.

A finding only counts against a change when the change introduced it: findings already
present in the pinned definition (same rule, field and excerpt) were reviewed at pin time
and are reported as known instead. Only changed items are scanned, which keeps a check of
thousands of tools fast.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from mcplock_tui.core.detectors import ScanContext, scan_item, skeleton
from mcplock_tui.core.diff import Change
from mcplock_tui.core.hosts import URI_FIELDS, item_hosts, surface_hosts
from mcplock_tui.core.lint import lint_drift
from mcplock_tui.core.model import JSON, ChangeType, Finding, Kind, Reason, Severity, Surface
from mcplock_tui.core.policy import Policy
from mcplock_tui.core.rules import get_rule
from mcplock_tui.core.severity import hosts_of, structural_reasons


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

    def detector_context(self) -> ScanContext:
        foreign = {n: o for n, o in self.foreign_tools.items() if n not in self.own_tools}
        return ScanContext(foreign_tools=foreign, server=self.server)


def known_hosts(surface: Surface) -> frozenset[str]:
    """Every host the pinned surface names, in any field (see :mod:`.hosts`)."""
    return surface_hosts(surface)


def _host_reasons(change: Change, known: frozenset[str]) -> list[Reason]:
    """Hosts that text, defaults or metadata name for the first time (URIs are graded
    structurally, so a resource's own host is not repeated here)."""
    if change.new is None:
        return []
    before = item_hosts(change.kind, change.old)
    uri_key = URI_FIELDS.get(change.kind)
    own = hosts_of(change.new.get(uri_key)) if uri_key else set()
    return [
        Reason("host-added", Severity.HIGH, f"names new outbound host {host}", path)
        for host, path in sorted(item_hosts(change.kind, change.new).items())
        if host not in before and host not in known and host not in own
    ]


def item_findings(
    kind: Kind, name: str, item: Mapping[str, JSON] | None, ctx: GradeContext
) -> list[Finding]:
    if item is None:
        return []
    scan_ctx = ctx.detector_context()
    return [
        replace(f, server=ctx.server, kind=kind.value, item=name)
        for f in scan_item(kind, item, scan_ctx)
    ]


def scan_surface(server: str, surface: Surface, ctx: GradeContext) -> list[Finding]:
    """Every detector finding in a whole surface (what ``pin`` reports as known)."""
    out: list[Finding] = []
    for kind, name, item in surface.all_items():
        out.extend(item_findings(kind, name, item, ctx))
    return out


def _fingerprint(f: Finding) -> tuple[str, str, str]:
    return (f.code, f.path, f.excerpt)


def new_findings(change: Change, ctx: GradeContext) -> list[Finding]:
    after = item_findings(change.kind, change.name, change.new, ctx)
    if change.old is None or not after:
        return after
    before = {_fingerprint(f) for f in item_findings(change.kind, change.name, change.old, ctx)}
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


def _finding_reason(f: Finding, policy: Policy) -> Reason:
    rule = get_rule(f.code)
    reason = Reason(f.code, f.severity, f"{f.code}: {f.message}", f.path)
    return replace(reason, severity=policy.severity(reason, rule.family if rule else ""))


def grade_changes(
    changes: Sequence[Change],
    ctx: GradeContext,
    old: Surface | None = None,
    new: Surface | None = None,
) -> tuple[list[Change], tuple[Finding, ...]]:
    """Fill severity, reasons and findings; return (graded changes, suppressed findings)."""
    lint_by_tool: dict[str, list[Finding]] = {}
    tool_changes = [c for c in changes if c.kind is Kind.TOOL]
    if tool_changes:
        old_tools = {c.old_name or c.name: c.old for c in tool_changes if c.old is not None}
        new_tools = {c.name: c.new for c in tool_changes if c.new is not None}
        for f in lint_drift(ctx.server, old_tools, new_tools):
            lint_by_tool.setdefault(f.item, []).append(
                replace(f, server=ctx.server, kind=Kind.TOOL.value)
            )
    siblings = list(new.tools) if new is not None else []
    suppressed: list[Finding] = []
    graded: list[Change] = []
    for change in changes:
        found = new_findings(change, ctx)
        if change.kind is Kind.TOOL:
            found.extend(lint_by_tool.get(change.name, []))
        kept, dropped = ctx.policy.filter(found)
        suppressed.extend(dropped)
        reasons = [
            replace(r, severity=ctx.policy.severity(r))
            for r in (
                *structural_reasons(change, set(ctx.known_hosts)),
                *_shadowing(change, ctx, siblings),
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
        graded.append(replace(change, severity=severity, reasons=tuple(reasons), findings=kept))
    return graded, tuple(suppressed)
