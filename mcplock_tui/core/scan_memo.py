"""Detector findings by the exact input of the scan, so unchanged text is scanned once.

``scan_item(kind, item, context)`` is a pure function: the same kind, the same item (every
key and string, every value of the same JSON type, in any key order) and the same context
give the same findings. A :class:`ScanMemo` maps a digest of exactly those inputs to the findings,
so a check of a server whose pinned items did not change reads their findings instead of
running every detector over them again. The memo never decides anything itself: an input
it has not seen is scanned, and what it holds is what a scan returned.

Which way it fails: a key covers the item's canonical digest (every character of every
string, every value's JSON type; not key order, which no detector reads) plus the scanning
server and its foreign tool names in their order, so two inputs that differ in any way that
could change a finding have different keys (the digest is SHA-256, cut to 128 bits). A
pinned item carries its digest already; an item or context that is not JSON gets no memo. Persisting a memo
(and trusting the place it is kept) is the caller's business; the detector code itself is
not part of the key, so a persisted memo must be dropped when that code changes
(see :mod:`mcplock_tui.findings_cache`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any

from mcplock_tui.core.canonical import item_digest
from mcplock_tui.core.model import JSON, Finding, Kind

KEY_CHARS = 32
"""Hex digits of SHA-256 kept per key (128 bits)."""


def _encode(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=True)


class ScanMemo:
    """``scan_item`` results by input digest; ``added`` counts entries new in this run."""

    def __init__(self, entries: dict[str, tuple[Finding, ...]] | None = None) -> None:
        self.entries: dict[str, tuple[Finding, ...]] = entries if entries is not None else {}
        self.added = 0
        self.used: set[str] = set()
        self._contexts: dict[int, tuple[object, bytes]] = {}

    def _prefix(self, owner: object, context: Callable[[], object]) -> bytes:
        """The context part of every key, encoded once per (immutable) context object."""
        held = self._contexts.get(id(owner))
        if held is not None and held[0] is owner:
            return held[1]
        prefix = _encode(_fields(context())).encode("ascii") + b"\n"
        self._contexts[id(owner)] = (owner, prefix)  # holding ``owner`` keeps its id unique
        return prefix

    def key(
        self, kind: Kind, item: Mapping[str, JSON], owner: object, context: Callable[[], object]
    ) -> str | None:
        """The digest of one scan's input. ``context`` gives the detectors' context object
        (a dataclass: every field is part of the key); it is called once per frozen
        ``owner`` it derives from."""
        try:
            prefix = self._prefix(owner, context)
        except (TypeError, ValueError):  # a context field that is not JSON: no memo
            return None
        # The canonical digest tells 1, 1.0, True and "1" apart and keeps every character;
        # it drops key order only, which no detector reads (``scan_item`` orders its
        # findings itself). A pinned item carries its digest, so an unchanged item costs
        # no encoding at all.
        try:
            item_hash = item_digest(item)
        except (RecursionError, ValueError, TypeError):  # not JSON, or too deep: no memo
            return None
        body = f"{kind.value}\n{item_hash}".encode("ascii")
        return hashlib.sha256(prefix + body).hexdigest()[:KEY_CHARS]

    def get(self, key: str) -> tuple[Finding, ...] | None:
        found = self.entries.get(key)
        if found is not None:
            self.used.add(key)
        return found

    def put(self, key: str, findings: tuple[Finding, ...]) -> None:
        if key not in self.entries:
            self.added += 1
        self.entries[key] = findings
        self.used.add(key)


def _fields(context: object) -> list[Any]:
    """Every field of a dataclass context as JSON-able pairs; mappings keep their order."""
    if not dataclasses.is_dataclass(context):
        raise TypeError("the scan context must be a dataclass")
    out: list[Any] = []
    for f in dataclasses.fields(context):
        value = getattr(context, f.name)
        if isinstance(value, Mapping):
            value = [list(pair) for pair in value.items()]
        elif isinstance(value, frozenset | set):
            value = sorted(value)
        out.append([f.name, value])
    return out
