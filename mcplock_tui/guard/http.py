"""A streamable HTTP server as the guard's upstream: one POST per message, raw bodies back.

Each message the client sends is POSTed as is. A JSON reply body, or each ``data:`` event of
an SSE reply, is handed to the relay unchanged. The session id and protocol version the
server chooses at ``initialize`` are sent on every later request, as the transport requires.
A request that fails at the HTTP level is answered with a JSON-RPC error for its id, so the
client is never left waiting. Error text names the host and path only (no credentials).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

import httpx2

from mcplock_tui.errors import ConfigError
from mcplock_tui.redaction import redact_url


def parse_headers(values: Sequence[str]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for value in values:
        name, sep, rest = value.partition(":")
        if not sep or not name.strip():
            raise ConfigError("guard: --header must look like 'Name: value'")
        headers[name.strip()] = rest.strip()
    return headers


class HttpUpstream:
    def __init__(self, url: str, headers: Mapping[str, str], *, timeout: float) -> None:
        self.url = url
        self.headers = dict(headers)
        self.timeout = timeout
        self.session_id: str | None = None
        self.protocol: str | None = None
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._client: httpx2.AsyncClient | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False

    async def start(self) -> None:
        self._client = httpx2.AsyncClient(headers=self.headers, timeout=self.timeout + 5.0)

    async def send(self, data: bytes) -> None:
        task = asyncio.ensure_future(self._post(data))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def receive(self) -> bytes | None:
        return await self._queue.get()

    def describe_exit(self) -> str:
        return f"the connection to {redact_url(self.url)} closed"

    async def close(self, *, now: bool = False) -> None:
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        client = self._client
        if client is None:
            return
        if self.session_id is not None:
            with contextlib.suppress(Exception):
                await client.delete(self.url, headers=self._session_headers(), timeout=2.0)
        await client.aclose()

    def _session_headers(self) -> dict[str, str]:
        headers = {"Accept": "application/json, text/event-stream"}
        if self.session_id is not None:
            headers["Mcp-Session-Id"] = self.session_id
        if self.protocol is not None:
            headers["MCP-Protocol-Version"] = self.protocol
        return headers

    async def _post(self, data: bytes) -> None:
        assert self._client is not None
        try:
            msg: Any = json.loads(data)
        except ValueError:
            msg = None
        msg_id = msg.get("id") if isinstance(msg, dict) and "method" in msg else None
        is_init = isinstance(msg, dict) and msg.get("method") == "initialize"
        headers = {**self._session_headers(), "Content-Type": "application/json"}
        try:
            async with self._client.stream("POST", self.url, content=data, headers=headers) as resp:
                if is_init and resp.headers.get("mcp-session-id"):
                    self.session_id = resp.headers["mcp-session-id"]
                if resp.status_code == 202 or (msg_id is None and resp.status_code < 400):
                    return
                if resp.status_code >= 400:
                    self._fail(msg_id, f"the server answered HTTP {resp.status_code}")
                    return
                kind = resp.headers.get("content-type", "")
                if kind.startswith("text/event-stream"):
                    await self._events(resp, is_init)
                else:
                    self._deliver((await resp.aread()).strip(), is_init)
        except httpx2.HTTPError as exc:
            self._fail(msg_id, f"could not reach {redact_url(self.url)} ({type(exc).__name__})")

    async def _events(self, resp: httpx2.Response, is_init: bool) -> None:
        data: list[str] = []
        async for line in resp.aiter_lines():
            if line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
            elif not line and data:
                self._deliver("\n".join(data).encode("utf-8"), is_init)
                data = []
        if data:
            self._deliver("\n".join(data).encode("utf-8"), is_init)

    def _deliver(self, body: bytes, is_init: bool) -> None:
        if not body:
            return
        if is_init:
            with contextlib.suppress(ValueError, AttributeError, TypeError):
                version = json.loads(body)["result"]["protocolVersion"]
                self.protocol = version if isinstance(version, str) else None
        self._queue.put_nowait(body)

    def _fail(self, msg_id: Any, message: str) -> None:
        if msg_id is None or self._closed:
            return
        error = {"code": -32000, "message": f"{message} (mcplock-tui guard)"}
        self._queue.put_nowait(
            json.dumps({"jsonrpc": "2.0", "id": msg_id, "error": error}).encode()
        )
