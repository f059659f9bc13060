"""Which live items may reach the agent, given the lockfile: pure decisions, no I/O.

"Matches its pin" means exactly what ``--check`` means: the whole-item digest of the item as
the server sent it (:func:`mcplock_tui.core.canonical.digest`) equals the digest of the
pinned definition. Everything else is withheld: a changed definition, a new one, one a reviewer
rejected, a malformed or duplicated one, and every item of a server the lockfile does not
know. Failure direction: a server that reorders keys or whitespace still matches (canonical
JSON); one that changes a single character of any field is withheld until reviewed (noisy
by design, the same as ``--check``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from mcplock_tui.core.canonical import digest, visible
from mcplock_tui.core.lockfile import ServerPin
from mcplock_tui.core.model import ITEM_KINDS, Kind, as_listed
from mcplock_tui.core.surface import KEY_FIELD

LIST_METHODS: dict[str, tuple[Kind, str]] = {
    "tools/list": (Kind.TOOL, "tools"),
    "prompts/list": (Kind.PROMPT, "prompts"),
    "resources/list": (Kind.RESOURCE, "resources"),
    "resources/templates/list": (Kind.RESOURCE_TEMPLATE, "resourceTemplates"),
}
"""List method -> the kind it lists and the result key holding the items."""
METHOD_OF: dict[Kind, str] = {kind: method for method, (kind, _) in LIST_METHODS.items()}
USE_METHODS: dict[str, tuple[Kind, str]] = {
    "tools/call": (Kind.TOOL, "name"),
    "prompts/get": (Kind.PROMPT, "name"),
    "resources/read": (Kind.RESOURCE, "uri"),
}
"""Methods that use one item, and the request parameter naming it."""
LIST_CHANGED: dict[Kind, str] = {
    Kind.TOOL: "notifications/tools/list_changed",
    Kind.PROMPT: "notifications/prompts/list_changed",
    Kind.RESOURCE: "notifications/resources/list_changed",
    Kind.RESOURCE_TEMPLATE: "notifications/resources/list_changed",
}
KINDS_OF_NOTIFICATION: dict[str, tuple[Kind, ...]] = {
    "notifications/tools/list_changed": (Kind.TOOL,),
    "notifications/prompts/list_changed": (Kind.PROMPT,),
    "notifications/resources/list_changed": (Kind.RESOURCE, Kind.RESOURCE_TEMPLATE),
}
MAX_NAME_SHOWN = 80
"""Names in error messages are server-chosen text: shown visibly and cut short."""


class Status(StrEnum):
    PINNED = "pinned"
    DRIFTED = "drifted"
    NEW = "new"
    REJECTED = "rejected"
    MALFORMED = "malformed"
    UNPINNED_SERVER = "unpinned-server"


@dataclass(frozen=True, slots=True)
class Verdict:
    kind: Kind
    name: str
    hash: str
    status: Status

    @property
    def pinned(self) -> bool:
        return self.status is Status.PINNED


@dataclass(frozen=True, slots=True)
class PinIndex:
    """One server's pin with every pinned item's digest computed once per lockfile load."""

    pin: ServerPin | None
    hashes: Mapping[Kind, Mapping[str, str]]

    @classmethod
    def build(cls, pin: ServerPin | None) -> PinIndex:
        hashes: dict[Kind, dict[str, str]] = {}
        if pin is not None:
            for kind in ITEM_KINDS:
                # A relay sees listings, not prompts/get: compare with the pin's listed form.
                items = pin.surface.items(kind).items()
                hashes[kind] = {k: digest(as_listed(kind, v)) for k, v in items}
        return cls(pin, hashes)


def live_hash(kind: Kind, item: Any) -> str:
    """The whole-item hash ``--check`` compares (``digest(item)``).

    Only the whole-item digest decides a match.
    """
    return digest(item)


def judge_hash(index: PinIndex, kind: Kind, name: str, item_hash: str) -> Verdict:
    """The verdict for one live item, known by key and whole-item hash."""
    pin = index.pin
    if pin is None:
        return Verdict(kind, name, item_hash, Status.UNPINNED_SERVER)
    pinned = index.hashes.get(kind, {}).get(name)
    if pinned == item_hash:
        return Verdict(kind, name, item_hash, Status.PINNED)
    rejection = pin.rejection_for(kind, name)
    if rejection is not None and rejection.hash == item_hash:
        return Verdict(kind, name, item_hash, Status.REJECTED)
    status = Status.NEW if pinned is None else Status.DRIFTED
    return Verdict(kind, name, item_hash, status)


def item_key(kind: Kind, item: Any) -> str | None:
    if not isinstance(item, dict):
        return None
    key = item.get(KEY_FIELD[kind])
    return key if isinstance(key, str) and key else None


def judge_item(index: PinIndex, kind: Kind, item: Any) -> Verdict:
    key = item_key(kind, item)
    if key is None:
        return Verdict(kind, "", digest(item), Status.MALFORMED)
    return judge_hash(index, kind, key, live_hash(kind, item))


def judge_page(index: PinIndex, kind: Kind, items: list[Any], seen_keys: set[str]) -> list[Verdict]:
    """One verdict per item; a key already seen in this listing is withheld as malformed."""
    out: list[Verdict] = []
    for item in items:
        verdict = judge_item(index, kind, item)
        if verdict.name and verdict.name in seen_keys:
            verdict = Verdict(kind, verdict.name, verdict.hash, Status.MALFORMED)
        elif verdict.name:
            seen_keys.add(verdict.name)
        out.append(verdict)
    return out


def judge_instructions(pin: ServerPin | None, text: Any) -> Verdict:
    item_hash = digest({"instructions": text})
    if pin is None:
        return Verdict(Kind.INSTRUCTIONS, "instructions", item_hash, Status.UNPINNED_SERVER)
    pinned = pin.surface.instructions
    if (
        pinned is not None
        and isinstance(text, str)
        and digest({"instructions": pinned}) == item_hash
    ):
        return Verdict(Kind.INSTRUCTIONS, "instructions", item_hash, Status.PINNED)
    status = Status.NEW if pinned is None else Status.DRIFTED
    return Verdict(Kind.INSTRUCTIONS, "instructions", item_hash, status)


# --- URI templates (RFC 6570, level 1-4 expressions read loosely) ---------------------------

_EXPR = re.compile(r"\{([+#./;?&]?)[^{}]*\}")


def template_regex(template: str) -> re.Pattern[str] | None:
    """A regex that a URI produced by ``template`` matches; None for an unreadable template.

    ``{var}`` matches up to a query or fragment (servers take paths there, encoded or not),
    ``{+var}``/``{#var}`` anything, the other operators
    anything after their prefix character. Loose on purpose: it only decides whether a
    ``resources/read`` may be forwarded for a template that was reviewed.
    """
    if len(template) > 2000:
        return None
    parts: list[str] = []
    pos = 0
    for match in _EXPR.finditer(template):
        parts.append(re.escape(template[pos : match.start()]))
        op = match.group(1)
        if op == "":
            parts.append(r"[^?#]*")
        elif op in "+#":
            parts.append(r".*")
        else:
            parts.append(r"(?:" + re.escape(op) + r".*)?")
        pos = match.end()
    rest = template[pos:]
    if "{" in rest or "}" in rest:
        return None
    parts.append(re.escape(rest))
    return re.compile("".join(parts), re.DOTALL)


def shown(name: str) -> str:
    text = visible(name)
    return text if len(text) <= MAX_NAME_SHOWN else text[: MAX_NAME_SHOWN - 1] + "…"


def refusal_message(server: str, kind: Kind, name: str, status: Status, lock: str) -> str:
    """What the agent (and its user) read when a call is refused: what happened and what to do."""
    what = f"{kind.value.replace('_', ' ')} {shown(name)!r} of MCP server {shown(server)!r}"
    if status is Status.UNPINNED_SERVER:
        return (
            f"mcplock-tui guard: MCP server {shown(server)!r} is not in the lockfile {lock}, so "
            f"nothing it offers is passed on. Review and pin it with `mcplock-tui pin --server "
            f"{shown(server)}` (then commit the lockfile)."
        )
    reason = {
        Status.NEW: "is new since the last review",
        Status.REJECTED: "was rejected in review",
        Status.MALFORMED: "is malformed or duplicated",
        Status.UNPINNED_SERVER: "",
        Status.PINNED: "",
        Status.DRIFTED: "",
    }.get(status) or "changed since it was reviewed"
    return (
        f"mcplock-tui guard: the definition of {what} {reason}, so it is withheld. Review it "
        f"with `mcplock-tui` (the review app) or `mcplock-tui --check`, then accept it with "
        f"`mcplock-tui accept {shown(server)}/{shown(name)}`."
    )


def passes(verdict: Verdict, warn: bool) -> bool:
    """``--mode warn`` lets everything through (still recorded); enforce only what is pinned."""
    return warn or verdict.pinned
