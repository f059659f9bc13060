"""The real reference filesystem server (npm) through the guard, pinned with the real CLI."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from mcp import Client, MCPError, StdioServerParameters, stdio_client

from tests.guard.conftest import cli
from tests.servers.harness import REPO_ROOT

NPX = shutil.which("npx")
PACKAGE = "@modelcontextprotocol/server-filesystem"
pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(NPX is None, reason="npx is not installed, so the npm server cannot run"),
]


async def test_filesystem_server_through_the_guard(tmp_path: Path) -> None:
    assert NPX is not None
    files = tmp_path / "files"
    files.mkdir()
    (files / "hello.txt").write_text("hello from the guarded server\n")
    server = [NPX, "-y", PACKAGE, str(files)]
    config = {"mcpServers": {"fs": {"command": server[0], "args": server[1:]}}}
    (tmp_path / ".mcp.json").write_text(json.dumps(config))
    pinned = cli(tmp_path, "pin", "--timeout", "120", timeout=180)
    if pinned.returncode != 0 and "could not" in pinned.stderr.lower():
        pytest.skip(f"the npm package could not be fetched or started: {pinned.stderr.strip()}")
    assert pinned.returncode == 0, pinned.stderr
    assert cli(tmp_path, "guard", "install").returncode == 0
    entry = json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]["fs"]
    params = StdioServerParameters(command=entry["command"], args=entry["args"], cwd=str(REPO_ROOT))
    with (tmp_path / "err.log").open("w") as errlog:
        async with Client(
            stdio_client(params, errlog=errlog), mode="legacy", cache=None, read_timeout_seconds=120
        ) as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            assert {"read_text_file", "list_directory", "write_file"} <= tools
            result = await client.call_tool("read_text_file", {"path": str(files / "hello.txt")})
            assert "hello from the guarded server" in result.content[0].text  # type: ignore[union-attr]
            with pytest.raises(MCPError, match="mcplock-tui"):
                await client.call_tool("a_tool_nobody_reviewed", {})
    assert cli(tmp_path, "--check").returncode == 0  # --check still reaches the real server
