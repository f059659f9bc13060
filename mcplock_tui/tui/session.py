"""What one review holds: the lockfile being edited, each server's report, decisions, undo.

No widgets and no event loop here, so the rules the app follows (what a row shows, what a
decision writes, what undo restores) can be read and tested on their own, and the
benchmark can fill a session with synthetic reports.

Reports are always graded against the lockfile as it was when the review opened (the
*base*), and each decision is remembered with the hash of the definition it was made on.
So a change accepted earlier in the session still reads "accepted" after a server is
captured again, as long as it still serves the same definition, and shows as pending again
the moment the definition moves.
"""

from __future__ import annotations

import json
from collections.abc import Container, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mcplock_tui.core.graded import GradedChange, ReviewState
from mcplock_tui.core.groups import Group, change_order, group_changes
from mcplock_tui.core.lockfile import Lockfile
from mcplock_tui.core.model import CaptureResult, ErrorKind, Finding, Severity, Surface
from mcplock_tui.core.policy import Policy
from mcplock_tui.core.report import ServerReport, Status
from mcplock_tui.errors import DecisionError, LockfileError
from mcplock_tui.evidence.ledger import read_bound
from mcplock_tui.spec import ServerSpec

if TYPE_CHECKING:
    from mcplock_tui.core.review import Action
    from mcplock_tui.core.verdict import Explained

CONNECTING = "connecting"
NOT_CHECKED = "not checked"
PENDING, ACCEPTED, REJECTED = ReviewState.PENDING, ReviewState.ACCEPTED, ReviewState.REJECTED
CHECKING = "checking"
"""A change being re-checked before an accept (app-only, never in a report)."""

_STATUS_RANK = {
    Status.DRIFT: 0,
    Status.FAILED: 1,
    Status.UNPINNED: 2,
    CONNECTING: 3,
    NOT_CHECKED: 4,
    Status.CLEAN: 5,
}


@dataclass(slots=True)
class ServerState:
    name: str
    status: str = CONNECTING
    report: ServerReport | None = None
    capture: CaptureResult | None = None
    foreign: Mapping[str, str] | None = None
    """The other servers' tool names the report was graded with (shadowing checks)."""


@dataclass(frozen=True, slots=True)
class UndoStep:
    lock: Lockfile
    decisions: dict[str, tuple[str, str]]
    label: str
    changes: tuple[GradedChange, ...] = ()


@dataclass(frozen=True, slots=True)
class Filter:
    """Which changes the navigator shows: a lowest band and a case-insensitive substring."""

    min_severity: Severity = Severity.LOW
    text: str = ""

    def matches(self, change: GradedChange, haystack: str | None = None) -> bool:
        """``haystack``: the change's searchable text (see :func:`search_text`), id if absent."""
        if change.severity < self.min_severity:
            return False
        needle = self.text.strip().casefold()
        if not needle:
            return True
        return needle in (haystack if haystack is not None else change.id.casefold())

    @property
    def active(self) -> bool:
        return self.min_severity > Severity.LOW or bool(self.text.strip())


@dataclass(frozen=True, slots=True)
class NavRow:
    """One navigator line: a server, one of its changes, or a group of alike changes."""

    server: str
    change: GradedChange | None = None
    group: Group | None = None
    expanded: bool = False
    """For a group row: its members are shown below it."""

    @property
    def key(self) -> str:
        if self.group is not None:
            return group_key(self.group)
        return self.change.id if self.change is not None else server_key(self.server)


def group_key(group: Group) -> str:
    """Option id of a group row; a NUL never occurs in a change id's server part."""
    return "group\0" + group.id


def server_key(name: str) -> str:
    """Option id of a server row; a NUL never occurs in a change id's server part."""
    return "server\0" + name


def search_text(change: GradedChange) -> str:
    """What ``/`` searches: the id, both definitions as JSON, findings and reasons, casefolded.

    Built once per change (definitions can be large) and searched as one string.
    """
    parts = [change.id, change.old_name or ""]
    for definition in (change.old, change.new):
        if definition is not None:
            parts.append(json.dumps(definition, ensure_ascii=False, sort_keys=True))
    parts.extend(f"{f.code} {f.message} {f.excerpt}" for f in change.findings)
    parts.extend(r.message for r in change.reasons)
    return "\n".join(parts).casefold()


