"""What is sent to Claude for one change, and how it is fenced off as data.

Only the changed definition travels: its kind and name, the old and new JSON, the paths that
moved and the mechanical findings. Nothing from the user's config does: no server name (it
is the user's label), no launch command or URL, no env or header values, no file paths, no
other server. The ``launch`` entry of a server-identity change is stripped because it is
built from config; a change to nothing but ``launch`` has nothing left to send and is
refused. The definition itself goes exactly as the server sent it, so a resource URI that
names a path on this machine is sent too: it is part of what is being judged.

Finding messages are written by our detectors, but some quote a server name (a tool
shadowing another server's tool), so the configured names the caller knows of are replaced
in them. That replacement is exact-match: a name spelled differently in a message would get
through, which is why callers pass every configured name, not only this change's.

The fence is a random 128-bit hex marker, checked to be absent from the data, so text inside
cannot close the fence or forge an instruction outside it.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from mcplock_tui.core.canonical import canon_json
from mcplock_tui.core.graded import GradedChange
from mcplock_tui.core.model import Kind
from mcplock_tui.errors import ExplainError

MAX_PAYLOAD_CHARS = 100_000
"""Larger definitions are refused rather than cut: a cut could hide the very passage."""
_CONFIG_FIELDS: dict[Kind, frozenset[str]] = {Kind.SERVER: frozenset({"launch"})}
SERVER_PLACEHOLDER = "<server>"


def _strip(item: Mapping[str, Any] | None, drop: frozenset[str]) -> dict[str, Any] | None:
    if item is None:
        return None
    return {k: v for k, v in item.items() if k not in drop}


def _top(path: str) -> str:
    return re.split(r"[.\[]", path, maxsplit=1)[0]


def _scrub(text: str, names: Iterable[str]) -> str:
    for name in sorted({n for n in names if n}, key=len, reverse=True):
        text = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", SERVER_PLACEHOLDER, text)
    return text


def build_payload(change: GradedChange, *, server_names: Iterable[str] = ()) -> dict[str, Any]:
    """The JSON document describing ``change``; raises ExplainError when nothing can be sent."""
    drop = _CONFIG_FIELDS.get(change.kind, frozenset())
    fields = [f.path for f in change.fields if _top(f.path) not in drop]
    if change.fields and not fields:
        raise ExplainError(
            "only the launch command changed; it comes from your config and is never sent"
        )
    names = [change.server, *server_names]
    payload: dict[str, Any] = {
        "kind": change.kind.value,
        "name": change.name,
        "change": change.change.value,
        "old": _strip(change.old, drop),
        "new": _strip(change.new, drop),
        "changed_fields": fields,
        "findings": [
            {
                "code": f.code,
                "severity": f.severity.label,
                "message": _scrub(f.message, names),
                "path": f.path,
                "excerpt": f.excerpt,
            }
            for f in change.findings
            if _top(f.path) not in drop
        ],
    }
    if change.old_name is not None:
        payload["old_name"] = change.old_name
    if len(canon_json(payload)) > MAX_PAYLOAD_CHARS:
        raise ExplainError(
            f"the definition is too large to explain (over {MAX_PAYLOAD_CHARS} characters)"
        )
    return payload


def data_text(payload: Mapping[str, Any]) -> str:
    """ASCII JSON, so hidden and look-alike characters reach the model as visible escapes."""
    return json.dumps(payload, indent=2, sort_keys=True, ensure_ascii=True)


def fence_marker(text: str, token: Callable[[], str] = lambda: secrets.token_hex(16)) -> str:
    """A fresh random marker that does not occur in ``text``."""
    for _ in range(8):
        marker = token()
        if marker and marker not in text:
            return marker
    raise ExplainError("could not pick a fence marker absent from the definition")


def fenced(text: str, marker: str) -> str:
    return f"BEGIN UNTRUSTED DATA {marker}\n{text}\nEND UNTRUSTED DATA {marker}"
