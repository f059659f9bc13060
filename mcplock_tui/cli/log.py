"""``log``: show the decision log, verify it, and export a range for an auditor.

``log verify`` exits 1 on any problem (each printed as ``record N: …``) and 0 when the chain,
every signature and the lockfile agree; an auditor runs ``log verify --bundle FILE`` on an
exported bundle in an empty folder, with no key and no lockfile.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from mcplock_tui.cli.options import lock_path
from mcplock_tui.cli.render import make_console, safe
from mcplock_tui.core.exitcodes import ExitCode
from mcplock_tui.core.lockfile import Lockfile
from mcplock_tui.errors import ConfigError, LockfileError
from mcplock_tui.evidence.records import EvidenceError, EvidencePaths, Record, read_public_keys
from mcplock_tui.evidence.verify import (
    Verification,
    check_lockfile,
    export_bundle,
    read_log,
    verify_bundle,
    verify_log,
)
from mcplock_tui.storage import read_lockfile, write_text_atomic


def run(args: argparse.Namespace) -> int:
    path = lock_path(args, Path.cwd())
    command = getattr(args, "log_command", None) or "show"
    if command == "verify":
        return verify(args, path)
    if command == "export":
        return export(args, path)
    return show(args, path)


def _short(value: object) -> str:
    text = "none" if value is None else str(value)
    return text if len(text) <= 19 else text[:19] + "…"


def render_record(console: Console, r: Record) -> None:
    console.print(
        Text.assemble(
            (f"#{r['seq']}", "bold"),
            "  ",
            safe(r["time"]),
            "  ",
            (r["decision"], "bold"),
            "  ",
            safe(r["change"], "bold"),
            "  by ",
            safe(r["reviewer"]),
        )
    )
    console.print(
        Text.assemble(
            "    ",
            safe(_short(r["old_hash"]), "red"),
            " -> ",
            safe(_short(r["new_hash"]), "green"),
        )
    )
    listed = r.get("items")
    if isinstance(listed, dict):
        console.print(Text.assemble("    ", (f"{len(listed)} items", "dim"), " listed by hash"))
    if r["note"]:
        console.print(Text.assemble("    note: ", safe(r["note"])))
    explain = r["explain"]
    if isinstance(explain, dict):
        console.print(
            Text.assemble(
                "    explain: ",
                safe(str(explain.get("verdict", "")), "bold"),
                ": ",
                safe(str(explain.get("reason", ""))),
            )
        )


def show(args: argparse.Namespace, path: Path) -> int:
    fmt = args.format
    if fmt not in ("text", "json"):
        raise ConfigError(f"log shows text or json, not {fmt}")
    log = EvidencePaths.for_lock(path).log
    entries = read_log(log)
    if fmt == "json":
        doc: dict[str, Any] = {
            "version": 1,
            "log": str(log),
            "records": [
                {"line": n, "unreadable": e} if isinstance(e, str) else e
                for n, e in enumerate(entries, 1)
            ],
        }
        sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=True) + "\n")
        return ExitCode.OK
    out = make_console(sys.stdout)
    if not entries:
        out.print(Text.assemble("no decisions recorded yet (", safe(str(log)), ")"))
        return ExitCode.OK
    for n, entry in enumerate(entries, 1):
        if isinstance(entry, str):
            out.print(Text.assemble((f"line {n}", "bold red"), ": unreadable: ", safe(entry)))
        else:
            render_record(out, entry)
    return ExitCode.OK


def _report(result: Verification, what: str, tail: str) -> int:
    out = make_console(sys.stdout)
    if result.ok:
        keys = ", ".join(result.keys) or "none"
        count = len(result.records)
        out.print(
            Text.assemble(
                (f"{what} OK", "bold green"),
                f": {count} record{'s' if count != 1 else ''}, chain "
                f"intact, signatures verified (keys: {keys})",
                tail,
            )
        )
        return ExitCode.OK
    for problem in result.problems:
        out.print(safe(problem))
    n = len(result.problems)
    plural = "s" if n != 1 else ""
    out.print(Text(f"{what} FAILED verification: {n} problem{plural}", style="bold red"))
    return ExitCode.FINDINGS


def verify(args: argparse.Namespace, path: Path) -> int:
    if args.bundle is not None:
        try:
            raw = args.bundle.read_bytes()
        except OSError as exc:
            raise ConfigError(f"{args.bundle}: cannot read: {exc.strerror}") from None
        try:
            doc = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            return _report(Verification((), ("bundle: not valid JSON",), ()), "bundle", "")
        try:
            trusted = read_public_keys(EvidencePaths.for_lock(path).pub)
        except EvidenceError as exc:
            return _report(Verification((), (str(exc),), ()), "bundle", "")
        result = verify_bundle(doc, trusted, tuple(args.trust or ()))
        span = f"; records {doc.get('from')}..{doc.get('to')}" if result.ok else ""
        return _report(result, "bundle", span)
    paths = EvidencePaths.for_lock(path)
    if not os.path.lexists(paths.log) and not os.path.lexists(paths.pub):
        return _verify_without_log(path, paths)
    lock: Lockfile | None
    extra: tuple[str, ...] = ()
    try:
        lock = read_lockfile(path)
    except FileNotFoundError:
        lock = None
    except LockfileError as exc:
        lock, extra = None, (f"lockfile: {exc}",)
    result = verify_log(path, lock, check_lock=not extra)
    if extra:
        # The log's own problems are still shown, but a lockfile that cannot be read cannot
        # be verified against it: that is "could not check" (2), not "checked, failed" (1).
        result = Verification(result.records, (*result.problems, *extra), result.keys)
        _report(result, "decision log", "")
        return ExitCode.UNUSABLE
    return _report(result, "decision log", "; the lockfile agrees with the last decisions")


def _verify_without_log(path: Path, paths: EvidencePaths) -> int:
    """No log and no keys: fine for an empty project, never for a lockfile holding pins."""
    try:
        lock = read_lockfile(path)
    except FileNotFoundError:
        lock = None
    if lock is None or not lock.servers:
        make_console(sys.stdout).print(
            Text.assemble("no decisions recorded yet (", safe(str(paths.log)), ")")
        )
        return ExitCode.OK
    problems = (
        f"{paths.log.name}: missing, but {path.name} pins {len(lock.servers)} server(s): no "
        "pin in it was reviewed here (pin them again with `mcplock-tui pin` after moving the "
        "lockfile away)",
        *check_lockfile([], lock),
    )
    return _report(Verification((), problems, ()), "decision log", "")


def export(args: argparse.Namespace, path: Path) -> int:
    bundle = export_bundle(path, args.first, args.last)
    write_text_atomic(args.out, json.dumps(bundle, indent=2, ensure_ascii=True) + "\n")
    make_console(sys.stdout).print(
        Text.assemble(
            f"exported records {bundle['from']}..{bundle['to']} to ",
            safe(str(args.out), "bold"),
            f" (signed by {bundle['signed_by']})",
        )
    )
    return ExitCode.OK
