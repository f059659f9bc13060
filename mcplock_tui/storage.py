"""Lockfile bytes on disk: deterministic TOML, visible escapes, atomic replacement.

``tomli_w`` writes hidden characters (zero-width, bidi, C1) raw and folds CRLF inside
multi-line strings. In its output such characters can only occur inside basic strings,
where TOML's ``\\uXXXX`` escapes are valid, so they are escaped after the fact; a
round-trip check then proves that every string reads back exactly.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import tempfile
from collections.abc import Collection, Iterable, Iterator
from pathlib import Path
from typing import Any

from mcplock_tui import toml_fast
from mcplock_tui.core import lockfile as lf
from mcplock_tui.core.canonical import is_hidden
from mcplock_tui.errors import LockfileError, MCPLockError

HEADER = (
    "# MCP server definitions reviewed and pinned by mcplock-tui.\n"
    "# Commit this file. Change it with `mcplock-tui` (pin, accept, reject), not by hand.\n"
)
_NON_ASCII_OR_CR = re.compile(r"[^\x00-\x0c\x0e-\x7f]")


def _toml_escape(ch: str) -> str:
    if ch == "\r":
        return "\\r"
    cp = ord(ch)
    return f"\\u{cp:04X}" if cp <= 0xFFFF else f"\\U{cp:08X}"


def _escape_hidden(text: str) -> str:
    if text.isascii() and "\r" not in text:  # most lockfiles: nothing to look at
        return text
    return _NON_ASCII_OR_CR.sub(
        lambda m: _toml_escape(m[0]) if m[0] == "\r" or is_hidden(m[0]) else m[0], text
    )


# tomli_w folds CR LF to LF inside multi-line strings. Carriage returns are swapped for a
# noncharacter before writing and turned into ``\r`` escapes after; a document that already
# holds the noncharacter takes the single-line path instead.
_CR_SENTINEL = "\ufdd0"


def _swap_cr(value: Any) -> Any:
    if isinstance(value, str):
        return value.replace("\r", _CR_SENTINEL)
    if isinstance(value, dict):
        return {k: _swap_cr(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_swap_cr(v) for v in value]
    return value


def _scan(doc: Any) -> tuple[bool, bool]:
    """(a string value holds a CR, any string or key holds the sentinel), in one walk."""
    cr = False
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            if _CR_SENTINEL in node:
                return cr, True
            cr = cr or "\r" in node
        elif isinstance(node, dict):
            if any(_CR_SENTINEL in key for key in node):
                return cr, True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return cr, False


def _candidates(doc: dict[str, Any]) -> Iterator[str]:
    """Multi-line strings first; the single-line form only if that one fails (lazily: each
    candidate is the size of the whole lockfile).

    The document as it is comes first, with no walk, unless it holds the sentinel (then
    raw in the text: only escapes added after hide it). That is what the swap would give
    too, since a lone CR is escaped as ``\\r`` either way; only a CR LF in a multi-line
    string, which ``tomli_w`` folds, fails the read-back and needs the swap.
    """
    text = toml_fast.dumps(doc, multiline_strings=True, literal_strings=True)
    if _CR_SENTINEL not in text:
        yield text
    del text
    cr, sentinel = _scan(doc)
    if cr and not sentinel:
        swapped = toml_fast.dumps(_swap_cr(doc), multiline_strings=True, literal_strings=True)
        yield swapped.replace(_CR_SENTINEL, "\\r")
    yield toml_fast.dumps(doc)


def dumps(lock: lf.Lockfile) -> str:
    """The exact lockfile text for ``lock``: same input, same bytes."""
    doc = lf.encode(lock)
    for raw in _candidates(doc):
        text = _escape_hidden(raw)
        del raw
        if toml_fast.loads(text) == doc:
            return HEADER + text
    raise LockfileError("internal error: the lockfile would not read back as written")


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """``tomllib.loads`` with every way it can fail on hostile text turned into one message."""
    try:
        return toml_fast.loads(text)
    except RecursionError:
        raise LockfileError(
            f"{source}: not valid TOML: arrays or tables nested too deeply"
        ) from None
    except ValueError as exc:
        import tomllib  # only tomllib's fallback raises its error: loaded by then, if at all

        if isinstance(exc, tomllib.TOMLDecodeError):
            raise LockfileError(f"{source}: not valid TOML: {exc}") from None
        # int() refuses a number of more than 4300 digits
        raise LockfileError(
            f"{source}: not valid TOML: a number has too many digits ({exc})"
        ) from None


def loads(text: str, source: str = "lockfile", *, without: Collection[str] = ()) -> lf.Lockfile:
    """The lockfile in ``text``; the pins of the servers in ``without`` are left unread.

    ``without`` serves ``pin --server X --replace``: a broken pin of X must not stop the
    rest of the file from being read (and kept as it is), and nothing of X's table is used.
    """
    doc = parse_toml(text, source)
    servers = doc.get("servers")
    if without and isinstance(servers, dict):
        doc = {**doc, "servers": {k: v for k, v in servers.items() if k not in without}}
    return lf.decode(doc, source, consume=True)


class SymlinkError(MCPLockError):
    """A file the tool writes or trusts is a symbolic link: refused, never followed."""


def open_nofollow(path: Path, flags: int, mode: int = 0o644) -> int:
    """``os.open`` that refuses a symbolic link as the last component (``O_NOFOLLOW``).

    A link planted in a checkout (``mcplock.decisions.jsonl -> ~/.bashrc``) would otherwise
    make a decision write outside the repository, or read trust from somewhere else.
    """
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    try:
        return os.open(path, flags | nofollow, mode)
    except OSError as exc:
        if exc.errno == errno.ELOOP or (not nofollow and path.is_symlink()):
            raise SymlinkError(
                f"{path} is a symbolic link; refusing to follow it (replace it with the real "
                "file from version control)"
            ) from None
        raise


def read_bytes_nofollow(path: Path) -> bytes:
    """The whole file; a missing one raises FileNotFoundError, a link SymlinkError."""
    fd = open_nofollow(path, os.O_RDONLY)
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


@contextlib.contextmanager
def exclusive_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock on ``path`` (created empty if missing)."""
    fd = open_nofollow(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            import fcntl
        except ImportError:  # not on POSIX: a single writer is assumed
            yield
            return
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def read_lockfile(path: Path) -> lf.Lockfile:
    """Read and verify; a missing file raises FileNotFoundError, anything else LockfileError.

    Bytes read and verified before come back from :mod:`mcplock_tui.lock_memo`.
    """
    try:
        raw = read_bytes_nofollow(path)
    except FileNotFoundError:
        raise
    except SymlinkError as exc:
        raise LockfileError(str(exc)) from None
    except OSError as exc:
        raise LockfileError(f"{path}: cannot read: {exc.strerror}") from None
    from mcplock_tui import lock_memo  # it reads and writes through this module

    digest = lock_memo.bytes_digest(raw)
    known = lock_memo.recall(digest)
    if known is not None:  # these exact bytes were read and verified before
        return known
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LockfileError(f"{path}: not UTF-8 (byte {exc.start})") from None
    del raw  # each is the size of the file: neither is needed while the pins are decoded
    doc = parse_toml(text, str(path))
    del text
    lock = lf.decode(doc, str(path), consume=True)  # the document is freed as it is read
    lock_memo.remember(digest, lock)
    return lock


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every platform/filesystem allows it
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def private_dir(folder: Path) -> None:
    """Create ``folder`` and any missing parents as 0700; existing folders are left alone."""
    missing: list[Path] = []
    node = folder
    while not node.exists() and node != node.parent:
        missing.append(node)
        node = node.parent
    for path in reversed(missing):
        try:
            path.mkdir(mode=0o700)
        except FileExistsError:
            continue  # a concurrent capture made it
        os.chmod(path, 0o700)  # mkdir's mode is filtered by the umask


def write_text_atomic(path: Path, text: str | Iterable[str], *, mode: int | None = None) -> None:
    """Temp file in the same folder, fsync, ``os.replace``: readers see old or new, never half.

    ``text`` may come in pieces (a large report), written as they come, in UTF-8.

    ``mode`` fixes the file's permissions (0600 for private files); by default an existing
    file keeps its mode and a new one gets 0644.
    """
    pieces = (text,) if isinstance(text, str) else text
    write_bytes_atomic(path, (piece.encode("utf-8") for piece in pieces), mode=mode)


def write_bytes_atomic(
    path: Path, data: bytes | Iterable[bytes], *, mode: int | None = None
) -> None:
    """:func:`write_text_atomic` for bytes, which may come in pieces too."""
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            if isinstance(data, bytes):
                handle.write(data)
            else:
                handle.writelines(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is None:
            with contextlib.suppress(OSError):  # mkstemp makes 0600; keep the old mode or 0644
                os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else 0o644)
        else:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(folder)


def write_lockfile(path: Path, lock: lf.Lockfile, *, replacing: Collection[str] = ()) -> bool:
    """Write ``lock``; returns False when the file already holds exactly these bytes.

    An existing file that does not read as a lockfile is never replaced: it may hold a
    merge in progress or someone's work, and losing it would lose reviewed decisions. The
    one exception is a file that reads once the pins in ``replacing`` are left out: those
    pins are being replaced by a recorded decision, and every other pin is in ``lock``.
    """
    text = dumps(lock)
    try:
        current = read_bytes_nofollow(path)
    except FileNotFoundError:
        current = None
    except SymlinkError as exc:
        raise LockfileError(f"refusing to write {path}: {exc}") from None
    except OSError as exc:
        raise LockfileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if current is not None:
        if current == text.encode("utf-8"):
            return False
        try:
            loads(current.decode("utf-8"), str(path), without=replacing)
        except (LockfileError, UnicodeDecodeError) as exc:
            raise LockfileError(
                f"refusing to overwrite {path}: it is not a readable lockfile ({exc}); "
                "fix or move it first"
            ) from None
    try:
        write_text_atomic(path, text)
    except OSError as exc:
        where = exc.filename or path.parent
        raise LockfileError(
            f"{path}: cannot write the lockfile ({where}: {exc.strerror or exc}); nothing was changed"
        ) from None
    return True


def load_document(path: Path) -> dict[str, Any]:
    """Raw TOML document, for tools that need more than the lockfile model (e.g. policy)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise LockfileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LockfileError(f"{path}: not UTF-8 (byte {exc.start})") from None
    return parse_toml(text, str(path))
