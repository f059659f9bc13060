"""The JSON-RPC relay between the agent's client and the real server, with the lockfile in the path.

Messages are relayed as the raw bytes that arrived. Only four kinds of message are touched:
the ``initialize`` result (drifted instructions dropped; ``listChanged`` advertised so the
client listens for reloads), ``*/list`` results (items that do not match their pin dropped),
``tools/call`` / ``prompts/get`` / ``resources/read`` of a withheld item (answered here with
an error, never forwarded), and ``list_changed`` notifications (the guard re-lists first, so
what it enforces is what the server now says). A rewritten message is re-serialised from the
decoded JSON dict, so unknown fields survive.

Nothing here waits without a bound: every request forwarded upstream has a deadline, after
which the client gets an error; a server that exits or closes its output answers every
outstanding and later request with an error naming the cause.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcplock_tui.core.lockfile import Lockfile, ServerPin
from mcplock_tui.core.model import Kind
from mcplock_tui.errors import LockfileError
from mcplock_tui.evidence.ledger import read_bound
from mcplock_tui.guard.observe import Observer
from mcplock_tui.guard.policy import (
    KINDS_OF_NOTIFICATION,
    LIST_CHANGED,
    LIST_METHODS,
    METHOD_OF,
    USE_METHODS,
    PinIndex,
    Status,
    Verdict,
    item_key,
    judge_hash,
    judge_instructions,
    judge_page,
    passes,
    refusal_message,
    shown,
    template_regex,
)
from mcplock_tui.guard.upstream import Upstream

log = logging.getLogger("mcplock_tui.guard")

INVALID_PARAMS = -32602
UPSTREAM_ERROR = -32000
UPSTREAM_TIMEOUT = -32001
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
MAX_PAGES = 1000
_MAX_PAGES_CACHED = 64
_ENVELOPE = re.compile(
    rb'\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(?:-?\d{1,18}|"[A-Za-z0-9_.:-]{0,100}")\s*,'
    rb'\s*"result"\s*:'
)
_INTERNAL = "mcplock-guard-"
"""Prefix of the ids of the guard's own requests to the server."""


@dataclass(slots=True)
class GuardOptions:
    server: str
    lock_path: Path
    warn: bool = False
    timeout: float = 120.0
    """Seconds the server gets to answer one request before the client is told it did not."""
    poll: float = 0.5
    """Seconds between looks at the lockfile for an accept."""


@dataclass(slots=True)
class _Pending:
    method: str
    deadline: float
    internal: asyncio.Future[dict[str, Any]] | None = None


@dataclass(slots=True)
class _State:
    """The latest verdict for every item the server listed, by kind and key."""

    seen: dict[Kind, dict[str, Verdict]] = field(default_factory=dict)
    listed: set[Kind] = field(default_factory=set)
    """Kinds listed completely at least once (by the client or the guard)."""


