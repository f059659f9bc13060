"""Turn whatever stopped a capture into one plain sentence and a kind.

The sentence names the cause and the phase ("timed out after 2 s during tools/list"), is
shown to users and lands in reports, so it must never carry a secret. The fixed wording is
ours; targets are named from the redacted command or URL; everything else (server error
messages, exception text) is foreign and goes through :func:`scrub`, which removes the
spec's env values, header values and URL credentials and query, then is cut short and made
visible. Scrubbing only foreign text keeps an env value such as ``error`` from mangling our
own words.

Classification goes by exception type and, for errors the SDK synthesises over HTTP, by
their fixed message text. A new SDK wording therefore degrades to a generic ``protocol``
sentence; an exception nobody anticipated becomes ``internal`` with its type name. Neither
ever passes as success.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

import anyio
import httpx2
from mcp import MCPError
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT
from pydantic import ValidationError

from mcplock_tui.core.canonical import visible
from mcplock_tui.redaction import REDACTED, redact_args, redact_url
from mcplock_tui.spec import ServerSpec

_URL = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*://[^\s'\"<>]+")
_MIN_SECRET = 4
"""Shorter values are not scrubbed: replacing every "1" in a sentence would hide the cause."""


class CaptureProtocolError(Exception):
    """The server broke the protocol in a way the SDK accepted: cursor loops, bad replies."""


class CaptureSpawnError(Exception):
    """The server cannot even be tried: no command or URL, a missing working directory.

    Its text is the whole error sentence and must hold nothing secret.
    """


@dataclass(frozen=True, slots=True)
class Failure:
    kind: str
    """``timeout``, ``spawn``, ``crash``, ``protocol``, ``http`` or ``internal``."""
    message: str


def leaf(exc: BaseException) -> BaseException:
    """The most telling exception inside nested groups: the first that is not teardown noise."""
    leaves: list[BaseException] = []
    stack = [exc]
    while stack:
        current = stack.pop(0)
        if isinstance(current, BaseExceptionGroup):
            stack[:0] = list(current.exceptions)
        else:
            leaves.append(current)
    noise = (anyio.get_cancelled_exc_class(), anyio.ClosedResourceError, GeneratorExit)
    for candidate in leaves:
        if not isinstance(candidate, noise):
            return candidate
    return leaves[0] if leaves else exc


def server_text(text: object, limit: int = 160) -> str:
    """Server-supplied text made safe for one line: hidden characters shown, length capped."""
    shown = visible(str(text)).replace("\n", " ")
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def target(spec: ServerSpec) -> str:
    """How an error names the server: its command or its redacted URL."""
    if spec.transport == "stdio":
        command = spec.raw_command if spec.raw_command is not None else spec.command or ""
        return f"`{redact_args([command])[0]}`" if command else "(no command)"
    url = spec.raw_url if spec.raw_url is not None else spec.url
    return redact_url(url) if url else "(no URL)"


def _secrets(spec: ServerSpec) -> list[str]:
    values = [*spec.env.values(), *spec.headers.values()]
    for value in list(values):
        values.extend(value.split())  # "Bearer abc..." -> the token on its own too
    for url in (spec.url, spec.raw_url):
        if not url:
            continue
        try:
            parts = urlsplit(url)
            values += [parts.query, parts.fragment, parts.username or "", parts.password or ""]
        except ValueError:
            values.append(url)
    return sorted({v for v in values if len(v) >= _MIN_SECRET}, key=len, reverse=True)


def foreign(text: object, spec: ServerSpec, limit: int = 160) -> str:
    """Text we did not write (server messages, exception strings), ready for an error line."""
    return server_text(scrub(str(text), spec), limit)


def scrub(text: str, spec: ServerSpec) -> str:
    """Remove every secret the spec holds, and credentials or query from any URL in ``text``."""
    for secret in _secrets(spec):
        text = text.replace(secret, REDACTED)
    return _URL.sub(lambda m: redact_url(m.group(0)), text)


def _reason(exc: BaseException, spec: ServerSpec) -> str:
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ConnectionRefusedError):
            return "connection refused"
        seen = seen.__cause__ or seen.__context__
    return foreign(exc, spec) or type(exc).__name__


def schema_problem(exc: ValidationError) -> str:
    errors = exc.errors(include_url=False, include_input=False)
    if not errors:
        return "it does not match the MCP schema"
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"]) or "top level"
    more = f" and {len(errors) - 1} more problems" if len(errors) > 1 else ""
    return f"{server_text(where, 80)}: {server_text(first['msg'], 80)}{more}"


def _http_synthesised(message: str, url: str, phase: str) -> Failure | None:
    """Errors the SDK's HTTP transport makes up from a status code or a broken body."""
    if message == "Not Found":
        return Failure("http", f"{url} answered HTTP 404 Not Found during {phase}")
    if message == "Session terminated":
        return Failure("http", f"{url} ended the session (HTTP 404) during {phase}")
    if message == "Server returned an error response":
        return Failure("http", f"{url} answered with an HTTP error status during {phase}")
    if message.startswith("Unexpected content type"):
        return Failure("protocol", f"{url} answered {phase} with an unexpected content type")
    if message.startswith(("Failed to parse JSON response", "Failed to parse SSE message")):
        return Failure("protocol", f"{url} answered {phase} with a body that is not JSON-RPC")
    if message.startswith(("SSE stream", "server answered a request with 202")):
        return Failure("crash", f"{url} dropped the response during {phase}")
    return None


