"""Checking the decision log: the chain, the signatures, the lockfile, and exported bundles.

Every check re-derives what it compares from the records themselves; nothing a record says
about its own validity is believed. Problems are returned as ``record N: …`` sentences so the
CLI can print them and tests can assert on them.

Heuristics, and which way they fail: the lockfile check assumes a later ``pin`` of a server
supersedes its earlier accepts, and that an accept whose old hash is another item's accepted
hash was a rename that consumed that item. A hand-edited lockfile that happens to match is
not flagged (silent miss); a pin or accept made by a tool that records nothing is (noisy).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from mcplock_tui.core.lockfile import Lockfile
from mcplock_tui.core.model import Kind
from mcplock_tui.core.review import live_hash
from mcplock_tui.evidence import (
    EvidenceError,
    EvidencePaths,
    Record,
    check_shape,
    key_id,
    now_utc,
    parse_log,
    parse_public_keys,
    public_pem,
    read_public_keys,
    record_hash,
    sign,
    signature_ok,
    signing_key,
    surface_hash,
)

BUNDLE_FORMAT = "mcplock-decisions-bundle"
BUNDLE_VERSION = 1
_BUNDLE_FIELDS: dict[str, type | tuple[type, ...]] = {
    "format": str, "version": int, "from": int, "to": int, "prev": (str, type(None)),
    "head": str, "exported": str, "public_keys": list, "signed_by": str, "records": list,
    "sig": str,
}


@dataclass(frozen=True, slots=True)
class Verification:
    records: tuple[Record, ...]
    """The records that could be read (valid or not)."""
    problems: tuple[str, ...]
    keys: tuple[str, ...]
    """Ids of the public keys checked against."""

    @property
    def ok(self) -> bool:
        return not self.problems


def read_log(path: Path) -> list[Record | str]:
    """Each line as a record, or as the reason it is not one; a missing log is empty."""
    try:
        return parse_log(path.read_bytes())
    except FileNotFoundError:
        return []


def _gaps(first: int, highest: int, present: set[int]) -> list[tuple[int, int]]:
    gaps: list[tuple[int, int]] = []
    cur = first - 1
    for seq in sorted(s for s in {*present, highest + 1} if s >= first):
        if seq > cur + 1:
            gaps.append((cur + 1, seq - 1))
        cur = max(cur, seq)
    return gaps


def _order_problems(entries: Sequence[Record | str], first: int) -> list[tuple[int, str]]:
    expected = list(range(first, first + len(entries)))
    seqs = [e["seq"] if isinstance(e, dict) else None for e in entries]
    found = [s for s in seqs if s is not None]
    if len(found) == len(entries) and sorted(found) == expected and found != expected:
        return [
            (pos, f"record {pos}: holds record {seq}: records were reordered")
            for pos, seq in zip(expected, found, strict=True) if pos != seq
        ]
    problems: list[tuple[int, str]] = []
    unreadable = {pos for pos, s in zip(expected, seqs, strict=True) if s is None}
    highest = max([*found, first + len(entries) - 1])
    for lo, hi in _gaps(first, highest, set(found) | unreadable):
        which = f"record {lo}" if lo == hi else f"records {lo}-{hi}"
        problems.append((lo, f"{which}: missing: dropped from the log"))
    problems.extend(
        (seq, f"record {seq}: appears {n} times") for seq, n in Counter(found).items() if n > 1
    )
    return problems


def verify_records(
    entries: Sequence[Record | str], keys: Mapping[str, Ed25519PublicKey], *,
    first: int = 1, prev: str | None = None, key_source: str = "the public key file",
) -> list[str]:
    """Problems in records expected to be numbered ``first``, ``first + 1``, … after ``prev``."""
    problems = [
        (pos, f"record {pos}: {entry}")
        for pos, entry in enumerate(entries, first) if isinstance(entry, str)
    ]
    problems += _order_problems(entries, first)
    before: str | None = prev
    readable_before = True
    for entry in entries:
        if isinstance(entry, str):
            readable_before = False
            continue
        label = entry["seq"]
        if readable_before and entry["prev"] != before:
            what = "the start of the range" if before is None else "the record before it"
            problems.append((label, f"record {label}: chain broken: 'prev' does not match {what} "
                             "(a record before it was edited, dropped or reordered)"))
        public = keys.get(entry["key"])
        if public is None:
            listed = ", ".join(sorted(keys)) or "no keys"
            problems.append((label, f"record {label}: signed by key {entry['key']}, which is not "
                             f"in {key_source} ({listed}): the public key was swapped or removed"))
        elif not signature_ok(public, entry):
            problems.append((label, f"record {label}: signature does not verify: the record was "
                             "changed after it was signed"))
        before, readable_before = record_hash(entry), True
    return [message for _, message in sorted(problems, key=lambda p: p[0])]


def _short(value: str) -> str:
    return value if len(value) <= 19 else value[:19] + "…"


def check_lockfile(records: Sequence[Record], lock: Lockfile | None) -> list[str]:
    """Each item's latest accept (and each server's latest pin) must be what is pinned now."""
    accepted: dict[tuple[str, str, str], Record] = {}
    pins: dict[str, Record] = {}
    touched: set[str] = set()
    for r in records:
        server = r["server"]
        if r["decision"] == "pin":
            pins[server] = r
            accepted = {k: v for k, v in accepted.items() if k[0] != server}
            touched.discard(server)
        elif r["decision"] in ("accept", "undo"):  # an undo re-pins what was there before
            accepted = {  # a rename consumes the item it came from
                k: v for k, v in accepted.items()
                if not (k[:2] == (server, r["kind"]) and k[2] != r["item"]
                        and r["old_hash"] is not None and v["new_hash"] == r["old_hash"])
            }
            accepted[(server, r["kind"], r["item"])] = r
            touched.add(server)
    servers = lock.servers if lock is not None else {}
    problems: list[str] = []
    for server, r in sorted(pins.items()):
        if server in touched:
            continue
        pin = servers.get(server)
        actual = "removed" if pin is None else surface_hash(pin.surface)
        if actual != r["new_hash"]:
            problems.append(f"lockfile: server {server!r} is pinned as {_short(actual)}, "
                            f"but record {r['seq']} pinned {_short(r['new_hash'])}")
    for (server, kind, item), r in sorted(accepted.items()):
        pin = servers.get(server)
        if pin is None:
            problems.append(f"lockfile: server {server!r} is not pinned, but record {r['seq']} "
                            f"accepted its {kind} {item!r}")
            continue
        try:
            actual = live_hash(pin.surface, Kind(kind), item)
        except ValueError:
            problems.append(f"record {r['seq']}: unknown kind {kind!r}")
            continue
        if actual != r["new_hash"]:
            problems.append(f"lockfile: {kind} {item!r} on {server!r} is pinned as "
                            f"{_short(actual)}, but record {r['seq']} accepted "
                            f"{_short(r['new_hash'])}")
    return problems


def verify_log(lock_path: Path, lock: Lockfile | None, *, check_lock: bool = True) -> Verification:
    """The whole log beside ``lock_path`` against the committed keys (and the lockfile)."""
    paths = EvidencePaths.for_lock(lock_path)
    entries = read_log(paths.log)
    problems: list[str] = []
    try:
        keys = read_public_keys(paths.pub)
    except EvidenceError as exc:
        keys, problems = {}, [str(exc)]
    if not entries:
        if paths.pub.exists():
            problems.append(f"{paths.log.name}: no records, but {paths.pub.name} exists: "
                            "the log was emptied or deleted")
        return Verification((), tuple(problems), tuple(sorted(keys)))
    if not keys and not problems:
        problems.append(f"{paths.pub.name}: missing or holds no public key; "
                        "no record can be verified")
    problems += verify_records(entries, keys, key_source=paths.pub.name)
    records = [e for e in entries if not isinstance(e, str)]
    if check_lock:
        problems += check_lockfile(records, lock)
    return Verification(tuple(records), tuple(problems), tuple(sorted(keys)))


def export_bundle(lock_path: Path, first: int, last: int | None) -> dict[str, Any]:
    """Records ``first``..``last`` with the keys to check them and a signature over the range."""
    checked = verify_log(lock_path, None, check_lock=False)
    if checked.problems:
        raise EvidenceError(f"the decision log does not verify ({checked.problems[0]}); "
                            "run `mcplock-tui log verify`")
    total = len(checked.records)
    end = total if last is None else last
    if not 1 <= first <= end <= total:
        raise EvidenceError(f"range {first}..{end} is outside the log (records 1..{total})")
    key = signing_key(lock_path, create=False)
    paths = EvidencePaths.for_lock(lock_path)
    committed = read_public_keys(paths.pub)
    signer = key_id(key.public_key())
    if signer not in committed:
        raise EvidenceError(f"the private decision key ({signer}) is not in {paths.pub.name}")
    records = list(checked.records[first - 1:end])
    used = sorted({r["key"] for r in records} | {signer})
    bundle: dict[str, Any] = {
        "format": BUNDLE_FORMAT, "version": BUNDLE_VERSION, "from": first, "to": end,
        "prev": record_hash(checked.records[first - 2]) if first > 1 else None,
        "head": record_hash(records[-1]), "exported": now_utc(),
        "public_keys": [public_pem(committed[k]) for k in used], "signed_by": signer,
        "records": records,
    }
    bundle["sig"] = sign(key, bundle)
    return bundle


def verify_bundle(doc: object) -> Verification:
    """A bundle on its own: no key file, no lockfile, no network."""
    if not isinstance(doc, dict) or doc.get("format") != BUNDLE_FORMAT:
        return Verification((), ("bundle: not a decision bundle (format is not "
                                 f"{BUNDLE_FORMAT!r})",), ())
    for name, types in _BUNDLE_FIELDS.items():
        if not isinstance(doc.get(name), types) or isinstance(doc.get(name), bool):
            problem = f"bundle: field {name!r} is missing or has the wrong type"
            return Verification((), (problem,), ())
    if doc["version"] != BUNDLE_VERSION:
        return Verification((), (f"bundle: version {doc['version']} is not supported",), ())
    try:
        keys = parse_public_keys(
            b"\n".join(str(k).encode("ascii", "replace") for k in doc["public_keys"]), "bundle"
        )
    except EvidenceError as exc:
        return Verification((), (str(exc),), ())
    problems: list[str] = []
    signer = keys.get(doc["signed_by"])
    if signer is None:
        problems.append(f"bundle: signed by key {doc['signed_by']}, which it does not carry")
    elif not signature_ok(signer, doc):
        problems.append("bundle: the signature over the range does not verify: the bundle was "
                        "changed after export")
    records = doc["records"]
    if len(records) != doc["to"] - doc["from"] + 1:
        problems.append(f"bundle: holds {len(records)} records, but claims records "
                        f"{doc['from']}..{doc['to']}")
    entries = [check_shape(r) for r in records]
    problems += verify_records(entries, keys, first=doc["from"], prev=doc["prev"],
                               key_source="the bundle's keys")
    if entries and isinstance(entries[-1], dict) and record_hash(entries[-1]) != doc["head"]:
        problems.append(f"bundle: 'head' is not the hash of record {doc['to']}")
    readable = tuple(e for e in entries if isinstance(e, dict))
    return Verification(readable, tuple(problems), tuple(sorted(keys)))
