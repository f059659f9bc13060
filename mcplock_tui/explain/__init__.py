"""Claude "explain": an advisory second opinion on each change, off unless asked for.

Importing this package loads no HTTP client; anthropic is imported when a request is made.
"""

from __future__ import annotations

from mcplock_tui.core.verdict import VERDICTS, Verdict, VerdictLabel
from mcplock_tui.explain.base import ExplainAuthError, Explainer, NullExplainer
from mcplock_tui.explain.claude import DEFAULT_MODEL, AnthropicExplainer, explain_change

__all__ = [
    "DEFAULT_MODEL",
    "VERDICTS",
    "AnthropicExplainer",
    "ExplainAuthError",
    "Explainer",
    "NullExplainer",
    "Verdict",
    "VerdictLabel",
    "explain_change",
]
