"""A Textual Visual that draws two columns of rows, wrapped in step, for the diff view.

Each row is a pair of :class:`~textual.content.Content` cells. Both cells are wrapped to the
column width the view is given at render time and the shorter one is padded, so a long
line on one side never pushes its counterpart out of step. Changed rows get a ``-``/``+``
marker and a tinted background (theme variables), so they read without colour too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from textual.content import Content
from textual.css.types import TextOverflow
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual

from mcplock_tui.tui.render.safe_text import MUTED

REMOVED_LINE = "on $error-muted"
ADDED_LINE = "on $success-muted"
_EMPTY = Content("")


@dataclass(frozen=True, slots=True)
class Row:
    """One logical line pair; ``None`` on a side means it has no counterpart there."""

    left: Content | None
    right: Content | None
    changed: bool = False
    label: Content = _EMPTY
    note: bool = False
    """A full-width remark (a folded stretch), drawn across both columns."""


@dataclass(frozen=True, slots=True)
class Block:
    title: Content | None
    rows: tuple[Row, ...] = ()
    sides: str = "both"
    """``both``, or ``old``/``new`` for the one-sided view of a removed/added item."""


class SplitView(Visual):
    """Blocks of two-column rows, wrapped to the width given at render time."""

    def __init__(self, blocks: Sequence[Block]) -> None:
        self.blocks = tuple(blocks)
        self._cache: tuple[int, list[Content]] | None = None

    def lines(self, width: int) -> list[Content]:
        if self._cache is not None and self._cache[0] == width:
            return self._cache[1]
        out: list[Content] = []
        for index, block in enumerate(self.blocks):
            if index and block.title is not None:
                out.append(_EMPTY)
            if block.title is not None:
                out.extend(block.title.wrap(width))
            label_width = min(max((r.label.cell_length for r in block.rows), default=0), width // 3)
            for row in block.rows:
                out.extend(_row_lines(row, width, label_width, block.sides))
        self._cache = (width, out)
        return out

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        if width <= 0:
            return []
        lines = self.lines(width)
        if height is not None:
            lines = lines[:height]
        return Content("\n").join(lines).render_strips(width, height, style, options)

    def get_optimal_width(self, rules: Any, container_width: int) -> int:
        return container_width

    def get_height(self, rules: Any, width: int) -> int:
        return len(self.lines(width))


_OVERFLOW: TextOverflow = "fold"


def _wrap(content: Content | None, width: int) -> list[Content]:
    if content is None:
        return []
    return content.wrap(max(1, width), overflow=_OVERFLOW) or [_EMPTY]


def _fill(line: Content, width: int, background: str) -> Content:
    padded = line.pad_right(max(0, width - line.cell_length))
    return padded.stylize_before(background) if background else padded


def _row_lines(row: Row, width: int, label_width: int, sides: str) -> list[Content]:
    gap = label_width + 1 if label_width else 0
    label_lines = _wrap(row.label, label_width) if label_width else []
    if row.note:
        return [Content(" " * (gap + 2)).append(line) for line in _wrap(row.left, width - gap - 2)]
    if sides != "both":
        text = row.left if row.left is not None else row.right
        mark = "-" if sides == "old" else "+"
        lines = _wrap(text, width - gap - 2)
        out: list[Content] = []
        for i, line in enumerate(lines):
            label = _fill(label_lines[i] if i < len(label_lines) else _EMPTY, label_width, "")
            prefix = Content.styled(mark if i == 0 and row.changed else " ", MUTED)
            head: list[Content | str] = [label, " "] if gap else []
            out.append(Content.assemble(*head, prefix, " ", line))
        return out
    column = max(4, (width - gap - 5) // 2)
    left, right = _wrap(row.left, column), _wrap(row.right, column)
    count = max(len(left), len(right), len(label_lines), 1)
    out = []
    for i in range(count):
        l_line = left[i] if i < len(left) else _EMPTY
        r_line = right[i] if i < len(right) else _EMPTY
        l_bg = REMOVED_LINE if row.changed and row.left is not None else ""
        r_bg = ADDED_LINE if row.changed and row.right is not None else ""
        l_mark = "-" if i == 0 and l_bg else " "
        r_mark = "+" if i == 0 and r_bg else " "
        parts: list[Content | str | tuple[str, str]] = []
        if gap:
            parts += [
                _fill(label_lines[i] if i < len(label_lines) else _EMPTY, label_width, ""),
                " ",
            ]
        parts += [
            (l_mark, "bold $text-error"),
            " ",
            _fill(l_line, column, l_bg),
            ("│", MUTED),
            (r_mark, "bold $text-success"),
            " ",
            _fill(r_line, column, r_bg),
        ]
        out.append(Content.assemble(*parts))
    return out
