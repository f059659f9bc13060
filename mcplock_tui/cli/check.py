"""Headless ``--check``: config -> capture -> diff and grade -> report -> exit code.

Config, lockfile and policy may come from a pull request, so ``--check`` starts only servers
whose launch is exactly the pinned (reviewed) one; any other configured server is reported
as ``unpinned`` or ``launch-changed`` with both launches, without running its command.

This path imports neither textual nor anthropic (``--explain`` loads the latter on demand);
a test inspects ``sys.modules`` to keep it that way.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from mcplock_tui.capture import capture_sync
from mcplock_tui.capture.probe import probe_report
from mcplock_tui.cli.options import read_lock_or_explain, workspace
from mcplock_tui.core.analysis import Report, analyze, unreviewed_launch
from mcplock_tui.core.model import Severity
from mcplock_tui.core.report import to_json, to_sarif
from mcplock_tui.storage import write_text_atomic


def build_report(args: argparse.Namespace, cwd: Path | None = None) -> tuple[Report, Path]:
    ws = workspace(args, cwd)
    lock = read_lock_or_explain(ws.lock_path)
    held = [r for s in ws.specs if (r := unreviewed_launch(s.name, s.launch(), lock))]
    runnable = [s for s in ws.specs if s.name not in {r.name for r in held}]
    captures = capture_sync(runnable, timeout=ws.timeout, log_dir=ws.log_dir)
    unconfigured = [] if args.server else sorted(set(lock.servers) - set(ws.all_names))
    fail_on = Severity.parse(args.fail_on) if args.fail_on else None
    report = analyze(
        lock,
        captures,
        configured=[s.name for s in ws.specs],
        unconfigured=unconfigured,
        policy=ws.policy,
        fail_on=fail_on,
        include_known=True,
        not_started=held,
    )
    if getattr(args, "probe", False):
        report = probe_report(report, runnable, captures, timeout=ws.timeout, log_dir=ws.log_dir)
    if getattr(args, "explain", False):
        from mcplock_tui.explain.run import explain_report  # anthropic only when asked

        report = explain_report(report, args)
    return report, ws.lock_path


def format_report(report: Report, fmt: str, lock_path: Path, cwd: Path) -> str:
    try:
        shown = str(lock_path.relative_to(cwd))
    except ValueError:
        shown = str(lock_path)
    if fmt == "json":
        return json.dumps(to_json(report, shown), indent=2, ensure_ascii=True) + "\n"
    if fmt == "sarif":
        try:
            text = lock_path.read_text(encoding="utf-8")
        except OSError:
            text = ""
        return json.dumps(to_sarif(report, shown, text), indent=2, ensure_ascii=True) + "\n"
    raise ValueError(fmt)


def run(args: argparse.Namespace) -> int:
    cwd = Path.cwd()
    report, lock_path = build_report(args, cwd)
    if args.format == "text":
        from mcplock_tui.cli.render import make_console, render_report  # rich: text output only

        if args.output:
            with args.output.open("w", encoding="utf-8") as handle:
                render_report(make_console(handle, width=120), report, str(lock_path))
        else:
            render_report(make_console(sys.stdout), report, str(lock_path))
    else:
        text = format_report(report, args.format, lock_path, cwd)
        if args.output:
            write_text_atomic(args.output, text)
        else:
            sys.stdout.write(text)
    sarif_path = getattr(args, "sarif", None)
    if sarif_path:
        if sarif_path.parent and not sarif_path.parent.exists():
            sarif_path.parent.mkdir(parents=True)
        write_text_atomic(sarif_path, format_report(report, "sarif", lock_path, cwd))
    return int(report.exit_code())
