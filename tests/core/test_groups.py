"""Grouping of alike changes, natural order and glob names (pure, no server)."""

from __future__ import annotations

import io

import pytest

from mcplock_tui.cli.render import make_console, render_report
from mcplock_tui.core.analysis import analyze
from mcplock_tui.core.formats.json_report import to_json
from mcplock_tui.core.groups import group_changes, name_matches, natural_sorted, shape
from mcplock_tui.core.lockfile import Lockfile, ServerPin
from mcplock_tui.core.model import CaptureResult, Severity, Surface
from mcplock_tui.core.report import Report
from mcplock_tui.core.surface import build_surface


def test_natural_order() -> None:
    names = ["r100", "r11", "r10", "r2", "r1", "R3", "r01", "a", "r"]
    assert natural_sorted(names) == ["a", "r", "r01", "r1", "r2", "R3", "r10", "r11", "r100"]


def test_natural_order_survives_huge_digit_runs() -> None:
    huge = "x" + "9" * 5000
    assert natural_sorted([huge, "x10", "x2"]) == ["x2", "x10", huge]


@pytest.mark.parametrize(
    ("pattern", "name", "expected"),
    [
        ("get_*", "get_issue", True),
        ("get_*", "list_issues", False),
        ("*", "anything", True),
        ("test://static/resource/*", "test://static/resource/12", True),
        ("file_?", "file_1", True),
        ("read_file", "read_file", True),
        ("read_file", "read_files", False),
        ("Get_*", "get_issue", False),  # case matters: tool names are case-sensitive
    ],
)
def test_name_matches(pattern: str, name: str, expected: bool) -> None:
    assert name_matches(pattern, name) is expected


def surface(
    resources: list[dict[str, str]], tools: list[dict[str, object]] | None = None
) -> Surface:
    return build_surface(
        initialize_result={"serverInfo": {"name": "everything", "version": "1"}},
        launch="npx server-everything",
        resources=resources,
        tools=tools or [],
    )


def everything_upgrade() -> Report:
    old = surface([{"uri": "test://static/resource/1", "name": "Resource 1"}])
    new = surface(
        [{"uri": f"test://static/resource/{i}", "name": f"Resource {i}"} for i in range(1, 102)],
        tools=[
            {"name": "echo", "description": "Echo back.", "inputSchema": {"type": "object"}},
        ],
    )
    lock = Lockfile({"everything": ServerPin(old)})
    return analyze(
        lock, {"everything": CaptureResult("everything", surface=new)}, configured=["everything"]
    )


def test_a_hundred_alike_resources_are_one_group() -> None:
    report = everything_upgrade()
    (group,) = group_changes(report.changes)
    assert group.label == "100 resources added under test://static/resource/{n}"
    assert group.selector == "everything/resource/test://static/resource/*"
    assert group.severity is Severity.MEDIUM  # a custom scheme is not a new host
    assert [c.name for c in group.members[:3]] == [
        "test://static/resource/2",
        "test://static/resource/3",
        "test://static/resource/4",
    ]
    assert group.members[-1].name == "test://static/resource/101"


def test_changes_with_different_reasons_are_not_grouped() -> None:
    def tool(i: int, host: str) -> dict[str, object]:
        return {
            "name": f"fetch_{i}",
            "description": f"Fetch from https://{host}/",
            "inputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": True},
        }

    old = surface([])
    hosts = ["alpha.example", "beta.example", "gamma.example", "delta.example"]
    numbered = [f"h{i}.example" for i in range(4)]
    new = surface(
        [],
        tools=[tool(i, h) for i, h in enumerate(hosts)]
        + [tool(i + 10, h) for i, h in enumerate(numbered)],
    )
    report = analyze(
        Lockfile({"s": ServerPin(old)}), {"s": CaptureResult("s", surface=new)}, configured=["s"]
    )
    groups = group_changes(report.changes)
    # Other hosts by name keep their changes apart; hosts that differ in a number group.
    assert [g.label for g in groups] == ["4 tools added matching fetch_{n}"]
    assert [c.name for c in groups[0].members] == ["fetch_10", "fetch_11", "fetch_12", "fetch_13"]
    assert len(report.servers[0].new_hosts) == 8


def test_json_has_groups_and_keeps_every_change() -> None:
    doc = to_json(everything_upgrade(), "mcplock.lock")
    (group,) = doc["groups"]
    assert group["count"] == 100
    assert group["label"] == "100 resources added under test://static/resource/{n}"
    assert group["members"][0] == "everything/resource/test://static/resource/2"
    assert len(doc["servers"][0]["changes"]) == 101
    names = [c["name"] for c in doc["servers"][0]["changes"] if c["kind"] == "resource"]
    assert names[:3] == [
        "test://static/resource/2",
        "test://static/resource/3",
        "test://static/resource/4",
    ]
    assert names[8:10] == ["test://static/resource/10", "test://static/resource/11"]


def test_text_report_summarises_the_group_in_a_few_lines() -> None:
    out = io.StringIO()
    render_report(make_console(out, width=120), everything_upgrade(), "mcplock.lock")
    text = out.getvalue()
    assert "100 resources added under test://static/resource/{n}" in text.splitlines()[2]
    assert "and 99 more like it: test://static/resource/3" in text
    assert "test://static/resource/50" not in text
    assert len(text.splitlines()) < 20


def test_shape() -> None:
    assert shape("test://static/resource/12") == "test://static/resource/{n}"
    assert shape("get_v2_item") == "get_v{n}_item"
