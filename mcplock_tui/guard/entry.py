"""Reading a guard entry of a client config as the launch it wraps.

``pin`` and ``--check`` must record and check the real server, never the guard in front of
it, so :mod:`mcplock_tui.config` passes every entry through :func:`unwrap_entry`. Stdlib only:
config imports this module.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

PY_FORM = ("-m", "mcplock_tui", "guard")
HEADERS_ENV = "MCPLOCK_GUARD_HEADERS"
"""Environment variable holding a JSON object of HTTP headers for ``guard --url``."""
_NAMES = ("mcplock-tui", "mcplock-tui.exe")
_VALUE_FLAGS = frozenset({"--name", "--lock", "--mode", "--timeout", "--log", "--url", "--header"})


def guard_args(body: Mapping[str, Any]) -> list[str] | None:
    """The arguments after ``guard`` when ``body`` runs the guard, else None."""
    command, args = body.get("command"), body.get("args", [])
    if not isinstance(command, str) or not isinstance(args, list):
        return None
    if not all(isinstance(a, str) for a in args):
        return None
    if os.path.basename(command) in _NAMES and args[:1] == ["guard"]:
        return list(args[1:])
    if tuple(args[:3]) == PY_FORM:
        return list(args[3:])
    return None


def unwrap_entry(body: dict[str, object]) -> dict[str, object]:
    """The entry a guard entry wraps (same env, cwd and other keys); any other entry as is."""
    args = guard_args(body)
    if args is None:
        return body
    opts: dict[str, list[str]] = {}
    i = 0
    while i < len(args) and args[i] != "--":
        flag = args[i]
        if flag in _VALUE_FLAGS and i + 1 < len(args):
            opts.setdefault(flag, []).append(args[i + 1])
            i += 2
        else:
            i += 1
    rest = {k: v for k, v in body.items() if k not in ("command", "args", "type")}
    if i < len(args) and len(args) > i + 1:
        return {**rest, "command": args[i + 1], "args": args[i + 2 :]}
    if "--url" in opts:
        headers = dict(_split_header(h) for h in opts.get("--header", []))
        headers.update(env_headers(body.get("env")))
        rest = {k: v for k, v in rest.items() if k not in ("env", "cwd")}
        return {
            **rest,
            "type": "http",
            "url": opts["--url"][-1],
            **({"headers": headers} if headers else {}),
        }
    return body


def env_headers(env: object) -> dict[str, str]:
    """The headers in ``env[MCPLOCK_GUARD_HEADERS]`` (a JSON object); {} when absent or bad."""
    if not isinstance(env, Mapping) or not isinstance(env.get(HEADERS_ENV), str):
        return {}
    try:
        value = json.loads(env[HEADERS_ENV])
    except ValueError:
        return {}
    if not isinstance(value, dict):
        return {}
    return {str(k): v for k, v in value.items() if isinstance(v, str)}


def _split_header(text: str) -> tuple[str, str]:
    name, _, value = text.partition(":")
    return name.strip(), value.strip()
