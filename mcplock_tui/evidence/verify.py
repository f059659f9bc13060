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
from mcplock_tui.evidence.ledger import check_lockfile as check_lockfile  # re-exported
from mcplock_tui.evidence.log_lines import read_log as read_log  # re-exported
from mcplock_tui.evidence.records import (
    EvidenceError,
    EvidencePaths,
    Record,
    check_shape,
    item_list_problem,
    key_id,
    now_utc,
    parse_public_keys,
    public_pem,
    read_public_keys,
    record_hash,
    sign,
    signature_ok,
    signing_key,
)

BUNDLE_FORMAT = "mcplock-decisions-bundle"
BUNDLE_VERSION = 1
_BUNDLE_FIELDS: dict[str, type | tuple[type, ...]] = {
    "format": str,
    "version": int,
    "from": int,
    "to": int,
    "prev": (str, type(None)),
    "head": str,
    "exported": str,
    "public_keys": list,
    "signed_by": str,
    "records": list,
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
            for pos, seq in zip(expected, found, strict=True)
            if pos != seq
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
    entries: Sequence[Record | str],
    keys: Mapping[str, Ed25519PublicKey],
    *,
    first: int = 1,
    prev: str | None = None,
    key_source: str = "the public key file",
) -> list[str]:
    """Problems in records expected to be numbered ``first``, ``first + 1``, … after ``prev``."""
    problems = [
        (pos, f"record {pos}: {entry}")
        for pos, entry in enumerate(entries, first)
        if isinstance(entry, str)
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
            problems.append(
                (
                    label,
                    f"record {label}: chain broken: 'prev' does not match {what} "
                    "(a record before it was edited, dropped or reordered)",
                )
            )
        public = keys.get(entry["key"])
        if public is None:
            listed = ", ".join(sorted(keys)) or "no keys"
            problems.append(
                (
                    label,
                    f"record {label}: signed by key {entry['key']}, which is not "
                    f"in {key_source} ({listed}): the public key was swapped or removed",
                )
            )
        elif not signature_ok(public, entry):
            problems.append(
                (
                    label,
                    f"record {label}: signature does not verify: the record was "
                    "changed after it was signed",
                )
            )
        elif (wrong := item_list_problem(entry)) is not None:
            problems.append((label, f"record {label}: {wrong}"))
        before, readable_before = record_hash(entry), True
    return [message for _, message in sorted(problems, key=lambda p: p[0])]


def _span(lo: int, hi: int) -> str:
    return f"record {lo}" if lo == hi else f"records {lo}-{hi}"


def check_head(records: Sequence[Record], lock: Lockfile | None) -> list[str]:
    """A version 1 lockfile names the log's newest record; dropped or unapplied records show.

    A version 2 lockfile names none: :func:`check_lockfile` binds each of its items to the
    latest record about it, which catches the same dropped and unapplied accepts.
    """
    if lock is None or not records or lock.log_head is None:
        return []
    last = records[-1]
    head = lock.log_head
    if head.seq > int(last["seq"]):
        return [
            f"lockfile: names record {head.seq} as the log's newest, but the log ends at "
            f"record {last['seq']}: {_span(int(last['seq']) + 1, head.seq)} dropped"
        ]
    at = next((r for r in records if r["seq"] == head.seq), None)
    if at is None or record_hash(at) != head.head:
        return [
            f"lockfile: names record {head.seq} as the log's newest, but that record in "
            "the log is not the one it names (the log was rewritten)"
        ]
    if head.seq < int(last["seq"]):
        span = _span(head.seq + 1, int(last["seq"]))
        return [
            f"{span}: newer than the lockfile, which names record {head.seq} as the "
            "log's newest (a lockfile write failed after recording, or the lockfile was "
            "rolled back)"
        ]
    return []


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
            problems.append(
                f"{paths.log.name}: no records, but {paths.pub.name} exists: "
                "the log was emptied or deleted"
            )
        return Verification((), tuple(problems), tuple(sorted(keys)))
    if not keys and not problems:
        problems.append(
            f"{paths.pub.name}: missing or holds no public key; no record can be verified"
        )
    problems += verify_records(entries, keys, key_source=paths.pub.name)
    records = [e for e in entries if not isinstance(e, str)]
    if check_lock:
        problems += check_head(records, lock)
        problems += check_lockfile(records, lock)
    return Verification(tuple(records), tuple(problems), tuple(sorted(keys)))


def export_bundle(lock_path: Path, first: int, last: int | None) -> dict[str, Any]:
    """Records ``first``..``last`` with the keys to check them and a signature over the range."""
    checked = verify_log(lock_path, None, check_lock=False)
    if checked.problems:
        raise EvidenceError(
            f"the decision log does not verify ({checked.problems[0]}); "
            "run `mcplock-tui log verify`"
        )
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
    records = list(checked.records[first - 1 : end])
    used = sorted({r["key"] for r in records} | {signer})
    bundle: dict[str, Any] = {
        "format": BUNDLE_FORMAT,
        "version": BUNDLE_VERSION,
        "from": first,
        "to": end,
        "prev": record_hash(checked.records[first - 2]) if first > 1 else None,
        "head": record_hash(records[-1]),
        "exported": now_utc(),
        "public_keys": [public_pem(committed[k]) for k in used],
        "signed_by": signer,
        "records": records,
    }
    bundle["sig"] = sign(key, bundle)
    return bundle


def verify_bundle(
    doc: object, trusted: Mapping[str, Ed25519PublicKey], trust: Sequence[str] = ()
) -> Verification:
    """A bundle against the keys this project trusts: no lockfile, no network.

    The keys a bundle carries prove nothing by themselves (anyone can make a key and sign a
    history with it), so each signing key must be in ``trusted`` (the committed public key
    file) or named by fingerprint in ``trust``.
    """
    if not isinstance(doc, dict) or doc.get("format") != BUNDLE_FORMAT:
        return Verification(
            (), (f"bundle: not a decision bundle (format is not {BUNDLE_FORMAT!r})",), ()
        )
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
    used = {doc["signed_by"]} | {
        r["key"] for r in doc["records"] if isinstance(r, dict) and isinstance(r.get("key"), str)
    }
    for kid in sorted(used):
        known = trusted.get(kid)
        if kid in trust and kid in keys:
            continue
        if known is None or (kid in keys and public_pem(keys[kid]) != public_pem(known)):
            problems.append(
                f"bundle: signed by an unknown key {kid}: it is not in this "
                "project's mcplock.decisions.pub; if you know it is right, pass "
                f"--trust {kid}"
            )
    if problems:  # nothing an unknown key signed is worth checking further
        return Verification((), tuple(problems), ())
    keys = {**keys, **{k: trusted[k] for k in used if k in trusted}}
    signer = keys.get(doc["signed_by"])
    if signer is None:
        problems.append(f"bundle: signed by key {doc['signed_by']}, which it does not carry")
    elif not signature_ok(signer, doc):
        problems.append(
            "bundle: the signature over the range does not verify: the bundle was "
            "changed after export"
        )
    records = doc["records"]
    if len(records) != doc["to"] - doc["from"] + 1:
        problems.append(
            f"bundle: holds {len(records)} records, but claims records {doc['from']}..{doc['to']}"
        )
    entries = [check_shape(r) for r in records]
    problems += verify_records(
        entries, keys, first=doc["from"], prev=doc["prev"], key_source="the bundle's keys"
    )
    if entries and isinstance(entries[-1], dict) and record_hash(entries[-1]) != doc["head"]:
        problems.append(f"bundle: 'head' is not the hash of record {doc['to']}")
    readable = tuple(e for e in entries if isinstance(e, dict))
    return Verification(readable, tuple(problems), tuple(sorted(keys)))
