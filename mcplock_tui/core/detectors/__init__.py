"""Injection and poisoning detectors over the text an MCP server hands a model.

Pure and stdlib-only. :func:`scan_text` checks one string, :func:`scan_param_name` one schema
property name, :func:`scan_item` every string of a raw tool, prompt, resource, template,
instructions or server item. Rules and their severities live in :mod:`.rules`.
"""

from __future__ import annotations

from mcplock_tui.core.detectors.base import ScanContext
from mcplock_tui.core.detectors.items import scan_item, scan_param_name
from mcplock_tui.core.detectors.normalize import skeleton
from mcplock_tui.core.detectors.rules import RULES
from mcplock_tui.core.detectors.scan import scan_text

__all__ = ["RULES", "ScanContext", "scan_item", "scan_param_name", "scan_text", "skeleton"]
