"""Capture what MCP servers expose. The only package that imports the MCP SDK.

``capture_all`` connects to every configured server concurrently and returns one
:class:`~mcplock_tui.core.model.CaptureResult` per server: a surface built from the raw
JSON the server sent, or a one-sentence error with its kind.

The names are loaded on first use, so importing a light submodule (``capture.logs``) does
not pull in the SDK: the review app paints before the MCP client is imported.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcplock_tui.capture.client import MAX_PAGES, capture_one
    from mcplock_tui.capture.logs import log_path_for
    from mcplock_tui.capture.runner import capture_all, capture_sync

_HOMES = {
    "MAX_PAGES": "client",
    "capture_one": "client",
    "log_path_for": "logs",
    "capture_all": "runner",
    "capture_sync": "runner",
}

__all__ = ["MAX_PAGES", "capture_all", "capture_one", "capture_sync", "log_path_for"]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
