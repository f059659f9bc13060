"""Real upstream releases replayed as upgrades: routine releases pass the default gate.

The surfaces under ``tests/corpus/releases/`` were captured from the registries' released
versions by ``benchmarks/capture_releases.py``; ``benchmarks/bench_releases.py`` prints each
pair's band and reasons.
"""

from __future__ import annotations

import json

from mcplock_tui.core.exitcodes import ExitCode
from mcplock_tui.core.grading.grade import GradeContext, scan_surface
from tests.core.release_pairs import RELEASES, check_pair, release_pairs, surface_of


def test_the_corpus_has_five_servers_with_release_pairs() -> None:
    servers = {p.server for p in release_pairs()}
    assert len(servers) >= 5, servers


def test_at_most_one_pair_in_five_fails_the_default_gate() -> None:
    pairs = release_pairs()
    failing = [p.label for p in pairs if check_pair(p).exit_code() is ExitCode.DRIFT]
    assert len(failing) * 5 <= len(pairs), failing


def test_every_failing_pair_names_its_reason() -> None:
    for pair in release_pairs():
        report = check_pair(pair)
        for change in report.changes:
            if change.severity >= report.fail_on:
                top = [r for r in change.reasons if r.severity == change.severity]
                assert top and all(r.message for r in top), pair.label


def test_pin_of_the_real_fetch_server_reports_the_override() -> None:
    docs = sorted((RELEASES / "mcp-server-fetch").glob("*.json"))
    assert docs, "no mcp-server-fetch capture in the corpus"
    surface = surface_of(json.loads(docs[-1].read_text()))
    found = scan_surface("fetch", surface, GradeContext(server="fetch"))
    assert any(f.code == "MCPL-INJ-003" and "originally you" in f.excerpt for f in found), [
        (f.code, f.excerpt) for f in found
    ]
