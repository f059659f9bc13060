"""Error hierarchy: one base with a user-facing message, one subclass per seam."""

from __future__ import annotations


class MCPLockError(Exception):
    """Base for errors shown to the user as one plain line (no traceback)."""


class ConfigError(MCPLockError):
    """A client config file is missing, malformed, or names servers inconsistently."""


class LockfileError(MCPLockError):
    """The lockfile cannot be read, has another format version, or fails its own hashes."""


class CaptureError(MCPLockError):
    """Capturing a server failed in a way that is not one server's fault."""


class DecisionError(MCPLockError):
    """An accept/reject could not be applied, e.g. the definition moved since it was shown."""


class ExplainError(MCPLockError):
    """The explain request could not produce a verdict."""
