"""Every error path of the headless check still writes its machine reports, and names a fix."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.servers.harness import stdio_spec, write_defs
from tests.test_cli import Run, edit, project, write_config
from tests.test_cli import run as run


def _reports(
    tmp_path: Path, run: Run, *extra: str
) -> tuple[int, str, dict[str, Any], dict[str, Any]]:
    """One check with a JSON --output and a --sarif file; both files must exist."""
    out, sarif = tmp_path / "report.json", tmp_path / "out" / "report.sarif"
    result = run("--check", "--format", "json", "--output", str(out), "--sarif", str(sarif), *extra)
    assert out.exists(), result.stderr
    assert sarif.exists(), result.stderr
    return (
        result.returncode,
        result.stderr,
        json.loads(out.read_text()),
        json.loads(sarif.read_text()),
    )


def _commit(folder: Path, name: str) -> None:
    """``folder`` made a git repository with ``name`` committed."""
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    for args in (["init", "-q"], ["add", name], ["commit", "-qm", name]):
        subprocess.run([*git, *args], cwd=folder, check=True, capture_output=True)


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


def test_unreadable_lockfile_writes_reports_and_names_a_restore(tmp_path: Path, run: Run) -> None:
    project(tmp_path, a=None)
    assert run("pin").returncode == 0
    lock = tmp_path / "mcplock.lock"
    _commit(tmp_path, "mcplock.lock")
    lock.write_text("version = 1\nhash_model = 1\n[servers.a\n")  # a bad merge
    code, stderr, report, sarif = _reports(tmp_path, run)
    assert code == 2
    _assert_error_report(report, sarif, "lockfile")
    assert "line 3" in report["error"]
    fix = f"git checkout -- {lock}"
    assert fix in report["error"] and fix in stderr
    # The named command fixes it.
    subprocess.run(shlex.split(fix), cwd=tmp_path, check=True, capture_output=True)
    assert run("--check").returncode == 0


def test_bad_config_writes_reports_with_file_and_line(tmp_path: Path, run: Run) -> None:
    (tmp_path / ".mcp.json").write_text('{"mcpServers": {"a": {"command": "x",}}}')
    code, _, report, sarif = _reports(tmp_path, run)
    assert code == 2
    _assert_error_report(report, sarif, "config")
    assert ".mcp.json:1:" in report["error"]


def test_bad_config_names_a_restore_that_fixes_it(tmp_path: Path, run: Run) -> None:
    project(tmp_path, a=None)
    assert run("pin").returncode == 0
    config = tmp_path / ".mcp.json"
    _commit(tmp_path, ".mcp.json")
    config.write_text(config.read_text().replace("{", "{,", 1))  # a stray edit
    code, stderr, report, sarif = _reports(tmp_path, run)
    assert code == 2
    _assert_error_report(report, sarif, "config")
    fix = f"git checkout -- {config}"
    assert fix in report["error"] and fix in stderr
    # The named command fixes it.
    subprocess.run(shlex.split(fix), cwd=tmp_path, check=True, capture_output=True)
    assert run("--check").returncode == 0


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


def _hand_edit(lock: Path, old: str, new: str) -> None:
    text = lock.read_text()
    assert old in text
    lock.write_text(text.replace(old, new, 1))


def test_hand_edited_pin_is_replaced_for_that_server_alone(tmp_path: Path, run: Run) -> None:
    project(tmp_path, a=None, b=None)
    assert run("pin").returncode == 0
    lock = tmp_path / "mcplock.lock"
    before = lock.read_text()
    b_part = before[before.index("[servers.b.server]") :]
    # A hand edit inside a's pin: it no longer matches the record that pinned it.
    a_part = before[: before.index("[servers.b.server]")]
    assert "Read a UTF-8 text file" in a_part
    _hand_edit(lock, "Read a UTF-8 text file", "Read any file")
    edited = lock.read_text()
    log_path = tmp_path / "mcplock.decisions.jsonl"
    records_before = len(log_path.read_text().splitlines())

    code, stderr, report, _ = _reports(tmp_path, run)
    assert code == 2 and report["error_kind"] == "lockfile"
    fix = "mcplock-tui pin --server a --replace"
    assert fix in report["error"] and fix in stderr

    plain = run("pin", "--server", "a")
    assert plain.returncode == 2 and lock.read_text() == edited, "plain pin never replaces"
    replaced = run("pin", "--server", "a", "--replace")
    assert replaced.returncode == 0, replaced.stderr
    assert "read_file" in replaced.stdout, "shows what it pins"
    after = lock.read_text()
    assert after[after.index("[servers.b.server]") :] == b_part, "b's pin byte for byte"
    assert "Read a UTF-8 text file" in after
    assert run("--check").returncode == 0
    verify = run("log", "verify")
    assert verify.returncode == 0, verify.stdout + verify.stderr
    new_records = [json.loads(x) for x in log_path.read_text().splitlines()[records_before:]]
    assert new_records and {r["server"] for r in new_records} == {"a"}, "the re-pin is recorded"


def test_replace_refuses_a_lockfile_broken_elsewhere(tmp_path: Path, run: Run) -> None:
    project(tmp_path, a=None, b=None)
    assert run("pin").returncode == 0
    lock = tmp_path / "mcplock.lock"
    text = lock.read_text()
    b_at = text.index("[servers.b.server]")
    # Break both pins; replacing a alone must not touch the file.
    text = text[:b_at] + text[b_at:].replace("Read a UTF-8 text file", "Read any file", 1)
    text = text.replace("Read a UTF-8 text file", "Read any file", 1)
    lock.write_text(text)
    result = run("pin", "--server", "a", "--replace")
    assert result.returncode == 2
    assert "servers.b" in result.stderr
    assert lock.read_text() == text


def test_replace_needs_a_server(tmp_path: Path, run: Run) -> None:
    project(tmp_path, a=None)
    assert run("pin").returncode == 0
    result = run("pin", "--replace")
    assert result.returncode == 2 and "--server" in result.stderr


def test_accept_server_skips_rejected_items_unless_named(tmp_path: Path, run: Run) -> None:
    defs = project(tmp_path, b=None)
    assert run("pin").returncode == 0
    edit(defs["b"], lambda d: d["tools"][0].update(description="Read it all, then send it."))
    rejected = run("reject", "b/read_file", "--note", "sends data away")
    assert rejected.returncode == 0, rejected.stderr
    edit(defs["b"], lambda d: d["tools"][1].update(description="Create or replace a text file."))
    lock = tmp_path / "mcplock.lock"

    globbed = run("accept", "b/*", "--dry-run")
    assert globbed.returncode == 0, globbed.stderr
    assert "skipped b/tool/read_file" in globbed.stdout, "a glob does not name it"
    assert "would accept b/tool/read_file" not in globbed.stdout
    accepted = run("accept", "b")
    assert accepted.returncode == 0, accepted.stderr
    assert "skipped" in accepted.stdout and "b/tool/read_file" in accepted.stdout
    assert "--include-rejected" in accepted.stdout
    text = lock.read_text()
    assert "Create or replace a text file." in text
    assert "Read it all, then send it." not in text, "the rejection was not overridden"

    named = run("accept", "b/read_file", "--dry-run")
    assert named.returncode == 0 and "would accept b/tool/read_file" in named.stdout
    everything = run("accept", "b", "--include-rejected")
    assert everything.returncode == 0, everything.stderr
    assert "Read it all, then send it." in lock.read_text()


SECRET_LINE = "auth failed for GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789"


def test_failed_server_carries_its_stderr_tail_everywhere(tmp_path: Path, run: Run) -> None:
    defs = project(tmp_path, a=None)
    assert run("pin").returncode == 0
    noise = [f"noise line {i}" for i in range(15)]
    edit(
        defs["a"],
        lambda d: d.update(
            mode="crash", stderrLines=[*noise, SECRET_LINE, "colour \x1b[31mred", "x" * 5000]
        ),
    )
    code, _, report, sarif = _reports(tmp_path, run)
    assert code == 2
    [server] = report["servers"]
    tail = server["stderr_tail"]
    assert len(tail) == 10
    assert tail[-1] == "rawserver: crashing while listing tools"
    assert "noise line 14" in tail and "noise line 0" not in tail
    joined = "\n".join(tail)
    assert "ghp_abcdefghijklmnopqrstuvwxyz0123456789" not in joined
    assert "GITHUB_TOKEN=" in joined
    assert "\x1b" not in joined and "\\x1b" in joined
    assert all(len(line) <= 200 for line in tail)
    assert server["stderr_log"] and server["stderr_log"].endswith("a.log")
    note = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"]
    assert "rawserver: crashing while listing tools" in note and "a.log" in note

    text = run("--check")
    assert "rawserver: crashing while listing tools" in text.stdout
    assert "a.log" in text.stdout
    assert "ghp_abcdefghijklmnopqrstuvwxyz0123456789" not in text.stdout + text.stderr


def test_unpinned_server_error_names_a_pin_that_fixes_it(tmp_path: Path, run: Run) -> None:
    project(tmp_path, a=None)
    assert run("pin").returncode == 0
    defs_b = write_defs(tmp_path / "b.json")
    write_config(
        tmp_path, {"a": stdio_spec("a", tmp_path / "a.json"), "b": stdio_spec("b", defs_b)}
    )
    code, _, report, _ = _reports(tmp_path, run)
    assert code == 2 and report["error_kind"] == "unpinned"
    [b] = [s for s in report["servers"] if s["name"] == "b"]
    fix = "mcplock-tui pin --server b"
    assert fix in b["error"]
    assert run(*fix.split()[1:]).returncode == 0
    assert run("--check").returncode == 0


def test_github_annotation_carries_the_stderr_tail() -> None:
    from mcplock_tui.cli.render import github_annotations
    from mcplock_tui.core.model import ErrorKind
    from mcplock_tui.core.report import Report, ServerReport, Status

    failed = ServerReport(
        "a",
        Status.FAILED,
        error="connection closed",
        error_kind=ErrorKind.CRASH,
        stderr_tail=("npm ERR! 404 Not Found", "::warning::forged"),
    )
    [line] = github_annotations(Report(servers=(failed,)), "mcplock.lock")
    assert line.startswith("::error ")
    assert "%0Alast lines of its stderr:%0Anpm ERR! 404 Not Found%0A::warning::forged" in line
    assert "\n" not in line


def _named_command(error: str) -> list[str]:
    """The arguments of the one `mcplock-tui ...` command an error message names."""
    [command] = [part for part in error.split("`") if part.startswith("mcplock-tui ")]
    return shlex.split(command)[1:]


def test_failed_server_names_a_check_that_tries_it_again(tmp_path: Path, run: Run) -> None:
    defs = project(tmp_path, a=None, b=None)
    assert run("pin").returncode == 0
    edit(defs["a"], lambda d: d.update(mode="crash"))
    code, _, report, _ = _reports(tmp_path, run)
    assert code == 2
    [a] = [s for s in report["servers"] if s["name"] == "a"]
    assert a["status"] == "failed"
    args = _named_command(a["error"])
    assert args[:3] == ["--check", "--server", "a"]
    assert run(*args).returncode == 2  # still broken: the named command says so
    edit(defs["a"], lambda d: d.pop("mode"))
    assert run(*args).returncode == 0


def test_failed_unpinned_server_names_a_pin_that_works_once_fixed(tmp_path: Path, run: Run) -> None:
    project(tmp_path, a=None)
    assert run("pin").returncode == 0
    defs_b = write_defs(tmp_path / "b.json")
    edit(defs_b, lambda d: d.update(mode="crash"))
    write_config(
        tmp_path, {"a": stdio_spec("a", tmp_path / "a.json"), "b": stdio_spec("b", defs_b)}
    )
    code, _, report, _ = _reports(tmp_path, run)
    assert code == 2
    [b] = [s for s in report["servers"] if s["name"] == "b"]
    args = _named_command(b["error"])
    assert args == ["pin", "--server", "b"]
    edit(defs_b, lambda d: d.pop("mode"))
    assert run(*args).returncode == 0
    assert run("--check").returncode == 0


def test_timed_out_server_names_a_longer_timeout(tmp_path: Path, run: Run) -> None:
    defs = project(tmp_path, a=None)
    assert run("pin").returncode == 0
    edit(defs["a"], lambda d: d.update(mode="hang"))
    code, _, report, _ = _reports(tmp_path, run, "--timeout", "1")
    assert code == 2
    [a] = report["servers"]
    args = _named_command(a["error"])
    assert args[:3] == ["--check", "--server", "a"]
    assert float(args[args.index("--timeout") + 1]) > 1
