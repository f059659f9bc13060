"""Annotation lies: behavioural hints that contradict the tool's own name or description.

Clients may auto-approve a tool marked ``readOnlyHint: true`` and skip confirmation for one
marked ``destructiveHint: false``, so a wrong hint is worse than none. Only explicit JSON
booleans count: an absent hint promises nothing, and ``"true"`` (a string) is not true.

The verb is taken where it is least ambiguous: the name's leading verb (or, when the name
starts with a namespace, any verb token in it) and the description's first word
("Creates a ..."). Verbs that run things (run, execute, invoke) are ignored here, since a
read-only query runner is common and legitimate. For ``destructiveHint: false`` a
data-loss verb anywhere in the description also counts unless negated ("will not
overwrite"). It fails towards silence: "Makes a copy" or a verb deeper in the text is not read.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from mcplock_tui.core.lint import rules, text
from mcplock_tui.core.lint.text import Cleaned, Tool
from mcplock_tui.core.model import Finding

_MUTATING = text.MUTATING_VERBS - text.RUNS_CODE_VERBS
_DATA_LOSS = text.verb_pattern(text.DATA_LOSS_VERBS)


def _said_verb(key: str, tool: Tool, verbs: frozenset[str]) -> tuple[str, str] | None:
    """``(where, verb)`` for the first of ``verbs`` the name or the description leads with."""
    for token in text.name_verbs(text.name_tokens(text.tool_name(key, tool))):
        if token in verbs:
            return "name", token
    lead = text.lead_verb(tool)
    if lead is not None and lead in verbs:
        return "description", lead
    return None


def _data_loss_in_text(tool: Tool) -> tuple[str, str] | None:
    cleaned = Cleaned(text.description(tool))
    for m in _DATA_LOSS.finditer(cleaned.text):
        if not text.negated(cleaned.text, m.start()):
            return "description", m.group(0)
    return None


def check(server: str, tools: Mapping[str, Tool]) -> Iterator[Finding]:
    for key, tool in tools.items():
        read_only = text.hint(tool, "readOnlyHint")
        if read_only is True:
            said = _said_verb(key, tool, _MUTATING)
            if said is not None:
                yield rules.finding(
                    rules.READ_ONLY_MUTATES,
                    server=server,
                    item=key,
                    path="annotations.readOnlyHint",
                    message=f'marked readOnlyHint: true, but its {said[0]} says "{said[1]}"',
                )
            continue  # a read-only claim subsumes destructiveHint, which is then ignored
        if text.hint(tool, "destructiveHint") is False:
            said = _said_verb(key, tool, text.DATA_LOSS_VERBS) or _data_loss_in_text(tool)
            if said is not None:
                yield rules.finding(
                    rules.NOT_DESTRUCTIVE_DELETES,
                    server=server,
                    item=key,
                    path="annotations.destructiveHint",
                    message=f'marked destructiveHint: false, but its {said[0]} says "{said[1]}"',
                )
