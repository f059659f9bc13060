"""Injection and poisoning detectors over the text an MCP server hands a model.

Pure and stdlib-only. :func:`scan_text` checks one string, :func:`scan_param_name` one schema
property name, :func:`scan_item` every string of a raw tool, prompt, resource, template,
instructions or server item. Rules and their severities live in :mod:`.rules`.

The names are loaded on first use: compiling every family's patterns costs about a quarter
of a second, which a check whose every item is already in the scan memo never needs, while
light submodules (``normalize``, ``decode``, ``params``) are imported by grading on their own.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcplock_tui.core.detectors.base import ScanContext
    from mcplock_tui.core.detectors.items import scan_item, scan_param_name
    from mcplock_tui.core.detectors.normalize import skeleton
    from mcplock_tui.core.detectors.rules import RULES
    from mcplock_tui.core.detectors.scan import scan_text

_HOMES = {
    "RULES": "rules",
    "ScanContext": "base",
    "scan_item": "items",
    "scan_param_name": "items",
    "scan_text": "scan",
    "skeleton": "normalize",
}

__all__ = ["RULES", "ScanContext", "scan_item", "scan_param_name", "scan_text", "skeleton"]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
