"""The explain seam: a verdict record and the interface that produces one.

A verdict (:mod:`mcplock_tui.core.verdict`) is advisory. It is stored beside a change for the reviewer to read and never feeds
back into severity or the exit code, so a model that is fooled can at worst add noise, never
hide a finding. Validation here is strict on purpose: a reply that is not exactly the
expected shape is a failed explain, never a verdict guessed from loose text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, cast

from mcplock_tui.core.graded import GradedChange
from mcplock_tui.core.verdict import VERDICTS, Verdict, VerdictLabel
from mcplock_tui.errors import ExplainError

REASON_MAX = 400
"""Characters allowed in a reason; the prompt asks for one sentence."""
EXCERPT_MAX = 400
"""Characters allowed in the quoted excerpt."""
NO_VERDICT = "Claude returned no usable verdict"
MISSING_KEY = (
    "set ANTHROPIC_API_KEY to use explain (it is off by default; only changed definitions are sent)"
)
_FIELDS = frozenset({"verdict", "reason", "excerpt"})


class ExplainAuthError(ExplainError):
    """The API refused the credentials: every further request would fail the same way."""


def parse_verdict(data: object, model: str, *, cached: bool = False) -> Verdict:
    """Exactly ``{verdict, reason, excerpt}`` with the right types and lengths, or ExplainError."""
    if not isinstance(data, Mapping):
        raise ExplainError(f"{NO_VERDICT} (the verdict is not an object)")
    keys = set(data)
    if keys != _FIELDS:
        missing = sorted(_FIELDS - keys)
        detail = f"missing {', '.join(missing)}" if missing else "unexpected fields"
        raise ExplainError(f"{NO_VERDICT} ({detail})")
    verdict, reason, excerpt = data["verdict"], data["reason"], data["excerpt"]
    if not isinstance(verdict, str) or verdict not in VERDICTS:
        raise ExplainError(f"{NO_VERDICT} (verdict is not one of {', '.join(VERDICTS)})")
    if not isinstance(reason, str) or not isinstance(excerpt, str):
        raise ExplainError(f"{NO_VERDICT} (reason and excerpt must be strings)")
    reason = reason.strip()
    if not reason:
        raise ExplainError(f"{NO_VERDICT} (empty reason)")
    if len(reason) > REASON_MAX or len(excerpt) > EXCERPT_MAX:
        raise ExplainError(f"{NO_VERDICT} (reason or excerpt longer than {REASON_MAX} characters)")
    return Verdict(cast(VerdictLabel, verdict), reason, excerpt, model, cached)


class Explainer(Protocol):
    """Anything that turns one change into a verdict or raises :class:`ExplainError`."""

    def explain(self, change: GradedChange) -> Verdict: ...


class NullExplainer:
    """The default when explain is off: every call fails with the reason it is off."""

    def __init__(self, message: str = MISSING_KEY) -> None:
        self.message = message

    def explain(self, change: GradedChange) -> Verdict:
        raise ExplainError(self.message)
