"""Command palette entries: jump to any server or change by typing part of its name.

Textual's ``Matcher.highlight`` parses the candidate as markup, so hits are built here
from :func:`~mcplock_tui.core.canonical.visible` text as plain Content and highlighted by
offset; a tool named ``[@click=app.quit]`` is just a name in the palette too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from textual.command import Hit, Hits, Provider
from textual.content import Content

from mcplock_tui.core.canonical import visible
from mcplock_tui.tui.session import ReviewSession, server_key

MAX_HITS = 200


class _Jumps(Protocol):
    session: ReviewSession

    def jump_to(self, key: str) -> None: ...


def _label(text: str) -> str:
    return visible(text).replace("\n", "\\n").replace("\t", "\\t")


class ChangeCommands(Provider):
    def _targets(self) -> list[tuple[str, str]]:
        app: _Jumps = self.app  # type: ignore[assignment]  # ReviewApp; imported lazily there
        session = app.session
        targets = [(f"server {_label(name)}", server_key(name)) for name in session.servers]
        targets += [
            (f"{_label(c.server)} {c.kind.value} {_label(c.name)}", c.id) for c in session.changes()
        ]
        return targets

    def _jump(self, key: str) -> Callable[[], None]:
        app: _Jumps = self.app  # type: ignore[assignment]
        return lambda: app.jump_to(key)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        shown = 0
        for label, key in self._targets():
            score = matcher.match(label)
            if score <= 0:
                continue
            _score, offsets = matcher.fuzzy_search.match(matcher.query, label)
            display = Content(label)
            for offset in offsets:
                display = display.stylize("bold reverse", offset, offset + 1)
            yield Hit(score, display, self._jump(key), text=label, help="jump to it")
            shown += 1
            if shown >= MAX_HITS:
                return
