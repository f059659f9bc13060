"""Where a pin and a check spend their time, stage by stage, in one process.

Run: python benchmarks/profile_stages.py [--tools 1000] [--page 500] [--cprofile N]
                                          [--no-memo] [--clean]

Replays what ``mcplock-tui pin`` and ``mcplock-tui --check`` do, with a wall clock around
each stage (wall and CPU time): imports, capture (spawn, SDK session, raw tap and validation), hashing,
detectors, TOML emission and its read-back, signing, write; then, for the check, lockfile
read (TOML parse + hash verification), capture, diff + grading of 10% drifted tools (none
with ``--clean``) with the known findings of the unchanged ones, and the JSON report.
The scan memo (:mod:`mcplock_tui.findings_cache`) lives in a temporary cache folder and
starts empty, so the pin fills it and the check reads it, as on a developer's machine;
``--no-memo`` scans everything both times, as on a fresh CI runner. ``--cprofile N`` also
prints the N functions with the most own time for each command. The stage split inside
capture comes from the profile (tap vs validation).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_analysis import drift, make_tool  # noqa: E402

STAGES: dict[str, list[float]] = {}
"""Stage -> [wall seconds, CPU seconds of this process]. CPU time barely moves with the
load of a shared machine; wall time includes waiting for the server and for the CPU."""


@contextmanager
def stage(name: str) -> Iterator[None]:
    start, cpu = time.perf_counter(), time.process_time()
    try:
        yield
    finally:
        spent = STAGES.setdefault(name, [0.0, 0.0])
        spent[0] += time.perf_counter() - start
        spent[1] += time.process_time() - cpu


def imports() -> dict[str, Any]:
    with stage("import: mcp client + capture"):
        from mcplock_tui.capture import capture_sync
    with stage("import: core (analysis, lockfile)"):
        from mcplock_tui import findings_cache
        from mcplock_tui.core import lockfile as lf
        from mcplock_tui.core.analysis import analyze, foreign_for
        from mcplock_tui.core.grading.grade import GradeContext, scan_surface
    with stage("import: storage (tomli_w)"):
        from mcplock_tui import storage
    with stage("import: rich (render)"):
        from mcplock_tui.cli import render
    with stage("import: evidence (cryptography)"):
        from mcplock_tui.evidence import records as evidence
        from mcplock_tui.evidence.ledger import bind
    del render
    return {
        "capture_sync": capture_sync,
        "lf": lf,
        "analyze": analyze,
        "foreign_for": foreign_for,
        "GradeContext": GradeContext,
        "scan_surface": scan_surface,
        "storage": storage,
        "evidence": evidence,
        "memo": findings_cache,
        "hashed_surface": lf.hashed_surface,
        "bind": bind,
    }


def spec_for(defs: Path, page: int) -> Any:
    from mcplock_tui.spec import ServerSpec

    args = ("-S", str(HERE / "slow_server.py"), str(defs), "0", str(page))
    return ServerSpec("s0", "stdio", "bench", command=sys.executable, args=args)


def pin_flow(m: dict[str, Any], folder: Path, spec: Any) -> Any:
    with stage("pin: capture (spawn, session, tap, validation)"):
        captures = m["capture_sync"]([spec], timeout=300, log_dir=folder / "logs")
    surface = captures["s0"].surface
    assert surface is not None, captures["s0"].error
    lf = m["lf"]
    with stage("pin: canonical JSON + digests (hashed_surface)"):
        surface = m["hashed_surface"](surface)
    lock = lf.Lockfile({"s0": lf.ServerPin(surface)})
    with stage("pin: detectors (known findings)"):
        memo = m["memo"].load()
        ctx = m["GradeContext"](server="s0", own_tools=frozenset(surface.tools), memo=memo)
        m["scan_surface"]("s0", surface, ctx)
        m["memo"].save(memo)
    with stage("pin: lockfile encode + TOML emission + read-back"):
        text = m["storage"].dumps(lock)
    path = folder / "mcplock.lock"
    ev = m["evidence"]
    with stage("pin: signing (decisions, key, log)"):
        decisions = ev.pin_decisions(lf.Lockfile(), lock)
        ev.signing_key(path)
    with stage("pin: write (atomic, fsync)"):
        m["storage"].write_text_atomic(path, text)
    with stage("pin: signing (decisions, key, log)"):
        ev.record_decisions(path, decisions)
    return path


def check_flow(m: dict[str, Any], folder: Path, spec: Any, path: Path) -> None:
    with stage("check: read lockfile (TOML parse, decode, digests)"):
        lock = m["storage"].read_lockfile(path)
    with stage("check: bind to the decision log"):
        m["bind"](path, lock)
    with stage("check: capture (spawn, session, tap, validation)"):
        captures = m["capture_sync"]([spec], timeout=300, log_dir=folder / "logs")
    with stage("check: diff + grading + detectors (with known findings)"):
        memo = m["memo"].load()
        report = m["analyze"](lock, captures, configured=["s0"], include_known=True, memo=memo)
        m["memo"].save(memo)
    with stage("check: JSON report"):
        from mcplock_tui.core.formats.json_report import to_json

        json.dumps(to_json(report, "mcplock.lock"), indent=2, ensure_ascii=True)


def profiled(enabled: bool, run: Callable[[], Any]) -> tuple[Any, cProfile.Profile | None]:
    if not enabled:
        return run(), None
    prof = cProfile.Profile()
    result = prof.runcall(run)
    return result, prof


def top(prof: cProfile.Profile | None, n: int, title: str) -> None:
    if prof is None:
        return
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(n)
    print(f"\n--- {title}: top {n} by own time ---")
    lines = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if "ncalls" in line)
    print("\n".join(lines[start:]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--page", type=int, default=500)
    parser.add_argument("--cprofile", type=int, default=0)
    parser.add_argument("--no-memo", action="store_true", help="scan everything (cold)")
    parser.add_argument("--clean", action="store_true", help="check without drift")
    args = parser.parse_args()
    cache = tempfile.TemporaryDirectory()
    os.environ["MCPLOCK_CACHE_DIR"] = cache.name
    if args.no_memo:
        os.environ["MCPLOCK_NO_CACHE"] = "1"
    m = imports()
    rnd = random.Random(0)
    tools = [make_tool(j, rnd) for j in range(args.tools)]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        defs = folder / "defs.json"
        defs.write_text(json.dumps({"serverInfo": {"name": "b", "version": "1"}, "tools": tools}))
        spec = spec_for(defs, args.page)
        path, pin_prof = profiled(args.cprofile > 0, lambda: pin_flow(m, folder, spec))
        drifted = [
            drift(t, j) if j % 10 == 0 and not args.clean else t for j, t in enumerate(tools)
        ]
        defs.write_text(json.dumps({"serverInfo": {"name": "b", "version": "1"}, "tools": drifted}))
        _, check_prof = profiled(args.cprofile > 0, lambda: check_flow(m, folder, spec, path))
    wall = sum(w for w, _ in STAGES.values())
    cpu = sum(c for _, c in STAGES.values())
    print(f"{args.tools:,} tools, pages of {args.page}; seconds per stage:")
    print(f"  {'stage':58} {'wall':>7} {'CPU':>7}")
    for name, (w, c) in STAGES.items():
        print(f"  {name:58} {w:7.3f} {c:7.3f}")
    print(f"  {'total':58} {wall:7.3f} {cpu:7.3f}")
    top(pin_prof, args.cprofile, "pin")
    top(check_prof, args.cprofile, "check")


if __name__ == "__main__":
    main()
