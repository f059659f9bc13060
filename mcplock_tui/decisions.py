"""The one way a decision reaches the lockfile, for the CLI and the review app alike.

Every pin, accept, reject and undo goes through :func:`commit`:

1. the signing key is loaded (and refused when git tracks it or others can read it);
2. an exclusive lock beside the lockfile is taken, so concurrent decisions queue up;
3. under it the lockfile and the log are read again: a lockfile rewritten since the caller
   read it (``seen``), a pin that moved under a change, a pin the log's records contradict
   (edited by hand, or a record dropped), a version 1 lockfile whose log no longer reaches
   the head it names, or a damaged log tail all refuse the decision, writing nothing;
4. the signed records are appended to the log and fsynced first, then the lockfile is
   replaced atomically. If that write fails, the records are ahead of the lockfile and
   ``log verify`` names the items they accepted that the lockfile does not hold.

Capture is the caller's job (this module runs no server); ``live`` surfaces passed in are
what the decision is checked against, so text nobody saw is never pinned. Log, key and
lockfile are never followed through a symbolic link.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from mcplock_tui.core import review
from mcplock_tui.core.diff import Change
from mcplock_tui.core.lockfile import Lockfile, ServerPin, hashed_surface
from mcplock_tui.core.model import Surface
from mcplock_tui.core.review import Action, Decision
from mcplock_tui.core.verdict import Explained
from mcplock_tui.errors import DecisionError
from mcplock_tui.evidence.ledger import bind
from mcplock_tui.evidence.records import (
    KEY_DIR,
    EvidenceError,
    EvidencePaths,
    Record,
    pin_decisions,
    private_dir,
    record_decisions,
    record_hash,
    signing_key,
)
from mcplock_tui.evidence.verify import read_log
from mcplock_tui.storage import exclusive_lock, loads, read_bytes_nofollow, write_lockfile

Build = Callable[[Lockfile], tuple[Lockfile, list[Decision]]]


@dataclass(frozen=True, slots=True)
class Outcome:
    lock: Lockfile
    """The lockfile as written (or as found, when nothing was decided)."""
    records: tuple[Record, ...]
    """The log records appended, in order; empty when nothing changed."""
    written: bytes | None
    """The lockfile's bytes afterwards (None when there is none)."""


def lock_file_for(lock_path: Path) -> Path:
    """Where the exclusive decision lock lives: in the untracked ``.mcplock`` folder."""
    return lock_path.parent / KEY_DIR / f"{lock_path.name}.lck"


def _read_raw(lock_path: Path) -> bytes | None:
    try:
        return read_bytes_nofollow(lock_path)
    except FileNotFoundError:
        return None


def _parse(lock_path: Path, raw: bytes | None, without: Sequence[str] = ()) -> Lockfile:
    if raw is None:
        return Lockfile()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise DecisionError(f"{lock_path} is not UTF-8; nothing was written") from None
    return loads(text, str(lock_path), without=without)


def _check_log_head(lock_path: Path, lock: Lockfile) -> None:
    """The log must still hold the record a version 1 lockfile names as its head."""
    head = lock.log_head
    if head is None:
        return
    entries = read_log(EvidencePaths.for_lock(lock_path).log)
    at = entries[head.seq - 1] if len(entries) >= head.seq else None
    if not isinstance(at, dict) or at.get("seq") != head.seq or record_hash(at) != head.head:
        raise EvidenceError(
            f"the decision log no longer holds record {head.seq}, which {lock_path.name} names "
            "as its newest; records were dropped or edited. Run `mcplock-tui log verify` and "
            "restore the log from version control; nothing was written"
        )


