"""The app's side-by-side diff of one changed description, 10 KB to 1 MB.

Run: python benchmarks/bench_field_diff.py [--repeat 3]
Prints the median wall time of ``line_rows()`` per size, for a one-line description that
drifts by one word at the start (the worst case for word matching) and for a many-line one.
Past the caps the diff shows lines with a note, so time grows linearly with the text.
"""

from __future__ import annotations

import argparse
import statistics
import time

from mcplock_tui.tui.render.field_diff import line_rows

SIZES = (10_000, 30_000, 100_000, 300_000, 1_000_000)


def texts(size: int, sep: str) -> tuple[str, str]:
    words = [f"word{i}" for i in range(size // 8)]
    old = sep.join(words)[:size]
    return old, "changed" + sep + old


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'size':>9}  {'one line':>9}  {'many lines':>10}")
    for size in SIZES:
        row = []
        for sep in (" ", "\n"):
            old, new = texts(size, sep)
            times = []
            for _ in range(args.repeat):
                started = time.perf_counter()
                line_rows(old, new)
                times.append(time.perf_counter() - started)
            row.append(statistics.median(times))
        print(f"{size:>9}  {row[0]:>8.3f}s  {row[1]:>9.3f}s")


if __name__ == "__main__":
    main()