def _stat_key(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


class Relay:
    def __init__(
        self,
        options: GuardOptions,
        upstream: Upstream,
        write_client: Callable[[bytes], Awaitable[None]],
        observer: Observer | None = None,
    ) -> None:
        self.opt = options
        self.upstream = upstream
        self._write = write_client
        self.observer = observer
        self.state = _State()
        self.pending: dict[Any, _Pending] = {}
        self.pin: ServerPin | None = None
        self.index = PinIndex.build(None)
        self.lock_problem: str | None = None
        self._lock_stat: tuple[int, int, int] | None = None
        self._next_id = 0
        self._dead: str | None = None
        self._initialized = asyncio.Event()
        self._client_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self._to_upstream: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._generation = 0
        self._pages: dict[tuple[str, int, bytes], tuple[Verdict, ...]] = {}
        self._last_verdicts: tuple[Verdict, ...] | None = None
        self.load_lock()

    # --- lockfile ----------------------------------------------------------------------

    def load_lock(self) -> None:
        """Read the lockfile; any problem means nothing is trusted (fail closed)."""
        self._lock_stat = _stat_key(self.opt.lock_path)
        self._generation += 1
        self._pages.clear()
        lock: Lockfile | None = None
        try:
            lock = read_bound(self.opt.lock_path)
        except FileNotFoundError:
            self.lock_problem = f"no lockfile at {self.opt.lock_path}"
        except LockfileError as exc:
            self.lock_problem = str(exc)
        else:
            self.lock_problem = None
        self.pin = None if lock is None else lock.servers.get(self.opt.server)
        self.index = PinIndex.build(self.pin)
        if self.pin is None:
            problem = self.lock_problem or (
                f"server {shown(self.opt.server)!r} is not in the lockfile {self.opt.lock_path}"
            )
            log.error("failing closed: %s; everything the server offers is withheld", problem)

    def reload_if_changed(self) -> list[Kind]:
        """Re-read a lockfile that changed on disk; the kinds whose visible set changed."""
        if _stat_key(self.opt.lock_path) == self._lock_stat:
            return []
        self.load_lock()
        changed: list[Kind] = []
        for kind, items in self.state.seen.items():
            moved = False
            for key, old in list(items.items()):
                new = judge_hash(self.index, kind, key, old.hash)
                if old.status is Status.MALFORMED:
                    continue
                items[key] = new
                moved = moved or passes(new, self.opt.warn) != passes(old, self.opt.warn)
            if moved:
                changed.append(kind)
        log.info("lockfile reloaded; changed lists: %s", [k.value for k in changed] or "none")
        return changed

    # --- writing -----------------------------------------------------------------------

    async def to_client(self, message: dict[str, Any] | bytes) -> None:
        data = message if isinstance(message, bytes) else _encode(message)
        async with self._client_lock:
            await self._write(data)

    async def error_to_client(self, msg_id: Any, code: int, message: str, data: Any = None) -> None:
        error: dict[str, Any] = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        await self.to_client({"jsonrpc": "2.0", "id": msg_id, "error": error})

    def to_upstream(self, data: bytes) -> None:
        self._to_upstream.put_nowait(data)

    async def upstream_writer(self) -> None:
        while (data := await self._to_upstream.get()) is not None:
            try:
                await self.upstream.send(data)
            except (ConnectionError, OSError) as exc:
                log.warning("could not write to the server: %s", type(exc).__name__)
                return

    def spawn(self, coro: Awaitable[None]) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- client -> server --------------------------------------------------------------

    async def on_client(self, raw: bytes) -> None:
        try:
            msg = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            log.warning("the client sent a line that is not JSON; answered with a parse error")
            await self.error_to_client(None, PARSE_ERROR, "Parse error")
            return
        if not isinstance(msg, dict):
            await self.error_to_client(None, INVALID_REQUEST, "batches are not supported")
            return
        method = msg.get("method")
        has_id = "id" in msg and msg["id"] is not None
        if not isinstance(method, str):
            self.to_upstream(raw)  # a response to a request of the server's
            return
        if not has_id:
            self._client_notification(method, msg)
            self.to_upstream(raw)
            return
        msg_id = msg["id"]
        if self._dead is not None:
            await self.error_to_client(msg_id, UPSTREAM_ERROR, self._dead_message())
            return
        if method in USE_METHODS:
            verdict = self._known_use_verdict(method, msg)
            if verdict is None:
                self.spawn(self._gate_after_listing(method, msg, raw))
                return
            if not passes(verdict, self.opt.warn):
                await self._refuse(msg_id, verdict)
                return
        self._forward_request(msg_id, method, raw)

    def _client_notification(self, method: str, msg: dict[str, Any]) -> None:
        if method == "notifications/initialized":
            self._initialized.set()
        elif method == "notifications/cancelled":
            params = msg.get("params")
            if isinstance(params, dict):
                self.pending.pop(_id_key(params.get("requestId")), None)

    def _forward_request(self, msg_id: Any, method: str, raw: bytes) -> None:
        self.pending[_id_key(msg_id)] = _Pending(method, time.monotonic() + self.opt.timeout)
        self.to_upstream(raw)

    async def _refuse(self, msg_id: Any, verdict: Verdict) -> None:
        message = refusal_message(
            self.opt.server, verdict.kind, verdict.name, verdict.status, str(self.opt.lock_path)
        )
        data = {
            "mcplock": {
                "server": self.opt.server,
                "kind": verdict.kind.value,
                "status": verdict.status.value,
            }
        }
        log.info("refused a use of withheld %s %s", verdict.kind.value, shown(verdict.name))
        await self.error_to_client(msg_id, INVALID_PARAMS, message, data)

    def _known_use_verdict(self, method: str, msg: dict[str, Any]) -> Verdict | None:
        """The verdict for the item a call uses, or None when the guard must list first."""
        kind, param = USE_METHODS[method]
        params = msg.get("params")
        target = params.get(param) if isinstance(params, dict) else None
        if not isinstance(target, str):
            return Verdict(kind, "", "", Status.MALFORMED)
        if self.pin is None:
            return Verdict(kind, target, "", Status.UNPINNED_SERVER)
        verdict = self.state.seen.get(kind, {}).get(target)
        if kind is not Kind.RESOURCE:
            if verdict is None and kind not in self.state.listed:
                return None
            return verdict or Verdict(kind, target, "", Status.NEW)
        if verdict is not None:
            return verdict
        if (
            Kind.RESOURCE not in self.state.listed
            or Kind.RESOURCE_TEMPLATE not in self.state.listed
        ):
            return None
        return self._template_verdict(target)

    def _template_verdict(self, uri: str) -> Verdict:
        """A URI not listed as a resource may be read through a reviewed template."""
        for key, verdict in self.state.seen.get(Kind.RESOURCE_TEMPLATE, {}).items():
            if not passes(verdict, self.opt.warn):
                continue
            pattern = template_regex(key)
            if pattern is not None and pattern.fullmatch(uri):
                return Verdict(Kind.RESOURCE, uri, verdict.hash, verdict.status)
        return Verdict(Kind.RESOURCE, uri, "", Status.NEW)

    async def _gate_after_listing(self, method: str, msg: dict[str, Any], raw: bytes) -> None:
        kind, _ = USE_METHODS[method]
        kinds = (Kind.RESOURCE, Kind.RESOURCE_TEMPLATE) if kind is Kind.RESOURCE else (kind,)
        for each in kinds:
            if each not in self.state.listed:
                await self.relist(each)
        verdict = self._known_use_verdict(method, msg)
        if verdict is None:  # the server would not list: nothing can be shown to match
            verdict = Verdict(kind, str((msg.get("params") or {}).get("name", "")), "", Status.NEW)
        if not passes(verdict, self.opt.warn):
            await self._refuse(msg["id"], verdict)
            return
        self._forward_request(msg["id"], method, raw)

    # --- server -> client --------------------------------------------------------------

    async def on_upstream(self, raw: bytes) -> None:
        if raw.startswith(b"\x00"):
            log.warning("the server sent a message over %d bytes; skipped", len(raw))
            return
        try:
            text = raw.decode("utf-8")
            exact = True
        except UnicodeDecodeError:
            text = raw.decode("utf-8", errors="replace")  # U+FFFD cannot match any pin
            exact = False
        try:
            msg = json.loads(text)
        except ValueError:
            log.warning("the server wrote a line that is not JSON (%d bytes); skipped", len(raw))
            return
        if not isinstance(msg, dict):
            log.warning("the server sent a JSON value that is not a message; skipped")
            return
        method = msg.get("method")
        if isinstance(method, str):
            if "id" not in msg and method in KINDS_OF_NOTIFICATION:
                self.spawn(self._upstream_list_changed(method, raw if exact else _encode(msg)))
                return
            await self.to_client(raw if exact else _encode(msg))
            return
        pending = self.pending.pop(_id_key(msg.get("id")), None)
        if pending is None:
            log.info("dropped a reply to an unknown or timed-out request")
            return
        if pending.internal is not None:
            if not pending.internal.done():
                pending.internal.set_result(msg)
            return
        page = self._page_key(pending.method, msg, raw) if exact else None
        if page is not None and self._replay_page(page):
            await self.to_client(raw)
            return
        self._last_verdicts = None
        rewritten = self._intercept(pending.method, msg)
        if rewritten or not exact:
            await self.to_client(_encode(msg))
            return
        if page is not None and self._last_verdicts is not None:
            self._remember_page(page, self._last_verdicts)
        await self.to_client(raw)

    # A page the guard already judged, byte for byte, under the same lockfile gets the same
    # verdicts: only its digests are skipped (it is still parsed and routed as usual). The key
    # is the bytes after a recognised ``{"jsonrpc":"2.0","id":…,"result":`` prefix, so the
    # differing id does not matter and an identical key means an identical result.

    def _page_key(
        self, method: str, msg: dict[str, Any], raw: bytes
    ) -> tuple[str, int, bytes] | None:
        if method not in LIST_METHODS:
            return None
        match = _ENVELOPE.match(raw)
        if match is None:
            return None
        return (method, self._generation, hashlib.sha256(memoryview(raw)[match.end() :]).digest())

    def _replay_page(self, page: tuple[str, int, bytes]) -> bool:
        verdicts = self._pages.get(page)
        if verdicts is None:
            return False
        kind = LIST_METHODS[page[0]][0]
        self.state.seen.setdefault(kind, {}).update((v.name, v) for v in verdicts if v.name)
        return True

    def _remember_page(self, page: tuple[str, int, bytes], verdicts: tuple[Verdict, ...]) -> None:
        if len(self._pages) >= _MAX_PAGES_CACHED:
            self._pages.pop(next(iter(self._pages)))
        self._pages[page] = verdicts

    def _intercept(self, method: str, msg: dict[str, Any]) -> bool:
        """Filter a reply in place; True when it was changed."""
        result = msg.get("result")
        if not isinstance(result, dict):
            return False
        if method == "initialize":
            return self._intercept_initialize(result)
        entry = LIST_METHODS.get(method)
        if entry is None:
            return False
        kind, key = entry
        items = result.get(key)
        if not isinstance(items, list):
            return False
        kept = self._judge_items(kind, items)
        if len(kept) == len(items):
            return False
        result[key] = kept
        return True

    def _judge_items(self, kind: Kind, items: list[Any]) -> list[Any]:
        seen = self.state.seen.setdefault(kind, {})
        verdicts = judge_page(self.index, kind, items, set())
        self._last_verdicts = tuple(verdicts)
        kept: list[Any] = []
        for item, verdict in zip(items, verdicts, strict=True):
            key = verdict.name or item_key(kind, item)
            if key and verdict.status is not Status.MALFORMED:
                seen[key] = verdict
            if self.observer is not None:
                self.observer.record(verdict, item, passed=passes(verdict, self.opt.warn))
            if passes(verdict, self.opt.warn):
                kept.append(item)
            else:
                log.info(
                    "withheld %s %s (%s)", kind.value, shown(verdict.name), verdict.status.value
                )
        return kept

    def _intercept_initialize(self, result: dict[str, Any]) -> bool:
        changed = False
        if "instructions" in result:
            verdict = judge_instructions(self.pin, result["instructions"])
            if self.observer is not None:
                self.observer.record(
                    verdict,
                    {"instructions": result["instructions"]},
                    passed=passes(verdict, self.opt.warn),
                )
            if not passes(verdict, self.opt.warn):
                del result["instructions"]
                log.info("withheld the server instructions (%s)", verdict.status.value)
                changed = True
        caps = result.get("capabilities")
        if isinstance(caps, dict):
            for name in ("tools", "prompts", "resources"):
                cap = caps.get(name)
                if isinstance(cap, dict) and cap.get("listChanged") is not True:
                    cap["listChanged"] = True  # the guard announces reloads after an accept
                    changed = True
        return changed

    async def _upstream_list_changed(self, method: str, raw: bytes) -> None:
        for kind in KINDS_OF_NOTIFICATION[method]:
            await self.relist(kind)
        await self.to_client(raw)

    # --- the guard's own requests --------------------------------------------------------

    async def request(self, method: str, params: dict[str, Any]) -> dict[str, Any] | None:
        """Ask the server directly (after the client's handshake); None on any failure."""
        if self._dead is not None:
            return None
        try:
            await asyncio.wait_for(self._initialized.wait(), self.opt.timeout)
        except TimeoutError:
            return None
        self._next_id += 1
        msg_id = f"{_INTERNAL}{self._next_id}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[_id_key(msg_id)] = _Pending(
            method, time.monotonic() + self.opt.timeout, future
        )
        self.to_upstream(
            _encode({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        )
        try:
            return await future
        except (asyncio.CancelledError, ConnectionError):
            return None

    async def relist(self, kind: Kind) -> None:
        """List ``kind`` completely and replace what the guard knows about it."""
        method = METHOD_OF[kind]
        key = LIST_METHODS[method][1]
        cursor: Any = None
        previous = self.state.seen.get(kind, {})
        self.state.seen[kind] = {}
        for _ in range(MAX_PAGES):
            reply = await self.request(method, {} if cursor is None else {"cursor": cursor})
            result = None if reply is None else reply.get("result")
            if not isinstance(result, dict) or not isinstance(result.get(key), list):
                if not self.state.seen[kind]:
                    self.state.seen[kind] = previous
                break
            self._judge_items(kind, result[key])
            cursor = result.get("nextCursor")
            if not isinstance(cursor, str):
                self.state.listed.add(kind)
                return
        log.warning("could not list %s completely; calls are judged on what was seen", kind.value)
        self.state.listed.add(kind)

    # --- timers and the end ------------------------------------------------------------

    async def watchdog(self) -> None:
        """Answer requests the server sat on; reload the lockfile when it changes."""
        last_poll = 0.0
        while True:
            await asyncio.sleep(min(0.1, self.opt.poll))
            now = time.monotonic()
            for key, pending in list(self.pending.items()):
                if pending.deadline <= now:
                    del self.pending[key]
                    await self._fail_pending(
                        key,
                        pending,
                        UPSTREAM_TIMEOUT,
                        f"the MCP server did not answer {pending.method} within "
                        f"{self.opt.timeout:g} s (mcplock-tui guard)",
                    )
            if now - last_poll >= self.opt.poll:
                last_poll = now
                for kind in dict.fromkeys(self.reload_if_changed()):
                    await self.to_client({"jsonrpc": "2.0", "method": LIST_CHANGED[kind]})

    async def _fail_pending(self, key: Any, pending: _Pending, code: int, message: str) -> None:
        if pending.internal is not None:
            if not pending.internal.done():
                pending.internal.set_exception(ConnectionError(message))
            return
        log.warning("%s", message)
        await self.error_to_client(key[1] if isinstance(key, tuple) else key, code, message)

    def mark_unavailable(self, reason: str) -> None:
        """The server could not be started: every request is answered with ``reason``."""
        self._dead = reason

    def _dead_message(self) -> str:
        return f"the MCP server is not available: {self._dead} (mcplock-tui guard)"

    async def upstream_gone(self) -> None:
        self._dead = self.upstream.describe_exit()
        log.error("%s", self._dead)
        for key, pending in list(self.pending.items()):
            del self.pending[key]
            await self._fail_pending(key, pending, UPSTREAM_ERROR, self._dead_message())

    async def close(self) -> None:
        self._to_upstream.put_nowait(None)
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task


def _id_key(msg_id: Any) -> Any:
    """Ids 1 and "1" are different requests; dict keys would merge them otherwise (1 == 1.0 too)."""
    return (type(msg_id).__name__, msg_id)


def _encode(msg: dict[str, Any]) -> bytes:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "replace")