sort_key = change_order
"""Worst first, then kind, then name in natural order (1, 2, 10, not 1, 10, 2)."""


@dataclass
class ReviewSession:
    lock_path: Path
    base: Lockfile
    """The lockfile as read when the review opened; every report is graded against it."""
    specs: dict[str, ServerSpec] = field(default_factory=dict)
    policy: Policy = field(default_factory=Policy)
    lock_problem: str | None = None
    """Why decisions cannot be written (missing or unreadable lockfile), shown as a banner."""
    lock_readable: bool = True
    lock: Lockfile = field(init=False)
    servers: dict[str, ServerState] = field(init=False)
    decisions: dict[str, tuple[str, str]] = field(default_factory=dict)
    undo_stack: list[UndoStep] = field(default_factory=list)
    in_flight: set[str] = field(default_factory=set)
    """Ids of changes being re-checked before an accept."""
    lint: dict[str, tuple[Finding, ...]] = field(default_factory=dict)
    """Lint findings per server, for the live tools of its latest capture."""
    explained: dict[tuple[str, str], Explained] = field(default_factory=dict)
    """(change id, new hash) -> a verdict, or why there is none."""
    asking: set[tuple[str, str]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.lock = self.base
        try:  # what this review last saw on disk: a later write must find it unchanged
            self._written: bytes | None = self.lock_path.read_bytes()
        except OSError:
            self._written = None
        start = CONNECTING if self.lock_readable else NOT_CHECKED
        self.servers = {name: ServerState(name, start) for name in self.specs}
        self._changes: dict[str, GradedChange] = {}
        self._haystacks: dict[str, str] = {}

    @classmethod
    def open(cls, lock_path: Path, specs: Sequence[ServerSpec], policy: Policy) -> ReviewSession:
        """Read the lockfile; a missing or unreadable one becomes a banner, never a traceback."""
        by_name = {s.name: s for s in specs}
        try:
            lock = read_bound(lock_path)
        except FileNotFoundError:
            problem = (
                f"No lockfile at {lock_path.name}: every server is unpinned. Quit and run "
                "`mcplock-tui pin` to capture the servers and create it."
            )
            return cls(lock_path, Lockfile(), by_name, policy, lock_problem=problem)
        except LockfileError as exc:
            return cls(
                lock_path, Lockfile(), by_name, policy, lock_problem=str(exc), lock_readable=False
            )
        return cls(lock_path, lock, by_name, policy)

    # reports ------------------------------------------------------------------------------

    def captures(self) -> dict[str, CaptureResult]:
        return {n: s.capture for n, s in self.servers.items() if s.capture is not None}

    def add_capture(
        self, result: CaptureResult, graded: tuple[ServerReport, Mapping[str, str]] | None = None
    ) -> ServerReport:
        """Grade a fresh capture against the base lockfile and make it that server's report.

        ``graded``: the (report, foreign names) already computed off the event loop.
        """
        state = self.servers.setdefault(result.name, ServerState(result.name))
        state.capture = result
        self.lint.pop(result.name, None)
        foreign: Mapping[str, str]
        if graded is None:
            from mcplock_tui.core.analysis import foreign_for, report_for

            foreign = foreign_for(self.base, self.captures()).get(result.name, {})
            report = report_for(result.name, result, self.base, foreign=foreign, policy=self.policy)
        else:
            report, foreign = graded
        self.set_report(report)
        state.foreign = foreign
        return report

    def regrade(self) -> list[str]:
        """Once every capture is in, grade again the servers whose neighbours' tools moved.

        Shadowing compares a server's new tools with the other servers' live tools; a report
        made while a neighbour was still known only from its pin may have used stale names.
        """
        from mcplock_tui.core.analysis import foreign_for, report_for

        captures = self.captures()
        foreign = foreign_for(self.base, captures)
        again = []
        for name, result in captures.items():
            state = self.servers[name]
            mine = foreign.get(name, {})
            if state.foreign is not None and dict(state.foreign) == mine:
                continue
            self.set_report(report_for(name, result, self.base, foreign=mine, policy=self.policy))
            state.foreign = mine
            again.append(name)
        return again

    def set_report(self, report: ServerReport) -> None:
        state = self.servers.setdefault(report.name, ServerState(report.name))
        from mcplock_tui.guard.runtime import annotate_from_disk  # after a capture only

        report = annotate_from_disk(report, self.lock_path, self.base, state.capture)
        if state.report is not None:
            for old in state.report.changes:
                self._changes.pop(old.id, None)
        state.report = report
        state.status = report.status
        for change in report.changes:
            self._changes[change.id] = change
            self._haystacks.pop(change.id, None)

    def haystack(self, change: GradedChange) -> str:
        text = self._haystacks.get(change.id)
        if text is None:
            text = self._haystacks[change.id] = search_text(change)
        return text

    def fail_pending(self, message: str) -> None:
        """Servers still connecting when the capture itself broke."""
        for state in self.servers.values():
            if state.status == CONNECTING:
                state.status = Status.FAILED
                state.report = ServerReport(
                    state.name, Status.FAILED, error=message, error_kind=ErrorKind.INTERNAL
                )

    @property
    def connecting(self) -> bool:
        return any(s.status == CONNECTING for s in self.servers.values())

    def change(self, change_id: str) -> GradedChange | None:
        return self._changes.get(change_id)

    def changes(self) -> Iterator[GradedChange]:
        return iter(self._changes.values())

    def server_changes(self, server: str) -> list[GradedChange]:
        report = self.servers[server].report if server in self.servers else None
        return sorted(report.changes, key=sort_key) if report is not None else []

    # navigator ----------------------------------------------------------------------------

    def rows(self, flt: Filter, expanded: frozenset[str] = frozenset()) -> list[NavRow]:
        """Servers (worst drift first), each followed by its matching changes, worst first.

        Alike changes are one group row, followed by its members when its id is in
        ``expanded``.
        """

        def rank(state: ServerState) -> tuple[int, int, str]:
            worst = state.report.worst if state.report is not None else None
            return (_STATUS_RANK.get(state.status, 9), -(worst or 0), state.name)

        out: list[NavRow] = []
        needle = flt.text.strip().casefold()
        for state in sorted(self.servers.values(), key=rank):
            changes = [
                c for c in self.server_changes(state.name) if flt.matches(c, self.haystack(c))
            ]
            if (
                flt.active
                and state.status != Status.FAILED  # a server that could not be checked stays
                and not changes
                and not (
                    needle and needle in state.name.casefold() and flt.min_severity == Severity.LOW
                )
            ):
                continue
            out.append(NavRow(state.name))
            rejected = state.report.rejections if state.report is not None else {}
            out.extend(_grouped_rows(state.name, changes, expanded, rejected))
        return out

    def state(self, change: GradedChange) -> str:
        if change.id in self.in_flight:
            return CHECKING
        decided = self.decisions.get(change.id)
        if decided is not None and decided[1] == change.new_hash:
            return decided[0]
        state = self.servers.get(change.server)
        report = state.report if state is not None else None
        return report.state(change) if report is not None else PENDING

    def note(self, change: GradedChange) -> str:
        """The reviewer's note on a rejection of exactly this definition, if any."""
        if self.state(change) != REJECTED:
            return ""
        pin = self.lock.servers.get(change.server)
        rejection = pin.rejection_for(change.kind, change.name) if pin is not None else None
        return rejection.note if rejection is not None and rejection.hash == change.new_hash else ""

    def counts(self) -> dict[Severity, int]:
        counts = dict.fromkeys(Severity, 0)
        for change in self._changes.values():
            counts[change.severity] += 1
        return counts

    def pending_count(self) -> int:
        return sum(1 for c in self._changes.values() if self.state(c) == PENDING)

    # decisions ----------------------------------------------------------------------------

    def _check_writable(self) -> None:
        if not self.lock_readable:
            raise DecisionError(
                f"the lockfile cannot be read, so nothing is written: {self.lock_problem}"
            )

    def accept(
        self, changes: Sequence[GradedChange], live: Surface
    ) -> tuple[list[GradedChange], list[GradedChange]]:
        """Accept each change the live server still serves as shown: (accepted, moved).

        ``live`` is a fresh capture of the changes' server. Moved changes are left alone; the
        others are written to the lockfile in one atomic replacement.
        """
        from mcplock_tui.core import review  # the decision rules load with the first decision

        self._check_writable()
        fresh: list[GradedChange] = []
        moved: list[GradedChange] = []
        for change in changes:
            try:
                review.ensure_unmoved(change.diff, live)
            except DecisionError:
                moved.append(change)
            else:
                fresh.append(change)
        if fresh:
            self._commit(
                review.Action.ACCEPT,
                fresh,
                {fresh[0].server: live},
                {c.id: (ACCEPTED, c.new_hash) for c in fresh},
                _label("accepted", fresh),
            )
        return fresh, moved

    def reject(self, change: GradedChange, note: str = "") -> None:
        from mcplock_tui.core.review import Action

        self._check_writable()
        live = self.servers[change.server].capture if change.server in self.servers else None
        surface = live.surface if live is not None else None
        if surface is None:
            raise DecisionError(f"{change.server!r} has no capture to decide on")
        self._commit(
            Action.REJECT,
            [change],
            {change.server: surface},
            {change.id: (REJECTED, change.new_hash)},
            _label("rejected", [change]),
            note,
        )

    def undo(self) -> str | None:
        """Write back the lockfile as it was before the last decision; its label, or None."""
        if not self.undo_stack:
            return None
        from mcplock_tui.core.review import Action, Decision

        step = self.undo_stack[-1]
        self._check_writable()
        undone = [
            Decision(
                Action.UNDO,
                c.id,
                c.kind,
                c.name,
                c.new_hash,
                _pinned_hash(step.lock, c),
                note=f"undo: {step.label}",
            )
            for c in step.changes
        ]
        from mcplock_tui import decisions as service  # signing loads with the first decision

        outcome = service.restore(self.lock_path, step.lock, undone, seen=self._written)
        self._written = outcome.written
        self.undo_stack.pop()
        self.lock = outcome.lock
        self.decisions = step.decisions
        return step.label

    def _commit(
        self,
        action: Action,
        changes: Sequence[GradedChange],
        live: Mapping[str, Surface],
        decided: Mapping[str, tuple[str, str]],
        label: str,
        note: str = "",
    ) -> None:
        """Through the decision service: lock, re-read, record, then write; raises first."""
        verdicts = {
            c.id: v for c in changes if (v := self.explained.get((c.id, c.new_hash))) is not None
        }
        from mcplock_tui import decisions as service

        outcome = service.decide(
            self.lock_path,
            [c.diff for c in changes],
            action,
            live=live,
            note=note,
            seen=self._written,
            explain=verdicts,
        )
        self._written = outcome.written
        self.undo_stack.append(UndoStep(self.lock, dict(self.decisions), label, tuple(changes)))
        self.lock = outcome.lock
        self.decisions.update(decided)


def _pinned_hash(lock: Lockfile, change: GradedChange) -> str:
    from mcplock_tui.core import review

    pin = lock.servers.get(change.server)
    return "removed" if pin is None else review.live_hash(pin.surface, change.kind, change.name)


def describe(change: GradedChange) -> str:
    return f"{change.kind.value.replace('_', ' ')} {change.name!r} on {change.server!r}"


def _label(action: str, changes: Sequence[GradedChange]) -> str:
    if len(changes) == 1:
        return f"{action} {describe(changes[0])}"
    return f"{action} {len(changes)} changes on {changes[0].server!r}"


def _grouped_rows(
    server: str,
    changes: list[GradedChange],
    expanded: frozenset[str],
    rejected: Container[str] = (),
) -> list[NavRow]:
    """Change rows in order, each group of alike changes folded into one row where it starts."""
    groups = {c.id: g for g in group_changes(changes, rejected=rejected) for c in g.members}
    out: list[NavRow] = []
    seen: set[str] = set()
    for change in changes:
        group = groups.get(change.id)
        if group is None:
            out.append(NavRow(server, change))
        elif group.id not in seen:
            seen.add(group.id)
            is_open = group.id in expanded
            out.append(NavRow(server, group=group, expanded=is_open))
            if is_open:
                out.extend(NavRow(server, member) for member in group.members)
    return out
