"""What the decision log says is pinned, and whether the lockfile agrees.

The lockfile holds what was reviewed, readably; the log holds, for every pinned item, the
hash a signed record gave it. Replaying the records yields the hash each item must have
now, so a lockfile whose content has drifted from its records (an edit by hand, a record
dropped from the end of the log, a merge that took one side's lockfile and the other's log)
is caught without a hash stored beside each definition.

Two uses: :func:`bind` runs on every read that a decision or the gate rests on (cheap: the
records are only parsed, the item digests were computed when the lockfile was read), and
:func:`check_lockfile` is ``log verify``'s fuller report, which also names every item no
record covers. Signatures are ``log verify``'s job (:mod:`mcplock_tui.evidence.verify`).
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mcplock_tui.core.canonical import digest, item_digest
from mcplock_tui.core.errors import PinHashError
from mcplock_tui.core.lockfile import Lockfile
from mcplock_tui.evidence.log_lines import ITEMS_FIELD, EvidencePaths, Record, read_log
from mcplock_tui.storage import read_lockfile


def short(value: str) -> str:
    return value if len(value) <= 19 else value[:19] + "…"


_ITEM_DECISIONS = ("pin", "accept", "undo")
"""Decisions that set what an item is pinned as (``undo`` re-pins the earlier definition)."""


def _is_whole_pin(r: Record) -> bool:
    return bool(r["decision"] == "pin" and r["change"] == r["server"])


def _item_hashes(lock: Lockfile, server: str) -> dict[tuple[str, str], str]:
    pin = lock.servers[server]
    return {(k.value, name): item_digest(item) for k, name, item in pin.surface.all_items()}


@dataclass(slots=True)
class _Replay:
    """Per server, what the records say is pinned: item -> (hash, record)."""

    items: dict[tuple[str, str], tuple[str, Record]]
    whole: Record | None = None
    """The latest whole-server pin without an item list (as the oldest logs pin a server)."""
    first_old: dict[tuple[str, str], str | None] | None = None
    """For a whole pin: each item's hash before the first later record touched it."""


def _item_key(listed: str) -> tuple[str, str]:
    kind, _, name = listed.partition("/")  # kinds hold no "/", names may
    return kind, name


def _replay(records: Sequence[Record]) -> dict[str, _Replay]:
    state: dict[str, _Replay] = {}
    for r in records:
        if r["decision"] not in _ITEM_DECISIONS:
            continue
        server = r["server"]
        if _is_whole_pin(r):
            state.pop(server, None)
            listed = r.get(ITEMS_FIELD)
            if isinstance(listed, dict):  # each item bound to this record, as item records
                state[server] = _Replay({_item_key(k): (str(h), r) for k, h in listed.items()})
            elif r["new_hash"] != "removed":
                state[server] = _Replay({}, r, {})
            continue
        s = state.setdefault(server, _Replay({}))
        key = (str(r["kind"]), str(r["item"]))
        if s.first_old is not None and key not in s.first_old:
            s.first_old[key] = r["old_hash"]
        if r["decision"] == "accept" and r["old_hash"] is not None:  # a rename consumes its source
            for other, (h, _) in list(s.items.items()):
                if other[0] == key[0] and other != key and h == r["old_hash"]:
                    del s.items[other]
        s.items[key] = (str(r["new_hash"]), r)
    return state


def _whole_pin_holds(s: _Replay, current: dict[tuple[str, str], str]) -> bool:
    """Roll the touched items back to before their first later record; must be the pin."""
    assert s.whole is not None and s.first_old is not None
    rolled = dict(current)
    for key, old in s.first_old.items():
        if old is None:
            rolled.pop(key, None)
        else:
            rolled[key] = old
    return bool(digest({f"{k}/{n}": h for (k, n), h in rolled.items()}) == s.whole["new_hash"])


def _what(key: tuple[str, str], server: str) -> str:
    return f"{key[0].replace('_', ' ')} {key[1]!r} on {server!r}"


