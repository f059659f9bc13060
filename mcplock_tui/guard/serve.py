"""Run the relay on this process's stdin/stdout until the client goes away.

stdout belongs to JSON-RPC alone: the original descriptor is kept for the relay and fd 1 is
pointed at stderr, so a stray print (ours or a library's) can never corrupt the stream. The
guard's own diagnostics go to a log file readable only by the user (0600), never stdout.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from pathlib import Path

from mcplock_tui.guard.observe import Observer, observation_path
from mcplock_tui.guard.relay import GuardOptions, Relay
from mcplock_tui.guard.upstream import MAX_MESSAGE, Upstream, read_message

log = logging.getLogger("mcplock_tui.guard")


def default_log_path(server: str) -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in server)[:80] or "server"
    return Path(base) / "mcplock-tui" / "guard" / f"{safe}.log"


def open_log(path: Path) -> None:
    """Log to ``path`` (created 0600); errors also go to stderr, which clients keep."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    os.fchmod(fd, 0o600)
    handler = logging.StreamHandler(os.fdopen(fd, "a", encoding="utf-8", errors="replace"))
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    log.addHandler(handler)
    err = logging.StreamHandler(sys.stderr)
    err.setLevel(logging.ERROR)
    err.setFormatter(logging.Formatter("mcplock-tui guard: %(message)s"))
    log.addHandler(err)
    log.setLevel(logging.INFO)
    log.propagate = False


def claim_stdout() -> int:
    """A private copy of the JSON-RPC output; fd 1 and ``sys.stdout`` then write to stderr."""
    sys.stdout.flush()
    out = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out


async def serve(
    options: GuardOptions, upstream: Upstream, stdin_fd: int = 0, stdout_fd: int = 1
) -> int:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=MAX_MESSAGE)
    await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(stdin_fd, "rb", 0)
    )
    transport, protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, os.fdopen(stdout_fd, "wb", 0)
    )
    writer = asyncio.StreamWriter(transport, protocol, None, loop)

    async def write(data: bytes) -> None:
        writer.write(data + b"\n")
        await writer.drain()

    observer = Observer(observation_path(options.lock_path), options.server)
    relay = Relay(options, upstream, write, observer)
    started = True
    try:
        await upstream.start()
    except OSError as exc:
        started = False
        relay.mark_unavailable(f"could not start it: {exc.strerror or type(exc).__name__}")
        log.error("could not start the server: %s", exc.strerror or type(exc).__name__)

    async def from_upstream() -> None:
        while (raw := await upstream.receive()) is not None:
            await relay.on_upstream(raw)
        await relay.upstream_gone()

    async def from_client() -> None:
        while (raw := await read_message(reader)) is not None:
            await relay.on_client(raw)

    helpers = [asyncio.ensure_future(relay.watchdog())]
    if started:
        helpers += [
            asyncio.ensure_future(from_upstream()),
            asyncio.ensure_future(relay.upstream_writer()),
        ]
    client = asyncio.ensure_future(from_client())
    signalled = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        loop.add_signal_handler(sig, signalled.set)
    stop = asyncio.ensure_future(signalled.wait())
    try:
        # ends when the client closes our stdin, our stdout breaks, or we are signalled
        await asyncio.wait({client, stop}, return_when=asyncio.FIRST_COMPLETED)
        if client.done() and isinstance(client.exception(), ConnectionError):
            log.info("the client went away (%s)", type(client.exception()).__name__)
    finally:
        log.info(
            "%s; stopping the server", "signalled" if signalled.is_set() else "client disconnected"
        )
        for task in (client, stop, *helpers):
            task.cancel()
        await relay.close()
        for task in (client, stop, *helpers):
            with contextlib.suppress(BaseException):
                await task
        await upstream.close(now=signalled.is_set())
        with contextlib.suppress(Exception):
            writer.close()
    return 0
