"""A server that could not be captured is reported by its cause, pinned or not."""

from __future__ import annotations

from mcplock_tui.core.analysis import report_for
from mcplock_tui.core.lockfile import Lockfile
from mcplock_tui.core.model import CaptureResult, ErrorKind
from mcplock_tui.core.policy import Policy
from mcplock_tui.core.report import Status


def test_unpinned_server_that_timed_out_is_reported_as_a_timeout() -> None:
    result = CaptureResult(
        name="slow",
        error="timed out after 3 s during tools/list",
        error_kind=ErrorKind.TIMEOUT,
        stderr_log="/tmp/logs/slow.log",
        stderr_tail=("starting", "waiting for the database"),
    )
    report = report_for("slow", result, Lockfile(), foreign={}, policy=Policy())
    assert report.status == Status.FAILED
    assert report.error_kind == "timeout"
    assert report.error is not None
    assert report.error.startswith("timed out after 3 s")
    assert "not pinned" in report.error
    assert report.stderr_log == "/tmp/logs/slow.log"
    assert report.stderr_tail == ("starting", "waiting for the database")
