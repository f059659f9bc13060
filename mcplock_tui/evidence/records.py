"""The decision log: a signed, hash-chained record of every pin, accept and reject.

A lockfile says what is trusted now; this log says who decided it, when and why, in a form a
team can later prove was never rewritten. It is JSON Lines beside the lockfile
(``mcplock.decisions.jsonl``), append-only. Each record carries ``prev``, the hash of the
record before it, and ``sig``, an ed25519 signature over its own canonical JSON without
``sig``. The private key is project-local (``.mcplock/decision-key.pem``, mode 0600, never
committed; ``$MCPLOCK_DECISION_KEY`` may hold it instead, e.g. from a CI secret); the public
keys are committed as ``mcplock.decisions.pub``, so anyone can verify the log. A checkout
without the private key starts a key of its own and adds it to that file: the addition is a
reviewed diff like any other.

Records hold hashes, names, the reviewer, the time, the note and at most an explain verdict
with its reason: never a secret, a tool argument or an environment value.

Which way verification fails:

- An edited, reordered, dropped-from-the-middle or cut-short record is always reported. A
  whole trailing record removed at a line end leaves a valid shorter chain; it is caught only
  when the lockfile then disagrees with the last accepted decision, or against an exported
  bundle or version control.
- The signatures prove the log was written with a key in ``mcplock.decisions.pub``. Whoever
  can change that file can re-sign a history; its history in version control is the anchor.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import datetime as dt
import hashlib
import os
import re
import stat
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from mcplock_tui.core.canonical import canon_json, digest, digest_text, item_digest
from mcplock_tui.core.lockfile import Lockfile
from mcplock_tui.core.model import Kind, Surface
from mcplock_tui.core.review import Action, Decision
from mcplock_tui.core.verdict import Explained, Verdict
from mcplock_tui.errors import MCPLockError
from mcplock_tui.evidence.log_lines import ITEMS_FIELD as ITEMS_FIELD
from mcplock_tui.evidence.log_lines import KEY_DIR as KEY_DIR
from mcplock_tui.evidence.log_lines import KEY_FILE as KEY_FILE
from mcplock_tui.evidence.log_lines import TRUNCATED as TRUNCATED
from mcplock_tui.evidence.log_lines import EvidencePaths as EvidencePaths
from mcplock_tui.evidence.log_lines import Record as Record
from mcplock_tui.evidence.log_lines import check_shape as check_shape
from mcplock_tui.evidence.log_lines import parse_line as parse_line
from mcplock_tui.evidence.log_lines import parse_log as parse_log
from mcplock_tui.storage import SymlinkError, open_nofollow, read_bytes_nofollow, write_text_atomic

RECORD_VERSION = 1
KEY_ENV = "MCPLOCK_DECISION_KEY"
ACTIONS = tuple(a.value for a in Action)
"""What a record may say was done (see :class:`~mcplock_tui.core.review.Action`)."""
_PEM_BLOCK = re.compile(rb"-----BEGIN PUBLIC KEY-----.+?-----END PUBLIC KEY-----", re.DOTALL)
_GITIGNORE = (
    "# The private decision key: never commit it (keep it here or in a CI secret).\n"
    f"{KEY_FILE}\n"
    "# Held while a decision is written, so concurrent decisions queue up.\n"
    "*.lck\n"
)

PublicKeys = dict[str, Ed25519PublicKey]


class EvidenceError(MCPLockError):
    """The decision log or its keys cannot be used to record a decision."""


# --- hashes, keys, signatures ------------------------------------------------------------


def record_hash(record: Mapping[str, Any]) -> str:
    """What ``prev`` of the next record holds: the digest of the whole signed record."""
    return digest(dict(record))


def surface_hash(surface: Surface) -> str:
    """One digest for a pinned server: every item's hash, by kind and name."""
    items = surface.all_items()
    return digest({f"{kind.value}/{name}": item_digest(item) for kind, name, item in items})


def key_id(key: Ed25519PublicKey) -> str:
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return "ed25519:" + hashlib.sha256(raw).hexdigest()[:16]


def public_pem(key: Ed25519PublicKey) -> str:
    pem = key.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return pem.decode("ascii")


