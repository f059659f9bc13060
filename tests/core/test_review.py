"""Decisions applied to a lockfile, without any UI."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from mcplock_tui.core.analysis import analyze
from mcplock_tui.core.diff import Change, diff_surfaces
from mcplock_tui.core.lockfile import Lockfile, ServerPin
from mcplock_tui.core.model import CaptureResult, Kind, Surface
from mcplock_tui.core.report import Report
from mcplock_tui.core.review import accept, clear_stale_rejections, ensure_unmoved, reject
from mcplock_tui.core.surface import build_surface
from mcplock_tui.errors import DecisionError

BASE: list[dict[str, Any]] = [
    {"name": "a", "description": "Alpha tool.", "inputSchema": {"type": "object"}},
    {
        "name": "b",
        "description": "Beta tool that reads things.",
        "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}},
    },
]


def surf(tools: list[dict[str, Any]], instructions: str | None = None) -> Any:
    init: dict[str, Any] = {"serverInfo": {"name": "s", "version": "1"}}
    if instructions is not None:
        init["instructions"] = instructions
    return build_surface(initialize_result=init, launch="stdio: s", tools=tools)


def drifted() -> list[dict[str, Any]]:
    tools = copy.deepcopy(BASE)
    tools[0]["description"] = "Alpha tool, now different."
    tools[1]["name"] = "b2"
    tools.append({"name": "c", "description": "Gamma.", "inputSchema": {"type": "object"}})
    return tools


def check(lock: Lockfile, live: Surface) -> Report:
    return analyze(lock, {"s": CaptureResult("s", surface=live)}, configured=["s"])


def diffs(lock: Lockfile, live: Surface) -> list[Change]:
    """What moved, as review takes it: the diffs under the graded changes."""
    return [c.diff for c in check(lock, live).changes]


def test_accepting_every_change_makes_the_check_clean() -> None:
    lock = Lockfile({"s": ServerPin(surf(BASE, "Old."))})
    live = surf(drifted(), "New instructions.")
    changes = diffs(lock, live)
    assert {(c.kind, c.change.value) for c in changes} == {
        (Kind.TOOL, "modified"),
        (Kind.TOOL, "renamed"),
        (Kind.TOOL, "added"),
        (Kind.INSTRUCTIONS, "modified"),
    }
    for change in changes:
        ensure_unmoved(change, live)
        lock = accept(lock, change)
    assert check(lock, live).changes == []
    assert lock.servers["s"].surface == live


def test_accepting_a_removal_drops_the_pin() -> None:
    lock = Lockfile({"s": ServerPin(surf(BASE))})
    live = surf(BASE[:1])
    [change] = diffs(lock, live)
    lock = accept(lock, change)
    assert set(lock.servers["s"].surface.tools) == {"a"}


def test_reject_keeps_the_pin_and_marks_the_change() -> None:
    lock = Lockfile({"s": ServerPin(surf(BASE))})
    live = surf(drifted())
    change = next(c for c in diffs(lock, live) if c.name == "a")
    lock2 = reject(lock, change, "  poisoned?  ")
    assert lock2.servers["s"].surface == lock.servers["s"].surface
    report = check(lock2, live)
    again = next(c for c in report.changes if c.name == "a")
    rejection = report.rejection(again)
    assert report.servers[0].state(again) == "rejected"
    assert rejection is not None and rejection.note == "poisoned?"
    other = next(c for c in report.changes if c.name == "c")
    assert report.servers[0].state(other) == "pending"


def test_a_rejection_of_an_older_definition_does_not_cover_a_newer_one() -> None:
    lock = Lockfile({"s": ServerPin(surf(BASE))})
    change = next(c for c in diffs(lock, surf(drifted())) if c.name == "a")
    lock = reject(lock, change)
    newer = drifted()
    newer[0]["description"] = "Alpha tool, different again."
    report = check(lock, surf(newer))
    again = next(c for c in report.changes if c.name == "a")
    assert report.servers[0].state(again) == "pending"


def test_rejection_clears_when_the_server_serves_the_pin_again() -> None:
    lock = Lockfile({"s": ServerPin(surf(BASE))})
    change = next(c for c in diffs(lock, surf(drifted())) if c.name == "a")
    lock = reject(lock, change)
    assert clear_stale_rejections(lock, {"s": surf(drifted())}) == lock
    cleared = clear_stale_rejections(lock, {"s": surf(BASE)})
    assert cleared.servers["s"].rejected == ()


def test_a_definition_that_moved_since_display_is_refused() -> None:
    lock = Lockfile({"s": ServerPin(surf(BASE))})
    shown = next(c for c in diff_surfaces("s", surf(BASE), surf(drifted())) if c.name == "a")
    moved = drifted()
    moved[0]["description"] = "Alpha tool, moved again."
    with pytest.raises(
        DecisionError, match="changed again since it was shown; nothing was written"
    ):
        ensure_unmoved(shown, surf(moved))
    ensure_unmoved(shown, surf(drifted()))
    assert (
        accept(lock, shown).servers["s"].surface.tools["a"]["description"]
        == "Alpha tool, now different."
    )


def test_deciding_on_an_unpinned_server_is_an_error() -> None:
    [change] = diff_surfaces("other", surf(BASE), surf(BASE[:1]))
    with pytest.raises(DecisionError, match="not in the lockfile"):
        accept(Lockfile(), change)
