"""The raw fixture server over streamable HTTP, on 127.0.0.1 with a free port.

Same definitions file and modes as ``rawserver.py`` (re-read on every request), served by
the stdlib: ``POST /mcp`` carries one JSON-RPC message and gets ``application/json`` back,
notifications get 202, ``GET`` and ``DELETE`` get 405 (no server-initiated stream, no
session). ``defs["requireHeaders"]`` makes every request without those exact headers fail
with 401, so tests can check that configured headers are sent.

Run as ``python -m tests.servers.rawhttp DEFS_JSON`` from the repository root; the first
line on stdout is the endpoint URL, printed once the socket listens.
"""

from __future__ import annotations

import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.servers.rawserver import corrupt_utf8, encode, load_defs, mode_of, respond


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    defs_path = ""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def _send(self, status: int, body: bytes = b"", content_type: str = "text/plain") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self._send(405, b"method not allowed")

    def do_DELETE(self) -> None:
        self._send(405, b"method not allowed")

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path.split("?")[0] != "/mcp":
            self._send(404, b"not found")
            return
        defs = load_defs(self.server.defs_path)
        required: dict[str, Any] = defs.get("requireHeaders") or {}
        if any(self.headers.get(k) != v for k, v in required.items()):
            self._send(401, b"unauthorized")
            return
        try:
            msg = json.loads(body)
        except ValueError:
            self._send(400, b"body is not JSON")
            return
        mode = mode_of(defs)
        is_list = isinstance(msg, dict) and msg.get("method") == "tools/list" and "id" in msg
        if is_list and mode == "hang":
            time.sleep(3600)
        if is_list and mode == "crash":
            os._exit(3)
        if is_list and mode == "slow":
            time.sleep(float(defs.get("slowSeconds", 1)))
        reply = respond(msg, defs) if isinstance(msg, dict) else None
        if reply is None:
            self._send(202)
            return
        data = encode(reply)
        if is_list and mode == "invalid_utf8":
            data = corrupt_utf8(data)
        self._send(200, data, "application/json")

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: tests read stdout for the URL and keep stderr clean."""


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        sys.stderr.write("usage: python -m tests.servers.rawhttp DEFS_JSON\n")
        return 2
    server = _Server(("127.0.0.1", 0), _Handler)
    server.defs_path = argv[1]
    port = server.server_address[1]
    sys.stdout.write(f"http://127.0.0.1:{port}/mcp\n")
    sys.stdout.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
