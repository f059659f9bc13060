"""The last lines of a server's stderr log, fit to show in a report or a CI log.

A failing server usually says why on stderr (an ``npx`` 404, a Python traceback), and the
log file it went to is not kept by CI, so reports carry its tail. The tail is hostile text:
each line has the spec's own secrets scrubbed, then the generic secret shapes redacted
(:func:`mcplock_tui.redaction.redact_text`), hidden characters shown as escapes, and its
length capped; at most :data:`MAX_LINES` lines, read from at most :data:`MAX_BYTES` at the
end of the file, so a flooding server costs nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

from mcplock_tui.capture.failure import scrub, server_text
from mcplock_tui.redaction import redact_text
from mcplock_tui.spec import ServerSpec

MAX_LINES = 10
MAX_LINE_CHARS = 200
MAX_BYTES = 16 * 1024
_OURS = "[mcplock "
"""Lines our own SDK log routing wrote (see :mod:`.logs`): not the server's words."""


def read_tail(path: Path | str | None, spec: ServerSpec) -> tuple[str, ...]:
    """The last non-blank stderr lines at ``path``; empty when there is no such file."""
    if path is None:
        return ()
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return ()
    try:
        size = os.fstat(fd).st_size
        os.lseek(fd, max(0, size - MAX_BYTES), os.SEEK_SET)
        data = os.read(fd, MAX_BYTES)
    except OSError:
        return ()
    finally:
        os.close(fd)
    lines = data.decode("utf-8", errors="replace").splitlines()
    if size > MAX_BYTES and lines:
        lines = lines[1:]  # the first line was cut in the middle
    kept = [ln for ln in lines if ln.strip() and not ln.startswith(_OURS)][-MAX_LINES:]
    return tuple(server_text(redact_text(scrub(ln, spec)), MAX_LINE_CHARS) for ln in kept)
