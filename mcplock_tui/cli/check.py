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
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from itertools import islice
from pathlib import Path

from mcplock_tui.capture import capture_sync
from mcplock_tui.cli.options import lock_path as lock_path_for
from mcplock_tui.cli.options import read_lock_or_explain, workspace
from mcplock_tui.cli.progress import CaptureProgress, drift_word
from mcplock_tui.core.analysis import analyze, unreviewed_launch
from mcplock_tui.core.model import ErrorKind, Severity
from mcplock_tui.core.report import Report
from mcplock_tui.errors import MCPLockError
from mcplock_tui.findings_cache import load as load_memo
from mcplock_tui.findings_cache import save as save_memo
from mcplock_tui.spec import ServerSpec
from mcplock_tui.storage import write_text_atomic


def build_report(
    args: argparse.Namespace, cwd: Path | None = None, sources: list[str] | None = None
) -> tuple[Report, Path]:
    """The graded report and the lockfile's path; ``sources`` receives the config files read."""
    ws = workspace(args, cwd)
    if sources is not None:
        sources.extend(dict.fromkeys(_shown(Path(s.source), ws.cwd) for s in ws.specs))
    lock = read_lock_or_explain(ws.lock_path)
    # A launch with hidden parts is sealed with scrypt, which releases the GIL: seal in parallel.
    with ThreadPoolExecutor() as pool:
        launches = list(pool.map(ServerSpec.launch, ws.specs))
    held = [
        r
        for s, launch in zip(ws.specs, launches, strict=True)
        if (r := unreviewed_launch(s.name, launch, lock))
    ]
    runnable = [s for s in ws.specs if s.name not in {r.name for r in held}]
    with CaptureProgress([s.name for s in runnable], sys.stderr, drift_word(lock)) as progress:
        # The pins lent to capture: an unchanged item is held once, as its live object.
        captures = capture_sync(
            runnable,
            timeout=ws.timeout,
            log_dir=ws.log_dir,
            on_result=progress.finished,
            pinned={name: pin.surface for name, pin in lock.servers.items()},
        )
    unconfigured = [] if args.server else sorted(set(lock.servers) - set(ws.all_names))
    fail_on = Severity.parse(args.fail_on) if args.fail_on else None
    memo = load_memo()  # findings of unchanged items, from earlier scans on this machine
    report = analyze(
        lock,
        captures,
        configured=[s.name for s in ws.specs],
        unconfigured=unconfigured,
        policy=ws.policy,
        fail_on=fail_on,
        include_known=True,
        not_started=held,
        memo=memo,
    )
    save_memo(memo)
    if getattr(args, "probe", False):
        from mcplock_tui.capture.probe import probe_report  # only when asked

        report = probe_report(report, runnable, captures, timeout=ws.timeout, log_dir=ws.log_dir)
    if getattr(args, "explain", False):
        from mcplock_tui.explain.run import explain_report  # anthropic only when asked

        report = explain_report(report, args)
    return report, ws.lock_path


def format_report(report: Report, fmt: str, lock_path: Path, cwd: Path) -> str:
    return "".join(report_pieces(report, fmt, lock_path, cwd))


def report_pieces(report: Report, fmt: str, lock_path: Path, cwd: Path) -> Iterator[str]:
    """The machine report's text in pieces of a few thousand tokens, to be written as they
    come: the whole text of a report of 2,000 changes is megabytes, held beside the report."""
    # Each format's module (the SARIF one with tomllib) loads only for its own output.
    try:
        shown = str(lock_path.relative_to(cwd))
    except ValueError:
        shown = str(lock_path)
    if fmt == "json":
        from mcplock_tui.core.formats.json_report import to_json

        return _json_pieces(to_json(report, shown, deferred=True))
    if fmt == "sarif":
        from mcplock_tui.core.formats.sarif import to_sarif

        try:
            text = lock_path.read_text(encoding="utf-8")
        except OSError:
            text = ""
        return _json_pieces(to_sarif(report, shown, text))
    raise ValueError(fmt)


