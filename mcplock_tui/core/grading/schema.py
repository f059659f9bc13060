"""Schema drift graded by what a caller may now pass: widening is high, narrowing medium.

Why a module of its own: a widened schema hides anywhere JSON Schema can nest one (under
``properties``, ``items``, ``additionalProperties``, ``anyOf``, ``not``, a ``$ref`` into
``$defs``), and every keyword has spellings that mean the same thing (``true`` and ``{}``,
``const`` and a one-value ``enum``, draft-4 boolean ``exclusiveMaximum``, a type array in
another order). Each node is first put in a normal form (``schema_keywords``), then compared:

* local ``$ref`` pointers are followed on both sides and the targets compared at the place
  that uses them; each pair of references is compared once, so cycles and expansion bombs
  stay linear. ``$id`` and ``$anchor`` targets inside the schema are followed too. A
  reference that cannot be followed (remote, dynamic, broken) is an opaque constraint:
  changed or removed grades as widened, and while one exists any change to ``$defs``
  grades as widened, as it may be what the reference reaches.
* ``true``/``{}`` is "anything", ``false`` and ``not: {}`` are "nothing"; keywords at their
  default (``additionalProperties: true``, ``minLength: 0``, ``uniqueItems: false``) are
  dropped; bounds that are not numbers are dropped, as validators ignore them.
* under ``not`` the direction is inverted; a changed ``if`` condition grades as widened.

Failure direction: an unknown keyword that changed grades medium (``schema-changed``); a change
that is not provably narrowing grades as widened; only a difference that disappears in the
normal form grades low. A schema too large to compare in full (over ``NODE_BUDGET`` nodes)
grades high as a whole rather than being partly skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from mcplock_tui.core.canonical import canon_json
from mcplock_tui.core.detectors.params import detect as detect_param
from mcplock_tui.core.grading.schema_keywords import (
    ABSENT,
    ANNOTATION_KEYS,
    ANY_WHEN_ABSENT,
    INTERACTING,
    NARROW,
    NODE_BUDGET,
    WIDE,
    anchor_index,
    annotation_keyword_reasons,
    as_dict,
    direction,
    is_any,
    is_never,
    members_of,
    pointer,
    scalar_reasons,
    shape,
    str_list,
)
from mcplock_tui.core.grading.text_delta import text_signals
from mcplock_tui.core.model import Reason, Severity

H, M, L = Severity.HIGH, Severity.MEDIUM, Severity.LOW
__all__ = ["MAX_DEPTH", "NARROW", "NODE_BUDGET", "WIDE", "schema_reasons"]

MAX_DEPTH = 64
"""Nesting below which a schema is graded high as a whole (and Python's stack is safe)."""
_MAX_HOPS = 32
_MAX_LIFT = 8


class _Comparer:
    """Compares two schema trees; state is the two roots, the pairs seen and a node budget."""

    def __init__(self, old_root: Any, new_root: Any) -> None:
        self.roots = (old_root, new_root)
        self.seen: set[tuple[Any, Any, int]] = set()
        self.budget = NODE_BUDGET
        self.work = NODE_BUDGET
        self.depth = 0
        defs = [
            {k: r.get(k) for k in ("$defs", "definitions")} if isinstance(r, dict) else None
            for r in self.roots
        ]
        self.same_defs = canon_json(defs[0]) == canon_json(defs[1])
        self._indexes: list[dict[str, Any] | None] = [None, None]
        self.opaque = not self.same_defs and any(self._unfollowable(side) for side in (0, 1))
        """A reference on either side cannot be followed (only asked when definitions moved)."""

    def _unfollowable(self, side: int) -> bool:
        stack, seen = [self.roots[side]], 0
        while stack and seen < NODE_BUDGET:
            node = stack.pop()
            seen += 1
            if isinstance(node, dict):
                if "$dynamicRef" in node or "$recursiveRef" in node:
                    return True
                ref = node.get("$ref")
                if isinstance(ref, str) and self.lookup(ref, side) is ABSENT:
                    return True
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
        return bool(stack)

    def lookup(self, ref: str, side: int) -> Any:
        root = self.roots[side]
        if ref.startswith("#/") or ref == "#":
            return pointer(root, ref)
        index = self._indexes[side]
        if index is None:
            index = self._indexes[side] = anchor_index(root)
        if ref in index:
            return index[ref]
        base, _, fragment = ref.partition("#")
        if base in index and (not fragment or fragment.startswith("/")):
            return pointer(index[base], f"#{fragment}")
        return ABSENT

    def resolve(self, raw: Any, side: int, depth: int = 0) -> tuple[Any, Any]:
        """Shaped node with local references followed and mergeable ``allOf`` lifted."""
        identity: Any = ("@", id(raw))
        chain: list[str] = []
        node = shape(raw)
        while isinstance(node, dict) and isinstance(ref := node.get("$ref"), str):
            target = self.lookup(ref, side)
            if ref in chain or len(chain) >= _MAX_HOPS:
                node = {k: v for k, v in node.items() if k != "$ref"}  # a loop adds nothing
                break
            if target is ABSENT:
                break  # cannot be followed: compared as an opaque keyword
            rest = {k: v for k, v in node.items() if k != "$ref"}
            if not chain:  # siblings are part of the identity: {$ref, maxLength} differs
                identity = ("$ref", ref, canon_json(rest))
            chain.append(ref)
            inner = shape(target)
            if not isinstance(inner, dict):
                node = inner
            elif (set(rest) & set(inner)) - ANNOTATION_KEYS:  # both constrain one keyword
                node = {**rest, "allOf": [target, *members_of(rest.get("allOf"))]}
            else:
                node = {**inner, **rest}
        if isinstance(node, dict) and "allOf" in node and depth < _MAX_LIFT and self.work > 0:
            node = self._lift(node, side, depth)
        return node, identity

    def _lift(self, node: dict[str, Any], side: int, depth: int) -> dict[str, Any]:
        """Merge ``allOf`` members into the node when no keyword could read a sibling."""
        members = node["allOf"]
        if not isinstance(members, list) or set(node) & INTERACTING:
            return node
        merged = {k: v for k, v in node.items() if k != "allOf"}
        for member in members:
            self.work -= 1
            shaped, _ = self.resolve(member, side, depth + 1)
            if not isinstance(shaped, dict) or set(shaped) & INTERACTING:
                return node
            if (set(shaped) & set(merged)) - ANNOTATION_KEYS:
                return node
            for key, value in shaped.items():
                merged.setdefault(key, value)
        return merged

    def compare(self, old: Any, new: Any, path: str, polarity: int = 1) -> Iterator[Reason]:
        if self.budget <= 0:
            return
        self.budget -= 1
        if self.budget == 0:
            yield Reason(WIDE, H, "schema too large to compare in full; graded as widened", path)
            return
        text = canon_json(old)
        if text == canon_json(new) and (self.same_defs or '"$ref"' not in text):
            return
        a, a_id = self.resolve(old, 0)
        b, b_id = self.resolve(new, 1)
        if a_id[0] == "$ref" or b_id[0] == "$ref":
            key = (a_id, b_id, polarity)
            if key in self.seen:
                return
            self.seen.add(key)
        if self.depth >= MAX_DEPTH:
            yield Reason(WIDE, H, "schema nested too deep to compare; graded as widened", path)
            return
        self.depth += 1
        try:
            yield from self._nodes(a, b, path, polarity)
        finally:
            self.depth -= 1

    def _nodes(self, a: Any, b: Any, path: str, pol: int) -> Iterator[Reason]:
        at = path or "(schema)"
        if not isinstance(a, dict) or not isinstance(b, dict):
            if canon_json(a) != canon_json(b):
                yield Reason("schema-changed", H, "schema is not an object; cannot compare", at)
            return
        if is_never(a) or is_never(b):
            if not (is_never(a) and is_never(b)):
                closed = is_never(b)
                words = (
                    "closed: now accepts no value (false)"
                    if closed
                    else "opened: accepted no value before (was false)"
                )
                found = direction(not closed, words, at, pol)
                if found.severity >= H and at.endswith(_UNDECLARED):
                    # No new name is offered to the model: what it may send is still what
                    # the named properties and the text tell it. Reviewable, not a gate.
                    found = Reason(WIDE, M, "opened: undeclared keys now accepted (was false)", at)
                yield found
            return
        if not b and a:  # replaced by `true`/`{}`: one reason, not one per lost keyword
            yield direction(True, "now accepts any value (every constraint removed)", at, pol)
            return
        for key in ("properties", "patternProperties", "dependentSchemas", "dependentRequired"):
            if (
                key in b
                and not isinstance(b[key], dict)
                and canon_json(a.get(key)) != canon_json(b[key])
            ):
                yield direction(
                    True, f"{key} is not an object: validators ignore it", f"{at}.{key}", pol
                )
        yield from self._properties(a, b, path, pol)
        yield from scalar_reasons(a, b, at, pol)
        for key in ANY_WHEN_ABSENT:
            if key in a or key in b:
                yield from self.compare(a.get(key, {}), b.get(key, {}), f"{at}.{key}", pol)
        yield from self._keyed(a, b, at, pol)
        yield from self._combinators(a, b, at, pol)
        yield from annotation_keyword_reasons(a, b, at)

    def _properties(
        self, a: dict[str, Any], b: dict[str, Any], path: str, pol: int
    ) -> Iterator[Reason]:
        o_props, n_props = as_dict(a.get("properties")), as_dict(b.get("properties"))
        o_req, n_req = set(str_list(a.get("required"))), set(str_list(b.get("required")))
        base = f"{path}.properties" if path else "properties"
        for name in sorted(set(n_props) - set(o_props)):
            yield _new_parameter(name, n_props[name], name in n_req, f"{base}.{name}", pol)
        for name in sorted(set(o_props) - set(n_props)):
            cat, band = ("parameter-removed", M) if pol > 0 else (WIDE, H)
            yield Reason(cat, band, f"parameter {name!r} removed", f"{base}.{name}")
        for name in sorted(set(o_props) & set(n_props)):
            yield from self.compare(o_props[name], n_props[name], f"{base}.{name}", pol)
        for name in sorted((o_req - n_req) & (set(n_props) | (o_req - set(o_props)))):
            yield direction(
                True, f"parameter {name!r} is no longer required", f"{base}.{name}", pol
            )
        for name in sorted(n_req - o_req):
            yield direction(False, f"parameter {name!r} is now required", f"{base}.{name}", pol)

    def _keyed(self, a: dict[str, Any], b: dict[str, Any], at: str, pol: int) -> Iterator[Reason]:
        """``patternProperties``, ``dependentRequired``, ``dependentSchemas``: maps of constraints."""
        for key in ("patternProperties", "dependentSchemas"):
            o, n = as_dict(a.get(key)), as_dict(b.get(key))
            for name in sorted(set(o) | set(n)):
                sub = f"{at}.{key}.{name}"
                # Without a closed additionalProperties a pattern entry is one more
                # constraint; with one, it is the only way such a name gets in.
                closed = not is_any(b.get("additionalProperties", {}))
                if name not in n:
                    opened = key == "dependentSchemas" or not closed
                    yield direction(opened, f"{key} entry {name!r} removed", sub, pol)
                elif name not in o:
                    yield direction(
                        key == "patternProperties" and closed,
                        f"{key} entry {name!r} added",
                        sub,
                        pol,
                    )
                else:
                    yield from self.compare(o[name], n[name], sub, pol)
        o_dep, n_dep = as_dict(a.get("dependentRequired")), as_dict(b.get("dependentRequired"))
        for name in sorted(set(o_dep) | set(n_dep)):
            before, after = set(str_list(o_dep.get(name))), set(str_list(n_dep.get(name)))
            if before != after:
                yield direction(
                    not before <= after,
                    f"dependentRequired for {name!r} changed",
                    f"{at}.dependentRequired.{name}",
                    pol,
                )

    def _combinators(
        self, a: dict[str, Any], b: dict[str, Any], at: str, pol: int
    ) -> Iterator[Reason]:
        for key in ("allOf", "anyOf", "oneOf", "prefixItems"):
            o, n = a.get(key, ABSENT), b.get(key, ABSENT)
            if o is ABSENT and n is ABSENT:
                continue
            if any(v is not ABSENT and not isinstance(v, list) for v in (o, n)):
                if canon_json(None if o is ABSENT else o) != canon_json(None if n is ABSENT else n):
                    yield Reason(WIDE, H, f"{key} is not a list; cannot compare", f"{at}.{key}")
                continue
            yield from self._members(key, o, n, at, pol)
        if "not" in a and "not" in b:
            yield from self.compare(a["not"], b["not"], f"{at}.not", -pol)
        elif "not" in a or "not" in b:
            yield direction(
                "not" in a, f"`not` {'removed' if 'not' in a else 'added'}", f"{at}.not", pol
            )
        if "if" in a and canon_json(a.get("if")) != canon_json(b.get("if")):
            yield Reason(WIDE, H, "the condition of if/then/else changed", f"{at}.if")
        for key in ("then", "else"):
            if key in a or key in b:
                yield from self.compare(a.get(key, {}), b.get(key, {}), f"{at}.{key}", pol)

    def _members(self, key: str, o: Any, n: Any, at: str, pol: int) -> Iterator[Reason]:
        path = f"{at}.{key}"
        if o is ABSENT or n is ABSENT:
            # A new combinator is one more constraint; a dropped one is one fewer.
            yield direction(
                n is ABSENT, f"{key} {'removed' if n is ABSENT else 'added'}", path, pol
            )
            return
        if key == "prefixItems":
            for i in range(max(len(o), len(n))):
                if i >= len(n):
                    yield direction(
                        True, f"position {i} no longer constrained", f"{path}[{i}]", pol
                    )
                elif i >= len(o):
                    yield direction(False, f"position {i} now constrained", f"{path}[{i}]", pol)
                else:
                    yield from self.compare(o[i], n[i], f"{path}[{i}]", pol)
            return
        common = {canon_json(m) for m in o} & {canon_json(m) for m in n}
        only_o = [m for m in o if canon_json(m) not in common]
        only_n = [m for m in n if canon_json(m) not in common]
        conj = key == "allOf"  # members of allOf all apply; anyOf/oneOf offer alternatives
        for i, (x, y) in enumerate(zip(only_o, only_n, strict=False)):
            yield from self.compare(x, y, f"{path}[{i}]", pol)
        for _ in only_o[len(only_n) :]:
            yield direction(
                conj, f"{key} {'constraint' if conj else 'alternative'} removed", path, pol
            )
        for _ in only_n[len(only_o) :]:
            yield direction(
                not conj, f"{key} {'constraint' if conj else 'alternative'} added", path, pol
            )


_UNDECLARED = (".additionalProperties", ".unevaluatedProperties")
_PARAM_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def _new_parameter(name: str, schema: Any, required: bool, at: str, pol: int) -> Reason:
    """A new required parameter is high; an optional one by what its name and text say."""
    req = "required" if required else "optional"
    if pol < 0:
        return Reason(WIDE, H, f"new {req} parameter {name!r}", at)
    if required:
        return Reason("parameter-added", H, f"new required parameter {name!r}", at)
    spoken = " ".join(_PARAM_WORDS.findall(name)).lower() if name.isascii() else name
    parts = (
        [schema.get(k) for k in ("description", "default", "examples", "title")]
        if isinstance(schema, dict)
        else []
    )
    strings = [p for p in parts if isinstance(p, str)] + [
        v for p in parts if isinstance(p, list) for v in p if isinstance(v, str)
    ]
    text = ". ".join([spoken, *strings])
    found = text_signals("", text)
    if detect_param(name)[1]:
        return Reason(
            "parameter-added", H, f"new optional parameter {name!r}: its name asks for text", at
        )
    if found or not name.isascii() or not name.isidentifier():
        why = "; ".join(sig.describe() for sig in found[:3]) or "its name is not plain ASCII"
        return Reason("parameter-added", H, f"new optional parameter {name!r}: {why}", at)
    return Reason(
        "parameter-added",
        M,
        f"new optional parameter {name!r}: its name and description ask for nothing new",
        at,
    )


def schema_reasons(old: Any, new: Any, path: str) -> Iterator[Reason]:
    """Every reason one schema differs from another; low only for an equivalent rewrite."""
    comparer = _Comparer(old, new)
    try:
        found = list(comparer.compare(old, new, path))
    except RecursionError:  # nesting near what a JSON parser accepts, plus our own frames
        found = [Reason(WIDE, H, "schema nested too deep to compare; graded as widened", path)]
    if comparer.opaque and not comparer.same_defs:
        where = f"{path}.$defs" if path else "$defs"
        found.append(
            Reason(
                WIDE,
                H,
                "definitions changed and a reference cannot be followed: it may reach them",
                where,
            )
        )
    if not found and canon_json(old) != canon_json(new):
        found = [
            Reason("schema-changed", L, "same constraints written another way", path or "(schema)")
        ]
    yield from found
