"""Entry from the command line: build the workspace, read the lockfile, run the app.

Configuration errors propagate to ``cli.main`` (one plain line, exit 2); a missing or
unreadable lockfile is shown inside the app as a banner instead, with what to do next.
"""

from __future__ import annotations

import argparse

from mcplock_tui.cli.options import workspace


def run_app(args: argparse.Namespace) -> int:
    from mcplock_tui.tui.app import ReviewApp
    from mcplock_tui.tui.session import ReviewSession

    ws = workspace(args)
    session = ReviewSession.open(ws.lock_path, ws.specs, ws.policy)
    app = ReviewApp(
        session, log_dir=ws.log_dir, timeout=ws.timeout, model=getattr(args, "model", None)
    )
    app.run()
    return app.return_code or 0
