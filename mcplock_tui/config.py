"""Find a project's MCP client config files and turn their entries into ServerSpecs.

The tool must launch servers exactly as the user's clients would, so it reads the clients'
own files (Claude Code ``.mcp.json``, Cursor ``.cursor/mcp.json``, VS Code
``.vscode/mcp.json``, Claude Desktop ``claude_desktop_config.json``) rather than a config
of its own, and refuses anything it cannot interpret with one line naming file, server and
key. Config values are often secrets, so messages name keys, variables and JSON types but
never echo a value.

Heuristics, and which way they fail:

- Without ``type``, a URL whose path ends in ``/sse`` is taken as SSE and any other URL as
  streamable HTTP. An SSE server on another path is mis-typed; its capture then fails
  loudly rather than reporting a wrong surface.
- ``${VAR:-default}`` follows the shell: the default also applies when VAR is set but empty.
  ``${...}`` forms we cannot resolve (``${input:x}``, ``${command:x}``) are errors, never
  passed through, so an argument that needs a literal ``${`` cannot be written (noisy).
  Expanded values are never expanded again, so an env value cannot inject a reference.
- Only selected servers are validated and expanded: a broken or secret-less entry that was
  not asked for goes unreported instead of blocking the servers that were (permissive).
- Comments and trailing commas are accepted in ``.vscode/mcp.json`` only, as in VS Code;
  the same text elsewhere is reported as invalid JSON.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NoReturn
from urllib.parse import urlsplit

from mcplock_tui.errors import ConfigError, git_restore
from mcplock_tui.guard.entry import unwrap_entry
from mcplock_tui.spec import ServerSpec, Transport

PROJECT_FILES = (".mcp.json", ".cursor/mcp.json", ".vscode/mcp.json", "claude_desktop_config.json")
"""Project-level config files, looked for in this order relative to the working folder."""
DESKTOP_FILE = "claude_desktop_config.json"

# `type` values, compared lower-cased with `-`/`_` removed (streamable-http, streamableHttp).
_TRANSPORTS: dict[str, Transport] = {
    "stdio": "stdio",
    "http": "http",
    "streamablehttp": "http",
    "sse": "sse",
}
_VAR = re.compile(r"\$\{([^{}]*)\}")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_JSON_TYPES = {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}


def desktop_config_path(
    home: Path, platform: str = sys.platform, appdata: str | None = None
) -> Path:
    """Where Claude Desktop keeps its config on ``platform`` for a user whose home is ``home``."""
    if platform == "darwin":
        return home / "Library" / "Application Support" / "Claude" / DESKTOP_FILE
    if platform.startswith("win"):
        base = Path(appdata) if appdata else home / "AppData" / "Roaming"
        return base / "Claude" / DESKTOP_FILE
    return home / ".config" / "Claude" / DESKTOP_FILE


def _desktop_for(home: Path | None) -> Path:
    # %APPDATA% is the user's real location; an explicit home (tests, --home) overrides it.
    appdata = os.environ.get("APPDATA") if home is None else None
    return desktop_config_path(Path.home() if home is None else home, appdata=appdata)


def is_personal_config(source: str) -> bool:
    """True for Claude Desktop's own config: the user's servers, often with literal tokens."""
    return os.path.abspath(source) == os.path.abspath(_desktop_for(None))


def discover_config_files(cwd: Path, home: Path | None = None) -> list[Path]:
    """The project config files in ``cwd``; if there are none, Claude Desktop's, if present."""
    base = Path(os.path.abspath(cwd))
    found = [base / rel for rel in PROJECT_FILES if (base / rel).is_file()]
    if found:
        return found
    desktop = _desktop_for(home)
    return [desktop] if desktop.is_file() else []


