"""The gate against launch changes the redacted launch text does not show.

``ServerSpec.launch()`` hides secret-looking values, env and header values, and says nothing
of the working directory, so a pull request could change what runs without changing the
compared text. Each attack below first reproduces that through the real CLI (``main``
in-process against real fixture servers) and is judged by a marker file on disk, the status
``--check`` reports and its exit code. The seal that closes it is then checked for what it
must not do: reveal the secret, drift between runs, or repeat across servers.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mcplock_tui.cli.main import main
from mcplock_tui.config import load_servers
from mcplock_tui.core.analysis import unreviewed_launch
from mcplock_tui.core.lockfile import Lockfile, ServerPin
from mcplock_tui.core.model import Surface
from mcplock_tui.core.report import Status
from mcplock_tui.evidence.records import KEY_ENV
from mcplock_tui.spec import ServerSpec
from tests.servers.harness import RAWSERVER, raw_http_server, write_defs

SECRET = "sk-" + "Q7vLm2Xp9RtZk4Wc8NbYf3Hd6Js1Ge5A"
SEAL = re.compile(r"  sealed: ([0-9a-f]{24})$")


@pytest.fixture(autouse=True)
def _identity(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("USER", "reviewer")
    monkeypatch.delenv(KEY_ENV, raising=False)


class Project:
    """A project whose ``.mcp.json`` is written exactly as a pull request would write it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.lock = root / "mcplock.lock"
        self.defs = write_defs(root / "defs.json")
        self.marker = root / "ran-in-ci"

    def configure(self, **servers: dict[str, Any]) -> None:
        doc = {"mcpServers": servers}
        (self.root / ".mcp.json").write_text(json.dumps(doc), encoding="utf-8")

    def check(self, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
        code = main(["--check", "--format", "json", "--timeout", "10"])
        out = capsys.readouterr().out
        return code, {s["name"]: s for s in json.loads(out)["servers"]}

    def held(self, capsys: pytest.CaptureFixture[str], name: str = "files") -> dict[str, Any]:
        """``--check`` after a hostile change: nothing ran, the server is launch-changed."""
        code, servers = self.check(capsys)
        assert not self.marker.exists(), "--check ran the pull request's launch"
        assert code != 0
        server: dict[str, Any] = servers[name]
        assert server["status"] == "launch-changed", server
        return server


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Project]:
    monkeypatch.chdir(tmp_path)
    yield Project(tmp_path)


def pin(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["pin", "--timeout", "10"])
    err = capsys.readouterr().err
    assert code == 0, err


def _program(prelude: str = "") -> str:
    """A ``python -c`` program that runs rawserver, hidden in a high-entropy base64 run."""
    source = f"{prelude}import runpy,sys\nsys.argv=sys.argv[1:]\nrunpy.run_path(sys.argv[0],run_name='__main__')\n"
    encoded = base64.urlsafe_b64encode(source.encode()).decode().rstrip("=")
    pad = "=" * (-len(encoded) % 4)
    return f"import base64;exec(base64.urlsafe_b64decode('{encoded}{pad}'))"


# --- 1. a redacted argument -------------------------------------------------------------


