"""Reading a lockfile digests each item once, and the diff reuses what reading computed.

Each pinned item's canonical JSON is computed on read, for the digest the decision log's
records are compared with; the same text bounds its depth (a walk only for definitions with
many brackets), and the digest stays with the item, so a diff encodes only the live side of
an unchanged item. These tests count that work, and check that a deep definition is still
refused. (An edit of any field is refused by the binding to the log:
``tests/test_lockfile_review.py``.)
"""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from mcplock_tui import storage
from mcplock_tui.core import canonical, diff
from mcplock_tui.core import lockfile as lf
from mcplock_tui.core.canonical import digest
from mcplock_tui.core.diff import diff_surfaces
from mcplock_tui.core.model import Surface
from mcplock_tui.core.surface import MAX_DEPTH
from mcplock_tui.errors import LockfileError
from tests.core.pins import one_server_lock
from tests.core.test_lockfile import make_lock


def _tools(n: int) -> list[dict[str, Any]]:
    return [
        {
            "name": f"tool_{i}",
            "description": f"Tool number {i}.",
            "inputSchema": {
                "type": "object",
                "properties": {"path": {"type": "string"}, "n": {"type": "integer"}},
                "required": ["path"],
            },
            "annotations": {"readOnlyHint": i % 2 == 0},
        }
        for i in range(n)
    ]


