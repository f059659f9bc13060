"""Error hierarchy: one base with a user-facing message, one subclass per seam."""

from __future__ import annotations


class MCPLockError(Exception):
    """Base for errors shown to the user as one plain line (no traceback)."""

    kind = "error"
    """The report's ``error_kind`` for this error (machine reports written on exit 2)."""


class ConfigError(MCPLockError):
    """A client config file is missing, malformed, or names servers inconsistently."""

    kind = "config"


class PolicyError(ConfigError):
    """The policy file is missing (when named), malformed or names unknown rules."""

    kind = "policy"


class LockfileError(MCPLockError):
    """The lockfile cannot be read, has another format version, or fails its own hashes."""

    kind = "lockfile"


class PinHashError(LockfileError):
    """One server's pin does not match its own hashes (edited by hand, or a bad merge)."""

    def __init__(self, message: str, server: str | None = None) -> None:
        super().__init__(message)
        self.server = server


class NoLockfileError(LockfileError):
    """There is no lockfile yet: the fix is to pin."""

    kind = "no-lockfile"


class CaptureError(MCPLockError):
    """Capturing a server failed in a way that is not one server's fault."""

    kind = "capture"


class DecisionError(MCPLockError):
    """An accept/reject could not be applied, e.g. the definition moved since it was shown."""

    kind = "decision"


class ExplainError(MCPLockError):
    """The explain request could not produce a verdict."""

    kind = "explain"
