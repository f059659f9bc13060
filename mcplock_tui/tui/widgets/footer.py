"""The key footer: one widget that draws every key in the first frame.

Textual's footer is a container of one widget per key, composed empty and filled in a refresh
or two after the first frame; mounting, styling and laying out ten small widgets is a good
part of the first frame's cost. This footer draws the same line (keys, descriptions, the
command palette key docked right) from the active bindings of the screen on top in one render,
redraws when those bindings or the top screen change, and maps a click back to the key under
the pointer. A dialog's keys are the only ones that act while it is open, so a footer beneath a
dialog lists the dialog's keys, not its own screen's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget


@dataclass(frozen=True, slots=True)
class FooterSpan:
    """One key as drawn: its columns ``[start, end)`` within the footer."""

    key: str
    key_display: str
    description: str
    enabled: bool
    start: int
    end: int


PALETTE_EDGE = "▏"
"""Drawn left of the command palette key, as Textual's footer draws its border."""


class KeyFooter(Widget, can_focus=False):
    """The top screen's shown keys on one line, laid out as Textual's compact footer lays them
    out; the palette key sits at the right edge."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "footer-key--key",
        "footer-key--description",
        "footer-key--hover",
        "footer-key--edge",
    }
    DEFAULT_CSS = """
    KeyFooter {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        text-wrap: nowrap;
        text-overflow: clip;
        & > .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .footer-key--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
        & > .footer-key--edge {
            color: $foreground 20%;
        }
    }
    """

    class Shown(Message):
        """The footer's keys are drawn."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.spans: list[FooterSpan] = []
        """The keys of the last render, left to right, for clicks and for tests."""
        self._hover: str | None = None
        """The key under the pointer."""
        self._watched: Screen[object] | None = None
        """The screen whose bindings are drawn: the top one."""

    def on_mount(self) -> None:
        self.app.screen_change_signal.subscribe(self, self._screen_changed)
        self._watch(self.app.screen)
        if self._keys()[0]:
            # The keys are drawn with the next refresh: the first frame.
            self.call_after_refresh(self.post_message, self.Shown())

    def on_unmount(self) -> None:
        self.app.screen_change_signal.unsubscribe(self)
        self._watch(None)

    def _watch(self, screen: Screen[object] | None) -> None:
        if screen is self._watched:
            return
        if self._watched is not None:
            self._watched.bindings_updated_signal.unsubscribe(self)
        self._watched = screen
        if screen is not None:
            screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def _screen_changed(self, screen: Screen[object]) -> None:
        self._watch(screen)
        self._hover = None
        self.refresh()

    def _bindings_changed(self, _screen: object) -> None:
        self.refresh()

    # what is drawn ----------------------------------------------------------------------------

    def _keys(self) -> tuple[list[tuple[Binding, bool]], tuple[Binding, bool] | None]:
        """The shown bindings, one per action in the top screen's order, and the palette key."""
        active = (self._watched or self.screen).active_bindings
        palette_key = self.app.COMMAND_PALETTE_BINDING
        palette: tuple[Binding, bool] | None = None
        if self.app.ENABLE_COMMAND_PALETTE and palette_key in active:
            entry = active[palette_key]
            palette = (entry.binding, entry.enabled)
        seen: set[str] = set()
        shown: list[tuple[Binding, bool]] = []
        for key, entry in active.items():
            binding = entry.binding
            if not binding.show or binding.action in seen:
                continue
            if palette is not None and key == palette_key:
                continue
            seen.add(binding.action)
            shown.append((binding, entry.enabled))
        return shown, palette

    def _key(self, binding: Binding, enabled: bool, start: int) -> tuple[Text, FooterSpan]:
        """One key drawn from column ``start``: its text and where it lies."""
        display = self.app.get_key_display(binding)
        text = Text.assemble(
            (display, self.get_component_rich_style("footer-key--key")),
            (f" {binding.description}", self.get_component_rich_style("footer-key--description")),
        )
        if self._hover == binding.key:
            text.stylize_before(self.get_component_rich_style("footer-key--hover"))
        if not enabled:
            text.stylize(Style(dim=True))
        span = FooterSpan(
            binding.key, display, binding.description, enabled, start, start + text.cell_len
        )
        return text, span

    def render(self) -> Text:
        shown, palette = self._keys()
        width = self.size.width
        right: tuple[Text, FooterSpan] | None = None
        if palette is not None:  # placed first: the keys on the left get what it leaves
            text, span = self._key(*palette, start=0)
            right = (text, span)
        room = max(0, width - (len(PALETTE_EDGE) + right[0].cell_len if right else 0))
        line = Text(no_wrap=True, overflow="crop")
        spans: list[FooterSpan] = []
        for binding, enabled in shown:
            text, span = self._key(binding, enabled, line.cell_len)
            if span.end > room:
                break  # a key is drawn whole or not at all
            line.append_text(text)
            line.append(" ")
            spans.append(span)
        if right is not None:
            text, span = right
            line.truncate(room, pad=True)
            line.append(PALETTE_EDGE, self.get_component_rich_style("footer-key--edge"))
            start = line.cell_len
            line.append_text(text)
            spans.append(replace(span, start=start, end=start + text.cell_len))
        self.spans = spans
        return line

    # the pointer ------------------------------------------------------------------------------

    def _at(self, x: int) -> FooterSpan | None:
        for span in self.spans:
            if span.start <= x < span.end:
                return span
        return None

    def on_mouse_move(self, event: events.MouseMove) -> None:
        span = self._at(event.x)
        hover = span.key if span is not None else None
        if hover != self._hover:
            self._hover = hover
            self.refresh()

    def on_leave(self, _event: events.Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.refresh()

    def on_mouse_down(self, event: events.MouseDown) -> None:
        span = self._at(event.x)
        if span is None:
            return
        if span.enabled:
            self.app.simulate_key(span.key)
        else:
            self.app.bell()
