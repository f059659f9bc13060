"""The footer at 80×24 lists the keys of the screen on top: a dialog's own keys while it is
open, the review's keys again once it closes."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.screen import Screen

from mcplock_tui.tui.app import ReviewApp
from mcplock_tui.tui.screens.modals import AcceptAllScreen, HelpScreen, RejectNoteScreen
from mcplock_tui.tui.screens.review import ReviewScreen
from mcplock_tui.tui.session import server_key
from mcplock_tui.tui.widgets.footer import KeyFooter
from tests.tui.conftest import Project, settle
from tests.tui.test_app import rendered

SMALL = (80, 24)
REVIEW_KEYS = {"q", "question_mark", "a", "r", "A", "u", "e", "n"}
"""The review's footer keys; none of them acts inside a dialog."""


def bottom_footer(screen: Screen[Any]) -> KeyFooter:
    """The footer drawn on the screen's last row, the one the reviewer sees."""
    widget, _region = screen.get_widget_at(SMALL[0] // 2, SMALL[1] - 1)
    assert isinstance(widget, KeyFooter), widget
    return widget


def screen_row(app: ReviewApp, row: int) -> str:
    """The text of one row of the terminal as the app last drew it, without spaces (the
    screenshot leaves out a lone space between two styled runs)."""
    svg = app.export_screenshot()
    parts = re.findall(rf'clip-path="url\(#terminal-\d+-line-{row}\)">([^<]*)</text>', svg)
    return "".join(html.unescape("".join(parts)).split())


def assert_fits(footer: KeyFooter) -> str:
    """Each key drawn whole inside 80 columns; returns the footer's text."""
    line = rendered(footer)
    assert footer.region.right <= SMALL[0]
    for span in footer.spans:
        assert 0 <= span.start < span.end <= SMALL[0], span
        assert line[span.start : span.end].startswith(span.key_display), (span, line)
        assert span.description in line[span.start : span.end], (span, line)
    return line


async def open_help(app: ReviewApp, pilot: Pilot[Any]) -> None:
    await pilot.press("question_mark")


async def open_reject(app: ReviewApp, pilot: Pilot[Any]) -> None:
    app.jump_to("files/tool/write_file")
    await pilot.pause()
    await pilot.press("r")


async def open_accept_all(app: ReviewApp, pilot: Pilot[Any]) -> None:
    app.jump_to(server_key("files"))
    await pilot.pause()
    await pilot.press("A")


DIALOGS = {
    "help": (open_help, HelpScreen, {"escape": "Close"}),
    "reject": (open_reject, RejectNoteScreen, {"escape": "Cancel", "enter": "Reject"}),
    "accept-all": (
        open_accept_all,
        AcceptAllScreen,
        {"escape": "Cancel", "y": "Accept", "1": "Low", "4": "Critical"},
    ),
}


@pytest.mark.parametrize("name", list(DIALOGS))
async def test_footer_lists_the_open_dialogs_keys(project: Project, name: str) -> None:
    opener, screen_type, wanted = DIALOGS[name]
    app = project.app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await opener(app, pilot)
        await pilot.pause()
        assert isinstance(app.screen, screen_type)
        footer = bottom_footer(app.screen)
        line = assert_fits(footer)
        shown = {span.key: span.description for span in footer.spans}
        for key, description in wanted.items():
            assert shown.get(key) == description, (key, line)
        assert not REVIEW_KEYS & set(shown) - set(wanted), line
        for review_only in ("a Accept", "Reject" if name != "reject" else "Undo", "Quit"):
            assert review_only not in line, line

        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        footer = bottom_footer(app.screen)
        line = assert_fits(footer)
        assert {"a", "r", "A", "u", "q"} <= {span.key for span in footer.spans}, line
        assert "a Accept" in line and "esc Cancel" not in line and "esc Close" not in line


async def test_a_click_on_a_dialog_footer_key_runs_it(project: Project) -> None:
    app = project.app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        footer = bottom_footer(app.screen)
        close = next(span for span in footer.spans if span.key == "escape")
        await pilot.click(footer, offset=(close.start + 1, 0))
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)


async def test_footer_lists_the_command_palettes_keys(project: Project) -> None:
    """The palette is Textual's own screen: the review's footer, still drawn beneath its
    overlay, lists the palette's keys while it is open."""
    app = project.app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        footer = app.review.query_one(KeyFooter)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        line = assert_fits(footer)
        assert "Exit the command palette" in line and "Accept" not in line, line
        # Redrawn beneath the overlay, not only when asked to render.
        assert screen_row(app, SMALL[1] - 1) == "".join(line.split()), line
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        line = assert_fits(footer)
        assert "a Accept" in line, line
        assert screen_row(app, SMALL[1] - 1) == "".join(line.split()), line
