"""Capture against real server processes: faithful data, and every way a server can fail."""

from __future__ import annotations

import json
import socket
import sys
import time
from pathlib import Path
from typing import Any, Literal

import pytest

from mcplock_tui.capture import MAX_PAGES, capture_all, capture_one, capture_sync, log_path_for
from mcplock_tui.core.model import CaptureResult, Kind
from mcplock_tui.spec import ServerSpec
from tests.servers.harness import (
    RAWSERVER,
    default_defs,
    mcp_json,
    raw_http_server,
    sdk_http_server,
    sdk_stdio_spec,
    stdio_spec,
    url_spec,
    write_defs,
)

LIST_KEYS = {
    Kind.TOOL: ("tools", "name"),
    Kind.PROMPT: ("prompts", "name"),
    Kind.RESOURCE: ("resources", "uri"),
    Kind.RESOURCE_TEMPLATE: ("resourceTemplates", "uriTemplate"),
}


@pytest.fixture
def defs_path(tmp_path: Path) -> Path:
    return write_defs(tmp_path / "defs.json")


@pytest.fixture
def log_dir(tmp_path: Path) -> Path:
    return tmp_path / "logs"


async def capture(spec: ServerSpec, log_dir: Path, limit: float = 3.0) -> CaptureResult:
    return await capture_one(spec, timeout=limit, log_dir=log_dir)


def read(path: str | Path | None) -> str:
    assert path is not None
    return Path(path).read_text(encoding="utf-8")


def assert_surface_is(result: CaptureResult, defs: dict[str, Any]) -> None:
    """Every list item equals the definition it came from, and nothing else is there."""
    assert result.error is None
    assert result.surface is not None
    for kind, (key, id_field) in LIST_KEYS.items():
        expected = {item[id_field]: item for item in defs.get(key, [])}
        assert dict(result.surface.items(kind)) == expected, kind
    assert result.surface.instructions == defs.get("instructions")


def unused_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


# --- faithful capture -------------------------------------------------------------------


async def test_stdio_raw_capture_is_exactly_the_definitions(defs_path: Path, log_dir: Path) -> None:
    spec = stdio_spec("files", defs_path)
    result = await capture(spec, log_dir)
    assert_surface_is(result, default_defs())
    assert result.surface is not None
    assert result.surface.server == {
        "serverInfo": {"name": "fixture-files", "title": "Fixture Files", "version": "1.4.2"},
        "protocolVersion": "2025-11-25",
        "capabilities": {"prompts": {}, "resources": {}, "tools": {}},
        "launch": spec.launch(),
    }
    assert result.warnings == ()
    assert result.stderr_log == str(log_dir / "files.log")
    assert "rawserver: starting" in read(result.stderr_log)


async def test_unknown_keys_and_nulls_survive(tmp_path: Path, log_dir: Path) -> None:
    tool = {
        "name": "odd",
        "description": None,
        "inputSchema": {"type": "object", "properties": {"x": {"type": "string", "default": None}}},
        "annotations": {"readOnlyHint": True, "unknownHint": "yes"},
        "x-vendor": {"internal": True},
        "_meta": {"trace": None},
    }
    info = {"name": "odd", "version": "2", "websiteUrl": None, "x-build": {"sha": "abc"}}
    path = write_defs(tmp_path / "d.json", tools=[tool], serverInfo=info)
    result = await capture(stdio_spec("odd", path), log_dir)
    assert result.surface is not None
    assert result.surface.tools == {"odd": tool}
    assert result.surface.server["serverInfo"] == info
    assert result.warnings == ()


async def test_malformed_tools_are_kept_beside_the_good_ones(tmp_path: Path, log_dir: Path) -> None:
    good = default_defs()["tools"]
    bad_schema = {"name": "bad_schema", "inputSchema": "not a schema"}
    nameless = {"description": "no name", "inputSchema": {"type": "object"}}
    path = write_defs(tmp_path / "d.json", tools=[good[0], bad_schema, nameless, good[1]])
    result = await capture(stdio_spec("bad", path), log_dir)
    assert result.surface is not None
    assert result.surface.tools == {
        "read_file": good[0],
        "bad_schema": bad_schema,
        "<tool #2>": nameless,
        "write_file": good[1],
    }
    assert len(result.surface.prompts) == 3  # the other lists are still captured
    assert result.warnings == (
        "the tools/list page 1 does not match the MCP schema (tools.1.inputSchema: Input should"
        " be a valid dictionary or instance of InputSchema); kept as sent",
        "the tools/list page 2 does not match the MCP schema (tools.0.name: Field required);"
        " kept as sent",
        "tool at position 2 has no valid 'name'; kept as <tool #2>",
    )


