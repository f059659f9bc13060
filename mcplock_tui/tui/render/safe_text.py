"""The one way server text becomes something the app can draw.

Every string a server sent is hostile: Textual parses a plain ``str`` as markup almost
everywhere (``[@click=app.quit]`` becomes an action, ``[/x]`` crashes), and neither Rich
nor Textual strips ESC or C1 sequences on the way to the terminal. The helpers here build
:class:`~textual.content.Content` objects, which are never parsed, and swap every hidden
character (controls, zero-width, bidi, tags) for a visible, highlighted token such as
``\\x1b`` or ``<U+200B>``, so nothing reaches the terminal as an escape and nothing is read
around. Styles are theme variables, so the same text reads in light and dark themes.

Failure direction: a character is shown as a token whenever
:func:`~mcplock_tui.core.canonical.is_hidden` says so, which is deliberately broad; a
reviewer may see a token for a harmless format character, never miss a harmful one.
"""

from __future__ import annotations

import json
import re
from typing import Any

from textual.content import Content

from mcplock_tui.core.canonical import has_hidden, is_hidden, visible
from mcplock_tui.core.model import Severity

HIDDEN_STYLE = "bold reverse $text-warning"
JSON_ESCAPE = re.compile(r"\\u[0-9a-fA-F]{4}")
"""A ``\\uXXXX`` escape in displayed JSON: hidden characters, shown marked."""
"""How a hidden character's token stands out from the text around it."""
MUTED = "$text-muted"

SEVERITY_BADGE: dict[Severity, tuple[str, str]] = {
    Severity.CRITICAL: ("CRIT", "bold reverse $text-error"),
    Severity.HIGH: ("HIGH", "bold $text-error"),
    Severity.MEDIUM: ("MED ", "bold $text-warning"),
    Severity.LOW: ("LOW ", "$text-muted"),
}
"""Four-cell badges, so rows line up whatever the band."""

STATE_STYLE = {
    "pending": "$text-warning",
    "accepted": "bold $text-success",
    "rejected": "bold $text-error",
    "checking": "$text-muted",
}


def safe(text: str, style: str = "") -> Content:
    """``text`` as Content, hidden characters shown as highlighted tokens; never markup.

    Each run of hidden characters becomes one token through
    :func:`~mcplock_tui.core.canonical.visible`, so a run of tag characters reads decoded.
    """
    if not has_hidden(text):
        return Content.styled(text, style) if text else Content("")
    parts: list[tuple[str, str]] = []
    token_style = f"{style} {HIDDEN_STYLE}".strip()
    start = index = 0
    while index < len(text):
        if not is_hidden(text[index]):
            index += 1
            continue
        end = index
        while end < len(text) and is_hidden(text[end]):
            end += 1
        if start < index:
            parts.append((text[start:index], style))
        parts.append((visible(text[index:end]), token_style))
        start = index = end
    if start < len(text):
        parts.append((text[start:], style))
    return Content.assemble(*parts)


def display_json(value: object) -> str:
    """Indented, key-sorted JSON that keeps hidden characters raw, for :func:`safe` to show.

    Unlike :func:`~mcplock_tui.core.canonical.pretty_json` (whose ``\\uXXXX`` escapes turn a
    tag-character payload into a wall of surrogates), the hidden runs stay characters here so
    the display can decode and highlight them. Not for parsing back: only for the screen.
    """
    return json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False)


def one_line(text: str, style: str = "", limit: int = 0) -> Content:
    """Like :func:`safe`, with newlines and tabs shown as tokens and an optional length cap."""
    if limit and len(text) > limit:
        text = text[: limit - 1]
        tail = Content.styled("…", MUTED)
    else:
        tail = Content("")
    pieces: list[Content] = []
    start = 0
    for index, ch in enumerate(text):
        if ch in "\n\t":
            pieces.append(safe(text[start:index], style))
            pieces.append(Content.styled("\\n" if ch == "\n" else "\\t", HIDDEN_STYLE))
            start = index + 1
    pieces.append(safe(text[start:], style))
    pieces.append(tail)
    return Content("").join(pieces)


def json_value(value: Any) -> str:
    """Compact JSON for a value shown inline (annotation cells, field values)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def badge(severity: Severity) -> Content:
    label, style = SEVERITY_BADGE[severity]
    return Content.styled(label, style)


def state_word(state: str) -> Content:
    return Content.styled(state, STATE_STYLE.get(state, MUTED))
