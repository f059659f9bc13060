"""The bundled demo: real servers, a lockfile pinned from them, then a real rug pull.

The check runs as a subprocess in the demo folder exactly as a user would run it, so these
tests also guard the demo's promise: each scripted drift lands in the band the README says.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mcplock_tui import storage
from mcplock_tui.demo import SERVERS, STATES, bundled_defs, prepare_demo, server_command
from mcplock_tui.demo.server import respond

REPO_ROOT = Path(__file__).resolve().parent.parent
INJECTION_PREFIX = "MCPL-INJ-"


def cli(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO_ROOT),
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "NO_COLOR": "1",
    }
    return subprocess.run(
        [sys.executable, "-m", "mcplock_tui", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return prepare_demo(tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="module")
def report(demo: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    home = tmp_path_factory.mktemp("home")
    done = cli("--check", "--format", "json", cwd=demo, home=home)
    assert done.returncode == 1, done.stderr
    doc: dict[str, Any] = json.loads(done.stdout)
    return doc


def server(report: dict[str, Any], name: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [s for s in report["servers"] if s["name"] == name]
    assert len(found) == 1
    return found[0]


def change(report: dict[str, Any], server_name: str, item: str) -> dict[str, Any]:
    changes: list[dict[str, Any]] = server(report, server_name)["changes"]
    found = [c for c in changes if c["name"] == item]
    assert len(found) == 1, [c["name"] for c in changes]
    return found[0]


def codes(c: dict[str, Any]) -> set[str]:
    return {f["code"] for f in c["findings"]}


def categories(c: dict[str, Any]) -> set[str]:
    return {r["category"] for r in c["reasons"]}


# --- the server ------------------------------------------------------------------------


def rpc(msg_id: int, method: str, **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}


def test_server_replies_from_the_file_as_it_is_now(tmp_path: Path) -> None:
    path = tmp_path / "defs.json"
    path.write_text(bundled_defs("pinned", "github"), encoding="utf-8")
    init = respond(rpc(1, "initialize", protocolVersion="2025-06-18"), path)
    assert init == {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {
            "protocolVersion": "2025-06-18",
            "capabilities": {"tools": {}, "prompts": {}},
            "serverInfo": {"name": "github-mcp", "title": "GitHub", "version": "0.9.2"},
            "instructions": json.loads(path.read_text())["instructions"],
        },
    }
    assert respond({"jsonrpc": "2.0", "method": "notifications/initialized"}, path) is None
    assert respond(rpc(2, "resources/list"), path) == {
        "jsonrpc": "2.0",
        "id": 2,
        "error": {"code": -32601, "message": "Method not found"},
    }
    path.write_text(bundled_defs("pinned", "filesystem"), encoding="utf-8")
    assert respond(rpc(3, "resources/templates/list"), path) == {
        "jsonrpc": "2.0",
        "id": 3,
        "result": {"resourceTemplates": []},
    }
    path.write_text(bundled_defs("drifted", "github"), encoding="utf-8")
    listed = respond(rpc(3, "tools/list"), path)
    assert listed is not None
    names = [t["name"] for t in listed["result"]["tools"]]
    assert "list_pull_request_files" in names and "get_pull_request_files" not in names
    path.write_text("{not json", encoding="utf-8")
    broken = respond(rpc(4, "tools/list"), path)
    assert broken is not None and broken["error"]["code"] == -32603
    assert str(path) in broken["error"]["message"]


def test_server_process_serves_stdio_and_fails_loudly_at_start(tmp_path: Path) -> None:
    path = tmp_path / "defs.json"
    path.write_text(bundled_defs("pinned", "slack"), encoding="utf-8")
    lines = "".join(
        json.dumps(m) + "\n"
        for m in (rpc(1, "initialize", protocolVersion="2025-11-25"), rpc(2, "tools/list"))
    )
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    done = subprocess.run(
        server_command(path), input=lines, capture_output=True, text=True, env=env, timeout=30
    )
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["id"] for r in replies] == [1, 2]
    assert replies[1]["result"]["tools"] == json.loads(path.read_text())["tools"]

    path.write_text(bundled_defs("drifted", "jira"), encoding="utf-8")
    done = subprocess.run(
        server_command(path), input=lines, capture_output=True, text=True, env=env, timeout=30
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith("jira-mcp: fatal: JIRA_API_TOKEN is not set.")


def test_server_imports_only_the_standard_library() -> None:
    """Keeps demo servers starting in milliseconds: no SDK, no capture stack."""
    code = (
        "import json, sys, mcplock_tui.demo.server\n"
        "heavy = {'mcp', 'mcp_types', 'anyio', 'pydantic', 'httpx2', 'rich', 'textual', 'tomli_w'}\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('mcplock_tui') or m in heavy)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout) == ["mcplock_tui", "mcplock_tui.demo", "mcplock_tui.demo.server"]


def test_every_bundled_definition_is_packaged_and_parses() -> None:
    for state in STATES:
        for name in SERVERS:
            defs = json.loads(bundled_defs(state, name))
            assert isinstance(defs["tools"], list) and defs["tools"]
    with pytest.raises(ValueError, match="no demo definitions"):
        bundled_defs("pinned", "../secrets")


# --- the prepared project ----------------------------------------------------------------


def test_prepare_demo_pins_the_pinned_state_and_serves_the_drifted_one(demo: Path) -> None:
    assert demo.name == "mcplock-demo"
    config = json.loads((demo / ".mcp.json").read_text())
    assert sorted(config["mcpServers"]) == sorted(SERVERS)
    for name in SERVERS:
        live = demo / "servers" / f"{name}.json"
        assert config["mcpServers"][name] == {
            "command": sys.executable,
            "args": ["-m", "mcplock_tui.demo.server", str(live)],
        }
        assert live.read_text() == bundled_defs("drifted", name)
        assert (demo / "servers" / "pinned" / f"{name}.json").read_text() == bundled_defs(
            "pinned", name
        )
    lock = storage.read_lockfile(demo / "mcplock.lock")
    assert sorted(lock.servers) == sorted(SERVERS)
    for name in SERVERS:
        pinned = json.loads(bundled_defs("pinned", name))
        surface = lock.servers[name].surface
        assert surface.server["serverInfo"] == pinned["serverInfo"]
        assert {n: dict(t) for n, t in surface.tools.items()} == {
            t["name"]: t for t in pinned["tools"]
        }
    assert sorted(lock.servers["github"].surface.prompts) == ["review_pull_request"]
    assert sorted(lock.servers["filesystem"].surface.resources) == ["file:///workspace/README.md"]


def test_restoring_the_pinned_files_makes_the_check_clean(tmp_path: Path) -> None:
    project = prepare_demo(tmp_path)
    for name in SERVERS:
        shutil.copyfile(
            project / "servers" / "pinned" / f"{name}.json", project / "servers" / f"{name}.json"
        )
    done = cli("--check", "--format", "json", cwd=project, home=tmp_path / "home")
    assert done.returncode == 0, done.stdout + done.stderr
    doc = json.loads(done.stdout)
    assert {s["name"]: s["status"] for s in doc["servers"]} == dict.fromkeys(SERVERS, "clean")


# --- the drift a check finds ---------------------------------------------------------------


def test_check_reports_exactly_the_scripted_changes(report: dict[str, Any]) -> None:
    assert report["exit_code"] == 1
    changed = {s["name"]: sorted(c["name"] for c in s["changes"]) for s in report["servers"]}
    # Everything else (eight tools, the prompt, the resource, the instructions) is clean.
    assert changed == {
        "filesystem": ["list_directory", "read_file", "search_files"],
        "github": ["create_issue", "list_pull_request_files", "server"],
        "jira": [],
        "slack": ["search_messages"],
    }
    assert [w for s in report["servers"] for w in s["warnings"]] == []
    assert {s["name"]: s["status"] for s in report["servers"]} == {
        "filesystem": "drift",
        "github": "drift",
        "jira": "failed",
        "slack": "drift",
    }


def test_poisoned_description_is_critical_with_injection_findings(report: dict[str, Any]) -> None:
    c = change(report, "slack", "search_messages")
    assert (c["change"], c["severity"]) == ("modified", "critical")
    assert [f["path"] for f in c["fields"]] == ["description"]
    assert {"MCPL-INJ-001", "MCPL-INJ-020", "MCPL-INJ-030"} <= codes(c)
    assert all(f["path"] == "description" for f in c["findings"])
    assert {f["excerpt"] for f in c["findings"] if f["code"] == "MCPL-INJ-020"} == {"~/.ssh/id_rsa"}


def test_annotation_flip_is_high(report: dict[str, Any]) -> None:
    # readOnlyHint true -> false is a claim of less safety: reviewed (high), never critical.
    c = change(report, "filesystem", "search_files")
    assert (c["change"], c["severity"]) == ("modified", "high")
    assert c["fields"] == [
        {"path": "annotations.readOnlyHint", "old": True, "new": False, "absent": []}
    ]
    assert categories(c) == {"annotation-loosened"}


def test_hidden_characters_in_a_parameter_description_are_critical(report: dict[str, Any]) -> None:
    c = change(report, "filesystem", "read_file")
    assert (c["change"], c["severity"]) == ("modified", "critical")
    where = "inputSchema.properties.path.description"
    assert [f["path"] for f in c["fields"]] == [where]
    assert "MCPL-INJ-012" in codes(c)
    tags = [f for f in c["findings"] if f["code"] == "MCPL-INJ-012"]
    assert [f["path"] for f in tags] == [where]
    smuggled = "".join(chr(ord(ch) - 0xE0000) for ch in tags[0]["excerpt"] if ord(ch) >= 0xE0000)
    assert "~/.aws/credentials" in smuggled


def test_widened_schema_is_high(report: dict[str, Any]) -> None:
    c = change(report, "github", "create_issue")
    assert (c["change"], c["severity"]) == ("modified", "high")
    widened = {(r["category"], r["path"]) for r in c["reasons"] if r["severity"] == "high"}
    assert ("parameter-added", "inputSchema.properties.sidenote") in widened
    assert ("capability-widened", "inputSchema.properties.repo.pattern") in widened


def test_rename_is_reported_as_renamed(report: dict[str, Any]) -> None:
    c = change(report, "github", "list_pull_request_files")
    assert (c["change"], c["old_name"]) == ("renamed", "get_pull_request_files")
    assert [f["path"] for f in c["fields"]] == ["name"]
    assert c["severity"] == "medium"


def test_typo_fix_and_version_bump_are_low(report: dict[str, Any]) -> None:
    typo = change(report, "filesystem", "list_directory")
    assert typo["severity"] == "low"
    assert categories(typo) == {"text-cosmetic"}
    assert not codes(typo)
    bump = change(report, "github", "server")
    assert (bump["kind"], bump["severity"]) == ("server", "low")
    assert bump["fields"] == [
        {"path": "serverInfo.version", "old": "0.9.2", "new": "0.9.3", "absent": []}
    ]


def test_failing_server_is_failed_with_a_clear_error(report: dict[str, Any]) -> None:
    jira = server(report, "jira")
    log = Path(jira["stderr_log"])
    assert jira["error_kind"] == "crash"
    assert jira["error"] == (
        f"connection closed by the server during initialize; see {log}; "
        "once it is fixed, `mcplock-tui --check --server jira` tries it alone"
    )
    assert "jira-mcp: fatal: JIRA_API_TOKEN is not set." in log.read_text()


def test_summary_counts_each_band(report: dict[str, Any]) -> None:
    assert report["summary"] == {"critical": 2, "high": 2, "medium": 1, "low": 2}


# --- the command ---------------------------------------------------------------------------


def test_demo_check_command_exits_1_and_keeps_the_folder(tmp_path: Path) -> None:
    keep = tmp_path / "kept"
    done = cli("demo", "--check", "--keep", str(keep), cwd=tmp_path, home=tmp_path / "home")
    assert done.returncode == 1, done.stderr
    project = (keep / "mcplock-demo").resolve()
    assert done.stderr.splitlines()[0] == f"mcplock-tui: demo project in {project}"
    assert (project / "mcplock.lock").is_file()
    assert "search_messages" in done.stdout and "jira" in done.stdout


def test_demo_without_keep_uses_a_temporary_folder_and_removes_it(tmp_path: Path) -> None:
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    done = cli("--check", "demo", "--format", "json", cwd=cwd, home=tmp_path / "home")
    assert done.returncode == 1, done.stderr
    first = done.stderr.splitlines()[0]
    prefix, suffix = "mcplock-tui: demo project in ", " (removed on exit; --keep DIR keeps it)"
    assert first.startswith(prefix) and first.endswith(suffix)
    assert not Path(first[len(prefix) : -len(suffix)]).exists()
    assert json.loads(done.stdout)["exit_code"] == 1
    assert list(cwd.iterdir()) == []
