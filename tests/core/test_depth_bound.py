"""The depth bound that capture and lockfile reading apply: exact at the limit, for any shape."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcplock_tui.core.surface import depth_exceeds

_JSON = st.recursive(
    st.none() | st.integers() | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3)
    ),
    max_leaves=25,
)


def _depth(value: Any) -> int:
    """The plain recursive definition: a scalar is depth 1, a container one more than its deepest child."""
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 1


@settings(max_examples=300, deadline=None)
@given(_JSON, st.integers(min_value=1, max_value=8))
def test_the_bound_matches_the_recursive_definition(value: Any, limit: int) -> None:
    assert depth_exceeds(value, limit) == (_depth(value) > limit)


@pytest.mark.parametrize("limit", [1, 2, 199, 200])
def test_exactly_at_the_limit(limit: int) -> None:
    deep: Any = "leaf"
    for _ in range(limit - 1):
        deep = [deep]
    assert not depth_exceeds(deep, limit)
    assert depth_exceeds([deep], limit)
    assert depth_exceeds({"k": deep}, limit)


def test_far_deeper_than_the_recursion_limit() -> None:
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    assert depth_exceeds(deep, 200)
