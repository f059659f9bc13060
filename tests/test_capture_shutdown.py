"""A hung stdio server is stopped soon after its deadline, not after the SDK's 4 s of grace."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from mcp.client import stdio

from mcplock_tui.capture.runner import capture_all
from mcplock_tui.capture.shutdown import GRACE, TERM_GRACE
from tests.servers.harness import stdio_spec, write_defs

pytestmark = pytest.mark.anyio


async def test_hung_server_is_stopped_with_short_grace(tmp_path: Path) -> None:
    defs = write_defs(tmp_path / "d.json")
    results = await capture_all(
        [stdio_spec("stuck", defs, "hang")], timeout=1, log_dir=tmp_path / "logs"
    )
    assert results["stuck"].error_kind == "timeout"
    # The waits the SDK's shutdown reads at call time are ours during a capture.
    assert stdio.PROCESS_TERMINATION_TIMEOUT == GRACE
    assert stdio.FORCE_KILL_TIMEOUT == TERM_GRACE
    assert GRACE + TERM_GRACE < 1.0
    log = (tmp_path / "logs" / "stuck.log").read_text()
    pid = int(log.split("(pid ")[1].split(")")[0])
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # gone, not leaked
