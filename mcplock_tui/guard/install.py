"""``guard install`` / ``guard uninstall``: put the guard into client config entries, and back.

The edit is made in the file's text, not by re-serialising its JSON, so comments, key order,
indentation and line endings survive. A stdio entry keeps its ``env``, ``cwd`` and every
other key: only ``command`` and ``args`` change, to ``mcplock-tui guard --name N --lock L --
<the original command and args>``. An HTTP entry becomes a stdio entry running
``mcplock-tui guard --url …``, its headers in the entry's ``env`` (not in argv, where any
local user could read an expanded credential). The original bytes and each entry's original text are kept in
the user's state folder; ``uninstall`` writes the original bytes back when the file is as
``install`` left it, and otherwise restores the guard entries one by one.

``pin`` and ``--check`` read a guard entry as the launch it wraps
(:func:`mcplock_tui.guard.entry.unwrap_entry`).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcplock_tui.config import PROJECT_FILES, _strip_jsonc, discover_config_files
from mcplock_tui.errors import ConfigError
from mcplock_tui.guard.entry import HEADERS_ENV, PY_FORM, guard_args, unwrap_entry
from mcplock_tui.storage import write_text_atomic

# --- locating entries in the text --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Member:
    key: str
    value: Any
    start: int
    """Offset of the value's first character."""
    end: int
    """Offset just past the value."""


_DECODER = json.JSONDecoder()


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\r\n\ufeff":
        i += 1
    return i


def _members(text: str, i: int, where: str) -> Iterator[_Member]:
    """The members of the object starting at ``text[i]`` (comments already blanked)."""
    if i >= len(text) or text[i] != "{":
        raise ConfigError(f"{where}: expected a JSON object")
    i = _skip(text, i + 1)
    while i < len(text) and text[i] != "}":
        key, i = _DECODER.raw_decode(text, i)
        i = _skip(text, i)
        if i >= len(text) or text[i] != ":":
            raise ConfigError(f"{where}: invalid JSON near offset {i}")
        start = _skip(text, i + 1)
        value, end = _DECODER.raw_decode(text, start)
        yield _Member(str(key), value, start, end)
        i = _skip(text, end)
        if i < len(text) and text[i] == ",":
            i = _skip(text, i + 1)


def _entries(text: str, path: Path) -> list[tuple[str, _Member]]:
    """(name, entry member) for every server entry, with offsets into ``text``."""
    blank = _strip_jsonc(text, path)
    where = str(path)
    try:
        top = _skip(blank, 0)
        table = next(
            (m for m in _members(blank, top, where) if m.key in ("mcpServers", "servers")), None
        )
        if table is None or not isinstance(table.value, dict):
            return []
        return [(m.key, m) for m in _members(blank, table.start, where)]
    except (ValueError, StopIteration) as exc:
        raise ConfigError(f"{path}: invalid JSON ({exc})") from None


# --- install -----------------------------------------------------------------------------


def guard_command() -> tuple[str, list[str]]:
    """How a client starts the guard: the installed script if found, else this Python."""
    script = shutil.which("mcplock-tui")
    if script:
        return os.path.abspath(script), []
    return sys.executable, list(PY_FORM[:2])


def _indent_of(text: str, offset: int) -> str:
    line_start = text.rfind("\n", 0, offset) + 1
    line = text[line_start:offset]
    return line[: len(line) - len(line.lstrip())]


