"""Error hierarchy: one base with a user-facing message, one subclass per seam."""

from __future__ import annotations

from typing import ClassVar

from mcplock_tui.core.model import ErrorKind


class MCPLockError(Exception):
    """Base for errors shown to the user as one plain line (no traceback)."""

    kind: ClassVar[ErrorKind] = ErrorKind.ERROR
    """The report's ``error_kind`` for this error (machine reports written on exit 2)."""


class ConfigError(MCPLockError):
    """A client config file is missing, malformed, or names servers inconsistently."""

    kind: ClassVar[ErrorKind] = ErrorKind.CONFIG


class PolicyError(ConfigError):
    """The policy file is missing (when named), malformed or names unknown rules."""

    kind: ClassVar[ErrorKind] = ErrorKind.POLICY


class LockfileError(MCPLockError):
    """The lockfile cannot be read, has another format version, or fails its own hashes."""

    kind: ClassVar[ErrorKind] = ErrorKind.LOCKFILE


class PinHashError(LockfileError):
    """One server's pin does not match its own hashes (edited by hand, or a bad merge)."""

    def __init__(self, message: str, server: str | None = None) -> None:
        super().__init__(message)
        self.server = server


class NoLockfileError(LockfileError):
    """There is no lockfile yet: the fix is to pin."""

    kind: ClassVar[ErrorKind] = ErrorKind.NO_LOCKFILE


class CaptureError(MCPLockError):
    """Capturing a server failed in a way that is not one server's fault."""

    kind: ClassVar[ErrorKind] = ErrorKind.CAPTURE


class DecisionError(MCPLockError):
    """An accept/reject could not be applied, e.g. the definition moved since it was shown."""

    kind: ClassVar[ErrorKind] = ErrorKind.DECISION


class ExplainError(MCPLockError):
    """The explain request could not produce a verdict."""

    kind: ClassVar[ErrorKind] = ErrorKind.EXPLAIN
