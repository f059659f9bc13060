"""The product against the floor: whole-process pin and check beside a bare MCP-SDK client.

Run: python benchmarks/bench_floor.py [--sizes 1000,5000] [--rounds 3] [--page 500]
                                      [--format text] [--no-fleet] [--no-memo]
                                      [--compare DIR [--label NAME]]

Every measurement is a fresh process, as CI runs it: ``mcplock-tui pin``, ``mcplock-tui
--check`` (clean, and with 10% of the tools drifted) and ``floor_client.py`` (connect with
``mode="legacy"``, initialize, list every page, canonical JSON + SHA-256 per tool). The
servers are stdlib-only stdio servers (``slow_server.py`` under ``python -S``) so they cost
the machine little. Rounds are interleaved (floor, pin, check, drifted, floor, ...) so a
load spike on a shared machine hits every contender alike; medians are printed with the
ratio to the floor, for wall time and for CPU time (user + system, the process and the
server it reaped), which a loaded machine disturbs far less than wall time. Peak RSS is
the child's ``ru_maxrss`` from ``wait4`` (the process and the descendants it reaped, so
it includes the server's when that is larger).

The product's scan memo (:mod:`mcplock_tui.findings_cache`) lives in a cache folder made for
the run, so it starts empty: the first pin fills it, as on a developer's machine, and later
runs read it. ``--no-memo`` turns it off, as on a fresh CI runner where every run is cold.
A ``--compare`` tree keeps its memo in a folder of its own (saving a memo deletes the files
of other code), and every fleet contender runs once unmeasured before the rounds.

``--compare DIR`` adds the same contenders run from another source tree of the product
(an older commit unpacked with ``git archive``), interleaved in the same rounds, so a before
and an after are measured under the same load.

Every product tree is byte-compiled before the rounds, as an installed package is (pip
writes the bytecode at install time); with ``PYTHONDONTWRITEBYTECODE`` set, an editable or
unpacked tree would otherwise be compiled again by every process (about 0.07 s of CPU each).
The SDK the floor imports is installed, so it never pays that.

The fleet part runs 20 servers of 50 tools that answer ``tools/list`` after 500 ms, and
one such server, checked by the product and by the floor (which lists them concurrently).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_analysis import drift, make_tool  # noqa: E402

SERVER = HERE / "slow_server.py"
FLOOR = HERE / "floor_client.py"
PY = sys.executable


@dataclass
class Sample:
    wall: list[float] = field(default_factory=list)
    rss_mb: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def add(self, wall: float, rss_mb: float, cpu: float = 0.0) -> None:
        self.wall.append(wall)
        self.rss_mb.append(rss_mb)
        self.cpu.append(cpu)

    @property
    def median(self) -> float:
        return statistics.median(self.wall)

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu)

    @property
    def rss(self) -> float:
        return max(self.rss_mb)


def run(cmd: list[str], cwd: Path, ok: tuple[int, ...] = (0,)) -> tuple[float, float, float]:
    """Wall seconds, peak RSS (MB) and CPU seconds (with the reaped server) of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_env()
    )
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in ok:
        raise SystemExit(f"{cmd} exited {proc.returncode}:\n{err.decode(errors='replace')}")
    return wall, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


COMPARE: list[tuple[Path, str]] = []
"""Set by ``main`` from ``--compare``: another source tree of the product and its label."""
MEMO_ENV: dict[str, str] = {}
"""Set by ``main``: where the product keeps its scan memo, or that it keeps none."""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("GITHUB_ACTIONS", None)
    env.update(MEMO_ENV)
    return env


def write_defs(path: Path, tools: list[dict[str, object]]) -> None:
    defs = {"serverInfo": {"name": "bench", "version": "1.0.0"}, "tools": tools}
    path.write_text(json.dumps(defs), encoding="utf-8")


@dataclass
class Project:
    """A folder with a config naming some servers, their definitions and (once pinned) a lock."""

    folder: Path
    servers: list[tuple[str, list[str]]]

    def config(self) -> Path:
        path = self.folder / ".mcp.json"
        entries = {f"s{i}": {"command": c, "args": a} for i, (c, a) in enumerate(self.servers)}
        path.write_text(json.dumps({"mcpServers": entries}), encoding="utf-8")
        (self.folder / "floor.json").write_text(json.dumps(self.servers), encoding="utf-8")
        return path


