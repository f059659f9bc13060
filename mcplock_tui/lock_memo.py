"""The lockfile memo: a verified read of a lockfile, kept by the SHA-256 of its exact bytes.

Reading a lockfile parses its TOML, decodes each pinned item's JSON texts and digests
every item (the digest the decision log's records are compared with); at thousands of tools
that is most of what a clean ``--check`` does beyond the bare SDK client. Between two runs
the file rarely changes, so a read that verified in full leaves its result in the user's
cache folder (the same folder, key and rules as :mod:`mcplock_tui.findings_cache`), and the
next read of *the same bytes* takes it from there. Anything else is read in full: one
changed byte is another digest.

What may not happen: a memo standing in for bytes it was not made from. Each file carries
an HMAC-SHA256 over the lockfile digest it answers for, the code fingerprint and its body,
under the folder's private key, so a memo edited, forged, copied from another machine or
renamed to another digest fails and is ignored (it costs a full read, nothing else). Only
a read that verified is kept. The fingerprint covers the reading code (the analysis core,
``storage``, ``toml_fast`` and this module): a memo made by other code is never read.
The body is a run of length-prefixed ``marshal`` records (the HMAC follows them), loaded
only after the HMAC checked; they hold plain JSON values, strings and integers, with each
item's key order as read, and are written one batch of items at a time, so keeping a read
never holds a second copy of the whole lockfile.
"""

from __future__ import annotations

import hashlib
import hmac
import marshal
import struct
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from mcplock_tui.core.canonical import HashedItem
from mcplock_tui.core.lockfile import Lockfile, LogHead, Rejection, ServerPin
from mcplock_tui.core.model import ITEM_KINDS, Kind, Surface
from mcplock_tui.findings_cache import cache_dir, cache_secret, fingerprint
from mcplock_tui.storage import SymlinkError, read_bytes_nofollow, write_bytes_atomic

__all__ = ["MAX_FILES", "bytes_digest", "cache_dir", "memo_path", "recall", "remember"]

FORMAT = 1
MAX_FILES = 8
"""Memos kept at once (one per lockfile version read lately); the oldest go first."""
_PREFIX = "lock-"
_BATCH = 512
"""Items per record: a write copies one batch's top levels at a time."""
_LENGTH = struct.Struct(">I")
_MAC_CHARS = 64


@cache
def _code() -> str:
    """The fingerprint of the analysis core plus the code that reads a lockfile."""
    base = fingerprint()
    if not base:
        return ""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256(f"{FORMAT}\0{base}".encode())
    try:
        for name in ("storage.py", "toml_fast.py", "lock_memo.py"):
            h.update(b"\0" + name.encode() + b"\0" + (here / name).read_bytes())
    except OSError:
        return ""
    return h.hexdigest()


def bytes_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def memo_path(folder: Path, digest: str) -> Path:
    return folder / f"{_PREFIX}{_code()[:16]}-{digest[:32]}.bin"


def _mac(secret: bytes, digest: str, pieces: Iterable[bytes | memoryview]) -> bytes:
    """HMAC-SHA256 over the lockfile digest, the code fingerprint and the body, as hex."""
    mac = hmac.new(secret, f"{digest}\0{_code()}\0".encode("ascii"), hashlib.sha256)
    for piece in pieces:
        mac.update(piece)
    return mac.hexdigest().encode("ascii")


def _folder() -> Path | None:
    return cache_dir() if _code() else None


def recall(digest: str) -> Lockfile | None:
    """The lockfile read earlier from bytes of this digest, or None (off, missing, forged)."""
    folder = _folder()
    if folder is None:
        return None
    try:
        secret = cache_secret(folder, create=False)
        if secret is None:
            return None
        raw = read_bytes_nofollow(memo_path(folder, digest))
    except (OSError, SymlinkError):
        return None
    body = memoryview(raw)[:-_MAC_CHARS]  # a view: the body is most of the file, not copied
    if len(raw) < _MAC_CHARS or not hmac.compare_digest(
        raw[-_MAC_CHARS:], _mac(secret, digest, (body,))
    ):
        return None
    try:
        return _lockfile(_records(body))
    except (ValueError, TypeError, EOFError, KeyError, IndexError, StopIteration, struct.error):
        return None  # not what remember wrote


