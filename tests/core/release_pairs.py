"""Consecutive real releases of public MCP servers, replayed through the analysis.

The surfaces in ``tests/corpus/releases/<server>/<version>.json`` were captured by
``benchmarks/capture_releases.py``; each consecutive pair is pinned at the older version and
checked against the newer one, as an upgrade would be.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcplock_tui.core.analysis import analyze
from mcplock_tui.core.lockfile import Lockfile, ServerPin
from mcplock_tui.core.model import CaptureResult, Surface
from mcplock_tui.core.report import Report
from mcplock_tui.core.surface import build_surface

RELEASES = Path(__file__).resolve().parent.parent / "corpus" / "releases"


def _version_key(name: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", name))


def surface_of(doc: dict[str, Any]) -> Surface:
    return build_surface(
        initialize_result=doc["initialize"],
        launch=f"stdio: {doc['server']}",
        tools=doc["tools"],
        prompts=doc["prompts"],
        resources=doc["resources"],
        resource_templates=doc["resourceTemplates"],
    )


@dataclass(frozen=True)
class Pair:
    server: str
    old_version: str
    new_version: str
    old: dict[str, Any]
    new: dict[str, Any]

    @property
    def label(self) -> str:
        return f"{self.server} {self.old_version} -> {self.new_version}"


def release_pairs(root: Path = RELEASES) -> list[Pair]:
    pairs: list[Pair] = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        docs = sorted(folder.glob("*.json"), key=lambda p: _version_key(p.stem))
        loaded = [json.loads(p.read_text()) for p in docs]
        for a, b in itertools.pairwise(loaded):
            pairs.append(Pair(folder.name, a["version"], b["version"], a, b))
    return pairs


def check_pair(pair: Pair) -> Report:
    lock = Lockfile({pair.server: ServerPin(surface_of(pair.old))})
    live = CaptureResult(pair.server, surface=surface_of(pair.new))
    return analyze(lock, {pair.server: live}, configured=[pair.server])