def load_servers(
    cwd: Path,
    config_paths: Sequence[Path] = (),
    select: Sequence[str] = (),
    environ: Mapping[str, str] | None = None,
    home: Path | None = None,
) -> list[ServerSpec]:
    """Every enabled (or every selected) server, expanded and validated, sorted by name.

    With ``config_paths`` exactly those files are read; otherwise :func:`discover_config_files`
    decides. Raises :class:`ConfigError` with a one-line message for every user error.
    """
    base = Path(os.path.abspath(cwd))
    if config_paths:
        paths = list(dict.fromkeys(Path(os.path.abspath(base / p)) for p in config_paths))
    else:
        paths = discover_config_files(base, home)
        if not paths:
            looked = [base / rel for rel in PROJECT_FILES] + [_desktop_for(home)]
            raise ConfigError(
                f"no MCP client config found (looked for {', '.join(map(str, looked))});"
                " pass --config FILE"
            )
    entries, disabled = _collect(paths)
    if select:
        entries = _select(entries, disabled, list(dict.fromkeys(select)))
    elif not entries:
        what = "enabled MCP servers" if disabled else "MCP servers"
        raise ConfigError(
            f"no {what} defined in {', '.join(map(str, paths))} "
            "(expected an object under mcpServers or servers)"
        )
    env = os.environ if environ is None else environ
    user_home = Path.home() if home is None else home
    chosen: dict[str, ServerSpec] = {}
    for entry in entries:
        spec = _build(entry, env, user_home)
        prev = chosen.setdefault(spec.name, spec)
        if prev is not spec and replace(prev, source=spec.source) != spec:
            raise ConfigError(
                f"server {spec.name!r} is defined differently in {prev.source} and "
                f"{spec.source}; rename or remove one of them"
            )
    return [chosen[name] for name in sorted(chosen)]


@dataclass(frozen=True, slots=True)
class _Entry:
    name: str
    body: dict[str, object]
    path: Path

    @property
    def where(self) -> str:
        return f"{self.path}: server {self.name!r}"

    def fail(self, key: str, problem: str) -> NoReturn:
        raise ConfigError(f"{self.where}: {key}: {problem}")

    @property
    def root(self) -> Path:
        """The project folder: ``.cursor``/``.vscode`` files belong to their parent."""
        folder = self.path.parent
        return folder.parent if folder.name in (".cursor", ".vscode") else folder


def _collect(paths: Sequence[Path]) -> tuple[list[_Entry], dict[str, Path]]:
    entries: list[_Entry] = []
    disabled: dict[str, Path] = {}
    for path in paths:
        doc = _read_json(path, jsonc=path.parent.name == ".vscode")
        for name, body in _server_table(doc, path).items():
            if not name.strip():
                raise ConfigError(f"{path}: a server name is empty")
            where = f"{path}: server {name!r}"
            if not isinstance(body, dict):
                raise ConfigError(f"{where}: definition must be an object, got {_jtype(body)}")
            body = unwrap_entry(body)  # a guard entry is checked as the server it runs
            flag = body.get("disabled", False)
            if not isinstance(flag, bool):
                raise ConfigError(f"{where}: disabled: must be true or false, got {_jtype(flag)}")
            if flag:
                disabled.setdefault(name, path)
            else:
                entries.append(_Entry(name, body, path))
    return entries, disabled