def remember(digest: str, lock: Lockfile) -> None:
    """Keep ``lock``, read and verified from bytes of ``digest``; a cache that cannot be
    written is skipped silently (it only ever costs time)."""
    folder = _folder()
    if folder is None:
        return
    try:
        secret = cache_secret(folder, create=True)
        if secret is None:
            return
        path = memo_path(folder, digest)
        write_bytes_atomic(path, _signed_body(secret, digest, lock), mode=0o600)
        _prune(folder, keep=path)
    except (OSError, SymlinkError, ValueError):  # ValueError: a value marshal cannot hold
        return


def _signed_body(secret: bytes, digest: str, lock: Lockfile) -> Iterator[bytes]:
    """The records, each as it is made (no copy of the whole lockfile at once), then the MAC."""
    mac = hmac.new(secret, f"{digest}\0{_code()}\0".encode("ascii"), hashlib.sha256)
    for record in _plain(lock):
        data = marshal.dumps(record)
        piece = _LENGTH.pack(len(data)) + data
        mac.update(piece)
        yield piece
    yield mac.hexdigest().encode("ascii")


def _records(body: memoryview) -> Iterator[Any]:
    at = 0
    while at < len(body):
        (size,) = _LENGTH.unpack_from(body, at)
        at += _LENGTH.size
        if at + size > len(body):
            raise ValueError("a record runs past the end")
        yield marshal.loads(body[at : at + size])
        at += size


def _prune(folder: Path, keep: Path) -> None:
    mine = f"{_PREFIX}{_code()[:16]}-"
    dated: list[tuple[float, Path]] = []
    for path in folder.glob(f"{_PREFIX}*.bin"):
        if not path.name.startswith(mine):  # written by other code: never read again
            path.unlink(missing_ok=True)
        elif path != keep:
            dated.append((path.stat().st_mtime, path))
    dated.sort()
    for _, path in dated[: max(0, len(dated) - (MAX_FILES - 1))]:
        path.unlink(missing_ok=True)


def _plain(lock: Lockfile) -> Iterator[Any]:
    """The lockfile as records: a head, then per server its own record and its items in
    batches (top-level copies of a batch at a time: a ``HashedItem`` is not marshalled)."""
    head = None if lock.log_head is None else (lock.log_head.seq, lock.log_head.head)
    yield (FORMAT, head, len(lock.servers))
    for name, pin in lock.servers.items():
        surface = pin.surface
        counts = [len(surface.items(kind)) for kind in ITEM_KINDS]
        rejected = [(r.kind.value, r.name, r.hash, r.note) for r in pin.rejected]
        server = (dict(surface.server), _digest(surface.server))
        yield (name, server, surface.instructions, rejected, counts)
        for kind in ITEM_KINDS:
            batch: list[tuple[str, dict[str, Any], str]] = []
            for key, item in surface.items(kind).items():
                batch.append((key, dict(item), _digest(item)))
                if len(batch) == _BATCH:
                    yield batch
                    batch = []
            if batch:
                yield batch


def _digest(item: object) -> str:
    if type(item) is not HashedItem:  # every item a verified read returns carries its digest
        raise ValueError("an item without its verified digest")
    return item.digest


def _lockfile(records: Iterator[Any]) -> Lockfile:
    version, head, count = next(records)
    if version != FORMAT:
        raise ValueError("another memo format")
    pins: dict[str, ServerPin] = {}
    for _ in range(count):
        name, (server, server_digest), instructions, rejected, counts = next(records)
        by_kind: dict[Kind, dict[str, Mapping[str, Any]]] = {}
        for kind, wanted in zip(ITEM_KINDS, counts, strict=True):
            items: dict[str, Mapping[str, Any]] = {}
            while len(items) < wanted:
                for key, item, digest in next(records):
                    items[key] = HashedItem(item, digest)
            by_kind[kind] = items
        surface = Surface(
            server=HashedItem(server, server_digest),
            instructions=instructions,
            tools=by_kind[Kind.TOOL],
            prompts=by_kind[Kind.PROMPT],
            resources=by_kind[Kind.RESOURCE],
            resource_templates=by_kind[Kind.RESOURCE_TEMPLATE],
        )
        refused = tuple(Rejection(Kind(k), n, h, note) for k, n, h, note in rejected)
        pins[name] = ServerPin(surface=surface, rejected=refused)
    if next(records, None) is not None:
        raise ValueError("records after the last server")
    log_head = None if head is None else LogHead(seq=head[0], head=head[1])
    return Lockfile(servers=pins, log_head=log_head)
