"""A tiny MCP server over stdio that serves whatever its definitions file says, for the demo.

The demo needs servers that start in a few milliseconds on any machine and can change what
they expose without changing how they are launched, the way a real package update does. So
this speaks raw JSON-RPC with the standard library only (no SDK import, which would cost
a second per server) and re-reads the definitions file on every request: editing the file
under a running server is a real rug pull, seen by the next ``tools/list``.

Definitions file (JSON object): ``serverInfo``, optional ``instructions``, and the lists
``tools``, ``prompts``, ``resources``, ``resourceTemplates``, sent verbatim and unpaged.
A ``startupError`` string makes the server print it on stderr and exit with status 1
before reading any request, as a server missing a credential does.

Usage: ``python -m mcplock_tui.demo.server DEFS_JSON``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, BinaryIO

LIST_METHODS: dict[str, str] = {
    "tools/list": "tools",
    "prompts/list": "prompts",
    "resources/list": "resources",
    "resources/templates/list": "resourceTemplates",
}
"""List method -> the definitions key holding its items (also the result key)."""
_CAPABILITY_OF = {
    "tools": "tools",
    "prompts": "prompts",
    "resources": "resources",
    "resourceTemplates": "resources",
}
PROTOCOL_FALLBACK = "2025-11-25"


class DefsError(Exception):
    """The definitions file cannot be read or is not a JSON object."""


def load_defs(path: Path) -> dict[str, Any]:
    try:
        defs = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DefsError(f"cannot read {path}: {exc}") from None
    if not isinstance(defs, dict):
        raise DefsError(f"{path} does not hold a JSON object")
    return defs


def _label(defs: dict[str, Any]) -> str:
    info = defs.get("serverInfo")
    name = info.get("name") if isinstance(info, dict) else None
    return name if isinstance(name, str) and name else "demo-server"


def capabilities(defs: dict[str, Any]) -> dict[str, Any]:
    return {cap: {} for key, cap in _CAPABILITY_OF.items() if key in defs}


def _error(msg_id: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}


def respond(msg: dict[str, Any], path: Path) -> dict[str, Any] | None:
    """The reply to one JSON-RPC message (None for a notification)."""
    if "id" not in msg:
        return None
    msg_id = msg["id"]
    method = msg.get("method")
    if method == "ping":
        return {"jsonrpc": "2.0", "id": msg_id, "result": {}}
    try:
        defs = load_defs(path)
    except DefsError as exc:
        return _error(msg_id, -32603, str(exc))
    if method == "initialize":
        params = msg.get("params")
        asked = params.get("protocolVersion") if isinstance(params, dict) else None
        result: dict[str, Any] = {
            "protocolVersion": asked if isinstance(asked, str) else PROTOCOL_FALLBACK,
            "capabilities": capabilities(defs),
            "serverInfo": defs.get("serverInfo", {"name": "demo-server", "version": "0"}),
        }
        if "instructions" in defs:
            result["instructions"] = defs["instructions"]
        return {"jsonrpc": "2.0", "id": msg_id, "result": result}
    key = LIST_METHODS.get(method) if isinstance(method, str) else None
    # Like real servers, answer every list of an advertised capability (templates may be []).
    if key is None or _CAPABILITY_OF[key] not in capabilities(defs):
        return _error(msg_id, -32601, "Method not found")
    return {"jsonrpc": "2.0", "id": msg_id, "result": {key: defs.get(key, [])}}


def encode(reply: dict[str, Any]) -> bytes:
    """UTF-8 like most servers; ASCII escapes only when a lone surrogate forbids UTF-8."""
    try:
        return json.dumps(reply, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(reply).encode("ascii")


def serve(path: Path, stdin: BinaryIO, stdout: BinaryIO) -> None:
    for line in stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if not isinstance(msg, dict):
            continue
        reply = respond(msg, path)
        if reply is not None:
            stdout.write(encode(reply) + b"\n")
            stdout.flush()


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        sys.stderr.write("usage: python -m mcplock_tui.demo.server DEFS_JSON\n")
        return 2
    path = Path(argv[1])
    try:
        defs = load_defs(path)
    except DefsError as exc:
        sys.stderr.write(f"demo-server: fatal: {exc}\n")
        return 1
    failure = defs.get("startupError")
    if isinstance(failure, str):
        sys.stderr.write(f"{_label(defs)}: fatal: {failure}\n")
        return 1
    serve(path, sys.stdin.buffer, sys.stdout.buffer)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