def describe(
    exc: BaseException,
    *,
    spec: ServerSpec,
    phase: str,
    timeout: float,
    timed_out: bool,
    junk: int = 0,
    log_hint: str = "",
) -> Failure:
    """One sentence and a kind for ``exc`` (already raised; groups are unwrapped here)."""
    failure = _classify(leaf(exc), spec, phase, timeout, timed_out, junk)
    message = failure.message
    if log_hint and failure.kind in ("timeout", "crash", "protocol", "internal"):
        message += f"; see {log_hint}"
    return Failure(failure.kind, message)


def _classify(
    err: BaseException, spec: ServerSpec, phase: str, timeout: float, timed_out: bool, junk: int
) -> Failure:
    where = target(spec)
    is_stdio = spec.transport == "stdio"
    timed_out = (
        timed_out
        or isinstance(err, TimeoutError | httpx2.TimeoutException)
        or (isinstance(err, MCPError) and err.code == REQUEST_TIMEOUT)
    )
    if timed_out:
        plural = "s" if junk != 1 else ""
        extra = f" (it also sent {junk} unreadable message{plural})" if junk else ""
        return Failure("timeout", f"timed out after {timeout:g} s during {phase}{extra}")
    if isinstance(err, MCPError):
        if err.code == CONNECTION_CLOSED:
            return Failure("crash", f"connection closed by the server during {phase}")
        if not is_stdio and (made_up := _http_synthesised(err.message, where, phase)):
            return made_up
        return Failure(
            "protocol",
            f"the server answered {phase} with error {err.code}: {foreign(err.message, spec)}",
        )
    if isinstance(err, CaptureProtocolError):
        return Failure("protocol", str(err))
    if isinstance(err, CaptureSpawnError):
        return Failure("spawn", str(err))
    if isinstance(err, ValidationError):
        problem = schema_problem(err)
        return Failure("protocol", f"the server's {phase} reply is not valid MCP ({problem})")
    if is_stdio and phase == "start":
        if isinstance(err, FileNotFoundError):
            return Failure("spawn", f"could not start {where}: command not found")
        if isinstance(err, PermissionError):
            return Failure("spawn", f"could not start {where}: permission denied")
        if isinstance(err, OSError):
            reason = err.strerror or type(err).__name__
            return Failure("spawn", f"could not start {where}: {reason}")
        if isinstance(err, ValueError):
            return Failure("spawn", f"could not start {where}: the command line is invalid")
    if isinstance(err, httpx2.ConnectError):
        return Failure("http", f"could not connect to {where} ({_reason(err, spec)})")
    if isinstance(err, httpx2.RemoteProtocolError | httpx2.ReadError):
        return Failure("crash", f"{where} dropped the connection during {phase}")
    if isinstance(err, httpx2.HTTPStatusError):
        status = err.response.status_code
        return Failure("http", f"{where} answered HTTP {status} during {phase}")
    if isinstance(err, httpx2.HTTPError):
        name = type(err).__name__
        return Failure("http", f"HTTP exchange with {where} failed during {phase} ({name})")
    if isinstance(err, anyio.BrokenResourceError | anyio.EndOfStream | ConnectionError):
        return Failure("crash", f"connection to the server broke during {phase}")
    if isinstance(err, UnicodeDecodeError):
        return Failure("protocol", f"the server sent bytes that are not UTF-8 during {phase}")
    if isinstance(err, RuntimeError) and "protocol version" in str(err):
        return Failure("protocol", f"the server chose an unsupported protocol version ({phase})")
    name = type(err).__name__
    return Failure("internal", f"unexpected {name} during {phase}: {foreign(err, spec)}")
