"""CPU from interpreter start to the app's first frame, in process, headless.

Each run starts ``python -m mcplock_tui`` (no arguments) on the prepared demo project in a
fresh interpreter, with a small import hook that runs the app headless at the given size and
stops it at Textual's ``Ready`` (after the first frame is composed). It prints the process's
CPU time when ``textual.app`` finished importing, when the app module finished importing and
at ``Ready``; the trees (``--compare``) alternate run by run, and medians are reported, with
the CPU to ``Ready`` less the import of ``textual.app`` itself (the same in every tree, and
the noisiest part on a shared machine).

Run: python benchmarks/profile_first_frame.py [--runs 9] [--size 120x40] [--compare TREE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_first_frame import ROOT, compile_tree, prepare

PROBE = r"""
import importlib.abc, importlib.machinery, json, runpy, sys, time

marks = {}
WIDTH, HEIGHT = int(sys.argv[1]), int(sys.argv[2])


def patch_app(module):
    cls = module.ReviewApp
    run, ready = cls.run, cls.on_ready

    def on_ready(self):
        ready(self)
        marks["ready"] = time.process_time()
        print("PROBE", json.dumps(marks), file=sys.__stderr__)
        self.exit(0)

    def headless(self, *args, **kwargs):
        marks["run"] = time.process_time()
        return run(self, headless=True, size=(WIDTH, HEIGHT))

    cls.on_ready, cls.run = on_ready, headless


class Hook(importlib.abc.MetaPathFinder):
    watched = {
        "mcplock_tui.cli.main": None,
        "textual": None,
        "textual.app": None,
        "mcplock_tui.tui.app": patch_app,
    }

    def find_spec(self, name, path, target=None):
        if name not in self.watched:
            return None
        marks[name + " start"] = time.process_time()
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        exec_module, after = spec.loader.exec_module, self.watched[name]

        def timed(module):
            exec_module(module)
            marks[name] = time.process_time()
            if after is not None:
                after(module)

        spec.loader.exec_module = timed
        return spec


sys.meta_path.insert(0, Hook())
sys.argv = ["mcplock-tui"]
try:
    runpy.run_module("mcplock_tui", run_name="__main__")
except SystemExit:
    pass
"""


def once(project: Path, tree: Path, size: tuple[int, int]) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(size[0]), str(size[1])],
        cwd=project,
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    for line in done.stderr.splitlines():
        if line.startswith("PROBE "):
            return dict(json.loads(line[6:]))
    raise SystemExit(f"no first frame from {tree}:\n{done.stderr[-2000:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--size", default="120x40")
    parser.add_argument("--tree", type=Path, default=ROOT, help="time this source tree's app")
    parser.add_argument("--compare", type=Path, default=None, help="alternate with this tree")
    args = parser.parse_args()
    width, _, height = args.size.partition("x")
    size = (int(width), int(height))
    trees = [args.tree.resolve()] + ([args.compare.resolve()] if args.compare else [])
    for tree in trees:
        compile_tree(tree)
    print(f"load average: {os.getloadavg()[0]:.2f}")
    runs: dict[Path, list[dict[str, float]]] = {tree: [] for tree in trees}
    with tempfile.TemporaryDirectory(prefix="mcplock-frame-") as tmp:
        project = prepare(Path(tmp))
        for tree in trees:
            once(project, tree, size)  # warm the file cache once; not counted
        for _ in range(args.runs):
            for tree in trees:
                runs[tree].append(once(project, tree, size))
    phases = ["mcplock_tui.cli.main", "textual.app", "mcplock_tui.tui.app", "run", "ready"]
    print("CPU medians, seconds: to cli.main imported, textual.app imported, app module imported,")
    print("app built (workspace, lockfile, session), Ready; then each phase's own median")
    for tree, marks in runs.items():
        at = [statistics.median(m[p] for m in marks) for p in phases]
        own = [
            statistics.median(m[p] - (m[phases[i - 1]] if i else 0.0) for m in marks)
            for i, p in enumerate(phases)
        ]
        print(f"{tree}: at " + " ".join(f"{t:.3f}" for t in at))
        print(f"{' ' * len(str(tree))}  own " + " ".join(f"{t:.3f}" for t in own))
        # Importing textual.app is the same code in every tree and the noisiest phase.
        ours = statistics.median(m["ready"] - m["textual.app"] + m["textual start"] for m in marks)
        print(f"{' ' * len(str(tree))}  to Ready less importing textual.app: {ours:.3f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
