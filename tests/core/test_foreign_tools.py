"""Each server's view of the other servers' tool names, for shadowing and steering checks."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mcplock_tui.core.analysis import foreign_tools
from mcplock_tui.core.model import Surface

_NAMES = st.sampled_from(["read", "write", "list", "send", "delete", "get"])


def _reference(tools: dict[str, set[str]]) -> dict[str, dict[str, str]]:
    """The definition: every name some other server has, with the first such server by name."""
    return {
        server: {
            name: min(o for o in tools if o != server and name in tools[o])
            for name in sorted(set().union(*tools.values()))
            if any(o != server and name in tools[o] for o in tools)
        }
        for server in tools
    }


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from("abcde"), st.sets(_NAMES, max_size=4), max_size=5))
def test_foreign_tools_matches_its_definition(tools: dict[str, set[str]]) -> None:
    surfaces = {
        s: Surface(server={}, instructions=None, tools={n: {"name": n} for n in names})
        for s, names in tools.items()
    }
    assert foreign_tools(surfaces) == _reference(tools)
