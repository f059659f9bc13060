"""What sealing a launch's hidden parts costs per server.

Run: python benchmarks/bench_launch_seal.py [--servers 20] [--repeat 3]
Prints the median wall time of ``ServerSpec.launch()`` per server for a launch with nothing
hidden (no seal), the first call for a launch with hidden parts (one scrypt, N=2^14, r=8) and
a repeated call (memoised), over distinct servers so the first calls are never cached.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from mcplock_tui.spec import ServerSpec, seal


def plain(i: int) -> ServerSpec:
    return ServerSpec(
        name=f"s{i}",
        transport="stdio",
        source="b",
        command="npx",
        args=("-y", f"@scope/server-{i}"),
    )


def hidden(i: int, run: int) -> ServerSpec:
    return ServerSpec(
        name=f"s{i}-{run}",
        transport="stdio",
        source="b",
        command="npx",
        args=("-y", "srv", "--api-key", "sk-Q7vLm2Xp9RtZk4Wc8NbYf3Hd6Js1Ge5A"),
        env={"TOKEN": "${TOKEN}", "HOME_DIR": "/srv"},
        cwd="/work",
    )


def per_server(specs: list[ServerSpec], calls: Callable[[ServerSpec], None]) -> float:
    start = time.perf_counter()
    for spec in specs:
        calls(spec)
    return (time.perf_counter() - start) / len(specs)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--servers", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n = args.servers
    rows: dict[str, list[float]] = {"no seal": [], "sealed, first call": [], "sealed, again": []}
    for run in range(args.repeat):
        seal.cache_clear()
        specs = [hidden(i, run) for i in range(n)]
        rows["no seal"].append(per_server([plain(i) for i in range(n)], ServerSpec.launch))
        rows["sealed, first call"].append(per_server(specs, ServerSpec.launch))
        rows["sealed, again"].append(per_server(specs, ServerSpec.launch))
    for label, times in rows.items():
        print(f"{label:>20}  {statistics.median(times) * 1000:8.3f} ms per server")


if __name__ == "__main__":
    main()
