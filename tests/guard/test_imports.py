"""The guard sits in every agent's path: it must start fast and pull in no app or Claude code."""

from __future__ import annotations

import subprocess
import sys


def test_guard_imports_neither_textual_nor_anthropic() -> None:
    code = (
        "import sys, mcplock_tui.cli.main, mcplock_tui.guard.cli, mcplock_tui.guard.serve, "
        "mcplock_tui.guard.relay, mcplock_tui.guard.install, mcplock_tui.guard.http; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'anthropic', 'rich')); "
        "print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