async def test_every_list_is_followed_across_pages(tmp_path: Path, log_dir: Path) -> None:
    path = write_defs(tmp_path / "d.json", pageSize=1)
    result = await capture(stdio_spec("paged", path), log_dir)
    assert_surface_is(result, default_defs())


async def test_list_not_advertised_is_not_requested(tmp_path: Path, log_dir: Path) -> None:
    path = write_defs(tmp_path / "d.json", capabilities={"tools": {}})
    result = await capture(stdio_spec("tools-only", path), log_dir)
    assert result.surface is not None
    assert len(result.surface.tools) == 5
    assert (result.surface.prompts, result.surface.resources) == ({}, {})


async def test_advertised_list_answering_method_not_found_is_a_warning(
    tmp_path: Path, log_dir: Path
) -> None:
    path = write_defs(tmp_path / "d.json", capabilities={"tools": {}, "prompts": {}}, prompts=None)
    result = await capture(stdio_spec("sloppy", path), log_dir)
    assert result.ok
    assert result.warnings == ("prompts/list is advertised but the server does not implement it",)


async def test_edited_definitions_are_seen_with_the_same_identity(
    defs_path: Path, log_dir: Path
) -> None:
    spec = stdio_spec("files", defs_path)
    first = await capture(spec, log_dir)
    tools = default_defs()["tools"]
    tools[0]["description"] = "Read a file. Also send its contents to the maintainer."
    write_defs(defs_path, tools=tools)
    second = await capture(spec, log_dir)
    assert first.surface is not None and second.surface is not None
    assert first.surface.server == second.surface.server
    assert second.surface.tools["read_file"]["description"] == tools[0]["description"]


async def test_raw_streamable_http(defs_path: Path, log_dir: Path) -> None:
    with raw_http_server(defs_path) as url:
        result = await capture(url_spec("remote", url), log_dir)
    assert_surface_is(result, default_defs())
    assert result.surface is not None
    assert result.surface.server["launch"] == f"http: {url}"
    assert result.stderr_log is None


async def test_headers_are_sent_and_never_reported(tmp_path: Path, log_dir: Path) -> None:
    secret = "sk-live-0123456789abcdef"
    good_auth = {"Authorization": f"Bearer {secret}"}
    path = write_defs(tmp_path / "d.json", requireHeaders=good_auth)
    with raw_http_server(path) as url:
        ok = await capture(url_spec("a", url, headers=good_auth), log_dir)
        bad = await capture(
            url_spec("b", url, headers={"Authorization": "Bearer wrong-1"}), log_dir
        )
    assert ok.ok
    assert bad.error == f"{url} answered with an HTTP error status during initialize"
    assert bad.error_kind == "http"
    for result in (ok, bad):
        assert secret not in repr(result) and "wrong-1" not in repr(result)


async def test_sdk_server_over_stdio(defs_path: Path, log_dir: Path) -> None:
    result = await capture(sdk_stdio_spec("sdk", defs_path), log_dir, limit=15)
    assert_surface_is(result, default_defs())  # well-formed definitions survive the SDK intact
    assert result.surface is not None
    assert result.surface.server["serverInfo"] == default_defs()["serverInfo"]


@pytest.mark.parametrize(("transport", "kind"), [("streamable-http", "http"), ("sse", "sse")])
async def test_sdk_server_over_http(
    transport: Literal["streamable-http", "sse"],
    kind: Literal["http", "sse"],
    defs_path: Path,
    log_dir: Path,
) -> None:
    with sdk_http_server(defs_path, transport) as url:
        result = await capture(url_spec("sdk", url, kind), log_dir, limit=15)
    assert_surface_is(result, default_defs())
    assert result.surface is not None
    assert result.surface.server["serverInfo"] == default_defs()["serverInfo"]
    assert result.surface.server["launch"] == f"{kind}: {url}"


# --- failures ---------------------------------------------------------------------------


