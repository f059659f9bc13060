"""The real server behind the guard: a child process over stdio, or an HTTP endpoint.

Both give the relay the same three operations: send one raw JSON-RPC message, receive the
next raw message (``None`` once the server is gone), close. Messages stay bytes, so the relay
can forward them exactly as they came.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Mapping, Sequence
from typing import Protocol

MAX_MESSAGE = 32 * 1024 * 1024
"""Longest message accepted in either direction; a longer line is skipped as junk."""
_GRACE = 2.0
"""Seconds a child gets after its stdin closes, and again after SIGTERM."""


class Upstream(Protocol):
    async def start(self) -> None: ...
    async def send(self, data: bytes) -> None: ...
    async def receive(self) -> bytes | None: ...
    async def close(self, *, now: bool = False) -> None: ...
    def describe_exit(self) -> str: ...


async def read_message(reader: asyncio.StreamReader) -> bytes | None:
    """The next non-empty line; an over-long one is dropped (its tail reads as junk next)."""
    while True:
        try:
            line = await reader.readline()
        except ValueError:  # longer than the reader's limit: already discarded by asyncio
            return b"\x00overlong"
        if not line:
            return None
        line = line.strip()
        if line:
            return line


class StdioUpstream:
    """``COMMAND ARGS…`` as a child; its stderr goes where ours goes."""

    def __init__(
        self, argv: Sequence[str], env: Mapping[str, str] | None = None, stderr: int | None = None
    ) -> None:
        self.argv = list(argv)
        self.env = dict(os.environ if env is None else env)
        self.stderr = stderr
        self.proc: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=self.stderr,
            env=self.env,
            limit=MAX_MESSAGE,
            # Same process group as the guard: a client that signals the group it started
            # reaches the server too, as it would without the guard.
        )

    async def send(self, data: bytes) -> None:
        proc = self.proc
        if proc is None or proc.stdin is None or proc.stdin.is_closing():
            raise ConnectionError("the server is not running")
        async with self._lock:
            proc.stdin.write(data + b"\n")
            await proc.stdin.drain()

    async def receive(self) -> bytes | None:
        assert self.proc is not None and self.proc.stdout is not None
        message = await read_message(self.proc.stdout)
        if message is None:  # give the exit status a moment, so the error can name it
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.proc.wait(), 1.0)
        return message

    def describe_exit(self) -> str:
        code = None if self.proc is None else self.proc.returncode
        if code is None:
            return "the server closed its output"
        if code < 0:
            return f"the server was stopped by signal {-code}"
        return f"the server exited with status {code}"

    async def close(self, *, now: bool = False) -> None:
        """Close stdin and wait; then SIGTERM, then SIGKILL. ``now`` skips the polite wait."""
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return
        if proc.stdin is not None:
            with contextlib.suppress(Exception):
                proc.stdin.close()
        steps = (proc.terminate, proc.kill) if now else (None, proc.terminate, proc.kill)
        for step in steps:
            if step is not None:
                with contextlib.suppress(ProcessLookupError):
                    step()
            try:
                await asyncio.wait_for(proc.wait(), _GRACE)
                return
            except TimeoutError:
                continue
