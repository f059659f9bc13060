"""The error hierarchy, for the layers outside the core; it lives in :mod:`mcplock_tui.core.errors`."""

from __future__ import annotations

import shlex
from pathlib import Path

from mcplock_tui.core.errors import (
    CaptureError,
    ConfigError,
    DecisionError,
    ExplainError,
    LockfileError,
    MCPLockError,
    NoLockfileError,
    PinHashError,
    PolicyError,
)

__all__ = [
    "CaptureError",
    "ConfigError",
    "DecisionError",
    "ExplainError",
    "LockfileError",
    "MCPLockError",
    "NoLockfileError",
    "PinHashError",
    "PolicyError",
    "git_restore",
]


def git_restore(path: Path) -> str:
    """The command that brings back the committed copy of ``path``, quoted for a message."""
    return f"`git checkout -- {shlex.quote(str(path))}`"