def test_a_changed_program_in_a_redacted_argument_is_not_started(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    def server(program: str) -> dict[str, Any]:
        return {
            "command": sys.executable,
            "args": ["-c", program, str(RAWSERVER), str(project.defs)],
        }

    project.configure(files=server(_program()))
    pin(capsys)
    hostile = _program(f"open({str(project.marker)!r},'w').close()\n")
    project.configure(files=server(hostile))
    before = load_servers(project.root, [project.root / ".mcp.json"], environ={})
    assert "<redacted>" in before[0].launch()  # the program really is hidden from the text

    held = project.held(capsys)
    visible = SEAL.sub("", held["launch"])
    assert visible == SEAL.sub("", held["pinned_launch"])  # the text alone would have passed


def test_a_changed_api_key_is_a_launch_change(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    def server(key: str) -> dict[str, Any]:
        return {
            "command": sys.executable,
            "args": [str(RAWSERVER), str(project.defs), "--api-key", key],
        }

    project.configure(files=server(SECRET))
    pin(capsys)
    project.configure(files=server(SECRET[:-4] + "zzzz"))
    held = project.held(capsys)
    assert "hidden part of the launch changed" in held["error"]


# --- 2. an env value --------------------------------------------------------------------


def test_a_changed_env_value_is_not_started(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    quiet, hostile = project.root / "quiet", project.root / "hostile"
    quiet.mkdir()
    hostile.mkdir()
    (hostile / "sitecustomize.py").write_text(
        f"open({str(project.marker)!r}, 'w').close()\n", encoding="utf-8"
    )

    def server(path: Path) -> dict[str, Any]:
        return {
            "command": sys.executable,
            "args": [str(RAWSERVER), str(project.defs)],
            "env": {"PYTHONPATH": str(path)},
        }

    project.configure(files=server(quiet))
    pin(capsys)
    assert not project.marker.exists()
    project.configure(files=server(hostile))
    held = project.held(capsys)
    assert "hidden part of the launch changed" in held["error"]
    assert "an env value" in held["error"]


def test_a_referenced_env_value_from_the_environment_does_not_change_the_seal(
    project: Project,
) -> None:
    """``${VAR}`` is sealed as written: CI rotating its secret is no launch change."""
    project.configure(files={"command": "srv", "env": {"TOKEN": "${TOKEN}"}})
    config = [project.root / ".mcp.json"]
    (a,) = load_servers(project.root, config, environ={"TOKEN": "one"})
    (b,) = load_servers(project.root, config, environ={"TOKEN": "two"})
    assert a.env != b.env
    assert a.launch() == b.launch() and SEAL.search(a.launch())


# --- 3. the working directory -----------------------------------------------------------


def test_a_changed_cwd_with_another_server_py_is_not_started(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    reviewed, hostile = project.root / "reviewed", project.root / "hostile"
    for folder, prelude in (
        (reviewed, ""),
        (hostile, f"open({str(project.marker)!r},'w').close()\n"),
    ):
        folder.mkdir()
        (folder / "server.py").write_text(
            f"{prelude}import runpy\nrunpy.run_path({str(RAWSERVER)!r}, run_name='__main__')\n",
            encoding="utf-8",
        )

    def server(cwd: str) -> dict[str, Any]:
        return {"command": sys.executable, "args": ["server.py", str(project.defs)], "cwd": cwd}

    project.configure(files=server("reviewed"))
    pin(capsys)
    assert not project.marker.exists()
    project.configure(files=server("hostile"))
    held = project.held(capsys)
    assert SEAL.sub("", held["launch"]) == SEAL.sub("", held["pinned_launch"])
    assert "hidden part of the launch changed" in held["error"]


# --- 4. an HTTP header value or a hidden part of the URL --------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        pytest.param(
            {"headers": {"X-Api-Key": SECRET}},
            {"headers": {"X-Api-Key": SECRET + "x"}},
            id="header",
        ),
        pytest.param(
            {"headers": {"X-Tenant": "a"}}, {"headers": {"X-Tenant": "b"}}, id="plain-header"
        ),
        pytest.param({"query": "?key=" + SECRET}, {"query": "?key=other"}, id="query"),
    ],
)
def test_a_changed_hidden_http_part_is_a_launch_change(
    project: Project,
    capsys: pytest.CaptureFixture[str],
    before: dict[str, Any],
    after: dict[str, Any],
) -> None:
    with raw_http_server(project.defs) as url:

        def server(part: dict[str, Any]) -> dict[str, Any]:
            body: dict[str, Any] = {"type": "http", "url": url + part.get("query", "")}
            if "headers" in part:
                body["headers"] = part["headers"]
            return body

        project.configure(files=server(before))
        pin(capsys)
        assert project.check(capsys)[0] == 0
        project.configure(files=server(after))
        held = project.held(capsys)
        assert held["launch"].startswith("http: ")


# --- what the seal must and must not do -------------------------------------------------


def _hidden(project: Project, name: str = "files") -> dict[str, Any]:
    return {
        "command": sys.executable,
        "args": [str(RAWSERVER), str(project.defs), "--api-key", SECRET],
        "env": {"FIXTURE_TOKEN": SECRET},
    }


def test_an_unchanged_config_re_pins_byte_identically_and_checks_clean(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    project.configure(files=_hidden(project))
    pin(capsys)
    first = project.lock.read_bytes()
    code, servers = project.check(capsys)
    assert code == 0 and servers["files"]["status"] == "clean"
    pin(capsys)
    assert project.lock.read_bytes() == first
    assert project.check(capsys)[0] == 0


def test_the_seal_neither_contains_nor_reveals_the_secret(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    project.configure(files=_hidden(project))
    pin(capsys)
    data = project.lock.read_bytes()
    assert SECRET.encode() not in data
    (spec,) = load_servers(project.root, [project.root / ".mcp.json"], environ={})
    match = SEAL.search(spec.launch())
    assert match is not None and match.group(1).encode() in data
    seal = match.group(1)
    for fast in (hashlib.sha256(SECRET.encode()).hexdigest(), hashlib.sha256(data).hexdigest()):
        assert seal not in fast
    assert SECRET not in seal and SECRET[3:15].lower() not in seal


def test_two_servers_with_the_same_hidden_value_get_different_seals(project: Project) -> None:
    project.configure(
        a={"command": "srv", "env": {"K": SECRET}}, b={"command": "srv", "env": {"K": SECRET}}
    )
    a, b = load_servers(project.root, [project.root / ".mcp.json"], environ={})
    seal_a, seal_b = SEAL.search(a.launch()), SEAL.search(b.launch())
    assert seal_a and seal_b and seal_a.group(1) != seal_b.group(1)
    assert SEAL.sub("", a.launch()) == SEAL.sub("", b.launch())


def test_a_launch_with_nothing_hidden_is_unchanged() -> None:
    spec = ServerSpec(
        name="s",
        transport="stdio",
        source="t",
        command="npx",
        args=("-y", "@scope/server-x", "--port", "8080"),
    )
    assert spec.launch() == "stdio: npx -y @scope/server-x --port 8080"
    http = ServerSpec(name="h", transport="http", source="t", url="https://h.example/mcp")
    assert http.launch() == "http: https://h.example/mcp"


def test_args_that_join_to_the_same_text_are_told_apart() -> None:
    """``a b`` as one argument and as two print alike; what runs differs."""
    one = ServerSpec(
        name="s", transport="stdio", source="t", command="sh", args=("-c", "exec srv", "x")
    )
    two = ServerSpec(
        name="s", transport="stdio", source="t", command="sh", args=("-c", "exec", "srv", "x")
    )
    assert SEAL.sub("", one.launch()) == SEAL.sub("", two.launch())
    assert one.launch() != two.launch()


def test_a_hidden_change_is_accepted_locally_then_checked(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    project.configure(files=_hidden(project))
    pin(capsys)
    changed = _hidden(project)
    changed["env"] = {"FIXTURE_TOKEN": SECRET + "2"}
    project.configure(files=changed)
    project.held(capsys)
    code = main(["accept", "files/server", "--timeout", "10"])
    assert code == 0, capsys.readouterr().err
    capsys.readouterr()
    assert project.check(capsys)[0] == 0
    assert main(["log", "verify"]) == 0


def _lock(launch: str) -> Lockfile:
    return Lockfile({"files": ServerPin(Surface(server={"launch": launch}, instructions=None))})


def test_the_message_names_a_hidden_change_and_a_pin_made_before_seals() -> None:
    spec = ServerSpec(name="files", transport="stdio", source="t", command="srv", env={"A": "1"})
    other = ServerSpec(name="files", transport="stdio", source="t", command="srv", env={"A": "2"})
    launch = spec.launch()
    assert unreviewed_launch("files", launch, _lock(launch)) is None
    hidden = unreviewed_launch("files", launch, _lock(other.launch()))
    assert hidden is not None and hidden.status == Status.LAUNCH_CHANGED
    assert "a hidden part of the launch changed" in (hidden.error or "")
    old = unreviewed_launch("files", launch, _lock("stdio: srv  env: A"))  # pinned before seals
    assert old is not None and old.status == Status.LAUNCH_CHANGED
    assert "made before launches were sealed" in (old.error or "") and "accept files/server" in (
        old.error or ""
    )
    shown = unreviewed_launch("files", launch, _lock("stdio: other  env: A"))
    assert shown is not None and "hidden" not in (shown.error or "")
