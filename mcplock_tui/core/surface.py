"""Turn the raw JSON a server sent into a keyed :class:`Surface`, losing nothing.

Items are keyed by their natural identifier (tool/prompt ``name``, resource ``uri``,
template ``uriTemplate``). An item without a usable key, or a second item with the same
key, is kept under a synthetic key and reported as a warning rather than dropped: a
malformed or duplicated definition is exactly what a reviewer needs to see.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from mcplock_tui.core.model import JSON, Kind, Surface

MAX_DEPTH = 200
"""Deeper JSON than this is refused: hashing and diffing recurse, and no honest schema nests so."""


class SurfaceError(ValueError):
    """The server sent something that cannot be analysed safely (one plain sentence)."""


def depth_exceeds(value: object, limit: int) -> bool:
    """Nested deeper than ``limit`` (the top level is depth 1); iterative, so the check
    itself cannot hit the recursion limit. One level at a time: no (node, depth) pair per
    node, and each container's children are taken in one ``extend``."""
    level: list[object] = [value]
    depth = 1
    while level:
        if depth > limit:
            return True
        below: list[object] = []
        for node in level:
            if isinstance(node, dict):
                below.extend(node.values())
            elif isinstance(node, list):
                below.extend(node)
        level = below
        depth += 1
    return False


KEY_FIELD: dict[Kind, str] = {
    Kind.TOOL: "name",
    Kind.PROMPT: "name",
    Kind.RESOURCE: "uri",
    Kind.RESOURCE_TEMPLATE: "uriTemplate",
}


def key_items(
    kind: Kind,
    raw_items: Iterable[JSON],
    warnings: list[str],
    within_depth: Collection[int] = (),
) -> dict[str, dict[str, JSON]]:
    """Key a raw list; malformed and duplicate entries get ``<kind #N>`` / ``name#2`` keys.

    ``within_depth`` holds the ``id`` of items known to be within the depth bound (equal to
    a pinned item that passed it): they are not walked again.
    """
    keyed: dict[str, dict[str, JSON]] = {}
    field = KEY_FIELD[kind]
    for index, raw in enumerate(raw_items):
        if id(raw) not in within_depth and depth_exceeds(raw, MAX_DEPTH):
            raise SurfaceError(
                f"{kind.value} at position {index} is nested more than {MAX_DEPTH} levels deep; "
                "refusing to analyse this server"
            )
        item: dict[str, JSON] = raw if isinstance(raw, dict) else {"__malformed__": raw}
        key = item.get(field)
        if not isinstance(key, str) or not key:
            key = f"<{kind.value} #{index}>"
            warnings.append(
                f"{kind.value} at position {index} has no valid {field!r}; kept as {key}"
            )
        if key in keyed:
            n = 2
            while f"{key}#{n}" in keyed:
                n += 1
            warnings.append(f"duplicate {kind.value} {key!r}; the copy is kept as {key}#{n}")
            key = f"{key}#{n}"
        keyed[key] = item  # key order never matters: hashes and diffs sort keys themselves
    return keyed


def build_surface(
    *,
    initialize_result: Mapping[str, Any] | None,
    launch: str,
    tools: Iterable[JSON] = (),
    prompts: Iterable[JSON] = (),
    resources: Iterable[JSON] = (),
    resource_templates: Iterable[JSON] = (),
    warnings: list[str] | None = None,
    within_depth: Collection[int] = (),
) -> Surface:
    """Assemble a surface from raw ``initialize`` and ``*/list`` results (``within_depth``:
    see :func:`key_items`)."""
    warns = warnings if warnings is not None else []
    init = dict(initialize_result or {})
    if depth_exceeds(init, MAX_DEPTH):
        raise SurfaceError(
            f"the initialize result is nested more than {MAX_DEPTH} levels deep; refusing to "
            "analyse this server"
        )
    instructions = init.get("instructions")
    if instructions is not None and not isinstance(instructions, str):
        warns.append("server instructions are not a string; kept as JSON text")
        instructions = repr(instructions)
    server: dict[str, JSON] = {
        "serverInfo": init.get("serverInfo", {}),
        "protocolVersion": init.get("protocolVersion"),
        "capabilities": init.get("capabilities", {}),
        "launch": launch,
    }
    return Surface(
        server=server,
        instructions=instructions,
        tools=key_items(Kind.TOOL, tools, warns, within_depth),
        prompts=key_items(Kind.PROMPT, prompts, warns, within_depth),
        resources=key_items(Kind.RESOURCE, resources, warns, within_depth),
        resource_templates=key_items(
            Kind.RESOURCE_TEMPLATE, resource_templates, warns, within_depth
        ),
    )
