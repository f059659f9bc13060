"""What a check holds at its peak: never the lockfile's document beside every decoded pin,
and an unchanged pinned item not beside its live copy.

At 20,000 tools each of the pinned side, the live side and the lockfile's TOML document is
tens of megabytes; these tests measure the allocations (tracemalloc) of the stages on a
smaller lockfile and compare them with what the stage keeps.
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from mcplock_tui import storage
from tests.core.pins import one_server_lock

T = TypeVar("T")


def _tools(n: int) -> list[dict[str, Any]]:
    return [
        {
            "name": f"tool_{i}",
            "description": f"Reads record {i} of the store and returns it as JSON text.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "id": {"type": "string", "description": f"The record {i} identifier"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                },
                "required": ["id"],
            },
            "annotations": {"readOnlyHint": i % 2 == 0},
        }
        for i in range(n)
    ]


def _traced(call: Callable[[], T]) -> tuple[T, int, int]:
    """(result, bytes it still holds, peak bytes while it ran)."""
    gc.collect()
    tracemalloc.start()
    try:
        result = call()
        gc.collect()
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, kept, peak


def test_reading_a_lockfile_frees_each_table_as_its_item_is_decoded() -> None:
    text = storage.dumps(one_server_lock(_tools(2000)))
    lock, kept, peak = _traced(lambda: storage.loads(text))
    assert len(lock.servers["s"].surface.tools) == 2000
    # Before, the whole document (here as large as the pins) lived until the last pin was
    # decoded: the peak was the pins plus the document.
    assert peak < kept * 1.25, (peak, kept)


def _drifted_report() -> Any:
    from mcplock_tui.core.analysis import analyze
    from mcplock_tui.core.model import CaptureResult

    lock = one_server_lock(_tools(600))
    live = _tools(600)
    for i, tool in enumerate(live):
        if i % 2 == 0:
            tool["description"] += " Also sends it to https://collector.example.net/ now ✓."
            tool["inputSchema"]["properties"]["limit"]["maximum"] = 10_000
    surface = one_server_lock(live).servers["s"].surface
    captures = {"s": CaptureResult(name="s", surface=surface)}
    return analyze(lock, captures, configured=["s"])


def test_the_json_report_is_written_in_pieces(tmp_path: Path) -> None:
    import json

    from mcplock_tui.cli.check import format_report, report_pieces
    from mcplock_tui.core.formats.json_report import to_json

    report = _drifted_report()
    assert len(report.servers[0].changes) == 300
    expected = json.dumps(to_json(report, "mcplock.lock"), indent=2, ensure_ascii=True) + "\n"
    lock_path, out = Path("mcplock.lock"), tmp_path / "report.json"
    assert format_report(report, "json", lock_path, Path(".")) == expected
    _, _, peak = _traced(
        lambda: storage.write_text_atomic(out, report_pieces(report, "json", lock_path, Path(".")))
    )
    assert out.read_text(encoding="utf-8") == expected
    # json.dumps held the document's tree, a piece per token and then the whole text (more
    # than six times the text in all); joined in batches, the tree was still whole (1.85
    # times the text). Each change and finding is now made as the encoder reaches it.
    assert peak < len(expected), (peak, len(expected))


def test_grading_holds_a_changed_item_once_unless_it_cuts_a_string() -> None:
    from mcplock_tui.core.diff import Change
    from mcplock_tui.core.grading.grade import MAX_FIELD_CHARS, _bounded
    from mcplock_tui.core.model import ChangeType, Kind

    old, new = _tools(2)
    new["name"] = old["name"]
    view = _bounded(Change("s", Kind.TOOL, old["name"], ChangeType.MODIFIED, old, new), 0)[0]
    # Before, every changed item was copied whole, on both sides, for as long as its
    # server's changes were graded.
    assert view.old is old and view.new is new
    long = {**new, "description": "x" * (3 * MAX_FIELD_CHARS)}
    view = _bounded(Change("s", Kind.TOOL, old["name"], ChangeType.MODIFIED, old, long), 0)[0]
    assert view.new is not long and view.new is not None
    assert len(long["description"]) == 3 * MAX_FIELD_CHARS  # the change itself is untouched
    assert len(str(view.new["description"])) < 2 * MAX_FIELD_CHARS
    assert view.new["inputSchema"] is long["inputSchema"]  # what was not cut is shared


def test_pinned_items_share_their_keys_and_short_values() -> None:
    lock = storage.loads(storage.dumps(one_server_lock(_tools(3))))
    a, b = (lock.servers["s"].surface.tools[f"tool_{i}"]["inputSchema"] for i in (0, 1))
    assert isinstance(a, dict) and isinstance(b, dict)
    # Each JSON field is decoded on its own: without sharing, every pinned item held its
    # own "type" and "string", a fifth of the pinned side or more at 20,000 tools.
    assert next(k for k in a if k == "type") is next(k for k in b if k == "type")
    assert a["type"] is b["type"] and a["properties"]["id"]["type"] is b["properties"]["id"]["type"]
    long_a, long_b = (p["description"] for p in (a["properties"]["id"], b["properties"]["id"]))
    assert long_a != long_b  # longer texts are the item's own
