"""``error_kind`` is one enum: every kind a report can carry is a member, and README lists
exactly the members (both directions), for one server and for the whole run."""

from __future__ import annotations

import re
from pathlib import Path

from mcplock_tui.capture import capture_sync
from mcplock_tui.core import errors
from mcplock_tui.core.model import ErrorKind
from tests.servers.harness import stdio_spec, write_defs

README = Path(__file__).resolve().parent.parent / "README.md"


def _listed(marker: str) -> set[str]:
    """The backticked words of the README sentence that starts with ``marker``."""
    text = README.read_text(encoding="utf-8")
    start = text.index(marker)
    sentence = text[start + len(marker) : text.index(".", start + len(marker))]
    return set(re.findall(r"`([a-z-]+)`", sentence))


def test_every_error_class_reports_a_member() -> None:
    classes = [c for c in vars(errors).values() if isinstance(c, type)]
    kinds = [c.kind for c in classes if issubclass(c, errors.MCPLockError)]
    assert kinds and all(isinstance(k, ErrorKind) for k in kinds), kinds


def test_a_failed_capture_carries_a_member(tmp_path: Path) -> None:
    defs = write_defs(tmp_path / "defs.json", mode="exit_at_start")
    result = capture_sync([stdio_spec("gone", defs)], timeout=10.0, log_dir=tmp_path)["gone"]
    assert result.error_kind is ErrorKind.CRASH, (result.error_kind, result.error)


def test_readme_lists_exactly_the_kinds() -> None:
    server = _listed("A server that could not be checked has an `error_kind`")
    run = _listed("The run's own `error_kind` is one of")
    assert server | run == {k.value for k in ErrorKind}