def _select(entries: list[_Entry], disabled: Mapping[str, Path], wanted: list[str]) -> list[_Entry]:
    available = sorted({e.name for e in entries})
    for name in wanted:
        if name in available:
            continue
        if name in disabled:
            raise ConfigError(f"server {name!r} is disabled in {disabled[name]}")
        import difflib  # only for a misspelt name's suggestion

        close = difflib.get_close_matches(name, available, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise ConfigError(
            f"unknown server {name!r}{hint} (available: {', '.join(available) or 'none'})"
        )
    return [e for e in entries if e.name in wanted]


# --- reading -----------------------------------------------------------------------------


def _jtype(value: object) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "number"
    return _JSON_TYPES.get(type(value), type(value).__name__)


def _read_json(path: Path, *, jsonc: bool) -> object:
    try:
        data = path.read_bytes()
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror or e}") from e
    try:
        text = data.decode("utf-8-sig")  # editors on Windows may write a BOM
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: not valid UTF-8 (byte offset {e.start})") from e
    if jsonc:
        text = _strip_jsonc(text, path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        # A bad merge or a stray edit: the way back is the file as committed.
        raise ConfigError(
            f"{path}:{e.lineno}:{e.colno}: invalid JSON: {e.msg}{_restore(path)}"
        ) from e
    except RecursionError as e:
        raise ConfigError(f"{path}: invalid JSON: nested too deeply") from e
    except ValueError as e:  # int() refuses a number of more than 4300 digits
        raise ConfigError(f"{path}: invalid JSON: a number has too many digits") from e


def _restore(path: Path) -> str:
    return f"; fix it there, or restore the committed copy with {git_restore(path)}"


def _strip_jsonc(text: str, path: Path) -> str:
    """Blank out comments and trailing commas with spaces.

    Every other character keeps its offset (newlines inside block comments survive), so the
    strict parser's line and column still point into the file as written.
    """
    out = list(text)
    n = len(text)
    i = 0
    in_string = False
    prev = ""  # last significant character outside strings and comments
    pending = -1  # offset of a comma that is trailing if `}` or `]` comes next
    while i < n:
        c = text[i]
        if in_string:
            if c == "\\":
                i += 2
                continue
            in_string = c != '"'
        elif c == "/" and text.startswith("//", i):
            end = i
            while end < n and text[end] not in "\r\n":
                end += 1
            out[i:end] = " " * (end - i)
            i = end
            continue
        elif c == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                # 1-based, counted as json.JSONDecodeError counts them
                line, col = text.count("\n", 0, i) + 1, i - text.rfind("\n", 0, i)
                raise ConfigError(
                    f"{path}:{line}:{col}: invalid JSON: unterminated /* comment{_restore(path)}"
                )
            for j in range(i, end + 2):
                if out[j] not in "\r\n":
                    out[j] = " "
            i = end + 2
            continue
        elif c not in " \t\r\n":
            if c in "}]" and pending >= 0:
                out[pending] = " "
            # `[,]` and `[1,,]` stay errors: only a comma after a value can trail.
            pending = i if c == "," and prev not in "[{," else -1
            prev = c
            in_string = c == '"'
        i += 1
    return "".join(out)


def _server_table(doc: object, path: Path) -> dict[str, object]:
    if not isinstance(doc, dict):
        raise ConfigError(f"{path}: top level must be a JSON object, got {_jtype(doc)}")
    keys = [k for k in ("mcpServers", "servers") if k in doc]
    if len(keys) > 1:
        raise ConfigError(f"{path}: has both mcpServers and servers; keep one")
    if not keys:
        return {}
    table = doc[keys[0]]
    if not isinstance(table, dict):
        raise ConfigError(
            f"{path}: {keys[0]} must be an object of server definitions, got {_jtype(table)}"
        )
    return table


# --- one entry ---------------------------------------------------------------------------


_Expand = Callable[[str, str], str]
"""Expands one config string; the second argument names its key for error messages."""


def _expander(entry: _Entry, environ: Mapping[str, str], home: Path) -> _Expand:
    """``${VAR}``, ``${VAR:-default}``, ``${env:VAR}`` and VS Code's predefined variables."""
    root = entry.root
    builtins = {
        "workspaceFolder": str(root),
        "workspaceFolderBasename": root.name,
        "userHome": str(home),
        "pathSeparator": os.sep,
        "/": os.sep,
    }

    def resolve(inner: str, key: str) -> str:
        if inner in builtins:
            return builtins[inner]
        name, has_default, default = inner.removeprefix("env:").partition(":-")
        if _IDENT.fullmatch(name):
            value = environ.get(name)
            if has_default:
                return value or default
            if value is None:
                entry.fail(
                    key,
                    f"environment variable {name} is not set; set it or write ${{{name}:-default}}",
                )
            return value
        if inner.startswith("input:"):
            entry.fail(
                key,
                f"${{{inner}}} is prompted for by VS Code and cannot be resolved "
                "here; use ${env:NAME} instead",
            )
        entry.fail(key, f"unsupported variable ${{{inner}}}")

    return lambda value, key: _VAR.sub(lambda m: resolve(m.group(1), key), value)


def _opt_str(entry: _Entry, key: str) -> str | None:
    value = entry.body.get(key)
    if value is None or isinstance(value, str):
        return value
    entry.fail(key, f"must be a string, got {_jtype(value)}")


def _req_str(entry: _Entry, key: str, transport: str) -> str:
    value = _opt_str(entry, key)
    if not value:
        entry.fail(key, f"a non-empty string is required for transport {transport}")
    return value


def _str_list(entry: _Entry, key: str) -> list[str]:
    value = entry.body.get(key, [])
    if not isinstance(value, list):
        entry.fail(key, f"must be an array of strings, got {_jtype(value)}")
    for i, item in enumerate(value):
        if not isinstance(item, str):
            entry.fail(f"{key}[{i}]", f"must be a string, got {_jtype(item)}")
    return value


def _str_map(entry: _Entry, key: str) -> dict[str, str]:
    value = entry.body.get(key, {})
    if not isinstance(value, dict):
        entry.fail(key, f"must be an object of strings, got {_jtype(value)}")
    for name, item in value.items():
        if not isinstance(item, str):
            entry.fail(f"{key}.{name}", f"must be a string, got {_jtype(item)}")
    return value


def _transport(entry: _Entry, expand: _Expand) -> Transport:
    kind = entry.body.get("type")
    if kind is not None:
        if not isinstance(kind, str):
            entry.fail("type", f"must be a string, got {_jtype(kind)}")
        transport = _TRANSPORTS.get(kind.lower().replace("-", "").replace("_", ""))
        if transport is None:
            entry.fail("type", f"unknown transport {kind!r}; expected stdio, http or sse")
        return transport
    has_command, has_url = "command" in entry.body, "url" in entry.body
    if has_command and has_url:
        entry.fail("type", "both command and url are set; add type to choose one")
    if has_command:
        return "stdio"
    if not has_url:
        entry.fail("command/url", "one is required (command for stdio, url for http/sse)")
    url = expand(_req_str(entry, "url", "http"), "url")
    try:
        path = urlsplit(url).path
    except ValueError:  # reported by _build with the other URL errors
        path = ""
    return "sse" if path.rstrip("/").endswith("/sse") else "http"


def _resolve_cwd(root: Path, cwd: str) -> str:
    """A relative cwd is taken from the project root, not from wherever the tool runs."""
    return os.path.normpath(os.path.join(root, cwd))


def _build(entry: _Entry, environ: Mapping[str, str], home: Path) -> ServerSpec:
    expand = _expander(entry, environ, home)
    transport = _transport(entry, expand)
    source = str(entry.path)
    if transport == "stdio":
        raw_command = _req_str(entry, "command", transport)
        raw_args = tuple(_str_list(entry, "args"))
        raw_env = _str_map(entry, "env")
        raw_cwd = _opt_str(entry, "cwd")
        command = expand(raw_command, "command")
        if not command:
            entry.fail("command", "is empty after variable expansion")
        return ServerSpec(
            name=entry.name,
            transport=transport,
            source=source,
            command=command,
            args=tuple(expand(a, f"args[{i}]") for i, a in enumerate(raw_args)),
            env={k: expand(v, f"env.{k}") for k, v in raw_env.items()},
            cwd=None if raw_cwd is None else _resolve_cwd(entry.root, expand(raw_cwd, "cwd")),
            raw_command=raw_command,
            raw_args=raw_args,
            raw_env=raw_env,
            raw_cwd=raw_cwd,
        )
    raw_url = _req_str(entry, "url", transport)
    raw_headers = _str_map(entry, "headers")
    url = expand(raw_url, "url")
    try:
        parts = urlsplit(url)
        ok = parts.scheme in ("http", "https") and bool(parts.hostname)
    except ValueError:
        ok = False
    if not ok:
        entry.fail("url", "must be an http:// or https:// URL with a host")
    return ServerSpec(
        name=entry.name,
        transport=transport,
        source=source,
        url=url,
        headers={k: expand(v, f"headers.{k}") for k, v in raw_headers.items()},
        raw_url=raw_url,
        raw_headers=raw_headers,
    )
