"""Partial hashes assembled from canonical pieces equal hashes of the parts themselves.

Lockfiles in repositories carry these hashes, so the faster assembly must give the very
values the plain ``digest`` of each part gives, for every kind and for odd items.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcplock_tui.core.canonical import digest
from mcplock_tui.core.lockfile import item_hashes
from mcplock_tui.core.model import ITEM_KINDS, Kind


def reference(kind: Kind, item: dict[str, Any]) -> dict[str, str]:
    hashes = {"hash": digest(item)}
    if kind in ITEM_KINDS:
        hashes["description_hash"] = digest(item.get("description"))
    if kind is Kind.TOOL:
        schemas = {k: item[k] for k in ("inputSchema", "outputSchema") if k in item}
        hashes["schema_hash"] = digest(schemas)
        hashes["annotations_hash"] = digest(item.get("annotations"))
    elif kind is Kind.PROMPT:
        hashes["arguments_hash"] = digest(item.get("arguments"))
    return hashes


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=10,
)
_KEYS = st.sampled_from(
    [
        "name",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
        "arguments",
        "uri",
        "é",
        "",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(list(Kind)), st.dictionaries(_KEYS | st.text(max_size=3), _JSON, max_size=6))
def test_item_hashes_equal_digests_of_the_parts(kind: Kind, item: dict[str, Any]) -> None:
    got = item_hashes(kind, item)
    want = reference(kind, item)
    assert got == want
    assert list(got) == list(want), "key order decides the lockfile's byte order"


@pytest.mark.parametrize("kind", list(Kind), ids=lambda k: k.value)
def test_hidden_and_unpaired_characters(kind: Kind) -> None:
    item = {"name": "a\u202eb", "description": "\ud800x", "outputSchema": {"z": 1.0, "a": [True]}}
    assert item_hashes(kind, item) == reference(kind, item)
