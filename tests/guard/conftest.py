"""A project folder with a pinned fixture server, and SDK client sessions through the guard."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters, stdio_client

from tests.servers.harness import REPO_ROOT, write_defs

CALLSERVER = Path(__file__).resolve().parent / "callserver.py"
NAME = "files"


def cli(project: Path, *args: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    """The real ``mcplock-tui`` command line, run in ``project``."""
    return subprocess.run(
        [sys.executable, "-m", "mcplock_tui", *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@dataclass
class Project:
    root: Path
    defs: Path
    lock: Path

    @property
    def server_argv(self) -> list[str]:
        return [sys.executable, str(CALLSERVER), str(self.defs)]

    def edit_defs(self, change: Any) -> None:
        defs = json.loads(self.defs.read_text(encoding="utf-8"))
        change(defs)
        self.defs.write_text(json.dumps(defs, indent=2), encoding="utf-8")

    def guard_argv(self, *extra: str, server: Sequence[str] | None = None) -> list[str]:
        return [
            "-m",
            "mcplock_tui",
            "guard",
            "--name",
            NAME,
            "--lock",
            str(self.lock),
            "--timeout",
            "5",
            "--log",
            str(self.root / "guard.log"),
            *extra,
            "--",
            *(self.server_argv if server is None else server),
        ]


def make_project(root: Path, *, pin: bool = True, **defs: Any) -> Project:
    root.mkdir(parents=True, exist_ok=True)
    defs_path = write_defs(root / "defs.json", **defs)
    project = Project(root, defs_path, root / "mcplock.lock")
    config = {"mcpServers": {NAME: {"command": sys.executable, "args": project.server_argv[1:]}}}
    (root / ".mcp.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    if pin:
        done = cli(root, "pin")
        assert done.returncode == 0, done.stderr
    return project


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path / "proj")


@dataclass
class Session:
    client: Client
    notifications: list[str] = field(default_factory=list)
    changed: anyio.Event = field(default_factory=anyio.Event)


@asynccontextmanager
async def guarded(
    project: Project, *extra: str, server: Sequence[str] | None = None, read_timeout: float = 20.0
) -> AsyncIterator[Session]:
    """A real SDK client session, over stdio, to the guard in front of the fixture server."""
    params = StdioServerParameters(
        command=sys.executable,
        args=project.guard_argv(*extra, server=server),
        cwd=str(REPO_ROOT),
        encoding_error_handler="replace",
    )
    holder: list[Session] = []

    async def on_message(message: Any) -> None:
        root = getattr(message, "root", message)
        method = getattr(root, "method", None)
        if isinstance(method, str) and holder:
            holder[0].notifications.append(method)
            if method.endswith("list_changed"):
                holder[0].changed.set()

    with (project.root / "server-stderr.log").open("w") as errlog:
        client = Client(
            stdio_client(params, errlog=errlog),
            mode="legacy",
            cache=None,
            read_timeout_seconds=read_timeout,
            message_handler=on_message,
        )
        async with client:
            holder.append(Session(client))
            yield holder[0]


def leaf(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup):
        exc = exc.exceptions[0]
    return exc
