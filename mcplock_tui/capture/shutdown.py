"""Shorter stdio shutdown: a capture's server gets under a second to go, not four.

The SDK closes a stdio server's stdin, waits 2 s for it to exit, sends SIGTERM to its
process group, waits 2 s more, then sends SIGKILL. A capture has nothing left to say to the
server at that point, so a hung server cost its timeout plus 4 s. The waits are module
constants the SDK reads at call time; these values keep a well-behaved server's clean exit
(it exits as soon as stdin closes) and bound a hung one to about ``GRACE + TERM_GRACE``.
Only this process's captures are affected.
"""

from __future__ import annotations

from mcp.client import stdio

GRACE = 0.4
"""Seconds a server has to exit after its stdin closes before it is sent SIGTERM."""
TERM_GRACE = 0.3
"""Seconds after SIGTERM before SIGKILL."""


def shorten_sdk_shutdown() -> None:
    """Idempotent; never lengthens a wait the SDK already keeps shorter."""
    for name, value in (("PROCESS_TERMINATION_TIMEOUT", GRACE), ("FORCE_KILL_TIMEOUT", TERM_GRACE)):
        current = getattr(stdio, name, None)
        if isinstance(current, int | float) and current > value:
            setattr(stdio, name, value)
