"""Reviewer decisions applied to a lockfile: pure functions, shared by the app and the CLI.

A decision is bound to the definition the reviewer saw (``Change.new_hash``). Before it is
written, the caller re-reads the live server and :func:`ensure_unmoved` refuses when the
definition moved in between, so text nobody read can never be accepted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from mcplock_tui.core.canonical import digest
from mcplock_tui.core.errors import DecisionError
from mcplock_tui.core.lockfile import Lockfile, Rejection, ServerPin
from mcplock_tui.core.model import JSON, ChangeType, Kind, Surface

if TYPE_CHECKING:  # type only: the app's first frame loads no diff
    from mcplock_tui.core.diff import Change


class Action(StrEnum):
    """What a signed record says was done; the values are the log's ``decision`` strings."""

    ACCEPT = "accept"
    REJECT = "reject"
    PIN = "pin"
    """A first pin of a server (``pin``, ``pin --replace``)."""
    UNDO = "undo"
    """The review app took a decision back and re-pinned what was pinned before."""


REVIEW_ACTIONS = (Action.ACCEPT, Action.REJECT)
"""What a reviewer decides about a change."""


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    change_id: str
    kind: Kind
    name: str
    old_hash: str | None
    new_hash: str
    note: str = ""


def _with_item(surface: Surface, kind: Kind, name: str, item: Mapping[str, JSON] | None) -> Surface:
    if kind is Kind.SERVER:
        if item is None:
            raise DecisionError("the server identity cannot be removed")
        return replace(surface, server=dict(item))
    if kind is Kind.INSTRUCTIONS:
        text = None if item is None else item.get("instructions")
        return replace(surface, instructions=text if isinstance(text, str) else None)
    items = dict(surface.items(kind))
    if item is None:
        items.pop(name, None)
    else:
        items[name] = dict(item)
    return surface.with_items(kind, items)


def _pin(lock: Lockfile, server: str) -> ServerPin:
    pin = lock.servers.get(server)
    if pin is None:
        raise DecisionError(f"server {server!r} is not in the lockfile; pin it first")
    return pin


def _without_rejection(pin: ServerPin, kind: Kind, name: str) -> tuple[Rejection, ...]:
    return tuple(r for r in pin.rejected if not (r.kind is kind and r.name == name))


def accept(lock: Lockfile, change: Change) -> Lockfile:
    """Pin exactly ``change.new`` (or drop the pin for a removal); clear any rejection."""
    pin = _pin(lock, change.server)
    surface = pin.surface
    if change.change is ChangeType.RENAMED and change.old_name:
        surface = _with_item(surface, change.kind, change.old_name, None)
    surface = _with_item(surface, change.kind, change.name, change.new)
    rejected = _without_rejection(pin, change.kind, change.name)
    servers = dict(lock.servers)
    servers[change.server] = ServerPin(surface=surface, rejected=rejected)
    return replace(lock, servers=servers)


def reject(lock: Lockfile, change: Change, note: str = "") -> Lockfile:
    """Keep the old pin and record the refused definition, so checks report it as triaged."""
    pin = _pin(lock, change.server)
    rejection = Rejection(
        kind=change.kind, name=change.name, hash=change.new_hash, note=note.strip()
    )
    rejected = (*_without_rejection(pin, change.kind, change.name), rejection)
    servers = dict(lock.servers)
    servers[change.server] = replace(pin, rejected=rejected)
    return replace(lock, servers=servers)


def live_hash(surface: Surface, kind: Kind, name: str) -> str:
    item = surface.get(kind, name)
    return "removed" if item is None else digest(item)


def ensure_unmoved(change: Change, live: Surface) -> None:
    """Refuse when the live definition is no longer the one the reviewer saw."""
    now = live_hash(live, change.kind, change.name)
    if now != change.new_hash:
        raise DecisionError(
            f"{change.kind.value} {change.name!r} on {change.server!r} changed again since it was "
            "shown; nothing was written; review the new difference"
        )


def clear_stale_rejections(lock: Lockfile, live: Mapping[str, Surface]) -> Lockfile:
    """Drop rejections whose item is served exactly as pinned again: nothing left to refuse."""
    servers = dict(lock.servers)
    changed = False
    for name, surface in live.items():
        pin = servers.get(name)
        if pin is None or not pin.rejected:
            continue
        kept = tuple(
            r
            for r in pin.rejected
            if live_hash(surface, r.kind, r.name) != live_hash(pin.surface, r.kind, r.name)
        )
        if kept != pin.rejected:
            servers[name] = replace(pin, rejected=kept)
            changed = True
    return replace(lock, servers=servers) if changed else lock


def _review_action(action: Action) -> Action:
    """Exactly accept or reject: a misspelt action must not fall through to either."""
    if action not in REVIEW_ACTIONS:
        raise ValueError(f"not a review decision: {action!r} (accept or reject)")
    return Action(action)


def decision_for(change: Change, action: Action, note: str = "") -> Decision:
    return Decision(
        _review_action(action),
        change.id,
        change.kind,
        change.name,
        change.old_hash,
        change.new_hash,
        note,
    )


def apply(lock: Lockfile, changes: Iterable[Change], action: Action, note: str = "") -> Lockfile:
    act = _review_action(action)
    for change in changes:
        lock = accept(lock, change) if act is Action.ACCEPT else reject(lock, change, note)
    return lock
