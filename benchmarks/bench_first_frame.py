"""Time from starting the app to its first frame on screen, in a real terminal (tmux).

The bundled demo project is prepared once (``demo --keep DIR --check``: servers pinned,
then drifted). Each round runs ``mcplock-tui`` on that project in a detached tmux session of
the given size and polls the pane every few milliseconds until the app's footer is drawn;
the figure is wall time from spawning the process. The servers connect after the first
frame, in the background, so what is measured is interpreter start, imports and the first
layout. A bare ``python -c "import textual.app"`` run is timed for the floor.

Run: python benchmarks/bench_first_frame.py [--rounds 5] [--size 80x24 --size 120x40]
Needs tmux.
"""

from __future__ import annotations

import argparse
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
FOOTER = "Accept"
"""A footer key label: on screen once the first full frame is drawn."""


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


def first_frame(project: Path, size: tuple[int, int], timeout: float = 20.0) -> float:
    """Seconds from spawning the app on ``project`` until its footer is on screen."""
    session = f"mcplock-bench-{os.getpid()}"
    app = shlex.join([sys.executable, "-m", "mcplock_tui"])
    command = f"cd {shlex.quote(str(project))} && exec {app}"
    width, height, env = str(size[0]), str(size[1]), f"PYTHONPATH={ROOT}"
    start = time.perf_counter()
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", width, "-y", height, "-e", env, command],
        check=True,
    )
    try:
        while time.perf_counter() - start < timeout:
            if FOOTER in _pane(session):
                return time.perf_counter() - start
            time.sleep(0.005)
        raise SystemExit(f"no frame within {timeout} s:\n{_pane(session)}")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)


def floor() -> float:
    """A bare interpreter importing textual.app: what any Textual app pays first."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import textual.app"], check=True)
    return time.perf_counter() - start


def _size(text: str) -> tuple[int, int]:
    width, _, height = text.partition("x")
    return int(width), int(height)


def report(project: Path, sizes: list[tuple[int, int]], rounds: int) -> None:
    print(f"load average: {os.getloadavg()[0]:.2f}")
    bare = statistics.median(floor() for _ in range(rounds))
    print(f"floor (python -c 'import textual.app'): median {bare:.3f} s")
    for size in sizes:
        times = [first_frame(project, size) for _ in range(rounds)]
        print(
            f"first frame at {size[0]}x{size[1]}: median {statistics.median(times):.3f} s, "
            f"max {max(times):.3f} s over {rounds} rounds"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--size", type=_size, action="append", default=None)
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        raise SystemExit("this benchmark needs tmux")
    sizes = args.size or [(80, 24), (120, 40)]
    with tempfile.TemporaryDirectory(prefix="mcplock-frame-") as tmp:
        project = prepare(Path(tmp))
        first_frame(project, sizes[0])  # warm the file cache once; not counted
        report(project, sizes, args.rounds)


if __name__ == "__main__":
    main()
