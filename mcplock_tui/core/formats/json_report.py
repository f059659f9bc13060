"""Report -> the JSON report document (data only; writing it is the CLI's job).

``json.dumps(..., ensure_ascii=True)``-ready: server text stays exact but every non-ASCII or
control character is an escape, so the document is safe to print. The shape is documented in
README ("JSON report") and versioned by ``REPORT_VERSION``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar

from mcplock_tui import __version__
from mcplock_tui.core.diff import MISSING
from mcplock_tui.core.exitcodes import ExitCode
from mcplock_tui.core.graded import GradedChange
from mcplock_tui.core.groups import Group, group_changes
from mcplock_tui.core.model import ErrorKind, Finding, Reason, Severity
from mcplock_tui.core.report import Report, ServerReport, Status
from mcplock_tui.core.verdict import Explained

REPORT_VERSION = 1

T = TypeVar("T")


class Deferred(list, Generic[T]):  # type: ignore[type-arg]
    """A JSON array whose elements are made as the encoder reaches them, one at a time.

    For the indenting encoder only (``json.JSONEncoder(indent=...)``), which walks an array
    with ``bool()`` and ``for``: the document of 2,000 changes and 18,000 known findings
    is then never held whole beside the report. The C encoder (no indent) reads the list's
    own storage, which is empty: never hand it one of these."""

    def __init__(self, source: Sequence[T], make: Callable[[T], Any]) -> None:
        super().__init__()
        self._source, self._make = source, make

    def __iter__(self) -> Iterator[Any]:
        return map(self._make, self._source)

    def __len__(self) -> int:
        return len(self._source)

    def __bool__(self) -> bool:
        return bool(self._source)


def _array(source: Sequence[T], make: Callable[[T], Any], deferred: bool) -> list[Any]:
    return Deferred(source, make) if deferred else [make(x) for x in source]


def finding_json(f: Finding) -> dict[str, Any]:
    return {
        "code": f.code,
        "severity": f.severity.label,
        "message": f.message,
        "path": f.path,
        "excerpt": f.excerpt,
        "span": list(f.span) if f.span else None,
        "server": f.server,
        "kind": f.kind,
        "item": f.item,
    }


def reason_json(r: Reason) -> dict[str, Any]:
    return {
        "category": r.category,
        "severity": r.severity.label,
        "message": r.message,
        "path": r.path,
    }


def _value(v: Any) -> Any:
    return None if v is MISSING else v


def change_json(
    c: GradedChange, server: ServerReport, verdict: Explained | None = None
) -> dict[str, Any]:
    rejection = server.rejection(c)
    return {
        "id": c.id,
        "kind": c.kind.value,
        "name": c.name,
        "old_name": c.old_name,
        "change": c.change.value,
        "severity": c.severity.label,
        "status": server.state(c).value,
        "rejection_note": rejection.note if rejection else None,
        "reasons": [reason_json(r) for r in c.reasons],
        "findings": [finding_json(f) for f in c.findings],
        "fields": [
            {
                "path": f.path,
                "old": _value(f.old),
                "new": _value(f.new),
                "absent": [side for side, v in (("old", f.old), ("new", f.new)) if v is MISSING],
            }
            for f in c.fields
        ],
        "old_hash": c.old_hash,
        "new_hash": c.new_hash,
        "explain": verdict.to_dict() if verdict else None,
    }


def server_json(
    s: ServerReport, verdicts: Mapping[str, Explained], deferred: bool = False
) -> dict[str, Any]:
    return {
        "name": s.name,
        "status": s.status,
        "error": s.error,
        "error_kind": s.error_kind,
        "stderr_log": s.stderr_log,
        "stderr_tail": list(s.stderr_tail),
        "warnings": list(s.warnings),
        "new_hosts": list(s.new_hosts),
        "pinned_launch": s.pinned_launch,
        "launch": s.launch,
        "changes": _array(s.changes, lambda c: change_json(c, s, verdicts.get(c.id)), deferred),
        "known_findings": _array(s.known_findings, finding_json, deferred),
        "suppressed": _array(s.suppressed, finding_json, deferred),
    }


def unchecked_error(report: Report) -> tuple[str | None, ErrorKind | None]:
    """``(error, error_kind)`` for a report that exits 2 because servers could not be checked."""
    if report.exit_code() is not ExitCode.CANNOT_CHECK:
        return None, None
    bad = [s for s in report.servers if s.status in (Status.FAILED, Status.UNPINNED)]
    unpinned = all(s.status == Status.UNPINNED for s in bad)
    kind = ErrorKind.UNPINNED if unpinned else ErrorKind.SERVERS_FAILED
    listed = ", ".join(f"{s.name} ({s.error_kind or s.status})" for s in bad)
    noun = "server" if len(bad) == 1 else "servers"
    return f"{len(bad)} {noun} could not be checked: {listed}", kind


def to_json(report: Report, lockfile: str, deferred: bool = False) -> dict[str, Any]:
    """The report document; ``deferred`` makes its long arrays :class:`Deferred`."""
    counts = report.counts()
    error, kind = unchecked_error(report)
    return {
        "version": REPORT_VERSION,
        "tool": {"name": "mcplock-tui", "version": __version__},
        "lockfile": lockfile,
        "error": error,
        "error_kind": kind,
        "fail_on": report.fail_on.label,
        "fail_on_known": report.fail_on_known.label if report.fail_on_known else None,
        "known_findings": len(report.known_findings),
        "exit_code": int(report.exit_code()),
        "summary": {s.label: counts[s] for s in sorted(Severity, reverse=True)},
        "servers": [server_json(s, report.verdicts, deferred) for s in report.servers],
        "groups": _array(
            [g for s in report.servers for g in group_changes(s.changes, rejected=s.rejections)],
            group_json,
            deferred,
        ),
    }


def group_json(g: Group) -> dict[str, Any]:
    """Alike changes listed once; each member is still in its server's ``changes``."""
    return {
        "id": g.id,
        "label": g.label,
        "selector": g.selector,
        "server": g.server,
        "kind": g.kind.value,
        "change": g.change,
        "pattern": g.pattern,
        "severity": g.severity.label,
        "count": len(g.members),
        "members": [c.id for c in g.members],
    }


def error_json(error: str, kind: str, lockfile: str) -> dict[str, Any]:
    """The JSON report when the check could not start: no lockfile, bad config or policy."""
    return {
        "version": REPORT_VERSION,
        "tool": {"name": "mcplock-tui", "version": __version__},
        "lockfile": lockfile,
        "error": error,
        "error_kind": kind,
        "fail_on": None,
        "fail_on_known": None,
        "known_findings": 0,
        "exit_code": int(ExitCode.CANNOT_CHECK),
        "summary": {s.label: 0 for s in sorted(Severity, reverse=True)},
        "servers": [],
    }


def findings_to_json(findings: list[Finding], failed: dict[str, str]) -> dict[str, Any]:
    """The ``lint`` report: findings plus the servers that could not be read."""
    return {
        "version": REPORT_VERSION,
        "tool": {"name": "mcplock-tui", "version": __version__},
        "findings": [finding_json(f) for f in findings],
        "failed": [{"name": n, "error": e} for n, e in sorted(failed.items())],
    }
