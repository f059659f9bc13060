"""The runtime observation log: what the guard withheld (or let through in warn mode).

One JSON line per distinct (server, kind, name, hash), appended beside the lockfile as
``<lockfile stem>.observed.jsonl``, so the review app can show what the agent was offered
between checks. The definition is server text and hostile: it is stored as ASCII-escaped
JSON (hidden characters cannot hide in the file) and capped in size. Nothing from the
launch command, environment or headers is written, so the log carries no secrets.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcplock_tui.guard.policy import Verdict

MAX_DEFINITION = 256 * 1024
"""A definition longer than this (as JSON) is recorded by hash only."""
MAX_READ = 16 * 1024 * 1024
"""Only this much of an existing log is read back to know what was already recorded."""


def observation_path(lock_path: Path) -> Path:
    return lock_path.with_name(f"{lock_path.stem}.observed.jsonl")


@dataclass(frozen=True, slots=True)
class Observation:
    server: str
    kind: str
    name: str
    hash: str
    status: str
    seen_at: str
    definition: Any = None
    """The item as served, or None when it was too large to keep."""
    passed: bool = False
    """True when the guard let it through (``--mode warn``)."""


def read_observations(path: Path) -> Iterator[Observation]:
    """Every well-formed record; malformed lines (a crash mid-write, a hand edit) are skipped."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_READ)
    except OSError:
        return
    for line in data.splitlines():
        try:
            raw = json.loads(line)
            yield Observation(
                server=str(raw["server"]),
                kind=str(raw["kind"]),
                name=str(raw["name"]),
                hash=str(raw["hash"]),
                status=str(raw["status"]),
                seen_at=str(raw.get("seen_at", "")),
                definition=raw.get("definition"),
                passed=raw.get("passed") is True,
            )
        except (ValueError, KeyError, TypeError):
            continue


class Observer:
    """Appends each new verdict that is not "pinned" once; never raises for I/O trouble."""

    def __init__(self, path: Path, server: str) -> None:
        self.path = path
        self.server = server
        self._known = {
            (o.kind, o.name, o.hash) for o in read_observations(path) if o.server == server
        }
        self.failed: str | None = None

    def record(self, verdict: Verdict, definition: Any, *, passed: bool = False) -> bool:
        key = (verdict.kind.value, verdict.name, verdict.hash)
        if verdict.pinned or key in self._known:
            return False
        self._known.add(key)
        text = json.dumps(definition, ensure_ascii=True, sort_keys=True)
        record = {
            "server": self.server,
            "kind": verdict.kind.value,
            "name": verdict.name,
            "hash": verdict.hash,
            "status": verdict.status.value,
            "seen_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "definition": definition if len(text) <= MAX_DEFINITION else None,
            "passed": passed,
        }
        line = json.dumps(record, ensure_ascii=True, sort_keys=True) + "\n"
        try:
            # One write on an O_APPEND descriptor: guards of several servers share the file.
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(fd, line.encode("ascii"))
            finally:
                os.close(fd)
        except OSError as exc:
            self.failed = exc.strerror or str(exc)
            return False
        return True
