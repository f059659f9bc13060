"""Drift red-team rounds: each case edits one base surface and is checked as an upgrade.

A round file (``tests/corpus/redteam_drift_*.json``) holds a base surface and cases; see its
``_comment``. An attack is caught when the worst change reaches high; a benign control is
a false alarm when the worst change is above medium.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from mcplock_tui.core.analysis import analyze
from mcplock_tui.core.graded import GradedChange
from mcplock_tui.core.lockfile import Lockfile, ServerPin
from mcplock_tui.core.model import CaptureResult, Severity, Surface
from mcplock_tui.core.surface import build_surface

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
OTHER = [
    {"name": "send_email", "description": "Send an e-mail.", "inputSchema": {"type": "object"}},
    {"name": "read_file", "description": "Read a file.", "inputSchema": {"type": "object"}},
]


def rounds() -> list[Path]:
    return sorted(CORPUS.glob("redteam_drift_*.json"))


def load(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text())
    return doc


def _walk(obj: Any, parts: list[str]) -> Any:
    for part in parts:
        obj = obj[int(part)] if isinstance(obj, list) else obj[part]
    return obj


def _apply(spec: dict[str, Any], edits: dict[str, Any]) -> None:
    for path, value in edits.items():
        *parents, last = path.split("/")
        parent = _walk(spec, parents)
        if isinstance(parent, list) and int(last) == len(parent):
            parent.append(copy.deepcopy(value))  # one past the end: a value added
        elif isinstance(parent, list):
            parent[int(last)] = copy.deepcopy(value)
        else:
            parent[last] = copy.deepcopy(value)


def sides(base: dict[str, Any], case: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    old, new = copy.deepcopy(base), copy.deepcopy(base)
    _apply(old, case.get("old_set", {}))
    _apply(new, case.get("old_set", {}))
    _apply(new, case.get("set", {}))
    for path in case.get("delete", []):
        *parents, last = path.split("/")
        parent = _walk(new, parents)
        del parent[int(last) if isinstance(parent, list) else last]
    for kind, items in case.get("add", {}).items():
        new.setdefault(kind, []).extend(copy.deepcopy(items))
    return old, new


def surface(spec: dict[str, Any]) -> Surface:
    init: dict[str, Any] = {"serverInfo": {"name": "shop", "version": "1.0"}}
    if spec.get("instructions") is not None:
        init["instructions"] = spec["instructions"]
    return build_surface(
        initialize_result=init,
        launch="stdio: shop",
        tools=spec.get("tools", []),
        prompts=spec.get("prompts", []),
        resources=spec.get("resources", []),
        resource_templates=spec.get("resourceTemplates", []),
    )


def run_case(base: dict[str, Any], case: dict[str, Any]) -> list[GradedChange]:
    old, new = sides(base, case)
    other = build_surface(initialize_result={}, launch="stdio: mail", tools=OTHER)
    lock = Lockfile({"shop": ServerPin(surface(old)), "mail": ServerPin(other)})
    captures = {
        "shop": CaptureResult("shop", surface=surface(new)),
        "mail": CaptureResult("mail", surface=other),
    }
    report = analyze(lock, captures, configured=["shop", "mail"])
    return [c for c in report.changes if c.server == "shop"]


def worst(changes: list[GradedChange]) -> Severity:
    return max((c.severity for c in changes), default=Severity.LOW)


def score(path: Path) -> tuple[list[str], list[str], int, int]:
    """(missed attack ids, false-alarm benign ids, attacks, benign)."""
    doc = load(path)
    missed: list[str] = []
    alarms: list[str] = []
    attacks = benign = 0
    for case in doc["cases"]:
        band = worst(run_case(doc["base"], case))
        if case["expect"] == "attack":
            attacks += 1
            if band < Severity.HIGH:
                missed.append(case["id"])
        else:
            benign += 1
            if band > Severity.MEDIUM:
                alarms.append(case["id"])
    return missed, alarms, attacks, benign