def parse_public_keys(data: bytes, source: str) -> PublicKeys:
    """Every ed25519 PEM block in ``data``, by key id; anything else in a block is an error."""
    keys: PublicKeys = {}
    for block in _PEM_BLOCK.findall(data):
        try:
            key = serialization.load_pem_public_key(block)
        except ValueError:
            raise EvidenceError(f"{source}: a public key block is not valid PEM") from None
        if not isinstance(key, Ed25519PublicKey):
            raise EvidenceError(f"{source}: holds a public key that is not ed25519")
        keys[key_id(key)] = key
    return keys


def read_public_keys(path: Path) -> PublicKeys:
    try:
        return parse_public_keys(read_bytes_nofollow(path), str(path))
    except FileNotFoundError:
        return {}
    except SymlinkError as exc:
        raise EvidenceError(str(exc)) from None


def _signed_part(record: Mapping[str, Any]) -> bytes:
    return canon_json({k: v for k, v in record.items() if k != "sig"}).encode("ascii")


def sign(key: Ed25519PrivateKey, record: Mapping[str, Any]) -> str:
    return base64.b64encode(key.sign(_signed_part(record))).decode("ascii")


def signature_ok(key: Ed25519PublicKey, record: Mapping[str, Any]) -> bool:
    try:
        raw = base64.b64decode(str(record.get("sig", "")), validate=True)
        key.verify(raw, _signed_part(record))
    except (InvalidSignature, binascii.Error, ValueError):
        return False
    return True


def _load_private(data: bytes, source: str) -> Ed25519PrivateKey:
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise EvidenceError(f"{source}: not an unencrypted PEM private key") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise EvidenceError(f"{source}: the decision key must be ed25519")
    return key


