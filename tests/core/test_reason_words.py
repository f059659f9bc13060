"""Every reason a change can produce reads as English, not as Python, and points the right way.

The sweep builds a representative tool, applies one edit per case (schema keywords both ways,
hints, texts, removals, renames, server info) and checks each reason's message: no Python
reprs (``None``, ``True``/``False``, ``{}``, ``[]``), no "1 tools"-style plurals, and for
schema cases a direction word that matches the direction of the change.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest

from mcplock_tui.core.analysis import analyze
from mcplock_tui.core.formats.sarif import to_sarif
from mcplock_tui.core.lockfile import Lockfile, ServerPin
from mcplock_tui.core.model import CaptureResult, Surface
from mcplock_tui.core.surface import build_surface

INIT = {"serverInfo": {"name": "files", "version": "1.0.0"}, "protocolVersion": "2025-11-25"}
BASE: dict[str, Any] = {
    "name": "search",
    "description": "Search the project's files by name.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 1, "maxLength": 200},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 5},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100, "multipleOf": 1},
            "mode": {"type": "string", "enum": ["fast", "full"]},
            "extra": {"type": "object", "additionalProperties": False},
        },
        "required": ["query"],
        "additionalProperties": False,
    },
    "outputSchema": {"type": "object", "properties": {"hits": {"type": "integer"}}},
    "annotations": {"readOnlyHint": True},
}

Edit = Callable[[dict[str, Any]], None]
WIDER, NARROWER, EITHER = "wider", "narrower", "either"


def _props(t: dict[str, Any]) -> dict[str, Any]:
    props: dict[str, Any] = t["inputSchema"]["properties"]
    return props


CASES: dict[str, tuple[str, Edit]] = {
    "minItems dropped": (WIDER, lambda t: _props(t)["tags"].pop("minItems")),
    "minItems added": (NARROWER, lambda t: _props(t)["query"].update(minItems=2)),
    "maxLength dropped": (WIDER, lambda t: _props(t)["query"].pop("maxLength")),
    "maxLength raised": (WIDER, lambda t: _props(t)["query"].update(maxLength=900)),
    "maxLength lowered": (NARROWER, lambda t: _props(t)["query"].update(maxLength=20)),
    "multipleOf dropped": (WIDER, lambda t: _props(t)["limit"].pop("multipleOf")),
    "maximum dropped": (WIDER, lambda t: _props(t)["limit"].pop("maximum")),
    "enum grown": (WIDER, lambda t: _props(t)["mode"]["enum"].append("raw")),
    "enum shrunk": (NARROWER, lambda t: _props(t)["mode"].update(enum=["fast"])),
    "property schema closed": (NARROWER, lambda t: _props(t).update(mode=False)),
    "property schema opened": (WIDER, lambda t: _props(t).update(mode=True)),
    "additionalProperties opened": (
        WIDER,
        lambda t: t["inputSchema"].update(additionalProperties=True),
    ),
    "required dropped": (WIDER, lambda t: t["inputSchema"].update(required=[])),
    "output schema removed": (EITHER, lambda t: t.pop("outputSchema")),
    "output schema added": (EITHER, lambda t: t.update(outputSchema={"type": "string"})),
    "readOnly dropped": (EITHER, lambda t: t["annotations"].update(readOnlyHint=False)),
    "description rewritten": (
        EITHER,
        lambda t: t.update(description="Find files by name in the project."),
    ),
    "description removed": (EITHER, lambda t: t.pop("description")),
    "uniqueItems set": (NARROWER, lambda t: _props(t)["tags"].update(uniqueItems=True)),
}

PYTHON_REPR = re.compile(r"\b(None|True|False)\b|\{\}|\[\]|\(\)")
BAD_PLURAL = re.compile(
    r"(?<![\d.])1 (tools|prompts|resources|templates|changes|items|lines|values|keys|properties|parameters|arguments|servers|findings)\b"
)
WIDE_WORDS = re.compile(
    r"\b(loosened|widened|opened|dropped|removed|now accepts|no longer required|raised)\b"
)
NARROW_WORDS = re.compile(
    r"\b(tightened|narrowed|closed|added|now rejects|now required|lowered|accepts no value)\b"
)


def _surface(tools: list[dict[str, Any]]) -> Surface:
    return build_surface(initialize_result=INIT, launch="files-server", tools=tools)


def _messages(edit: Edit) -> list[tuple[str, str]]:
    new = copy.deepcopy(BASE)
    edit(new)
    lock = Lockfile(servers={"files": ServerPin(surface=_surface([BASE]))})
    captures = {"files": CaptureResult(name="files", surface=_surface([new]))}
    report = analyze(lock, captures, configured=["files"])
    return [(r.category, r.message) for c in report.changes for r in c.reasons]


@pytest.mark.parametrize("case", sorted(CASES))
def test_reason_words(case: str) -> None:
    way, edit = CASES[case]
    found = _messages(edit)
    assert found, f"{case}: no reason at all"
    for _category, message in found:
        assert not PYTHON_REPR.search(message), f"{case}: Python repr in {message!r}"
        assert not BAD_PLURAL.search(message), f"{case}: plural in {message!r}"
    schema = [m for cat, m in found if cat.startswith("capability-")]
    if way == WIDER:
        assert schema, f"{case}: no widened/narrowed reason in {found}"
        for message in schema:
            assert WIDE_WORDS.search(message), f"{case}: no widening word in {message!r}"
            assert not re.search(r"\b(tightened|narrowed|closed)\b", message), message
    elif way == NARROWER:
        assert schema, f"{case}: no widened/narrowed reason in {found}"
        for message in schema:
            assert NARROW_WORDS.search(message), f"{case}: no narrowing word in {message!r}"
            assert not re.search(r"\b(loosened|widened|opened)\b", message), message


def test_removed_output_schema_says_so() -> None:
    messages = [m for _, m in _messages(lambda t: t.pop("outputSchema"))]
    assert any("output schema removed" in m for m in messages), messages
    assert not any("true or" in m for m in messages), messages


def test_sarif_drift_rules_are_described_by_the_rule_not_an_instance() -> None:
    new_a, new_b = copy.deepcopy(BASE), copy.deepcopy(BASE)
    new_a["name"], new_b["name"] = "find", "lookup"
    other = {**copy.deepcopy(BASE), "name": "grep"}
    lock = Lockfile(servers={"files": ServerPin(surface=_surface([BASE, other]))})
    renamed_other = {**copy.deepcopy(other), "name": "grep2"}
    captures = {"files": CaptureResult(name="files", surface=_surface([new_a, renamed_other]))}
    report = analyze(lock, captures, configured=["files"])
    sarif = to_sarif(report, "mcplock.lock", "")
    rules = sarif["runs"][0]["tool"]["driver"]["rules"]
    assert rules
    for rule in rules:
        for text in (rule["shortDescription"]["text"], rule["fullDescription"]["text"]):
            assert "'" not in text, f"{rule['id']}: described by an instance: {text!r}"
            assert "search" not in text and "grep" not in text, text
