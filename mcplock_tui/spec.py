"""How to reach one configured server, and its redacted launch description.

The spec carries secrets (env values, header values, credentials inside URLs), so its repr
hides them, and the only text that leaves the process is :meth:`ServerSpec.launch`, built
from the config as written (``${VAR}`` references unexpanded) with URL userinfo, query and
fragment dropped and the values of secret-looking flags replaced.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

Transport = Literal["stdio", "http", "sse"]

_SECRET_FLAG = re.compile(
    r"^-{1,2}[\w.-]*(token|secret|passw(or)?d|api[-_]?key|apikey|auth|credential|private[-_]?key)"
    r"[\w.-]*$",
    re.IGNORECASE,
)
_URL_IN_TEXT = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*://[^\s'\"]+")
_TOKEN_LIKE = re.compile(
    r"\b(?:gh[pousr]_|github_pat_|sk-|xox[abprs]-|AKIA|ASIA|AIza|glpat-|npm_)[A-Za-z0-9_\-]{8,}"
    r"|\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"
)
REDACTED = "<redacted>"


def redact_url(url: str) -> str:
    """Scheme, host, port and path only: userinfo, query and fragment never survive."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return REDACTED
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    netloc = f"{host}:{port}" if port is not None else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def _redact_text(text: str) -> str:
    text = _TOKEN_LIKE.sub(REDACTED, text)
    return _URL_IN_TEXT.sub(lambda m: redact_url(m.group(0)), text)


def redact_args(args: tuple[str, ...] | list[str]) -> list[str]:
    """Drop values of ``--token x`` / ``--api-key=x`` style flags and secrets inside URLs."""
    out: list[str] = []
    hide_next = False
    for arg in args:
        if hide_next:
            out.append(REDACTED)
            hide_next = False
            continue
        flag, eq, _value = arg.partition("=")
        if _SECRET_FLAG.match(flag):
            if eq:
                out.append(f"{flag}={REDACTED}")
            else:
                out.append(arg)
                hide_next = True
            continue
        out.append(_redact_text(arg))
    return out


@dataclass(frozen=True, slots=True)
class ServerSpec:
    """One server from a client config file, with ``${VAR}`` already expanded."""

    name: str
    transport: Transport
    source: str
    """Path of the config file that defined it (for error messages)."""
    command: str | None = field(default=None, repr=False)
    args: tuple[str, ...] = field(default=(), repr=False)
    env: Mapping[str, str] = field(default_factory=dict, repr=False)
    cwd: str | None = None
    url: str | None = field(default=None, repr=False)
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    raw_command: str | None = field(default=None, repr=False)
    """The command as written in the config, before expansion."""
    raw_args: tuple[str, ...] = field(default=(), repr=False)
    """The args as written in the config, before expansion."""
    raw_url: str | None = field(default=None, repr=False)
    """The URL as written in the config, before expansion."""

    def __repr__(self) -> str:
        return f"ServerSpec(name={self.name!r}, transport={self.transport!r}, launch={self.launch()!r})"

    def launch(self) -> str:
        """What the lockfile records about how the server is reached: no secret values.

        Env and header *names* are recorded (sorted) so that adding a credential shows as a
        launch change; their values never are.
        """
        if self.transport == "stdio":
            command = self.raw_command if self.raw_command is not None else self.command or ""
            args = self.raw_args if self.raw_args or self.raw_command is not None else self.args
            text = " ".join([_redact_text(command), *redact_args(args)]).strip()
            if self.env:
                text += "  env: " + ", ".join(sorted(self.env))
            return f"stdio: {text}"
        url = self.raw_url if self.raw_url is not None else self.url or ""
        text = f"{self.transport}: {redact_url(url)}"
        if self.headers:
            text += "  headers: " + ", ".join(sorted(self.headers))
        return text
