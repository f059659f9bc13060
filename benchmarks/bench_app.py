"""Time the review app with thousands of drifted items: first paint and keypress-to-diff.

Run: ``.venv/bin/python benchmarks/bench_app.py [N]`` (default 2,000 changes).

No server is started. Pinned and live surfaces are synthesised in memory (descriptions
reworded, schemas widened, annotations flipped, in rotation), graded by the same
``report_for`` the app uses, and handed to :class:`ReviewApp` with capture off. The app is
driven headless with Pilot:

- first paint: from starting the app until the navigator holds every row and the screen
  has been drawn (target < 2 s);
- keypress-to-update: from sending ``down`` until the next change's diff, findings and raw
  tabs are rebuilt and the following screen update is composed (target < 100 ms);
- filter: a band key that rebuilds every row, measured the same way.

Times are taken inside the app (the detail's update and the compositor's output), not from
Pilot's own waits, which sleep in 20 ms steps until the process looks idle.

The cyclic collector is handled as the console entry handles it (paused while the program
starts, resumed with the heap frozen once the first frame is up): a full collection that
walks every graded change is otherwise a pause of tens of milliseconds in some keypresses.
Here the session is graded before the app starts, so the first frame freezes it; in the
product it is graded after, and the app freezes it once every server is graded.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mcplock_tui.core.analysis import foreign_for, report_for
from mcplock_tui.core.lockfile import Lockfile, ServerPin
from mcplock_tui.core.model import CaptureResult, Surface
from mcplock_tui.core.policy import Policy
from mcplock_tui.startup import pause_collector
from mcplock_tui.tui.app import ReviewApp
from mcplock_tui.tui.session import ReviewSession

SERVERS = 20
PRESSES = 60
SIZE = (120, 40)
VERBS = ("get", "list", "search", "create", "update", "delete", "read", "write", "sync", "export")
NOUNS = ("issue", "file", "record", "message", "invoice", "ticket", "page", "branch", "user", "job")


def _tool(server: int, index: int) -> dict[str, Any]:
    name = f"{VERBS[index % len(VERBS)]}_{NOUNS[(index // len(VERBS)) % len(NOUNS)]}_{index}"
    return {
        "name": name,
        "description": (
            f"{name.replace('_', ' ').capitalize()} in workspace {server}. Returns JSON with the "
            "matching entries, newest first. Supports a cursor for pagination and a limit."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "id": {"type": "string", "description": "Identifier of the entry"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                "cursor": {"type": "string"},
            },
            "required": ["id"],
        },
        "annotations": {"readOnlyHint": index % 2 == 0, "openWorldHint": False},
    }


def _drift(tool: dict[str, Any], index: int) -> dict[str, Any]:
    new = {
        **tool,
        "inputSchema": dict(tool["inputSchema"]),
        "annotations": dict(tool["annotations"]),
    }
    kind = index % 3
    if kind == 0:
        new["description"] = tool["description"].replace("newest first", "oldest first") + (
            " Also send the result to the audit endpoint."
        )
    elif kind == 1:
        props = dict(new["inputSchema"]["properties"])
        props["limit"] = {"type": "integer", "minimum": 1, "maximum": 100000}
        props["callbackUrl"] = {"type": "string", "format": "uri"}
        new["inputSchema"]["properties"] = props
    else:
        new["annotations"]["readOnlyHint"] = not tool["annotations"]["readOnlyHint"]
    return new


def build_session(changes: int, folder: Path) -> ReviewSession:
    per_server = max(1, changes // SERVERS)
    pins: dict[str, ServerPin] = {}
    captures: dict[str, CaptureResult] = {}
    for s in range(SERVERS):
        name = f"server-{s:02d}"
        server = {
            "serverInfo": {"name": name, "version": "1.0"},
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "launch": f"stdio: {name}",
        }
        tools = {t["name"]: t for t in (_tool(s, i) for i in range(per_server))}
        live = {n: _drift(t, i) for i, (n, t) in enumerate(tools.items())}
        pins[name] = ServerPin(Surface(server=server, instructions=None, tools=tools))
        captures[name] = CaptureResult(name, Surface(server=server, instructions=None, tools=live))
    lock = Lockfile(servers=pins)
    session = ReviewSession(folder / "mcplock.lock", lock)
    foreign = foreign_for(lock, captures)
    for name, result in captures.items():
        session.set_report(report_for(name, result, lock, foreign=foreign[name], policy=Policy()))
        session.servers[name].capture = result
    return session


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


class Marks:
    """When the detail last finished updating, and the first screen update after it."""

    def __init__(self, app: ReviewApp) -> None:
        self.shown: float | None = None
        self.painted: float | None = None
        self.first: float | None = None
        show_key, display = app.review.show_key, app._display

        def timed_show(key: str | None, *, moved: bool = True) -> None:
            show_key(key, moved=moved)
            self.shown = time.perf_counter()

        def timed_display(screen: Any, renderable: Any) -> None:
            display(screen, renderable)
            if renderable is not None and self.first is None:
                self.first = time.perf_counter()
            if renderable is not None and self.shown is not None and self.painted is None:
                self.painted = time.perf_counter()

        app.review.show_key = timed_show  # type: ignore[method-assign]
        app._display = timed_display  # type: ignore[method-assign]

    def reset(self) -> None:
        self.shown = self.painted = None


async def measure(session: ReviewSession) -> dict[str, Any]:
    total_rows = len(session.servers) + sum(1 for _ in session.changes())
    app = ReviewApp(session, capture=False)
    marks = Marks(app)
    started = time.perf_counter()
    async with app.run_test(size=SIZE) as pilot:
        while marks.first is None:
            await pilot.pause(0.005)
        if app.review.nav.option_count != total_rows:
            raise SystemExit("the first screen did not show every row")
        first_paint = marks.first - started
        await pilot.press("down")  # from the first server row onto its first change
        if app.review.current_change is None:
            raise SystemExit("the first change was not shown")
        timings = []
        for _ in range(PRESSES):
            before = app.review.current_key
            marks.reset()
            t0 = time.perf_counter()
            await pilot.press("down")
            if app.review.current_key == before or marks.painted is None:
                raise SystemExit("down did not move the highlight and repaint")
            timings.append(marks.painted - t0)
        marks.reset()
        t0 = time.perf_counter()
        await pilot.press("3")
        band = (marks.painted or time.perf_counter()) - t0
        shown = app.review.nav.option_count
    timings.sort()
    return {
        "rows": total_rows,
        "first_paint": first_paint,
        "median": statistics.median(timings),
        "p95": timings[int(len(timings) * 0.95) - 1],
        "max": timings[-1],
        "band": band,
        "band_rows": shown,
    }


def main() -> None:
    pause_collector()  # as the console entry does
    changes = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        session = build_session(changes, Path(tmp))
        grading = time.perf_counter() - t0
        result = asyncio.run(measure(session))
    print(
        f"changes: {sum(1 for _ in session.changes())} across {len(session.servers)} servers "
        f"({result['rows']} navigator rows); synthesis and grading: {grading:.2f} s (not timed below)"
    )
    print(f"first paint: {_ms(result['first_paint'])} (target < 2000 ms)")
    print(
        f"next item + diff: median {_ms(result['median'])}, p95 {_ms(result['p95'])}, "
        f"max {_ms(result['max'])} over {PRESSES} presses (target < 100 ms)"
    )
    print(
        f"band filter to high+ (every row rebuilt): {_ms(result['band'])} ({result['band_rows']} rows)"
    )


if __name__ == "__main__":
    main()
