"""Semantic diff: order-insensitive, field-level, renames paired."""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mcplock_tui.core.diff import MISSING, diff_surfaces
from mcplock_tui.core.model import ChangeType, Kind
from mcplock_tui.core.surface import build_surface

BASE_TOOLS: list[dict[str, Any]] = [
    {
        "name": "search_issues",
        "description": "Search issues in a repository by query.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "Search text"},
                "limit": {"type": "integer", "maximum": 50},
            },
            "required": ["query"],
        },
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "create_issue",
        "description": "Create an issue.",
        "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}},
    },
]


def surface(tools: list[dict[str, Any]], **kw: Any) -> Any:
    init = {
        "serverInfo": {"name": "gh", "version": kw.pop("version", "1.0")},
        "protocolVersion": "2025-11-25",
        "capabilities": {},
    }
    return build_surface(initialize_result=init, launch="stdio: gh", tools=tools, **kw)


def test_identical_surfaces_have_no_changes() -> None:
    assert diff_surfaces("gh", surface(BASE_TOOLS), surface(copy.deepcopy(BASE_TOOLS))) == []


def test_field_paths_of_a_modified_tool() -> None:
    new = copy.deepcopy(BASE_TOOLS)
    new[0]["inputSchema"]["properties"]["limit"]["maximum"] = 500
    new[0]["inputSchema"]["required"] = []
    del new[0]["annotations"]
    [change] = diff_surfaces("gh", surface(BASE_TOOLS), surface(new))
    assert change.change is ChangeType.MODIFIED and change.name == "search_issues"
    paths = {f.path: (f.old, f.new) for f in change.fields}
    assert paths == {
        "annotations": ({"readOnlyHint": True}, MISSING),
        "inputSchema.properties.limit.maximum": (50, 500),
        "inputSchema.required": (["query"], []),
    }


def test_required_order_is_not_a_change() -> None:
    old = [dict(BASE_TOOLS[0], inputSchema={"type": "object", "required": ["a", "b"]})]
    new = [dict(BASE_TOOLS[0], inputSchema={"type": "object", "required": ["b", "a"]})]
    assert diff_surfaces("gh", surface(old), surface(new)) == []


def test_rename_is_one_change() -> None:
    new = copy.deepcopy(BASE_TOOLS)
    new[1]["name"] = "open_issue"
    changes = diff_surfaces("gh", surface(BASE_TOOLS), surface(new))
    assert [(c.change, c.name, c.old_name) for c in changes] == [
        (ChangeType.RENAMED, "open_issue", "create_issue")
    ]


def test_unrelated_remove_and_add_stay_separate() -> None:
    new = [
        BASE_TOOLS[0],
        {
            "name": "delete_repo",
            "description": "Delete a repository forever.",
            "inputSchema": {"type": "object", "properties": {"repo": {"type": "string"}}},
        },
    ]
    kinds = sorted(
        (c.change.value, c.name) for c in diff_surfaces("gh", surface(BASE_TOOLS), surface(new))
    )
    assert kinds == [("added", "delete_repo"), ("removed", "create_issue")]


def test_singletons_and_other_lists() -> None:
    old = surface(
        BASE_TOOLS, prompts=[{"name": "p", "arguments": [{"name": "a", "description": "x"}]}]
    )
    new = surface(
        BASE_TOOLS,
        version="1.1",
        prompts=[{"name": "p", "arguments": [{"name": "a", "description": "y"}, {"name": "b"}]}],
        resources=[{"uri": "https://evil.example/x", "name": "x"}],
    )
    changes = {(c.kind, c.change): c for c in diff_surfaces("gh", old, new)}
    assert set(changes) == {
        (Kind.PROMPT, ChangeType.MODIFIED),
        (Kind.RESOURCE, ChangeType.ADDED),
        (Kind.SERVER, ChangeType.MODIFIED),
    }
    prompt = changes[(Kind.PROMPT, ChangeType.MODIFIED)]
    assert [f.path for f in prompt.fields] == ["arguments[a].description", "arguments[b]"]
    assert [f.path for f in changes[(Kind.SERVER, ChangeType.MODIFIED)].fields] == [
        "serverInfo.version"
    ]


def _shuffle(value: Any, rnd: random.Random) -> Any:
    if isinstance(value, dict):
        keys = list(value)
        rnd.shuffle(keys)
        return {k: _shuffle(value[k], rnd) for k in keys}
    if isinstance(value, list):
        return [_shuffle(v, rnd) for v in value]
    return value


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_reordering_tools_or_keys_never_yields_a_change(seed: int) -> None:
    rnd = random.Random(seed)
    tools = _shuffle(copy.deepcopy(BASE_TOOLS), rnd)
    rnd.shuffle(tools)
    assert diff_surfaces("gh", surface(BASE_TOOLS), surface(tools)) == []


def test_type_array_order_is_not_a_change() -> None:
    old = [
        dict(
            BASE_TOOLS[0],
            inputSchema={"type": "object", "properties": {"a": {"type": ["string", "null"]}}},
        )
    ]
    new = [
        dict(
            BASE_TOOLS[0],
            inputSchema={"type": "object", "properties": {"a": {"type": ["null", "string"]}}},
        )
    ]
    assert diff_surfaces("gh", surface(old), surface(new)) == []


def test_first_prompt_arguments_are_diffed_by_name() -> None:
    old = surface(BASE_TOOLS, prompts=[{"name": "p"}])
    new = surface(BASE_TOOLS, prompts=[{"name": "p", "arguments": [{"name": "a"}, {"name": "b"}]}])
    [change] = diff_surfaces("gh", old, new)
    assert [(f.path, f.old, f.new) for f in change.fields] == [
        ("arguments[a]", MISSING, {"name": "a"}),
        ("arguments[b]", MISSING, {"name": "b"}),
    ]


def test_rename_with_text_appended_is_one_change() -> None:
    new = copy.deepcopy(BASE_TOOLS)
    new[0]["name"] = "find_issues"
    new[0]["description"] += " Results are also copied to the shared audit folder for review."
    changes = diff_surfaces("gh", surface(BASE_TOOLS), surface(new))
    assert [(c.change, c.name, c.old_name) for c in changes] == [
        (ChangeType.RENAMED, "find_issues", "search_issues")
    ]
    assert [f.path for f in changes[0].fields] == ["description", "name"]


def test_containment_does_not_pair_trivial_definitions() -> None:
    old = [
        {
            "name": "ping",
            "description": "Check that the server answers.",
            "inputSchema": {"type": "object"},
        }
    ]
    new = [
        {
            "name": "wipe",
            "description": "Check that the server answers, then erase every stored record.",
            "inputSchema": {"type": "object"},
        }
    ]
    kinds = sorted(
        (c.change.value, c.name) for c in diff_surfaces("gh", surface(old), surface(new))
    )
    assert kinds == [("added", "wipe"), ("removed", "ping")]
