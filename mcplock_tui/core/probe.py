"""Bait-and-switch: a server that answers differently depending on who asks, or when.

A server can show an audit tool one surface and the assistant another: it sees the client's
``clientInfo`` in ``initialize``, and it can change its lists after the first read. The probe
(``--probe``) captures each server again as common clients over fresh connections and lists
twice in each session; this module compares those answers with the normal capture. Any
difference is critical: an honest server has no reason to tailor its definitions to the
client's name, and a reviewer cannot review what they are not shown.

Which way it fails: a server whose lists legitimately change between two reads a moment
apart (a live resource list, a clock in a description) is reported as critical, a false
alarm that is visible in the reason; a server that switches only for a client name not in
the probe's list, or only after more than two reads, is missed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from mcplock_tui.core.diff import diff_surfaces
from mcplock_tui.core.graded import GradedChange
from mcplock_tui.core.model import Kind, Reason, Severity, Surface
from mcplock_tui.core.report import Report, ServerReport, Status

CATEGORY = "probe-mismatch"


@dataclass(frozen=True, slots=True)
class ProbeAnswer:
    """What the server sent one probe: ``who`` names the identity and the listing."""

    who: str
    surface: Surface | None = None
    error: str | None = None


def _identity_free(surface: Surface) -> Surface:
    """The launch line is ours and the same for every probe; leave it out of the comparison."""
    server = {k: v for k, v in surface.server.items() if k != "launch"}
    return replace(surface, server=server)


def probe_changes(
    server: str, baseline: Surface, answers: Sequence[ProbeAnswer]
) -> list[GradedChange]:
    """One critical change per item that some probe saw differently from the normal capture."""
    base = _identity_free(baseline)
    merged: dict[tuple[Kind, str], GradedChange] = {}
    for answer in answers:
        if answer.surface is None:
            continue
        for change in diff_surfaces(server, base, _identity_free(answer.surface)):
            label = change.kind.value.replace("_", " ")
            reason = Reason(
                CATEGORY,
                Severity.CRITICAL,
                f"answers differently depending on who asks: {answer.who} got this "
                f"{label} {change.change.value}",
            )
            key = (change.kind, change.name)
            if key in merged:
                merged[key] = replace(merged[key], reasons=(*merged[key].reasons, reason))
            else:
                merged[key] = GradedChange(change, Severity.CRITICAL, (reason,))
    return [merged[k] for k in sorted(merged, key=lambda k: (list(Kind).index(k[0]), k[1]))]


def with_probe(
    report: Report,
    baselines: Mapping[str, Surface],
    answers: Mapping[str, Sequence[ProbeAnswer]],
) -> Report:
    """``report`` with each server's probe differences added as critical changes.

    ``baselines`` are the normal captures the report was graded on; a probe that could not
    be captured is a warning, not a difference (a flaky server is not a two-faced one).
    """
    servers: list[ServerReport] = []
    for s in report.servers:
        baseline = baselines.get(s.name)
        probed = answers.get(s.name, ())
        if baseline is None or not probed or s.status in (Status.FAILED, Status.UNPINNED):
            servers.append(s)
            continue
        found = probe_changes(s.name, baseline, probed)
        notes = tuple(f"probe as {a.who} failed: {a.error}" for a in probed if a.error)
        servers.append(
            replace(
                s,
                status=Status.DRIFT if found or s.changes else s.status,
                changes=(*s.changes, *found),
                warnings=(*s.warnings, *notes),
            )
        )
    return replace(report, servers=tuple(servers))
