"""Shared reading of hostile tool definitions: safe accessors, word splitting, verb lists.

Every lint check reads tool dicts a server sent, so nothing here trusts a type: a name
that is not a string, a schema that is a list, a ``required`` holding numbers all read
as "absent". Words are taken after NFKC folding with hidden characters removed, so
``de<U+200B>lete`` and full-width letters scan as the plain word; the hashes elsewhere
still see every character, so such an edit is still drift.

The vocabularies are English and imperative-mood biased. A tool described in another
language, or whose verbs are not in these lists, is silently not matched: these checks
fail towards missing a finding rather than inventing one.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from typing import Any

from mcplock_tui.core.canonical import is_hidden, visible

Tool = Mapping[str, Any]

_WORD = re.compile(r"[a-z0-9]+")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+|[0-9]+")
_NAME_PARTS = re.compile(r"[\W_]+")


def wordset(words: str) -> frozenset[str]:
    """A vocabulary written as one space-separated string, which keeps the lists readable."""
    return frozenset(words.split())


STOPWORDS = wordset(
    "a an and any are as at be been being both but by can could do does each either for from "
    "has have if in into is it its may more most must no not of on one only or other over own "
    "same should so such than that the their them then there these they this those through "
    "to too under up use used uses using very via was were what when where which while who "
    "will with within without would you your it's also all new given specified provided "
    "tool tools"
)
"""Function words, plus words every tool description uses ("tool", "given")."""

NAME_STOPWORDS = wordset("a an and at by for from in of on or the to with")

# Verb synonyms fold onto one spelling so that fetch_user and get_user share a token.
VERB_SYNONYMS: dict[str, str] = {
    "fetch": "get", "retrieve": "get", "obtain": "get", "lookup": "search", "find": "search",
    "ls": "list", "enumerate": "list", "rm": "delete", "del": "delete", "erase": "delete",
    "remove": "delete", "unlink": "delete", "mk": "create", "make": "create", "new": "create",
    "modify": "update", "change": "update", "edit": "update", "exec": "run", "execute": "run",
    "invoke": "run", "cat": "read", "put": "set", "store": "save",
}  # fmt: skip

READ_VERBS = wordset(
    "read get list search show view describe query count check inspect stat browse peek "
    "preview download export lookup find fetch retrieve scan explore watch"
)
"""Verbs of tools that only look. Folded spellings and raw spellings are both listed."""

MUTATING_VERBS = wordset(
    "write delete remove create update move send edit modify set put post insert upload "
    "rename append overwrite drop kill execute exec run patch publish submit add save store "
    "install uninstall deploy push commit merge truncate purge wipe erase destroy replace "
    "change reset clear mkdir rm unlink copy transfer notify trigger start stop restart "
    "enable disable lock unlock approve reject grant revoke assign archive terminate shutdown "
    "reboot invoke apply import sync cancel fork clone upsert make"
)
"""Verbs of tools that change state somewhere. ``open``, ``format`` and ``tag`` are left out:
as often as not they name a read (``open_file``) or a noun (``format_date``)."""

NEUTRAL_VERBS = wordset(
    "open close navigate click type hover select press wait take resize evaluate fill drag go "
    "convert parse validate render translate summarize analyze compare calculate generate "
    "format tag label mark ping echo print subscribe unsubscribe connect disconnect attach "
    "detach mount unmount login logout pause resume follow unfollow pin unpin block unblock "
    "mute unmute encrypt decrypt increment decrement load enter exit begin end allow deny "
    "hide show pull freeze unfreeze unarchive build test lint review scroll"
)
"""Verbs that name an action without telling whether it reads or writes."""

KNOWN_VERBS = READ_VERBS | MUTATING_VERBS | NEUTRAL_VERBS
"""Every word a name may lead with as its action."""

RUNS_CODE_VERBS = frozenset({"execute", "exec", "run", "eval", "invoke"})
"""Verbs that run something: a read-only query runner is common, so the hint checks skip them."""

DATA_LOSS_VERBS = wordset(
    "delete remove drop overwrite kill truncate purge wipe erase destroy unlink rm terminate "
    "shutdown reset revoke uninstall rmdir shred"
)
"""Verbs whose mistaken use loses data or access."""

DESTRUCTIVE_VERBS = DATA_LOSS_VERBS | RUNS_CODE_VERBS
"""What the scope check keys on: losing data, or running code."""

_IRREGULAR = {
    "run": ("running",), "drop": ("dropping",), "shred": ("shredding",),
    "delete": ("deletion",), "remove": ("removal",), "execute": ("execution",),
    "terminate": ("termination",), "erase": ("erasure",), "destroy": ("destruction",),
}  # fmt: skip


def verb_forms(verb: str) -> set[str]:
    """The forms a description acts with: ``delete`` -> deletes, deleting, deletion.

    Past participles are left out on purpose: "results are truncated" and "shows deleted
    files" describe state, not something the tool does. "Will be deleted" is missed.
    """
    forms = {verb, verb + "s", *_IRREGULAR.get(verb, ())}
    if verb.endswith("e"):
        forms.add(verb[:-1] + "ing")
    else:
        forms |= {verb + "ing", verb + "es"}
    return forms


def verb_pattern(verbs: frozenset[str]) -> re.Pattern[str]:
    """A word-bounded regex over every form of ``verbs``, longest first."""
    forms = sorted({f for v in verbs for f in verb_forms(v)}, key=lambda f: (-len(f), f))
    return re.compile(r"(?<![a-z0-9])(?:" + "|".join(forms) + r")(?![a-z0-9])")


ANTONYMS: frozenset[frozenset[str]] = frozenset(
    frozenset(pair.split("/"))
    for pair in wordset(
        "read/write create/delete add/delete open/close start/stop enable/disable lock/unlock "
        "get/set push/pull upload/download encrypt/decrypt attach/detach subscribe/unsubscribe "
        "install/uninstall mount/unmount connect/disconnect show/hide grant/revoke "
        "archive/unarchive follow/unfollow pin/unpin block/unblock mute/unmute import/export "
        "approve/reject login/logout pause/resume freeze/unfreeze increment/decrement "
        "load/save enter/exit begin/end allow/deny"
    )
)
"""Opposing verbs, in folded spelling (remove folds to delete, so add/delete covers add/remove)."""


class Cleaned:
    """Text in the form keywords are matched in, with a way back to the original offsets.

    NFKC-folded, hidden characters removed, case-folded, one character at a time so each
    output character knows which input character it came from.
    """

    __slots__ = ("_offsets", "original", "text")

    def __init__(self, original: str) -> None:
        self.original = original
        if _ASCII_SAFE.fullmatch(original):
            self.text = original.lower()
            self._offsets: list[int] | None = None
            return
        out: list[str] = []
        offsets: list[int] = []
        for i, ch in enumerate(original):
            if is_hidden(ch):
                continue
            for c in unicodedata.normalize("NFKC", ch).casefold():
                if not is_hidden(c):
                    out.append(c)
                    offsets.append(i)
        self.text = "".join(out)
        self._offsets = offsets

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Offsets in :attr:`original` of the cleaned slice ``[start, end)``."""
        if self._offsets is None:
            return (start, end)
        return (self._offsets[start], self._offsets[end - 1] + 1)

    def excerpt(self, start: int, end: int) -> tuple[str, tuple[int, int]]:
        """The original text behind a cleaned match, hidden characters and all."""
        a, b = self.span(start, end)
        return self.original[a:b], (a, b)


