"""What an explain request gave for one change: a verdict, or why there is none.

Advisory data beside a graded change, never inside it: a verdict never feeds back into a
band or the exit code. The same two types serve ``--check --explain``, the JSON report, the
review app and the decision log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

VerdictLabel = Literal["benign", "suspicious", "malicious"]
VERDICTS: tuple[str, ...] = get_args(VerdictLabel)


@dataclass(frozen=True, slots=True)
class Verdict:
    """Claude's second opinion on one change."""

    verdict: VerdictLabel
    reason: str
    """One sentence for the reviewer."""
    excerpt: str
    """The passage the verdict rests on; empty when no single passage applies."""
    model: str
    cached: bool = False
    """True when read from the on-disk cache instead of asked for."""

    def to_dict(self) -> dict[str, Any]:
        """The shape in the JSON report and the decision log."""
        return {
            "verdict": self.verdict,
            "reason": self.reason,
            "excerpt": self.excerpt,
            "model": self.model,
            "cached": self.cached,
        }


@dataclass(frozen=True, slots=True)
class ExplainFailure:
    """Explain was asked for and gave no verdict; ``error`` says why, in one sentence."""

    error: str

    def to_dict(self) -> dict[str, Any]:
        return {"error": self.error}


Explained = Verdict | ExplainFailure
"""One change's explain answer."""
