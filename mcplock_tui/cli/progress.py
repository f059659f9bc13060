"""One live line per server on stderr while capture runs, for a person at a terminal.

Only on a TTY, and not with ``NO_COLOR`` or ``TERM=dumb`` (both ask for plain output); piped,
in CI or redirected, nothing is added, so stdout and stderr stay exactly the report and the
diagnostics. Server names are config text and go through :func:`~mcplock_tui.cli.render.safe`.
The lines stay on screen when capture ends: they are a record of what each server did.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import IO, TYPE_CHECKING, Any

from mcplock_tui.core.diff import diff_surfaces
from mcplock_tui.core.lockfile import Lockfile
from mcplock_tui.core.model import CaptureResult

if TYPE_CHECKING:
    from rich.console import Group
    from rich.text import Text

Judge = Callable[[CaptureResult], str]
"""The word after the tool count for a captured server (``clean``, ``drift``, ``unpinned``)."""


def drift_word(lock: Lockfile) -> Judge:
    """``clean``/``drift`` against the pin (graded later, with every server's tools known)."""

    def judge(result: CaptureResult) -> str:
        pin = lock.servers.get(result.name)
        if pin is None or result.surface is None:
            return "new"
        return "drift" if diff_surfaces(result.name, pin.surface, result.surface) else "clean"

    return judge


def wanted(stream: IO[str]) -> bool:
    """Live progress only for a person: a TTY that accepts colour and cursor movement."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM", "") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


class CaptureProgress:
    """``with CaptureProgress(names, stream) as p: capture(..., on_result=p.finished)``."""

    def __init__(self, names: Sequence[str], stream: IO[str], judge: Judge | None = None) -> None:
        self.names = list(names)
        self.judge = judge
        self.started = time.monotonic()
        self.done: dict[str, Text] = {}
        self.live: Any = None  # rich's Live; rich is imported only when it is shown
        if wanted(stream) and self.names:
            from rich.console import Console
            from rich.live import Live

            console = Console(file=stream, highlight=False, markup=False, emoji=False)
            self.live = Live(self, console=console, refresh_per_second=8, transient=False)

    def __enter__(self) -> CaptureProgress:
        if self.live is not None:
            self.live.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.live is not None:
            self.live.stop()

    def finished(self, result: CaptureResult) -> None:
        """``on_result`` for :func:`~mcplock_tui.capture.runner.capture_all`."""
        if self.live is None:  # nothing is shown: rich is never imported
            return
        self.done[result.name] = self._line(result)
        self.live.refresh()

    def _line(self, result: CaptureResult) -> Text:
        from rich.text import Text

        from mcplock_tui.cli.render import safe

        name = safe(result.name, "bold")
        took = f"  {result.duration:.1f} s"
        surface = result.surface
        if surface is None:
            why = result.error_kind or "failed"
            return Text.assemble(("! ", "bold red"), name, f"  failed ({why})", (took, "dim"))
        word = self.judge(result) if self.judge is not None else "captured"
        style = {"clean": "green", "drift": "red"}.get(word, "yellow")
        mark = {"clean": "✓ ", "drift": "✗ "}.get(word, "· ")
        return Text.assemble(
            (mark, style),
            name,
            f"  {plural(len(surface.tools), 'tool')}, ",
            (word, style),
            (took, "dim"),
        )

    def __rich__(self) -> Group:
        from rich.console import Group
        from rich.text import Text

        from mcplock_tui.cli.render import safe

        waited = time.monotonic() - self.started
        rows = [
            self.done.get(n)
            or Text.assemble(("… ", "dim"), safe(n, "bold"), f"  connecting  {waited:.1f} s")
            for n in self.names
        ]
        return Group(*rows)
