"""The error hierarchy, for the layers outside the core; it lives in :mod:`mcplock_tui.core.errors`."""

from __future__ import annotations

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
]
