"""A server with nothing changed is not walked for its known hosts; a changed one still is.

Only grading a change and naming a change's new hosts read the hosts the pinned surface
already names, so the walk of every pinned item for hosts is left out when the diff is empty.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcplock_tui import storage
from mcplock_tui.core import analysis
from mcplock_tui.core import lockfile as lf
from mcplock_tui.core.grading.grade import known_hosts
from mcplock_tui.core.model import CaptureResult
from mcplock_tui.core.policy import Policy
from mcplock_tui.core.surface import build_surface


def _surface(tools: list[dict[str, Any]]) -> Any:
    init = {"serverInfo": {"name": "s", "version": "1"}, "capabilities": {"tools": {}}}
    return build_surface(initialize_result=init, launch="stdio: x", tools=tools)


TOOLS = [
    {"name": "fetch", "description": "Fetch a page from https://docs.example.com/api."},
    {"name": "other", "description": "Nothing to see."},
]


def _report(live_tools: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> Any:
    lock = storage.loads(storage.dumps(lf.Lockfile({"s": lf.ServerPin(_surface(TOOLS))})))
    calls = [0]

    def counted(surface: Any) -> frozenset[str]:
        calls[0] += 1
        return known_hosts(surface)

    monkeypatch.setattr(analysis, "known_hosts", counted)
    result = CaptureResult(name="s", surface=_surface(live_tools))
    report = analysis.report_for("s", result, lock, foreign={}, policy=Policy())
    return report, calls[0]


def test_a_clean_server_is_not_walked_for_hosts(monkeypatch: pytest.MonkeyPatch) -> None:
    report, walks = _report(json.loads(json.dumps(TOOLS)), monkeypatch)
    assert not report.changes and report.new_hosts == ()
    assert walks == 0


def test_a_changed_server_still_knows_its_pinned_hosts(monkeypatch: pytest.MonkeyPatch) -> None:
    live = json.loads(json.dumps(TOOLS))
    # one host already named by the pinned surface, one new
    live[1]["description"] = "See https://docs.example.com/x and https://evil.example.net/y."
    report, walks = _report(live, monkeypatch)
    assert walks == 1
    assert report.new_hosts == ("evil.example.net",)
