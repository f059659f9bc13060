"""The lockfile's pretty JSON is the standard encoder's, byte for byte, only built faster.

Lockfiles in repositories hold this text, so the indenting writer must give exactly what
``json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False)`` gives (before hidden
characters are escaped) for any JSON value, odd numbers and hostile strings included.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcplock_tui.core.canonical import _indented, canon_json, pretty_json

_TEXT = st.text(alphabet=st.characters(codec=None), max_size=12)
_LEAF = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | _TEXT
)
_JSON = st.recursive(
    _LEAF,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=30,
)


def _standard(value: Any) -> str:
    return json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False)


@settings(max_examples=400, deadline=None)
@given(_JSON)
def test_the_indenting_writer_is_the_standard_encoder(value: Any) -> None:
    assert _indented(value, "") == _standard(value)


@pytest.mark.parametrize(
    "value",
    [
        {},
        [],
        {"a": {}, "b": [], "c": [[], {}]},
        {"\u202e": "\x1b[31m", "z": "\ud800", "é": "\u200b"},
        [math.nan, math.inf, -math.inf, -0.0, 1e300, 5e-324],
        (1, True, None),
        {"x": 10**40, "y": False},
    ],
)
def test_odd_values(value: Any) -> None:
    assert _indented(value, "") == _standard(value)


def test_values_it_does_not_know_fall_back_to_the_standard_encoder() -> None:
    mixed = {1: "a", "b": 2}
    with pytest.raises(TypeError):  # the standard encoder cannot sort these keys either
        pretty_json(mixed)
    assert pretty_json({1: "a", 2: "b"}) == _standard({1: "a", 2: "b"})


def _canonical_standard(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


@settings(max_examples=400, deadline=None)
@given(_JSON)
def test_canonical_json_is_the_standard_encoder(value: Any) -> None:
    """Every hash is taken over this text: the shared encoder must be ``json.dumps`` exactly."""
    assert canon_json(value) == _canonical_standard(value)


def test_canonical_json_refuses_what_the_standard_encoder_refuses() -> None:
    loop: list[Any] = []
    loop.append(loop)
    for bad, error in (({"a": loop}, ValueError), ({"a": object()}, TypeError)):
        with pytest.raises(error):
            _canonical_standard(bad)
        with pytest.raises(error):
            canon_json(bad)
    assert canon_json({"after": [1, 2]}) == '{"after":[1,2]}'  # nothing left over from a failure


class _Dict(dict[str, Any]):
    pass


class _List(list[Any]):
    pass


class _Str(str):
    pass


@pytest.mark.parametrize(
    "value",
    [
        _Dict(b=_List([1, _Str("x")]), a=(True, None)),
        {"k": _Dict(z=[_Str("s"), {"n": 1.5}]), "t": ("a", ["b"])},
        [_List(), _Dict(), (), [True, False, 0, 1]],
    ],
)
def test_subclasses_and_tuples_are_written_as_the_standard_encoder_writes_them(
    value: Any,
) -> None:
    assert _indented(value, "") == _standard(value)
