"""Sentence-level co-occurrence: signals that hold whatever the word order or phrasing.

Phrase patterns catch "ignore previous instructions" but not "your prior directives have
expired", "consider all earlier rules obsolete" or "the user must remain unaware". What
those share is vocabulary, not order: within one sentence, a word for earlier authority, a
word for instructions and a word saying they no longer hold; a word for the user and a word
for not knowing; a word for other tools and a word discrediting them. Each rule here fires
on a sentence that holds one word from every one of its word sets.

Which way it fails: it is a bag of words, so an honest sentence that happens to combine the
sets fires ("previous rules are suspended during maintenance", from a firewall tool); the
sets are kept to words that rarely meet in tool documentation. A payload split over two
sentences, or phrased with words outside the sets, is missed here.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from mcplock_tui.core.detectors.base import Hit, quote, word_set


class _Rule(NamedTuple):
    code: str
    label: str
    sets: tuple[frozenset[str], ...]


def _w(words: str) -> frozenset[str]:
    return frozenset(words.split())


_RULES = (
    _Rule(
        "MCPL-INJ-003",
        "declares earlier instructions void",
        (
            _w(
                "previous prior earlier above preceding former original initial old past system your"
            ),
            _w(
                "instructions instruction directives directive guidelines guidance prompt prompts "
                "constraints restrictions programming configuration protocols rules"
            ),
            _w(
                "expired obsolete void invalid invalidated null nullified superseded overridden "
                "overruled rescinded lifted suspended withdrawn inapplicable irrelevant anymore "
                "waived moot"
            ),
        ),
    ),
    _Rule(
        "MCPL-INJ-030",
        "keeps the user unaware",
        (
            _w("user users human humans person people operator customer owner requester"),
            _w("unaware oblivious unnoticed unbeknownst"),
        ),
    ),
    _Rule(
        "MCPL-INJ-041",
        "discredits other tools",
        (
            _w("other another rival competing"),
            _w(
                "tool tools server servers function functions integration integrations plugin "
                "plugins extension extensions"
            ),
            _w(
                "compromised malicious untrusted untrustworthy unsafe insecure unreliable "
                "deprecated broken buggy fake hacked poisoned dangerous obsolete outdated"
            ),
        ),
    ),
)
_FIRST = frozenset().union(*(rule.sets[-1] for rule in _RULES))
"""Every rule's last set: a text without one of these words skips the sentence split."""
_SENTENCES = re.compile(r"[^.!?;\n]+")


def detect(text: str, words: frozenset[str]) -> list[Hit]:
    """Hits for sentences of normalised ``text`` (whose words are ``words``) that hold a word
    of every set of a rule; the hit spans the sentence."""
    out: list[Hit] = []
    if words.isdisjoint(_FIRST):
        return out
    rules = [r for r in _RULES if all(not s.isdisjoint(words) for s in r.sets)]
    if not rules:
        return out
    for m in _SENTENCES.finditer(text):
        sentence = word_set(m.group())
        for rule in rules:
            if all(not s.isdisjoint(sentence) for s in rule.sets):
                out.append(Hit(rule.code, m.start(), m.end(), f"{rule.label}: {quote(m.group())}"))
    return out
