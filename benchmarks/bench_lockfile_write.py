"""CPU of writing one lockfile's text, in process: encoding, TOML emission and read-back.

Run: python benchmarks/bench_lockfile_write.py [--tools 5000] [--rounds 7] [--tree DIR ...]

Builds one server's surface of ``--tools`` synthetic tools (the tools ``bench_floor.py``
serves), pins it, and times ``storage.dumps`` (the pin's and every decision's write, less the
file itself) with the collector off: best of ``--rounds``. Each ``--tree`` (a source tree of
the product, e.g. a ``git archive``) runs in its own interpreter, in turn with this one, and
must write the same bytes.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

_CHILD = """
import gc, hashlib, random, sys, time
tree, tools, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
sys.path.insert(0, tree)
sys.path.insert(1, {here!r})
from bench_analysis import make_tool
from mcplock_tui import storage
from mcplock_tui.core import lockfile as lf
from mcplock_tui.core.surface import build_surface
assert storage.__file__.startswith(tree), storage.__file__
rnd = random.Random(0)
surface = build_surface(
    initialize_result={{"serverInfo": {{"name": "bench", "version": "1.0.0"}}}},
    launch="stdio: bench",
    tools=[make_tool(i, rnd) for i in range(tools)],
)
lock = lf.Lockfile({{"s0": lf.ServerPin(lf.hashed_surface(surface))}})
gc.disable()
best = float("inf")
for _ in range(rounds):
    start = time.process_time()
    text = storage.dumps(lock)
    best = min(best, time.process_time() - start)
print(best, len(text), hashlib.sha256(text.encode()).hexdigest())
"""


def run(tree: Path, tools: int, rounds: int) -> tuple[float, int, str]:
    code = _CHILD.format(here=str(HERE))
    out = subprocess.run(
        [sys.executable, "-c", code, str(tree), str(tools), str(rounds)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return float(out[0]), int(out[1]), out[2]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--tree", type=Path, action="append", default=[])
    args = parser.parse_args()
    trees = [HERE.parent, *(t.resolve() for t in args.tree)]
    order = trees * 2  # each tree twice, alternated: the better figure of the two counts
    random.Random(0).shuffle(order)
    best: dict[Path, float] = {}
    digests: dict[Path, str] = {}
    size = 0
    for tree in order:
        seconds, size, digest = run(tree, args.tools, args.rounds)
        best[tree] = min(best.get(tree, seconds), seconds)
        digests[tree] = digest
    print(f"{args.tools:,} tools, {size:,} characters; storage.dumps, CPU, best of {args.rounds}")
    for tree in trees:
        same = "same bytes" if digests[tree] == digests[HERE.parent] else "OTHER BYTES"
        print(f"  {tree!s:40} {best[tree] * 1000:8.1f} ms   {same}")


if __name__ == "__main__":
    main()
