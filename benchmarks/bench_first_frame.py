"""Time from starting the app to its first frame on screen, in a real terminal (tmux).

The bundled demo project is prepared once (``demo --keep DIR --check``: servers pinned,
then drifted). Each round runs ``mcplock-tui`` on that project in a detached tmux session of
the given size and polls the pane every few milliseconds; the figures are wall time from
spawning the process to the first frame (the summary line) and to the footer. The servers
connect after the first frame, in the background, so what is measured is interpreter start,
imports and the first layout. Each round also times a bare ``python -c "import textual.app"``
(the floor) and the smallest Textual app with a footer, in turn with the product, so that
every contender of a round sees the same load; the trees are byte-compiled first, as an
installed package is.

Run: python benchmarks/bench_first_frame.py [--rounds 5] [--size 80x24 --size 120x40]
     [--compare OTHER_TREE]
Needs tmux.
"""

from __future__ import annotations

import argparse
import itertools
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The source tree whose app is timed (``--tree`` for another checkout, e.g. a ``git archive``)."""
_ROUND = itertools.count()
FIRST = "mcplock.lock"
"""The summary line's lockfile name: on screen with the first frame."""
FOOTER = "Accept"
"""A footer key label: the footer fills in on a later refresh."""


def _pane(session: str) -> str:
    done = subprocess.run(
        ["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True, check=False
    )
    return done.stdout


def prepare(folder: Path) -> Path:
    """The demo project, pinned and drifted, kept in ``folder``."""
    subprocess.run(
        [sys.executable, "-m", "mcplock_tui", "demo", "--keep", str(folder), "--check"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        check=False,  # the demo drifts on purpose: exit 1
    )
    configs = sorted(folder.rglob(".mcp.json"))
    if not configs:
        raise SystemExit(f"the demo project was not prepared in {folder}")
    return configs[0].parent


def first_frame(
    project: Path,
    size: tuple[int, int],
    argv: list[str] | None = None,
    timeout: float = 20.0,
    tree: Path | None = None,
) -> tuple[float, float]:
    """Seconds from spawning the app (of ``tree``, default ``ROOT``) on ``project`` until its
    first frame, and its footer, are on screen."""
    session = f"mcplock-bench-{os.getpid()}-{next(_ROUND)}"  # a killed session's name lingers
    app = shlex.join(argv or [sys.executable, "-m", "mcplock_tui"])
    command = f"cd {shlex.quote(str(project))} && exec {app}"
    width, height, env = str(size[0]), str(size[1]), f"PYTHONPATH={tree or ROOT}"
    start = time.perf_counter()
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", width, "-y", height, "-e", env, command],
        check=True,
    )
    first = None
    try:
        while time.perf_counter() - start < timeout:
            screen = _pane(session)
            if first is None and FIRST in screen:
                first = time.perf_counter() - start
            if first is not None and FOOTER in screen:
                return first, time.perf_counter() - start
            time.sleep(0.005)
        raise SystemExit(f"no frame within {timeout} s:\n{_pane(session)}")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)


HELLO = """
from textual.app import App
from textual.binding import Binding
from textual.widgets import Footer, Static

class Hello(App):
    BINDINGS = [Binding("a", "quit", "Accept")]

    def compose(self):
        yield Static("mcplock.lock")
        yield Footer()

Hello().run()
"""
"""The smallest Textual app that draws what the probe looks for: Textual's own floor."""


def floor() -> float:
    """A bare interpreter importing textual.app: what any Textual app pays first."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import textual.app"], check=True)
    return time.perf_counter() - start


def _size(text: str) -> tuple[int, int]:
    width, _, height = text.partition("x")
    return int(width), int(height)


def compile_tree(tree: Path) -> None:
    """Write the tree's bytecode, as an installed package has it: with
    ``PYTHONDONTWRITEBYTECODE`` set, a stale cache would be recompiled on every launch."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(tree / "mcplock_tui")],
        check=True,
        capture_output=True,
    )


def report(project: Path, sizes: list[tuple[int, int]], rounds: int, trees: list[Path]) -> None:
    """Every contender once per round, in turn, so that each round sees the same load."""
    print(f"load average: {os.getloadavg()[0]:.2f}")
    script = project / "hello_textual.py"  # tmux takes one line: the script goes in a file
    script.write_text(HELLO, encoding="utf-8")
    hello_argv = [sys.executable, str(script)]
    bare: list[float] = []
    hello: list[tuple[float, float]] = []
    runs: dict[tuple[Path, tuple[int, int]], list[tuple[float, float]]] = {}
    for _ in range(rounds):
        bare.append(floor())
        hello.append(first_frame(project, sizes[0], hello_argv))
        for tree in trees:
            for size in sizes:
                runs.setdefault((tree, size), []).append(first_frame(project, size, tree=tree))
    print(f"floor (python -c 'import textual.app'): median {statistics.median(bare):.3f} s")
    hello_first = statistics.median(h[0] for h in hello)
    print(
        f"a bare Textual app with a footer: first frame median {hello_first:.3f} s, footer "
        f"{statistics.median(h[1] for h in hello):.3f} s"
    )
    for (tree, size), pairs in runs.items():
        firsts, footers = [p[0] for p in pairs], [p[1] for p in pairs]
        label = "" if len(trees) == 1 else f"{tree}: "
        print(
            f"{label}{size[0]}x{size[1]}: first frame median {statistics.median(firsts):.3f} s "
            f"(max {max(firsts):.3f}, {statistics.median(firsts) - hello_first:+.3f} s against "
            f"the bare app), footer median {statistics.median(footers):.3f} s "
            f"(max {max(footers):.3f}), over {rounds} rounds"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--size", type=_size, action="append", default=None)
    parser.add_argument("--tree", type=Path, default=None, help="time this source tree's app")
    parser.add_argument(
        "--compare", type=Path, default=None, help="also time this tree's app, in the same rounds"
    )
    args = parser.parse_args()
    if args.tree is not None:
        global ROOT
        ROOT = args.tree.resolve()
    if shutil.which("tmux") is None:
        raise SystemExit("this benchmark needs tmux")
    sizes = args.size or [(80, 24), (120, 40)]
    # A session that outlives the rounds: the tmux server quits with its last session, and a
    # round started while it quits fails.
    keeper = f"mcplock-bench-keeper-{os.getpid()}"
    subprocess.run(["tmux", "new-session", "-d", "-s", keeper, "sleep 3600"], check=True)
    trees = [ROOT] + ([args.compare.resolve()] if args.compare is not None else [])
    for tree in trees:
        compile_tree(tree)
    try:
        measure(sizes, args.rounds, trees)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", keeper], check=False)


def measure(sizes: list[tuple[int, int]], rounds: int, trees: list[Path]) -> None:
    with tempfile.TemporaryDirectory(prefix="mcplock-frame-") as tmp:
        project = prepare(Path(tmp))
        for tree in trees:
            first_frame(project, sizes[0], tree=tree)  # warm the file cache once; not counted
        report(project, sizes, rounds, trees)


if __name__ == "__main__":
    main()
