"""Options shared by every command, and the loading steps they share.

The steps (config, lockfile, policy, capture) raise :class:`MCPLockError` subclasses with one
plain line each; ``main`` turns them into exit code 2.
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import dataclass
from pathlib import Path

from mcplock_tui.config import load_servers
from mcplock_tui.core.lockfile import Lockfile
from mcplock_tui.core.policy import Policy, parse_policy
from mcplock_tui.errors import ConfigError, LockfileError
from mcplock_tui.spec import ServerSpec
from mcplock_tui.storage import load_document, read_lockfile

DEFAULT_LOCK = "mcplock.lock"
POLICY_FILE = "mcplock.toml"


def add_common(parser: argparse.ArgumentParser, *, suppress: bool = False) -> None:
    """Add the shared options; ``suppress`` keeps a subcommand from resetting top-level values."""

    def d(value: object) -> object:
        return argparse.SUPPRESS if suppress else value

    group = parser.add_argument_group("servers and files")
    group.add_argument(
        "--config",
        action="append",
        type=Path,
        default=d([]),
        metavar="FILE",
        help="MCP client config file (repeatable); default: discover .mcp.json, "
        ".cursor/mcp.json, .vscode/mcp.json, claude_desktop_config.json",
    )
    group.add_argument(
        "--server",
        action="append",
        default=d([]),
        metavar="NAME",
        help="only this server (repeatable)",
    )
    group.add_argument(
        "--lock",
        type=Path,
        default=d(None),
        metavar="PATH",
        help=f"lockfile (default: ./{DEFAULT_LOCK})",
    )
    group.add_argument(
        "--policy",
        type=Path,
        default=d(None),
        metavar="PATH",
        help=f"policy file with a [policy] table (default: {POLICY_FILE} beside the lockfile)",
    )
    group.add_argument(
        "--timeout",
        type=float,
        default=d(30.0),
        metavar="SECONDS",
        help="per-server capture timeout (default: 30)",
    )
    group.add_argument(
        "--log-dir",
        type=Path,
        default=d(None),
        metavar="DIR",
        help="where server stderr logs go (default: a folder under the user cache)",
    )


@dataclass(frozen=True, slots=True)
class Workspace:
    cwd: Path
    lock_path: Path
    specs: list[ServerSpec]
    all_names: list[str]
    """Every configured server, selected or not."""
    policy: Policy
    log_dir: Path
    timeout: float


def lock_path(args: argparse.Namespace, cwd: Path) -> Path:
    path: Path = args.lock or cwd / DEFAULT_LOCK
    return path if path.is_absolute() else cwd / path


def default_log_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path(base) / "mcplock-tui" / "logs" / f"{stamp}-{os.getpid()}"


def load_policy(args: argparse.Namespace, lock: Path) -> Policy:
    path: Path = args.policy or lock.parent / POLICY_FILE
    if not path.exists():
        if args.policy:
            raise ConfigError(f"{path}: policy file not found")
        return Policy()
    try:
        doc = load_document(path)
    except LockfileError as exc:
        raise ConfigError(str(exc)) from None
    table = doc.get("policy", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [policy] must be a table")
    return parse_policy(table, str(path))


def workspace(args: argparse.Namespace, cwd: Path | None = None) -> Workspace:
    here = cwd or Path.cwd()
    # With --server only the selected entries are validated, so one broken entry elsewhere
    # does not block them; "unconfigured" and --prune are computed only without --server.
    specs = load_servers(here, args.config, args.server)
    names = [s.name for s in specs]
    lock = lock_path(args, here)
    if args.timeout <= 0:
        raise ConfigError("--timeout must be a positive number of seconds")
    return Workspace(
        cwd=here,
        lock_path=lock,
        specs=specs,
        all_names=names,
        policy=load_policy(args, lock),
        log_dir=args.log_dir or default_log_dir(),
        timeout=args.timeout,
    )


def read_lock_or_explain(path: Path) -> Lockfile:
    try:
        return read_lockfile(path)
    except FileNotFoundError:
        raise LockfileError(
            f"no lockfile at {path}; run `mcplock-tui pin` to capture the servers and create it"
        ) from None