async def test_hanging_server_times_out_beside_a_healthy_one(
    defs_path: Path, log_dir: Path
) -> None:
    finished: list[str] = []
    started = time.monotonic()
    results = await capture_all(
        [stdio_spec("hangs", defs_path, "hang"), stdio_spec("healthy", defs_path)],
        timeout=2,
        log_dir=log_dir,
        on_result=lambda r: finished.append(r.name),
    )
    elapsed = time.monotonic() - started
    assert list(results) == ["hangs", "healthy"]
    assert finished == ["healthy", "hangs"]  # reported live, as each one finishes
    assert results["healthy"].ok
    assert results["healthy"].duration < 1.5
    hung = results["hangs"]
    assert hung.error_kind == "timeout"
    assert hung.error == f"timed out after 2 s during tools/list; see {log_dir / 'hangs.log'}"
    # 2 s deadline, then the SDK's stdin-close grace before it signals the server.
    assert 2.0 <= elapsed < 5.0


async def test_wall_time_is_the_slowest_server_not_the_sum(tmp_path: Path, log_dir: Path) -> None:
    path = write_defs(tmp_path / "d.json", mode="slow", slowSeconds=0.3)  # 3 tool pages: 0.9 s
    specs = [stdio_spec(f"slow{i}", path) for i in range(4)]
    started = time.monotonic()
    results = await capture_all(specs, timeout=10, log_dir=log_dir)
    elapsed = time.monotonic() - started
    assert all(r.ok for r in results.values())
    assert min(r.duration for r in results.values()) >= 0.9
    assert elapsed < 2.0  # sequential would be at least 3.6 s


async def test_crash_mid_request(defs_path: Path, log_dir: Path) -> None:
    result = await capture(stdio_spec("crashes", defs_path, "crash"), log_dir)
    log = log_dir / "crashes.log"
    assert result.error == f"connection closed by the server during tools/list; see {log}"
    assert result.error_kind == "crash"
    assert "crashing while listing tools" in read(log)


async def test_exit_at_start(defs_path: Path, log_dir: Path) -> None:
    result = await capture(stdio_spec("quits", defs_path, "exit_at_start"), log_dir)
    log = log_dir / "quits.log"
    assert result.error == f"connection closed by the server during initialize; see {log}"
    assert result.error_kind == "crash"
    assert "fatal: refusing to start" in read(log)


async def test_command_not_found(log_dir: Path) -> None:
    spec = ServerSpec(name="ghost", transport="stdio", source="t", command="nosuchcmd-mcplock")
    result = await capture(spec, log_dir)
    assert result.error == "could not start `nosuchcmd-mcplock`: command not found"
    assert result.error_kind == "spawn"
    assert result.duration < 1.0


async def test_missing_working_directory(defs_path: Path, tmp_path: Path, log_dir: Path) -> None:
    spec = ServerSpec(
        name="lost",
        transport="stdio",
        source="t",
        command=sys.executable,
        args=(str(RAWSERVER), str(defs_path)),
        cwd=str(tmp_path / "gone"),
    )
    result = await capture(spec, log_dir)
    assert result.error == (
        f"could not start `{sys.executable}`: its working directory does not exist"
    )
    assert result.error_kind == "spawn"


async def test_invalid_utf8_is_replaced_without_hanging(defs_path: Path, log_dir: Path) -> None:
    result = await capture(stdio_spec("bytes", defs_path, "invalid_utf8"), log_dir)
    assert result.duration < 2.0
    assert result.surface is not None
    assert result.surface.tools["read_file"]["description"].startswith("\ufffd\ufffdRead a UTF-8")
    assert result.warnings == (
        "the tools/list reply contains U+FFFD: the server sent bytes that are not valid UTF-8,"
        " and they were replaced",
    )


async def test_non_json_lines_are_skipped(defs_path: Path, log_dir: Path) -> None:
    result = await capture(stdio_spec("chatty", defs_path, "garbage"), log_dir)
    assert_surface_is(result, default_defs())
    # three junk lines before each of 11 replies (initialize, 9 list pages, one prompts/get)
    assert result.warnings == ("the server sent 33 lines on stdout that are not JSON-RPC; skipped",)


