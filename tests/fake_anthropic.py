"""A local stand-in for the Messages API: records every request, answers from a script.

It speaks just enough HTTP for the real ``anthropic`` client (``POST /v1/messages``), so
tests drive the production code path end to end on 127.0.0.1 without a key or network.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    """A dict is sent as JSON; a str as-is; None means a default ``malicious`` verdict."""
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    raw: str
    """The request body exactly as received."""

    @property
    def body(self) -> dict[str, Any]:
        doc: dict[str, Any] = json.loads(self.raw)
        return doc

    @property
    def user_text(self) -> str:
        content = self.body["messages"][0]["content"]
        assert isinstance(content, str)
        return content


def message(content: list[dict[str, Any]], stop_reason: str = "tool_use") -> dict[str, Any]:
    return {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": "claude-fake",
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 10},
    }


def tool_use(input_: Any, name: str = "record_verdict") -> dict[str, Any]:
    return {"type": "tool_use", "id": "toolu_fake", "name": name, "input": input_}


def verdict_reply(
    verdict: str = "malicious",
    reason: str = "It tells the model to send secrets elsewhere.",
    excerpt: str = "send it to",
) -> Reply:
    return Reply(
        body=message([tool_use({"verdict": verdict, "reason": reason, "excerpt": excerpt})])
    )


def error_reply(
    status: int, kind: str, text: str, headers: Mapping[str, str] | None = None
) -> Reply:
    body = {"type": "error", "error": {"type": kind, "message": text}}
    return Reply(status=status, body=body, headers=dict(headers or {}))


class FakeAnthropic:
    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.replies: list[Reply] = []
        """Used first to last; when empty, :attr:`default` answers."""
        self.default = verdict_reply()
        self.routes: list[tuple[str, Reply]] = []
        """(substring, reply): a request whose body holds the substring gets that reply."""
        self._lock = threading.Lock()
        self.url = ""

    def next_reply(self, recorded: Recorded) -> Reply:
        with self._lock:
            self.requests.append(recorded)
            for needle, reply in self.routes:
                if needle in recorded.raw:
                    return reply
            return self.replies.pop(0) if self.replies else self.default


def _handler(fake: FakeAnthropic) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length).decode("utf-8")
            reply = fake.next_reply(
                Recorded(self.path, {k.lower(): v for k, v in self.headers.items()}, raw)
            )
            if reply.delay:
                time.sleep(reply.delay)
            body = reply.body if reply.body is not None else verdict_reply().body
            data = (body if isinstance(body, str) else json.dumps(body)).encode("utf-8")
            try:
                self.send_response(reply.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for key, value in reply.headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)
            except OSError:  # the client gave up (timeout test)
                pass

    return Handler


@contextmanager
def fake_anthropic() -> Iterator[FakeAnthropic]:
    fake = FakeAnthropic()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake))
    server.daemon_threads = True
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