_ASCII_SAFE = re.compile(r"[\x20-\x7e\n\t]*")


def clean(text: str) -> str:
    return Cleaned(text).text


def singular(word: str) -> str:
    """Plural to singular, roughly: "files" -> "file", "directories" -> "directory"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def stem(word: str) -> str:
    """A deliberately tiny stemmer for description words; "creating" and "create" meet.

    Only plural, -ing and -ed endings and a final e; over-stemming a rare word costs a
    little similarity, never a finding on its own.
    """
    word = singular(word)
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith("ed") and not word.endswith("eed"):
        word = word[:-2]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


def words(text: str) -> list[str]:
    """Description words: cleaned, stopwords dropped, lightly stemmed."""
    return [stem(w) for w in _WORD.findall(clean(text)) if w not in STOPWORDS and len(w) > 1]


def raw_words(text: str) -> list[str]:
    """Cleaned words with nothing dropped, for phrase and verb matching."""
    return _WORD.findall(clean(text))


def name_words(name: str) -> list[str]:
    """``list_directory_with_sizes`` -> ``[list, directory, with, size]``; camelCase split too."""
    folded = unicodedata.normalize("NFKC", name)
    folded = "".join(ch for ch in folded if not is_hidden(ch))
    out: list[str] = []
    for part in _NAME_PARTS.split(folded):
        pieces = _CAMEL.findall(part) if part.isascii() else [part]
        for piece in pieces or ([part] if part else []):
            if low := piece.casefold():
                out.append(singular(low))
    return out


def name_tokens(name: str) -> list[str]:
    """Name words without the function words: ``[list, directory, size]``."""
    return [w for w in name_words(name) if w not in NAME_STOPWORDS]


def fold_verb(word: str) -> str:
    return VERB_SYNONYMS.get(word, word)


# --- safe accessors -------------------------------------------------------------------------


def tool_name(key: str, tool: Tool) -> str:
    name = tool.get("name")
    return name if isinstance(name, str) else key


def description(tool: Tool) -> str:
    text = tool.get("description")
    return text if isinstance(text, str) else ""


def schema(tool: Tool) -> Mapping[str, Any]:
    value = tool.get("inputSchema")
    return value if isinstance(value, Mapping) else {}


def properties(tool: Tool) -> Mapping[str, Any]:
    value = schema(tool).get("properties")
    return value if isinstance(value, Mapping) else {}


def required(tool: Tool) -> frozenset[str]:
    value = schema(tool).get("required")
    if not isinstance(value, list):
        return frozenset()
    return frozenset(v for v in value if isinstance(v, str))


def hint(tool: Tool, key: str) -> bool | None:
    """An annotation hint only when it is a real JSON boolean; ``"true"`` is not ``true``."""
    annotations = tool.get("annotations")
    if not isinstance(annotations, Mapping):
        return None
    value = annotations.get(key)
    return value if isinstance(value, bool) else None


def schema_texts(tool: Tool, limit: int = 200) -> Iterator[tuple[str, str]]:
    """``(path, text)`` for every ``description`` string inside the input schema, bounded."""
    stack: list[tuple[str, Any]] = [("inputSchema", schema(tool))]
    seen = 0
    while stack and seen < limit:
        path, node = stack.pop()
        seen += 1
        if isinstance(node, Mapping):
            for k, v in node.items():
                if not isinstance(k, str):
                    continue
                if k == "description" and isinstance(v, str):
                    yield f"{path}.description", v
                elif isinstance(v, Mapping | list):
                    stack.append((f"{path}.{k}", v))
        elif isinstance(node, list):
            stack.extend((f"{path}[{i}]", v) for i, v in enumerate(node) if isinstance(v, Mapping))


def lead_verb(tool: Tool) -> str | None:
    """First word of the description when it is a known verb ("Creates a file" -> create)."""
    first = raw_words(description(tool)[:80])
    if not first:
        return None
    word = first[0]
    for candidate in (word, word[:-1] if word.endswith("s") else word, word[:-2]):
        if candidate in KNOWN_VERBS:
            return candidate
    return None


def name_verbs(tokens: list[str]) -> list[str]:
    """The verb of a tool name: its first known verb, as a list of zero or one.

    ``get_update_status`` is a get, ``github_create_issue`` a create (after the namespace),
    ``mysql_describe_commit`` a describe: later verb-like words are objects.
    """
    for token in tokens:
        if token in KNOWN_VERBS:
            return [token]
    return []


def show(value: str, limit: int = 80) -> str:
    """A server string fit for a message: hidden characters made visible, length bounded."""
    cut = value if len(value) <= limit else value[:limit] + "…"
    return visible(cut)


_NEGATION = re.compile(
    r"(?:\bnot|\bnever|\bno|n't|\bcannot|\bwithout|\brather than|\binstead of|\bnor)"
    r"\W+(?:\w+\W+){0,2}$"
)


def negated(cleaned: str, start: int) -> bool:
    """True when the word at ``start`` follows a negation ("will not overwrite")."""
    return bool(_NEGATION.search(cleaned[max(0, start - 40) : start]))
