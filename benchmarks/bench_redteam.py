"""Drift red-team rounds: catch rate at or above high, benign controls above medium.

Run: python benchmarks/bench_redteam.py [-v]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.core.redteam_drift import load, rounds, run_case, worst


def main() -> None:
    verbose = "-v" in sys.argv
    for path in rounds():
        doc = load(path)
        caught = attacks = alarms = benign = 0
        for case in doc["cases"]:
            changes = run_case(doc["base"], case)
            band = worst(changes)
            attack = case["expect"] == "attack"
            ok = band >= 3 if attack else band <= 2
            attacks += attack
            benign += not attack
            caught += attack and ok
            alarms += (not attack) and not ok
            if verbose or not ok:
                mark = "ok  " if ok else ("MISS" if attack else "FP  ")
                top = [r for c in changes for r in c.reasons if r.severity == band][:2]
                why = "; ".join(r.message[:70] for r in top)
                print(f"  {mark} {case['id']:<32} {band.label:<8} {why}")
        print(
            f"{path.name}: caught {caught}/{attacks} attacks at or above high "
            f"({caught / max(attacks, 1):.0%}); {alarms}/{benign} benign above medium"
        )


if __name__ == "__main__":
    main()