def make_project(
    folder: Path, count: int, tools: int, delay: float, page: int, drifted: bool = False
) -> Project:
    import random

    folder.mkdir(parents=True)
    servers = []
    for i in range(count):
        rnd = random.Random(i)
        defs = [make_tool(j, rnd) for j in range(tools)]
        path = folder / f"defs{i}.json"
        write_defs(path, defs)
        servers.append((PY, ["-S", str(SERVER), str(path), str(delay), str(page)]))
    project = Project(folder, servers)
    project.config()
    if drifted:  # pin the original, then drift 10% of the tools behind the same launch line
        pin(project)
        for tree, _ in COMPARE:
            pin(project, OTHER_LOCK, tree)
        drift_defs(project, tools)
    return project


def drift_defs(project: Project, tools: int) -> None:
    """Rewrite every server's definitions with 10% of the tools drifted (same launch line)."""
    import random

    for i in range(len(project.servers)):
        rnd = random.Random(i)
        defs = [make_tool(j, rnd) for j in range(tools)]
        defs = [drift(t, j) if j % 10 == 0 else t for j, t in enumerate(defs)]
        write_defs(project.folder / f"defs{i}.json", defs)


_FROM_TREE = (
    "import os, sys; sys.path.insert(0, sys.argv.pop(1)); "
    # Its own memo folder: a memo file is named after the code, and saving one deletes the
    # other code's, so two trees sharing a folder would empty each other's memo every run.
    "d = os.environ.get('MCPLOCK_CACHE_DIR'); d and os.environ.update(MCPLOCK_CACHE_DIR=d + '-other'); "
    # The console entry where the tree has one, as ``python -m mcplock_tui`` runs this tree
    # (it pauses the collector while the program is imported); else ``cli.main``.
    "import importlib.util as u\n"
    "if u.find_spec('mcplock_tui.cli.entry'):\n"
    "    from mcplock_tui.cli.entry import main; sys.exit(main())\n"
    "from mcplock_tui.cli.main import main; sys.exit(main(sys.argv[1:]))"
)


def product(*args: str, tree: Path | None = None) -> list[str]:
    if tree is not None:  # another source tree of the product, ahead of the installed one
        return [PY, "-c", _FROM_TREE, str(tree), *args]
    return [PY, "-m", "mcplock_tui", *args]


def pin(
    project: Project, lock: str = "mcplock.lock", tree: Path | None = None
) -> tuple[float, float, float]:
    cmd = product("pin", "--config", ".mcp.json", "--lock", lock, "--timeout", "900", tree=tree)
    return run(cmd, project.folder)


OTHER_LOCK = "other.lock"
"""The --compare tree's own lockfile (and, by its stem, its own decision log): a tree that
reads another lockfile format checks what it wrote itself."""


def check(
    project: Project,
    fmt: str,
    ok: tuple[int, ...] = (0,),
    tree: Path | None = None,
    lock: str = "mcplock.lock",
) -> Callable[[], tuple[float, float, float]]:
    args = ("--check", "--format", fmt, "--config", ".mcp.json", "--lock", lock)
    cmd = product(*args, "--timeout", "900", tree=tree)
    return lambda: run(cmd, project.folder, ok)


def floor(project: Project) -> Callable[[], tuple[float, float, float]]:
    return lambda: run([PY, str(FLOOR), "floor.json"], project.folder)


def fresh_pins(
    project: Project, tree: Path | None = None
) -> Callable[[], tuple[float, float, float]]:
    """Each pin writes a new lockfile, signs a record, and starts from nothing."""
    state = {"n": 0}
    tag = "" if tree is None else "-other"

    def go() -> tuple[float, float, float]:
        state["n"] += 1
        sub = project.folder / f"round{state['n']}{tag}"
        sub.mkdir()
        return pin(project, f"{sub.name}/mcplock.lock", tree)

    return go


def compile_tree(tree: Path) -> None:
    """Write the tree's bytecode, as an installed package has it."""
    subprocess.run(
        [PY, "-m", "compileall", "-q", str(tree / "mcplock_tui")], check=True, capture_output=True
    )


def interleave(
    contenders: dict[str, Callable[[], tuple[float, float, float]]], rounds: int
) -> dict[str, Sample]:
    samples = {name: Sample() for name in contenders}
    for _ in range(rounds):
        for name, go in contenders.items():
            samples[name].add(*go())
    return samples


def table(title: str, samples: dict[str, Sample], base: str) -> None:
    print(f"\n{title}")
    print(
        f"{'':28} {'median s':>9} {'ratio':>7} {'CPU s':>7} {'ratio':>7} {'peak RSS MB':>12}"
        "   rounds (wall s)"
    )
    ref, ref_cpu = samples[base].median, samples[base].cpu_median
    for name, s in samples.items():
        rounds = " ".join(f"{w:.2f}" for w in s.wall)
        print(
            f"{name:28} {s.median:9.2f} {s.median / ref:6.2f}x {s.cpu_median:7.2f} "
            f"{s.cpu_median / ref_cpu:6.2f}x {s.rss:12.0f}   {rounds}"
        )


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min) {five:.2f} (5 min) on {os.cpu_count()} cores"


