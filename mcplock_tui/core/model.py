"""Domain model shared by every layer: surfaces, changes, findings, severities.

Pure data: no I/O and no third-party imports. Server-supplied values are kept as the
raw JSON the server sent (``dict[str, Any]``) so nothing it said is lost; helpers here
only read them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import IntEnum, StrEnum
from typing import Any

JSON = Any
"""A decoded JSON value as the server sent it."""


class Severity(IntEnum):
    """Bands, ordered so that comparisons and ``max`` work."""

    LOW = 1
    MEDIUM = 2
    HIGH = 3
    CRITICAL = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            choices = ", ".join(s.label for s in cls)
            raise ValueError(f"unknown severity {text!r} (choose from {choices})") from None


class Kind(StrEnum):
    """What a change is about. The values are part of the JSON report."""

    TOOL = "tool"
    PROMPT = "prompt"
    RESOURCE = "resource"
    RESOURCE_TEMPLATE = "resource_template"
    INSTRUCTIONS = "instructions"
    SERVER = "server"


ITEM_KINDS: tuple[Kind, ...] = (Kind.TOOL, Kind.PROMPT, Kind.RESOURCE, Kind.RESOURCE_TEMPLATE)
"""Kinds that come as lists of named items."""

SINGLETON_KINDS: tuple[Kind, ...] = (Kind.INSTRUCTIONS, Kind.SERVER)
"""Kinds that exist once per server; their item name is the kind itself."""


PROMPT_MESSAGES_KEY = "messages"
"""Prompt item key holding what ``prompts/get`` returned (argument-less prompts only)."""
PROMPT_OVERFLOW_KEY = "messagesOverflow"
"""Prompt item key set when those messages were cut to size: full size and digest."""
PROMPT_LISTED_KEY = "messages (prompts/list)"
"""Where a ``messages`` key that ``prompts/list`` itself sent is kept, so ours never mixes."""


def as_listed(kind: Kind, item: Mapping[str, JSON]) -> Mapping[str, JSON]:
    """An item as its ``*/list`` reply carried it: without what ``prompts/get`` added.

    What a runtime relay sees in a listing is compared with this form of the pin.
    """
    if kind is not Kind.PROMPT or not (
        PROMPT_MESSAGES_KEY in item or PROMPT_OVERFLOW_KEY in item or PROMPT_LISTED_KEY in item
    ):
        return item
    drop = (PROMPT_MESSAGES_KEY, PROMPT_OVERFLOW_KEY, PROMPT_LISTED_KEY)
    out = {k: v for k, v in item.items() if k not in drop}
    if PROMPT_LISTED_KEY in item:
        out[PROMPT_MESSAGES_KEY] = item[PROMPT_LISTED_KEY]
    return out


ANNOTATION_DEFAULTS: dict[str, bool] = {
    "readOnlyHint": False,
    "destructiveHint": True,
    "idempotentHint": False,
    "openWorldHint": True,
}
"""Spec defaults, applied when a key is absent: deleting a key is a change to its default.