def _wrap(
    text: str, name: str, member: _Member, lock: Path, path: Path
) -> list[tuple[int, int, str]]:
    """Text edits (start, end, replacement) that route one entry through the guard."""
    body = member.value
    command, prefix = guard_command()
    base = [*prefix, "guard", "--name", name, "--lock", str(lock)]
    blank = _strip_jsonc(text, path)
    fields = {m.key: m for m in _members(blank, member.start, str(path))}
    if "command" in body:
        original = [body["command"], *body.get("args", [])]
        new_args = json.dumps([*base, "--", *original], ensure_ascii=False)
        edits = [
            (
                fields["command"].start,
                fields["command"].end,
                json.dumps(command, ensure_ascii=False),
            )
        ]
        if "args" in fields:
            edits.append((fields["args"].start, fields["args"].end, new_args))
        else:
            at = fields["command"].end
            edits.append((at, at, f', "args": {new_args}'))
        return edits
    headers = body.get("headers") or {}
    keep = {k: v for k, v in body.items() if k not in ("type", "url", "headers")}
    new = {"command": command, "args": [*base, "--url", body["url"]], **keep}
    if headers:  # in the environment, not argv: header values are often credentials
        new["env"] = {HEADERS_ENV: json.dumps(headers, ensure_ascii=False)}
    inner = _indent_of(text, member.start)
    rendered = json.dumps(new, indent=2, ensure_ascii=False).replace("\n", "\n" + inner)
    return [(member.start, member.end, rendered)]


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _state_file(path: Path) -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    key = hashlib.sha256(str(path).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return Path(base) / "mcplock-tui" / "guard-install" / f"{key}.json"


def _read_text(path: Path) -> tuple[bytes, str]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        return data, data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not valid UTF-8 (byte {exc.start})") from None


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def install_file(path: Path, lock: Path, only: set[str]) -> list[str]:
    """Route the file's entries through the guard; the names of the entries changed."""
    data, text = _read_text(path)
    edits: list[tuple[int, int, str]] = []
    originals: dict[str, str] = {}
    for name, member in _entries(text, path):
        body = member.value
        if (
            (only and name not in only)
            or not isinstance(body, dict)
            or guard_args(body) is not None
        ):
            continue
        if not isinstance(body.get("command") or body.get("url"), str):
            continue
        edits += _wrap(text, name, member, lock, path)
        originals[name] = text[member.start : member.end]
    if not edits:
        return []
    new_text = _apply(text, edits)
    state = _state_file(path)
    record: dict[str, Any] = {}
    if state.exists():
        old = json.loads(state.read_text(encoding="utf-8"))
        if old.get("installed_sha256") == _sha(data):
            record = old  # still as the last install left it: keep the first original
    record.setdefault("path", str(path))
    record.setdefault("original", base64.b64encode(data).decode("ascii"))
    record["entries"] = {**record.get("entries", {}), **originals}
    record["installed_sha256"] = _sha(new_text.encode("utf-8"))
    state.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(state, json.dumps(record, indent=2))
    write_text_atomic(path, new_text)
    return sorted(originals)


def uninstall_file(path: Path) -> str:
    """Put the file back; returns what was done, in a few words."""
    data, text = _read_text(path)
    state = _state_file(path)
    record: dict[str, Any] = {}
    if state.exists():
        record = json.loads(state.read_text(encoding="utf-8"))
    if record and record.get("installed_sha256") == _sha(data):
        original = base64.b64decode(record["original"])
        write_text_atomic(path, original.decode("utf-8"))
        state.unlink()
        return "restored the original bytes"
    edits = []
    saved: dict[str, str] = record.get("entries", {})
    for name, member in _entries(text, path):
        if not isinstance(member.value, dict) or guard_args(member.value) is None:
            continue
        replacement = saved.get(name) or json.dumps(unwrap_entry(member.value), indent=2)
        edits.append((member.start, member.end, replacement))
    if not edits:
        return "no guard entries"
    write_text_atomic(path, _apply(text, edits))
    if state.exists():
        state.unlink()
    return f"restored {len(edits)} entries (the file changed since install)"


def run(action: str, args: argparse.Namespace) -> int:
    cwd = Path.cwd()
    paths = [p if p.is_absolute() else cwd / p for p in args.config] or discover_config_files(cwd)
    if not paths:
        raise ConfigError(
            f"no MCP client config found (looked for {', '.join(PROJECT_FILES)}); pass --config FILE"
        )
    for path in paths:
        if action == "install":
            lock = args.lock or Path("mcplock.lock")
            lock = lock if lock.is_absolute() else cwd / lock
            names = install_file(path, lock, set(args.server))
            done = f"guarded {', '.join(names)}" if names else "nothing to guard"
        else:
            done = uninstall_file(path)
        sys.stdout.write(f"{path}: {done}\n")
    return 0
