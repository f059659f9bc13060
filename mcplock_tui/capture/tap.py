"""A transport wrapper that records every JSON-RPC reply as the server sent it.

The SDK's result models drop unknown keys, and one malformed item makes a whole page fail
validation. What gets pinned must be what the server said, so replies are recorded here,
between the transport and the session, before any model sees them. Only the envelope has
been parsed at this point (``result`` is the decoded JSON object, nulls and unknown keys
intact); a reply whose envelope is not JSON-RPC never reaches the session either and is
counted as junk instead.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream
from mcp.client import Transport
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCError, JSONRPCRequest, JSONRPCResponse


@dataclass(slots=True)
class Reply:
    """One reply to one of our requests."""

    method: str | None
    """The request's method, or None when the id matched nothing we sent."""
    result: dict[str, Any] | None
    error: dict[str, Any] | None
    has_replacement_char: bool = False
    """The decoded reply holds U+FFFD, the mark of bytes that were not valid UTF-8."""


@dataclass(slots=True)
class RawTap:
    """Replies in arrival order, plus what could not be read at all."""

    replies: list[Reply] = field(default_factory=list)
    junk: int = 0
    """Items the transport could not parse (non-JSON stdout lines, broken bodies)."""
    pending: dict[Any, str] = field(default_factory=dict)

    def mark(self) -> int:
        return len(self.replies)

    def reply_since(self, mark: int, method: str) -> Reply | None:
        """The last reply to ``method`` recorded after ``mark``."""
        for reply in reversed(self.replies[mark:]):
            if reply.method == method:
                return reply
        return None

    def record(self, message: object) -> None:
        if isinstance(message, JSONRPCResponse):
            # A copy, since the session mutates some results in place (it clamps ttlMs).
            # One JSON round trip copies decoded JSON exactly, shows U+FFFD on the way, and
            # the decoder shares repeated keys: the copy holds about a quarter less memory
            # than the transport's own objects, which are then freed.
            text = json.dumps(message.result, ensure_ascii=False)
            method = self.pending.pop(message.id, None)
            self.replies.append(Reply(method, json.loads(text), None, "\ufffd" in text))
        elif isinstance(message, JSONRPCError):
            method = self.pending.pop(message.id, None) if message.id is not None else None
            error = message.error.model_dump(mode="json")
            self.replies.append(Reply(method, None, error))


class _TapWrite:
    """Write side: remembers which method each outgoing request id belongs to."""

    def __init__(self, inner: Any, tap: RawTap) -> None:
        self._inner = inner
        self._tap = tap

    async def send(self, item: SessionMessage) -> None:
        if isinstance(item.message, JSONRPCRequest):
            self._tap.pending[item.message.id] = item.message.method
        await self._inner.send(item)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _TapWrite:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


@asynccontextmanager
async def tapped(
    transport: Transport, tap: RawTap
) -> AsyncIterator[tuple[MemoryObjectReceiveStream[SessionMessage | Exception], _TapWrite]]:
    """``transport``, with every incoming message recorded in ``tap`` before it is passed on."""
    async with transport as (read, write):
        send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)

        async def pump() -> None:
            # The session going away first is normal at shutdown, not an error.
            with suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
                async with send:
                    async for item in read:
                        if isinstance(item, Exception):
                            tap.junk += 1
                        else:
                            tap.record(item.message)
                        await send.send(item)

        async with anyio.create_task_group() as tg:
            tg.start_soon(pump)
            try:
                yield receive, _TapWrite(write, tap)
            finally:
                tg.cancel_scope.cancel()
                receive.close()
