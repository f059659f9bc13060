"""Lockfile writes are atomic and never clobber a file that does not read as a lockfile."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from mcplock_tui import storage
from mcplock_tui.errors import LockfileError
from tests.core.test_lockfile import make_lock


def test_write_then_read(tmp_path: Path) -> None:
    path = tmp_path / "mcplock.lock"
    lock = make_lock()
    assert storage.write_lockfile(path, lock) is True
    assert storage.read_lockfile(path) == lock
    assert storage.write_lockfile(path, lock) is False, "identical bytes are not rewritten"
    assert not [p for p in tmp_path.iterdir() if p.name != "mcplock.lock"], "no temp files left"


@pytest.mark.parametrize(
    "content",
    [b"<<<<<<< HEAD\nversion = 1\n=======\n", b"\xff\xfe not utf-8", b"version = 99\n"],
    ids=["merge-conflict", "not-utf8", "future-version"],
)
def test_unreadable_lockfile_is_never_overwritten(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "mcplock.lock"
    path.write_bytes(content)
    with pytest.raises(LockfileError, match="refusing to overwrite"):
        storage.write_lockfile(path, make_lock())
    assert path.read_bytes() == content


WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from mcplock_tui import storage
    from tests.core.test_lockfile import make_lock, TOOLS
    path = Path(sys.argv[1])
    big = [dict(TOOLS[0], name=f"tool_{i}", description="x" * 2000 + str(i)) for i in range(300)]
    locks = [make_lock(big), make_lock()]
    print("ready", flush=True)
    i = 0
    while True:
        storage.write_lockfile(path, locks[i % 2])
        i += 1
    """
)


def test_killed_writer_leaves_a_whole_lockfile(tmp_path: Path, repo_root: Path) -> None:
    path = tmp_path / "mcplock.lock"
    storage.write_lockfile(path, make_lock())
    for delay in (0.05, 0.13, 0.21, 0.34, 0.55):
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path)],
            cwd=repo_root,
            stdout=subprocess.PIPE,
        )
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == b"ready"
        time.sleep(delay)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        data = path.read_bytes()
        lock = storage.loads(data.decode())
        assert len(lock.servers["demo"].surface.tools) in (3, 300)


def test_only_a_document_with_carriage_returns_is_copied_to_swap_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.core.test_lockfile import INIT, TOOLS

    swaps: list[int] = []
    swap = storage._swap_cr

    def counted(value: object) -> object:
        if isinstance(value, dict) and "servers" in value:  # the whole document, not its parts
            swaps.append(1)
        return swap(value)

    monkeypatch.setattr(storage, "_swap_cr", counted)
    with_cr = make_lock()
    text = storage.dumps(with_cr)
    assert len(swaps) == 1 and "Use the tools.\\r\nCRLF kept." in text
    assert storage.loads(text) == with_cr
    assert "\r" in INIT["instructions"]
    monkeypatch.setitem(INIT, "instructions", "No carriage return.")
    without = make_lock(TOOLS)
    text = storage.dumps(without)
    assert len(swaps) == 1, "nothing to swap: the document is written as it is"
    assert storage.loads(text) == without
