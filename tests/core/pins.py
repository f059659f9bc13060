"""A lockfile of one server built from a list of tools, for the lockfile and memory tests."""

from __future__ import annotations

from typing import Any

from mcplock_tui.core import lockfile as lf
from mcplock_tui.core.surface import build_surface


def one_server_lock(tools: list[dict[str, Any]]) -> lf.Lockfile:
    """A lockfile pinning server ``s`` with ``tools``."""
    init = {"serverInfo": {"name": "s", "version": "1"}, "capabilities": {"tools": {}}}
    surface = build_surface(initialize_result=init, launch="stdio: x", tools=tools)
    return lf.Lockfile({"s": lf.ServerPin(surface)})
