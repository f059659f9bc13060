"""The app at 80×24, the smallest terminal it promises: every key, row and button reachable.

Also the navigator's filters: ``/`` finds text inside definitions and findings, and a band
filter never hides a server that could not be checked.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Button

from mcplock_tui.tui.screens.modals import AcceptAllScreen
from mcplock_tui.tui.session import server_key
from mcplock_tui.tui.widgets.footer import KeyFooter
from tests.tui.conftest import Project, make_project, settle
from tests.tui.test_app import rendered

SMALL = (80, 24)


def _inside(region_right: int, region_bottom: int) -> bool:
    return region_right <= SMALL[0] and region_bottom <= SMALL[1]


async def test_footer_shows_every_key_at_80x24(project: Project) -> None:
    app = project.app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        footer = app.review.query_one(KeyFooter)
        spans = footer.spans
        shown = {span.key for span in spans}
        wanted = {b.key for b in app.BINDINGS if isinstance(b, Binding) and b.show} | {"n"}
        assert wanted <= shown
        line = rendered(footer)
        assert footer.region.right <= SMALL[0] and footer.region.bottom <= SMALL[1]
        for span in spans:  # each key drawn whole, inside the screen, where clicks land
            assert 0 <= span.start < span.end <= SMALL[0], span
            assert line[span.start : span.end].startswith(span.key_display), (span, line)
            assert span.description in line[span.start : span.end], (span, line)
        for a, b in itertools.pairwise(spans):  # the palette key hides nothing
            assert a.end <= b.start, (a, b)


async def test_navigator_rows_fit_at_80x24(project: Project) -> None:
    app = project.app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        nav = app.review.nav
        text = rendered(nav)
        assert "…" not in text  # long rows wrap instead of being cut
        for name in ("write_file", "search_files", "delete_file", "move_file"):
            assert name in text
        assert "exited" in text or "closed" in text  # the failed server's cause is readable


@pytest.fixture
def crowded(tmp_path: Path) -> Project:
    """``notes`` gains forty new tools: more rows than an 80×24 dialog can list."""
    extra = [
        {"name": f"note_tool_{i}", "description": "Return the note text.", "inputSchema": {}}
        for i in range(40)
    ]
    return make_project(tmp_path / "p", extra_tools=extra)


async def test_accept_all_buttons_reachable_with_many_changes(crowded: Project) -> None:
    app = crowded.app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        app.jump_to(server_key("notes"))
        await pilot.pause()
        await pilot.press("A")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AcceptAllScreen)
        await pilot.press("4")
        await pilot.pause()
        for button in screen.query(Button):
            region = button.region
            assert region.height > 0, button.id
            assert _inside(region.right, region.bottom), (button.id, region)


async def test_band_filter_keeps_failed_servers_visible(project: Project) -> None:
    app = project.app()
    async with app.run_test(size=(110, 36)) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await pilot.pause()
        ids = [o.id for o in app.review.nav.options]
        assert server_key("broken") in ids


async def test_filter_finds_text_inside_definitions(project: Project) -> None:
    app = project.app()
    async with app.run_test(size=(110, 36)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"ssh", "enter")
        await pilot.pause()
        ids = [o.id for o in app.review.nav.options]
        assert "files/tool/write_file" in ids  # "~/.ssh/id_rsa" is in its new description
        assert "files/tool/search_files" not in ids


async def test_filter_finds_finding_text(project: Project) -> None:
    app = project.app()
    async with app.run_test(size=(110, 36)) as pilot:
        await settle(pilot)
        write = app.session.change("files/tool/write_file")
        assert write is not None and write.findings
        word = write.findings[0].message.split()[0]
        app.review.filter = type(app.review.filter)(text=word)
        app.review.refresh_rows()
        await pilot.pause()
        ids = [o.id for o in app.review.nav.options]
        assert "files/tool/write_file" in ids


async def test_one_toast_at_a_time(project: Project) -> None:
    app = project.app(capture=False)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        app.say("first problem", error=True)
        app.say("second problem", error=True)
        await pilot.pause()
        await pilot.pause()
        toasts = list(app.screen.query("Toast"))
        assert len(toasts) == 1
        assert "second problem" in str(toasts[0].render())


async def test_a_click_on_a_footer_key_runs_it(project: Project) -> None:
    from mcplock_tui.tui.screens.modals import HelpScreen

    app = project.app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        footer = app.review.query_one(KeyFooter)
        help_key = next(span for span in footer.spans if span.description == "Help")
        gap = next(span for span in footer.spans if span.end < help_key.start)
        await pilot.click(KeyFooter, offset=(gap.end, 0))  # the space between two keys
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
        await pilot.click(KeyFooter, offset=(help_key.start + 1, 0))
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_footer_says_how_to_leave_the_filter_box(project: Project) -> None:
    """Typing in the filter box takes the letter keys, so the footer loses them; it shows
    the two keys that still act there instead of an empty line."""
    app = project.app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await pilot.pause()
        footer = app.review.query_one(KeyFooter)
        shown = {span.key: span.description for span in footer.spans}
        assert "escape" in shown and "enter" in shown, shown
        await pilot.press("w", "enter")
        await pilot.pause()
        assert app.focused is app.review.nav
        assert "escape" not in {span.key for span in footer.spans}, "only while typing"


@pytest.fixture
def long_names(tmp_path: Path) -> Project:
    """``notes`` gains a tool whose name is wider than the navigator at 80×24."""
    extra = [
        {
            "name": "note_tool_with_a_name_much_longer_than_the_list",
            "description": "Return the note text.",
            "inputSchema": {},
        }
    ]
    return make_project(tmp_path / "p", extra_tools=extra)


async def test_a_wrapped_row_continues_under_its_name(long_names: Project) -> None:
    app = long_names.app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        lines = rendered(app.review.nav).splitlines()
        name = "note_tool_with_a_name_much_longer_than_the_list"
        first = next((i for i, ln in enumerate(lines) if "+tool" in ln and "note" in ln), None)
        assert first is not None, lines  # the name starts on its row's line
        start = lines[first].index("note")
        assert start > lines[first].index("+tool")  # the name starts beside its marks
        told, i = lines[first][start:], first + 1
        while len(told) < len(name):
            # Before, the rest of the name went back to the first column, where it read as
            # a row of its own.
            assert lines[i][:start].strip() == "", (lines[first], lines[i])
            told += lines[i][start:].rstrip()
            i += 1
        assert told == name


async def test_a_long_reason_is_cut_visibly_and_points_to_findings(long_names: Project) -> None:
    app = long_names.app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        key = "notes/tool/note_tool_with_a_name_much_longer_than_the_list"
        app.jump_to(key)
        await settle(pilot)
        await pilot.pause()
        change = app.review.current_change
        assert change is not None and change.id == key
        reason = change.reasons[0].message
        w = app.review.query_one("#detail-why", Widget)
        why = w.render_line(0).text.strip()  # as drawn, with its padding
        head = rendered(app.review.query_one("#detail-head", Widget))
        # Before, the reason shared the head's last line and was cut there without a mark,
        # with the pointer to the other reasons after it.
        assert len(reason) > len(why) and why.endswith("…"), (why, reason)
        assert reason.startswith(why[:-1].rstrip())
        assert "in Findings" in head, head


async def test_the_summary_keeps_the_counts_and_the_filter_at_80x24(project: Project) -> None:
    from mcplock_tui.core.model import Severity

    app = project.app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        app.review.filter = type(app.review.filter)(Severity.HIGH, "credentials file")
        app.review.refresh_rows()
        app.review.refresh_summary()
        await pilot.pause()
        text = " ".join(rendered(app.review.query_one("#summary", Widget)).split())
        # Before, the line was one row and the filter, the part that says rows are hidden,
        # was cut off the end.
        assert "pending" in text and "filter: ≥high “credentials file”" in text, text
