"""Decision path and ``log verify`` speed: pin N tools (one signed record each), then verify.

Run: python benchmarks/bench_decisions.py [--tools 2000] [--accepts 50]
Prints the wall time of the pin (records + lockfile), of each accept through the decision
service (lock, re-read, record, write), and of a full ``log verify`` (chain, signatures,
lockfile coverage). No servers: surfaces are synthetic. Runs in a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from mcplock_tui.core.diff import diff_surfaces
from mcplock_tui.core.review import Action
from mcplock_tui.core.surface import build_surface
from mcplock_tui.decisions import decide, pin_new
from mcplock_tui.evidence.verify import verify_log
from mcplock_tui.storage import read_lockfile


def surface(tools: int, changed: int = -1) -> object:
    return build_surface(
        initialize_result={
            "protocolVersion": "2025-11-25",
            "serverInfo": {"name": "bench", "version": "1"},
            "capabilities": {"tools": {}},
        },
        launch="stdio: bench",
        tools=[
            {
                "name": f"tool_{i}",
                "description": f"Tool {i}." + (" Changed." if i == changed else ""),
                "inputSchema": {"type": "object"},
            }
            for i in range(tools)
        ],
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", type=int, default=2000)
    parser.add_argument("--accepts", type=int, default=50)
    args = parser.parse_args()
    os.environ.setdefault("GIT_CONFIG_NOSYSTEM", "1")
    with tempfile.TemporaryDirectory() as tmp:
        lock_path = Path(tmp) / "mcplock.lock"
        start = time.perf_counter()
        pin_new(lock_path, {"bench": surface(args.tools)})  # type: ignore[dict-item]
        pin_s = time.perf_counter() - start
        times = []
        for n in range(args.accepts):
            lock = read_lockfile(lock_path)
            live = surface(args.tools, changed=n)
            change = next(
                c
                for c in diff_surfaces("bench", lock.servers["bench"].surface, live)  # type: ignore[arg-type]
                if c.name == f"tool_{n}"
            )
            start = time.perf_counter()
            decide(lock_path, [change], Action.ACCEPT, live={"bench": live})  # type: ignore[dict-item]
            times.append(time.perf_counter() - start)
        start = time.perf_counter()
        result = verify_log(lock_path, read_lockfile(lock_path))
        verify_s = time.perf_counter() - start
        assert result.ok, result.problems[:3]
        print(
            f"pin {args.tools} tools ({len(result.records) - args.accepts} records): {pin_s:.2f} s"
        )
        print(
            f"accept through the service: median {statistics.median(times) * 1000:.0f} ms "
            f"(max {max(times) * 1000:.0f} ms) over {args.accepts}"
        )
        print(f"log verify over {len(result.records)} records: {verify_s:.2f} s")


if __name__ == "__main__":
    main()