Every default is also the value that grants the tool the most room, so a hint that is null or
not a JSON boolean (``"false"``, ``0``) is read as its default: a malformed hint can never make
a tool look safer than a missing one. Clients disagree on such values (``"false"`` is truthy
in JavaScript), which is why changing to one is reported even when the default was in force.
"""


class ChangeType(StrEnum):
    ADDED = "added"
    REMOVED = "removed"
    MODIFIED = "modified"
    RENAMED = "renamed"


@dataclass(frozen=True, slots=True)
class Finding:
    """One detector or lint hit on one string."""

    code: str
    """Stable rule code, e.g. ``MCPL-INJ-001``; never reused for another rule."""
    severity: Severity
    message: str
    path: str
    """Field path inside the item, e.g. ``inputSchema.properties.path.description``."""
    excerpt: str = ""
    """The exact matched text as it appears in the original string (may hold hidden chars)."""
    span: tuple[int, int] | None = None
    """Start and end offsets of ``excerpt`` in the original string."""
    server: str = ""
    kind: str = ""
    item: str = ""

    def key(self) -> tuple[str, str, str, str, str]:
        """Identity used to tell a known finding from a new one: not the span, which moves."""
        return (self.code, self.server, self.kind, self.item, self.path + "\0" + self.excerpt)


class Origin(StrEnum):
    """Which part of the product gave a reason."""

    DRIFT = "drift"
    """A rule of the severity model about what changed (``annotation-loosened``)."""
    DETECTOR = "detector"
    """An injection detector's finding in new text (``MCPL-INJ-…``)."""
    LINT = "lint"
    """A lint finding (``MCPL-LINT-…``)."""
    RUNTIME = "runtime"
    """Something the runtime guard saw."""


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a change got its band: one rule of the severity model, or one finding."""

    category: str
    """Stable id a policy can override, e.g. ``annotation-loosened`` or a rule code."""
    severity: Severity
    message: str
    path: str = ""
    origin: Origin = Origin.DRIFT

    @property
    def code(self) -> str:
        """The stable code: a drift category or a rule code (the same as ``category``)."""
        return self.category


@dataclass(frozen=True, slots=True)
class Surface:
    """Everything one server exposes, as canonical raw JSON, keyed for diffing.

    ``server`` holds identity: ``serverInfo``, ``protocolVersion``, ``capabilities``
    and ``launch`` (the redacted launch command or URL).
    """

    server: Mapping[str, JSON]
    instructions: str | None
    tools: Mapping[str, Mapping[str, JSON]] = field(default_factory=dict)
    prompts: Mapping[str, Mapping[str, JSON]] = field(default_factory=dict)
    resources: Mapping[str, Mapping[str, JSON]] = field(default_factory=dict)
    resource_templates: Mapping[str, Mapping[str, JSON]] = field(default_factory=dict)

    def items(self, kind: Kind) -> Mapping[str, Mapping[str, JSON]]:
        if kind is Kind.TOOL:
            return self.tools
        if kind is Kind.PROMPT:
            return self.prompts
        if kind is Kind.RESOURCE:
            return self.resources
        if kind is Kind.RESOURCE_TEMPLATE:
            return self.resource_templates
        raise ValueError(f"{kind} is not a list kind")

    def with_items(self, kind: Kind, items: Mapping[str, Mapping[str, JSON]]) -> Surface:
        """This surface with the items of one list kind replaced."""
        if kind is Kind.TOOL:
            return replace(self, tools=items)
        if kind is Kind.PROMPT:
            return replace(self, prompts=items)
        if kind is Kind.RESOURCE:
            return replace(self, resources=items)
        if kind is Kind.RESOURCE_TEMPLATE:
            return replace(self, resource_templates=items)
        raise ValueError(f"{kind} is not a list kind")

    def singleton(self, kind: Kind) -> Mapping[str, JSON] | None:
        """Singleton kinds as an item dict, so diff and hashing treat every kind alike."""
        if kind is Kind.INSTRUCTIONS:
            return None if self.instructions is None else {"instructions": self.instructions}
        if kind is Kind.SERVER:
            return self.server
        raise ValueError(f"{kind} is not a singleton kind")

    def get(self, kind: Kind, name: str) -> Mapping[str, JSON] | None:
        if kind in SINGLETON_KINDS:
            return self.singleton(kind)
        return self.items(kind).get(name)

    def all_items(self) -> list[tuple[Kind, str, Mapping[str, JSON]]]:
        out: list[tuple[Kind, str, Mapping[str, JSON]]] = []
        for kind in ITEM_KINDS:
            out.extend((kind, name, item) for name, item in sorted(self.items(kind).items()))
        for kind in SINGLETON_KINDS:
            single = self.singleton(kind)
            if single is not None:
                out.append((kind, kind.value, single))
        return out


class ErrorKind(StrEnum):
    """Why something could not be checked; the values are the reports' ``error_kind`` strings."""

    # one server
    TIMEOUT = "timeout"
    SPAWN = "spawn"
    """Its command could not be started (not found, not executable, invalid)."""
    CRASH = "crash"
    """It exited or dropped the connection before answering."""
    PROTOCOL = "protocol"
    """It answered, but not with valid MCP."""
    HTTP = "http"
    INTERNAL = "internal"
    UNPINNED = "unpinned"
    LAUNCH_CHANGED = "launch-changed"
    # the whole run
    SERVERS_FAILED = "servers-failed"
    ERROR = "error"
    CONFIG = "config"
    POLICY = "policy"
    LOCKFILE = "lockfile"
    NO_LOCKFILE = "no-lockfile"
    CAPTURE = "capture"
    DECISION = "decision"
    EXPLAIN = "explain"


@dataclass(frozen=True, slots=True)
class CaptureResult:
    """Outcome of capturing one server: a surface, or the cause it could not be had."""

    name: str
    surface: Surface | None = None
    error: str | None = None
    """One plain sentence naming the cause, e.g. ``timed out after 30 s during tools/list``."""
    error_kind: ErrorKind | None = None
    """``timeout``, ``spawn``, ``crash``, ``protocol``, ``http`` or ``internal``."""
    stderr_log: str | None = None
    """Path of the file holding the server's stderr, when there is one."""
    duration: float = 0.0
    warnings: tuple[str, ...] = ()
    """Non-fatal oddities, e.g. a malformed tool kept as raw JSON, a duplicate name."""
    stderr_tail: tuple[str, ...] = ()
    """For a failure: the last lines of the server's stderr, escaped, secrets redacted."""

    @property
    def ok(self) -> bool:
        return self.surface is not None


def text_at(item: Mapping[str, JSON] | None, path: str) -> str | None:
    """The string a finding path points at (``inputSchema.properties.q.description``,
    ``arguments[0].name``), or None.

    Keys may themselves contain dots or brackets (server-chosen property names), so at each
    object the longest key that the rest of the path starts with wins.
    """
    node: Any = item
    rest = path
    while rest:
        if isinstance(node, list):
            close = rest.find("]")
            if not rest.startswith("[") or close < 0 or not rest[1:close].isdigit():
                return None
            index = int(rest[1:close])
            if index >= len(node):
                return None
            node, rest = node[index], rest[close + 1 :].removeprefix(".")
            continue
        if not isinstance(node, dict):
            return None
        fits = [
            k
            for k in node
            if isinstance(k, str)
            and rest.startswith(k)
            and rest[len(k) : len(k) + 1] in ("", ".", "[")
        ]
        if not fits:
            return None
        key = max(fits, key=len)
        node, rest = node[key], rest[len(key) :].removeprefix(".")
    return node if isinstance(node, str) else None
