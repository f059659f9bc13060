"""Capture consecutive released versions of public MCP servers into tests/corpus/releases/.

Each version is installed from its registry (npm, PyPI) into a cache folder, started over
stdio with the project's own capture, and its surface (initialize result, tools, prompts,
resources, resource templates) written as JSON. Servers that need credentials to start are
not listed; listing needs no network from the servers themselves.

    python benchmarks/capture_releases.py [--last 5] [--only NAME] [--cache DIR]

Bounded: every install and every capture has a timeout; a failure is recorded and skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcplock_tui.capture.runner import capture_sync
from mcplock_tui.spec import ServerSpec

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "corpus" / "releases"
INSTALL_TIMEOUT = 420
CAPTURE_TIMEOUT = 60.0


@dataclass(frozen=True)
class Target:
    name: str
    registry: str  # "npm" or "pypi"
    package: str
    entry: str
    """npm: the bin name; pypi: the module run with ``python -m``."""
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()


_SCRATCH = Path(tempfile.gettempdir()) / "mcplock-release-scratch"

TARGETS: tuple[Target, ...] = (
    Target(
        "server-filesystem",
        "npm",
        "@modelcontextprotocol/server-filesystem",
        "mcp-server-filesystem",
        (str(_SCRATCH),),
    ),
    Target(
        "server-everything",
        "npm",
        "@modelcontextprotocol/server-everything",
        "mcp-server-everything",
        ("stdio",),
    ),
    Target(
        "server-memory",
        "npm",
        "@modelcontextprotocol/server-memory",
        "mcp-server-memory",
        env=(("MEMORY_FILE_PATH", str(_SCRATCH / "memory.json")),),
    ),
    Target(
        "server-sequential-thinking",
        "npm",
        "@modelcontextprotocol/server-sequential-thinking",
        "mcp-server-sequential-thinking",
    ),
    Target("playwright-mcp", "npm", "@playwright/mcp", "mcp-server-playwright"),
    Target("context7", "npm", "@upstash/context7-mcp", "context7-mcp"),
    Target("notion", "npm", "@notionhq/notion-mcp-server", "notion-mcp-server"),
    Target("mcp-server-time", "pypi", "mcp-server-time", "mcp_server_time"),
    Target("mcp-server-fetch", "pypi", "mcp-server-fetch", "mcp_server_fetch"),
    Target("mcp-server-git", "pypi", "mcp-server-git", "mcp_server_git"),
    Target(
        "mcp-server-sqlite",
        "pypi",
        "mcp-server-sqlite",
        "mcp_server_sqlite",
        ("--db-path", str(_SCRATCH / "test.db")),
    ),
    Target("server-github", "npm", "@modelcontextprotocol/server-github", "mcp-server-github"),
    Target(
        "server-puppeteer", "npm", "@modelcontextprotocol/server-puppeteer", "mcp-server-puppeteer"
    ),
)


def _run(cmd: list[str], timeout: float) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=True)
    return done.stdout


def versions(target: Target, last: int) -> list[str]:
    """The newest ``last`` released versions, oldest first (pre-releases left out)."""
    if target.registry == "npm":
        found = json.loads(_run(["npm", "view", target.package, "versions", "--json"], 120))
        found = [found] if isinstance(found, str) else found
    else:
        text = _run([sys.executable, "-m", "pip", "index", "versions", target.package], 120)
        line = next(ln for ln in text.splitlines() if ln.startswith("Available versions:"))
        found = [v.strip() for v in line.split(":", 1)[1].split(",")][::-1]
    stable = [v for v in found if "-" not in v and not any(c.isalpha() for c in v)]
    return stable[-last:]


def install(target: Target, version: str, cache: Path) -> Path:
    where = cache / target.registry / f"{target.name}@{version}"
    marker = where / ".installed"
    if marker.exists():
        return where
    where.mkdir(parents=True, exist_ok=True)
    if target.registry == "npm":
        cmd = [
            "npm",
            "install",
            "--prefix",
            str(where),
            "--no-audit",
            "--no-fund",
            "--ignore-scripts",
            "--loglevel=error",
            f"{target.package}@{version}",
        ]
    else:
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            "--target",
            str(where),
            f"{target.package}=={version}",
        ]
    _run(cmd, INSTALL_TIMEOUT)
    marker.write_text("ok")
    return where


def _bin(target: Target, where: Path) -> str:
    """The package's own bin name: ``entry`` when it still declares it, else its first."""
    meta = json.loads((where / "node_modules" / target.package / "package.json").read_text())
    bins = meta.get("bin")
    if isinstance(bins, dict) and bins and target.entry not in bins:
        return str(next(iter(bins)))
    return target.entry


def spec_for(target: Target, version: str, where: Path) -> ServerSpec:
    env = dict(target.env)
    if target.registry == "npm":
        command = str(where / "node_modules" / ".bin" / _bin(target, where))
        args = target.args
    else:
        command = "python3"  # the system interpreter: the installed mcp must not meet ours
        args = ("-m", target.entry, *target.args)
        env["PYTHONPATH"] = str(where)
    env.setdefault("PATH", os.environ.get("PATH", ""))
    env.setdefault("HOME", os.environ.get("HOME", "/tmp"))
    return ServerSpec(
        f"{target.name}@{version}", "stdio", "releases", command=command, args=tuple(args), env=env
    )


def surface_json(result: Any) -> dict[str, Any]:
    surface = result.surface
    init = dict(surface.server)
    init.pop("launch", None)
    if surface.instructions is not None:
        init["instructions"] = surface.instructions
    return {
        "initialize": init,
        "tools": list(surface.tools.values()),
        "prompts": list(surface.prompts.values()),
        "resources": list(surface.resources.values()),
        "resourceTemplates": list(surface.resource_templates.values()),
    }


def capture(target: Target, last: int, cache: Path) -> None:
    out = OUT / target.name
    out.mkdir(parents=True, exist_ok=True)
    for version in versions(target, last):
        path = out / f"{version}.json"
        if path.exists():
            continue
        try:
            where = install(target, version, cache)
        except (subprocess.SubprocessError, OSError) as exc:
            print(f"  {target.name}@{version}: install failed ({type(exc).__name__})", flush=True)
            continue
        spec = spec_for(target, version, where)
        result = capture_sync([spec], timeout=CAPTURE_TIMEOUT, log_dir=cache / "logs")[spec.name]
        if result.surface is None:
            print(f"  {target.name}@{version}: capture failed: {result.error}", flush=True)
            continue
        doc = {
            "server": target.name,
            "package": target.package,
            "registry": target.registry,
            "version": version,
            **surface_json(result),
        }
        path.write_text(json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
        print(f"  {target.name}@{version}: {len(doc['tools'])} tools", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--last", type=int, default=5)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument(
        "--cache", type=Path, default=Path(tempfile.gettempdir()) / "mcplock-releases"
    )
    opts = parser.parse_args()
    _SCRATCH.mkdir(parents=True, exist_ok=True)
    for target in TARGETS:
        if opts.only and target.name not in opts.only:
            continue
        print(target.name, flush=True)
        try:
            capture(target, opts.last, opts.cache)
        except (subprocess.SubprocessError, OSError, StopIteration, ValueError) as exc:
            print(f"  skipped: {type(exc).__name__}: {exc}", flush=True)


if __name__ == "__main__":
    main()
