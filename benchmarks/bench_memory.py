"""Peak memory of a pin and of a drifted check at 100,000 tools, beside the bare SDK client.

Run: python benchmarks/bench_memory.py [--tools 100000] [--page 500]

One stdlib stdio server (``slow_server.py``) serves the tools in pages; every contender is
a whole process and its peak RSS is ``ru_maxrss`` from ``wait4`` (with the server, which
it reaps; the server alone is printed too). The check runs after 10% of the tools drifted
behind the same launch line. Target: the drifted check stays under 1 GB.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_floor import (  # noqa: E402
    FLOOR,
    PY,
    check,
    compile_tree,
    drift_defs,
    load,
    make_project,
    pin,
    run,
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", type=int, default=100_000)
    parser.add_argument("--page", type=int, default=500)
    args = parser.parse_args()
    print(f"{args.tools:,} tools in pages of {args.page}; {load()}")
    compile_tree(HERE.parent)  # as installed: no process compiles the product's modules
    with tempfile.TemporaryDirectory() as tmp:
        project = make_project(Path(tmp) / "p", 1, args.tools, 0.0, args.page)
        rows = [("floor (bare SDK client)", *run([PY, str(FLOOR), "floor.json"], project.folder))]
        rows.append(("pin", *pin(project)))
        size = (project.folder / "mcplock.lock").stat().st_size / 1e6
        drift_defs(project, args.tools)
        rows.append(("check, 10% drifted", *check(project, "json", ok=(1,))()))
        server = [PY, "-c", _SERVER_ONLY, str(project.folder / "defs0.json")]
        rows.append(("the server alone (load defs)", *run(server, project.folder)))
    print(f"{'':30} {'wall s':>8} {'CPU s':>8} {'peak RSS MB':>12}")
    for name, wall, rss, cpu in rows:
        print(f"{name:30} {wall:8.1f} {cpu:8.1f} {rss:12.0f}")
    print(f"lockfile: {size:.1f} MB; {load()}")


_SERVER_ONLY = "import json, sys; json.load(open(sys.argv[1]))"

if __name__ == "__main__":
    main()
