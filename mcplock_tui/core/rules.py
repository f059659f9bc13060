"""Rule registry: every finding code with its title, rationale and default severity.

Rules are data. Codes are stable and never reused; each family defines its rules beside
its checks and this module gathers them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from mcplock_tui.core.model import Severity


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    title: str
    rationale: str
    severity: Severity
    family: str
    """``injection``, ``lint`` or ``drift``; used for policy category overrides."""


@cache
def all_rules() -> dict[str, Rule]:
    from mcplock_tui.core.detectors.rules import RULES as DETECTOR_RULES
    from mcplock_tui.core.lint.rules import RULES as LINT_RULES

    registry: dict[str, Rule] = {}
    for rule in (*DETECTOR_RULES, *LINT_RULES):
        if rule.code in registry:
            raise AssertionError(f"rule code {rule.code} defined twice")
        registry[rule.code] = rule
    return registry


def get_rule(code: str) -> Rule | None:
    return all_rules().get(code)
