"""A pattern tightened to a list of the values it already took is narrower, proven by
matching each listed value against the old pattern; anything not proven stays a change."""

from __future__ import annotations

import time

import pytest

from mcplock_tui.core.grading.schema_keywords import pattern_narrowed

NARROWED = [
    ("^[A-Z]{3}$", "^(USD|EUR|GBP|JPY)$"),
    ("^[A-Z]{3}$", "^(?:USD|EUR)$"),
    ("^[a-z0-9-]+$", "^(prod|staging|dev-2)$"),
    ("[0-9]", "^(2024|2025)$"),  # a search: each value holds a digit
    ("^[A-Z]{3}$", "^USD$"),
    ("^CHG-[0-9]{4,8}$", "^CHG-[0-9]{6}$"),  # the repeat-count proof still holds
    # Proven by comparing the languages: a first letter split off, a class narrowed with a
    # path added after it, a time told by its digits.
    ("^v_[a-z0-9_]{1,60}$", "^v_[a-z][a-z0-9_]{0,40}$"),
    ("^https://[A-Za-z0-9.-]+\\.example\\.com/", "^https://[a-z0-9-]+\\.example\\.com/hooks/"),
    ("^[0-9]{2}:[0-9]{2}$", "^([01][0-9]|2[0-3]):[0-5][0-9]$"),
    ("^https://", "^https://[a-z0-9.-]+(:[0-9]+)?/"),
]
NOT_PROVEN = [
    ("^[A-Z]{3}$", "^(USD|EURO)$"),  # EURO is four letters: wider, not narrower
    ("^[A-Z]{3}$", "^(USD|EUR)"),  # no end anchor: 'USDX' passes
    ("^[A-Z]{3}$", "(USD|EUR)$"),  # no start anchor
    ("^[A-Z]{3}$", "^(US.|EUR)$"),  # a wildcard is not a listed value
    ("^[A-Z]{3}$", "^(USD|EUR)+$"),  # repeated: 'USDEUR' passes
    ("^[A-Z]{3}$", "^(USD|[A-Z]{4})$"),
    ("^(a+)+$", "^(aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab)$"),
    ("^[A-Za-z_]+/[A-Za-z_]+$", "^[A-Z][A-Za-z_]+/[A-Z][A-Za-z_]+(/[A-Z][A-Za-z_]+)?$"),
    ("^https://", "^https?://"),  # http is new
    ("^[a-z]+$", "(?=a)[a-z]+"),  # a lookahead is not compared
]


@pytest.mark.parametrize(("old", "new"), NARROWED)
def test_a_list_of_values_the_old_pattern_took_is_narrower(old: str, new: str) -> None:
    assert pattern_narrowed(old, new)


@pytest.mark.parametrize(("old", "new"), NOT_PROVEN)
def test_what_is_not_proven_narrower_is_not(old: str, new: str) -> None:
    started = time.process_time()
    assert not pattern_narrowed(old, new)
    assert time.process_time() - started < 1.0  # an old pattern that backtracks is not run


@pytest.mark.parametrize(
    "old",
    ["^a*a*a*a*a*a*a*a*b$", "^(a|aa)*$", "^([a-z]+)*$", "^x{1,999}y{1,999}z{1,999}$"],
)
def test_an_old_pattern_that_could_search_for_long_is_not_tried(old: str) -> None:
    started = time.process_time()
    assert not pattern_narrowed(old, "^(" + "|".join(["a" * 60] * 200) + ")$")
    assert time.process_time() - started < 1.0
