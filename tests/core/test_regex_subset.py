"""A new pattern is at least as strict as the old one exactly when every string it accepts
the old one accepts too; syntax outside the supported subset, or too large, is undecided."""

from __future__ import annotations

import itertools
import re

import pytest

from mcplock_tui.core.grading.regex_subset import pattern_subset

SUBSET = [
    ("^https://", "^https://[a-z0-9.-]+(:[0-9]+)?/"),
    ("^https://[A-Za-z0-9.-]+\\.example\\.com/", "^https://[a-z0-9-]+\\.example\\.com/hooks/"),
    ("^v_[a-z0-9_]{1,60}$", "^v_[a-z][a-z0-9_]{0,40}$"),
    ("^[A-Z]{3}$", "^(USD|EUR)$"),
    ("^CHG-[0-9]{4,8}$", "^CHG-[0-9]{6}$"),
    ("[0-9]", "^[0-9]+$"),  # a search: any string holding a digit
    ("^.*$", "^abc$"),
    ("^(a|b)+$", "^a+$"),
    ("^\\d{2}:\\d{2}$", "^([01]\\d|2[0-3]):[0-5]\\d$"),
    ("^[\\w.-]+$", "^[a-z]+\\.[a-z]+$"),
    ("^a+$", "^a+?$"),  # lazy takes the same strings
    ("^a$|^b$", "^a$"),  # anchors per top-level alternative
    ("^(?:ab)*$", "^(?:abab)*$"),
    ("^[^/]+$", "^[a-z]+$"),
    ("^\\S+$", "^[\\w-]+$"),
    ("^a.c$", "^a[\\-\\/\\\\]c$"),
    ("https://", "^https://"),
    ("^.*$", "^a.b$"),
]
NOT_SUBSET = [
    ("^https://", "^http://"),
    ("^[a-z]+$", "^[a-z0-9]+$"),
    ("^CHG-[0-9]{6}$", "^CHG-[0-9]{4,8}$"),
    ("^[A-Z]{3}$", "^[A-Z]{2,3}$"),
    ("^https://", "https://"),  # unanchored start: 'xhttps://' passes
    ("^abc$", "^abc"),  # unanchored end: 'abcd' passes
    # '/' is not in [A-Za-z_], so 'Ab/Cd/Ef' passes only the new one
    ("^[A-Za-z_]+/[A-Za-z_]+$", "^[A-Z][A-Za-z_]+/[A-Z][A-Za-z_]+(/[A-Z][A-Za-z_]+)?$"),
    ("^a$", "^a$|b"),
    ("^.*$", "^a\nb$"),  # ECMA `.` stops at a newline and `$` is the very end
    ("^(?:abab)*$", "^(?:ab)*$"),
    ("^[^/]+$", "^[a-z/]+$"),
    ("^\\w+$", "^\\S+$"),
]
UNDECIDED = [
    ("b", "(?=a)b"),  # lookahead
    ("a", "(a)\\1"),  # backreference
    ("word", "\\bword"),
    ("a", "(?<name>a)"),
    ("a", "(?i)a"),
    ("a", "a^b"),  # an anchor inside the pattern
    ("a", "(^a)"),
    ("a", "[]a"),  # empty in ECMA, a literal ']' elsewhere
    ("a", "a" * 513),
    ("a" * 513, "a"),
    ("a", "(a{1000}){1000}"),  # over the state cap
    ("a", "(" * 33 + "a" + ")" * 33),  # nested too deep
    ("a", "a**"),
    ("a", "[z-a]"),
    ("(a|b)*a(a|b){12}", "(a|b)*a(a|b){13}"),  # 2^13 subsets: over the work budget
    # old counts a's modulo 149 and 151 at once: 22,499 product states, over the cap of 5,000
    ("^(?:a{149})*$|^(?:a{151})+b$", "^(?:a{149})*$"),
]


@pytest.mark.parametrize(("old", "new"), SUBSET)
def test_subset(old: str, new: str) -> None:
    assert pattern_subset(old, new) is True


@pytest.mark.parametrize(("old", "new"), NOT_SUBSET)
def test_not_subset(old: str, new: str) -> None:
    assert pattern_subset(old, new) is False


@pytest.mark.parametrize(("old", "new"), UNDECIDED)
def test_undecided(old: str, new: str) -> None:
    assert pattern_subset(old, new) is None


def test_limits_are_the_only_reason_for_none() -> None:
    """Just inside each cap the same shapes are decided."""
    assert pattern_subset("^a+$", "^" + "(" * 32 + "a" + ")" * 32 + "$") is True
    assert pattern_subset("^a{1,1990}$", "^a{1990}$") is True
    assert pattern_subset("a", "a" * 512) is True
    # lcm(67, 73) = 4,891 product states: under the cap
    assert pattern_subset("^(?:a{67})*$|^(?:a{73})+b$", "^(?:a{67})*$") is True


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("(a|aa)*b", "(a|a?)*b"),
        ("^(a+)+$", "^(a|a?)+b$"),
        ("^(.*a.*b){30}$", "^(.*a.*b.*c){30}$"),
        ("^(){2000}$", "^((){2000}){2000}$"),
    ],
)
def test_nasty_pairs_finish(old: str, new: str) -> None:
    assert pattern_subset(old, new) in (True, False, None)


BRUTE = [
    ("^(a|b)*$", "^(ab|ba)*$"),
    ("^(ab|ba)*$", "^(a|b)*$"),
    ("a", "^b*ab*$"),
    ("^b*ab*$", "a"),
    ("^(a|aa)*$", "^a*$"),
    ("^a*(ba+)*$", "^(a|ab)*$"),
    ("^(a|ab)*$", "^a*(ba+)*$"),
    ("^a{2,4}$", "^(aa){1,2}$"),
    ("^(aa){1,2}$", "^a{2,4}$"),
    ("b.b", "^b[ab]b"),
    ("ab$", "b$"),
    ("^(a?b?){3}$", "^[ab]{0,3}$"),
    ("^[ab]{0,3}$", "^(a?b?){3}$"),
]


@pytest.mark.parametrize(("old", "new"), BRUTE)
def test_agrees_with_enumeration(old: str, new: str) -> None:
    """Every string over {a, b} up to length 8, searched with `re` (same meaning here)."""
    old_re, new_re = re.compile(old), re.compile(new)
    strings = ("".join(t) for n in range(9) for t in itertools.product("ab", repeat=n))
    witness = next((s for s in strings if new_re.search(s) and not old_re.search(s)), None)
    assert pattern_subset(old, new) is (witness is None)
