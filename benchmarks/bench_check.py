"""Concurrency of a check: 20 servers of 50 tools that each answer after 0.5 s, against one.

Run: python benchmarks/bench_check.py [--servers 20] [--tools 50] [--delay 0.5]
Each server is a real child process (benchmarks/slow_server.py) over stdio. Measured
in-process: capture of every server plus diff and grading against a lockfile pinned from the
same definitions. Checking one after another would cost about N times one server; the target
is a ratio under 1.5. The CPU the servers themselves used is printed too, since on a 2-core
machine twenty interpreters starting at once compete with the checker.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mcplock_tui.capture import capture_sync  # noqa: E402
from mcplock_tui.core.analysis import analyze  # noqa: E402
from mcplock_tui.core.lockfile import Lockfile, ServerPin  # noqa: E402
from mcplock_tui.spec import ServerSpec  # noqa: E402
from tests.servers.harness import default_defs  # noqa: E402

SLOW_SERVER = Path(__file__).resolve().parent / "slow_server.py"


def make_specs(folder: Path, count: int, tools: int, delay: float) -> list[ServerSpec]:
    specs = []
    for i in range(count):
        defs = default_defs()
        template = defs["tools"][0]
        defs["tools"] = [
            dict(template, name=f"tool_{j}", description=f"Tool {j} of server {i}.")
            for j in range(tools)
        ]
        path = folder / f"s{i}.json"
        path.write_text(json.dumps(defs))
        args = ("-S", str(SLOW_SERVER), str(path), str(delay))
        specs.append(ServerSpec(f"s{i}", "stdio", "bench", command=sys.executable, args=args))
    return specs


def timed_check(specs: list[ServerSpec], log_dir: Path) -> float:
    start = time.perf_counter()
    captures = capture_sync(specs, timeout=30, log_dir=log_dir)
    lock = Lockfile({n: ServerPin(r.surface) for n, r in captures.items() if r.surface is not None})
    report = analyze(lock, captures, configured=[s.name for s in specs])
    elapsed = time.perf_counter() - start
    assert all(s.status == "clean" for s in report.servers), [s.error for s in report.servers]
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--servers", type=int, default=20)
    parser.add_argument("--tools", type=int, default=50)
    parser.add_argument("--delay", type=float, default=0.5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        specs = make_specs(folder, args.servers, args.tools, args.delay)
        timed_check(specs[:1], folder / "warm")  # warm the interpreter and OS caches
        one = min(timed_check(specs[:1], folder / f"one{i}") for i in range(3))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        many = min(timed_check(specs, folder / f"many{i}") for i in range(3))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    child_cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / 3
    print(f"1 server:  {one:.2f} s")
    print(
        f"{args.servers} servers: {many:.2f} s  ({args.servers}x{args.tools} tools, each answering after {args.delay} s)"
    )
    print(f"ratio: {many / one:.2f} (target < 1.5; sequential would be ~{args.servers})")
    print(f"CPU used by the {args.servers} servers themselves per run: {child_cpu:.2f} s")


if __name__ == "__main__":
    main()
