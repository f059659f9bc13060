"""Side-by-side difference of one changed item: difflib opcodes turned into rows of Content.

Each top-level field that moved gets a block. Text fields (descriptions, titles,
instructions) are compared line by line and then word by word inside each changed line,
so a one-word edit in a long description lights up that word. JSON fields (schemas,
arguments, capabilities) are compared as key-sorted indented JSON, line by line, with long
unchanged stretches folded. Tool annotations are a small table in which a hint the server
left out shows its spec default, marked as such. Added and removed items are one-sided.

difflib's matching is quadratic in the worst case, so both levels are capped: a changed line
pair of more than :data:`MAX_WORD_TOKENS` tokens is shown as whole lines, and texts of more
than :data:`MAX_LINES` lines side by side without matching; either way the block starts with
the visible :data:`LONG_TEXT_NOTE`, so a reviewer knows the highlight is coarser there.

The blocks are drawn by :class:`~.split_view.SplitView`. Every string goes through
:mod:`.safe_text`, so hidden characters appear as highlighted tokens. Failure
direction: the word tokenizer treats any non-word, non-space character as its own token,
so an edit inside punctuation or a hidden character is shown as a change, never folded away.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from textual.content import Content

from mcplock_tui.core.canonical import canon_json
from mcplock_tui.core.diff import Change
from mcplock_tui.core.model import ANNOTATION_DEFAULTS, JSON, ChangeType, Kind
from mcplock_tui.tui.render.safe_text import (
    HIDDEN_STYLE,
    JSON_ESCAPE,
    MUTED,
    display_json,
    json_value,
    one_line,
    safe,
)
from mcplock_tui.tui.widgets.split_view import Block, Row

__all__ = ["ADDED_WORD", "REMOVED_WORD", "Block", "Row", "change_blocks", "line_rows"]

REMOVED_WORD = "bold reverse $text-error"
ADDED_WORD = "bold reverse $text-success"
CONTEXT = 3
"""Unchanged JSON lines kept around each change; longer stretches are folded."""

MAX_WORD_TOKENS = 2000
"""Tokens of one changed line pair (both sides) above which words are not matched."""
MAX_LINES = 4000
"""Lines of a field (both sides) above which lines are paired in order, not matched."""
LONG_TEXT_NOTE = "text too long to diff word by word; showing lines"

_TOKEN = re.compile(r"\s+|\w+|[^\w\s]")
# JSON escapes control characters as \uXXXX; any such escape is worth a look. A literal
# backslash-u typed by the server is highlighted too, which errs on the side of attention.
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


def _cell(text: str, style: str = "", *, json_mode: bool = False) -> Content:
    """One diff line: safe text, tabs as tokens, JSON escapes highlighted."""
    content = safe(text.replace("\t", "\\t"), style) if "\t" in text else safe(text, style)
    if json_mode and "\\u" in text:
        content = content.highlight_regex(JSON_ESCAPE, style=HIDDEN_STYLE)
    return content


def _word_pair(a: str, b: str, json_mode: bool) -> tuple[Content, Content] | None:
    """Word-level highlights of a changed line pair; ``None`` when the pair is too long."""
    if len(a) + len(b) > MAX_WORD_TOKENS * 16:  # cheaper than tokenising a megabyte first
        return None
    ta, tb = _TOKEN.findall(a), _TOKEN.findall(b)
    if len(ta) + len(tb) > MAX_WORD_TOKENS:
        return None
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
    capped = len(a) + len(b) > MAX_LINES
    hidden = (max(0, len(a) - MAX_LINES), max(0, len(b) - MAX_LINES))
    if capped:  # drawing 100,000 rows would freeze the app as surely as matching them
        a, b = a[:MAX_LINES], b[:MAX_LINES]
    opcodes: Sequence[tuple[str, int, int, int, int]] = (
        [("replace", 0, len(a), 0, len(b))]
        if capped
        else difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    )
    for op, i1, i2, j1, j2 in opcodes:
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
            pair = None if x is None or y is None or capped else _word_pair(x, y, json_mode)
            if pair is not None:
                rows.append(Row(pair[0], pair[1], changed=True))
            else:
                capped = capped or (x is not None and y is not None)
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
    if any(hidden):
        more = f"⋯ {hidden[0]} more old and {hidden[1]} more new lines; the Raw tab has all"
        rows.append(
            Row(Content.styled(more, "italic $text-warning"), None, changed=True, note=True)
        )
    if capped:
        note = Content.styled(LONG_TEXT_NOTE, "italic $text-warning")
        rows.insert(0, Row(note, None, changed=True, note=True))  # changed: never folded
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
    return display_json(value), True


_ABSENT: Any = object()


def field_block(name: str, old: JSON, new: JSON) -> Block:
    a, a_json = _as_text(old)
    b, b_json = _as_text(new)
    json_mode = a_json or b_json
    if json_mode:  # a string against JSON: show both as JSON so quoting is comparable
        a = None if old is _ABSENT else display_json(old)
        b = None if new is _ABSENT else display_json(new)
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
