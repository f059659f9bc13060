"""Command line entry point. ``--check`` and the other headless commands never import the app."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from mcplock_tui import __version__
from mcplock_tui.cli.options import add_common
from mcplock_tui.errors import MCPLockError

EXIT_CANNOT_CHECK = 2
FORMATS = ("text", "json", "sarif")
SEVERITIES = ("critical", "high", "medium", "low")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcplock-tui",
        description="Pin MCP server definitions in a lockfile, check them for drift and poisoning, "
        "and review changes in a terminal app.",
    )
    parser.add_argument("--version", action="version", version=f"mcplock-tui {__version__}")
    parser.add_argument("--check", action="store_true", help="headless check for CI (no app)")
    parser.add_argument("--format", choices=FORMATS, default="text", help="report format (default: text)")
    parser.add_argument("--output", type=_path, metavar="FILE", help="write the report here instead of stdout")
    parser.add_argument("--fail-on", choices=SEVERITIES, default=None,
                        help="lowest severity that fails the check (default: policy, else high)")
    parser.add_argument("--explain", action="store_true",
                        help="ask Claude for an advisory verdict on each change (needs ANTHROPIC_API_KEY)")
    parser.add_argument("--model", default=None, help="Claude model for --explain / the app's explain")
    add_common(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    pin = sub.add_parser("pin", help="capture servers and write their definitions to the lockfile")
    pin.add_argument("--prune", action="store_true", help="drop pins of servers no config names any more")
    add_common(pin, suppress=True)

    lint = sub.add_parser("lint", help="advisory quality checks on the live tools (exit 0 unless --strict)")
    lint.add_argument("--strict", action="store_true", help="exit 1 when there are findings")
    lint.add_argument("--format", choices=FORMATS, default=argparse.SUPPRESS)
    lint.add_argument("--output", type=_path, metavar="FILE", default=argparse.SUPPRESS)
    add_common(lint, suppress=True)
    return parser


def _path(text: str) -> object:
    from pathlib import Path

    return Path(text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "pin":
            from mcplock_tui.cli import pin

            return pin.run(args)
        if args.command == "lint":
            from mcplock_tui.cli import lint

            return lint.run(args)
        if args.check:
            from mcplock_tui.cli import check

            return check.run(args)
        from mcplock_tui.tui.launch import run_app  # the one place the app is imported

        return run_app(args)
    except MCPLockError as exc:
        print(f"mcplock-tui: {exc}", file=sys.stderr)
        return EXIT_CANNOT_CHECK
    except KeyboardInterrupt:
        print("mcplock-tui: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
