"""Analysis time of one changed description, 10 KB to 1 MB: it must grow linearly.

Run: python benchmarks/bench_text_scaling.py [--sizes 10000,100000,1000000] [--shapes ...]

For each shape of hostile text (one long word, dotted labels, prose, base64-like runs, a
renamed tool carrying the text) prints the wall time of ``analyze()`` (diff, grading,
detectors, lint) per size and the time per KB. Linear growth keeps the per-KB column flat.
Target: a 1 MB changed description analysed in well under 5 s.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from mcplock_tui.core.analysis import analyze
from mcplock_tui.core.lockfile import Lockfile, ServerPin
from mcplock_tui.core.model import CaptureResult
from mcplock_tui.core.surface import build_surface

SHAPES: dict[str, Callable[[int], str]] = {
    "one-word": lambda n: "A" * n,
    "dotted": lambda n: ("a." * n)[:n],
    "prose": lambda n: ("Read the file at the given path and return it to the caller. " * n)[:n],
    "base64": lambda n: ("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=" * n)[:n],
    "mixed": lambda n: ("a@b-c.d_e/f:%41\\x41 you must " * n)[:n],
}


def tool(name: str, description: str) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "inputSchema": {
            "type": "object",
            "properties": {"path": {"type": "string", "description": "Path of the file"}},
        },
    }


def run_once(old_desc: str, new_desc: str, *, rename: bool) -> float:
    old = build_surface(initialize_result={}, launch="x", tools=[tool("read", old_desc)])
    new_name = "read_v2" if rename else "read"
    new = build_surface(initialize_result={}, launch="x", tools=[tool(new_name, new_desc)])
    lock = Lockfile({"s": ServerPin(old)})
    started = time.perf_counter()
    analyze(lock, {"s": CaptureResult("s", surface=new)}, configured=["s"])
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description="changed-description analysis scaling")
    parser.add_argument("--sizes", default="10000,30000,100000,300000,1000000")
    parser.add_argument("--shapes", default=",".join([*SHAPES, "renamed"]))
    opts = parser.parse_args()
    sizes = [int(s) for s in opts.sizes.split(",")]
    print(f"{'shape':<10}" + "".join(f"{s // 1000:>9} KB" for s in sizes) + "   s/MB at max")
    for shape in opts.shapes.split(","):
        make = SHAPES.get(shape, SHAPES["prose"])
        times = []
        for size in sizes:
            text = make(size)
            old = "Read a file." if shape != "renamed" else text[: size // 2]
            times.append(run_once(old, text, rename=shape == "renamed"))
        row = "".join(f"{t:>10.3f}s" for t in times)
        print(f"{shape:<10}{row}   {times[-1] / (sizes[-1] / 1e6):.2f}", flush=True)


if __name__ == "__main__":
    main()
