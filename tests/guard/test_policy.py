"""Pure verdicts: the guard's notion of "matches its pin" is the one --check uses."""

from __future__ import annotations

import pytest

from mcplock_tui.core.canonical import digest
from mcplock_tui.core.lockfile import Rejection, ServerPin
from mcplock_tui.core.model import Kind
from mcplock_tui.core.surface import build_surface
from mcplock_tui.guard.policy import PinIndex, Status, judge_page, live_hash, template_regex
from tests.servers.harness import default_defs


def _index(**changes: object) -> PinIndex:
    defs = default_defs()
    surface = build_surface(initialize_result={}, launch="x", tools=defs["tools"])
    return PinIndex.build(ServerPin(surface=surface, **changes))  # type: ignore[arg-type]


def test_live_hash_is_the_lockfile_item_hash() -> None:
    for tool in default_defs()["tools"]:
        assert live_hash(Kind.TOOL, tool) == digest(tool)


def test_key_order_is_not_drift_but_any_character_is() -> None:
    tools = default_defs()["tools"]
    reordered = [dict(reversed(list(t.items()))) for t in tools]
    assert all(v.pinned for v in judge_page(_index(), Kind.TOOL, reordered, set()))
    tools[1]["description"] += "\u200b"
    verdicts = judge_page(_index(), Kind.TOOL, tools, set())
    assert [v.status for v in verdicts][:2] == [Status.PINNED, Status.DRIFTED]


def test_new_malformed_duplicate_and_rejected() -> None:
    tools = default_defs()["tools"]
    evil = {**tools[0], "description": "evil"}
    rejected = Rejection(Kind.TOOL, "read_file", live_hash(Kind.TOOL, evil))
    index = _index(rejected=(rejected,))
    page = [evil, {"name": "brand_new"}, {"description": "no name"}, tools[1], tools[1]]
    statuses = [v.status for v in judge_page(index, Kind.TOOL, page, set())]
    assert statuses == [
        Status.REJECTED,
        Status.NEW,
        Status.MALFORMED,
        Status.PINNED,
        Status.MALFORMED,
    ]


def test_unpinned_server_withholds_everything() -> None:
    verdicts = judge_page(PinIndex.build(None), Kind.TOOL, default_defs()["tools"], set())
    assert {v.status for v in verdicts} == {Status.UNPINNED_SERVER}


@pytest.mark.parametrize(
    ("template", "uri", "matches"),
    [
        ("file:///project/{path}", "file:///project/src/a.py", True),
        ("file:///project/{path}", "file:///etc/passwd", False),
        ("git:///show/{ref}/{path}", "git:///show/main/README", True),
        ("db://{table}{?limit}", "db://users?limit=3", True),
        ("db://{table}{?limit}", "http://users", False),
    ],
)
def test_template_regex(template: str, uri: str, matches: bool) -> None:
    pattern = template_regex(template)
    assert pattern is not None
    assert bool(pattern.fullmatch(uri)) is matches
