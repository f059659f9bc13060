"""``demo``: build the bundled demo project, then open the app on it (or ``--check`` it).

The project goes in a temporary folder removed on exit, unless ``--keep DIR`` names a
place to keep it. Everything after the set-up is the ordinary code path, run from inside
the project folder, so the demo shows exactly what a user's own project would.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def _base_folder(keep: Path | None) -> Iterator[Path]:
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        yield keep
        return
    # A closed terminal (SIGHUP) or a kill (SIGTERM) must still remove the temp folder: turn
    # them into SystemExit so the context managers unwind.
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _exit_on_signal)
    with tempfile.TemporaryDirectory(prefix="mcplock-demo-") as tmp:
        yield Path(tmp)


def _exit_on_signal(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def run(args: argparse.Namespace) -> int:
    from mcplock_tui.demo import prepare_demo

    with _base_folder(args.keep) as base:
        project = prepare_demo(base)
        where = "" if args.keep else " (removed on exit; --keep DIR keeps it)"
        print(f"mcplock-tui: demo project in {project}{where}", file=sys.stderr)
        args.config = [project / ".mcp.json"]
        args.lock = project / "mcplock.lock"
        args.policy = None
        args.server = []
        args.log_dir = args.log_dir or project / "logs"
        previous = Path.cwd()
        os.chdir(project)
        try:
            if args.check:
                from mcplock_tui.cli import check

                return check.run(args)
            from mcplock_tui.tui.launch import run_app

            return run_app(args)
        finally:
            os.chdir(previous)  # the temp folder cannot be removed while it is the cwd
