"""The scan memo on disk, so a check does not run every detector over unchanged items again.

Where it lives, and why there: in the user's cache folder (``$MCPLOCK_CACHE_DIR``, else
``$XDG_CACHE_HOME/mcplock-tui``, else ``~/.cache/mcplock-tui``), never in the repository.
Config, lockfile and everything beside them may come from a pull request, and a memo entry
that lists no findings would hide them; the cache folder is the user's, like the installed
code. Within it the file is still checked: it carries an HMAC-SHA256 under a key kept in
the same folder (``.findings-key``, 0600, made on first use), so a file copied from another
machine or edited by hand fails and is ignored, which costs a full scan and nothing else;
so do a malformed file and any malformed entry. ``MCPLOCK_NO_CACHE=1`` turns it off
(no file is read or written).

What is kept is exactly what :func:`~mcplock_tui.core.detectors.scan_item` returned for an
input digest (see :mod:`mcplock_tui.core.scan_memo`). The detector code is not in those
keys, so the file is named after a fingerprint of the package's analysis code (every
``core`` source file), its version, the Python version and its Unicode tables: any change to
any of them starts an empty memo. Files are written atomically; two checks at once leave one
writer's file, never half of one.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import sys
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

from mcplock_tui import __version__
from mcplock_tui.core.model import Finding, Severity
from mcplock_tui.core.scan_memo import KEY_CHARS, ScanMemo
from mcplock_tui.storage import SymlinkError, private_dir, read_bytes_nofollow, write_text_atomic

FORMAT = 1
KEY_FILE = ".findings-key"
MAX_ENTRIES = 200_000
"""Above this many entries only those used or added by the run are kept."""
_SECRET_BYTES = 32
_SEVERITIES = {int(s): s for s in Severity}


def cache_dir() -> Path | None:
    """The folder, or None when caching is turned off (or the code cannot be fingerprinted)."""
    if os.environ.get("MCPLOCK_NO_CACHE", "").strip() not in ("", "0") or not fingerprint():
        return None
    explicit = os.environ.get("MCPLOCK_CACHE_DIR", "").strip()
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(base) / "mcplock-tui"


@cache
def fingerprint() -> str:
    """What the memo's findings depend on besides their inputs: the analysis code itself.

    Empty when the sources cannot be read (an install without them): then there is no memo.
    """
    h = hashlib.sha256()
    h.update(f"{FORMAT}\0{__version__}\0{sys.version}\0{unicodedata.unidata_version}".encode())
    core = Path(__file__).resolve().parent / "core"
    sources = sorted(core.rglob("*.py"))
    try:
        for path in sources:
            h.update(b"\0" + path.relative_to(core).as_posix().encode() + b"\0")
            h.update(path.read_bytes())
    except OSError:
        return ""
    return h.hexdigest() if sources else ""


def _path(folder: Path) -> Path:
    return folder / f"findings-{fingerprint()[:24]}.json"


def cache_secret(folder: Path, *, create: bool) -> bytes | None:
    path = folder / KEY_FILE
    try:
        data = read_bytes_nofollow(path)
        return data if len(data) == _SECRET_BYTES else None
    except FileNotFoundError:
        pass
    if not create:
        return None
    private_dir(folder)
    data = secrets.token_bytes(_SECRET_BYTES)
    try:  # O_EXCL: a concurrent run that made one first wins; read theirs next time
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        return None
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    return data


def body_mac(secret: bytes, body: bytes) -> str:
    return hmac.new(secret, body, hashlib.sha256).hexdigest()


def load() -> ScanMemo:
    """The memo for this code, or an empty one (off, missing, forged, malformed: all alike)."""
    folder = cache_dir()
    if folder is None:
        return ScanMemo()
    try:
        secret = cache_secret(folder, create=False)
        raw = read_bytes_nofollow(_path(folder)) if secret is not None else b""
    except (OSError, SymlinkError):  # a link planted in the folder is not followed
        return ScanMemo()
    mac, _, body = raw.partition(b"\n")
    if secret is None or not hmac.compare_digest(mac, body_mac(secret, body).encode("ascii")):
        return ScanMemo()
    try:
        doc = json.loads(body)
    except (ValueError, RecursionError):
        return ScanMemo()
    entries = _entries(doc)
    return ScanMemo(entries) if entries is not None else ScanMemo()


def _entries(doc: Any) -> dict[str, tuple[Finding, ...]] | None:
    if not isinstance(doc, dict) or doc.get("v") != FORMAT or doc.get("code") != fingerprint():
        return None
    clean, found = doc.get("clean"), doc.get("found")
    if not isinstance(clean, list) or not isinstance(found, dict):
        return None
    entries: dict[str, tuple[Finding, ...]] = {}
    for key in clean:
        if not _is_key(key):
            return None
        entries[key] = ()
    # Findings of many items repeat their texts (the same rule, message and excerpt on every
    # tool of a family): each text is held once, as the memo lives through the whole check.
    texts: dict[str, str] = {}
    for key, rows in found.items():
        findings = _findings(rows, texts)
        if not _is_key(key) or findings is None:
            return None
        entries[key] = findings
    return entries


def _is_key(key: object) -> bool:
    return isinstance(key, str) and len(key) == KEY_CHARS


def _findings(rows: object, shared: dict[str, str]) -> tuple[Finding, ...] | None:
    if not isinstance(rows, list) or not rows:
        return None
    out: list[Finding] = []
    for row in rows:
        if not isinstance(row, list) or len(row) != 9:
            return None
        code, severity, message, path, excerpt, span, server, kind, item = row
        texts = (code, message, path, excerpt, server, kind, item)
        if not all(isinstance(t, str) for t in texts) or type(severity) is not int:
            return None
        if severity not in _SEVERITIES:
            return None
        if span is not None and not (
            isinstance(span, list) and len(span) == 2 and all(type(n) is int for n in span)
        ):
            return None
        code, message, path, excerpt, server, kind = (
            shared.setdefault(t, t) for t in (code, message, path, excerpt, server, kind)
        )
        out.append(
            Finding(
                code=code,
                severity=_SEVERITIES[severity],
                message=message,
                path=path,
                excerpt=excerpt,
                span=None if span is None else (span[0], span[1]),
                server=server,
                kind=kind,
                item=item,
            )
        )
    return tuple(out)


def _row(f: Finding) -> list[Any]:
    span = None if f.span is None else list(f.span)
    return [f.code, int(f.severity), f.message, f.path, f.excerpt, span, f.server, f.kind, f.item]


def save(memo: ScanMemo) -> None:
    """Write the memo back when the run added to it; a cache that cannot be written is
    skipped silently (it only ever costs time)."""
    folder = cache_dir()
    if folder is None or not memo.added:
        return
    entries = memo.entries
    if len(entries) > MAX_ENTRIES:
        entries = {k: v for k, v in entries.items() if k in memo.used}
    doc = {
        "v": FORMAT,
        "code": fingerprint(),
        "clean": [k for k, v in entries.items() if not v],
        "found": {k: [_row(f) for f in v] for k, v in entries.items() if v},
    }
    body = json.dumps(doc, ensure_ascii=True, separators=(",", ":"))
    try:
        secret = cache_secret(folder, create=True)
        if secret is None:
            return
        path = _path(folder)
        write_text_atomic(path, body_mac(secret, body.encode("ascii")) + "\n" + body, mode=0o600)
        for stale in folder.glob("findings-*.json"):
            if stale != path:  # written by other analysis code: never read again
                stale.unlink(missing_ok=True)
    except (OSError, SymlinkError):
        return
