"""Drift red-team rounds through the whole analysis: attacks reach high, controls stay medium.

Each round in ``tests/corpus/redteam_drift_*.json`` records the figure it was measured at on
first sight (before the grader was changed for it). A case listed in the round's
``known_misses`` or ``known_false_alarms`` is a documented failure, asserted to still fail so
the list stays true; every other case must hold.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mcplock_tui.core.model import Severity
from tests.core.redteam_drift import load, rounds, run_case, score, worst

CASES = [(path, case) for path in rounds() for case in load(path)["cases"]]


@pytest.mark.parametrize(("path", "case"), CASES, ids=[f"{p.stem}:{c['id']}" for p, c in CASES])
def test_case_holds(path: Path, case: dict[str, Any]) -> None:
    doc = load(path)
    changes = run_case(doc["base"], case)
    band = worst(changes)
    reasons = [(r.severity.label, r.message) for c in changes for r in c.reasons]
    if case["expect"] == "attack":
        if case["id"] in doc.get("known_misses", []):
            assert band < Severity.HIGH, "a known miss is caught now: take it off the list"
        else:
            assert band >= Severity.HIGH, reasons
    elif case["id"] in doc.get("known_false_alarms", []):
        assert band > Severity.MEDIUM, "a known false alarm is fixed: take it off the list"
    else:
        assert band <= Severity.MEDIUM, reasons


def _rated(path: Path) -> Any:
    why = load(path).get("known_rate_failure")
    return pytest.param(path, marks=pytest.mark.xfail(strict=True, reason=why)) if why else path


@pytest.mark.parametrize("path", [_rated(p) for p in rounds()], ids=[p.stem for p in rounds()])
def test_round_rates(path: Path) -> None:
    missed, alarms, attacks, benign = score(path)
    assert len(missed) <= attacks // 10, missed
    assert len(alarms) <= benign // 10, alarms


def test_every_round_records_its_first_sight_figure() -> None:
    for path in rounds():
        assert "caught" in load(path)["first_sight"], path
