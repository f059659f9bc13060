"""Exit codes of every command: an API that CI scripts and hooks depend on.

One number means one thing across commands: 0 done (nothing at the gate), 1 a result that
needs a person (drift at the gate, lint findings under ``--strict``, a refused decision, a log
that does not verify), 2 could not run (bad input, a server that could not be checked).
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    CLEAN = 0
    """``--check``: no drift at or above the gate. Any other command: done."""
    DRIFT = 1
    """``--check``/``pin``: drift at or above the gate (or a launch that is not the pin's)."""
    CANNOT_CHECK = 2
    """A server could not be checked, or the input (config, lockfile, policy) is unusable."""
    INTERRUPTED = 130
    """Ctrl-C, as shells report SIGINT."""

    # The same numbers under the names the other commands use (aliases, not new codes).
    OK = 0
    REFUSED = 1
    """``accept``/``reject``: the decision was refused (the definition moved, a bad log)."""
    FINDINGS = 1
    """``lint --strict``: findings; ``log verify``: the log does not prove the lockfile."""
    UNUSABLE = 2
