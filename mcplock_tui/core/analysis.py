"""Pinned lockfile + captured surfaces -> a graded report (:mod:`mcplock_tui.core.formats.json_report`).

Shared by ``--check``, ``pin``, ``accept``/``reject`` and the app.

Pure: capture happens before this and printing after it, so the whole judgement can be
tested and benchmarked without a server.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import replace

from mcplock_tui.core.diff import Change, diff_surfaces
from mcplock_tui.core.grading.grade import GradeContext, grade_changes, known_hosts, scan_surface
from mcplock_tui.core.hosts import item_hosts
from mcplock_tui.core.lockfile import Lockfile, ServerPin
from mcplock_tui.core.model import CaptureResult, ErrorKind, Finding, Severity, Surface
from mcplock_tui.core.policy import Policy
from mcplock_tui.core.report import Report, ServerReport, Status
from mcplock_tui.core.scan_memo import ScanMemo


def foreign_tools(surfaces: Mapping[str, Surface]) -> dict[str, dict[str, str]]:
    """For each server, every tool name some *other* server offers (name -> that server).

    A server's own names are not filtered out: a tool added under a name another server
    already uses is exactly the shadowing case. (Detectors leave out the checking server's
    own names themselves, see :class:`GradeContext`.)
    """
    owners: dict[str, list[str]] = {}
    for server, surface in sorted(surfaces.items()):
        for tool in surface.tools:
            owners.setdefault(tool, []).append(server)
    out: dict[str, dict[str, str]] = {}
    for server in surfaces:
        # A name's owners are distinct and sorted: the first owner that is not ``server``
        # is the first one, or the second when the first is ``server`` itself.
        out[server] = {
            name: servers[0] if servers[0] != server else servers[1]
            for name, servers in owners.items()
            if servers[0] != server or len(servers) > 1
        }
    return out


def analyze_server(
    name: str,
    pin: ServerPin,
    live: Surface,
    ctx: GradeContext,
    *,
    include_known: bool = False,
    changes: list[Change] | None = None,
) -> ServerReport:
    """``changes``: the diff of ``pin`` against ``live`` when the caller has it already."""
    if changes is None:
        changes = diff_surfaces(name, pin.surface, live)
    graded, suppressed = grade_changes(changes, ctx, pin.surface, live)
    rejections = {
        c.id: r
        for c in graded
        if (r := pin.rejection_for(c.kind, c.name)) is not None and r.hash == c.new_hash
    }
    known: tuple[Finding, ...] = ()
    if include_known:
        changed = {(c.kind.value, c.name) for c in changes}
        known = tuple(scan_surface(name, live, ctx, skip=changed))
    return ServerReport(
        name=name,
        status=Status.DRIFT if graded else Status.CLEAN,
        changes=tuple(graded),
        rejections=rejections,
        known_findings=ctx.policy.filter(known)[0],
        suppressed=suppressed,
    )


_TIMED_OUT = re.compile(r"timed out after ([0-9.]+) s")


def retry_hint(name: str, result: CaptureResult, pinned: bool) -> str:
    """The command that tries a failed server again once its cause is fixed."""
    server = shlex.quote(name)
    if not pinned:
        return f"once it starts, `mcplock-tui pin --server {server}` pins it"
    if result.error_kind is ErrorKind.TIMEOUT:
        seen = _TIMED_OUT.search(result.error or "")
        longer = max(2 * float(seen.group(1)), 30.0) if seen else 60.0
        return (
            f"if it is only slow, `mcplock-tui --check --server {server} --timeout {longer:g}` "
            "gives it longer to answer"
        )
    return f"once it is fixed, `mcplock-tui --check --server {server}` tries it alone"


def report_for(
    name: str,
    result: CaptureResult,
    lock: Lockfile,
    *,
    foreign: Mapping[str, str],
    policy: Policy,
    include_known: bool = False,
    memo: ScanMemo | None = None,
) -> ServerReport:
    """One server's report; the app calls this as each capture finishes."""
    warnings = result.warnings
    if result.surface is None:  # the cause first, pinned or not: "unpinned" would hide it
        pinned = name in lock.servers
        return ServerReport(
            name,
            Status.FAILED,
            error=f"{result.error}{'' if pinned else ' (not pinned yet)'}; "
            + retry_hint(name, result, pinned),
            error_kind=result.error_kind,
            warnings=warnings,
            stderr_log=result.stderr_log,
            stderr_tail=result.stderr_tail,
        )
    if name not in lock.servers:
        return ServerReport(
            name,
            Status.UNPINNED,
            error=f"not in the lockfile; run `mcplock-tui pin --server {name}` to pin it",
            error_kind=ErrorKind.UNPINNED,
            warnings=warnings,
        )
    pin = lock.servers[name]
    changes = diff_surfaces(name, pin.surface, result.surface)
    ctx = GradeContext(
        server=name,
        foreign_tools=foreign,
        policy=policy,
        # Only grading a change and naming a change's new hosts read the known hosts (the
        # scan of unchanged items does not): a server with nothing changed skips the walk
        # of its whole pinned surface.
        known_hosts=known_hosts(pin.surface) if changes else frozenset(),
        own_tools=frozenset(pin.surface.tools) | frozenset(result.surface.tools),
        memo=memo,
    )
    report = analyze_server(
        name, pin, result.surface, ctx, include_known=include_known, changes=changes
    )
    # A host can only be new in a changed item, so the live surface need not be walked whole.
    named = {h for c in report.changes for h in item_hosts(c.kind, c.new)}
    hosts = tuple(sorted(named - ctx.known_hosts))
    return replace(report, warnings=warnings, stderr_log=result.stderr_log, new_hosts=hosts)


