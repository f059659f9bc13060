"""Capture one server: connect, initialize, list everything page by page, within a deadline.

The surface is built from the raw JSON recorded by :mod:`.tap`, never from the SDK's models,
so unknown keys, explicit nulls and malformed items reach the lockfile as sent. A page the
SDK rejects is still taken from the tap, with a warning. Lists are only requested when the
capability is advertised, and a -32601 for one list is a warning rather than a failure, so
a sloppy but harmless server still gets pinned.

Failure modes are all folded into a :class:`CaptureResult` (see :mod:`.failure`); this
module never raises for anything a server does. Wall time is bounded by ``timeout`` plus
the SDK's shutdown of a stdio server that ignores its closed stdin (up to about 4 s more).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import ExitStack, asynccontextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TextIO

import anyio
import httpx2
from mcp import Client, MCPError, StdioServerParameters, stdio_client
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import (
    METHOD_NOT_FOUND,
    Implementation,
    ListPromptsRequest,
    ListResourcesRequest,
    ListResourceTemplatesRequest,
    ListToolsRequest,
    PaginatedRequestParams,
)
from pydantic import BaseModel, ConfigDict, ValidationError

from mcplock_tui import __version__
from mcplock_tui.capture.failure import (
    CaptureProtocolError,
    CaptureSpawnError,
    describe,
    schema_problem,
    server_text,
    target,
)
from mcplock_tui.capture.logs import (
    install_sdk_log_routing,
    log_path_for,
    open_private_log,
    routed_to,
)
from mcplock_tui.capture.prompts import capture_messages
from mcplock_tui.capture.shutdown import shorten_sdk_shutdown
from mcplock_tui.capture.stderr_tail import read_tail
from mcplock_tui.capture.tap import RawTap, tapped
from mcplock_tui.core.lockfile import share_unchanged
from mcplock_tui.core.model import CaptureResult, ErrorKind, Kind, Surface
from mcplock_tui.core.surface import SurfaceError, build_surface
from mcplock_tui.spec import ServerSpec

MAX_PAGES = 1000
"""A server still paginating after this many pages is treated as looping."""

LISTS: tuple[tuple[str, str, str, str], ...] = (
    # method, result key, capability that gates it, Client method
    ("tools/list", "tools", "tools", "list_tools"),
    ("prompts/list", "prompts", "prompts", "list_prompts"),
    ("resources/list", "resources", "resources", "list_resources"),
    ("resources/templates/list", "resourceTemplates", "resources", "list_resource_templates"),
)

_REQUESTS: dict[str, Any] = {
    "tools/list": ListToolsRequest,
    "prompts/list": ListPromptsRequest,
    "resources/list": ListResourcesRequest,
    "resources/templates/list": ListResourceTemplatesRequest,
}


class _RawResult(BaseModel):
    """What a list request returns here: the result's keys as they are, never turned into models.

    The session still checks each reply against the MCP schema (a ValidationError becomes
    the "does not match the MCP schema" warning), but the surface is built from the tap's copy,
    so parsing every tool into SDK models only to throw them away would double the work per page.
    """

    model_config = ConfigDict(extra="allow")


CLIENT_INFO = Implementation(name="mcplock-tui", version=__version__)
_HTTP_GRACE = 5.0
"""Added to httpx's own timeouts so that our deadline, with its clearer message, fires first."""


@dataclass(slots=True)
class _Progress:
    phase: str = "start"
    initialize: dict[str, Any] | None = None
    lists: dict[str, list[Any]] = field(default_factory=dict)
    complete: bool = False
    shared: set[int] = field(default_factory=set)
    """``id`` of each listed item found equal to its pin (see ``share_unchanged``)."""


def _check_target(spec: ServerSpec) -> None:
    """Config gaps that would otherwise surface as confusing SDK errors."""
    if spec.transport == "stdio":
        if not spec.command:
            raise CaptureSpawnError("cannot start the server: no command is configured")
        if spec.cwd is not None and not Path(spec.cwd).is_dir():
            where = target(spec)
            raise CaptureSpawnError(
                f"could not start {where}: its working directory does not exist"
            )
    elif not spec.url:
        raise CaptureSpawnError("cannot reach the server: no URL is configured")


@asynccontextmanager
async def _transport(
    spec: ServerSpec, limit: float, errlog: TextIO | None, progress: _Progress
) -> AsyncIterator[Any]:  # the SDK's (read, write) stream pair
    """The SDK transport for ``spec``; marks the move from ``start`` to ``initialize``."""
    _check_target(spec)
    if spec.transport == "stdio":
        assert spec.command is not None
        params = StdioServerParameters(
            command=spec.command,
            args=list(spec.args),
            env=dict(spec.env) or None,
            cwd=spec.cwd,
            encoding_error_handler="replace",  # strict decoding hangs on one bad byte
        )
        if errlog is None:  # never inherit our stderr, even if a caller gets this wrong
            raise RuntimeError("a stdio capture needs a log file for the server's stderr")
        async with stdio_client(params, errlog=errlog) as streams:
            progress.phase = "initialize"
            yield streams
        return
    assert spec.url is not None
    if spec.transport == "sse":
        async with sse_client(
            spec.url,
            headers=dict(spec.headers) or None,
            timeout=limit + _HTTP_GRACE,
            sse_read_timeout=limit + _HTTP_GRACE,
        ) as streams:
            progress.phase = "initialize"
            yield streams
        return
    http = httpx2.AsyncClient(headers=dict(spec.headers), timeout=limit + _HTTP_GRACE)
    async with http, streamable_http_client(spec.url, http_client=http) as streams:
        progress.phase = "initialize"
        yield streams


