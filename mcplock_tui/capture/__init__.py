"""Capture what MCP servers expose. The only package that imports the MCP SDK.

``capture_all`` connects to every configured server concurrently and returns one
:class:`~mcplock_tui.core.model.CaptureResult` per server: a surface built from the raw
JSON the server sent, or a one-sentence error with its kind.
"""

from mcplock_tui.capture.client import MAX_PAGES, capture_one
from mcplock_tui.capture.logs import log_path_for
from mcplock_tui.capture.runner import capture_all, capture_sync

__all__ = ["MAX_PAGES", "capture_all", "capture_one", "capture_sync", "log_path_for"]
