"""Splitting a text into sentences, the one way the text grader and the rule matcher share."""

from __future__ import annotations

import re

_SENTENCE = re.compile(r"[^\n]*?(?:[.!?;:](?=\s|$)|\n|$)")
"""Up to a stop that ends a word (``v1.2`` stays whole), a newline or the end."""


def sentences(text: str) -> list[str]:
    """The non-empty sentences of ``text``, stripped, in order."""
    found = (m.group(0).strip() for m in _SENTENCE.finditer(text))
    return [s for s in found if s]