def surface_findings(
    name: str,
    surface: Surface,
    foreign: Mapping[str, str],
    *,
    policy: Policy,
    memo: ScanMemo | None = None,
) -> list[Finding]:
    """Findings in a whole surface as it is (what a first pin pins), after policy."""
    ctx = GradeContext(
        server=name,
        foreign_tools=foreign,
        policy=policy,
        own_tools=frozenset(surface.tools),
        memo=memo,
    )
    kept, _ = policy.filter(scan_surface(name, surface, ctx))
    return list(kept)


def pinned_launch(pin: ServerPin) -> str | None:
    value = pin.surface.server.get("launch")
    return value if isinstance(value, str) else None


_SEAL_MARK = "  sealed: "
"""What ``ServerSpec.launch`` puts before the seal of the parts its text does not show."""


def _visible(launch: str) -> str:
    """The launch text without its seal."""
    head, mark, _ = launch.rpartition(_SEAL_MARK)
    return head if mark else launch


def unreviewed_launch(name: str, launch: str, lock: Lockfile) -> ServerReport | None:
    """A report for a server whose launch must not run unattended, or None when it may run.

    ``launch`` is the config's launch as written (``${VAR}`` unexpanded, secrets redacted),
    the same text a pin records; anything else than the pinned text is unreviewed.
    """
    pin = lock.servers.get(name)
    if pin is None:
        return ServerReport(
            name,
            Status.UNPINNED,
            error=f"not in the lockfile, so not started; run `mcplock-tui pin --server {name}` "
            "locally to review and pin it",
            error_kind=ErrorKind.UNPINNED,
            launch=launch,
        )
    old = pinned_launch(pin)
    if old == launch:
        return None
    what, advice = "differently from its pin", "review the new command"
    hidden = "(a redacted argument, an env value, a header value or the working directory)"
    if old is not None and _visible(old) == _visible(launch):
        if _SEAL_MARK in old:
            what = f"differently from its pin: a hidden part of the launch changed {hidden}"
        else:  # pinned before launches were sealed: the hidden parts were never compared
            what = f"with hidden parts {hidden} that its pin, made before launches were sealed, "
            what += "does not cover"
            advice = "read them in the config"
    return ServerReport(
        name,
        Status.LAUNCH_CHANGED,
        error=f"the config launches this server {what}, so it was not started; {advice}, "
        f"then `mcplock-tui accept {name}/server` locally",
        error_kind=ErrorKind.LAUNCH_CHANGED,
        pinned_launch=old,
        launch=launch,
    )


def foreign_for(lock: Lockfile, captures: Mapping[str, CaptureResult]) -> dict[str, dict[str, str]]:
    """Tool names of the other servers, live where captured and pinned otherwise."""
    surfaces: dict[str, Surface] = {n: p.surface for n, p in lock.servers.items()}
    surfaces.update({n: r.surface for n, r in captures.items() if r.surface is not None})
    return foreign_tools(surfaces)


def analyze(
    lock: Lockfile,
    captures: Mapping[str, CaptureResult],
    *,
    configured: Sequence[str],
    unconfigured: Sequence[str] = (),
    policy: Policy | None = None,
    fail_on: Severity | None = None,
    include_known: bool = False,
    not_started: Sequence[ServerReport] = (),
    memo: ScanMemo | None = None,
) -> Report:
    """Grade the checked servers; ``unconfigured`` lists pinned servers no config names.

    ``not_started`` are reports for configured servers that were deliberately not captured
    (see :func:`unreviewed_launch`); ``memo`` spares scanning inputs scanned before.
    """
    pol = policy or Policy()
    foreign = foreign_for(lock, captures)
    reports = [
        report_for(
            name,
            captures[name],
            lock,
            foreign=foreign.get(name, {}),
            policy=pol,
            include_known=include_known,
            memo=memo,
        )
        for name in sorted(configured)
        if name in captures
    ]
    reports.extend(not_started)
    reports.sort(key=lambda r: r.name)
    reports.extend(ServerReport(name, Status.UNCONFIGURED) for name in sorted(unconfigured))
    threshold = fail_on if fail_on is not None else pol.fail_on
    return Report(servers=tuple(reports), fail_on=threshold, fail_on_known=pol.fail_on_known)