def _counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    calls = [0]
    inner: Callable[..., Any] = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return inner(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_reading_walks_no_ordinary_definition_for_its_depth(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = storage.dumps(one_server_lock(_tools(50)))
    walks = _counting(monkeypatch, lf, "depth_exceeds")
    lock = storage.loads(text)
    assert len(lock.servers["s"].surface.tools) == 50
    assert walks[0] == 0  # the canonical JSON's bracket count proves them shallow


def _nested(levels: int) -> Any:
    value: Any = "leaf"
    for _ in range(levels):
        value = {"k": value}
    return value


@pytest.mark.parametrize("levels", [MAX_DEPTH - 2, MAX_DEPTH - 1])
def test_a_definition_exactly_at_the_bound_reads_and_one_level_more_is_refused(
    levels: int,
) -> None:
    # item (1) + inputSchema's `levels` objects + the leaf: MAX_DEPTH - 2 is exactly at it.
    # Capture refuses the deeper one, so it is written past it, as a hand-made file would be.
    tool = {"name": "deep", "inputSchema": _nested(levels)}
    surface = Surface(server={"launch": "stdio: x"}, instructions=None, tools={"deep": tool})
    text = storage.dumps(lf.Lockfile({"s": lf.ServerPin(surface)}))
    if levels == MAX_DEPTH - 2:
        assert storage.loads(text).servers["s"].surface.tools["deep"] == tool
    else:
        with pytest.raises(LockfileError, match=f"nested more than {MAX_DEPTH} levels deep"):
            storage.loads(text)


def test_many_brackets_but_shallow_reads_after_the_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    wide = {f"p{i}": {"type": ["string", "null"]} for i in range(MAX_DEPTH)}
    tools: list[dict[str, Any]] = [
        {"name": "wide", "inputSchema": {"type": "object", "properties": wide}},
        {"name": "brackets", "description": "[{" * MAX_DEPTH},  # only inside a string
    ]
    text = storage.dumps(one_server_lock(tools))
    walks = _counting(monkeypatch, lf, "depth_exceeds")
    surface = storage.loads(text).servers["s"].surface
    assert surface.tools["wide"]["inputSchema"] == tools[0]["inputSchema"]
    assert walks[0] == 2  # the bracket count cannot prove these two, so the walk decides


def test_diff_encodes_only_the_live_side_of_an_unchanged_pinned_item(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tools = _tools(40)
    pinned = storage.loads(storage.dumps(one_server_lock(tools))).servers["s"].surface
    live = one_server_lock(json.loads(json.dumps(tools))).servers["s"].surface
    encodes = _counting(monkeypatch, canonical, "canon_json")
    encodes_diff = _counting(monkeypatch, diff, "canon_json")
    assert diff_surfaces("s", pinned, live) == []
    # one encoding per live item and for the live server table; none of the pinned side
    assert encodes[0] + encodes_diff[0] == len(tools) + 1


def test_the_diff_still_sees_what_only_canonical_json_tells_apart() -> None:
    tools = _tools(3)
    pinned = storage.loads(storage.dumps(one_server_lock(tools))).servers["s"].surface
    changed = json.loads(json.dumps(tools))
    changed[1]["annotations"]["readOnlyHint"] = 0  # == False in Python, not in JSON
    changed[2]["inputSchema"]["x"] = -0.0
    live = one_server_lock(changed).servers["s"].surface
    pinned_zero = (
        storage.loads(
            storage.dumps(
                one_server_lock([dict(tools[2], inputSchema=dict(tools[2]["inputSchema"], x=0.0))])
            )
        )
        .servers["s"]
        .surface
    )
    names = [c.name for c in diff_surfaces("s", pinned, live)]
    assert names == ["tool_1", "tool_2"]
    changes = diff_surfaces("s", pinned_zero, one_server_lock([changed[2]]).servers["s"].surface)
    assert [c.name for c in changes] == ["tool_2"]


def test_a_pinned_item_keeps_its_verified_digest_and_cannot_be_changed() -> None:
    lock = storage.loads(storage.dumps(make_lock()))
    surface = lock.servers["demo"].surface
    for _kind, _name, item in surface.all_items():
        if isinstance(item, canonical.HashedItem):
            assert item.digest == digest(dict(item))
    item = surface.tools["read_file"]
    assert isinstance(item, canonical.HashedItem)
    assert canonical.item_digest(item) == digest(dict(item))
    refusals: list[Callable[[], object]] = [
        lambda: item.__setitem__("name", "x"),
        lambda: item.pop("name"),
        lambda: item.update(name="x"),
        lambda: item.setdefault("new", 1),
        lambda: item.clear(),
    ]
    for refused in refusals:
        with pytest.raises(TypeError):
            refused()
    for copied in (
        dict(item),
        copy.copy(item),
        copy.deepcopy(item),
        pickle.loads(pickle.dumps(item)),
    ):
        assert type(copied) is dict and copied == item
    copied = copy.deepcopy(item)
    copied["name"] = "changed"  # a copy is an ordinary dict again
    assert canonical.item_digest(copied) == digest(copied) != item.digest


def test_pinned_items_share_their_repeated_keys() -> None:
    # One decode per JSON field shares keys within that field only; the pinned side holds
    # one copy of each key for the whole lockfile instead (about a fifth of its memory).
    tools = _tools(3)
    surface = storage.loads(storage.dumps(one_server_lock(tools))).servers["s"].surface
    schemas = [surface.tools[f"tool_{i}"]["inputSchema"] for i in range(3)]
    keys = [next(k for k in schema if k == "properties") for schema in schemas]
    assert keys[0] is keys[1] is keys[2]
    inner = [next(k for k in s["properties"]["path"] if k == "type") for s in schemas]
    assert inner[0] is inner[1] is inner[2]
    assert schemas[0] == tools[0]["inputSchema"]  # the same values, key order included
    assert list(schemas[0]) == sorted(tools[0]["inputSchema"])


def test_a_field_decodes_as_json_loads_does() -> None:
    for text in (
        '{"a": {"b": [1, 2.5, -0.0, 1e300, null, true]}, "c": "\\u00e9"}',
        '{"a": 1, "a": 2}',  # a repeated key: the last one wins, as in json.loads
        "[]",
        "0",
    ):
        assert lf._decode_json(text) == json.loads(text)
    for bad in ('{"a": 1,}', "[NaN, Infinity]", '{"a": 1} x'):
        try:
            expected: object = json.loads(bad)
        except json.JSONDecodeError:
            with pytest.raises(json.JSONDecodeError):
                lf._decode_json(bad)
        else:
            assert repr(lf._decode_json(bad)) == repr(expected)