async def _list_all(
    call: Callable[..., Awaitable[object]],
    tap: RawTap,
    method: str,
    key: str,
    progress: _Progress,
    warnings: list[str],
    share: Callable[[list[Any]], None] | None = None,
) -> list[Any]:
    """Every item of one list, following ``nextCursor``; the raw items as sent.

    ``share`` is given each page's items as they arrive (see :func:`_list_everything`).
    """
    items: list[Any] = []
    seen: set[str] = set()
    cursor: str | None = None
    replaced = False
    for page in range(1, MAX_PAGES + 1):
        progress.phase = method
        mark = tap.mark()
        invalid: ValidationError | None = None
        try:
            await call(cursor=cursor)
        except ValidationError as exc:
            invalid = exc
        except MCPError as exc:
            if exc.code == METHOD_NOT_FOUND and page == 1 and exc.message != "Not Found":
                warnings.append(f"{method} is advertised but the server does not implement it")
                return []
            raise
        reply = tap.reply_since(mark, method)
        if reply is None or reply.result is None:
            if invalid is not None:
                raise invalid
            raise CaptureProtocolError(f"no reply to {method} was recorded")
        raw = reply.result
        if invalid is not None:
            where = f"page {page}" if page > 1 or "nextCursor" in raw else "reply"
            warnings.append(
                f"the {method} {where} does not match the MCP schema "
                f"({schema_problem(invalid)}); kept as sent"
            )
        if reply.has_replacement_char and not replaced:
            replaced = True
            warnings.append(
                f"the {method} reply contains U+FFFD: the server sent bytes that are not "
                "valid UTF-8, and they were replaced"
            )
        page_items = raw.get(key)
        if isinstance(page_items, list):
            if share is not None:
                share(page_items)
            items.extend(page_items)
        else:
            warnings.append(f"the {method} reply has no {key!r} list; nothing taken from it")
        next_cursor = raw.get("nextCursor")
        if next_cursor is None:
            return items
        if not isinstance(next_cursor, str):
            raise CaptureProtocolError(f"{method} returned a nextCursor that is not a string")
        if next_cursor in seen:
            raise CaptureProtocolError(
                f"{method} pagination does not end: page {page} repeats an earlier cursor"
            )
        seen.add(next_cursor)
        cursor = next_cursor
    raise CaptureProtocolError(f"{method} pagination does not end after {MAX_PAGES} pages")


def _raw_lister(client: Client, method: str) -> Callable[..., Awaitable[object]]:
    """``client.list_*`` without the models: the session's schema check, then a plain dict."""
    request_type = _REQUESTS[method]
    session = client.session

    async def call(*, cursor: str | None = None) -> object:
        params = PaginatedRequestParams(cursor=cursor) if cursor is not None else None
        return await session.send_request(request_type(params=params), _RawResult)

    return call


def _advertised(initialize: dict[str, Any], capability: str) -> bool:
    caps = initialize.get("capabilities")
    return isinstance(caps, dict) and caps.get(capability) is not None


_SHARED: dict[str, Kind] = {
    "tools": Kind.TOOL,
    "resources": Kind.RESOURCE,
    "resourceTemplates": Kind.RESOURCE_TEMPLATE,
}
"""The lists whose items are final when they arrive (a prompt's messages come later)."""


async def _list_everything(
    client: Client,
    tap: RawTap,
    initialize: dict[str, Any],
    progress: _Progress,
    warnings: list[str],
    limit: float,
    pinned: Surface | None = None,
) -> dict[str, list[Any]]:
    """Every advertised list, then the messages of the prompts that take no arguments.

    With ``pinned``, each page's unchanged items take their pinned twins' places there as
    they arrive (:func:`~mcplock_tui.core.lockfile.share_unchanged`), so a check holds one
    copy of an unchanged surface, not two.
    """
    lists: dict[str, list[Any]] = {}
    for method, key, capability, _name in LISTS:
        if _advertised(initialize, capability):
            call = _raw_lister(client, method)
            kind = _SHARED.get(key)
            share = None
            if pinned is not None and kind is not None:
                share = partial(share_unchanged, pinned, kind, shared=progress.shared)
            lists[key] = await _list_all(call, tap, method, key, progress, warnings, share)
    if lists.get("prompts"):
        progress.phase = "prompts/get"
        await capture_messages(client.get_prompt, tap, lists["prompts"], limit, warnings)
    return lists


