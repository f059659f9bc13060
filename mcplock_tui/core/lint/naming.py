"""Naming: names outside the spec's character rule, duplicates, and look-alikes.

Clients call tools by name, so two tools that share a name (exactly, or ignoring case)
make one of them unreachable or let the wrong one run; :mod:`mcplock_tui.core.surface`
keeps a repeated name under a ``name#2`` key, and this check reads the ``name`` field, not
the key. Look-alikes are found with a *skeleton*: NFKC, hidden characters dropped, case
folded, a small table of Cyrillic and Greek homoglyphs mapped to Latin, ``0``/``o``,
``1``/``l``/``i``/``|`` and ``rn``/``m`` merged, separators (``_ - .`` and spaces) removed.

The homoglyph table is small and hand-picked, so exotic look-alikes are missed. The
merges are aggressive on purpose (``get_item`` and ``getitem`` are flagged), which fails
towards a noisy finding on two honestly similar names; that is rare in practice.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterator, Mapping

from mcplock_tui.core.canonical import is_hidden
from mcplock_tui.core.lint import rules, text
from mcplock_tui.core.lint.text import Tool
from mcplock_tui.core.model import Finding

NAME_RULE = re.compile(r"[A-Za-z0-9_.-]{1,128}")

_HOMOGLYPHS = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x",
        "і": "l", "ј": "j", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l",
        "к": "k", "м": "m", "н": "h", "т": "t", "ь": "b",
        # Greek
        "α": "a", "β": "b", "ε": "e", "ι": "l", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
        "τ": "t", "υ": "u", "χ": "x", "ω": "w",
        # Latin look-alikes
        "ɡ": "g", "ı": "l", "ɩ": "l", "i": "l", "1": "l", "|": "l", "0": "o",
        "_": None, "-": None, ".": None, " ": None,
    }
)  # fmt: skip


def skeleton(name: str) -> str:
    folded = unicodedata.normalize("NFKC", name)
    folded = "".join(ch for ch in folded if not is_hidden(ch)).casefold()
    return folded.translate(_HOMOGLYPHS).replace("rn", "m")


def name_of(key: str, tool: Tool) -> str:
    return text.tool_name(key, tool)


def duplicate_groups(tools: Mapping[str, Tool]) -> list[list[str]]:
    """Keys whose names are equal ignoring case, each group sorted, groups of two or more."""
    groups: dict[str, list[str]] = defaultdict(list)
    for key, tool in tools.items():
        groups[name_of(key, tool).casefold()].append(key)
    return [sorted(g) for g in groups.values() if len(g) > 1]


def _fold(key: str, tools: Mapping[str, Tool]) -> str:
    return name_of(key, tools[key]).casefold()


def confusables(tools: Mapping[str, Tool]) -> dict[str, list[str]]:
    """Each key's look-alikes: same skeleton, but not a mere case variant (a duplicate)."""
    by_skeleton: dict[str, list[str]] = defaultdict(list)
    for key, tool in tools.items():
        by_skeleton[skeleton(name_of(key, tool))].append(key)
    out: dict[str, list[str]] = {}
    for keys in by_skeleton.values():
        for key in keys:
            fold = _fold(key, tools)
            if others := sorted(k for k in keys if _fold(k, tools) != fold):
                out[key] = others
    return out


def name_pairs(tools: Mapping[str, Tool]) -> set[frozenset[str]]:
    """Every pair of keys that are duplicates or look-alikes; what drift compares."""
    pairs: set[frozenset[str]] = set()
    for group in duplicate_groups(tools):
        for i, a in enumerate(group):
            pairs.update(frozenset((a, b)) for b in group[i + 1 :])
    for key, others in confusables(tools).items():
        pairs.update(frozenset((key, b)) for b in others)
    return pairs


def describe(key: str, tools: Mapping[str, Tool]) -> str:
    """``"name"``, or ``"name" (kept as name#2)`` when the key differs from the name."""
    name = name_of(key, tools[key])
    shown = f'"{text.show(name)}"'
    return shown if key == name else f"{shown} (kept as {text.show(key)})"


def listing(keys: list[str], tools: Mapping[str, Tool], limit: int = 5) -> str:
    """Names for a message, at most ``limit`` of them."""
    shown = ", ".join(describe(k, tools) for k in keys[:limit])
    return shown + (f" and {len(keys) - limit} more" if len(keys) > limit else "")


def _char(ch: str) -> str:
    if ch == " ":
        return "a space"
    return (
        f"U+{ord(ch):04X} {unicodedata.name(ch, '?')}"
        if not ch.isascii() or is_hidden(ch)
        else repr(ch)
    )


def check(server: str, tools: Mapping[str, Tool]) -> Iterator[Finding]:
    for key, tool in tools.items():
        raw = tool.get("name")
        if not isinstance(raw, str):
            yield rules.finding(
                rules.INVALID_NAME,
                server=server,
                item=key,
                path="name",
                message="has no name string; it cannot be called",
            )
        elif not NAME_RULE.fullmatch(raw):
            bad = sorted({ch for ch in raw if not NAME_RULE.fullmatch(ch)})
            if not raw:
                reason = "is empty"
            elif bad:
                reason = "contains " + ", ".join(_char(ch) for ch in bad[:8])
            else:
                reason = f"is {len(raw)} characters long"
            yield rules.finding(
                rules.INVALID_NAME,
                server=server,
                item=key,
                path="name",
                excerpt=raw,
                span=(0, len(raw)),
                message=f"name {reason}; tool names should match ^[A-Za-z0-9_.-]{{1,128}}$",
            )
    for group in duplicate_groups(tools):
        for key in group:
            yield rules.finding(
                rules.DUPLICATE_NAME,
                server=server,
                item=key,
                path="name",
                message=f"has the same name as {listing([k for k in group if k != key], tools)}",
            )
    for key, others in confusables(tools).items():
        yield rules.finding(
            rules.CONFUSABLE_NAME,
            server=server,
            item=key,
            path="name",
            message=f"has a name that looks like {listing(others, tools)}",
        )
