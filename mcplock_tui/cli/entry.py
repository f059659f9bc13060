"""The console entry point (``mcplock-tui``, ``python -m mcplock_tui``).

It pauses the cyclic collector before the rest of the program is imported (see
``mcplock_tui.startup``); ``cli.main`` resumes it at once for the headless commands and the
app resumes it after its first frame.
"""

from __future__ import annotations

from mcplock_tui.startup import pause_collector

pause_collector()


def main() -> int:
    from mcplock_tui.cli.main import main as run

    return run()
