"""How to reach one configured server, and its redacted launch description.

The spec carries secrets (env values, header values, credentials inside URLs), so its repr
hides them, and the only text that leaves the process is :meth:`ServerSpec.launch`, built
from the config as written (``${VAR}`` references unexpanded) with every secret-looking value
replaced (see :mod:`mcplock_tui.redaction`); :meth:`ServerSpec.redacted_fields` says which
fields lost something, so ``pin`` can warn. What that text cannot show (a redacted value, env
and header values, the working directory) is covered by a seal appended to it (:func:`seal`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

# The redaction rules (a few dozen patterns) load with the first launch line shown or
# written, not with the config: the app's first frame shows none.

__all__ = [
    "SEAL_MARK",
    "ServerSpec",
    "Transport",
]

Transport = Literal["stdio", "http", "sse"]


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
    raw_env: Mapping[str, str] | None = field(default=None, repr=False)
    """The env as written in the config, before expansion."""
    raw_cwd: str | None = field(default=None, repr=False)
    """The cwd as written in the config, before expansion and resolution."""
    raw_headers: Mapping[str, str] | None = field(default=None, repr=False)
    """The headers as written in the config, before expansion."""

    def __repr__(self) -> str:
        return f"ServerSpec(name={self.name!r}, transport={self.transport!r}, launch={self.launch()!r})"

    def launch(self) -> str:
        """What the lockfile records about how the server is reached: no secret values.

        Env and header *names* are recorded (sorted) so that adding a credential shows as a
        launch change; their values never are. When the text does not show the launch
        exactly, a seal over the launch as written follows it (see :func:`seal`), so a
        change in a hidden part is a launch change too.
        """
        visible = self._visible()
        if not self._hides_something(visible):
            return visible
        return f"{visible}{SEAL_MARK}{seal(self.name, self._written_all())}"

    def _visible(self) -> str:
        from mcplock_tui.redaction import redact_args, redact_text, redact_url

        if self.transport == "stdio":
            command, args = self._written()
            text = " ".join([redact_text(command), *redact_args(args)]).strip()
            if self.env:
                text += "  env: " + ", ".join(sorted(self.env))
            return f"stdio: {text}"
        text = f"{self.transport}: {redact_url(self._written_url())}"
        if self.headers:
            text += "  headers: " + ", ".join(sorted(self.headers))
        return text

    def _hides_something(self, visible: str) -> bool:
        """Whether two different launches could print as ``visible``."""
        from mcplock_tui.redaction import redact_url

        if self.env or self.headers or self.cwd is not None or self.raw_cwd is not None:
            return True
        if self.transport != "stdio":
            return redact_url(self._written_url()) != self._written_url()
        command, args = self._written()
        # joined with spaces, an argument holding whitespace (or none at all) has no edges
        if any(not a or any(c.isspace() for c in a) for a in (command, *args)):
            return True
        return visible != "stdio: " + " ".join((command, *args))

    def _written_all(self) -> _Written:
        command, args = self._written()
        env = self.raw_env if self.raw_env is not None else self.env
        headers = self.raw_headers if self.raw_headers is not None else self.headers
        cwd = self.raw_cwd if self.raw_cwd is not None else self.cwd
        url = self._written_url() if self.transport != "stdio" else None
        return (
            self.transport,
            command if self.transport == "stdio" else None,
            args,
            tuple(sorted(env.items())),
            cwd,
            url,
            tuple(sorted(headers.items())),
        )

    def _written(self) -> tuple[str, tuple[str, ...]]:
        command = self.raw_command if self.raw_command is not None else self.command or ""
        args = self.raw_args if self.raw_args or self.raw_command is not None else self.args
        return command, args

    def _written_url(self) -> str:
        return self.raw_url if self.raw_url is not None else self.url or ""

    def redacted_fields(self) -> list[str]:
        """Config fields whose written value lost something to redaction (``args[2]``, ``url``).

        Names only, never values: this is what ``pin`` warns about.
        """
        from mcplock_tui.redaction import redact_args, redact_text, redact_url

        if self.transport != "stdio":
            url = self._written_url()
            return ["url"] if redact_url(url) != url else []
        command, args = self._written()
        fields = ["command"] if redact_text(command) != command else []
        redacted = redact_args(args)
        return fields + [
            f"args[{i}]" for i, (a, r) in enumerate(zip(args, redacted, strict=True)) if a != r
        ]


SEAL_MARK = "  sealed: "
"""Separates the visible launch from its seal in the launch text."""

_Written = tuple[
    str,
    str | None,
    tuple[str, ...],
    tuple[tuple[str, str], ...],
    str | None,
    str | None,
    tuple[tuple[str, str], ...],
]
"""transport, command, args, env items, cwd, url, header items: all as written."""


@lru_cache(maxsize=1024)
def seal(name: str, written: _Written) -> str:
    """A short digest of the launch as written, slow to brute-force.

    The lockfile is committed and may be public while the config with literal secrets is
    not, so a fast hash of a weak literal would give it away: scrypt makes each guess cost
    16 MiB and tens of milliseconds. The salt is fixed per server name, so a re-pin is
    byte-identical and two servers sharing a secret do not share a seal. Memoised because
    one run asks for a launch several times.
    """
    transport, command, args, env, cwd, url, headers = written
    doc = {
        "transport": transport,
        "command": command,
        "args": list(args),
        "env": dict(env),
        "cwd": cwd,
        "url": url,
        "headers": dict(headers),
    }
    data = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    key = hashlib.scrypt(
        data.encode("utf-8", "surrogatepass"),
        salt=b"mcplock-launch\0" + name.encode("utf-8", "surrogatepass"),
        n=2**14,
        r=8,
        p=1,
        maxmem=64 * 1024 * 1024,
        dklen=12,
    )
    return key.hex()
