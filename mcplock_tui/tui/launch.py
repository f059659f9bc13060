"""Entry from the command line: build the workspace, read the lockfile, run the app.

Configuration errors propagate to ``cli.main`` (one plain line, exit 2); a missing or
unreadable lockfile is shown inside the app as a banner instead, with what to do next.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from mcplock_tui.workspace import Options, open_workspace

if TYPE_CHECKING:
    from mcplock_tui.tui.app import ReviewApp


def build_app(args: argparse.Namespace, cwd: Path | None = None) -> ReviewApp:
    """The app for these command-line options, not yet running."""
    from mcplock_tui.tui.app import ReviewApp
    from mcplock_tui.tui.session import ReviewSession

    ws = open_workspace(Options.from_attrs(args), cwd)
    session = ReviewSession.open(ws.lock_path, ws.specs, ws.policy)
    model = getattr(args, "model", None)
    return ReviewApp(session, log_dir=ws.log_dir, timeout=ws.timeout, model=model)


def run_app(args: argparse.Namespace) -> int:
    app = build_app(args)
    app.run()
    return app.return_code or 0
