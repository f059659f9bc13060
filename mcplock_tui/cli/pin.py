"""``pin``: capture the selected servers and write their definitions to the lockfile.

Pins of servers not selected stay byte for byte; a server that fails keeps its old pin and
the command exits 2. Findings in what is being pinned are printed as "known", so a
poisoned server is never pinned silently.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from rich.text import Text

from mcplock_tui.capture import capture_sync
from mcplock_tui.cli.options import workspace
from mcplock_tui.cli.render import (
    REDACTION_CHECK,
    REDACTION_HINT,
    known_finding_line,
    make_console,
    safe,
)
from mcplock_tui.config import is_personal_config
from mcplock_tui.core.analysis import foreign_for
from mcplock_tui.core.grade import GradeContext, scan_surface
from mcplock_tui.core.lockfile import Lockfile, ServerPin
from mcplock_tui.errors import LockfileError
from mcplock_tui.evidence import pin_decisions, record_decisions, signing_key
from mcplock_tui.storage import read_lockfile, write_lockfile


def run(args: argparse.Namespace) -> int:
    ws = workspace(args, Path.cwd())
    try:
        lock = read_lockfile(ws.lock_path)
    except FileNotFoundError:
        lock = Lockfile()
    except LockfileError as exc:
        raise LockfileError(
            f"{exc}; nothing was written (fix or move the file, then pin again)"
        ) from None
    out = make_console(sys.stdout)
    err = make_console(sys.stderr)
    for source in sorted({s.source for s in ws.specs if is_personal_config(s.source)}):
        out.print(Text.assemble("warning: servers read from Claude Desktop's own config ",
                                safe(source), " (no project config here); ", REDACTION_CHECK))
    captures = capture_sync(ws.specs, timeout=ws.timeout, log_dir=ws.log_dir)
    servers = dict(lock.servers)
    failed = 0
    foreign = foreign_for(lock, captures)
    for spec in ws.specs:
        result = captures[spec.name]
        if result.surface is None:
            failed += 1
            kept = "kept its previous pin" if spec.name in servers else "not pinned"
            err.print(
                Text.assemble(
                    ("! ", "bold red"),
                    safe(spec.name, "bold"),
                    ": ",
                    safe(result.error or "failed"),
                    f" ({kept})",
                )
            )
            if result.stderr_log:
                err.print(Text.assemble("    server log: ", safe(result.stderr_log)))
            continue
        surface = result.surface
        servers[spec.name] = ServerPin(surface=surface)
        s = surface
        out.print(
            Text.assemble(
                ("✓ ", "green"),
                safe(spec.name, "bold"),
                f"  {len(s.tools)} tools, {len(s.prompts)} prompts, {len(s.resources)} resources, "
                f"{len(s.resource_templates)} templates{', instructions' if s.instructions else ''}",
            )
        )
        for warning in result.warnings:
            out.print(Text.assemble("    warning: ", safe(warning)))
        for where in spec.redacted_fields():  # the field, never the value
            out.print(Text.assemble("    warning: ", safe(spec.name), f": {where} {REDACTION_HINT}"))
        ctx = GradeContext(
            server=spec.name,
            foreign_tools=foreign.get(spec.name, {}),
            policy=ws.policy,
            own_tools=frozenset(surface.tools),
        )
        kept_findings, _ = ws.policy.filter(scan_surface(spec.name, surface, ctx))
        for f in kept_findings:
            out.print(known_finding_line(f, "  (pinned as is: read it before you commit)"))
    if args.prune and not args.server:
        for name in sorted(set(servers) - set(ws.all_names)):
            del servers[name]
            out.print(
                Text.assemble(
                    "- ", safe(name, "bold"), "  removed from the lockfile (no longer configured)"
                )
            )
    new_lock = replace(lock, servers=servers)
    decisions = pin_decisions(lock, new_lock)
    if decisions:
        signing_key(ws.lock_path)  # before writing, so that no pin goes unrecorded
    changed = write_lockfile(ws.lock_path, new_lock)
    record_decisions(ws.lock_path, decisions)
    out.print(Text(f"{'wrote' if changed else 'unchanged'} {ws.lock_path}", style="dim"))
    return 2 if failed else 0
