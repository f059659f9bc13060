"""Drift red-team rounds, case by case: the failing ids per round with every reason, and a
per-case comparison against a saved run (a caught attack lost, a false alarm fixed).

Run: python benchmarks/redteam_failures.py [--save FILE] [--compare FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mcplock_tui.core.model import Severity
from tests.core.redteam_drift import load, rounds, run_case, worst


def _failing(expect: str, band: int) -> bool:
    return band < Severity.HIGH if expect == "attack" else band > Severity.MEDIUM


def _compare(before: dict[str, list[object]], now: dict[str, list[object]]) -> None:
    for key, (expect, band) in now.items():
        if key not in before:
            continue
        was = int(str(before[key][1]))
        if _failing(str(expect), was) == _failing(str(expect), int(str(band))):
            continue
        kind = "attack" if expect == "attack" else "benign"
        verdict = {
            ("attack", True): "LOST CATCH",
            ("attack", False): "new catch",
            ("benign", True): "NEW FALSE ALARM",
            ("benign", False): "false alarm fixed",
        }[(kind, _failing(str(expect), int(str(band))))]
        print(f"{verdict:<18} {key} {Severity(was).label} -> {Severity(int(str(band))).label}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--save", type=Path, help="write every case's band to this JSON file")
    parser.add_argument("--compare", type=Path, help="compare with a file written by --save")
    args = parser.parse_args()
    bands: dict[str, list[object]] = {}
    caught = attacks = alarms = benign = 0
    for path in rounds():
        doc = load(path)
        for case in doc["cases"]:
            changes = run_case(doc["base"], case)
            band = worst(changes)
            bands[f"{path.stem}:{case['id']}"] = [case["expect"], int(band)]
            attack = case["expect"] == "attack"
            attacks, benign = attacks + attack, benign + (not attack)
            failing = _failing(case["expect"], band)
            caught += attack and not failing
            alarms += (not attack) and failing
            if failing:
                print(f"{path.stem}:{case['id']} ({case['expect']}, {band.label})")
                for change in changes:
                    for reason in change.reasons:
                        print(f"    [{reason.severity.label}] {reason.message[:160]}")
    print(f"caught {caught}/{attacks} attacks; {alarms}/{benign} benign above medium")
    if args.save:
        args.save.write_text(json.dumps(bands, indent=0) + "\n")
    if args.compare:
        _compare(json.loads(args.compare.read_text()), bands)


if __name__ == "__main__":
    main()
