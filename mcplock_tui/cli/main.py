"""Command line entry point. ``--check`` and the other headless commands never import the app."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from mcplock_tui import __version__
from mcplock_tui.cli.options import add_common
from mcplock_tui.core.exitcodes import ExitCode
from mcplock_tui.errors import MCPLockError
from mcplock_tui.startup import resume_collector

FORMATS = ("text", "json", "sarif")
SEVERITIES = ("critical", "high", "medium", "low")


def build_parser(*, commands: bool = True) -> argparse.ArgumentParser:
    """The command line's parser; ``commands=False`` leaves out the subcommands, for an empty
    command line (the app), which parses to the same namespace without them."""
    parser = argparse.ArgumentParser(
        prog="mcplock-tui",
        description="Pin MCP server definitions in a lockfile, check them for drift and poisoning, "
        "and review changes in a terminal app.",
    )
    parser.add_argument("--version", action="version", version=f"mcplock-tui {__version__}")
    parser.add_argument("--check", action="store_true", help="headless check for CI (no app)")
    _add_check_options(parser)
    add_common(parser)
    if not commands:
        parser.set_defaults(command=None)  # what the subparsers' dest holds when none is named
        return parser
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = sub.add_parser("check", help="the headless check, as --check (for CI)")
    _add_check_options(check, suppress=True)
    add_common(check, suppress=True)

    pin = sub.add_parser("pin", help="capture servers and write their definitions to the lockfile")
    pin.add_argument(
        "--prune", action="store_true", help="drop pins of servers no config names any more"
    )
    pin.add_argument(
        "--replace",
        action="store_true",
        help="with --server: capture and pin again a server whose pin is broken "
        "(hand-edited); the rest of the lockfile is kept as it is",
    )
    add_common(pin, suppress=True)

    lint = sub.add_parser(
        "lint", help="advisory quality checks on the live tools (exit 0 unless --strict)"
    )
    lint.add_argument("--strict", action="store_true", help="exit 1 when there are findings")
    lint.add_argument("--format", choices=FORMATS, default=argparse.SUPPRESS)
    lint.add_argument("--output", type=_path, metavar="FILE", default=argparse.SUPPRESS)
    add_common(lint, suppress=True)

    demo = sub.add_parser("demo", help="open the review app on a bundled demo with realistic drift")
    # SUPPRESS keeps `mcplock-tui --check demo` working as well as `mcplock-tui demo --check`.
    demo.add_argument(
        "--check",
        action="store_true",
        default=argparse.SUPPRESS,
        help="run the headless check on the demo instead of opening the app",
    )
    demo.add_argument(
        "--keep",
        type=_path,
        metavar="DIR",
        default=None,
        help="create the demo project under DIR and keep it (default: a temp folder)",
    )
    demo.add_argument("--format", choices=FORMATS, default=argparse.SUPPRESS)
    _add_decision_parsers(sub)
    # The guard parses its own arguments: everything after `--` is the server's command line.
    guard = sub.add_parser(
        "guard",
        add_help=False,
        prefix_chars="\0",
        help="serve a server to the agent with only reviewed definitions; "
        "guard install / uninstall (see `guard --help`)",
    )
    guard.add_argument("guard_args", nargs=argparse.REMAINDER)
    return parser


def _add_check_options(parser: argparse.ArgumentParser, *, suppress: bool = False) -> None:
    """The report options, on the top level and again on ``check`` (SUPPRESS there keeps
    whatever was given before the subcommand)."""

    def d(value: object) -> object:
        return argparse.SUPPRESS if suppress else value

    parser.add_argument(
        "--format", choices=FORMATS, default=d("text"), help="report format (default: text)"
    )
    parser.add_argument(
        "--output",
        type=_path,
        metavar="FILE",
        default=d(None),
        help="write the report here instead of stdout",
    )
    parser.add_argument(
        "--sarif",
        type=_path,
        metavar="FILE",
        default=d(None),
        help="also write a SARIF report to FILE (one capture, two reports)",
    )
    parser.add_argument(
        "--fail-on",
        choices=SEVERITIES,
        default=d(None),
        help="lowest severity that fails the check (default: policy, else high)",
    )
    parser.add_argument(
        "--probe",
        action="store_true",
        default=d(False),
        help="also capture each server as Claude Code, Cursor and VS Code, listing "
        "twice; any difference is critical (bait-and-switch)",
    )
    parser.add_argument(
        "--explain",
        action="store_true",
        default=d(False),
        help="ask Claude for an advisory verdict on each change (needs ANTHROPIC_API_KEY)",
    )
    parser.add_argument(
        "--model", default=d(None), help="Claude model for --explain / the app's explain"
    )


def _add_decision_parsers(sub: Any) -> None:
    """``accept``, ``reject`` and ``log`` (handled by cli.decide and cli.log)."""
    for name, blurb in (
        ("accept", "pin the selected changes in the lockfile"),
        ("reject", "refuse the selected changes; --check keeps failing on them"),
    ):
        decide = sub.add_parser(
            name, help=f"{blurb} (SELECTOR: SERVER, SERVER/ITEM or SERVER/KIND/ITEM)"
        )
        decide.add_argument(
            "selectors",
            nargs="+",
            metavar="SELECTOR",
            help="SERVER, SERVER/ITEM or SERVER/KIND/ITEM (KIND: tool, prompt, "
            "resource, resource_template, instructions, server); ITEM may "
            "be a glob: SERVER/*, SERVER/tool/get_*",
        )
        decide.add_argument(
            "--dry-run", action="store_true", help="show what would change; write nothing"
        )
        decide.add_argument(
            "--note",
            required=name == "reject",
            metavar="TEXT",
            help="why; kept in the lockfile (reject) and the decision log",
        )
        if name == "accept":
            decide.add_argument(
                "--include-rejected",
                action="store_true",
                help="a whole-server selector also accepts changes rejected "
                "in review (they are skipped and listed otherwise)",
            )
        add_common(decide, suppress=True)
    log = sub.add_parser("log", help="show (default), verify or export the signed decision log")
    actions = log.add_subparsers(dest="log_command", metavar="ACTION")
    show = actions.add_parser("show", help="list the decisions")
    verify = actions.add_parser(
        "verify", help="check hashes, signatures and the lockfile (exit 1 on any problem)"
    )
    verify.add_argument(
        "--bundle",
        type=_path,
        metavar="FILE",
        default=None,
        help="verify an exported bundle instead, offline",
    )
    verify.add_argument(
        "--trust",
        action="append",
        metavar="FINGERPRINT",
        default=[],
        help="also trust this key (ed25519:…) for --bundle, besides the "
        "committed mcplock.decisions.pub (repeatable)",
    )
    export = actions.add_parser("export", help="write records N..M as a self-contained bundle")
    export.add_argument("--from", dest="first", type=int, default=1, metavar="N")
    export.add_argument("--to", dest="last", type=int, default=None, metavar="M")
    export.add_argument("--out", type=_path, required=True, metavar="FILE")
    for p in (log, show, verify, export):
        p.add_argument(
            "--lock",
            type=_path,
            metavar="PATH",
            default=argparse.SUPPRESS,
            help="lockfile (default: ./mcplock.lock); the log and keys sit beside it",
        )
    for p in (log, show):
        p.add_argument("--format", choices=("text", "json"), default=argparse.SUPPRESS)


def _path(text: str) -> object:
    from pathlib import Path

    return Path(text)


def _command(args: argparse.Namespace) -> Callable[[], int]:
    """The command to run, with its modules (the MCP SDK among them) imported."""
    if args.command == "pin":
        from mcplock_tui.cli import pin

        return lambda: pin.run(args)
    if args.command == "lint":
        from mcplock_tui.cli import lint

        return lambda: lint.run(args)
    if args.command in ("accept", "reject"):
        from mcplock_tui.cli import decide

        return lambda: decide.run(args, args.command)
    if args.command == "log":
        from mcplock_tui.cli import log

        return lambda: log.run(args)
    if args.command == "guard":
        from mcplock_tui.guard.cli import main as guard_main

        return lambda: guard_main(args.guard_args)
    if args.command == "demo":
        from mcplock_tui.cli import demo

        return lambda: demo.run(args)
    if args.check or args.command == "check":
        from mcplock_tui.cli import check

        return lambda: check.run(args)
    from mcplock_tui.tui.launch import run_app  # the one place the app is imported

    return lambda: run_app(args)


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    # Building the subcommands' parsers is most of parsing; opening the app needs none.
    args = build_parser(commands=bool(words)).parse_args(words)
    try:
        run = _command(args)
        if args.command is not None or args.check:
            resume_collector()  # start-up is over; the app resumes it after its first frame
        return run()
    except MCPLockError as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        print("mcplock-tui: interrupted", file=sys.stderr)
        return ExitCode.INTERRUPTED
    except OSError as exc:  # a folder that cannot be written, a disk that is full
        where = f"{exc.filename}: " if exc.filename else ""
        return _fail(f"{where}{exc.strerror or exc}")
    except Exception as exc:
        # A bug or an input limit we did not foresee: still "could not check" (2), never the
        # "drift" (1) that a traceback's exit status would claim. MCPLOCK_DEBUG shows it.
        if os.environ.get("MCPLOCK_DEBUG"):
            raise
        return _fail(
            f"internal error: {type(exc).__name__}: {exc} (set MCPLOCK_DEBUG=1 for the traceback)"
        )


def _fail(message: str) -> int:
    from mcplock_tui.core.canonical import visible

    # Messages quote config, lockfile and server text: one line, no escapes, no `::`.
    print(f"mcplock-tui: {visible(message)}".replace("\n", "\\n"), file=sys.stderr)
    return ExitCode.CANNOT_CHECK


if __name__ == "__main__":
    sys.exit(main())
