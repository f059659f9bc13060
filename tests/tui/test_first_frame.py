"""The first screen is whole before capture starts: the footer's keys are drawn first.

Importing the MCP SDK in the capture worker holds the interpreter for most of a second; if it
starts before the footer has filled in, the reviewer looks at a screen without keys.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.style import Style
from textual.geometry import Region
from textual.widgets import Input

from mcplock_tui import startup
from mcplock_tui.spec import ServerSpec
from mcplock_tui.startup import pause_collector
from mcplock_tui.tui import app as app_module
from mcplock_tui.tui.app import ReviewApp
from mcplock_tui.tui.screens.review import ReviewScreen
from mcplock_tui.tui.widgets.footer import KeyFooter
from tests.tui.conftest import Project, settle


class _Watched(ReviewApp):
    CSS_PATH = str(
        Path(app_module.__file__).with_name("app.tcss")
    )  # relative to the subclass otherwise
    keys_at_capture: list[str] | None = None

    def capture_servers(self, specs: Sequence[ServerSpec]) -> None:  # type: ignore[override]
        footer = self.screen.query_one(KeyFooter)
        self.keys_at_capture = [span.description for span in footer.spans]
        super().capture_servers(specs)


async def test_capture_starts_after_the_footer_shows_its_keys(project: Project) -> None:
    app = _Watched(project.session(), log_dir=project.log_dir, timeout=10.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.keys_at_capture is not None, "capture never started"
        assert {"Accept", "Reject", "Quit"} <= set(app.keys_at_capture)
        assert all(s.report is not None for s in app.session.servers.values())


async def test_the_footer_is_one_widget(project: Project) -> None:
    """Ten key widgets cost a tenth of the first frame to mount, style and lay out."""
    app = project.app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        footer = app.review.query_one(KeyFooter)
        assert list(footer.children) == []
        assert {"Accept", "Reject", "Quit"} <= {span.description for span in footer.spans}


async def test_the_collector_is_back_on_after_the_first_frame(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The console entry pauses the cyclic collector while the program starts; the app
    resumes it, with the start-up heap frozen, once its first frame is up."""
    monkeypatch.setattr(startup, "_owned", False)  # put back after the test, as it was
    frozen = gc.get_freeze_count()
    pause_collector()
    try:
        assert not gc.isenabled()
        app = project.app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert gc.isenabled()
            assert gc.get_freeze_count() > frozen
    finally:
        gc.unfreeze()
        gc.enable()


def _frozen(objects: Sequence[object]) -> list[bool]:
    """Whether each object sits in the collector's permanent generation (not walked)."""
    walked = {id(o) for o in gc.get_objects()}
    return [id(o) not in walked for o in objects]


async def test_the_graded_review_is_frozen_once_capture_and_grading_are_over(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the review holds once every server is graded lives as long as the app: a full
    collection walking it again and again is a pause in the middle of a keypress."""
    monkeypatch.setattr(startup, "_owned", False)  # put back after the test, as it was
    pause_collector()
    try:
        app = project.app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            changes = list(app.session.changes())
            assert changes and all(_frozen(changes))
            assert gc.isenabled()
    finally:
        gc.unfreeze()
        gc.enable()


async def test_the_collector_is_left_alone_when_the_program_did_not_pause_it(
    project: Project,
) -> None:
    app = project.app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        changes = list(app.session.changes())
        assert changes and not any(_frozen(changes))


def _filter_row(app: ReviewApp) -> list[tuple[str, str]]:
    box = app.review.query_one("#filter")
    strip = box.render_lines(Region(0, 0, box.size.width, 1))[0]
    drawn = [(s.text, s.style or Style()) for s in strip]
    row = [(text.strip(), str(style.color)) for text, style in drawn if text.strip()]
    return row + [("background", str(style.bgcolor)) for _, style in drawn]


async def test_the_filter_box_is_text_in_the_first_frame_and_looks_the_same(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An Input costs a tenth of the first frame; the first frame draws its placeholder as
    text and the input replaces it right after, with nothing on screen changing."""
    app = project.app(capture=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.review.query_one("#filter"), Input)
        real = _filter_row(app)

    async def keep_stand_in(self: ReviewScreen) -> None:
        return None

    monkeypatch.setattr(ReviewScreen, "mount_filter", keep_stand_in)
    app = project.app(capture=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        stand_in = app.review.query_one("#filter")
        assert not isinstance(stand_in, Input)
        assert _filter_row(app) == real


async def test_slash_at_once_focuses_one_filter_input(project: Project) -> None:
    app = project.app(capture=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("slash")  # may race the first frame's swap
        await pilot.pause()
        boxes = app.review.query("#filter")
        assert len(boxes) == 1 and isinstance(app.focused, Input)
        await pilot.press("w", "r", "i", "t", "e")
        await pilot.pause()
        assert app.review.filter.text == "write"


@pytest.mark.parametrize("key", ["q", "ctrl+q"])
async def test_quit_before_the_filter_box_is_swapped_in_exits_cleanly(
    project: Project, key: str
) -> None:
    """A reviewer who quits at once (the key typed while the app starts) quits before the
    first frame's filter swap runs; the swap must not mount into a screen being closed."""
    app = project.app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert not isinstance(app.review.query_one("#filter"), Input), "the swap ran already"
        await pilot.press(key)
    assert app.return_code == 0
