"""Groups of alike changes in the app: one row, expandable, accepted together; natural order."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcplock_tui.storage import read_lockfile
from mcplock_tui.tui.session import ACCEPTED, PENDING
from tests.tui.conftest import Project, make_project, settle

SIZE = (110, 36)
ALIKE = [
    {
        "name": f"get_item_{i}",
        "description": "Return one stored item.",
        "inputSchema": {"type": "object"},
        "annotations": {"readOnlyHint": True},
    }
    for i in (1, 2, 10, 11, 100)
]


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return make_project(tmp_path / "project", extra_tools=ALIKE)


async def test_alike_changes_are_one_row_that_expands_and_accepts_together(
    project: Project,
) -> None:
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        nav = app.review.nav
        ids = [o.id or "" for o in nav.options]
        key = "group\0notes/tool/get_item_{n}"
        assert key in ids
        assert not any(i.startswith("notes/tool/get_item_") for i in ids)  # folded
        assert "5 tools added matching get_item_{n}" in str(nav.get_option(key).prompt)

        assert nav.select_key(key)
        await pilot.press("enter")
        await settle(pilot)
        ids = [o.id or "" for o in nav.options]
        members = [i for i in ids if i.startswith("notes/tool/get_item_")]
        assert members == [f"notes/tool/get_item_{n}" for n in (1, 2, 10, 11, 100)]
        assert ids.index(key) + 1 == ids.index(members[0])

        assert nav.select_key(key)
        await pilot.press("a")
        await settle(pilot)
        tools = read_lockfile(project.lock_path).servers["notes"].surface.tools
        assert sorted(n for n in tools if n.startswith("get_item_")) == sorted(
            str(t["name"]) for t in ALIKE
        )
        states = {app.session.state(c) for c in app.session.changes() if "get_item_" in c.id}
        assert states == {ACCEPTED}
        echo = app.session.change("notes/tool/echo")
        assert echo is not None and app.session.state(echo) == PENDING  # not in the group
        assert "(decided)" in str(nav.get_option(key).prompt)

        await pilot.press("enter")  # collapse again
        await settle(pilot)
        assert not any((o.id or "").startswith("notes/tool/get_item_") for o in nav.options)
