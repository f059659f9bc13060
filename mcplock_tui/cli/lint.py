"""``lint``: advisory checks on the live tools of each server (ambiguity, scope, annotations).

Findings are judgement calls, so the exit code is 0 unless ``--strict``; a server that
cannot be captured still exits 2, since nothing was checked for it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich.text import Text

from mcplock_tui.capture import capture_sync
from mcplock_tui.cli.options import workspace
from mcplock_tui.cli.render import SEVERITY_STYLE, make_console, safe
from mcplock_tui.core.exitcodes import ExitCode
from mcplock_tui.core.formats.json_report import findings_to_json
from mcplock_tui.core.formats.sarif import findings_to_sarif
from mcplock_tui.core.lint import lint_tools
from mcplock_tui.core.model import Finding
from mcplock_tui.storage import write_text_atomic


def run(args: argparse.Namespace) -> int:
    ws = workspace(args, Path.cwd())
    captures = capture_sync(ws.specs, timeout=ws.timeout, log_dir=ws.log_dir)
    findings: list[Finding] = []
    failed: dict[str, str] = {}
    for spec in ws.specs:
        result = captures[spec.name]
        if result.surface is None:
            failed[spec.name] = result.error or "failed"
            continue
        found, _suppressed = ws.policy.filter(lint_tools(spec.name, result.surface.tools))
        findings.extend(found)
    findings.sort(key=lambda f: (f.server, -f.severity, f.item, f.code))
    fmt = getattr(args, "format", "text")
    output: Path | None = getattr(args, "output", None)
    if fmt == "text":
        handle = output.open("w", encoding="utf-8") if output else sys.stdout
        try:
            console = make_console(handle)
            for f in findings:
                console.print(
                    Text.assemble(
                        (f"{f.severity.label.upper():8}", SEVERITY_STYLE[f.severity]),
                        " ",
                        f.code,
                        " ",
                        safe(f.server, "bold"),
                        "/",
                        safe(f.item, "bold"),
                        ": ",
                        safe(f.message),
                    )
                )
            for name, error in sorted(failed.items()):
                console.print(
                    Text.assemble(("! ", "bold red"), safe(name, "bold"), ": ", safe(error))
                )
            console.print(
                Text(
                    f"{len(findings)} lint finding{'s' if len(findings) != 1 else ''}"
                    f"{' (advisory)' if not args.strict else ''}.",
                    style="bold",
                )
            )
        finally:
            if output:
                handle.close()
    else:
        if fmt == "json":
            doc = findings_to_json(findings, failed)
        else:
            try:
                lock_text = ws.lock_path.read_text(encoding="utf-8")
            except OSError:
                lock_text = ""
            doc = findings_to_sarif(findings, ws.lock_path.name, lock_text)
        text = json.dumps(doc, indent=2, ensure_ascii=True) + "\n"
        if output:
            write_text_atomic(output, text)
        else:
            sys.stdout.write(text)
    if failed:
        return ExitCode.UNUSABLE
    return ExitCode.FINDINGS if args.strict and findings else ExitCode.OK
