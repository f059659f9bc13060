"""ReviewApp: captures in workers, decisions written to the lockfile, glue over the session.

Captures run in an async worker and report each server as it finishes, so the app is
usable before the slowest server answers. Grading a capture (diff, detectors, schema rules)
runs in a thread worker on a snapshot of the session, never on the event loop, so keys and
navigation answer while a big capture is graded; the result is applied on the loop. An accept re-captures that one server first and
refuses, writing nothing, when the definition moved since it was shown. Every failure ends
up as a line in the app (status line and notification, never markup), not a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.worker import Worker, WorkerCancelled, WorkerError, WorkerFailed, WorkerState

from mcplock_tui.core.canonical import visible
from mcplock_tui.core.graded import GradedChange
from mcplock_tui.core.model import CaptureResult
from mcplock_tui.core.report import ServerReport
from mcplock_tui.errors import ExplainError, MCPLockError
from mcplock_tui.spec import ServerSpec
from mcplock_tui.startup import resume_collector, settle_heap
from mcplock_tui.tui.commands import ChangeCommands
from mcplock_tui.tui.messages import (
    CaptureFinished,
    DecisionRecorded,
    ExplainReady,
    LintReady,
    ServerCaptured,
)
from mcplock_tui.tui.render.safe_text import one_line
from mcplock_tui.tui.screens.review import ReviewScreen
from mcplock_tui.tui.session import PENDING, ReviewSession, describe
from mcplock_tui.tui.widgets.footer import KeyFooter

if TYPE_CHECKING:
    from mcplock_tui.core.verdict import Explained

_FOOTER_WAIT = 0.5
"""Seconds after the first frame that capture waits, at most, for the footer's keys."""

_STOP_WAIT = 3.0
"""Seconds the app waits on exit for cancelled captures to stop their servers. Stopping a
hung stdio server takes the SDK's shortened grace (about 0.7 s, ``capture.shutdown``)."""
_SPAWNING_GROUPS = frozenset({"capture", "decide"})
"""Worker groups that start servers; the thread workers (grading, lint, explain) do not."""

_WORKER_LABEL = {
    "capture": "capture",
    "grade": "grading",
    "decide": "re-check before accept",
    "lint": "lint",
    "explain": "explain",
}


