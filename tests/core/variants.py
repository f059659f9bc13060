"""Shared pieces of the class-variant tests (``test_class_variants*.py``).

Each of those files writes its own surface and its own attack and benign edits; these
helpers build the edits and hold the two checks, so every file asks the same question.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mcplock_tui.core.model import Severity
from tests.core.redteam_drift import run_case, worst

DESCRIPTION = "tools/{}/description"
STRING: dict[str, Any] = {"type": "string"}
PROPERTY = "tools/{}/inputSchema/properties/{}"


def obj(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """An object input schema."""
    return {"type": "object", "properties": props, "required": required}


def desc(base: dict[str, Any], t: int, extra: str) -> dict[str, Any]:
    """Tool ``t``'s description with ``extra`` appended."""
    return {DESCRIPTION.format(t): base["tools"][t]["description"] + extra}


def param(t: int, n: str, schema: dict[str, Any]) -> dict[str, Any]:
    """Tool ``t``'s parameter ``n`` set to ``schema`` (a new one, or replaced)."""
    return {PROPERTY.format(t, n): schema}


def pdesc(base: dict[str, Any], t: int, n: str, text: str) -> dict[str, Any]:
    """Tool ``t``'s parameter ``n`` with a new description."""
    schema = dict(base["tools"][t]["inputSchema"]["properties"][n])
    schema["description"] = text
    return {PROPERTY.format(t, n): schema}


def xfail_marks(case: str, open_cases: dict[str, str]) -> list[pytest.MarkDecorator]:
    """A strict xfail, with its reason, for a case listed as still open."""
    return [pytest.mark.xfail(strict=True, reason=open_cases[case])] if case in open_cases else []


def assert_high(base: dict[str, Any], case: dict[str, Any]) -> None:
    changes = run_case(base, case)
    assert worst(changes) >= Severity.HIGH, [r.message for c in changes for r in c.reasons]


def assert_at_most_medium(base: dict[str, Any], case: dict[str, Any]) -> None:
    changes = run_case(base, case)
    assert changes, "the edit must be seen"
    assert worst(changes) <= Severity.MEDIUM, [r.message for c in changes for r in c.reasons]


def variant_tests(
    base: dict[str, Any], attacks: dict[str, dict[str, Any]], benign: dict[str, dict[str, Any]]
) -> tuple[Callable[[str], None], Callable[[str], None]]:
    """The two tests of a class-variant file: every attack reaches high, every benign edit
    stays at or below medium."""

    @pytest.mark.parametrize("case", sorted(attacks))
    def attack_reaches_high(case: str) -> None:
        assert_high(base, {"set": attacks[case]})

    @pytest.mark.parametrize("case", sorted(benign))
    def benign_stays_at_or_below_medium(case: str) -> None:
        assert_at_most_medium(base, {"set": benign[case]})

    return attack_reaches_high, benign_stays_at_or_below_medium
