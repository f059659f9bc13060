"""Messages the app's workers post, named as past events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.message import Message

from mcplock_tui.core.graded import GradedChange
from mcplock_tui.core.model import CaptureResult, Finding

if TYPE_CHECKING:
    from mcplock_tui.core.verdict import Explained


class ServerCaptured(Message):
    """One server's capture finished (ok or failed) while others may still be running."""

    def __init__(self, result: CaptureResult) -> None:
        super().__init__()
        self.result = result


class CaptureFinished(Message):
    """Every server of the capture run has answered or failed."""


class DecisionRecorded(Message):
    """The lockfile on disk changed: a decision, or an undo."""

    def __init__(self, summary: str, change_ids: Sequence[str]) -> None:
        super().__init__()
        self.summary = summary
        self.change_ids = tuple(change_ids)


class ExplainReady(Message):
    """A verdict (or the reason there is none) for one change."""

    def __init__(self, change: GradedChange, answer: Explained) -> None:
        super().__init__()
        self.change = change
        self.answer = answer


class LintReady(Message):
    def __init__(self, server: str, findings: Sequence[Finding]) -> None:
        super().__init__()
        self.server = server
        self.findings = tuple(findings)
