"""Helpers for tests that need real MCP servers: definitions files, specs, HTTP servers.

Servers always run as separate processes (stdio children, or HTTP servers started here and
stopped reliably), so captures exercise real pipes and sockets on 127.0.0.1.
"""

from __future__ import annotations

import copy
import json
import os
import selectors
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

from mcplock_tui.spec import ServerSpec

SERVERS_DIR = Path(__file__).resolve().parent
REPO_ROOT = SERVERS_DIR.parent.parent
RAWSERVER = SERVERS_DIR / "rawserver.py"
SDKSERVER = SERVERS_DIR / "sdkserver.py"
START_TIMEOUT = 20.0

_DEFAULT_DEFS: dict[str, Any] = {
    "serverInfo": {"name": "fixture-files", "title": "Fixture Files", "version": "1.4.2"},
    "instructions": (
        "Use read_file before write_file. All paths are relative to the project root; "
        "never touch files outside it."
    ),
    "tools": [
        {
            "name": "read_file",
            "title": "Read file",
            "description": "Read a UTF-8 text file and return its contents.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "path": {"type": "string", "description": "Path relative to the project root"}
                },
                "required": ["path"],
            },
            "annotations": {"readOnlyHint": True, "openWorldHint": False},
        },
        {
            "name": "write_file",
            "description": "Create or overwrite a text file.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "path": {"type": "string"},
                    "content": {"type": "string", "description": "Full new contents"},
                },
                "required": ["path", "content"],
            },
            "annotations": {"destructiveHint": True, "idempotentHint": True},
        },
        {
            "name": "list_directory",
            "description": "List the entries of a directory.",
            "inputSchema": {
                "type": "object",
                "properties": {"path": {"type": "string", "default": "."}},
            },
            "annotations": {"readOnlyHint": True},
        },
        {
            "name": "search_files",
            "description": "Find files whose names match a glob pattern.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "pattern": {"type": "string"},
                    "maxResults": {"type": "integer", "minimum": 1, "maximum": 500},
                },
                "required": ["pattern"],
            },
            "outputSchema": {
                "type": "object",
                "properties": {"paths": {"type": "array", "items": {"type": "string"}}},
            },
            "annotations": {"readOnlyHint": True},
        },
        {
            "name": "delete_file",
            "description": "Delete a file. This cannot be undone.",
            "inputSchema": {
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"],
            },
            "annotations": {"destructiveHint": True, "idempotentHint": True},
        },
    ],
    "prompts": [
        {
            "name": "summarise_file",
            "description": "Summarise one file for a code review.",
            "arguments": [
                {"name": "path", "description": "File to summarise", "required": True},
                {"name": "style", "description": "brief or detailed", "required": False},
            ],
        },
        {"name": "review_diff", "description": "Review the staged diff."},
        {
            "name": "explain_error",
            "description": "Explain a compiler or test error.",
            "arguments": [{"name": "message", "required": True}],
        },
    ],
    "resources": [
        {
            "uri": "file:///project/README.md",
            "name": "README",
            "description": "Project overview",
            "mimeType": "text/markdown",
        },
        {"uri": "file:///project/pyproject.toml", "name": "pyproject", "mimeType": "text/x-toml"},
        {"uri": "file:///project/CHANGELOG.md", "name": "changelog", "mimeType": "text/markdown"},
    ],
    "resourceTemplates": [
        {
            "uriTemplate": "file:///project/{path}",
            "name": "project-file",
            "description": "Any file in the project",
            "mimeType": "text/plain",
        },
        {"uriTemplate": "git:///log/{ref}", "name": "git-log"},
        {"uriTemplate": "git:///show/{ref}/{path}", "name": "git-show"},
    ],
    "pageSize": 2,
    "mode": "normal",
}


def default_defs() -> dict[str, Any]:
    """A fresh copy of a realistic definitions document (every list spans several pages)."""
    return copy.deepcopy(_DEFAULT_DEFS)


