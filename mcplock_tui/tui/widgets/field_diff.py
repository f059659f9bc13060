"""Side-by-side difference of one changed item: difflib opcodes drawn as Content.

Each top-level field that moved gets a block. Text fields (descriptions, titles,
instructions) are compared line by line and then word by word inside each changed line,
so a one-word edit in a long description lights up that word. JSON fields (schemas,
arguments, capabilities) are compared as canonical pretty JSON, line by line, with long
unchanged stretches folded. Tool annotations are a small table in which a hint the server
left out shows its spec default, marked as such. Added and removed items are one-sided.

The view is a Textual :class:`~textual.visual.Visual` that wraps both columns to the width
it is given, so a wrapped line never pushes its counterpart out of step. Every string goes
through :mod:`.safe_text`, so hidden characters appear as highlighted tokens. Failure
direction: the word tokenizer treats any non-word, non-space character as its own token,
so an edit inside punctuation or a hidden character is shown as a change, never folded away.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from textual.content import Content
from textual.css.types import TextOverflow
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual

from mcplock_tui.core.canonical import canon_json, pretty_json
from mcplock_tui.core.diff import Change
from mcplock_tui.core.model import JSON, ChangeType, Kind
from mcplock_tui.core.severity import ANNOTATION_DEFAULTS
from mcplock_tui.tui.widgets.safe_text import HIDDEN_STYLE, MUTED, json_value, one_line, safe

REMOVED_LINE = "on $error-muted"
ADDED_LINE = "on $success-muted"
REMOVED_WORD = "bold reverse $text-error"
ADDED_WORD = "bold reverse $text-success"
CONTEXT = 3
"""Unchanged JSON lines kept around each change; longer stretches are folded."""

_TOKEN = re.compile(r"\s+|\w+|[^\w\s]")
# pretty_json writes hidden characters as \uXXXX; any such escape is worth a look. A literal
# backslash-u typed by the server is highlighted too, which errs on the side of attention.
JSON_ESCAPE = re.compile(r"\\u[0-9a-fA-F]{4}")
_FIELD_ORDER = (
    "name",
    "title",
    "description",
    "instructions",
    "uri",
    "uriTemplate",
    "mimeType",
    "inputSchema",
    "outputSchema",
    "annotations",
    "arguments",
    "serverInfo",
    "protocolVersion",
    "capabilities",
    "launch",
)
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


def _cell(text: str, style: str = "", *, json_mode: bool = False) -> Content:
    """One diff line: safe text, tabs as tokens, JSON escapes highlighted."""
    content = safe(text.replace("\t", "\\t"), style) if "\t" in text else safe(text, style)
    if json_mode and "\\u" in text:
        content = content.highlight_regex(JSON_ESCAPE, style=HIDDEN_STYLE)
    return content


def _word_pair(a: str, b: str, json_mode: bool) -> tuple[Content, Content]:
    ta, tb = _TOKEN.findall(a), _TOKEN.findall(b)
    left: list[Content] = []
    right: list[Content] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes():
        if op == "equal":
            same = "".join(ta[i1:i2])
            left.append(_cell(same, json_mode=json_mode))
            right.append(_cell(same, json_mode=json_mode))
            continue
        if i2 > i1:
            left.append(_cell("".join(ta[i1:i2]), REMOVED_WORD, json_mode=json_mode))
        if j2 > j1:
            right.append(_cell("".join(tb[j1:j2]), ADDED_WORD, json_mode=json_mode))
    return _EMPTY.join(left), _EMPTY.join(right)


def line_rows(old: str | None, new: str | None, *, json_mode: bool = False) -> list[Row]:
    """Rows for two texts; ``None`` means the field is absent on that side."""
    a = old.split("\n") if old is not None else []
    b = new.split("\n") if new is not None else []
    rows: list[Row] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            rows.extend(
                Row(_cell(x, json_mode=json_mode), _cell(y, json_mode=json_mode))
                for x, y in zip(a[i1:i2], b[j1:j2], strict=True)
            )
            continue
        olds, news = a[i1:i2], b[j1:j2]
        for k in range(max(len(olds), len(news))):
            x = olds[k] if k < len(olds) else None
            y = news[k] if k < len(news) else None
            if x is not None and y is not None:
                left, right = _word_pair(x, y, json_mode)
                rows.append(Row(left, right, changed=True))
            else:
                rows.append(
                    Row(
                        None if x is None else _cell(x, json_mode=json_mode),
                        None if y is None else _cell(y, json_mode=json_mode),
                        changed=True,
                    )
                )
    if old is None or new is None:
        absent = Row(
            Content.styled("(absent)", MUTED) if old is None else None,
            Content.styled("(absent)", MUTED) if new is None else None,
            changed=True,
        )
        rows.insert(0, absent)
    return _fold(rows) if json_mode else rows


def _fold(rows: list[Row]) -> list[Row]:
    """Keep CONTEXT unchanged rows around changes; fold longer unchanged stretches."""
    keep = [False] * len(rows)
    for index, row in enumerate(rows):
        if row.changed:
            for k in range(max(0, index - CONTEXT), min(len(rows), index + CONTEXT + 1)):
                keep[k] = True
    out: list[Row] = []
    index = 0
    while index < len(rows):
        if keep[index]:
            out.append(rows[index])
            index += 1
            continue
        end = index
        while end < len(rows) and not keep[end]:
            end += 1
        if end - index <= 1:
            out.extend(rows[index:end])
        else:
            note = Content.styled(f"⋯ {end - index} unchanged lines", MUTED)
            out.append(Row(note, None, note=True))
        index = end
    return out


def _as_text(value: JSON) -> tuple[str | None, bool]:
    """(text, is_json): strings as they are, anything else as pretty JSON, absent as None."""
    if value is _ABSENT:
        return None, False
    if isinstance(value, str):
        return value, False
    return pretty_json(value), True


_ABSENT: Any = object()


def field_block(name: str, old: JSON, new: JSON) -> Block:
    a, a_json = _as_text(old)
    b, b_json = _as_text(new)
    json_mode = a_json or b_json
    if json_mode:  # a string against JSON: show both as JSON so quoting is comparable
        a = None if old is _ABSENT else pretty_json(old)
        b = None if new is _ABSENT else pretty_json(new)
    return Block(Content.styled(name, "bold"), tuple(line_rows(a, b, json_mode=json_mode)))


def _annotations(item: Mapping[str, JSON] | None) -> dict[str, Any] | None:
    if item is None:
        return None
    raw = item.get("annotations")
    return raw if isinstance(raw, dict) else {}


def _hint_cell(raw: dict[str, Any] | None, key: str) -> Content | None:
    if raw is None:
        return None
    if key in raw:
        return safe(json_value(raw[key]))
    if key in ANNOTATION_DEFAULTS:
        return Content.assemble(
            json_value(ANNOTATION_DEFAULTS[key]), (" (default)", f"{MUTED} italic")
        )
    return Content.styled("(absent)", MUTED)


def annotation_block(
    old: Mapping[str, JSON] | None, new: Mapping[str, JSON] | None, sides: str = "both"
) -> Block:
    """The four hints always, then any other key; a missing hint shows its spec default."""
    a, b = _annotations(old), _annotations(new)
    extra = sorted({k for side in (a, b) if side for k in side} - set(ANNOTATION_DEFAULTS))
    rows: list[Row] = []
    for key in (*ANNOTATION_DEFAULTS, *extra):
        before, after = (a or {}).get(key, _ABSENT), (b or {}).get(key, _ABSENT)
        changed = (
            a is not None
            and b is not None
            and (
                (before is _ABSENT) != (after is _ABSENT)
                or (before is not _ABSENT and canon_json(before) != canon_json(after))
            )
        )
        rows.append(
            Row(
                _hint_cell(a, key),
                _hint_cell(b, key),
                changed=changed,
                label=one_line(key, limit=24),
            )
        )
    title = Content.assemble(("annotations", "bold"), ("  (spec defaults marked)", MUTED))
    return Block(title, tuple(rows), sides)


def _ordered(keys: Iterable[str]) -> list[str]:
    rank = {k: i for i, k in enumerate(_FIELD_ORDER)}
    return sorted(keys, key=lambda k: (rank.get(k, len(rank)), k))


def _is_annotation_field(kind: Kind, key: str, *items: Mapping[str, JSON] | None) -> bool:
    return (
        kind is Kind.TOOL
        and key == "annotations"
        and all(item is None or isinstance(item.get("annotations", {}), dict) for item in items)
    )


def _one_sided(change: Change, item: Mapping[str, JSON], side: str) -> list[Block]:
    blocks: list[Block] = []
    for key in _ordered(item):
        if _is_annotation_field(change.kind, key, item):
            blocks.append(annotation_block(item, item, sides=side))
            continue
        text, is_json = _as_text(item[key])
        rows = tuple(
            Row(_cell(line, json_mode=is_json), None, changed=True)
            for line in (text or "").split("\n")
        )
        blocks.append(Block(Content.styled(key, "bold"), rows, side))
    return blocks


def change_blocks(change: Change) -> list[Block]:
    """Every block of the diff view for one change."""
    old, new = change.old, change.new
    if new is None and old is not None:
        head = Content.assemble(
            ("removed", "bold $text-error"), ("  the pinned definition, now gone:", MUTED)
        )
        return [Block(head), *_one_sided(change, old, "old")]
    if old is None and new is not None:
        head = Content.assemble(
            ("added", "bold $text-success"), ("  not in the lockfile; it reads:", MUTED)
        )
        return [Block(head), *_one_sided(change, new, "new")]
    if old is None or new is None:
        return []
    blocks = [
        Block(None, (Row(Content.styled("pinned", "bold"), Content.styled("live now", "bold")),))
    ]
    if change.change is ChangeType.RENAMED and change.old_name is not None:
        blocks.append(
            Block(
                Content.assemble(
                    ("renamed  ", "bold"),
                    one_line(change.old_name),
                    ("  →  ", MUTED),
                    one_line(change.name),
                )
            )
        )
    moved: list[str] = []
    same: list[str] = []
    for key in _ordered(set(old) | set(new)):
        before, after = old.get(key, _ABSENT), new.get(key, _ABSENT)
        if (
            before is not _ABSENT
            and after is not _ABSENT
            and canon_json(before) == canon_json(after)
        ):
            same.append(key)
        else:
            moved.append(key)
    for key in moved:
        if _is_annotation_field(change.kind, key, old, new):
            blocks.append(annotation_block(old, new))
        else:
            blocks.append(field_block(key, old.get(key, _ABSENT), new.get(key, _ABSENT)))
    if same:
        blocks.append(
            Block(Content.assemble(("unchanged: ", MUTED), one_line(", ".join(same), MUTED)))
        )
    return blocks


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