async def _capture(
    spec: ServerSpec,
    limit: float,
    errlog: TextIO | None,
    tap: RawTap,
    progress: _Progress,
    warnings: list[str],
    client_info: Implementation = CLIENT_INFO,
    second: dict[str, list[Any]] | None = None,
    pinned: Surface | None = None,
) -> None:
    client = Client(
        tapped(_transport(spec, limit, errlog, progress), tap),
        mode="legacy",  # "auto" probes server/discover and stalls 10 s on older servers
        cache=None,  # a cache could serve a listing the server no longer sends
        read_timeout_seconds=limit,
        client_info=client_info,
    )
    async with client:
        reply = tap.reply_since(0, "initialize")
        if reply is None or reply.result is None:
            raise CaptureProtocolError("no reply to initialize was recorded")
        progress.initialize = reply.result
        if reply.has_replacement_char:
            warnings.append(
                "the initialize reply contains U+FFFD: the server sent bytes that are not "
                "valid UTF-8, and they were replaced"
            )
        progress.lists = await _list_everything(
            client, tap, reply.result, progress, warnings, limit, pinned
        )
        if second is not None:  # the probe's second listing in the same session
            second.update(await _list_everything(client, tap, reply.result, progress, [], limit))
        progress.complete = True
        progress.phase = "shutdown"


def _has_content(path: Path | None) -> bool:
    try:
        return path is not None and path.stat().st_size > 0
    except OSError:
        return False


def _open_log(log_dir: Path, log_path: Path) -> TextIO:
    return open_private_log(log_dir, log_path)


async def capture_one(
    spec: ServerSpec,
    *,
    timeout: float,  # noqa: ASYNC109  a per-server deadline is the API; fail_after applies it
    log_dir: Path,
    client_info: Implementation = CLIENT_INFO,
    second: dict[str, list[Any]] | None = None,
    pinned: Surface | None = None,
) -> CaptureResult:
    """Capture ``spec`` within ``timeout`` seconds. Never raises for anything the server does.

    ``client_info`` is the identity sent in ``initialize``; when ``second`` is given, every
    list is read a second time in the same session into it (raw items, as for the first).
    ``pinned`` is the server's pinned surface, whose unchanged items are replaced by their
    live objects as they arrive (same definitions: it reads the same afterwards).
    """
    install_sdk_log_routing()
    shorten_sdk_shutdown()
    started = time.monotonic()
    progress = _Progress()
    tap = RawTap()
    warnings: list[str] = []
    log_path = log_path_for(log_dir, spec.name) if spec.transport == "stdio" else None

    def failed(kind: str, message: str) -> CaptureResult:
        return CaptureResult(
            name=spec.name,
            error=message,
            error_kind=ErrorKind(kind),
            stderr_log=str(log_path) if log_path is not None else None,
            duration=time.monotonic() - started,
            warnings=tuple(warnings),
            stderr_tail=read_tail(log_path, spec),
        )

    scope: anyio.CancelScope | None = None
    with ExitStack() as stack:
        errlog: TextIO | None = None
        if log_path is not None:
            try:
                errlog = stack.enter_context(_open_log(log_dir, log_path))
            except OSError as exc:
                return failed("internal", f"could not open the log file {log_path}: {exc.strerror}")
        try:
            with routed_to(errlog), anyio.fail_after(timeout) as scope:
                await _capture(
                    spec, timeout, errlog, tap, progress, warnings, client_info, second, pinned
                )
        except Exception as exc:
            timed_out = scope is not None and scope.cancel_called
            if not progress.complete:
                if errlog is not None:
                    errlog.flush()
                hint = str(log_path) if _has_content(log_path) else ""
                failure = describe(
                    exc,
                    spec=spec,
                    phase=progress.phase,
                    timeout=timeout,
                    timed_out=timed_out,
                    junk=tap.junk,
                    log_hint=hint,
                )
                return failed(failure.kind, failure.message)
            cause = "timed out" if timed_out else server_text(type(exc).__name__)
            warnings.append(f"the connection did not close cleanly ({cause})")
    if tap.junk:
        what = "lines on stdout" if spec.transport == "stdio" else "messages"
        warnings.append(f"the server sent {tap.junk} {what} that are not JSON-RPC; skipped")
    try:
        surface = build_surface(
            initialize_result=progress.initialize,
            launch=spec.launch(),
            tools=progress.lists.get("tools", ()),
            prompts=progress.lists.get("prompts", ()),
            resources=progress.lists.get("resources", ()),
            resource_templates=progress.lists.get("resourceTemplates", ()),
            warnings=warnings,
            within_depth=progress.shared,
        )
    except SurfaceError as exc:
        return failed("protocol", str(exc))
    except Exception as exc:  # hostile data must not escape as an exception
        return failed("internal", f"could not assemble the surface: {type(exc).__name__}")
    return CaptureResult(
        name=spec.name,
        surface=surface,
        stderr_log=str(log_path) if log_path is not None else None,
        duration=time.monotonic() - started,
        warnings=tuple(warnings),
    )