def bench_size(root: Path, tools: int, rounds: int, page: int, fmt: str) -> None:
    clean = make_project(root / f"clean{tools}", 1, tools, 0.0, page)
    pin(clean)
    dirty = make_project(root / f"drift{tools}", 1, tools, 0.0, page, drifted=True)
    contenders = {
        "floor (bare SDK client)": floor(clean),
        "pin": fresh_pins(clean),
        "check (clean)": check(clean, fmt),
        "check (10% drifted)": check(dirty, fmt, ok=(1,)),
    }
    if COMPARE:
        tree, label = COMPARE[0]
        # Its memo is its own: fill it as the pin above filled this tree's, or its first
        # measured pin runs cold and every other one warm.
        pin(clean, OTHER_LOCK, tree)
        contenders[f"pin [{label}]"] = fresh_pins(clean, tree)
        contenders[f"check (clean) [{label}]"] = check(clean, fmt, tree=tree, lock=OTHER_LOCK)
        contenders[f"check (10% drifted) [{label}]"] = check(
            dirty, fmt, ok=(1,), tree=tree, lock=OTHER_LOCK
        )
    run([PY, str(FLOOR), "floor.json"], clean.folder)  # warm the OS caches once
    samples = interleave(contenders, rounds)
    table(
        f"one server, {tools:,} tools, pages of {page} ({load()})",
        samples,
        "floor (bare SDK client)",
    )


def bench_fleet(root: Path, rounds: int, fmt: str) -> None:
    many = make_project(root / "fleet20", 20, 50, 0.5, 0)
    one = make_project(root / "fleet1", 1, 50, 0.5, 0)
    pin(many)
    pin(one)
    contenders = {
        "floor, 1 server": floor(one),
        "floor, 20 servers": floor(many),
        "check, 1 server": check(one, fmt),
        "check, 20 servers": check(many, fmt),
    }
    labels = [""]
    if COMPARE:
        tree, label = COMPARE[0]
        pin(many, OTHER_LOCK, tree)
        pin(one, OTHER_LOCK, tree)
        contenders[f"check, 1 server [{label}]"] = check(one, fmt, tree=tree, lock=OTHER_LOCK)
        contenders[f"check, 20 servers [{label}]"] = check(many, fmt, tree=tree, lock=OTHER_LOCK)
        labels.append(f" [{label}]")
    for go in contenders.values():  # once each, unmeasured: OS caches, and each tree's memo
        go()
    samples = interleave(contenders, rounds)
    table(f"20 servers x 50 tools, 500 ms latency ({load()})", samples, "floor, 1 server")
    for tag in labels:
        ratio = samples[f"check, 20 servers{tag}"].median / samples[f"check, 1 server{tag}"].median
        cpu = samples[f"check, 20 servers{tag}"].cpu_median
        cpu /= samples[f"check, 1 server{tag}"].cpu_median
        print(
            f"check of 20 servers / check of 1 server{tag}: {ratio:.2f}x wall, {cpu:.2f}x CPU "
            "(target <= 1.5x)"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,5000")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--page", type=int, default=500, help="tools per tools/list page")
    parser.add_argument("--format", default="text", choices=("text", "json"))
    parser.add_argument("--no-fleet", action="store_true")
    parser.add_argument("--no-memo", action="store_true", help="the product scans every item")
    parser.add_argument("--compare", type=Path, help="also run the product from this source tree")
    parser.add_argument("--label", default="other", help="what to call the --compare tree")
    args = parser.parse_args()
    if args.compare:
        COMPARE.append((args.compare.resolve(), args.label))
        compile_tree(args.compare.resolve())
    compile_tree(HERE.parent)
    memo = "off" if args.no_memo else "on, empty at start"
    print(f"python {sys.version.split()[0]}; {load()}; check --format {args.format}; memo {memo}")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        MEMO_ENV["MCPLOCK_CACHE_DIR"] = str(root / "cache")
        if args.no_memo:
            MEMO_ENV["MCPLOCK_NO_CACHE"] = "1"
        for size in (int(s) for s in args.sizes.split(",") if s):
            bench_size(root, size, args.rounds, args.page, args.format)
        if not args.no_fleet:
            bench_fleet(root, args.rounds, args.format)
    print(f"\nafter: {load()}")


if __name__ == "__main__":
    main()
