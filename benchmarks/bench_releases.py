"""Real upstream releases through the default gate: band, exit code and driving reasons.

Run: python benchmarks/bench_releases.py [--all-reasons]

Each consecutive pair of captured releases under ``tests/corpus/releases/`` is pinned at the
older version and checked against the newer one. Prints one block per pair and, at the end,
how many pairs fail the default gate (the false-alarm figure; target at most 1 in 5).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mcplock_tui.core.model import Severity
from tests.core.release_pairs import check_pair, release_pairs


def main() -> None:
    parser = argparse.ArgumentParser(description="release pairs through the default gate")
    parser.add_argument("--all-reasons", action="store_true", help="show reasons below the gate")
    opts = parser.parse_args()
    failing = drifted = 0
    pairs = release_pairs()
    for pair in pairs:
        report = check_pair(pair)
        code = int(report.exit_code())
        changes = report.changes
        worst = max((c.severity for c in changes), default=None)
        band = worst.label if worst is not None else "clean"
        drifted += bool(changes)
        failing += code == 1
        print(f"{pair.label}: {band}, exit {code}, {len(changes)} changes")
        floor = Severity.LOW if opts.all_reasons else report.fail_on
        for change in changes:
            for reason in change.reasons:
                if reason.severity >= floor:
                    where = f"{change.kind.value} {change.name}"
                    print(f"    {reason.severity.label:<8} {where}: {reason.message[:110]}")
    print(f"\n{failing} of {len(pairs)} pairs fail the default gate ({drifted} pairs drifted)")


if __name__ == "__main__":
    main()
