"""Config discovery, parsing, expansion and the errors a user sees for each mistake."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcplock_tui.config import (
    PROJECT_FILES,
    _strip_jsonc,
    desktop_config_path,
    discover_config_files,
    load_servers,
)
from mcplock_tui.errors import ConfigError
from mcplock_tui.spec import SEAL_MARK, ServerSpec, Transport

SECRET = "hunter2-Zq9xv"
BAD_URL = "url: must be an http:// or https:// URL with a host"
NO_COMMAND = "command: a non-empty string is required for transport stdio"
NEITHER = "command/url: one is required (command for stdio, url for http/sse)"
NOT_SET = "environment variable NOPE is not set"
EXPECTING_NAME = "Expecting property name enclosed in double quotes"
STDIO = {"command": "npx", "args": ["-y", "pkg"], "env": {"A": "1"}}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "proj"
    path.mkdir()
    return path


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


def write(root: Path, rel: str, doc: object) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path


def load(root: Path, **kw: Any) -> list[ServerSpec]:
    kw.setdefault("environ", {})
    kw.setdefault("home", root.parent / "home")
    return load_servers(root, **kw)


def error_of(root: Path, **kw: Any) -> str:
    with pytest.raises(ConfigError) as info:
        load(root, **kw)
    return str(info.value)


def one(root: Path, body: object, environ: dict[str, str] | None = None) -> ServerSpec:
    write(root, ".mcp.json", {"mcpServers": {"s": body}})
    (spec,) = load(root, environ=environ or {})
    return spec


# --- formats -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rel", "doc"),
    [
        pytest.param(".mcp.json", {"mcpServers": {"s": STDIO}}, id="claude-code"),
        pytest.param(".cursor/mcp.json", {"mcpServers": {"s": STDIO}}, id="cursor"),
        pytest.param(
            ".vscode/mcp.json",
            {
                "inputs": [{"type": "promptString", "id": "tok", "password": True}],
                "servers": {"s": {"type": "stdio", "envFile": "x.env", **STDIO}},
            },
            id="vscode",
        ),
        pytest.param(
            "claude_desktop_config.json",
            {"globalShortcut": "", "mcpServers": {"s": {**STDIO, "x-extra": [1]}}},
            id="claude-desktop",
        ),
    ],
)
def test_reads_stdio_entry_from_each_client_format(project: Path, rel: str, doc: object) -> None:
    path = write(project, rel, doc)
    assert load(project) == [
        ServerSpec(
            name="s",
            transport="stdio",
            source=str(path),
            command="npx",
            args=("-y", "pkg"),
            env={"A": "1"},
            raw_command="npx",
            raw_args=("-y", "pkg"),
            raw_env={"A": "1"},
        )
    ]


@pytest.mark.parametrize(
    ("rel", "key", "body", "transport"),
    [
        pytest.param(".mcp.json", "mcpServers", {"type": "http"}, "http", id="claude-code-http"),
        pytest.param(".cursor/mcp.json", "mcpServers", {}, "http", id="cursor-http"),
        pytest.param(".vscode/mcp.json", "servers", {"type": "sse"}, "sse", id="vscode-sse"),
    ],
)
def test_reads_remote_entry_from_each_client_format(
    project: Path, rel: str, key: str, body: dict[str, str], transport: Transport
) -> None:
    url = "https://h.example/mcp"
    path = write(project, rel, {key: {"s": {**body, "url": url, "headers": {"X": "1"}}}})
    assert load(project) == [
        ServerSpec(
            name="s",
            transport=transport,
            source=str(path),
            url=url,
            headers={"X": "1"},
            raw_url=url,
            raw_headers={"X": "1"},
        )
    ]


@pytest.mark.parametrize("key", ["mcpServers", "servers"])
def test_explicit_config_reads_only_that_file_in_either_shape(project: Path, key: str) -> None:
    write(project, ".mcp.json", {"mcpServers": {"other": STDIO}})
    path = write(project, "conf/any-name.json", {key: {"s": STDIO}})
    specs = load(project, config_paths=[Path("conf/any-name.json"), path])
    assert [(s.name, s.source) for s in specs] == [("s", str(path))]


def test_results_are_sorted_by_name(project: Path) -> None:
    write(project, ".mcp.json", {"mcpServers": dict.fromkeys(("zeta", "beta", "Alpha"), STDIO)})
    write(project, ".cursor/mcp.json", {"mcpServers": {"gamma": STDIO}})
    assert [s.name for s in load(project)] == ["Alpha", "beta", "gamma", "zeta"]


# --- transports --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "transport"),
    [
        pytest.param({"command": "srv"}, "stdio", id="command"),
        pytest.param({"url": "http://127.0.0.1:1/mcp"}, "http", id="url"),
        pytest.param({"url": "http://127.0.0.1:1/sse"}, "sse", id="url-sse"),
        pytest.param({"url": "http://127.0.0.1:1/v1/sse/"}, "sse", id="url-sse-slash"),
        pytest.param({"url": "http://127.0.0.1:1/sse?k=1"}, "sse", id="url-sse-query"),
        pytest.param({"url": "http://127.0.0.1:1/ssex"}, "http", id="url-ssex"),
        pytest.param({"url": "http://127.0.0.1:1/sse/mcp"}, "http", id="url-sse-dir"),
        pytest.param({"url": "${BASE}/sse"}, "sse", id="url-expanded-sse"),
        pytest.param({"type": "stdio", "command": "srv"}, "stdio", id="type-stdio"),
        pytest.param({"type": "http", "url": "http://h/sse"}, "http", id="type-http"),
        pytest.param({"type": "streamable-http", "url": "http://h/x"}, "http", id="type-dash"),
        pytest.param({"type": "streamableHttp", "url": "http://h/x"}, "http", id="type-camel"),
        pytest.param({"type": "sse", "url": "http://h/mcp"}, "sse", id="type-sse"),
        pytest.param({"type": "SSE", "url": "http://h/mcp"}, "sse", id="type-upper"),
        pytest.param(
            {"type": "stdio", "command": "srv", "url": "http://h"}, "stdio", id="type-wins"
        ),
    ],
)
def test_transport(project: Path, body: dict[str, object], transport: str) -> None:
    assert one(project, body, {"BASE": "http://127.0.0.1:1"}).transport == transport


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        pytest.param("npx srv", "definition must be an object, got string", id="not-object"),
        pytest.param({"args": ["a"]}, NEITHER, id="neither"),
        pytest.param(
            {"command": "x", "url": "http://h"},
            "type: both command and url are set; add type to choose one",
            id="both",
        ),
        pytest.param(
            {"type": "websocket", "url": "ws://h"},
            "type: unknown transport 'websocket'; expected stdio, http or sse",
            id="bad-type",
        ),
        pytest.param(
            {"type": 3, "command": "x"}, "type: must be a string, got number", id="type-number"
        ),
        pytest.param(
            {"type": "stdio", "url": "http://h"},
            NO_COMMAND,
            id="stdio-no-command",
        ),
        pytest.param(
            {"type": "sse", "command": "x"},
            "url: a non-empty string is required for transport sse",
            id="sse-no-url",
        ),
        pytest.param({"command": ""}, NO_COMMAND, id="empty-command"),
        pytest.param(
            {"command": ["npx"]}, "command: must be a string, got array", id="command-array"
        ),
        pytest.param(
            {"command": "x", "args": "a b"},
            "args: must be an array of strings, got string",
            id="args-string",
        ),
        pytest.param(
            {"command": "x", "args": ["a", 1]},
            "args[1]: must be a string, got number",
            id="args-item",
        ),
        pytest.param(
            {"command": "x", "env": ["A=1"]},
            "env: must be an object of strings, got array",
            id="env-array",
        ),
        pytest.param(
            {"command": "x", "env": {"PORT": 8080}},
            "env.PORT: must be a string, got number",
            id="env-number",
        ),
        pytest.param(
            {"command": "x", "env": {"A": None}}, "env.A: must be a string, got null", id="env-null"
        ),
        pytest.param(
            {"command": "x", "cwd": 1}, "cwd: must be a string, got number", id="cwd-number"
        ),
        pytest.param(
            {"url": "http://h/mcp", "headers": {"X": True}},
            "headers.X: must be a string, got boolean",
            id="header-bool",
        ),
        pytest.param(
            {"url": "http://h/mcp", "headers": "X: 1"},
            "headers: must be an object of strings, got string",
            id="headers-string",
        ),
        pytest.param({"url": "ftp://h/x"}, BAD_URL, id="url-scheme"),
        pytest.param({"url": "localhost:3000/mcp"}, BAD_URL, id="url-no-scheme"),
        pytest.param({"url": "http://[::1/mcp"}, BAD_URL, id="url-unparsable"),
        pytest.param(
            {"command": "x", "disabled": "yes"},
            "disabled: must be true or false, got string",
            id="disabled-string",
        ),
        pytest.param(
            {"command": "${EMPTY:-}"},
            "command: is empty after variable expansion",
            id="command-expands-empty",
        ),
    ],
)
def test_invalid_entry_names_file_server_and_key(project: Path, body: object, problem: str) -> None:
    path = write(project, ".mcp.json", {"mcpServers": {"s": body}})
    assert error_of(project) == f"{path}: server 's': {problem}"


@pytest.mark.parametrize(
    ("doc", "problem"),
    [
        pytest.param([], "top level must be a JSON object, got array", id="top-array"),
        pytest.param(
            {"mcpServers": []},
            "mcpServers must be an object of server definitions, got array",
            id="mcpServers-array",
        ),
        pytest.param(
            {"servers": "x"},
            "servers must be an object of server definitions, got string",
            id="servers-string",
        ),
        pytest.param(
            {"mcpServers": {}, "servers": {}},
            "has both mcpServers and servers; keep one",
            id="both",
        ),
        pytest.param({"mcpServers": {" ": STDIO}}, "a server name is empty", id="blank-name"),
    ],
)
def test_invalid_file_shape(project: Path, doc: object, problem: str) -> None:
    path = write(project, ".mcp.json", doc)
    assert error_of(project) == f"{path}: {problem}"


@pytest.mark.parametrize(
    ("servers", "what"),
    [
        pytest.param({}, "MCP servers", id="empty"),
        pytest.param({"s": {**STDIO, "disabled": True}}, "enabled MCP servers", id="all-disabled"),
    ],
)
def test_no_servers_is_an_error(project: Path, servers: object, what: str) -> None:
    path = write(project, ".vscode/mcp.json", {"inputs": [], "servers": servers})
    assert error_of(project) == (
        f"no {what} defined in {path} (expected an object under mcpServers or servers)"
    )


# --- expansion ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("template", "environ", "expected"),
    [
        pytest.param("${TOKEN}", {"TOKEN": "t0k"}, "t0k", id="var"),
        pytest.param("${env:TOKEN}", {"TOKEN": "t0k"}, "t0k", id="vscode-env"),
        pytest.param("a-${A}-${B}-z", {"A": "1", "B": "2"}, "a-1-2-z", id="several"),
        pytest.param("${MISSING:-fall back}", {}, "fall back", id="default-unset"),
        pytest.param("${EMPTY:-fb}", {"EMPTY": ""}, "fb", id="default-empty"),
        pytest.param("${SET:-fb}", {"SET": "v"}, "v", id="default-set"),
        pytest.param("${MISSING:-}", {}, "", id="empty-default"),
        pytest.param("${env:MISSING:-d}", {}, "d", id="vscode-env-default"),
        pytest.param("${EMPTY}", {"EMPTY": ""}, "", id="set-empty"),
        pytest.param("${REF}", {"REF": "${TOKEN}", "TOKEN": "t"}, "${TOKEN}", id="no-reexpansion"),
        pytest.param("$TOKEN $$ $", {"TOKEN": "t"}, "$TOKEN $$ $", id="bare-dollar"),
        pytest.param("${unterminated", {}, "${unterminated", id="unterminated"),
        pytest.param(
            "${workspaceFolder}/bin", {"workspaceFolder": "/evil"}, "<root>/bin", id="workspace"
        ),
        pytest.param("${workspaceFolderBasename}", {}, "proj", id="workspace-basename"),
        pytest.param("${userHome}/.cache", {}, "<home>/.cache", id="user-home"),
        pytest.param("a${/}b${pathSeparator}c", {}, f"a{os.sep}b{os.sep}c", id="separator"),
    ],
)
def test_expansion(project: Path, template: str, environ: dict[str, str], expected: str) -> None:
    spec = one(project, {"command": "srv", "args": [template]}, environ)
    want = expected.replace("<root>", str(project)).replace("<home>", str(project.parent / "home"))
    assert spec.args == (want,)
    assert spec.raw_args == (template,)


def test_expands_every_field_and_keeps_raw_strings(project: Path) -> None:
    environ = {"BIN": "/opt/bin", "TOK": SECRET, "DIR": "work"}
    path = write(
        project,
        ".mcp.json",
        {
            "mcpServers": {
                "local": {
                    "command": "${BIN}/srv",
                    "args": ["--token", "${TOK}"],
                    "env": {"API_KEY": "${TOK}"},
                    "cwd": "${DIR}",
                },
                "remote": {
                    "url": "https://${HOST:-h.example}/mcp?key=${TOK}",
                    "headers": {"Authorization": "Bearer ${TOK}"},
                },
            }
        },
    )
    assert load(project, environ=environ) == [
        ServerSpec(
            name="local",
            transport="stdio",
            source=str(path),
            command="/opt/bin/srv",
            args=("--token", SECRET),
            env={"API_KEY": SECRET},
            cwd=str(project / "work"),
            raw_command="${BIN}/srv",
            raw_args=("--token", "${TOK}"),
            raw_env={"API_KEY": "${TOK}"},
            raw_cwd="${DIR}",
        ),
        ServerSpec(
            name="remote",
            transport="http",
            source=str(path),
            url=f"https://h.example/mcp?key={SECRET}",
            headers={"Authorization": f"Bearer {SECRET}"},
            raw_url="https://${HOST:-h.example}/mcp?key=${TOK}",
            raw_headers={"Authorization": "Bearer ${TOK}"},
        ),
    ]


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        pytest.param({"command": "${NOPE}"}, "command: " + NOT_SET, id="command"),
        pytest.param({"command": "x", "args": ["a", "${NOPE}"]}, "args[1]: " + NOT_SET, id="args"),
        pytest.param(
            {"command": "x", "args": ["${env:NOPE}"]}, "args[0]: " + NOT_SET, id="env-form"
        ),
        pytest.param({"command": "x", "env": {"K": "${NOPE}"}}, "env.K: " + NOT_SET, id="env"),
        pytest.param({"command": "x", "cwd": "${NOPE}/w"}, "cwd: " + NOT_SET, id="cwd"),
        pytest.param({"url": "https://${NOPE}/mcp"}, "url: " + NOT_SET, id="url"),
        pytest.param(
            {"type": "http", "url": "https://${NOPE}/mcp"}, "url: " + NOT_SET, id="url-typed"
        ),
        pytest.param(
            {"url": "https://h/mcp", "headers": {"Authorization": "Bearer ${NOPE}"}},
            "headers.Authorization: " + NOT_SET,
            id="header",
        ),
    ],
)
def test_missing_variable_names_variable_server_and_file(
    project: Path, body: object, problem: str
) -> None:
    path = write(project, ".mcp.json", {"mcpServers": {"s": body}})
    assert error_of(project) == (
        f"{path}: server 's': {problem}; set it or write ${{NOPE:-default}}"
    )


@pytest.mark.parametrize(
    ("arg", "problem"),
    [
        pytest.param(
            "${input:token}",
            "${input:token} is prompted for by VS Code and cannot be resolved here; "
            "use ${env:NAME} instead",
            id="input",
        ),
        pytest.param("${command:pick}", "unsupported variable ${command:pick}", id="command"),
        pytest.param("${1BAD}", "unsupported variable ${1BAD}", id="bad-name"),
        pytest.param("${}", "unsupported variable ${}", id="empty"),
    ],
)
def test_unresolvable_variable_forms(project: Path, arg: str, problem: str) -> None:
    path = write(project, ".vscode/mcp.json", {"servers": {"s": {"command": "x", "args": [arg]}}})
    assert error_of(project) == f"{path}: server 's': args[0]: {problem}"


@pytest.mark.parametrize(
    ("rel", "cwd", "expected"),
    [
        pytest.param(".mcp.json", "sub", "<root>/sub", id="claude-code"),
        pytest.param(".cursor/mcp.json", "sub", "<root>/sub", id="cursor"),
        pytest.param(".vscode/mcp.json", "./sub/../other", "<root>/other", id="vscode"),
        pytest.param(".vscode/mcp.json", ".", "<root>", id="dot"),
        pytest.param(".mcp.json", "/abs/dir", "/abs/dir", id="absolute"),
        pytest.param(".mcp.json", "${workspaceFolder}/x", "<root>/x", id="workspace"),
        pytest.param("nested/conf.json", "sub", "<root>/nested/sub", id="explicit-file"),
    ],
)
def test_relative_cwd_resolves_against_project_root(
    project: Path, rel: str, cwd: str, expected: str
) -> None:
    key = "servers" if rel.startswith(".vscode") else "mcpServers"
    write(project, rel, {key: {"s": {"command": "x", "cwd": cwd}}})
    paths = [] if rel in PROJECT_FILES else [Path(rel)]
    (spec,) = load(project, config_paths=paths)
    assert spec.cwd == os.path.normpath(expected.replace("<root>", str(project)))


# --- secrets never reach the launch description ------------------------------------------


@pytest.mark.parametrize(
    ("body", "launch"),
    [
        pytest.param(
            {"command": "srv", "env": {"API_KEY": "${TOK}"}},
            "stdio: srv  env: API_KEY",
            id="env-ref",
        ),
        pytest.param(
            {"command": "srv", "env": {"API_KEY": SECRET}},
            "stdio: srv  env: API_KEY",
            id="env-literal",
        ),
        pytest.param(
            {"command": "srv", "args": ["--org", "${TOK}"]}, "stdio: srv --org ${TOK}", id="arg-ref"
        ),
        pytest.param(
            {"command": "srv", "args": ["--api-key=${TOK}"]},
            "stdio: srv --api-key=${TOK}",
            id="flag-ref",  # a reference holds no secret and is the form pin recommends
        ),
        pytest.param(
            {"command": "srv", "args": ["--token", SECRET]},
            "stdio: srv --token <redacted>",
            id="arg-literal",
        ),
        pytest.param(
            {"url": "https://h.example/mcp", "headers": {"Authorization": "Bearer ${TOK}"}},
            "http: https://h.example/mcp  headers: Authorization",
            id="header-ref",
        ),
        pytest.param(
            {"url": "https://h.example/mcp", "headers": {"X-Key": SECRET}},
            "http: https://h.example/mcp  headers: X-Key",
            id="header-literal",
        ),
        pytest.param(
            {"url": "https://user:${TOK}@h.example/mcp"},
            "http: https://h.example/mcp",
            id="userinfo-ref",
        ),
        pytest.param(
            {"url": f"https://user:{SECRET}@h.example:8443/mcp"},
            "http: https://h.example:8443/mcp",
            id="userinfo-literal",
        ),
        pytest.param(
            {"url": "https://h.example/mcp?key=${TOK}"},
            "http: https://h.example/mcp",
            id="query-ref",
        ),
        pytest.param(
            {"url": f"https://h.example/sse?api_key={SECRET}#{SECRET}"},
            "sse: https://h.example/sse",
            id="query-literal",
        ),
    ],
)
def test_launch_of_expanded_secret_holds_no_secret(
    project: Path, body: dict[str, object], launch: str
) -> None:
    spec = one(project, body, {"TOK": SECRET})
    reached = [spec.url or "", *spec.args, *spec.env.values(), *spec.headers.values()]
    assert any(SECRET in value for value in reached)  # the secret was really expanded
    # a launch with a hidden part carries a seal of it; the visible text is as before
    visible, sealed, seal = spec.launch().partition(SEAL_MARK)
    assert visible == launch
    url = str(body.get("url", ""))
    hidden = set(body) & {"env", "headers"} or "<redacted>" in launch or "?" in url or "@" in url
    assert bool(sealed) == bool(hidden) and (not sealed or len(seal) == 24)
    assert SECRET not in spec.launch()


# --- JSON and JSONC ----------------------------------------------------------------------


def _restore(path: Path) -> str:
    """What a config that does not parse ends with: the way back to the committed copy."""
    return f"; fix it there, or restore the committed copy with `git checkout -- {path}`"


@pytest.mark.parametrize(
    ("text", "where"),
    [
        pytest.param(
            '{\n  "mcpServers": {\n    "a": {"command": "x" "args": []}\n  }\n}',
            "3:26: invalid JSON: Expecting ',' delimiter",
            id="missing-comma",
        ),
        pytest.param(
            '{"mcpServers": {"a": {"command": "x"}}',
            "1:39: invalid JSON: Expecting ',' delimiter",
            id="unclosed",
        ),
        pytest.param("", "1:1: invalid JSON: Expecting value", id="empty"),
        pytest.param('{"mcpServers": {}} x', "1:20: invalid JSON: Extra data", id="extra-data"),
        pytest.param(
            '{"mcpServers": {"a": {"command": "x}}}',
            "1:34: invalid JSON: Unterminated string starting at",
            id="unterminated-string",
        ),
        pytest.param(
            '{\n  // comments are JSONC, not JSON\n  "mcpServers": {}\n}',
            "2:3: invalid JSON: Expecting property name enclosed in double quotes",
            id="comment-outside-vscode",
        ),
    ],
)
def test_malformed_json_reports_line_and_column(project: Path, text: str, where: str) -> None:
    path = write(project, ".mcp.json", text)
    assert error_of(project) == f"{path}:{where}{_restore(path)}"


@pytest.mark.parametrize(
    ("text", "args"),
    [
        pytest.param(
            '// head\n{"servers": {"s": {"command": "x", // tail\n "args": ["a"]}}}\n// end',
            ["a"],
            id="line-comments",
        ),
        pytest.param(
            '{/* one\n two */ "servers": {"s": /**/ {"command": "x", "args": ["a" /* , "b" */]}}}',
            ["a"],
            id="block-comments",
        ),
        pytest.param(
            '{"servers": {"s": {"command": "x", "args": ["a", "b",],},},}',
            ["a", "b"],
            id="trailing-commas",
        ),
        pytest.param(
            '{"servers": {"s": {"command": "x", "args": ["a", // c\n /* d */ ],}}}',
            ["a"],
            id="comma-then-comments",
        ),
        pytest.param(
            '{"servers": {"s": {"command": "x", "args": ["http://h//p", "/* no */", "a,]"]}}}',
            ["http://h//p", "/* no */", "a,]"],
            id="markers-inside-strings",
        ),
        pytest.param(
            r'{"servers": {"s": {"command": "x", "args": ["q\" // no", "C:\\d\\"]}}} // c',
            ['q" // no', "C:\\d\\"],
            id="escapes",
        ),
        pytest.param(
            '{\r\n"servers": {"s": {"command": "x", // c\r\n"args": ["a"]}}}\r\n',
            ["a"],
            id="crlf",
        ),
        pytest.param('\ufeff{"servers": {"s": {"command": "x", "args": ["a"]}}}', ["a"], id="bom"),
    ],
)
def test_vscode_file_accepts_jsonc(project: Path, text: str, args: list[str]) -> None:
    write(project, ".vscode/mcp.json", text)
    (spec,) = load(project)
    assert spec.args == tuple(args)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        pytest.param(
            '{\n  /* one\n     two */ "servers": {\n    "s": {"command": "x" "args": []}}}',
            "4:26: invalid JSON: Expecting ',' delimiter",
            id="after-block-comment",
        ),
        pytest.param(
            '{"servers": {}, // c\n  "x": 1\n  /* open',
            "3:3: invalid JSON: unterminated /* comment",
            id="unterminated-comment",
        ),
        pytest.param(
            '{"servers": {}, "x": [,]}', "1:23: invalid JSON: Expecting value", id="lone-comma"
        ),
        pytest.param(
            '{"servers": {}, "x": [1,,]}', "1:25: invalid JSON: Expecting value", id="double-comma"
        ),
        pytest.param(
            '{"servers": {}, "x": {,}}',
            "1:23: invalid JSON: Expecting property name enclosed in double quotes",
            id="object-lone-comma",
        ),
    ],
)
def test_jsonc_errors_keep_line_and_column(project: Path, text: str, where: str) -> None:
    path = write(project, ".vscode/mcp.json", text)
    assert error_of(project) == f"{path}:{where}{_restore(path)}"


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='/*,]}"\\ \nab'),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(alphabet='/*,"\\a'), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(value=_JSON, indent=st.sampled_from([None, 2]))
def test_jsonc_stripping_leaves_plain_json_untouched(value: object, indent: int | None) -> None:
    text = json.dumps(value, indent=indent)
    assert _strip_jsonc(text, Path("x")) == text


def test_unreadable_files(project: Path) -> None:
    missing = project / "nope.json"
    assert error_of(project, config_paths=[missing]) == (
        f"{missing}: cannot read: No such file or directory"
    )
    bad = project / "latin1.json"
    bad.write_bytes(b'{"mcpServers": {"caf\xe9": {}}}')
    assert error_of(project, config_paths=[bad]) == f"{bad}: not valid UTF-8 (byte offset 20)"


# --- merging, disabling, selecting -------------------------------------------------------


def test_identical_definitions_in_two_files_merge(project: Path) -> None:
    first = write(project, ".mcp.json", {"mcpServers": {"s": {**STDIO, "cwd": "."}}})
    write(project, ".vscode/mcp.json", {"servers": {"s": {"type": "stdio", **STDIO, "cwd": "."}}})
    (spec,) = load(project)
    assert (spec.source, spec.cwd) == (str(first), str(project))


@pytest.mark.parametrize(
    "other",
    [
        pytest.param({**STDIO, "args": ["-y", "pkg@2"]}, id="args"),
        pytest.param({**STDIO, "env": {"A": "2"}}, id="env-value"),
        pytest.param({**STDIO, "command": "${NPX}"}, id="same-expansion-other-raw"),
        pytest.param({"url": "https://h.example/mcp"}, id="transport"),
    ],
)
def test_conflicting_definitions_name_server_and_both_files(
    project: Path, other: dict[str, object]
) -> None:
    first = write(project, ".mcp.json", {"mcpServers": {"s": STDIO}})
    second = write(project, ".cursor/mcp.json", {"mcpServers": {"s": other}})
    assert error_of(project, environ={"NPX": "npx"}) == (
        f"server 's' is defined differently in {first} and {second}; rename or remove one of them"
    )


def test_disabled_entries_are_skipped_without_validation(project: Path) -> None:
    path = write(
        project,
        ".mcp.json",
        {"mcpServers": {"off": {"command": "${NOPE}", "disabled": True}, "on": STDIO}},
    )
    assert [s.name for s in load(project)] == ["on"]
    assert error_of(project, select=["off"]) == f"server 'off' is disabled in {path}"


def test_disabled_copy_does_not_conflict(project: Path) -> None:
    write(project, ".mcp.json", {"mcpServers": {"s": STDIO}})
    write(project, ".cursor/mcp.json", {"mcpServers": {"s": {"command": "old", "disabled": True}}})
    assert [s.command for s in load(project)] == ["npx"]


@pytest.mark.parametrize(
    ("select", "result"),
    [
        pytest.param(["github", "fs", "github"], ["fs", "github"], id="all-deduped"),
        pytest.param(["fs"], ["fs"], id="subset"),
        pytest.param(["ok"], ["ok"], id="broken-neighbours-ignored"),
        pytest.param(
            ["gihtub"],
            "unknown server 'gihtub'; did you mean 'github'? (available: broken, fs, github, ok)",
            id="typo",
        ),
        pytest.param(
            ["zzz"], "unknown server 'zzz' (available: broken, fs, github, ok)", id="unknown"
        ),
    ],
)
def test_select(project: Path, select: list[str], result: list[str] | str) -> None:
    servers = {
        "github": {"url": "https://h.example/mcp"},
        "fs": STDIO,
        "ok": STDIO,
        "broken": {"command": "x", "args": [1], "env": {"K": "${NOPE}"}},
    }
    write(project, ".mcp.json", {"mcpServers": servers})
    if isinstance(result, str):
        assert error_of(project, select=select) == result
    else:
        assert [s.name for s in load(project, select=select)] == result


# --- discovery ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("platform", "appdata", "rel"),
    [
        pytest.param("darwin", None, "Library/Application Support/Claude", id="macos"),
        pytest.param("linux", None, ".config/Claude", id="linux"),
        pytest.param("win32", None, "AppData/Roaming/Claude", id="windows-default"),
        pytest.param("win32", "<home>/Roam", "Roam/Claude", id="windows-appdata"),
    ],
)
def test_desktop_config_path(home: Path, platform: str, appdata: str | None, rel: str) -> None:
    appdata = appdata.replace("<home>", str(home)) if appdata else None
    path = desktop_config_path(home, platform=platform, appdata=appdata)
    assert path == home / rel / "claude_desktop_config.json"


def test_discovery_order_of_project_files(project: Path, home: Path) -> None:
    write(project, "claude_desktop_config.json", {})
    write(project, ".vscode/mcp.json", {})
    write(project, ".cursor/mcp.json", {})
    write(project, ".mcp.json", {})
    assert discover_config_files(project, home) == [project / rel for rel in PROJECT_FILES]


def test_claude_desktop_fallback_under_home(project: Path, home: Path) -> None:
    desktop = desktop_config_path(home)
    write(home, str(desktop.relative_to(home)), {"mcpServers": {"d": STDIO}})
    assert discover_config_files(project, home) == [desktop]
    assert [(s.name, s.source) for s in load(project, home=home)] == [("d", str(desktop))]
    local = write(project, ".mcp.json", {"mcpServers": {"p": STDIO}})
    assert discover_config_files(project, home) == [local]


def test_no_config_lists_where_it_looked(project: Path, home: Path) -> None:
    looked = [project / rel for rel in PROJECT_FILES] + [desktop_config_path(home)]
    assert discover_config_files(project, home) == []
    assert error_of(project, home=home) == (
        f"no MCP client config found (looked for {', '.join(map(str, looked))}); pass --config FILE"
    )
