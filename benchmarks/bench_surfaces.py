"""Report size of a server-everything-like upgrade, and the cost of hosts and grouping.

Run: python benchmarks/bench_surfaces.py [--resources 100] [--tools 5000] [--repeat 5]
Prints (1) the text-report line count for an upgrade that adds ``--resources`` alike
resources, grouped as shipped and listed one by one as before; (2) the median time of
``surface_hosts`` over ``--tools`` tools with URLs in descriptions and defaults; (3) the median
time of ``group_changes`` plus natural sorting over that many added tools (ungraded). No servers, no I/O.
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from collections.abc import Callable
from typing import Any

from mcplock_tui.cli.render import make_console, render_change, render_report
from mcplock_tui.core.analysis import analyze
from mcplock_tui.core.diff import diff_surfaces
from mcplock_tui.core.graded import GradedChange
from mcplock_tui.core.groups import change_order, group_changes
from mcplock_tui.core.hosts import surface_hosts
from mcplock_tui.core.lockfile import Lockfile, ServerPin
from mcplock_tui.core.model import CaptureResult, Severity, Surface
from mcplock_tui.core.report import Report
from mcplock_tui.core.surface import build_surface


def surface(resources: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Surface:
    return build_surface(
        initialize_result={"serverInfo": {"name": "everything", "version": "1"}},
        launch="npx @modelcontextprotocol/server-everything",
        resources=resources,
        tools=tools,
    )


def upgrade(n: int) -> Report:
    old = surface([{"uri": "test://static/resource/1", "name": "Resource 1"}], [])
    new = surface(
        [
            {
                "uri": f"test://static/resource/{i}",
                "name": f"Resource {i}",
                "mimeType": "text/plain",
            }
            for i in range(1, n + 2)
        ],
        [],
    )
    lock = Lockfile({"everything": ServerPin(old)})
    return analyze(
        lock, {"everything": CaptureResult("everything", surface=new)}, configured=["everything"]
    )


def tools(n: int) -> list[dict[str, Any]]:
    return [
        {
            "name": f"fetch_page_{i}",
            "description": f"Fetch a page from https://api{i % 50}.example.com/v1/pages. " * 4,
            "inputSchema": {
                "type": "object",
                "properties": {
                    "url": {"type": "string", "default": f"https://cdn{i}.example.net/x"}
                },
            },
        }
        for i in range(n)
    ]


def median(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--resources", type=int, default=100)
    parser.add_argument("--tools", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    report = upgrade(args.resources)
    grouped = io.StringIO()
    render_report(make_console(grouped, width=120), report, "mcplock.lock")
    flat = io.StringIO()
    console = make_console(flat, width=120)
    for change in sorted(report.changes, key=change_order):
        render_change(console, change)
    print(
        f"report lines, {args.resources} alike resources: grouped "
        f"{len(grouped.getvalue().splitlines())}, one by one {len(flat.getvalue().splitlines())}"
    )

    big = surface([], tools(args.tools))
    hosts = surface_hosts(big)
    t_hosts = median(lambda: surface_hosts(big), args.repeat)
    print(f"surface_hosts over {args.tools} tools: {t_hosts * 1000:.1f} ms ({len(hosts)} hosts)")

    # Every change at one band: the cost of grouping and sorting alone, without grading.
    added = [GradedChange(c, Severity.MEDIUM) for c in diff_surfaces("s", surface([], []), big)]
    t_group = median(lambda: (group_changes(added), sorted(added, key=change_order)), args.repeat)
    print(
        f"group_changes + natural sort over {len(added)} changes: {t_group * 1000:.1f} ms "
        f"({len(group_changes(added))} groups)"
    )


if __name__ == "__main__":
    main()
