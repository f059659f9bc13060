"""Raw JSON-RPC MCP server over stdio that replays a definitions file verbatim.

No SDK is involved, so what the file says is exactly what goes on the wire: unknown keys,
explicit nulls and malformed items included (the SDK's own server would sieve them out).
The file is re-read on every request, so a test can pin, edit the file and capture again
while the launch line, and with it the server's identity, stays the same.

Usage: ``python rawserver.py DEFS_JSON`` (or ``RAWSERVER_DEFS=path``). ``RAWSERVER_MODE``
overrides ``defs["mode"]``. Misbehaviours all strike on ``tools/list`` unless noted:

- ``normal``: well-behaved.
- ``hang``: never answers and ignores stdin closing; only a signal stops it.
- ``crash``: writes to stderr and exits with status 3.
- ``exit_at_start``: writes to stderr and exits with status 1 before reading anything.
- ``invalid_utf8``: puts bytes 0xff 0xfe inside the first description of the reply.
- ``garbage``: writes non-JSON lines before every reply (any method).
- ``flood``: writes ``floodMB`` (default 8) MB of junk lines before the reply.
- ``error``: answers with JSON-RPC error -32603 (message from ``errorMessage`` if set).
- ``cursor_loop``: always returns the first page with the same ``nextCursor``.
- ``cursor_endless``: returns a new ``nextCursor`` forever.
- ``slow``: sleeps ``slowSeconds`` (default 1) before answering.

``prompts/get`` answers from ``defs["promptMessages"]`` (prompt name -> the result object);
without that key it is -32601; a name listed in ``defs["promptsHang"]`` never answers. Per session (one stdio process), ``defs["byClient"]`` maps a
``clientInfo.name`` to keys that replace the defs' own for that client, and
``defs["secondListing"]`` replaces keys from the second request of any list method on: a
server that answers differently depending on who asks, or when asked again.

``stderrLines`` (a list of strings) are written to stderr at start, in any mode.

This module is also imported by ``rawhttp.py`` for :func:`respond`; it uses the stdlib only.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

DEFS_ENV = "RAWSERVER_DEFS"
MODE_ENV = "RAWSERVER_MODE"
MODES = frozenset(
    {
        "normal",
        "hang",
        "crash",
        "exit_at_start",
        "invalid_utf8",
        "garbage",
        "flood",
        "error",
        "cursor_loop",
        "cursor_endless",
        "slow",
    }
)
LIST_METHODS: dict[str, str] = {
    "tools/list": "tools",
    "prompts/list": "prompts",
    "resources/list": "resources",
    "resources/templates/list": "resourceTemplates",
}
"""List method -> the defs key holding its items (also the result key)."""
_CAPABILITY_OF = {"tools": "tools", "prompts": "prompts", "resources": "resources"}
_FALLBACK_PROTOCOL = "2025-11-25"


def load_defs(path: str | Path) -> dict[str, Any]:
    defs = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(defs, dict):
        raise SystemExit(f"rawserver: {path} does not hold a JSON object")
    return defs


def mode_of(defs: dict[str, Any]) -> str:
    mode = os.environ.get(MODE_ENV) or defs.get("mode") or "normal"
    if mode not in MODES:
        raise SystemExit(f"rawserver: unknown mode {mode!r}")
    return str(mode)


def capabilities(defs: dict[str, Any]) -> Any:
    """``defs["capabilities"]`` verbatim if present, else one entry per list the defs hold."""
    if "capabilities" in defs:
        return defs["capabilities"]
    caps: dict[str, Any] = {}
    for key, cap in _CAPABILITY_OF.items():
        if key in defs:
            caps[cap] = {}
    if "resourceTemplates" in defs:
        caps["resources"] = {}
    return caps


def _error(msg_id: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}


def _page(defs: dict[str, Any], key: str, cursor: Any, mode: str) -> dict[str, Any] | str:
    """One page of ``defs[key]``; a str return is an invalid-params message."""
    items = defs[key]
    size = defs.get("pageSize") or len(items) or 1
    if mode == "cursor_loop" and key == "tools":
        return {key: items[:size], "nextCursor": "again"}
    try:
        start = int(cursor or 0)
    except ValueError:
        return f"unknown cursor {cursor!r}"
    result: dict[str, Any] = {key: items[start : start + size]}
    if start + size < len(items) or (mode == "cursor_endless" and key == "tools"):
        result["nextCursor"] = str(start + size)
    return result


def _variant(
    defs: dict[str, Any], method: Any, params: dict[str, Any], state: dict[str, Any] | None
) -> dict[str, Any]:
    """The defs this session sees: per client name, and from the second listing on."""
    if state is None:
        return defs
    if method == "initialize":
        info = params.get("clientInfo") or {}
        state["client"] = info.get("name") if isinstance(info, dict) else None
    by_client = defs.get("byClient") or {}
    if state.get("client") in by_client:
        defs = {**defs, **by_client[state["client"]]}
    if method in LIST_METHODS:
        counts = state.setdefault("lists", {})
        counts[method] = counts.get(method, 0) + 1
        if counts[method] >= 2 and "secondListing" in defs:
            defs = {**defs, **defs["secondListing"]}
    return defs


def _get_prompt(msg_id: Any, params: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    if "promptMessages" not in defs:
        return _error(msg_id, -32601, "Method not found")
    if params.get("name") in defs.get("promptsHang", ()):
        while True:  # a prompt whose rendering never finishes
            time.sleep(3600)
    result = defs["promptMessages"].get(params.get("name"))
    if result is None:
        return _error(msg_id, -32602, f"unknown prompt {params.get('name')!r}")
    return {"jsonrpc": "2.0", "id": msg_id, "result": result}


def respond(
    msg: dict[str, Any], defs: dict[str, Any], state: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """The reply to one JSON-RPC message, or None for a notification.

    ``state`` carries one session's memory (client name, listing counts) between messages.
    """
    if "id" not in msg:
        return None
    msg_id = msg["id"]
    method = msg.get("method")
    params = msg.get("params") or {}
    defs = _variant(defs, method, params, state)
    mode = mode_of(defs)
    if method == "initialize":
        result: dict[str, Any] = {
            "protocolVersion": defs.get(
                "protocolVersion", params.get("protocolVersion", _FALLBACK_PROTOCOL)
            ),
            "capabilities": capabilities(defs),
            "serverInfo": defs.get("serverInfo", {"name": "rawserver", "version": "0"}),
        }
        if "instructions" in defs:
            result["instructions"] = defs["instructions"]
        return {"jsonrpc": "2.0", "id": msg_id, "result": result}
    if method == "ping":
        return {"jsonrpc": "2.0", "id": msg_id, "result": {}}
    if method == "tools/list" and mode == "error":
        message = defs.get("errorMessage", "internal failure while listing tools")
        return _error(msg_id, -32603, message)
    if method == "prompts/get":
        return _get_prompt(msg_id, params, defs)
    key = LIST_METHODS.get(str(method))
    if key is None or key not in defs:
        return _error(msg_id, -32601, "Method not found")
    page = _page(defs, key, params.get("cursor"), mode)
    if isinstance(page, str):
        return _error(msg_id, -32602, page)
    return {"jsonrpc": "2.0", "id": msg_id, "result": page}


def encode(reply: dict[str, Any]) -> bytes:
    """UTF-8 on the wire like most servers; escapes only when a lone surrogate forbids it."""
    try:
        return json.dumps(reply, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(reply).encode("ascii")


def corrupt_utf8(data: bytes) -> bytes:
    """Insert bytes that are never valid UTF-8 inside the first description string."""
    return data.replace(b'"description": "', b'"description": "\xff\xfe', 1)


def _before_list_reply(defs: dict[str, Any], mode: str) -> None:
    """Misbehaviour that happens while a tools/list request is being handled."""
    if mode == "hang":
        while True:  # stdin closing does not stop it; only a signal does
            time.sleep(3600)
    if mode == "crash":
        sys.stderr.write("rawserver: crashing while listing tools\n")
        sys.stderr.flush()
        os._exit(3)
    if mode == "slow":
        time.sleep(float(defs.get("slowSeconds", 1)))


def _flood(out: Any, megabytes: float) -> None:
    line = b"#" * 65535 + b"\n"
    for _ in range(int(megabytes * 16)):
        out.write(line)
    out.flush()


def main(argv: list[str]) -> int:
    path = argv[1] if len(argv) > 1 else os.environ.get(DEFS_ENV)
    if not path:
        sys.stderr.write(f"usage: rawserver.py DEFS_JSON (or {DEFS_ENV}=path)\n")
        return 2
    defs = load_defs(path)
    sys.stderr.write(f"rawserver: starting (pid {os.getpid()})\n")
    for extra in defs.get("stderrLines", []):  # what a real server says before it fails
        sys.stderr.write(f"{extra}\n")
    sys.stderr.flush()
    if mode_of(defs) == "exit_at_start":
        sys.stderr.write("rawserver: fatal: refusing to start in exit_at_start mode\n")
        return 1
    out = sys.stdout.buffer
    state: dict[str, Any] = {}
    for line in sys.stdin.buffer:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if not isinstance(msg, dict):
            continue
        defs = load_defs(path)
        mode = mode_of(defs)
        is_list = msg.get("method") == "tools/list" and "id" in msg
        if is_list:
            _before_list_reply(defs, mode)
        reply = respond(msg, defs, state)
        if reply is None:
            continue
        data = encode(reply)
        if mode == "garbage":
            out.write(b"server starting up...\n{not json\n\n")
        if is_list and mode == "flood":
            _flood(out, float(defs.get("floodMB", 8)))
        if is_list and mode == "invalid_utf8":
            data = corrupt_utf8(data)
        out.write(data + b"\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
