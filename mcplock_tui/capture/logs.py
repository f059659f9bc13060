"""Per-server log files: where a stdio server's stderr and the SDK's complaints about it go.

Nothing a server writes may reach our terminal (it would paint over the review app and can
carry escape sequences). A stdio server's stderr is handed a file in the log directory, and
the SDK's own warnings about that server (unparseable stdout lines, with their tracebacks)
are routed to the same file through a context variable, so concurrent captures each log to
their own file. Records logged outside a capture are dropped by our handler; they are
still propagated, so an application that configures logging sees them as usual.

Servers print tokens to stderr, so log files are created 0600 and every folder created on the
way 0700 (a folder that already exists, such as one passed as ``--log-dir``, keeps its mode);
any line shown back to a person goes through :func:`redact_log_line` first.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TextIO

from mcplock_tui.storage import private_dir

SDK_LOGGERS = ("mcp", "client")
"""Loggers the MCP SDK writes to; ``client`` is what its session module calls its logger."""

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_current: ContextVar[TextIO | None] = ContextVar("mcplock_capture_log", default=None)


def log_path_for(log_dir: Path, server_name: str) -> Path:
    """A file in ``log_dir`` named after the server, whatever the name holds.

    Anything but letters, digits, ``.``, ``_`` and ``-`` becomes ``_`` and leading dots
    go, so ``../x`` or ``a/b`` cannot leave the directory or hide the file. When that
    changed the name, a short hash of the original keeps ``a b`` and ``a_b`` apart.
    """
    safe = _UNSAFE.sub("_", server_name).lstrip(".")[:80] or "server"
    if safe != server_name:
        safe += "-" + hashlib.sha256(server_name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    path = log_dir / f"{safe}.log"
    if path.parent != log_dir:  # unreachable by construction; kept as the invariant's guard
        raise ValueError(f"log file for {server_name!r} would leave {log_dir}")
    return path


def open_private_log(log_dir: Path, path: Path) -> TextIO:
    """``path`` truncated for writing, mode 0600 even if it existed; never through a symlink."""
    private_dir(log_dir)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    try:
        os.fchmod(fd, 0o600)
    except OSError:
        os.close(fd)
        raise
    return os.fdopen(fd, "w", encoding="utf-8", errors="replace")


def redact_log_line(line: str) -> str:
    """A log line fit to show: header values, ``NAME=secret``, URL credentials, tokens hidden."""
    from mcplock_tui.redaction import redact_text  # with the first line shown, not the app

    return redact_text(line)


class _CaptureLogHandler(logging.Handler):
    """Writes each record to the log file of the capture it was emitted in, if any."""

    def emit(self, record: logging.LogRecord) -> None:
        stream = _current.get()
        if stream is None or stream.closed:
            return
        try:
            stream.write(self.format(record) + "\n")
            stream.flush()
        except (OSError, ValueError):
            pass  # a full disk must not turn into a capture failure


_handler = _CaptureLogHandler()
_handler.setFormatter(logging.Formatter("[mcplock %(levelname)s %(name)s] %(message)s"))


def install_sdk_log_routing() -> None:
    """Idempotent. A handler on the SDK loggers also stops Python's last-resort stderr output."""
    for name in SDK_LOGGERS:
        logger = logging.getLogger(name)
        if _handler not in logger.handlers:
            logger.addHandler(_handler)


@contextmanager
def routed_to(stream: TextIO | None) -> Iterator[None]:
    """SDK log records emitted in this context (and tasks it starts) go to ``stream``."""
    token = _current.set(stream)
    try:
        yield
    finally:
        _current.reset(token)
