"""The command-line options every command shares, and adapters onto :mod:`mcplock_tui.workspace`.

The loading steps themselves (config, lockfile, policy) live in the workspace module, which
takes a plain :class:`~mcplock_tui.workspace.Options` value; this module only knows argparse.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from mcplock_tui.workspace import (
    DEFAULT_LOCK,
    POLICY_FILE,
    Options,
    Workspace,
    default_log_dir,
    open_workspace,
    read_lock_or_explain,
)
from mcplock_tui.workspace import lock_path as _lock_path


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


def workspace(args: argparse.Namespace, cwd: Path | None = None) -> Workspace:
    """The workspace for these command-line options."""
    return open_workspace(Options.from_attrs(args), cwd)


def lock_path(args: argparse.Namespace, cwd: Path) -> Path:
    return _lock_path(Options.from_attrs(args), cwd)


__all__ = [
    "DEFAULT_LOCK",
    "POLICY_FILE",
    "Workspace",
    "add_common",
    "default_log_dir",
    "lock_path",
    "read_lock_or_explain",
    "workspace",
]
