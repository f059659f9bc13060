"""Every error path of the headless check still writes its machine reports, and names a fix."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.test_cli import Run, edit, project
from tests.test_cli import run as run


def _reports(tmp_path: Path, run: Run, *extra: str) -> tuple[int, str, dict[str, Any], dict[str, Any]]:
    """One check with a JSON --output and a --sarif file; both files must exist."""
    out, sarif = tmp_path / "report.json", tmp_path / "out" / "report.sarif"
    result = run("--check", "--format", "json", "--output", str(out), "--sarif", str(sarif), *extra)
    assert out.exists(), result.stderr
    assert sarif.exists(), result.stderr
    return result.returncode, result.stderr, json.loads(out.read_text()), json.loads(sarif.read_text())


def _assert_error_report(
    report: dict[str, Any], sarif: dict[str, Any], kind: str, *, started: bool = False
) -> None:
    assert report["exit_code"] == 2
    assert report["error_kind"] == kind
    assert report["error"]
    assert report["version"] == 1
    [invocation] = sarif["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    assert invocation["exitCode"] == 2
    if not started:
        assert report["error"] in invocation["toolExecutionNotifications"][0]["message"]["text"]


def test_no_lockfile_writes_reports_and_names_pin(tmp_path: Path, run: Run) -> None:
    project(tmp_path, a=None)
    code, stderr, report, sarif = _reports(tmp_path, run)
    assert code == 2
    _assert_error_report(report, sarif, "no-lockfile")
    assert report["servers"] == []
    assert "mcplock-tui pin" in report["error"] and "mcplock-tui pin" in stderr
    # The named command fixes it.
    assert run("pin").returncode == 0
    assert run("--check").returncode == 0


def test_json_on_stdout_when_no_lockfile(tmp_path: Path, run: Run) -> None:
    project(tmp_path, a=None)
    result = run("--check", "--format", "json")
    assert result.returncode == 2
    assert json.loads(result.stdout)["error_kind"] == "no-lockfile"
    sarif = run("--check", "--format", "sarif")
    assert json.loads(sarif.stdout)["runs"][0]["invocations"][0]["exitCode"] == 2


def test_unreadable_lockfile_writes_reports(tmp_path: Path, run: Run) -> None:
    project(tmp_path, a=None)
    (tmp_path / "mcplock.lock").write_text("version = 1\nhash_model = 1\n[servers.a\n")
    code, _, report, sarif = _reports(tmp_path, run)
    assert code == 2
    _assert_error_report(report, sarif, "lockfile")
    assert "line 3" in report["error"]


def test_bad_config_writes_reports_with_file_and_line(tmp_path: Path, run: Run) -> None:
    (tmp_path / ".mcp.json").write_text('{"mcpServers": {"a": {"command": "x",}}}')
    code, _, report, sarif = _reports(tmp_path, run)
    assert code == 2
    _assert_error_report(report, sarif, "config")
    assert ".mcp.json:1:" in report["error"]


def test_bad_policy_writes_reports(tmp_path: Path, run: Run) -> None:
    project(tmp_path, a=None)
    assert run("pin").returncode == 0
    (tmp_path / "mcplock.toml").write_text('[policy]\nfail_on = "purple"\n')
    code, _, report, sarif = _reports(tmp_path, run)
    assert code == 2
    _assert_error_report(report, sarif, "policy")
    assert "mcplock.toml" in report["error"]


def test_every_server_failed_writes_reports(tmp_path: Path, run: Run) -> None:
    defs = project(tmp_path, a=None, b=None)
    assert run("pin").returncode == 0
    for path in defs.values():
        edit(path, lambda d: d.update(mode="crash"))
    code, _, report, sarif = _reports(tmp_path, run)
    assert code == 2
    _assert_error_report(report, sarif, "servers-failed", started=True)
    assert "a (crash)" in report["error"] and "b (crash)" in report["error"]
    assert {s["name"]: s["status"] for s in report["servers"]} == {"a": "failed", "b": "failed"}


def test_clean_report_has_null_error(tmp_path: Path, run: Run) -> None:
    project(tmp_path, a=None)
    assert run("pin").returncode == 0
    result = run("--check", "--format", "json")
    report = json.loads(result.stdout)
    assert (report["exit_code"], report["error"], report["error_kind"]) == (0, None, None)


@pytest.mark.parametrize("fmt", ["text"])
def test_text_output_file_is_written_on_error(tmp_path: Path, run: Run, fmt: str) -> None:
    project(tmp_path, a=None)
    out = tmp_path / "report.txt"
    result = run("--check", "--format", fmt, "--output", str(out))
    assert result.returncode == 2
    assert "mcplock-tui pin" in out.read_text()
