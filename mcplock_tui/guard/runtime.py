"""Fold what the guard saw at runtime into a server's report (the review app shows it).

Two cases, by the hash of each observed definition:

- it equals what the capture served just now: the same drift, also **seen at runtime**
  (a low reason on the existing change, so the reviewer knows the agent was offered it);
- it differs from both the pin and the capture: the server **answers differently depending
  on who asks**. That is critical whatever the text says: a server that shows a reviewer one
  definition and the agent another is hiding something. It escalates the existing change,
  or becomes a change of its own when the capture matched the pin.

Failure direction: an observation of a definition the server has since stopped serving keeps
showing until a reviewer decides it (noisy, never silent). Observations are hostile input
(anyone with write access to the folder can add lines), but they can only add warnings: none
of them makes anything pass.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from mcplock_tui.core.canonical import digest
from mcplock_tui.core.diff import diff_surfaces
from mcplock_tui.core.graded import GradedChange
from mcplock_tui.core.lockfile import Lockfile
from mcplock_tui.core.model import (
    ITEM_KINDS,
    CaptureResult,
    Kind,
    Origin,
    Reason,
    Severity,
    Surface,
)
from mcplock_tui.core.report import ServerReport, Status
from mcplock_tui.guard.observe import Observation, observation_path, read_observations

SEEN_AT_RUNTIME = "seen-at-runtime"
RUNTIME_DIVERGENCE = "runtime-divergence"
_KINDS = {k.value: k for k in (*ITEM_KINDS, Kind.INSTRUCTIONS)}


def _with_item(surface: Surface, kind: Kind, name: str, item: dict[str, object]) -> Surface:
    if kind is Kind.INSTRUCTIONS:
        text = item.get("instructions")
        return replace(surface, instructions=text if isinstance(text, str) else repr(text))
    return surface.with_items(kind, {**surface.items(kind), name: item})


def _divergence(o: Observation) -> Reason:
    return Reason(
        RUNTIME_DIVERGENCE,
        Severity.CRITICAL,
        "answers differently depending on who asks: at runtime the guard was served a "
        f"definition (seen {o.seen_at or 'at an unknown time'}) that differs from both the pin "
        "and what this check was served",
        origin=Origin.RUNTIME,
    )


def _seen(o: Observation) -> Reason:
    return Reason(
        SEEN_AT_RUNTIME,
        Severity.LOW,
        f"seen at runtime: the guard was served this definition ({o.seen_at or 'time unknown'}) "
        f"and {'let it through (warn mode)' if o.passed else 'withheld it'}",
        origin=Origin.RUNTIME,
    )


def annotate(
    report: ServerReport,
    lock: Lockfile,
    capture: CaptureResult | None,
    observations: Iterable[Observation],
) -> ServerReport:
    """``report`` with the runtime observations of its server folded in."""
    pin = lock.servers.get(report.name)
    if (
        pin is None
        or capture is None
        or capture.surface is None
        or report.status
        not in (
            Status.CLEAN,
            Status.DRIFT,
        )
    ):
        return report
    live = capture.surface
    changes = {(c.kind, c.name): c for c in report.changes}
    extra: list[GradedChange] = []
    for o in observations:
        kind = _KINDS.get(o.kind)
        if o.server != report.name or kind is None:
            continue
        pinned, served = pin.surface.get(kind, o.name), live.get(kind, o.name)
        if pinned is not None and digest(pinned) == o.hash:
            continue  # since accepted
        change = changes.get((kind, o.name))
        if served is not None and digest(served) == o.hash:
            if change is not None and all(r.category != SEEN_AT_RUNTIME for r in change.reasons):
                changes[(kind, o.name)] = replace(change, reasons=(*change.reasons, _seen(o)))
            continue
        if change is not None:
            changes[(kind, o.name)] = replace(
                change, severity=Severity.CRITICAL, reasons=(_divergence(o), *change.reasons)
            )
        elif isinstance(o.definition, dict):
            shown = _with_item(live, kind, o.name, o.definition)
            for new in diff_surfaces(report.name, live, shown):
                if (new.kind, new.name) == (kind, o.name):
                    extra.append(GradedChange(new, Severity.CRITICAL, (_divergence(o),)))
                    changes[(kind, o.name)] = extra[-1]
    merged = tuple(changes[(c.kind, c.name)] for c in report.changes) + tuple(extra)
    if merged == report.changes:
        return report
    return replace(report, changes=merged, status=Status.DRIFT)


def annotate_from_disk(
    report: ServerReport, lock_path: Path, lock: Lockfile, capture: CaptureResult | None
) -> ServerReport:
    """:func:`annotate` with the observation log beside ``lock_path`` (none: unchanged)."""
    path = observation_path(lock_path)
    if not path.exists():
        return report
    return annotate(report, lock, capture, read_observations(path))