def commit(
    lock_path: Path,
    build: Build,
    *,
    seen: bytes | None = None,
    explain: Mapping[str, Explained] | None = None,
    replacing: Sequence[str] = (),
) -> Outcome:
    """Apply ``build`` to the lockfile on disk, under the lock; record first, then write.

    ``replacing`` names servers whose pins are neither read nor kept (see :func:`replace_pins`).

    ``seen`` is the lockfile's bytes as the caller read them; when given, any rewrite since
    refuses the decision (the app, whose undo restores whole lockfiles, needs this).
    ``build`` gets the lockfile as re-read and returns the new one and its decisions; it
    raises :class:`DecisionError` to refuse.
    """
    signing_key(lock_path)  # refuses an exposed key before anything is locked or written
    private_dir(lock_path)
    with exclusive_lock(lock_file_for(lock_path)):
        raw = _read_raw(lock_path)
        if seen is not None and raw != seen:
            raise DecisionError(
                f"{lock_path.name} was changed by another program since it was read; nothing "
                "was written. Reopen the review to see its new state"
            )
        current = _parse(lock_path, raw, replacing)
        _check_log_head(lock_path, current)
        bind(lock_path, current)  # a pin edited by hand is replaced, never built upon
        new, decisions = build(current)
        if not decisions:
            return Outcome(current, (), raw)
        records = record_decisions(lock_path, decisions, explain=explain)
        new = replace(new, log_head=None)  # the records bind the new pins (format version 2)
        write_lockfile(lock_path, new, replacing=replacing)
        return Outcome(new, tuple(records), read_bytes_nofollow(lock_path))


def _ensure_pins_unmoved(lock: Lockfile, changes: Sequence[Change]) -> None:
    """Each change must still start from what is pinned now (another decision may have landed)."""
    for change in changes:
        pin = lock.servers.get(change.server)
        if pin is None:
            raise DecisionError(
                f"server {change.server!r} is no longer pinned; nothing was written"
            )
        name = change.old_name or change.name
        now = review.live_hash(pin.surface, change.kind, name)
        if now != (change.old_hash or "removed"):
            raise DecisionError(
                f"the pin of {change.kind.value} {name!r} on {change.server!r} was changed by "
                "another decision since this one was shown; nothing was written; review again"
            )


def decide(
    lock_path: Path,
    changes: Sequence[Change],
    action: Action,
    *,
    live: Mapping[str, Surface],
    note: str = "",
    seen: bytes | None = None,
    explain: Mapping[str, Explained] | None = None,
) -> Outcome:
    """Accept or reject ``changes``, each still served by ``live`` exactly as shown."""
    for change in changes:
        surface = live.get(change.server)
        if surface is None:
            raise DecisionError(f"{change.server!r} was not captured again; nothing was written")
        review.ensure_unmoved(change, surface)

    def build(current: Lockfile) -> tuple[Lockfile, list[Decision]]:
        if seen is None:  # with ``seen`` any rewrite at all was refused already
            _ensure_pins_unmoved(current, changes)
        new = review.apply(current, changes, action, note)
        new = review.clear_stale_rejections(new, live)
        return new, [review.decision_for(c, action, note) for c in changes]

    return commit(lock_path, build, seen=seen, explain=explain)


def pin_new(
    lock_path: Path, surfaces: Mapping[str, Surface], *, prune: Sequence[str] = ()
) -> Outcome:
    """Pin servers that have no pin yet; drop the pins named in ``prune``.

    A server pinned meanwhile by someone else keeps that pin: a pin never replaces a pin.
    """

    def build(current: Lockfile) -> tuple[Lockfile, list[Decision]]:
        servers = dict(current.servers)
        for name, surface in surfaces.items():
            if name not in servers:  # hashed once: for its record and for its table
                servers[name] = ServerPin(surface=hashed_surface(surface))
        for name in prune:
            servers.pop(name, None)
        new = replace(current, servers=servers)
        return new, pin_decisions(current, new)

    return commit(lock_path, build)


def replace_pins(lock_path: Path, surfaces: Mapping[str, Surface]) -> Outcome:
    """Pin ``surfaces`` in place of whatever their servers' tables hold, read or not.

    For a pin that is broken (hand-edited, half-merged): the old table is dropped unread,
    its rejections with it; every other pin is kept as it is, and the new pin is recorded
    item by item like a first pin. The caller shows the surfaces before calling this.
    """
    names = sorted(surfaces)

    def build(current: Lockfile) -> tuple[Lockfile, list[Decision]]:
        servers = dict(current.servers)
        servers.update((n, ServerPin(surface=hashed_surface(s))) for n, s in surfaces.items())
        new = replace(current, servers=servers)
        return new, pin_decisions(current, new)

    return commit(lock_path, build, replacing=names)


def restore(
    lock_path: Path, previous: Lockfile, decisions: Sequence[Decision], *, seen: bytes | None
) -> Outcome:
    """Write back an earlier lockfile (the app's undo), recording what it re-pins."""

    def build(current: Lockfile) -> tuple[Lockfile, list[Decision]]:
        return previous, list(decisions)  # commit drops a version 1 head, as for any write

    return commit(lock_path, build, seen=seen)