def signing_key(lock_path: Path, *, create: bool = True) -> Ed25519PrivateKey:
    """The signing key: ``$MCPLOCK_DECISION_KEY``, else ``.mcplock/decision-key.pem``.

    With ``create`` a missing key is generated (mode 0600, with a ``.gitignore`` beside it).
    Callers load it before writing the lockfile, so a decision is never applied without a
    record; its public half is committed only when the first record is written.
    """
    paths = EvidencePaths.for_lock(lock_path)
    env = os.environ.get(KEY_ENV, "").strip()
    if env:
        return _load_private(env.encode("utf-8"), f"${KEY_ENV}")
    if paths.key.parent.is_symlink():
        raise EvidenceError(
            f"{paths.key.parent} is a symbolic link; refusing to use a key through it"
        )
    if os.path.lexists(paths.key):
        _refuse_exposed_key(paths.key, lock_path)
        try:
            return _load_private(read_bytes_nofollow(paths.key), str(paths.key))
        except SymlinkError as exc:
            raise EvidenceError(str(exc)) from None
    if not create:
        raise EvidenceError(f"no private decision key ({paths.key}, or ${KEY_ENV})")
    key = Ed25519PrivateKey.generate()
    private_dir(lock_path)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    fd = os.open(paths.key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(pem)
    return key


def private_dir(lock_path: Path) -> Path:
    """``.mcplock/`` beside the lockfile (key, decision lock), with its ``.gitignore``."""
    folder = lock_path.parent / KEY_DIR
    if folder.is_symlink():
        raise EvidenceError(f"{folder} is a symbolic link; refusing to use it")
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    ignore = folder / ".gitignore"
    if not os.path.lexists(ignore):
        write_text_atomic(ignore, _GITIGNORE)
    return folder


def _rotate_hint(key: Path, lock_path: Path) -> str:
    pub = EvidencePaths.for_lock(lock_path).pub.name
    return (
        f"treat it as leaked and rotate it: `git rm --cached {key}` if git tracks it, "
        f"delete {key}, remove its public key from {pub} (commit that), and decide again: "
        "a new key is made"
    )


def _git_tracks(path: Path) -> bool:
    try:
        proc = subprocess.run(
            ["git", "ls-files", "--error-unmatch", "--", path.name],
            cwd=path.parent,
            capture_output=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False  # no git: nothing can be tracked
    return proc.returncode == 0


def _refuse_exposed_key(key: Path, lock_path: Path) -> None:
    """A key others can read or that git tracks signs nothing: anyone could sign with it."""
    st = os.lstat(key)
    if stat.S_ISLNK(st.st_mode):
        raise EvidenceError(f"{key} is a symbolic link; refusing to follow it")
    if st.st_mode & 0o077:
        raise EvidenceError(
            f"{key} can be read by other users (mode {st.st_mode & 0o777:o}); "
            f"refusing to sign with it; {_rotate_hint(key, lock_path)}"
        )
    if _git_tracks(key):
        raise EvidenceError(
            f"{key} is tracked by git, so everyone with the repository can "
            f"sign decisions with it; refusing; {_rotate_hint(key, lock_path)}"
        )


def _publish(pub_path: Path, public: Ed25519PublicKey) -> None:
    """Add a key to the committed public key file unless it is there already."""
    if key_id(public) in read_public_keys(pub_path):
        return
    try:
        current = pub_path.read_text(encoding="ascii")
    except FileNotFoundError:
        current = ""
    joined = current + ("\n" if current and not current.endswith("\n") else "")
    write_text_atomic(pub_path, joined + public_pem(public))


# --- records -----------------------------------------------------------------------------


def reviewer(folder: Path) -> str:
    """``Name <email>`` from git config, else ``$USER``; never anything from the servers."""
    found: list[str] = []
    for field in ("user.name", "user.email"):
        try:
            proc = subprocess.run(
                ["git", "config", field],
                cwd=folder,
                capture_output=True,
                text=True,
                timeout=5,
                check=False,
            )
        except (OSError, subprocess.SubprocessError):
            break
        found.append(proc.stdout.strip() if proc.returncode == 0 else "")
    name, email = [*found, "", ""][:2]
    if name and email:
        return f"{name} <{email}>"
    return name or email or os.environ.get("USER") or os.environ.get("USERNAME") or "unknown"


def now_utc() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _server_of(decision: Decision) -> str:
    if (
        decision.action == "pin"
        and decision.name == Kind.SERVER.value
        and (decision.kind is Kind.SERVER and not decision.change_id.endswith("/server/server"))
    ):
        return decision.change_id  # a whole-server pin (or its removal)
    suffix = f"/{decision.kind.value}/{decision.name}"
    if not decision.change_id.endswith(suffix) or len(decision.change_id) == len(suffix):
        raise ValueError(f"change id {decision.change_id!r} does not end in {suffix!r}")
    return decision.change_id[: -len(suffix)]


def _verdict(value: Explained | None) -> dict[str, str] | None:
    """Only the verdict word and its one-sentence reason: never the text that was sent."""
    if not isinstance(value, Verdict):
        return None  # no explain, or one that gave no verdict: nothing to keep
    return {"verdict": value.verdict[:40], "reason": value.reason[:500]}


def pin_decision(server: str, surface: Surface | None, previous: Surface | None = None) -> Decision:
    """A ``pin`` of a whole server (``surface`` None: dropped from the lockfile)."""
    return Decision(
        Action.PIN,
        server,
        Kind.SERVER,
        Kind.SERVER.value,
        None if previous is None else surface_hash(previous),
        "removed" if surface is None else surface_hash(surface),
    )


@dataclass(frozen=True, slots=True)
class ServerPinDecision(Decision):
    """A pin of a whole server that lists every item's hash: one record and one signature
    cover every hash the lockfile trusts for it, and ``log verify`` still names each item."""

    items: Mapping[str, str] = dataclass_field(default_factory=dict)
    """``kind/name`` -> the item's hash; ``new_hash`` is the digest of this mapping."""


def server_pin(server: str, surface: Surface) -> ServerPinDecision:
    items = {f"{kind.value}/{name}": item_digest(item) for kind, name, item in surface.all_items()}
    return ServerPinDecision(
        Action.PIN, server, Kind.SERVER, Kind.SERVER.value, None, digest(items), items=items
    )


def pin_decisions(before: Lockfile, after: Lockfile) -> list[Decision]:
    """The records for servers whose pin was added, replaced or dropped.

    A dropped server is one whole-server record (``new_hash`` ``removed``); an added or
    replaced one is the removal of the old pin, if any, then one whole-server record that
    lists each item's hash (see :class:`ServerPinDecision`).
    """
    out: list[Decision] = []
    for name in sorted(set(before.servers) | set(after.servers)):
        old, new = before.servers.get(name), after.servers.get(name)
        old_s, new_s = (None if p is None else p.surface for p in (old, new))
        if old_s is not None and new_s is not None and surface_hash(old_s) == surface_hash(new_s):
            continue
        if old_s is not None:
            out.append(pin_decision(name, None, old_s))
        if new_s is not None:
            out.append(server_pin(name, new_s))
    return out


@contextlib.contextmanager
def _locked_log(path: Path) -> Iterator[int]:
    """The log opened for appending under an exclusive lock, so concurrent writers chain."""
    try:
        fd = open_nofollow(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
    except SymlinkError as exc:
        raise EvidenceError(f"{exc}; nothing was recorded") from None
    try:
        try:
            import fcntl
        except ImportError:  # not on POSIX: a single writer is assumed
            yield fd
        else:
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                yield fd
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _read_all(fd: int) -> bytes:
    chunks = []
    os.lseek(fd, 0, os.SEEK_SET)
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


def record_decisions(
    lock_path: Path,
    decisions: Sequence[Decision],
    *,
    explain: Mapping[str, Explained] | None = None,
) -> list[Record]:
    """Append one signed record per decision to the log beside ``lock_path``.

    ``explain`` maps a change id to its explain answer; of a verdict only the word and its
    reason are kept. Refuses to extend a damaged log.
    """
    if not decisions:
        return []
    for d in decisions:
        if d.action not in ACTIONS:
            raise ValueError(f"unknown decision {d.action!r}")
    key = signing_key(lock_path)
    kid = key_id(key.public_key())
    paths = EvidencePaths.for_lock(lock_path)
    who = reviewer(lock_path.parent)
    _publish(paths.pub, key.public_key())
    with _locked_log(paths.log) as fd:
        data = _read_all(fd)
        last: Record | None = None
        if data:
            tail = data.rstrip(b"\n").rsplit(b"\n", 1)[-1]
            parsed = parse_line(tail) if data.endswith(b"\n") else TRUNCATED
            if isinstance(parsed, str):
                raise EvidenceError(
                    f"{paths.log} is damaged at its last record ({parsed}); run `mcplock-tui log "
                    "verify` and restore the log from version control before recording more"
                )
            last = parsed
        seq = 0 if last is None else int(last["seq"])
        prev = None if last is None else record_hash(last)
        out: list[str] = []
        written: list[Record] = []
        for d in decisions:
            seq += 1
            record: Record = {
                "v": RECORD_VERSION,
                "seq": seq,
                "time": now_utc(),
                "decision": d.action.value,
                "change": d.change_id,
                "server": _server_of(d),
                "kind": d.kind.value,
                "item": d.name,
                "old_hash": d.old_hash,
                "new_hash": d.new_hash,
                "reviewer": who,
                "note": d.note,
                "explain": _verdict((explain or {}).get(d.change_id)),
                "key": kid,
                "prev": prev,
            }
            if isinstance(d, ServerPinDecision):
                record[ITEMS_FIELD] = dict(d.items)
            record["sig"] = sign(key, record)
            line = canon_json(record)
            out.append(line + "\n")
            written.append(record)
            prev = digest_text(line)  # record_hash(record), from the line already encoded
        os.write(fd, "".join(out).encode("ascii"))
        os.fsync(fd)
    return written


# --- reading -----------------------------------------------------------------------------


def item_list_problem(record: Mapping[str, Any]) -> str | None:
    """Why a (signed) record's item list says something other than the record, or None.

    Checked after the signature, so an edited record is reported as edited."""
    items = record.get(ITEMS_FIELD)
    if items is None:
        return None
    if record["decision"] != Action.PIN.value or record["change"] != record["server"]:
        return f"field {ITEMS_FIELD!r} on a record that is not a whole-server pin"
    if digest(items) != record["new_hash"]:
        return "its item list does not match its new_hash"
    return None