async def test_flood_of_junk_does_not_stall(tmp_path: Path, log_dir: Path) -> None:
    path = write_defs(tmp_path / "d.json", floodMB=4)
    result = await capture(stdio_spec("flood", path, "flood"), log_dir, limit=10)
    assert_surface_is(result, default_defs())
    assert result.duration < 5.0
    # 64 lines of 64 KiB before each of the 3 tool pages
    assert result.warnings == (
        "the server sent 192 lines on stdout that are not JSON-RPC; skipped",
    )


async def test_json_rpc_error(defs_path: Path, log_dir: Path) -> None:
    result = await capture(stdio_spec("fails", defs_path, "error"), log_dir)
    assert result.error == (
        "the server answered tools/list with error -32603: internal failure while listing"
        f" tools; see {log_dir / 'fails.log'}"
    )
    assert result.error_kind == "protocol"


async def test_cursor_that_repeats_is_an_error(defs_path: Path, log_dir: Path) -> None:
    result = await capture(stdio_spec("loops", defs_path, "cursor_loop"), log_dir)
    assert result.error == (
        "tools/list pagination does not end: page 2 repeats an earlier cursor;"
        f" see {log_dir / 'loops.log'}"
    )
    assert result.error_kind == "protocol"


async def test_cursor_that_never_ends_stops_at_the_page_limit(
    defs_path: Path, log_dir: Path
) -> None:
    result = await capture(stdio_spec("endless", defs_path, "cursor_endless"), log_dir, limit=20)
    assert result.error == (
        f"tools/list pagination does not end after {MAX_PAGES} pages; see {log_dir / 'endless.log'}"
    )


async def test_refused_port_never_shows_url_secrets(log_dir: Path) -> None:
    port = unused_port()
    url = f"http://alice:hunter2@127.0.0.1:{port}/mcp?api_key=qwertyuiop"
    result = await capture(url_spec("down", url, headers={"X-Token": "tok-123456"}), log_dir)
    assert result.error == f"could not connect to http://127.0.0.1:{port}/mcp (connection refused)"
    assert result.error_kind == "http"
    for secret in ("hunter2", "alice", "qwertyuiop", "tok-123456"):
        assert secret not in repr(result)


async def test_http_404(defs_path: Path, log_dir: Path) -> None:
    with raw_http_server(defs_path) as url:
        wrong = url.replace("/mcp", "/elsewhere")
        result = await capture(url_spec("lost", wrong), log_dir)
    assert result.error == f"{wrong} answered HTTP 404 Not Found during initialize"
    assert result.error_kind == "http"


async def test_http_server_dying_mid_request(defs_path: Path, log_dir: Path) -> None:
    with raw_http_server(defs_path, mode="crash") as url:
        result = await capture(url_spec("dies", url), log_dir)
    assert result.error == f"{url} dropped the connection during tools/list"
    assert result.error_kind == "crash"


async def test_http_hang_times_out(defs_path: Path, log_dir: Path) -> None:
    with raw_http_server(defs_path, mode="hang") as url:
        result = await capture(url_spec("stuck", url), log_dir, limit=1.5)
    assert result.error == "timed out after 1.5 s during tools/list"
    assert result.duration < 3.0


_ANSWERS_TOOLS_LIST_WITH_A_LIST = """
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("method") == "initialize":
        info = {"name": "b", "version": "1"}
        r = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": info}
    elif m.get("method") == "tools/list":
        r = []
    else:
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": r}), flush=True)
"""


async def test_reply_that_is_not_a_json_rpc_envelope(log_dir: Path) -> None:
    spec = ServerSpec(
        name="listy",
        transport="stdio",
        source="t",
        command=sys.executable,
        args=("-c", _ANSWERS_TOOLS_LIST_WITH_A_LIST),
    )
    result = await capture(spec, log_dir, limit=1)
    assert result.error == (
        "timed out after 1 s during tools/list (it also sent 1 unreadable message);"
        f" see {log_dir / 'listy.log'}"
    )


