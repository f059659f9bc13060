"""``rawserver.py`` plus the calls an agent makes: tools/call, prompts/get, resources/read.

Listing behaves exactly as in ``rawserver.py`` (same definitions file, re-read on every
request, same misbehaviour modes). A background thread watches the definitions file and sends
``notifications/tools/list_changed`` when it changes, as a server with ``listChanged`` does.
``tools/call`` answers with the tool name and arguments as text, so a test sees the call
reached the server.

Usage: ``python callserver.py DEFS_JSON``; the pid goes to ``DEFS.pid``.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.servers import rawserver

_out_lock = threading.Lock()


def _write(data: bytes) -> None:
    with _out_lock:
        sys.stdout.buffer.write(data + b"\n")
        sys.stdout.buffer.flush()


def _use(msg: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any] | None:
    method = msg.get("method")
    params = msg.get("params") or {}
    if method == "tools/call":
        text = json.dumps({"called": params.get("name"), "arguments": params.get("arguments")})
        result: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": False}
    elif method == "prompts/get":
        result = {"messages": [{"role": "user", "content": {"type": "text", "text": "prompt"}}]}
    elif method == "resources/read":
        uri = params.get("uri")
        result = {"contents": [{"uri": uri, "mimeType": "text/plain", "text": f"read {uri}"}]}
    else:
        return None
    return {"jsonrpc": "2.0", "id": msg.get("id"), "result": result}


def _watch(path: Path) -> None:
    last = path.stat().st_mtime_ns
    while True:
        time.sleep(0.05)
        try:
            now = path.stat().st_mtime_ns
        except OSError:
            continue
        if now != last:
            last = now
            _write(b'{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}')


def main(argv: list[str]) -> int:
    path = Path(argv[1])
    defs = rawserver.load_defs(path)
    if rawserver.mode_of(defs) == "exit_at_start":
        sys.stderr.write("callserver: refusing to start\n")
        return 1
    path.with_suffix(".pid").write_text(str(os.getpid()))
    threading.Thread(target=_watch, args=(path,), daemon=True).start()
    for line in sys.stdin.buffer:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if not isinstance(msg, dict) or "id" not in msg:
            continue
        defs = rawserver.load_defs(path)
        mode = rawserver.mode_of(defs)
        is_list = msg.get("method") == "tools/list"
        if is_list:
            rawserver._before_list_reply(defs, mode)
        reply = _use(msg, defs) or rawserver.respond(msg, defs)
        if reply is None:
            continue
        data = rawserver.encode(reply)
        if mode == "garbage":
            _write(b"server starting up...\n{not json\n")
        if is_list and mode == "flood":
            with _out_lock:
                rawserver._flood(sys.stdout.buffer, float(defs.get("floodMB", 8)))
        if is_list and mode == "invalid_utf8":
            data = rawserver.corrupt_utf8(data)
        _write(data)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main(sys.argv))
