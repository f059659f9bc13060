"""Modal screens: the key help, the note asked for on reject, the accept-all confirmation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from mcplock_tui.core.graded import GradedChange
from mcplock_tui.core.model import Severity
from mcplock_tui.tui.render.safe_text import MUTED, badge, one_line
from mcplock_tui.tui.widgets.footer import KeyFooter
from mcplock_tui.tui.widgets.navigator import KIND_LABEL

KEYS: tuple[tuple[str, str], ...] = (
    ("↑ ↓ pgup pgdn", "move through servers and changes"),
    ("n", "next pending change"),
    ("/", "filter by name, definition or finding text; enter returns"),
    ("1 2 3 4", "all / medium+ / high+ / critical only"),
    ("escape", "clear the filters"),
    ("[ ]", "previous / next tab"),
    ("a", "accept: re-check the server, pin exactly what is shown"),
    ("r", "reject: keep the old pin, record the refusal and a note"),
    ("A", "accept this server's pending changes up to a band"),
    ("u", "undo the last decision (the lockfile is written back)"),
    ("e", "ask Claude for an advisory verdict (ANTHROPIC_API_KEY)"),
    ("ctrl+p", "command palette: jump to a change, switch theme"),
    ("?", "this help"),
    ("q", "quit; every decision is already on disk"),
)
LEGEND = (
    "Rows: CRIT HIGH MED LOW severity; ○ pending, ✓ accepted, ✗ rejected, … re-checking; "
    "+ added, - removed, ~ modified, → renamed. Diffs show hidden characters as highlighted "
    "tokens such as \\x1b or <U+200B>; (default) marks a hint the server left out."
)


_R = TypeVar("_R")


class Dialog(ModalScreen[_R]):
    """A centred box over the review screen, with a footer of its own keys over the review's
    (whose keys do nothing while the dialog is open). Its styles load with the first dialog
    opened, not with the app's first frame."""

    SCOPED_CSS = False
    DEFAULT_CSS = """
    Dialog {
        align: center middle;
    }

    Dialog .dialog {
        width: 80%;
        max-width: 90;
        height: auto;
        max-height: 85%;
        padding: 1 2;
        border: round $accent;
        background: $surface;
    }

    Dialog .dialog .hint {
        margin-top: 1;
    }

    Dialog #note {
        margin-top: 1;
    }

    /* At 80×24 the list scrolls and the buttons stay on screen: the list gets what the
       title, hint and buttons leave of the dialog. */
    Dialog #accept-dialog {
        padding: 0 2;
    }

    Dialog #accept-list {
        height: auto;
        max-height: 40vh;
        margin-top: 1;
    }

    Dialog #accept-buttons {
        height: auto;
        margin-top: 1;
        align-horizontal: right;
    }

    Dialog #accept-buttons Button {
        margin-left: 2;
    }

    Dialog .help-row {
        height: auto;
    }

    Dialog .help-key {
        width: 16;
    }

    Dialog .help-text {
        width: 1fr;
    }
    """

    def compose(self) -> ComposeResult:
        yield from self.compose_dialog()
        yield KeyFooter()

    def compose_dialog(self) -> ComposeResult:
        """The dialog's box."""
        yield from ()


