"""Live per-server progress on a terminal's stderr; nothing extra when piped or NO_COLOR."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

from tests.test_cli import Run, edit, project
from tests.test_cli import run as run


def _on_tty_stderr(args: list[str], cwd: Path, repo_root: Path, **env: str) -> tuple[int, str]:
    """Run the CLI with stderr on a pseudo-terminal; returns the exit code and what it drew."""
    master, slave = pty.openpty()
    full_env = {**os.environ, "PYTHONPATH": str(repo_root), "TERM": "xterm-256color", **env}
    if "NO_COLOR" not in env:
        full_env.pop("NO_COLOR", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "mcplock_tui", *args],
        cwd=cwd,
        env=full_env,
        stdout=subprocess.DEVNULL,
        stderr=slave,
        stdin=subprocess.DEVNULL,
    )
    os.close(slave)
    chunks: list[bytes] = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    drawn = b"".join(chunks).decode("utf-8", "replace")
    return proc.wait(timeout=120), re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", drawn)


def test_tty_shows_one_line_per_server(tmp_path: Path, run: Run, repo_root: Path) -> None:
    defs = project(tmp_path, good=None, moved=None, broken=None)
    assert run("pin").returncode == 0
    edit(defs["moved"], lambda d: d["tools"][0].update(description="Now something else."))
    edit(defs["broken"], lambda d: d.update(mode="crash"))
    code, drawn = _on_tty_stderr(["--check"], tmp_path, repo_root)
    assert code in (1, 2)
    assert "good" in drawn and "5 tools, clean" in drawn
    assert "moved" in drawn and "drift" in drawn
    assert "broken" in drawn and "failed (crash)" in drawn


def test_tty_with_no_color_or_dumb_shows_nothing(tmp_path: Path, run: Run, repo_root: Path) -> None:
    project(tmp_path, good=None)
    assert run("pin").returncode == 0
    for env in ({"NO_COLOR": "1"}, {"TERM": "dumb"}):
        code, drawn = _on_tty_stderr(["--check"], tmp_path, repo_root, **env)
        assert code == 0
        assert "tools, clean" not in drawn, env


def test_piped_stderr_has_no_progress(tmp_path: Path, run: Run) -> None:
    project(tmp_path, good=None)
    assert run("pin").returncode == 0
    result = run("--check")
    assert result.returncode == 0
    assert result.stderr == ""
