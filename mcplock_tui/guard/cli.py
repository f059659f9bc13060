"""``mcplock-tui guard``: run a server through the guard, or install / uninstall the guard.

::

    mcplock-tui guard --name NAME [--lock PATH] [--mode enforce|warn] -- COMMAND [ARGS...]
    mcplock-tui guard --name NAME [--lock PATH] --url URL [--header 'Name: value']...
    mcplock-tui guard install [--config FILE]... [--lock PATH] [--server NAME]...
    mcplock-tui guard uninstall [--config FILE]...
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from mcplock_tui.core.exitcodes import ExitCode
from mcplock_tui.errors import ConfigError

DEFAULT_LOCK = "mcplock.lock"


def _run_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mcplock-tui guard",
        usage="%(prog)s --name NAME [options] (-- COMMAND [ARGS...] | --url URL)\n"
        "       %(prog)s install [--config FILE]... [--lock PATH] [--server NAME]...\n"
        "       %(prog)s uninstall [--config FILE]...",
        description="Serve a configured MCP server to the agent's client with only the "
        "reviewed definitions (see also: guard install, guard uninstall).",
    )
    p.add_argument("--name", required=True, help="the server's name in the lockfile")
    p.add_argument(
        "--lock",
        type=Path,
        default=Path(DEFAULT_LOCK),
        metavar="PATH",
        help=f"lockfile (default: ./{DEFAULT_LOCK})",
    )
    p.add_argument(
        "--mode",
        choices=("enforce", "warn"),
        default="enforce",
        help="warn: pass changed definitions through but still record them",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="how long the server gets to answer one request (default: 120)",
    )
    p.add_argument(
        "--log",
        type=Path,
        default=None,
        metavar="FILE",
        help="the guard's own log (default: under the user cache folder)",
    )
    p.add_argument("--url", default=None, help="streamable HTTP endpoint of the server")
    p.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="'NAME: VALUE'",
        help="HTTP header for --url (repeatable); credentials are better passed as "
        "a JSON object in $MCPLOCK_GUARD_HEADERS, which argv would expose",
    )
    return p


def _install_parser(action: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=f"mcplock-tui guard {action}",
        description="Rewrite client config entries to run through the guard"
        if action == "install"
        else "Restore the client config entries the guard was installed into",
    )
    p.add_argument(
        "--config",
        action="append",
        type=Path,
        default=[],
        metavar="FILE",
        help="client config file (repeatable; default: discover as pin does)",
    )
    if action == "install":
        p.add_argument(
            "--lock",
            type=Path,
            default=None,
            metavar="PATH",
            help=f"lockfile the guard enforces (default: ./{DEFAULT_LOCK})",
        )
        p.add_argument(
            "--server",
            action="append",
            default=[],
            metavar="NAME",
            help="only this server (repeatable)",
        )
    return p


def main(argv: Sequence[str]) -> int:
    args = list(argv)
    if args and args[0] in ("install", "uninstall"):
        from mcplock_tui.guard import install

        ns = _install_parser(args[0]).parse_args(args[1:])
        return install.run(args[0], ns)
    upstream_argv: list[str] = []
    if "--" in args:
        cut = args.index("--")
        args, upstream_argv = args[:cut], args[cut + 1 :]
    ns = _run_parser().parse_args(args)
    if bool(upstream_argv) == bool(ns.url):
        raise ConfigError("guard: give the server either as `-- COMMAND [ARGS...]` or as --url URL")
    if ns.timeout <= 0:
        raise ConfigError("guard: --timeout must be a positive number of seconds")
    return _serve(ns, upstream_argv)


def _serve(ns: argparse.Namespace, upstream_argv: list[str]) -> int:
    from mcplock_tui.guard.relay import GuardOptions
    from mcplock_tui.guard.serve import claim_stdout, default_log_path, open_log
    from mcplock_tui.guard.upstream import StdioUpstream, Upstream

    out_fd = claim_stdout()
    lock = ns.lock if ns.lock.is_absolute() else Path.cwd() / ns.lock
    open_log(ns.log or default_log_path(ns.name))
    options = GuardOptions(
        server=ns.name, lock_path=lock, warn=ns.mode == "warn", timeout=ns.timeout
    )
    upstream: Upstream
    if ns.url:
        from mcplock_tui.guard.entry import env_headers
        from mcplock_tui.guard.http import HttpUpstream, parse_headers

        headers = {**env_headers(os.environ), **parse_headers(ns.header)}
        upstream = HttpUpstream(ns.url, headers, timeout=ns.timeout)
    else:
        upstream = StdioUpstream(upstream_argv)
    from mcplock_tui.guard.serve import serve

    try:
        return asyncio.run(serve(options, upstream, 0, out_fd))
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED
    finally:
        sys.stderr.flush()