class ReviewApp(App[int]):
    CSS_PATH = "app.tcss"
    TITLE = "mcplock-tui"
    COMMANDS = App.COMMANDS | {ChangeCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit"),
        Binding("question_mark", "help", "Help"),
        Binding("a", "accept", "Accept"),
        Binding("r", "reject", "Reject"),
        Binding("A", "accept_all", "Accept all"),
        Binding("u", "undo", "Undo"),
        Binding("e", "explain", "Explain"),
    ]

    def __init__(
        self,
        session: ReviewSession,
        *,
        log_dir: Path | None = None,
        timeout: float = 30.0,
        model: str | None = None,
        capture: bool = True,
    ) -> None:
        """``capture=False`` shows the reports already in ``session`` (tests, benchmark)."""
        super().__init__()
        self.session = session
        self.log_dir = log_dir or Path.home() / ".cache" / "mcplock-tui" / "logs" / "app"
        self.timeout = timeout
        self.model = model
        self._capture = capture
        self.review = ReviewScreen(session)
        self._linting: set[str] = set()
        self._toast: str | None = None
        self._grading = 0
        """Captures being graded in threads; the cross-server regrade waits for them."""
        self._regrade_due = False
        self._capture_started = False

    def get_default_screen(self) -> ReviewScreen:
        return self.review

    def on_ready(self) -> None:
        # After the first frame: importing the SDK and grading compete for the interpreter,
        # so they start once the reviewer sees the whole screen, footer keys included. A
        # footer that never fills in (no focus) delays capture by half a second at most.
        self.set_timer(_FOOTER_WAIT, self._start_capture)
        resume_collector()

    async def on_unmount(self) -> None:
        # Textual cancels the workers on exit without waiting; a cancelled capture still has
        # to stop the servers it started, and the event loop closing under it leaves a server
        # that ignores its stdin closing running after the app is gone.
        stopping = [w for w in self.workers if w.group in _SPAWNING_GROUPS and not w.is_finished]
        if not stopping:
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(_STOP_WAIT):
                for worker in stopping:
                    with contextlib.suppress(WorkerCancelled, WorkerFailed, WorkerError):
                        await worker.wait()

    @on(KeyFooter.Shown)
    def _start_capture(self) -> None:
        if self._capture_started:
            return
        self._capture_started = True
        specs = [
            spec
            for name, spec in self.session.specs.items()
            if self.session.servers[name].report is None
        ]
        if self._capture and self.session.lock_readable and specs:
            self.capture_servers(specs)

    # telling the reviewer -----------------------------------------------------------------

    def say(self, text: str, *, error: bool = False) -> None:
        """One line in the status bar and, for errors, a notification; never markup."""
        style = "bold $text-error" if error else "$text-success"
        self.review.set_status(one_line(text, style))
        if error:
            # One toast at a time: stacked toasts overlap each other and the status line.
            # Errors said within one tick coalesce into the last of them.
            if self._toast is None:
                self.call_later(self._show_toast)
            self._toast = visible(text)

    def _show_toast(self) -> None:
        text, self._toast = self._toast, None
        if text is not None:
            self.clear_notifications()
            self.notify(text, severity="error", markup=False, timeout=8)

    @on(Worker.StateChanged)
    def _worker_changed(self, event: Worker.StateChanged) -> None:
        if event.state is not WorkerState.ERROR:
            return
        error = event.worker.error
        message = (
            str(error) if isinstance(error, MCPLockError) else f"{type(error).__name__}: {error}"
        )
        if event.worker.group == "capture":
            self.session.fail_pending(f"capture stopped: {message}")
            self.review.refresh_rows()
        what = _WORKER_LABEL.get(event.worker.group, event.worker.name or "a background task")
        self.say(f"{what} failed: {message}", error=True)

    # capture --------------------------------------------------------------------------------

    @work(exclusive=True, group="capture", exit_on_error=False)
    async def capture_servers(self, specs: Sequence[ServerSpec]) -> None:
        def arrived(result: CaptureResult) -> None:
            self.post_message(ServerCaptured(result))

        # The SDK is imported here, in a thread, once the first frame is on screen.
        capture_all = await asyncio.to_thread(_load_capture)
        await capture_all(specs, timeout=self.timeout, log_dir=self.log_dir, on_result=arrived)
        self.post_message(CaptureFinished())

    @on(ServerCaptured)
    def _server_captured(self, message: ServerCaptured) -> None:
        result = message.result
        captures = {**self.session.captures(), result.name: result}  # snapshot, on the loop
        self._grading += 1
        self.grade_capture(result, captures)

    @work(thread=True, group="grade", exit_on_error=False)
    def grade_capture(self, result: CaptureResult, captures: Mapping[str, CaptureResult]) -> None:
        # Grading (detectors, language tables) loads here, in a thread, on first use.
        from mcplock_tui.core.analysis import foreign_for, report_for

        s = self.session
        try:
            foreign = foreign_for(s.base, captures).get(result.name, {})
            report = report_for(result.name, result, s.base, foreign=foreign, policy=s.policy)
        except Exception:
            self.call_from_thread(self._graded, result, None)
            raise  # the worker error handler tells the reviewer
        self.call_from_thread(self._graded, result, (report, foreign))

    def _graded(
        self, result: CaptureResult, graded: tuple[ServerReport, Mapping[str, str]] | None
    ) -> None:
        self._grading -= 1
        if graded is not None:
            self.session.add_capture(result, graded)
            self.review.refresh_rows()
        if self._grading == 0 and self._regrade_due:
            self._regrade_due = False
            self._regrade()

    @on(CaptureFinished)
    def _capture_finished(self) -> None:
        if self._grading:
            self._regrade_due = True
        else:
            self._regrade()

    def _regrade(self) -> None:
        """Grade again, off the loop, the servers whose neighbours' tools moved meanwhile."""
        captures = self.session.captures()
        known = {n: self.session.servers[n].foreign for n in captures}
        self.regrade_servers(captures, known)

    @work(thread=True, group="grade", exit_on_error=False)
    def regrade_servers(
        self,
        captures: Mapping[str, CaptureResult],
        known: Mapping[str, Mapping[str, str] | None],
    ) -> None:
        from mcplock_tui.core.analysis import foreign_for, report_for

        s = self.session
        foreign = foreign_for(s.base, captures)
        again = [
            (report_for(n, r, s.base, foreign=foreign.get(n, {}), policy=s.policy), n)
            for n, r in captures.items()
            if known[n] is None or dict(known[n] or {}) != foreign.get(n, {})
        ]
        self.call_from_thread(self._regraded, again, foreign)

    def _regraded(
        self, again: list[tuple[ServerReport, str]], foreign: Mapping[str, Mapping[str, str]]
    ) -> None:
        for report, name in again:
            self.session.set_report(report)
            self.session.servers[name].foreign = foreign.get(name, {})
        if again:
            self.review.refresh_rows()
        else:
            self.review.refresh_summary()
        settle_heap()  # the last step of loading: every server is graded

    # decisions ------------------------------------------------------------------------------

    def _decidable(self) -> GradedChange | None:
        change = self.review.current_change
        if change is None:
            self.say("Pick a change first (servers have no decision of their own).", error=True)
            return None
        if change.id in self.session.in_flight:
            self.say(f"{describe(change)} is being re-checked; wait for it.", error=True)
            return None
        return change

    def _group_pending(self) -> list[GradedChange] | None:
        """The pending members of the highlighted group, or None when no group is highlighted."""
        group = self.review.current_group
        if group is None:
            return None
        return [
            c
            for c in group.members
            if self.session.state(c) == PENDING and c.id not in self.session.in_flight
        ]

    def action_accept(self) -> None:
        members = self._group_pending()
        if members is not None:  # a group row: its alike changes are decided together
            if members:
                self.accept_changes(members)
            else:
                self.say("No pending change in this group.")
            return
        change = self._decidable()
        if change is not None:
            self.accept_changes([change])

    def action_accept_all(self) -> None:
        server = self.review.current_server
        if server is None:
            return
        pending = [
            c for c in self.session.server_changes(server) if self.session.state(c) == PENDING
        ]
        if not pending:
            self.say(f"No pending change on {server!r}.")
            return

        def chosen(changes: list[GradedChange] | None) -> None:
            if changes:
                self.accept_changes(changes)

        from mcplock_tui.tui.screens.modals import AcceptAllScreen

        self.push_screen(AcceptAllScreen(server, pending), chosen)

    def action_reject(self) -> None:
        change = self._decidable()
        if change is None:
            return

        def noted(note: str | None) -> None:
            if note is None:
                return
            try:
                self.session.reject(change, note)
            except (MCPLockError, OSError) as exc:
                self.say(f"Nothing was written: {exc}", error=True)
                return
            self.post_message(
                DecisionRecorded(f"Rejected {describe(change)}; the old pin stays.", [change.id])
            )

        from mcplock_tui.tui.screens.modals import RejectNoteScreen

        self.push_screen(RejectNoteScreen(change), noted)

    def action_undo(self) -> None:
        before = dict(self.session.decisions)
        try:
            label = self.session.undo()
        except (MCPLockError, OSError) as exc:
            self.say(f"Undo failed, nothing was written: {exc}", error=True)
            return
        if label is None:
            self.say("Nothing to undo.")
            return
        moved = set(before) | set(self.session.decisions)
        self.post_message(DecisionRecorded(f"Undid: {label}.", sorted(moved)))

    def accept_changes(self, changes: Sequence[GradedChange]) -> None:
        ids = [c.id for c in changes]
        self.session.in_flight.update(ids)
        self.review.refresh_decided(tuple(ids))
        self.recheck_and_accept(list(changes))

    @work(group="decide", exit_on_error=False)
    async def recheck_and_accept(self, changes: list[GradedChange]) -> None:
        """Capture the server again; accept only what it still serves exactly as shown."""
        server = changes[0].server
        ids = [c.id for c in changes]
        spec = self.session.specs.get(server)
        if spec is None:
            self.session.in_flight.difference_update(ids)
            self.review.refresh_decided(tuple(ids))
            self.say(
                f"{server!r} is not configured, so it cannot be re-checked; nothing was written.",
                error=True,
            )
            return
        try:
            capture_all = await asyncio.to_thread(_load_capture)
            result = (await capture_all([spec], timeout=self.timeout, log_dir=self.log_dir))[server]
        finally:
            self.session.in_flight.difference_update(ids)
            self.review.refresh_decided(tuple(ids))
        if result.surface is None:
            self.say(
                f"Could not re-check {server!r} ({result.error}); nothing was written.", error=True
            )
            return
        try:
            accepted, moved = self.session.accept(changes, result.surface)
        except (MCPLockError, OSError) as exc:
            self.say(f"Nothing was written: {exc}", error=True)
            return
        if moved:
            self._moved(result, moved, accepted)
        if accepted:
            what = (
                describe(accepted[0])
                if len(accepted) == 1
                else f"{len(accepted)} changes on {server!r}"
            )
            self.post_message(DecisionRecorded(f"Accepted {what}; the lockfile now pins it.", ids))

    def _moved(
        self, result: CaptureResult, moved: list[GradedChange], accepted: list[GradedChange]
    ) -> None:
        names = ", ".join(describe(c) for c in moved[:3]) + (" and more" if len(moved) > 3 else "")
        done = f" ({len(accepted)} other(s) accepted)" if accepted else ""
        self.say(
            f"Refused: {names} changed again since it was shown; nothing was written for it{done}. "
            "The diff now shows the live definition.",
            error=True,
        )
        self.session.add_capture(result)
        self.review.refresh_rows()
        self.review.show_key(self.review.current_key)

    @on(DecisionRecorded)
    def _decided(self, message: DecisionRecorded) -> None:
        self.review.refresh_decided(message.change_ids)
        self.say(message.summary)

    # lint and explain -----------------------------------------------------------------------

    @on(ReviewScreen.LintWanted)
    def _lint_wanted(self, message: ReviewScreen.LintWanted) -> None:
        if message.server not in self._linting:
            self._linting.add(message.server)
            self.lint_server(message.server)

    @work(thread=True, group="lint", exit_on_error=False)
    def lint_server(self, server: str) -> None:
        from mcplock_tui.core.lint import lint_tools  # off the loop, when first asked for

        state = self.session.servers.get(server)
        surface = state.capture.surface if state is not None and state.capture is not None else None
        findings = lint_tools(server, surface.tools) if surface is not None else []
        self.post_message(LintReady(server, findings))

    @on(LintReady)
    def _lint_ready(self, message: LintReady) -> None:
        self._linting.discard(message.server)
        self.session.lint[message.server] = message.findings
        if not self.is_running:  # arrived as the app quits: its widgets are going
            return
        change = self.review.current_change
        if change is not None and change.server == message.server:
            self.review.show_side_tabs(change)

    def action_explain(self) -> None:
        change = self.review.current_change
        if change is None:
            return
        self.review.detail.activate("explain")
        key = (change.id, change.new_hash)
        if key in self.session.asking:
            return
        self.session.asking.add(key)
        self.session.explained.pop(key, None)
        self.review.show_side_tabs(change)
        self.ask_claude(change)

    @work(thread=True, group="explain", exit_on_error=False)
    def ask_claude(self, change: GradedChange) -> None:
        """Imported here: the explain stack (and anthropic) loads only when asked for."""
        from mcplock_tui.core.verdict import ExplainFailure

        answer: Explained
        try:
            from mcplock_tui.explain import explain_change
        except ImportError:
            answer = ExplainFailure("the explain module is not available in this installation")
        else:
            try:
                answer = explain_change(
                    change, model=self.model, server_names=list(self.session.servers)
                )
            except ExplainError as exc:
                answer = ExplainFailure(str(exc))
            except Exception as exc:  # an edge: whatever the SDK raises becomes a line in the tab
                answer = ExplainFailure(f"{type(exc).__name__}: {exc}")
        self.post_message(ExplainReady(change, answer))

    @on(ExplainReady)
    def _explained(self, message: ExplainReady) -> None:
        key = (message.change.id, message.change.new_hash)
        self.session.asking.discard(key)
        self.session.explained[key] = message.answer
        if not self.is_running:  # arrived as the app quits: its widgets are going
            return
        current = self.review.current_change
        if current is not None and (current.id, current.new_hash) == key:
            self.review.show_side_tabs(current)

    # navigation -----------------------------------------------------------------------------

    def action_help(self) -> None:
        from mcplock_tui.tui.screens.modals import HelpScreen

        self.push_screen(HelpScreen())

    def jump_to(self, key: str) -> None:
        self.review.jump_to(key)


def _load_capture() -> Callable[..., Awaitable[dict[str, CaptureResult]]]:
    from mcplock_tui.capture.runner import capture_all

    return capture_all
