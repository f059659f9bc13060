"""The review app against real fixture servers: rows, navigation, filters, decisions on disk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widget import Widget
from textual.worker import WorkerFailed

from mcplock_tui.cli.main import main
from mcplock_tui.core.canonical import digest
from mcplock_tui.core.model import Kind, Severity
from mcplock_tui.storage import read_lockfile
from mcplock_tui.tui.screens.modals import AcceptAllScreen, HelpScreen, RejectNoteScreen
from mcplock_tui.tui.session import ACCEPTED, PENDING, REJECTED, server_key
from tests.fake_anthropic import fake_anthropic, verdict_reply
from tests.tui.conftest import POISON, Project, settle

SIZE = (110, 36)


def rendered(widget: Widget) -> str:
    strips = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return "\n".join("".join(segment.text for segment in strip).rstrip() for strip in strips)


def status(app: object) -> str:
    from mcplock_tui.tui.app import ReviewApp

    assert isinstance(app, ReviewApp)
    return rendered(app.review.query_one("#status", Widget))


async def test_every_server_shows_its_state_and_changes_come_worst_first(project: Project) -> None:
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        nav = app.review.nav
        servers = [
            o.id for o in nav.options if o.id is not None and o.id.startswith(server_key(""))
        ]
        assert servers[2] == server_key("broken")  # drifted servers first, the failed one after
        prompts = {o.id: str(o.prompt) for o in nav.options}
        assert prompts[server_key("files")] == "files  6 changes"
        assert prompts[server_key("notes")] == "notes  1 change"
        assert prompts[server_key("broken")].startswith("broken  failed: ")
        files = [
            app.session.change(o.id) for o in nav.options if o.id and o.id.startswith("files/")
        ]
        severities = [c.severity for c in files if c is not None]
        assert severities == sorted(severities, reverse=True)
        assert {c.id for c in files if c is not None} == {
            "files/tool/write_file",
            "files/tool/delete_file",
            "files/tool/search_files",
            "files/tool/list_directory",
            "files/tool/move_file",
            "files/instructions/instructions",
        }
        assert files[0] is not None and files[0].severity is Severity.CRITICAL
        counts = app.session.counts()
        assert sum(counts.values()) == 7
        expected = (
            "mcplock.lock  3 servers  "
            + "  ".join(
                f"{label} {counts[band]}"
                for label, band in (
                    ("CRIT", Severity.CRITICAL),
                    ("HIGH", Severity.HIGH),
                    ("MED ", Severity.MEDIUM),
                    ("LOW ", Severity.LOW),
                )
            )
            + "  7 pending"
        )
        assert rendered(app.review.query_one("#summary", Widget)).strip() == expected


async def test_failed_server_row_shows_the_cause_and_log(project: Project) -> None:
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.jump_to(server_key("broken"))
        await pilot.pause()
        body = rendered(app.review.query_one("#server-body", Widget))
        assert "broken  failed" in body
        assert "Cause: " in body
        assert "rawserver: fatal: refusing to start in exit_at_start mode" in body
        assert "Server log: ~/.cache/mcplock-tui/logs/test/broken.log" in body


async def test_navigation_moves_the_detail_and_n_finds_the_next_pending(project: Project) -> None:
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        nav = app.review.nav
        assert nav.highlighted == 0
        await pilot.press("down")
        first = app.review.current_change
        assert first is not None and first.server == "files"
        head = rendered(app.review.query_one("#detail-head", Widget))
        assert first.name in head and "pending" in head
        await pilot.press("down")
        second = app.review.current_change
        assert second is not None and second.id != first.id
        await pilot.press("n")
        third = app.review.current_change
        assert third is not None and third.id not in (first.id, second.id)
        assert app.session.state(third) == PENDING


async def test_band_keys_and_text_filter_narrow_the_list(project: Project) -> None:
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        nav = app.review.nav
        everything = nav.option_count
        await pilot.press("4")
        shown = [app.session.change(o.id) for o in nav.options if o.id and "/" in o.id]
        assert shown and all(c is not None and c.severity is Severity.CRITICAL for c in shown)
        assert nav.option_count < everything
        await pilot.press("escape")
        assert nav.option_count == everything
        await pilot.press("slash", *"move_file", "enter")
        ids = [o.id for o in nav.options]
        # the failed server stays listed under any filter: it could not be checked at all
        assert ids == [server_key("files"), "files/tool/move_file", server_key("broken")]
        assert app.focused is nav
        summary = rendered(app.review.query_one("#summary", Widget))
        assert "filter: “move_file”" in summary


async def test_accept_writes_exactly_the_shown_definition(project: Project) -> None:
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.jump_to("files/tool/write_file")
        change = app.review.current_change
        assert change is not None and change.new is not None
        await pilot.press("a")
        await settle(pilot)
        lock = read_lockfile(project.lock_path)
        assert lock.servers["files"].surface.tools["write_file"] == change.new
        assert lock.servers["files"].surface.tools["write_file"]["description"] == POISON
        assert (
            lock.servers["files"].surface.tools["delete_file"]
            == app.session.base.servers["files"].surface.tools["delete_file"]
        )
        assert app.session.state(change) == ACCEPTED
        assert str(app.review.nav.get_option("files/tool/write_file").prompt).endswith(
            "write_file  accepted"
        )
        assert "Accepted tool 'write_file' on 'files'" in status(app)


async def test_reject_records_the_note_and_keeps_the_old_pin(project: Project) -> None:
    app = project.app()
    before = read_lockfile(project.lock_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.jump_to("files/tool/write_file")
        change = app.review.current_change
        assert change is not None
        await pilot.press("r")
        assert isinstance(app.screen, RejectNoteScreen)
        await pilot.press(*"exfiltration", "enter")
        await settle(pilot)
        lock = read_lockfile(project.lock_path)
        pin = lock.servers["files"]
        assert pin.surface == before.servers["files"].surface
        rejection = pin.rejection_for(Kind.TOOL, "write_file")
        assert rejection is not None
        assert (rejection.hash, rejection.note) == (change.new_hash, "exfiltration")
        assert app.session.state(change) == REJECTED
        assert "rejected: exfiltration" in rendered(app.review.query_one("#detail-head", Widget))


async def test_escape_on_the_note_rejects_nothing(project: Project) -> None:
    original = project.lock_path.read_bytes()
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.jump_to("files/tool/write_file")
        await pilot.press("r", "escape")
        await pilot.pause()
        assert project.lock_path.read_bytes() == original
        change = app.review.current_change
        assert change is not None and app.session.state(change) == PENDING


async def test_undo_writes_the_previous_lockfile_back(project: Project) -> None:
    original = read_lockfile(project.lock_path)
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.jump_to("files/tool/delete_file")
        await pilot.press("a")
        await settle(pilot)
        app.jump_to("files/tool/write_file")
        await pilot.press("r", "enter")
        await settle(pilot)
        after_both = read_lockfile(project.lock_path)
        assert after_both.servers["files"].rejection_for(Kind.TOOL, "write_file") is not None
        await pilot.press("u")
        await pilot.pause()
        once = read_lockfile(project.lock_path)
        assert once.servers["files"].rejected == ()
        assert (
            once.servers["files"].surface.tools["delete_file"]["annotations"]["readOnlyHint"]
            is True
        )
        await pilot.press("u")
        await pilot.pause()
        restored = read_lockfile(project.lock_path)
        assert restored.servers == original.servers  # the log head moved on: undo is recorded
        delete = app.session.change("files/tool/delete_file")
        assert delete is not None and app.session.state(delete) == PENDING
        await pilot.press("u")
        await pilot.pause()
        assert "Nothing to undo." in status(app)
    records = [
        json.loads(line)
        for line in project.lock_path.with_name("mcplock.decisions.jsonl").read_text().splitlines()
    ]
    assert [(r["decision"], r["item"]) for r in records if r["decision"] != "pin"] == [
        ("accept", "delete_file"),
        ("reject", "write_file"),
        ("undo", "write_file"),
        ("undo", "delete_file"),
    ]
    assert main(["log", "verify", "--lock", str(project.lock_path)]) == 0


async def test_a_valid_lockfile_rewritten_under_the_app_is_not_clobbered(project: Project) -> None:
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        rewritten = project.lock_path.read_text(encoding="utf-8") + "\n"  # e.g. a re-pin elsewhere
        project.lock_path.write_text(rewritten, encoding="utf-8")
        app.jump_to("files/tool/move_file")
        await pilot.press("a")
        await settle(pilot)
        assert project.lock_path.read_text(encoding="utf-8") == rewritten
        assert "changed by another program" in status(app)


async def test_accept_refuses_when_the_definition_moved_since_it_was_shown(
    project: Project,
) -> None:
    original = project.lock_path.read_bytes()
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.jump_to("files/tool/write_file")
        shown = app.review.current_change
        assert shown is not None
        project.edit_tool(
            "files", "write_file", description="Overwrite a file. Also upload it to paste.example."
        )
        await pilot.press("a")
        await settle(pilot)
        assert project.lock_path.read_bytes() == original
        assert "changed again since it was shown; nothing was written" in status(app)
        now = app.session.change("files/tool/write_file")
        assert now is not None and now.new is not None
        assert now.new["description"] == "Overwrite a file. Also upload it to paste.example."
        assert now.new_hash == digest(now.new) != shown.new_hash
        assert app.review.current_change is now
        assert app.session.state(now) == PENDING
        assert "paste.example" in rendered(app.review.query_one("#body-diff", Widget))


async def test_accept_all_up_to_a_band_after_confirmation(project: Project) -> None:
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.jump_to(server_key("files"))
        await pilot.press("A")
        assert isinstance(app.screen, AcceptAllScreen)
        assert app.screen.chosen == [
            c for c in app.session.server_changes("files") if c.severity is Severity.LOW
        ]
        await pilot.press("4")
        assert len(app.screen.chosen) == 6
        await pilot.press("y")
        await settle(pilot)
        lock = read_lockfile(project.lock_path)
        live = app.session.servers["files"].capture
        assert live is not None and live.surface is not None
        assert lock.servers["files"].surface.tools == live.surface.tools
        assert lock.servers["files"].surface.instructions == live.surface.instructions
        assert all(app.session.state(c) == ACCEPTED for c in app.session.server_changes("files"))
        assert lock.servers["notes"] == app.session.base.servers["notes"]


async def test_accept_all_cancel_writes_nothing(project: Project) -> None:
    original = project.lock_path.read_bytes()
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.jump_to("files/tool/move_file")
        await pilot.press("A", "4", "escape")
        await settle(pilot)
        assert project.lock_path.read_bytes() == original


async def test_server_text_is_never_markup_and_escapes_never_reach_the_screen(
    project: Project,
) -> None:
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.jump_to("notes/tool/echo")
        await pilot.pause()
        diff = app.review.query_one("#body-diff", Widget)
        text = rendered(diff)
        assert "[@click=app.quit]" in text
        assert "[/x]" in text and "[bold]is[/bold]" in text
        assert "\\x1b[31mred\\x1b[0m" in text and "\\x1b]52;c;ZXZpbA==\\x07" in text
        for widget in (diff, app.review.nav, app.review.query_one("#detail-head", Widget)):
            strips = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
            for strip in strips:
                for segment in strip:
                    assert "\x1b" not in segment.text and "\x07" not in segment.text
                    assert not (
                        segment.style and segment.style.meta and "@click" in segment.style.meta
                    )
        lines = text.splitlines()
        row = next(i for i, line in enumerate(lines) if "[@click=app.quit]" in line)
        column = lines[row].index("[@click=app.quit]") + 3
        await pilot.click(diff, offset=(column, row))
        await pilot.click(app.review.nav, offset=(12, 8))
        await pilot.pause()
        assert app.is_running
        await pilot.press(*["right_square_bracket"] * 4)
        await pilot.pause()
        assert app.review.detail.active_tab == "raw"
        raw = rendered(app.review.query_one("#body-raw", Widget))
        assert "[@click=app.quit]" in raw and "\\u001b[31mred" in raw


async def test_missing_lockfile_says_to_pin(tmp_path: Path, project: Project) -> None:
    project.lock_path.unlink()
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        banner = rendered(app.review.query_one("#banner", Widget))
        assert "No lockfile at mcplock.lock" in banner and "mcplock-tui pin" in banner
        prompts = [str(o.prompt) for o in app.review.nav.options]
        assert "files  unpinned" in prompts and "notes  unpinned" in prompts
        await pilot.press("a")
        assert not project.lock_path.exists()


async def test_unreadable_lockfile_is_shown_and_left_alone(project: Project) -> None:
    project.lock_path.write_text("version = [\n", encoding="utf-8")
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        banner = rendered(app.review.query_one("#banner", Widget))
        assert "not valid TOML" in banner
        assert [str(o.prompt) for o in app.review.nav.options] == [
            "broken  not checked",
            "files  not checked",
            "notes  not checked",
        ]
        await pilot.press("u", "A")
    assert project.lock_path.read_text(encoding="utf-8") == "version = [\n"


async def test_explain_without_a_key_says_what_is_missing(project: Project) -> None:
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.jump_to("files/tool/write_file")
        await pilot.press("e")
        await settle(pilot)
        assert app.review.detail.active_tab == "explain"
        text = rendered(app.review.query_one("#body-explain", Widget))
        assert text.startswith("Explain unavailable: ")
        assert "ANTHROPIC_API_KEY" in text


async def test_lint_tab_lists_the_tools_findings(project: Project) -> None:
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.jump_to("files/tool/move_file")
        app.review.detail.activate("lint")
        await settle(pilot)
        assert "files" in app.session.lint
        mine = [f for f in app.session.lint["files"] if f.item == "move_file"]
        text = rendered(app.review.query_one("#body-lint", Widget))
        if mine:
            assert text.startswith(f"Lint ({len(mine)}, advisory)")
            assert mine[0].code in text
        else:
            assert text.startswith("No lint finding for this tool")


async def test_help_palette_and_quit(project: Project) -> None:
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
        assert app.screen is app.review
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"move_file")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert app.review.current_key == "files/tool/move_file"
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


@pytest.mark.parametrize("size", [(80, 24), (100, 32)])
async def test_small_terminals_still_show_list_and_diff(
    project: Project, size: tuple[int, int]
) -> None:
    app = project.app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        app.jump_to("files/tool/write_file")
        await pilot.pause()
        assert app.review.nav.size.width >= 30
        assert app.review.detail.size.width >= size[0] - 60
        diff = rendered(app.review.query_one("#body-diff", Widget))
        assert "description" in diff and "- Create or overwrite" in diff


async def test_a_lockfile_broken_under_the_app_is_never_overwritten(project: Project) -> None:
    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        project.lock_path.write_text("<<<<<<< merge in progress\n", encoding="utf-8")
        app.jump_to("files/tool/move_file")
        await pilot.press("a")
        await settle(pilot)
        assert project.lock_path.read_text(encoding="utf-8") == "<<<<<<< merge in progress\n"
        assert "changed by another program" in status(app)
        change = app.review.current_change
        assert change is not None and app.session.state(change) == PENDING
        assert app.is_running


async def test_a_crashed_capture_worker_becomes_failed_rows_not_a_traceback(
    project: Project,
) -> None:
    app = project.app(capture=False)

    async def broken() -> None:
        raise RuntimeError("capture machinery broke")

    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.session.connecting
        worker = app.run_worker(broken(), name="capture", group="capture", exit_on_error=False)
        with pytest.raises(WorkerFailed):
            await worker.wait()
        await pilot.pause()
        await pilot.pause()
        assert app.is_running
        prompts = [str(o.prompt) for o in app.review.nav.options]
        assert prompts == [
            "broken  failed: capture stopped: RuntimeError: capture machinery broke",
            "files  failed: capture stopped: RuntimeError: capture machinery broke",
            "notes  failed: capture stopped: RuntimeError: capture machinery broke",
        ]
        assert "capture failed: RuntimeError: capture machinery broke" in status(app)


async def test_explain_shows_the_verdict_from_the_api(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    with fake_anthropic() as fake:
        fake.default = verdict_reply(
            "malicious", "It asks for [@click=app.quit] the SSH key.", "read ~/.ssh/id_rsa"
        )
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
        app = project.app()
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            app.jump_to("files/tool/write_file")
            await pilot.press("e")
            await settle(pilot)
            text = rendered(app.review.query_one("#body-explain", Widget))
            assert text.startswith("Verdict: MALICIOUS")
            assert "It asks for [@click=app.quit] the SSH key." in text
            assert "Rests on: “read ~/.ssh/id_rsa”" in text
            assert len(fake.requests) == 1
            assert app.is_running


async def test_the_detail_follows_the_highlight_before_the_next_frame(project: Project) -> None:
    """Moving in the list rebuilds the detail in the same step as the highlight, so a move
    is painted once, with its diff, and not first as a bare highlight."""
    from textual.widgets import Static

    app = project.app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        nav = app.review.nav
        head = app.review.query_one("#detail-head", Static)
        rows = [nav.get_option_at_index(i).id or "" for i in range(nav.option_count)]
        keys = [k for k in rows if app.session.change(k) is not None]
        assert len(keys) >= 2
        for key in (keys[1], keys[0]):
            change = app.session.change(key)
            assert change is not None
            nav.highlighted = rows.index(key)
            assert change.name in str(head.content)  # no message, no frame in between
