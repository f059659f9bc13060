"""A change after grading: the diff's record of what moved, and the band and reasons for it.

Diff (:class:`~mcplock_tui.core.diff.Change`) knows nothing of severity; grading wraps each
change in a :class:`GradedChange`. Review state (a reviewer's rejection) and explain verdicts
are kept beside graded changes, by change id, in the report: they describe a decision about
a change, not the change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from mcplock_tui.core.model import JSON, ChangeType, Finding, Kind, Reason, Severity

if TYPE_CHECKING:  # the report model loads without the diff (and difflib)
    from mcplock_tui.core.diff import Change, FieldChange


@dataclass(frozen=True, slots=True)
class GradedChange:
    """One drifted item with its band; read-only views of the diff's fields for brevity."""

    diff: Change
    severity: Severity
    reasons: tuple[Reason, ...] = ()
    """Every rule and finding that applied, worst first."""
    findings: tuple[Finding, ...] = ()
    """Detector and lint findings in the new text (after policy)."""

    @property
    def server(self) -> str:
        return self.diff.server

    @property
    def kind(self) -> Kind:
        return self.diff.kind

    @property
    def name(self) -> str:
        return self.diff.name

    @property
    def change(self) -> ChangeType:
        return self.diff.change

    @property
    def old(self) -> Mapping[str, JSON] | None:
        return self.diff.old

    @property
    def new(self) -> Mapping[str, JSON] | None:
        return self.diff.new

    @property
    def old_name(self) -> str | None:
        return self.diff.old_name

    @property
    def fields(self) -> tuple[FieldChange, ...]:
        return self.diff.fields

    @property
    def id(self) -> str:
        return self.diff.id

    @property
    def old_hash(self) -> str | None:
        return self.diff.old_hash

    @property
    def new_hash(self) -> str:
        return self.diff.new_hash


class ReviewState(StrEnum):
    """Where a reviewer stands on a change; the values are the JSON report's ``status``."""

    PENDING = "pending"
    REJECTED = "rejected"
    """Refused in review, exactly this definition: ``--check`` keeps failing on it."""
    ACCEPTED = "accepted"
    """Accepted in the running review app (a report never holds an accepted change)."""
