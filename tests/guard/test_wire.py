"""The guard on the wire: raw bytes relayed exactly, stdout only JSON-RPC, clean shutdown."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.guard.conftest import NAME, Project
from tests.servers.harness import REPO_ROOT

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "wire-test", "version": "0"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def _lines(proc: subprocess.Popen[bytes], count: int, deadline: float = 20.0) -> list[bytes]:
    assert proc.stdout is not None
    out: list[bytes] = []
    end = time.monotonic() + deadline
    while len(out) < count and time.monotonic() < end:
        line = proc.stdout.readline()
        if not line:
            break
        out.append(line.rstrip(b"\n"))
    return out


def _send(proc: subprocess.Popen[bytes], *messages: Any) -> None:
    assert proc.stdin is not None
    for m in messages:
        proc.stdin.write(m if isinstance(m, bytes) else json.dumps(m).encode() + b"\n")
    proc.stdin.flush()


def _spawn(argv: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        argv,
        cwd=REPO_ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )


def _exchange(argv: list[str]) -> list[bytes]:
    proc = _spawn(argv)
    try:
        _send(proc, INIT)
        first = _lines(proc, 1)
        _send(
            proc,
            INITIALIZED,
            {"jsonrpc": "2.0", "id": "p1", "method": "tools/list"},
            {"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {"cursor": "2"}},
        )
        return first + _lines(proc, 2)
    finally:
        proc.kill()
        proc.wait(10)


def test_listing_pages_are_relayed_byte_for_byte(project: Project) -> None:
    def vendor(defs: dict[str, Any]) -> None:
        defs["tools"][0]["x-vendor"] = {"keep": [1, None, "é"]}
        defs["tools"][0]["annotations"]["unknownHint"] = True

    project.edit_defs(vendor)
    # pin never replaces a reviewed pin: the vendor fields are accepted as a decision
    assert (
        subprocess.run(
            [sys.executable, "-m", "mcplock_tui", "accept", NAME],
            cwd=project.root,
            capture_output=True,
            check=False,
        ).returncode
        == 0
    )
    direct = _exchange(project.server_argv)
    guarded = _exchange([sys.executable, *project.guard_argv()])
    assert guarded[1:] == direct[1:]  # both tools/list pages: the server's own bytes
    assert '"x-vendor": {"keep": [1, null, "\u00e9"]}'.encode() in guarded[1]
    init = json.loads(guarded[0])
    assert init["result"]["capabilities"]["tools"]["listChanged"] is True


def test_stdout_is_only_json_rpc_and_disconnect_stops_the_server(project: Project) -> None:
    project.edit_defs(lambda d: d.__setitem__("mode", "garbage"))
    proc = _spawn([sys.executable, *project.guard_argv()])
    try:
        _send(proc, INIT)
        lines = _lines(proc, 1)
        _send(
            proc, INITIALIZED, b"{not json\n", {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
        )
        lines += _lines(proc, 2)
        assert len(lines) == 3
        messages = [json.loads(line) for line in lines]  # every line is JSON-RPC
        assert all(m.get("jsonrpc") == "2.0" for m in messages)
        assert messages[1]["id"] is None
        assert messages[1]["error"]["code"] == -32700
        pid = int(project.defs.with_suffix(".pid").read_text())
        assert proc.stdin is not None
        proc.stdin.close()  # the client goes away
        assert proc.wait(15) == 0
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and _alive(pid):
            time.sleep(0.05)
        assert not _alive(pid)
    finally:
        proc.kill()
        proc.wait(10)
    log = project.root / "guard.log"
    assert log.stat().st_mode & 0o777 == 0o600


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie waiting for a parent that is gone still answers kill 0
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _hung_guard(project: Project) -> tuple[subprocess.Popen[bytes], int]:
    """A guard whose server is stuck in tools/list and ignores its stdin closing."""
    project.edit_defs(lambda d: d.__setitem__("mode", "hang"))
    proc = _spawn([sys.executable, *project.guard_argv()])
    _send(proc, INIT)
    assert len(_lines(proc, 1)) == 1
    _send(proc, INITIALIZED, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    pid = int(project.defs.with_suffix(".pid").read_text())
    time.sleep(0.3)
    return proc, pid


def _gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return False


def test_disconnect_stops_a_server_that_ignores_its_stdin(project: Project) -> None:
    proc, pid = _hung_guard(project)
    try:
        assert proc.stdin is not None
        proc.stdin.close()
        assert proc.wait(15) == 0
        assert _gone_within(pid, 5)
    finally:
        proc.kill()
        proc.wait(10)


def test_sigterm_to_the_guard_alone_stops_the_server(project: Project) -> None:
    """Some clients signal only the process they started, not its group."""
    proc, pid = _hung_guard(project)
    try:
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)
        assert _gone_within(pid, 5)
        assert time.monotonic() - started < 8
    finally:
        proc.kill()
        proc.wait(10)
