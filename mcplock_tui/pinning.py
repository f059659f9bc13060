"""``pin`` as data: what a pin run would write, and why, before anything is written.

:func:`plan_pin` turns the lockfile and fresh captures into a :class:`PinPlan`: the servers
that get their first pin (with the findings in what they pin, so nothing poisoned is pinned
silently), the pinned servers that drifted (left alone: a pin never replaces a pin), the
servers that could not be captured, and the pins to prune. The CLI renders a plan and then
writes it through the decision service (:func:`write_plan`); nothing here prints.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mcplock_tui.core.analysis import analyze, foreign_for, surface_findings
from mcplock_tui.core.lockfile import Lockfile, hashed_surface
from mcplock_tui.core.model import CaptureResult, Finding, Surface
from mcplock_tui.core.policy import Policy
from mcplock_tui.core.report import Report
from mcplock_tui.core.scan_memo import ScanMemo
from mcplock_tui.decisions import Outcome, pin_new


@dataclass(frozen=True, slots=True)
class PinPlan:
    fresh: Mapping[str, Surface]
    """Servers with no pin yet, in config order: these get pinned."""
    findings: Mapping[str, tuple[Finding, ...]] = field(default_factory=dict)
    """For each fresh server, the findings in what it pins (after policy)."""
    failed: Mapping[str, CaptureResult] = field(default_factory=dict)
    """Servers that could not be captured: nothing of theirs is written."""
    drift: Report | None = None
    """The pinned servers, graded against their pins; drifted ones keep their pin."""
    prune: tuple[str, ...] = ()
    """Pins of servers no config names any more, to drop (``--prune``)."""

    @property
    def drifted(self) -> list[str]:
        return [s.name for s in self.drift.servers if s.changes] if self.drift else []


def plan_pin(
    lock: Lockfile,
    captures: Mapping[str, CaptureResult],
    order: Sequence[str],
    *,
    policy: Policy,
    prune: Sequence[str] = (),
    memo: ScanMemo | None = None,
) -> PinPlan:
    """What pinning ``captures`` (servers in ``order``) over ``lock`` would do."""
    foreign = foreign_for(lock, captures)
    fresh: dict[str, Surface] = {}
    findings: dict[str, tuple[Finding, ...]] = {}
    failed: dict[str, CaptureResult] = {}
    for name in order:
        result = captures[name]
        if result.surface is None:
            failed[name] = result
        elif name not in lock.servers:
            # Hashed first: the scan memo keys on each item's digest, and the lockfile and
            # the signed record take the hash sets as they are, so no item is encoded twice.
            fresh[name] = surface = hashed_surface(result.surface)
            found = surface_findings(name, surface, foreign.get(name, {}), policy=policy, memo=memo)
            findings[name] = tuple(found)
    pinned = {n: r for n, r in captures.items() if n in lock.servers and r.surface is not None}
    drift = analyze(lock, pinned, configured=list(pinned), policy=policy, memo=memo)
    return PinPlan(fresh, findings, failed, drift, tuple(prune))


def write_plan(lock_path: Path, plan: PinPlan) -> Outcome:
    """Pin the plan's fresh servers and drop its pruned ones, through the decision service.

    Drifted servers are not in the plan's writes: their pins stay as they are.
    """
    return pin_new(lock_path, plan.fresh, prune=plan.prune)
