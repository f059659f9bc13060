"""The report model: each server's outcome, its graded changes, and what sits beside them.

Data only, and cheap to import (no grading): the app shows reports before the grading code
has loaded. :mod:`mcplock_tui.core.analysis` builds reports; :mod:`mcplock_tui.core.formats`
turns them into documents.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from mcplock_tui.core.exitcodes import ExitCode
from mcplock_tui.core.graded import GradedChange, ReviewState
from mcplock_tui.core.lockfile import Rejection
from mcplock_tui.core.model import ErrorKind, Finding, Severity

if TYPE_CHECKING:
    from mcplock_tui.core.verdict import Explained


class Status(StrEnum):
    """A server's outcome in a report; the values are the JSON report's ``status`` strings."""

    CLEAN = "clean"
    DRIFT = "drift"
    FAILED = "failed"
    UNPINNED = "unpinned"
    UNCONFIGURED = "unconfigured"
    LAUNCH_CHANGED = "launch-changed"
    """The config launches the server differently from its pin: not started, not checked."""


@dataclass(frozen=True, slots=True)
class ServerReport:
    name: str
    status: Status
    error: str | None = None
    error_kind: ErrorKind | None = None
    changes: tuple[GradedChange, ...] = ()
    rejections: Mapping[str, Rejection] = field(default_factory=dict)
    """Review state, by change id: a reviewer already refused exactly this new definition."""
    known_findings: tuple[Finding, ...] = ()
    """Findings in definitions that are pinned as they are now: reviewed, still worth seeing."""
    suppressed: tuple[Finding, ...] = ()
    warnings: tuple[str, ...] = ()
    stderr_log: str | None = None
    stderr_tail: tuple[str, ...] = ()
    """For a failed server: the last lines of its stderr (escaped, redacted, capped)."""
    new_hosts: tuple[str, ...] = ()
    """Network hosts the live surface names that the pinned one does not (sorted)."""
    pinned_launch: str | None = None
    """For ``launch-changed``: the reviewed launch, as pinned."""
    launch: str | None = None
    """For ``launch-changed`` and ``unpinned``: the launch the config asks for now."""

    @property
    def worst(self) -> Severity | None:
        return max((c.severity for c in self.changes), default=None)

    def rejection(self, change: GradedChange) -> Rejection | None:
        return self.rejections.get(change.id)

    def state(self, change: GradedChange) -> ReviewState:
        return ReviewState.REJECTED if change.id in self.rejections else ReviewState.PENDING


@dataclass(frozen=True, slots=True)
class Report:
    servers: tuple[ServerReport, ...]
    fail_on: Severity = Severity.HIGH
    fail_on_known: Severity | None = None
    """Known findings at or above this band fail too; None: they are shown, never fail."""
    verdicts: Mapping[str, Explained] = field(default_factory=dict)
    """Explain answers by change id (``--explain``): advisory, never part of the exit code."""

    @property
    def changes(self) -> list[GradedChange]:
        return [c for s in self.servers for c in s.changes]

    @property
    def rejections(self) -> dict[str, Rejection]:
        """Every server's review state, by change id (change ids name their server)."""
        return {i: r for s in self.servers for i, r in s.rejections.items()}

    def rejection(self, change: GradedChange) -> Rejection | None:
        return next((s.rejection(change) for s in self.servers if s.name == change.server), None)

    def verdict(self, change: GradedChange) -> Explained | None:
        return self.verdicts.get(change.id)

    @property
    def known_findings(self) -> list[Finding]:
        return [f for s in self.servers for f in s.known_findings]

    def exit_code(self) -> ExitCode:
        """Drift at or above the threshold wins over "could not check": it is definite.

        A launch that differs from its pin is drift too: the new command was never run, so
        nothing about the server is known except that it is not what was reviewed.
        """
        if any(c.severity >= self.fail_on for c in self.changes):
            return ExitCode.DRIFT
        if any(s.status == Status.LAUNCH_CHANGED for s in self.servers):
            return ExitCode.DRIFT
        gate = self.fail_on_known
        if gate is not None and any(f.severity >= gate for f in self.known_findings):
            return ExitCode.DRIFT
        if any(s.status in (Status.FAILED, Status.UNPINNED) for s in self.servers):
            return ExitCode.CANNOT_CHECK
        return ExitCode.CLEAN

    def counts(self) -> dict[Severity, int]:
        return band_counts(self.changes)


def band_counts(changes: Iterable[GradedChange]) -> dict[Severity, int]:
    counts = dict.fromkeys(Severity, 0)
    for change in changes:
        counts[change.severity] += 1
    return counts