def check_lockfile(records: Sequence[Record], lock: Lockfile | None) -> list[str]:
    """Every item the lockfile pins must be exactly what a signed record pinned or accepted.

    Names each item no record covers, and each record (the latest for its item) that the
    lockfile contradicts.
    """
    state = _replay(records)
    servers = lock.servers if lock is not None else {}
    problems: list[str] = []
    for server in sorted(set(state) - set(servers)):
        gone = state[server]
        live = [(k, v) for k, v in sorted(gone.items.items()) if v[0] != "removed"]
        if gone.whole is not None or live:
            seq = gone.whole["seq"] if gone.whole is not None else live[-1][1][1]["seq"]
            problems.append(
                f"lockfile: server {server!r} is not pinned, but record {seq} pinned or accepted it"
            )
    for server in sorted(servers):
        current = _item_hashes(lock, server) if lock is not None else {}
        s = state.get(server)
        if s is None:
            problems.append(
                f"lockfile: server {server!r}: no signed record pinned any of it "
                f"({len(current)} items unreviewed here)"
            )
            problems += [
                f"lockfile: {_what(k, server)} is pinned as {short(h)}, but no "
                "signed record pinned or accepted it"
                for k, h in sorted(current.items())
            ]
            continue
        problems += ["lockfile: " + p for p in _server_problems(server, s, current)]
    return problems


def _server_problems(
    server: str, s: _Replay, current: dict[tuple[str, str], str], *, uncovered: bool = True
) -> list[str]:
    """How the pins of ``server`` differ from the records; ``uncovered`` adds the items no
    record names (a lockfile written by hand, or by a tool that records nothing)."""
    problems: list[str] = []
    whole_ok = s.whole is not None and _whole_pin_holds(s, current)
    if s.whole is not None and not whole_ok:
        actual = digest({f"{k}/{n}": h for (k, n), h in current.items()})
        problems.append(
            f"server {server!r} is pinned as {short(actual)}, but "
            f"record {s.whole['seq']} pinned {short(s.whole['new_hash'])}"
        )
    for key in sorted(set(current) | set(s.items)):
        have = current.get(key, "removed")
        said = s.items.get(key)
        if said is None:
            if s.whole is None and uncovered:
                problems.append(
                    f"{_what(key, server)} is pinned as {short(have)}, "
                    "but no signed record pinned or accepted it"
                )
            continue
        if said[0] != have:
            r = said[1]
            verb = {"pin": "pinned", "undo": "restored"}.get(r["decision"], "accepted")
            problems.append(
                f"{_what(key, server)} is pinned as {short(have)}, but "
                f"record {r['seq']} {verb} {short(said[0])}"
            )
    return problems


def contradictions(records: Sequence[Record], lock: Lockfile) -> dict[str, str]:
    """Per pinned server, the first way its pins contradict the latest records about them.

    Items no record names are not contradictions (``log verify`` reports them): a lockfile
    written before its server had a record reads as it did.
    """
    state = _replay(records)
    found: dict[str, str] = {}
    for server in sorted(lock.servers):
        s = state.get(server)
        if s is None:
            continue
        problems = _server_problems(server, s, _item_hashes(lock, server), uncovered=False)
        if problems:
            found[server] = problems[0]
    return found


def bind(lock_path: Path, lock: Lockfile) -> Lockfile:
    """``lock`` when every pin agrees with the decision log beside it, else PinHashError.

    The error names the first server that disagrees and the command that replaces that
    server's pin alone, as a pin that fails to read does.
    """
    if not lock.servers:
        return lock
    log = EvidencePaths.for_lock(lock_path).log
    entries = read_log(log)
    records = [e for e in entries if not isinstance(e, str)]
    found = contradictions(records, lock)
    if not found:
        return lock
    server = min(found)
    raise PinHashError(
        f"{lock_path}: servers.{server}: {found[server]} (edited by hand, or a record was "
        f"dropped from {log.name}?); restore both files from version control, or run "
        f"`mcplock-tui pin --server {shlex.quote(server)} --replace` to capture that server "
        "and pin it again (the other pins stay as they are)",
        server=server,
    )


def read_bound(lock_path: Path) -> Lockfile:
    """The lockfile at ``lock_path``, read and bound to its decision log (:func:`bind`).

    Every read that the gate or a decision rests on goes through here, so none can skip
    the binding.
    """
    return bind(lock_path, read_lockfile(lock_path))
