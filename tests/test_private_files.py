"""Server logs and caches hold what servers print (tokens included): private to the user."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from mcplock_tui.capture import capture_one
from mcplock_tui.capture.logs import redact_log_line
from mcplock_tui.tui.render.report_text import log_tail
from tests.servers.harness import stdio_spec, write_defs


def _read(path: Path) -> str:
    return path.read_text()


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_server_log_is_0600_in_a_0700_folder(tmp_path: Path) -> None:
    os.umask(0o022)
    log_dir = tmp_path / "cache" / "logs" / "run1"
    spec = stdio_spec("crashy", write_defs(tmp_path / "d.json"), "crash")
    result = await capture_one(spec, timeout=10.0, log_dir=log_dir)
    assert result.stderr_log is not None
    log = Path(result.stderr_log)
    assert "crashing" in _read(log)
    assert _mode(log) == 0o600
    assert _mode(log_dir) == 0o700
    assert _mode(log_dir.parent) == 0o700, "folders created on the way are private too"


async def test_existing_log_file_is_made_private(tmp_path: Path) -> None:
    log_dir = tmp_path / "logs"
    log_dir.mkdir(mode=0o755)
    old = log_dir / "crashy.log"
    old.write_text("old")
    old.chmod(0o644)
    spec = stdio_spec("crashy", write_defs(tmp_path / "d.json"), "crash")
    await capture_one(spec, timeout=10.0, log_dir=log_dir)
    assert _mode(old) == 0o600
    assert _mode(log_dir) == 0o755, "a folder the user chose keeps its mode"


SECRET_LINES = {
    "Authorization: Bearer Zq81mXv3LpW0tRk7YbN2cE": "Zq81mXv3LpW0tRk7YbN2cE",
    "using GITHUB_TOKEN=plainvalue for api": "plainvalue",
    "connect postgres://app:pgsecret@db:5432/x failed": "pgsecret",
    "token ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 rejected": "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    '{"api_key": "jsonvalue", "ok": true}': "jsonvalue",
}


def test_log_lines_lose_secret_looking_values() -> None:
    for line, secret in SECRET_LINES.items():
        assert secret not in redact_log_line(line), line
    assert redact_log_line("listening on port 8080") == "listening on port 8080"


def test_app_log_tail_shows_no_secret(tmp_path: Path) -> None:
    log = tmp_path / "s.log"
    log.write_text("\n".join(SECRET_LINES) + "\n")
    shown = "\n".join(c.plain for c in log_tail(str(log)))
    for secret in SECRET_LINES.values():
        assert secret not in shown
    assert "Authorization" in shown and "listening" not in shown
