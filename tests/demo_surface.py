"""A small demo server's surface for evidence and lockfile tests: given tools, fixed identity."""

from __future__ import annotations

from typing import Any

from mcplock_tui.core.model import Surface
from mcplock_tui.core.surface import build_surface


def demo_surface(tools: list[dict[str, Any]]) -> Surface:
    return build_surface(
        initialize_result={
            "protocolVersion": "2025-11-25",
            "serverInfo": {"name": "demo", "version": "1.0.0"},
            "capabilities": {"tools": {}},
        },
        launch="stdio: python demo.py",
        tools=tools,
    )
