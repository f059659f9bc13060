"""The lockfile memo: a verified read kept by the exact bytes it was read from.

Reading a lockfile parses its TOML, decodes every JSON text and digests every pinned item.
A later read of the same bytes may take the result from the user's cache folder instead,
and that may only ever save time: the same pins and digests come back, any other bytes
(one character edited by hand) are read in full, and a memo file that was edited, copied
under another lockfile's name, or written for other code is never used.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mcplock_tui import lock_memo, storage
from mcplock_tui.core.canonical import HashedItem
from mcplock_tui.core.lockfile import Lockfile, LogHead, Rejection, ServerPin
from mcplock_tui.core.model import Kind
from mcplock_tui.errors import LockfileError
from tests.core.test_lockfile import FORMAT_1, make_lock


def _lock() -> Lockfile:
    base = make_lock()
    pin = base.servers["demo"]
    rejected = (Rejection(Kind.TOOL, "read_file", "sha256:" + "ab" * 32, "not ours"),)
    return Lockfile({"demo": ServerPin(pin.surface, rejected), "zeta": pin})


def _digests(lock: Lockfile) -> dict[tuple[str, str, str], str]:
    out: dict[tuple[str, str, str], str] = {}
    for name, pin in lock.servers.items():
        assert type(pin.surface.server) is HashedItem
        out[(name, "server", "")] = pin.surface.server.digest
        for kind in (Kind.TOOL, Kind.PROMPT, Kind.RESOURCE, Kind.RESOURCE_TEMPLATE):
            for key, item in pin.surface.items(kind).items():
                assert type(item) is HashedItem, (name, kind, key)
                out[(name, kind.value, key)] = item.digest
    return out


@pytest.fixture
def lockpath(tmp_path: Path) -> Path:
    path = tmp_path / "mcplock.lock"
    storage.write_lockfile(path, _lock())
    return path


def _no_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(text: str, source: str) -> dict[str, object]:
        raise AssertionError("the lockfile was parsed again")

    monkeypatch.setattr(storage, "parse_toml", refuse)


def test_a_second_read_of_the_same_bytes_comes_from_the_memo(
    lockpath: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = storage.read_lockfile(lockpath)
    _no_parse(monkeypatch)
    second = storage.read_lockfile(lockpath)
    assert second == first == _lock()
    assert _digests(second) == _digests(first)
    assert list(second.servers) == list(first.servers)
    assert second.log_head == first.log_head
    assert second.servers["demo"].rejected == first.servers["demo"].rejected
    assert [list(i) for i in second.servers["demo"].surface.tools.values()] == [
        list(i) for i in first.servers["demo"].surface.tools.values()
    ], "key order kept"


def _description(lock: Lockfile) -> object:
    return lock.servers["demo"].surface.tools["read_file"]["description"]


def test_other_bytes_are_read_in_full(lockpath: Path) -> None:
    storage.read_lockfile(lockpath)
    text = lockpath.read_text(encoding="utf-8")
    assert "Read a file." in text
    lockpath.write_text(text.replace("Read a file.", "Read any file."), encoding="utf-8")
    edited = storage.read_lockfile(lockpath)
    assert str(_description(edited)).startswith("Read any file.")
    lockpath.write_text(text.replace('"type": "string"', '"type": string', 1), encoding="utf-8")
    with pytest.raises(LockfileError, match="invalid JSON text"):
        storage.read_lockfile(lockpath)


def test_a_format_1_lockfile_keeps_its_log_head_through_the_memo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "mcplock.lock"
    path.write_bytes(FORMAT_1.read_bytes())
    first = storage.read_lockfile(path)
    assert first.log_head == LogHead(seq=3, head="sha256:" + "cd" * 32)
    _no_parse(monkeypatch)
    second = storage.read_lockfile(path)
    assert second == first and second.log_head == first.log_head
    assert _digests(second) == _digests(first)


def _memo_files() -> list[Path]:
    folder = lock_memo.cache_dir()
    assert folder is not None
    return sorted(folder.glob("lock-*.bin"))


def test_a_memo_file_under_another_lockfiles_name_is_not_used(lockpath: Path) -> None:
    storage.read_lockfile(lockpath)
    (good,) = _memo_files()
    edited = lockpath.read_bytes().replace(b"Read a file.", b"Read any file.")
    lockpath.write_bytes(edited)
    # what a forger would do: give the good memo the name the edited bytes look up
    good.rename(lock_memo.memo_path(good.parent, lock_memo.bytes_digest(edited)))
    assert str(_description(storage.read_lockfile(lockpath))).startswith("Read any file.")


@pytest.mark.parametrize("where", ["mac", "body"])
def test_an_edited_memo_file_is_ignored(
    lockpath: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    storage.read_lockfile(lockpath)
    (memo,) = _memo_files()
    data = bytearray(memo.read_bytes())
    data[len(data) - 5 if where == "mac" else len(data) // 2] ^= 0x01
    memo.write_bytes(bytes(data))
    calls: list[str] = []
    real = storage.parse_toml

    def counted(text: str, source: str) -> dict[str, object]:
        calls.append(source)
        return real(text, source)

    monkeypatch.setattr(storage, "parse_toml", counted)
    assert storage.read_lockfile(lockpath) == _lock()
    assert calls, "the lockfile itself was read"


def test_a_lockfile_that_fails_to_read_leaves_no_memo(lockpath: Path) -> None:
    text = lockpath.read_text(encoding="utf-8")
    lockpath.write_text(text.replace('"type": "string"', '"type": string', 1), encoding="utf-8")
    with pytest.raises(LockfileError):
        storage.read_lockfile(lockpath)
    folder = lock_memo.cache_dir()
    assert folder is not None
    assert not list(folder.glob("lock-*.bin"))


def test_no_cache_means_no_memo_file(lockpath: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCPLOCK_NO_CACHE", "1")
    storage.read_lockfile(lockpath)
    monkeypatch.delenv("MCPLOCK_NO_CACHE")
    assert not _memo_files()


def test_memo_files_are_private_and_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(lock_memo.MAX_FILES + 3):
        path = tmp_path / f"l{n}.lock"
        tools: list[dict[str, object]] = [
            {"name": f"t{n}", "description": "x", "inputSchema": {"type": "object"}}
        ]
        storage.write_lockfile(path, make_lock(tools))
        storage.read_lockfile(path)
    files = _memo_files()
    assert len(files) == lock_memo.MAX_FILES
    assert all(os.stat(f).st_mode & 0o077 == 0 for f in files)
