"""``pin``: capture servers that have no pin yet and write their definitions to the lockfile.

A pin is a reviewed decision, so ``pin`` never replaces one: for a pinned server whose live
definitions drifted it changes nothing, lists the drift (bands and counts) and exits 1,
pointing at ``accept`` and the review app, which show and record each change they accept.
Findings in what is being pinned are printed as "known", so a poisoned server is never
pinned silently. Before capture, ``pin`` says which command it is about to run for every
server whose launch is not the pinned one: capture executes the config's commands.

The one replacement is ``pin --server X --replace``, for a pin that is broken (edited by
hand, or no longer what the decision log's records say, so nothing reads it): it refuses a
pin that reads fine, shows what it pins, and records it through the decision service; the
other pins stay as they are.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.text import Text

from mcplock_tui.capture import capture_sync
from mcplock_tui.cli.options import Workspace, workspace
from mcplock_tui.cli.progress import CaptureProgress, drift_word, plural
from mcplock_tui.cli.render import (
    REDACTION_CHECK,
    REDACTION_HINT,
    _summary,
    known_finding_line,
    make_console,
    render_stderr_tail,
    safe,
)
from mcplock_tui.config import is_personal_config
from mcplock_tui.core.analysis import foreign_for, pinned_launch, surface_findings
from mcplock_tui.core.exitcodes import ExitCode
from mcplock_tui.core.lockfile import Lockfile
from mcplock_tui.core.model import CaptureResult, Finding, Surface
from mcplock_tui.core.report import Report
from mcplock_tui.decisions import replace_pins
from mcplock_tui.errors import ConfigError, LockfileError, PinHashError
from mcplock_tui.evidence.ledger import bind, read_bound
from mcplock_tui.findings_cache import load as load_memo
from mcplock_tui.findings_cache import save as save_memo
from mcplock_tui.pinning import plan_pin, write_plan
from mcplock_tui.storage import loads, read_bytes_nofollow


def _read(ws: Workspace) -> Lockfile:
    try:
        return read_bound(ws.lock_path)
    except FileNotFoundError:
        return Lockfile()
    except PinHashError as exc:  # its message names `pin --server X --replace`
        raise PinHashError(f"{exc}; nothing was written", server=exc.server) from None
    except LockfileError as exc:
        raise LockfileError(
            f"{exc}; nothing was written (fix or move the file, then pin again)"
        ) from None


def _read_for_replace(ws: Workspace, names: list[str]) -> Lockfile:
    """The lockfile without the named pins, which must be the broken ones."""
    try:
        raw = read_bytes_nofollow(ws.lock_path)
    except FileNotFoundError:
        raise LockfileError(
            f"no lockfile at {ws.lock_path}; run `mcplock-tui pin` to create it"
        ) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LockfileError(f"{ws.lock_path}: not UTF-8 (byte {exc.start})") from None
    try:
        bind(ws.lock_path, loads(text, str(ws.lock_path)))
    except PinHashError as exc:
        if exc.server not in names:
            raise
    else:
        raise ConfigError(
            "--replace is for a broken pin, and these pins read fine; a pin is a reviewed "
            "decision: take its changes with `mcplock-tui accept SERVER` (or the review app), "
            "which shows each one"
        )
    try:
        return bind(ws.lock_path, loads(text, str(ws.lock_path), without=names))
    except LockfileError as exc:
        raise LockfileError(f"{exc}; nothing was written") from None


def announce_launches(err: Console, ws: Workspace, lock: Lockfile) -> None:
    """Name the command of every server about to run with a launch nobody pinned."""
    for spec in ws.specs:
        pin = lock.servers.get(spec.name)
        launch = spec.launch()
        if pin is None or pinned_launch(pin) != launch:
            was = "" if pin is None else f" (pinned: {pinned_launch(pin)})"
            err.print(
                Text.assemble(
                    safe(spec.name, "bold"), ": starting ", safe(launch), safe(was, "dim")
                )
            )


def _failed(err: Console, name: str, result: CaptureResult, pinned: bool) -> None:
    kept = "kept its previous pin" if pinned else "not pinned"
    err.print(
        Text.assemble(
            ("! ", "bold red"),
            safe(name, "bold"),
            ": ",
            safe(result.error or "failed"),
            f" ({kept})",
        )
    )
    if result.stderr_log:
        err.print(Text.assemble("    server log: ", safe(result.stderr_log)))
    render_stderr_tail(err, result.stderr_tail)


def _print_new(
    out: Console, ws: Workspace, name: str, result: CaptureResult, findings: Sequence[Finding]
) -> None:
    s = result.surface
    assert s is not None
    out.print(
        Text.assemble(
            ("✓ ", "green"),
            safe(name, "bold"),
            f"  {plural(len(s.tools), 'tool')}, {plural(len(s.prompts), 'prompt')}, "
            f"{plural(len(s.resources), 'resource')}, "
            f"{plural(len(s.resource_templates), 'template')}"
            f"{', instructions' if s.instructions else ''}",
        )
    )
    for warning in result.warnings:
        out.print(Text.assemble("    warning: ", safe(warning)))
    spec = next((sp for sp in ws.specs if sp.name == name), None)
    for where in spec.redacted_fields() if spec is not None else ():  # the field, never the value
        out.print(Text.assemble("    warning: ", safe(name), f": {where} {REDACTION_HINT}"))
    for f in findings:
        out.print(known_finding_line(f, "  (pinned as is: read it before you commit)"))


def _report_drift(out: Console, report: Report) -> None:
    """Pinned servers: unchanged, or drifted and left alone (each change listed)."""
    for server in report.servers:
        if not server.changes:
            out.print(
                Text.assemble(("✓ ", "green"), safe(server.name, "bold"), "  pinned and unchanged")
            )
            continue
        out.print(
            Text.assemble(
                ("✗ ", "red"),
                safe(server.name, "bold"),
                ": pinned definitions drifted; the pin was kept (",
                _summary(list(server.changes), server.rejections),
                ")",
            )
        )
        for c in sorted(server.changes, key=lambda c: (-c.severity, c.kind.value, c.name)):
            out.print(
                Text.assemble(
                    "    ",
                    (c.severity.label.upper(), "bold"),
                    " ",
                    safe(c.id),
                    f"  {c.change.value}",
                )
            )
        out.print(
            Text.assemble(
                "    review it in the review app (`mcplock-tui`), or `mcplock-tui accept ",
                safe(server.name),
                "` to see and accept each change",
            )
        )


def run_replace(args: argparse.Namespace) -> int:
    """``pin --server X --replace``: a new pin for a broken one, shown before it is written."""
    if not args.server:
        raise ConfigError("--replace needs --server NAME: it replaces the named servers' pins only")
    ws = workspace(args, Path.cwd())
    names = [s.name for s in ws.specs]
    lock = _read_for_replace(ws, names)
    out, err = make_console(sys.stdout), make_console(sys.stderr)
    announce_launches(err, ws, lock)
    captures = capture_sync(ws.specs, timeout=ws.timeout, log_dir=ws.log_dir)
    failed = [n for n in names if captures[n].surface is None]
    for name in failed:
        _failed(err, name, captures[name], pinned=False)
    if failed:
        err.print(Text("nothing was written; the broken pin is still there", style="bold"))
        return ExitCode.CANNOT_CHECK
    foreign = foreign_for(lock, captures)
    fresh: dict[str, Surface] = {}
    for name in names:
        result = captures[name]
        assert result.surface is not None
        fresh[name] = result.surface
        found = surface_findings(name, result.surface, foreign.get(name, {}), policy=ws.policy)
        _print_new(out, ws, name, result, found)
        for key, item in sorted(result.surface.tools.items()):
            description = item.get("description") if isinstance(item, dict) else None
            text = description if isinstance(description, str) else ""
            out.print(Text.assemble("    tool ", safe(key, "bold"), ": ", safe(text[:200])))
    outcome = replace_pins(ws.lock_path, fresh)
    out.print(
        Text.assemble(
            f"replaced the broken pin of {', '.join(names)}; the other pins are unchanged; "
            f"wrote {ws.lock_path} and recorded {len(outcome.records)} decision(s)",
        )
    )
    return ExitCode.OK


def run(args: argparse.Namespace) -> int:
    if getattr(args, "replace", False):
        return run_replace(args)
    ws = workspace(args, Path.cwd())
    lock = _read(ws)
    out, err = make_console(sys.stdout), make_console(sys.stderr)
    for source in sorted({s.source for s in ws.specs if is_personal_config(s.source)}):
        out.print(
            Text.assemble(
                "warning: servers read from Claude Desktop's own config ",
                safe(source),
                " (no project config here); ",
                REDACTION_CHECK,
            )
        )
    announce_launches(err, ws, lock)
    with CaptureProgress([s.name for s in ws.specs], sys.stderr, drift_word(lock)) as progress:
        captures = capture_sync(
            ws.specs, timeout=ws.timeout, log_dir=ws.log_dir, on_result=progress.finished
        )
    memo = load_memo()  # what is pinned here is scanned once; the next check reads it
    prune = sorted(set(lock.servers) - set(ws.all_names)) if args.prune and not args.server else []
    order = [s.name for s in ws.specs]
    plan = plan_pin(lock, captures, order, policy=ws.policy, prune=prune, memo=memo)
    save_memo(memo)
    for name in order:
        if name in plan.failed:
            _failed(err, name, plan.failed[name], name in lock.servers)
        elif name in plan.fresh:
            _print_new(out, ws, name, captures[name], plan.findings[name])
    if plan.drift is not None:
        _report_drift(out, plan.drift)
    for name in plan.prune:
        out.print(
            Text.assemble(
                "- ", safe(name, "bold"), "  removed from the lockfile (no longer configured)"
            )
        )
    outcome = write_plan(ws.lock_path, plan)
    changed = bool(outcome.records)
    out.print(Text(f"{'wrote' if changed else 'unchanged'} {ws.lock_path}", style="dim"))
    if plan.failed:
        return ExitCode.CANNOT_CHECK
    return ExitCode.DRIFT if plan.drifted else ExitCode.OK
