"""The key footer: its keys are in the first frame, and it says when they are on screen."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.message import Message
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class KeyFooter(Footer):
    """Textual's footer composes empty and fills its keys a refresh or two after the first
    frame, once focus settles; this one composes the screen's keys at once (focus-dependent
    keys follow on the usual recompose). The app waits for ``Shown`` before it starts the
    heavy capture imports, so the first screen is whole."""

    class Shown(Message):
        """The footer's keys are drawn."""

    _shown = False

    def compose(self) -> ComposeResult:
        self.set_reactive(Footer._bindings_ready, True)
        yield from super().compose()

    def on_mount(self) -> None:
        super().on_mount()
        self._tell_once()

    async def recompose(self) -> None:
        await super().recompose()
        self._tell_once()

    def _tell_once(self) -> None:
        if not self._shown and self.query(FooterKey):
            self._shown = True
            self.call_after_refresh(self.post_message, self.Shown())