def write_defs(path: Path, **overrides: Any) -> Path:
    """Write the default definitions with top-level keys replaced; ``None`` removes a key."""
    defs = default_defs()
    for key, value in overrides.items():
        if value is None:
            defs.pop(key, None)
        else:
            defs[key] = value
    path.write_text(json.dumps(defs, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def stdio_spec(
    name: str,
    defs_path: Path,
    mode: str | None = None,
    *,
    env: Mapping[str, str] | None = None,
) -> ServerSpec:
    """``rawserver.py`` under this interpreter; ``mode`` goes in through the environment."""
    full_env = dict(env or {})
    if mode is not None:
        full_env["RAWSERVER_MODE"] = mode
    return ServerSpec(
        name=name,
        transport="stdio",
        source="tests",
        command=sys.executable,
        args=(str(RAWSERVER), str(defs_path)),
        env=full_env,
    )


def sdk_stdio_spec(name: str, defs_path: Path) -> ServerSpec:
    return ServerSpec(
        name=name,
        transport="stdio",
        source="tests",
        command=sys.executable,
        args=(str(SDKSERVER), str(defs_path), "stdio"),
    )


def url_spec(
    name: str,
    url: str,
    transport: Literal["http", "sse"] = "http",
    headers: Mapping[str, str] | None = None,
) -> ServerSpec:
    return ServerSpec(
        name=name, transport=transport, source="tests", url=url, headers=dict(headers or {})
    )


def _read_url(proc: subprocess.Popen[bytes]) -> str:
    """The first stdout line of a server that prints its URL once it listens."""
    assert proc.stdout is not None
    deadline = time.monotonic() + START_TIMEOUT
    buffer = b""
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        while b"\n" not in buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not sel.select(remaining):
                raise RuntimeError("test server did not print its URL in time")
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                raise RuntimeError(f"test server exited early (status {proc.wait()})")
            buffer += chunk
    return buffer.split(b"\n", 1)[0].decode().strip()


@contextmanager
def _server_process(cmd: list[str], env: Mapping[str, str] | None = None) -> Iterator[str]:
    proc = subprocess.Popen(
        cmd,
        cwd=REPO_ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
    )
    try:
        yield _read_url(proc)
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        assert proc.stdout is not None
        proc.stdout.close()


@contextmanager
def raw_http_server(defs_path: Path, mode: str | None = None) -> Iterator[str]:
    """``rawhttp.py`` in a subprocess; yields the ``/mcp`` endpoint URL."""
    env = {"RAWSERVER_MODE": mode} if mode is not None else None
    cmd = [sys.executable, "-m", "tests.servers.rawhttp", str(defs_path)]
    with _server_process(cmd, env) as url:
        yield url


@contextmanager
def sdk_http_server(
    defs_path: Path, transport: Literal["streamable-http", "sse"] = "streamable-http"
) -> Iterator[str]:
    """``sdkserver.py`` under uvicorn in a subprocess; yields the ``/mcp`` or ``/sse`` URL."""
    with _server_process([sys.executable, str(SDKSERVER), str(defs_path), transport]) as url:
        yield url


def mcp_json(servers: Mapping[str, ServerSpec]) -> dict[str, Any]:
    """A ``.mcp.json`` document (``mcpServers``) that configures these specs by name."""
    entries: dict[str, Any] = {}
    for name, spec in servers.items():
        entry: dict[str, Any] = {"type": spec.transport}
        if spec.transport == "stdio":
            entry["command"] = spec.command
            entry["args"] = list(spec.args)
            if spec.env:
                entry["env"] = dict(spec.env)
            if spec.cwd:
                entry["cwd"] = spec.cwd
        else:
            entry["url"] = spec.url
            if spec.headers:
                entry["headers"] = dict(spec.headers)
        entries[name] = entry
    return {"mcpServers": entries}
