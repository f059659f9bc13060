"""The definitions file served by the MCP SDK's low-level ``Server``, over stdio, HTTP or SSE.

It proves capture works against the reference implementation. The SDK validates and
re-serialises what it sends (unknown keys and top-level nulls dropped, keys reordered), so
use it with well-formed definitions only; ``rawserver.py`` is the faithful one. Definitions
are read once at start.

Usage: ``python sdkserver.py DEFS_JSON [stdio|streamable-http|sse]``. For the HTTP
transports the first line on stdout is the endpoint URL, printed once uvicorn listens.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import uvicorn
from mcp.server import Server, ServerRequestContext
from mcp.server.sse import SseServerTransport
from mcp.server.stdio import stdio_server
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route

Ctx = ServerRequestContext[Any, Any]
Params = types.PaginatedRequestParams | None


def _paged(items: list[Any], size: int) -> Callable[[Params], tuple[list[Any], str | None]]:
    def page(params: Params) -> tuple[list[Any], str | None]:
        start = int(params.cursor) if params is not None and params.cursor else 0
        end = start + size
        return items[start:end], (str(end) if end < len(items) else None)

    return page


def build_server(defs: dict[str, Any]) -> Server[Any]:
    info = defs.get("serverInfo", {})
    size = int(defs.get("pageSize") or 1000)
    handlers: dict[str, Any] = {}  # Any: the Server overloads cannot see through **kwargs

    if "tools" in defs:
        tool_page = _paged([types.Tool.model_validate(t) for t in defs["tools"]], size)

        async def list_tools(ctx: Ctx, params: Params) -> types.ListToolsResult:
            items, cursor = tool_page(params)
            return types.ListToolsResult(tools=items, next_cursor=cursor)

        handlers["on_list_tools"] = list_tools
    if "prompts" in defs:
        prompt_page = _paged([types.Prompt.model_validate(p) for p in defs["prompts"]], size)

        async def list_prompts(ctx: Ctx, params: Params) -> types.ListPromptsResult:
            items, cursor = prompt_page(params)
            return types.ListPromptsResult(prompts=items, next_cursor=cursor)

        handlers["on_list_prompts"] = list_prompts
    if "resources" in defs:
        res_page = _paged([types.Resource.model_validate(r) for r in defs["resources"]], size)

        async def list_resources(ctx: Ctx, params: Params) -> types.ListResourcesResult:
            items, cursor = res_page(params)
            return types.ListResourcesResult(resources=items, next_cursor=cursor)

        handlers["on_list_resources"] = list_resources
    if "resourceTemplates" in defs:
        templates = [types.ResourceTemplate.model_validate(t) for t in defs["resourceTemplates"]]
        tpl_page = _paged(templates, size)

        async def list_templates(ctx: Ctx, params: Params) -> types.ListResourceTemplatesResult:
            items, cursor = tpl_page(params)
            return types.ListResourceTemplatesResult(resource_templates=items, next_cursor=cursor)

        handlers["on_list_resource_templates"] = list_templates

    return Server(
        info.get("name", "sdkserver"),
        version=info.get("version", ""),
        title=info.get("title"),
        instructions=defs.get("instructions"),
        **handlers,
    )


def sse_app(server: Server[Any]) -> Starlette:
    sse = SseServerTransport("/messages/")

    async def handle_sse(request: Request) -> Response:
        send = request._send  # the SSE transport writes the response itself
        async with sse.connect_sse(request.scope, request.receive, send) as (read, write):
            await server.run(read, write, server.create_initialization_options())
        return Response()

    return Starlette(
        routes=[
            Route("/sse", endpoint=handle_sse, methods=["GET"]),
            Mount("/messages/", app=sse.handle_post_message),
        ]
    )


async def serve_http(server: Server[Any], transport: str) -> None:
    app = server.streamable_http_app() if transport == "streamable-http" else sse_app(server)
    path = "/mcp" if transport == "streamable-http" else "/sse"
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on")
    web = uvicorn.Server(config)
    async with anyio.create_task_group() as tg:
        tg.start_soon(web.serve)
        while not web.started:  # noqa: ASYNC110  uvicorn offers a flag, not an event
            await anyio.sleep(0.02)
        port = web.servers[0].sockets[0].getsockname()[1]
        sys.stdout.write(f"http://127.0.0.1:{port}{path}\n")
        sys.stdout.flush()


async def serve_stdio(server: Server[Any]) -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        sys.stderr.write("usage: sdkserver.py DEFS_JSON [stdio|streamable-http|sse]\n")
        return 2
    defs = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    transport = argv[2] if len(argv) > 2 else "stdio"
    server = build_server(defs)
    if transport == "stdio":
        anyio.run(serve_stdio, server)
    elif transport in ("streamable-http", "sse"):
        anyio.run(serve_http, server, transport)
    else:
        sys.stderr.write(f"unknown transport {transport!r}\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
