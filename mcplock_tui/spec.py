"""How to reach one configured server, and its redacted launch description.

The spec carries secrets (env values, header values, credentials inside URLs), so its repr
hides them, and the only text that leaves the process is :meth:`ServerSpec.launch`, built
from the config as written (``${VAR}`` references unexpanded) with every secret-looking value
replaced (see :mod:`mcplock_tui.redaction`); :meth:`ServerSpec.redacted_fields` says which
fields lost something, so ``pin`` can warn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from mcplock_tui.redaction import REDACTED, redact_args, redact_text, redact_url

__all__ = ["REDACTED", "ServerSpec", "Transport", "redact_args", "redact_text", "redact_url"]

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

    def __repr__(self) -> str:
        return f"ServerSpec(name={self.name!r}, transport={self.transport!r}, launch={self.launch()!r})"

    def launch(self) -> str:
        """What the lockfile records about how the server is reached: no secret values.

        Env and header *names* are recorded (sorted) so that adding a credential shows as a
        launch change; their values never are.
        """
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
        if self.transport != "stdio":
            url = self._written_url()
            return ["url"] if redact_url(url) != url else []
        command, args = self._written()
        fields = ["command"] if redact_text(command) != command else []
        redacted = redact_args(args)
        return fields + [
            f"args[{i}]" for i, (a, r) in enumerate(zip(args, redacted, strict=True)) if a != r
        ]