class HelpScreen(Dialog[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close"),
        Binding("q", "dismiss", "Close", show=False),
        Binding("question_mark", "dismiss", "Close", show=False),
    ]

    def compose_dialog(self) -> ComposeResult:
        with VerticalScroll(id="help-body", classes="dialog"):
            yield Static(Content.styled("Keys", "bold underline"))
            for key, text in KEYS:
                with Horizontal(classes="help-row"):
                    yield Static(Content.styled(key, "bold $text-accent"), classes="help-key")
                    yield Static(Content(text), classes="help-text")
            yield Static(Content.styled(LEGEND, MUTED), classes="hint")
            yield Static(Content.styled("escape closes", MUTED), classes="hint")


class NoteInput(Input):
    """The note box; its enter is the dialog's reject, and the footer says so."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "submit", "Reject")]


class RejectNoteScreen(Dialog[str | None]):
    """Asks why; enter rejects (the note may be empty), escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, change: GradedChange) -> None:
        super().__init__()
        self.change = change

    def compose_dialog(self) -> ComposeResult:
        c = self.change
        what = Content.assemble(
            ("Reject ", "bold"),
            (KIND_LABEL[c.kind], MUTED),
            " ",
            one_line(c.name, "bold", limit=60),
            (" on ", MUTED),
            one_line(c.server, limit=40),
        )
        with Vertical(id="note-dialog", classes="dialog"):
            yield Static(what)
            yield Static(
                Content.styled("The old pin stays; this definition is recorded as refused.", MUTED)
            )
            yield NoteInput(placeholder="note (optional): why it was refused", id="note")
            yield Static(Content.styled("enter rejects · escape cancels", MUTED), classes="hint")

    @on(Input.Submitted, "#note")
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class AcceptAllScreen(Dialog[list[GradedChange] | None]):
    """Lists the server's pending changes at or below a band (keys 1-4) before accepting them."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("y", "confirm", "Accept"),
        Binding("1", "band(1)", "Low"),
        Binding("2", "band(2)", "Medium"),
        Binding("3", "band(3)", "High"),
        Binding("4", "band(4)", "Critical"),
    ]

    def __init__(
        self, server: str, pending: Sequence[GradedChange], band: Severity = Severity.LOW
    ) -> None:
        super().__init__()
        self.server = server
        self.pending = list(pending)
        self.band = band

    @property
    def chosen(self) -> list[GradedChange]:
        return [c for c in self.pending if c.severity <= self.band]

    def compose_dialog(self) -> ComposeResult:
        with Vertical(id="accept-dialog", classes="dialog"):
            yield Static(id="accept-title")
            with VerticalScroll(id="accept-list"):
                yield Static(id="accept-body")
            yield Static(
                Content.styled(
                    "1-4 choose the highest band · y or enter accepts · escape cancels", MUTED
                ),
                classes="hint",
            )
            with Horizontal(id="accept-buttons"):
                yield Button("Accept", id="accept-yes", variant="warning", compact=True)
                yield Button("Cancel", id="accept-no", compact=True)

    def on_mount(self) -> None:
        self._refresh()
        self.query_one("#accept-yes", Button).focus()

    def _refresh(self) -> None:
        chosen = self.chosen
        title = Content.assemble(
            ("Accept ", "bold"),
            (str(len(chosen)), "bold"),
            f" pending change{'s' if len(chosen) != 1 else ''} of ",
            one_line(self.server, "bold", limit=40),
            " at or below ",
            badge(self.band),
        )
        self.query_one("#accept-title", Static).update(title)
        rows = [
            Content.assemble(
                badge(c.severity),
                " ",
                (KIND_LABEL[c.kind], MUTED),
                " ",
                one_line(c.name, limit=60),
                ("  " + c.change.value, MUTED),
            )
            for c in chosen
        ]
        if not rows:
            rows = [
                Content.styled(
                    "No pending change at or below this band; press 2-4 to raise it.", MUTED
                )
            ]
        skipped = len(self.pending) - len(chosen)
        if skipped:
            rows.append(Content.styled(f"({skipped} more above this band stay pending)", MUTED))
        self.query_one("#accept-body", Static).update(Content("\n").join(rows))
        self.query_one("#accept-yes", Button).disabled = not chosen

    def action_band(self, band: int) -> None:
        self.band = Severity(band)
        self._refresh()

    def action_confirm(self) -> None:
        if self.chosen:
            self.dismiss(self.chosen)

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#accept-yes")
    def _yes(self) -> None:
        self.action_confirm()

    @on(Button.Pressed, "#accept-no")
    def _no(self) -> None:
        self.dismiss(None)
