"""Other servers' tool names as one table seen without some names, instead of a copy each.

A scan leaves out of the foreign names those the scanned server defines itself, and, for
one tool, that tool's own name. Copying the table for every item made each item cost a
pass over every foreign name (about a thousand in a fleet of twenty servers, and one index
built over them per item). :class:`ForeignTools` is that filtered mapping as a view: it
holds the table and the left-out names, so the steering scan indexes the table once
(see :func:`mcplock_tui.core.detectors.steering.foreign`) and filters at lookup.

The table must not change while views of it are in use (the callers build it per run).
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterable, Iterator, Mapping, Set


class ForeignTools(Mapping[str, str]):
    """``table`` (tool name -> server) without the names in any of ``without``'s sets."""

    __slots__ = ("_len", "table", "without")

    def __init__(self, table: Mapping[str, str], without: Iterable[str] = ()) -> None:
        left_out = without if isinstance(without, Set) else frozenset(without)
        if isinstance(table, ForeignTools):
            self.table: Mapping[str, str] = table.table
            self.without: tuple[Set[str], ...] = (*table.without, left_out)
        else:
            self.table = table
            self.without = (left_out,)
        self._len = -1

    def left_out(self, name: str) -> bool:
        if len(self.without) == 1:  # the usual case: one scan's own names
            return name in self.without[0]
        return any(name in s for s in self.without)

    def items(self) -> ItemsView[str, str]:
        return _Items(self)

    def __getitem__(self, name: str) -> str:
        if self.left_out(name):
            raise KeyError(name)
        return self.table[name]

    def __contains__(self, name: object) -> bool:
        return name in self.table and not self.left_out(name)  # type: ignore[arg-type]

    def __iter__(self) -> Iterator[str]:
        return (n for n in self.table if not self.left_out(n))

    def __len__(self) -> int:
        if self._len < 0:
            # By the smaller side: a big server's own names against few foreign ones, or
            # the other way round, never a pass over both per item.
            names: set[str] = set()
            for s in self.without:
                names.update(s if len(s) <= len(self.table) else (n for n in self.table if n in s))
            self._len = len(self.table) - sum(1 for n in names if n in self.table)
        return self._len

    def __repr__(self) -> str:
        return f"ForeignTools({dict(self.items())!r})"


class _Items(ItemsView[str, str]):
    """The pairs straight from the table (the scan memo encodes them once per server)."""

    _mapping: ForeignTools

    def __iter__(self) -> Iterator[tuple[str, str]]:
        view = self._mapping
        return ((n, s) for n, s in view.table.items() if not view.left_out(n))