_REPORT_ENCODER = json.JSONEncoder(indent=2, ensure_ascii=True)


def _json_pieces(doc: object) -> Iterator[str]:
    """``json.dumps(doc, indent=2, ensure_ascii=True) + "\\n"``, the same text in pieces.

    The indenting encoder yields a piece per token and ``json.dumps`` joins them all at once,
    a list of about a million strings for a report of 2,000 changes (four to five times the
    text); joined a few thousand at a time, no more than one piece is held beside the report.
    """
    chunks = _REPORT_ENCODER.iterencode(doc)
    while batch := list(islice(chunks, 4096)):
        yield "".join(batch)
    yield "\n"


def _shown(lock_path: Path, cwd: Path) -> str:
    try:
        return str(lock_path.relative_to(cwd))
    except ValueError:
        return str(lock_path)


def write_error_reports(args: argparse.Namespace, cwd: Path, message: str, kind: str) -> None:
    """The machine reports for a check that could not start, so CI always has a file to read.

    The stderr line is still printed by the caller (``cli.main``), with the same message.
    """
    from mcplock_tui.core.formats.json_report import error_json
    from mcplock_tui.core.formats.sarif import error_sarif

    shown = _shown(lock_path_for(args, cwd), cwd)
    fmt = args.format
    if fmt == "json":
        text = json.dumps(error_json(message, kind, shown), indent=2, ensure_ascii=True) + "\n"
    elif fmt == "sarif":
        text = json.dumps(error_sarif(message, kind, shown), indent=2, ensure_ascii=True) + "\n"
    else:
        from mcplock_tui.cli.render import one_line

        text = f"mcplock-tui: {kind}: {one_line(message)}\nExit 2.\n"
    if args.output:
        write_text_atomic(args.output, text)
    elif fmt != "text":
        sys.stdout.write(text)
    sarif_path = getattr(args, "sarif", None)
    if sarif_path:
        sarif_path.parent.mkdir(parents=True, exist_ok=True)
        doc = error_sarif(message, kind, shown)
        write_text_atomic(sarif_path, json.dumps(doc, indent=2, ensure_ascii=True) + "\n")


def run(args: argparse.Namespace) -> int:
    cwd = Path.cwd()
    sources: list[str] = []
    try:
        report, lock_path = build_report(args, cwd, sources)
    except MCPLockError as exc:
        _try_error_reports(args, cwd, str(exc), exc.kind)
        raise
    except Exception as exc:  # still a report; cli.main turns the exception into exit 2
        _try_error_reports(
            args, cwd, f"internal error: {type(exc).__name__}: {exc}", ErrorKind.INTERNAL
        )
        raise
    if args.format == "text":
        from mcplock_tui.cli.render import make_console, render_report  # rich: text output only

        if args.output:
            with args.output.open("w", encoding="utf-8") as handle:
                render_report(
                    make_console(handle, width=120), report, str(lock_path), configs=sources
                )
        else:
            render_report(make_console(sys.stdout), report, str(lock_path), configs=sources)
    else:
        pieces = report_pieces(report, args.format, lock_path, cwd)
        if args.output:
            write_text_atomic(args.output, pieces)
        else:
            sys.stdout.writelines(pieces)
    sarif_path = getattr(args, "sarif", None)
    if sarif_path:
        if sarif_path.parent and not sarif_path.parent.exists():
            sarif_path.parent.mkdir(parents=True)
        write_text_atomic(sarif_path, format_report(report, "sarif", lock_path, cwd))
    return report.exit_code()


def _try_error_reports(args: argparse.Namespace, cwd: Path, message: str, kind: str) -> None:
    try:
        write_error_reports(args, cwd, message, kind)
    except OSError as exc:  # the original error matters more; say why the file is missing
        print(f"mcplock-tui: could not write the report: {exc.strerror or exc}", file=sys.stderr)
