"""The gate tried as an attacker would: each test first reproduces a way around it.

Everything goes through the real CLI (``main`` in-process, or a subprocess where processes
must race) against real fixture servers over stdio; what held is judged by the files on
disk and by what ``--check`` and ``log verify`` say afterwards.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mcplock_tui.cli.main import main
from mcplock_tui.evidence.records import EvidencePaths
from mcplock_tui.spec import ServerSpec
from tests.servers.harness import default_defs, mcp_json, stdio_spec
from tests.test_decide import POISON, defs_with
from tests.test_decide import _identity as _identity  # the autouse fixture: a fixed reviewer

REPO = Path(__file__).resolve().parent.parent


class Project:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.lock = root / "mcplock.lock"
        self.paths = EvidencePaths.for_lock(self.lock)
        self.specs: dict[str, ServerSpec] = {}

    def add(self, name: str, defs: dict[str, Any] | None = None) -> Path:
        path = self.root / f"{name}.json"
        path.write_text(json.dumps(defs or default_defs()), encoding="utf-8")
        self.specs[name] = stdio_spec(name, path)
        self.configure()
        return path

    def configure(self) -> None:
        doc = mcp_json(self.specs)
        (self.root / ".mcp.json").write_text(json.dumps(doc), encoding="utf-8")

    def serve(self, defs: dict[str, Any], name: str = "files") -> None:
        (self.root / f"{name}.json").write_text(json.dumps(defs), encoding="utf-8")

    def wrap(self, name: str, marker: Path) -> None:
        """What a hostile pull request does: the same server, behind a command of its own."""
        spec = self.specs[name]
        inner = " ".join(shlex.quote(a) for a in (spec.command or "", *spec.args))
        self.specs[name] = ServerSpec(
            name=name,
            transport="stdio",
            source="tests",
            command="sh",
            args=("-c", f"touch {shlex.quote(str(marker))}; exec {inner}"),
        )
        self.configure()

    def records(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.paths.log.read_text().splitlines()]


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Project:
    monkeypatch.chdir(tmp_path)
    proj = Project(tmp_path)
    proj.add("files")
    assert main(["pin", "--timeout", "10"]) == 0
    return proj


# --- 1. --check never runs a launch nobody reviewed ----------------------------------------


def test_check_never_starts_a_changed_launch_command(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = project.root / "ran-in-ci"
    project.wrap("files", marker)
    code, out, err = cli(capsys, "--check", "--format", "json")
    assert not marker.exists(), "--check ran the pull request's command"
    assert code == 1, err
    (server,) = json.loads(out)["servers"]
    assert server["status"] == "launch-changed"
    assert (
        server["pinned_launch"].startswith("stdio: ") and "rawserver.py" in server["pinned_launch"]
    )
    assert server["launch"].startswith("stdio: sh -c") and "ran-in-ci" in server["launch"]

    code, out, _ = cli(capsys, "--check")
    assert code == 1 and not marker.exists()
    assert "launch-changed" in out and "not started" in out
    assert "pinned: stdio: " in out and "now:    stdio: sh -c" in out


def test_a_launch_change_is_accepted_locally_then_checked(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = project.root / "ran-locally"
    project.wrap("files", marker)
    code, out, err = cli(capsys, "accept", "files/server")
    assert code == 0, err
    assert "files: starting stdio: sh -c" in err  # said what it was about to run
    assert "accept files/server/server" in out and "launch" in out
    marker.unlink()
    assert cli(capsys, "--check")[0] == 0 and marker.exists()  # the reviewed launch runs
    assert cli(capsys, "log", "verify")[0] == 0


def test_check_never_starts_a_server_with_no_pin(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = project.root / "ran-in-ci"
    project.add("newcomer")
    project.wrap("newcomer", marker)
    code, out, _ = cli(capsys, "--check", "--format", "json")
    assert not marker.exists(), "--check ran a server nobody pinned"
    assert code != 0
    statuses = {s["name"]: s["status"] for s in json.loads(out)["servers"]}
    assert statuses == {"files": "clean", "newcomer": "unpinned"}


def test_pin_of_a_new_server_says_which_command_it_runs(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    project.add("other")
    code, _out, err = cli(capsys, "pin")
    assert code == 0, err
    assert "other: starting stdio: " in err
    assert "files: starting" not in err  # its reviewed launch is unchanged


# --- 2. pin never overwrites a reviewed pin -----------------------------------------------


def test_pin_over_poisoned_drift_leaves_the_lockfile_byte_identical(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    before, log_before = project.lock.read_bytes(), project.paths.log.read_bytes()
    project.serve(defs_with(read_file=POISON))
    code, out, _err = cli(capsys, "pin")
    assert code == 1
    assert project.lock.read_bytes() == before
    assert project.paths.log.read_bytes() == log_before
    assert "files: pinned definitions drifted; the pin was kept" in out
    assert "1 change (1 critical)" in out
    assert "mcplock-tui accept files" in out and "review app" in out
    assert cli(capsys, "--check")[0] == 1  # still fails: nothing was laundered


def test_pin_pins_new_servers_beside_a_drifted_one(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    project.serve(defs_with(read_file=POISON))
    project.add("other")
    code, _out, _ = cli(capsys, "pin")
    assert code == 1
    code, report_text, _ = cli(capsys, "--check", "--format", "json")
    statuses = {s["name"]: s["status"] for s in json.loads(report_text)["servers"]}
    assert statuses == {"files": "drift", "other": "clean"}


def test_accept_prints_every_change_it_accepts(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    project.serve(defs_with(read_file=POISON, write_file="Write it."))
    code, out, _ = cli(capsys, "accept", "files")
    assert code == 0
    assert "accept files/tool/read_file" in out and "accept files/tool/write_file" in out
    assert "<IMPORTANT>" in out  # the accepted text itself was shown
    assert [r["decision"] for r in project.records()][-2:] == ["accept", "accept"]


# --- 3. one decision service: lock, re-read, record first, never through a link -----------


def _accept_in_subprocess(root: Path, selector: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "mcplock_tui", "accept", selector],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def test_two_concurrent_accepts_keep_both_decisions(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    defs = defs_with(read_file="Read a UTF-8 file.", write_file="Write a UTF-8 file.")
    project.serve({**defs, "mode": "slow", "slowSeconds": 0.3})  # so the two runs overlap
    procs = [_accept_in_subprocess(project.root, f"files/{t}") for t in ("read_file", "write_file")]
    results = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], results
    code, out, _ = cli(capsys, "--check", "--format", "json")
    assert code == 0, "one accept dropped the other's pin"
    assert json.loads(out)["servers"][0]["changes"] == []
    accepted = [r["item"] for r in project.records() if r["decision"] == "accept"]
    assert sorted(accepted) == ["read_file", "write_file"]
    assert cli(capsys, "log", "verify")[0] == 0


def test_damaged_log_tail_blocks_the_decision_with_the_lockfile_untouched(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    project.serve(defs_with(read_file=POISON))
    before = project.lock.read_bytes()
    with project.paths.log.open("ab") as handle:
        handle.write(b'{"seq": 99, "half a rec')
    code, _, err = cli(capsys, "accept", "files/read_file")
    assert code != 0
    assert "damaged at its last record" in err
    assert project.lock.read_bytes() == before


def test_symlinked_log_is_refused(
    project: Project,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    outside = tmp_path_factory.mktemp("outside") / "victim"
    outside.write_bytes(project.paths.log.read_bytes())
    project.paths.log.unlink()
    project.paths.log.symlink_to(outside)
    victim = outside.read_bytes()
    project.serve(defs_with(read_file=POISON))
    before = project.lock.read_bytes()
    code, _, err = cli(capsys, "accept", "files/read_file")
    assert code != 0 and "symbolic link" in err
    assert outside.read_bytes() == victim, "appended through the planted link"
    assert project.lock.read_bytes() == before


def test_symlinked_lockfile_is_refused(
    project: Project,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "mcplock.lock"
    elsewhere.write_bytes(project.lock.read_bytes())
    project.lock.unlink()
    project.lock.symlink_to(elsewhere)
    code, _, err = cli(capsys, "--check")
    assert code == 2 and "symbolic link" in err


# --- 4. log verify binds the lockfile to the decisions -------------------------------------


def test_spliced_lockfile_with_a_valid_unreviewed_pin_fails_verify(
    project: Project,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    project.serve(defs_with(read_file=POISON))
    elsewhere = Project(tmp_path_factory.mktemp("elsewhere"))
    elsewhere.specs = dict(project.specs)  # the same launch line, so --check runs it
    elsewhere.configure()
    monkeypatch.chdir(elsewhere.root)
    assert main(["pin"]) == 0  # valid hashes, reviewed nowhere near this repository
    spliced = elsewhere.lock.read_bytes()
    monkeypatch.chdir(project.root)
    project.lock.write_bytes(spliced)
    # the live server matches the spliced pin, but this log's records pinned another one
    code, _, err = cli(capsys, "--check")
    assert code == 2 and "pin --server files --replace" in err, err
    code, out, _ = cli(capsys, "log", "verify")
    assert code == 1
    assert "lockfile: tool 'read_file' on 'files' is pinned as sha256:" in out
    assert re.search(r"but record \d+ pinned sha256:", out)  # the reviewed pin it contradicts


def test_server_with_no_record_fails_verify_naming_each_item(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    from mcplock_tui import storage
    from mcplock_tui.core.lockfile import ServerPin

    lock = storage.read_lockfile(project.lock)
    surface = lock.servers["files"].surface
    servers = {**lock.servers, "smuggled": ServerPin(surface=surface)}
    storage.write_lockfile(project.lock, type(lock)(servers=servers, log_head=lock.log_head))
    code, out, _ = cli(capsys, "log", "verify")
    assert code == 1
    assert "lockfile: server 'smuggled': no signed record pinned any of it" in out
    assert "lockfile: tool 'read_file' on 'smuggled' is pinned as" in out


def test_dropping_the_newest_records_is_detected(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    project.serve(defs_with(read_file="Read a UTF-8 file."))
    assert cli(capsys, "accept", "files/read_file")[0] == 0
    lines = project.paths.log.read_bytes().splitlines(keepends=True)
    project.paths.log.write_bytes(b"".join(lines[:-1]))
    code, out, _ = cli(capsys, "log", "verify")
    assert code == 1
    # the lockfile holds what the dropped record accepted, which the earlier pin contradicts
    assert re.search(
        rf"lockfile: tool 'read_file' on 'files' is pinned as sha256:\S+, "
        rf"but record {len(lines) - 1} pinned sha256:",
        out,
    ), out
    code, _, err = cli(capsys, "--check")
    assert code == 2 and f"record {len(lines) - 1} pinned" in err, err


def test_lockfile_with_pins_and_no_log_fails_verify(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    project.paths.log.unlink()
    project.paths.pub.unlink()
    code, out, _ = cli(capsys, "log", "verify")
    assert code == 1
    assert "mcplock.decisions.jsonl: missing, but mcplock.lock pins 1 server(s)" in out


def test_action_verifies_the_log_by_default() -> None:
    import yaml

    action = yaml.safe_load((REPO / "action.yml").read_text())
    assert action["inputs"]["verify-log"]["default"] == "true"
    step = next(s for s in action["runs"]["steps"] if s.get("id") == "verify-log")
    assert "log verify" in step["run"]


# --- 5. known findings stay visible --------------------------------------------------------


@pytest.fixture
def poisoned_at_pin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Project:
    """A server poisoned on the day it was pinned."""
    monkeypatch.chdir(tmp_path)
    proj = Project(tmp_path)
    proj.add("files", defs_with(read_file=POISON))
    assert main(["pin"]) == 0
    return proj


def test_known_findings_are_reported_on_every_check(
    poisoned_at_pin: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = cli(capsys, "--check")
    assert code == 0  # by default known findings do not fail
    assert "known CRITICAL" in out and "read_file" in out
    assert "Known: " in out.splitlines()[-2] or "Known: " in out

    code, text, _ = cli(capsys, "--check", "--format", "json")
    doc = json.loads(text)
    (server,) = doc["servers"]
    assert server["changes"] == []
    assert {f["item"] for f in server["known_findings"]} == {"read_file"}
    assert doc["known_findings"] == len(server["known_findings"]) > 0

    code, text, _ = cli(capsys, "--check", "--format", "sarif")
    results = json.loads(text)["runs"][0]["results"]
    known = [r for r in results if r["properties"].get("status") == "known"]
    assert known and {r["level"] for r in known} == {"note"}


def test_policy_can_fail_on_known_findings(
    poisoned_at_pin: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    (poisoned_at_pin.root / "mcplock.toml").write_text(
        '[policy]\nfail_on_known = "high"\n', encoding="utf-8"
    )
    code, out, _ = cli(capsys, "--check")
    assert code == 1
    assert "fail at high or worse" in out


# --- 6. keys -------------------------------------------------------------------------------


def _git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", *args],
        cwd=root,
        check=True,
        capture_output=True,
        env={
            **os.environ,
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@x",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@x",
        },
    )


def test_a_committed_private_key_signs_nothing(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    _git(project.root, "init", "-q")
    _git(project.root, "add", "-f", str(project.paths.key))
    project.serve(defs_with(read_file="Read a UTF-8 file."))
    before, log_before = project.lock.read_bytes(), project.paths.log.read_bytes()
    code, _, err = cli(capsys, "accept", "files/read_file")
    assert code != 0
    assert "is tracked by git" in err and "rotate it" in err and "git rm --cached" in err
    assert (project.lock.read_bytes(), project.paths.log.read_bytes()) == (before, log_before)


def test_a_key_others_can_read_signs_nothing(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    project.paths.key.chmod(0o644)
    project.serve(defs_with(read_file="Read a UTF-8 file."))
    before = project.lock.read_bytes()
    code, _, err = cli(capsys, "accept", "files/read_file")
    assert code != 0
    assert "can be read by other users" in err and "rotate it" in err
    assert project.lock.read_bytes() == before


def test_a_bundle_signed_by_a_fresh_key_is_refused(
    project: Project,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    forger = Project(tmp_path_factory.mktemp("forger"))
    forger.specs = dict(project.specs)
    forger.configure()
    monkeypatch.chdir(forger.root)
    assert main(["pin"]) == 0
    bundle = project.root / "forged.json"
    assert main(["log", "export", "--out", str(bundle)]) == 0
    forged_key = json.loads(bundle.read_text())["signed_by"]
    monkeypatch.chdir(project.root)
    capsys.readouterr()
    code, out, _ = cli(capsys, "log", "verify", "--bundle", str(bundle))
    assert code == 1
    assert f"signed by an unknown key {forged_key}" in out
    code, out, _ = cli(capsys, "log", "verify", "--bundle", str(bundle), "--trust", forged_key)
    assert code == 0, out

    own = project.root / "own.json"
    assert main(["log", "export", "--out", str(own)]) == 0
    capsys.readouterr()
    assert cli(capsys, "log", "verify", "--bundle", str(own))[0] == 0
