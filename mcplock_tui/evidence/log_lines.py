"""Where the decision log lives and how its lines read, without any cryptography.

``--check`` binds the lockfile to the log on every run (see :mod:`mcplock_tui.evidence.ledger`)
and must stay light: reading records needs only JSON; checking their signatures is
:mod:`mcplock_tui.evidence.verify`'s job.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcplock_tui.core.model import Kind

KEY_DIR = ".mcplock"
KEY_FILE = "decision-key.pem"
Record = dict[str, Any]
FIELDS: dict[str, type | tuple[type, ...]] = {
    "v": int,
    "seq": int,
    "time": str,
    "decision": str,
    "change": str,
    "server": str,
    "kind": str,
    "item": str,
    "old_hash": (str, type(None)),
    "new_hash": str,
    "reviewer": str,
    "note": str,
    "explain": (dict, type(None)),
    "key": str,
    "prev": (str, type(None)),
    "sig": str,
}
ITEMS_FIELD = "items"
"""Optional, on a whole-server ``pin`` only: ``kind/name`` -> hash of every item pinned."""
_KINDS = frozenset(k.value for k in Kind)


@dataclass(frozen=True, slots=True)
class EvidencePaths:
    log: Path
    pub: Path
    key: Path

    @classmethod
    def for_lock(cls, lock_path: Path) -> EvidencePaths:
        """``X.lock`` -> ``X.decisions.jsonl`` and ``X.decisions.pub`` beside it."""
        stem = lock_path.stem
        return cls(
            log=lock_path.with_name(f"{stem}.decisions.jsonl"),
            pub=lock_path.with_name(f"{stem}.decisions.pub"),
            key=lock_path.parent / KEY_DIR / KEY_FILE,
        )


TRUNCATED = "truncated: the last line has no line end (the log was cut short)"


def parse_log(data: bytes) -> list[Record | str]:
    """Each line as a record, or as the reason it is not one."""
    if not data:
        return []
    lines = data.split(b"\n")
    cut = lines.pop() != b""
    entries = [parse_line(line) for line in lines]
    if cut:
        entries.append(TRUNCATED)
    return entries


def parse_line(line: bytes) -> Record | str:
    """A record, or a one-phrase reason it is not one."""
    try:
        value = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        return "not valid JSON (edited or damaged)"
    return check_shape(value)


def check_shape(value: object) -> Record | str:
    if not isinstance(value, dict):
        return "not a JSON object"
    for name, types in FIELDS.items():
        if name not in value:
            return f"missing field {name!r}"
        if not isinstance(value[name], types) or isinstance(value[name], bool):
            return f"field {name!r} has the wrong type"
    extra = sorted(set(value) - set(FIELDS) - {ITEMS_FIELD})
    if extra:
        return f"unexpected field {extra[0]!r}"
    items = value.get(ITEMS_FIELD, {})
    if not isinstance(items, dict) or not all(
        isinstance(h, str) and isinstance(k, str) and k.partition("/")[0] in _KINDS
        for k, h in items.items()
    ):
        return f"field {ITEMS_FIELD!r} has the wrong type"
    return value


def read_log(path: Path) -> list[Record | str]:
    """Each line as a record, or as the reason it is not one; a missing log is empty."""
    try:
        return parse_log(path.read_bytes())
    except FileNotFoundError:
        return []