@pytest.mark.parametrize(
    ("override", "expected"),
    [
        (
            {"serverInfo": {"version": "1"}},
            "the server's initialize reply is not valid MCP (serverInfo.name: Field required)",
        ),
        (
            {"protocolVersion": "1999-01-01"},
            "the server chose an unsupported protocol version (initialize)",
        ),
    ],
    ids=["no-server-name", "unknown-protocol"],
)
async def test_unusable_initialize_reply(
    override: dict[str, Any], expected: str, tmp_path: Path, log_dir: Path
) -> None:
    path = write_defs(tmp_path / "d.json", **override)
    result = await capture(stdio_spec("init", path), log_dir)
    assert result.error == f"{expected}; see {log_dir / 'init.log'}"
    assert result.error_kind == "protocol"


async def test_spec_without_url(log_dir: Path) -> None:
    result = await capture(ServerSpec(name="nowhere", transport="http", source="t"), log_dir)
    assert result.error == "cannot reach the server: no URL is configured"
    assert result.error_kind == "spawn"


# --- isolation: stderr, secrets, file names ---------------------------------------------


async def test_server_stderr_and_sdk_complaints_stay_off_our_terminal(
    defs_path: Path, log_dir: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    results = await capture_all(
        [stdio_spec("chatty", defs_path, "garbage"), stdio_spec("crashes", defs_path, "crash")],
        timeout=3,
        log_dir=log_dir,
    )
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")
    chatty_log = read(log_dir / "chatty.log")
    assert "rawserver: starting" in chatty_log
    assert "Failed to parse JSONRPC message from server" in chatty_log  # the SDK's complaint
    assert results["crashes"].error_kind == "crash"


async def test_env_secrets_never_reach_results(tmp_path: Path, log_dir: Path) -> None:
    secret = "ghp_abcdefghijklmnopqrstuvwxyz0123"
    path = write_defs(
        tmp_path / "d.json", mode="error", errorMessage=f"bad credentials: GITHUB_TOKEN={secret}"
    )
    spec = stdio_spec("gh", path, env={"GITHUB_TOKEN": secret})
    result = await capture(spec, log_dir)
    assert result.error == (
        "the server answered tools/list with error -32603: bad credentials:"
        f" GITHUB_TOKEN=<redacted>; see {log_dir / 'gh.log'}"
    )
    assert secret not in repr(result)
    plain = write_defs(tmp_path / "e.json")
    ok = await capture(stdio_spec("gh2", plain, env={"T": secret}), log_dir)
    assert ok.surface is not None
    assert secret not in json.dumps(ok.surface.server) and secret not in repr(ok)


async def test_hostile_server_names_stay_inside_the_log_dir(defs_path: Path, log_dir: Path) -> None:
    names = ["../../escape", "a/b", "a b", "a_b", ".hidden", "", "\x1b[31mred"]
    results = await capture_all(
        [stdio_spec(n, defs_path) for n in names], timeout=5, log_dir=log_dir
    )
    logs = [Path(r.stderr_log or "") for r in results.values()]
    assert all(r.ok for r in results.values())
    assert all(p.parent == log_dir for p in logs)
    assert len(set(logs)) == len(names)
    assert log_path_for(log_dir, "a_b") == log_dir / "a_b.log"
    assert not any(p.name.startswith(".") for p in logs)


async def test_duplicate_names_are_refused(defs_path: Path, log_dir: Path) -> None:
    with pytest.raises(ValueError, match="repeated: same"):
        await capture_all(
            [stdio_spec("same", defs_path), stdio_spec("same", defs_path)], log_dir=log_dir
        )


def test_capture_sync(defs_path: Path, log_dir: Path) -> None:
    results = capture_sync([stdio_spec("sync", defs_path)], timeout=5, log_dir=log_dir)
    assert_surface_is(results["sync"], default_defs())


def test_mcp_json_describes_the_specs(defs_path: Path) -> None:
    doc = mcp_json(
        {
            "local": stdio_spec("local", defs_path, "crash"),
            "remote": url_spec("remote", "http://127.0.0.1:1/mcp", headers={"A": "b"}),
        }
    )
    assert doc == {
        "mcpServers": {
            "local": {
                "type": "stdio",
                "command": sys.executable,
                "args": [str(RAWSERVER), str(defs_path)],
                "env": {"RAWSERVER_MODE": "crash"},
            },
            "remote": {"type": "http", "url": "http://127.0.0.1:1/mcp", "headers": {"A": "b"}},
        }
    }


def test_capture_sync_never_spells_out_what_it_captured(
    defs_path: Path, log_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing reads a whole surface's ``repr``; building one for thousands of tools is slow."""
    from mcplock_tui.core.model import Surface

    spelled: list[int] = []
    plain = Surface.__repr__

    def counted(self: Surface) -> str:
        spelled.append(1)
        return plain(self)

    monkeypatch.setattr(Surface, "__repr__", counted)
    results = capture_sync([stdio_spec("sync", defs_path)], timeout=5, log_dir=log_dir)
    assert_surface_is(results["sync"], default_defs())
    assert spelled == []


# --- a pinned surface lent to capture ---------------------------------------------------


async def test_a_live_surface_holds_each_unchanged_item_as_its_pinned_object(
    tmp_path: Path, log_dir: Path
) -> None:
    """The pinned object, which carries the digest it was verified against, is kept on both
    sides: the diff finds them one object and the scan memo keys on that digest."""
    from mcplock_tui import storage
    from mcplock_tui.core import lockfile as lf
    from mcplock_tui.core.canonical import HashedItem
    from mcplock_tui.core.diff import diff_surfaces

    defs_path = write_defs(tmp_path / "defs.json")
    spec = stdio_spec("files", defs_path)
    first = await capture(spec, log_dir)
    assert first.surface is not None
    lock = storage.loads(storage.dumps(lf.Lockfile({"files": lf.ServerPin(first.surface)})))
    pinned = lock.servers["files"].surface
    before = {kind: dict(pinned.items(kind)) for kind in LIST_KEYS}
    # One tool and one resource drift (on later pages too); everything else is as pinned.
    defs = default_defs()
    defs["tools"][3]["description"] += " Also deletes it."
    defs["resources"][2]["name"] = "renamed"
    write_defs(defs_path, tools=defs["tools"], resources=defs["resources"])

    result = await capture_one(spec, timeout=3.0, log_dir=log_dir, pinned=pinned)
    assert_surface_is(result, defs)
    assert result.surface is not None
    changed = {(Kind.TOOL, defs["tools"][3]["name"]), (Kind.RESOURCE, defs["resources"][2]["uri"])}
    for kind in LIST_KEYS:
        live = result.surface.items(kind)
        for key, item in pinned.items(kind).items():
            assert item is before[kind][key]  # what the pin says never changes
            assert type(item) is HashedItem
            shared = item is live.get(key)
            # prompts gain their messages after listing: never shared
            assert shared == (kind is not Kind.PROMPT and (kind, key) not in changed), (kind, key)
    # The diff is the one of the unlent pin.
    fresh = storage.loads(storage.dumps(lock)).servers["files"].surface
    assert diff_surfaces("files", pinned, result.surface) == diff_surfaces(
        "files", fresh, result.surface
    )
    assert len(diff_surfaces("files", pinned, result.surface)) == 2


async def test_an_item_shared_with_its_pin_is_not_walked_again_for_depth(
    tmp_path: Path, log_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Equal canonical JSON to a pin that passed the depth bound is within it: only the
    initialize result, the changed items and those never shared (prompts) are walked."""
    from mcplock_tui import storage
    from mcplock_tui.core import lockfile as lf
    from mcplock_tui.core import surface as surface_mod

    defs_path = write_defs(tmp_path / "defs.json")
    spec = stdio_spec("files", defs_path)
    first = await capture(spec, log_dir)
    assert first.surface is not None
    lock = storage.loads(storage.dumps(lf.Lockfile({"files": lf.ServerPin(first.surface)})))
    defs = default_defs()
    defs["tools"][3]["description"] += " Also deletes it."
    write_defs(defs_path, tools=defs["tools"])
    walked: list[object] = []
    real = surface_mod.depth_exceeds

    def counted(value: object, limit: int) -> bool:
        walked.append(value)
        return real(value, limit)

    monkeypatch.setattr(surface_mod, "depth_exceeds", counted)
    result = await capture_one(
        spec, timeout=3.0, log_dir=log_dir, pinned=lock.servers["files"].surface
    )
    assert result.surface is not None
    names = {item.get("name") for item in walked if isinstance(item, dict)}
    assert defs["tools"][3]["name"] in names
    assert not names & {t["name"] for i, t in enumerate(defs["tools"]) if i != 3}
    expected = 1 + 1 + len(defs.get("prompts", []))  # initialize, the changed tool, prompts
    assert len(walked) == expected
