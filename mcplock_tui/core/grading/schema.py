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
    fmt_types,
    is_any,
    is_never,
    listed,
    members_of,
    permissive,
    pointer,
    scalar_reasons,
    shape,
    str_list,
    types_of,
)
from mcplock_tui.core.grading.text_delta import Signal, text_signals
from mcplock_tui.core.model import Reason, Severity

H, M, L = Severity.HIGH, Severity.MEDIUM, Severity.LOW
__all__ = ["MAX_DEPTH", "NARROW", "NODE_BUDGET", "WIDE", "schema_reasons"]

MAX_DEPTH = 64
"""Nesting below which a schema is graded high as a whole (and Python's stack is safe)."""
_MAX_HOPS = 32
_MAX_LIFT = 8


class _Comparer:
    """Compares two schema trees; state is the two roots, the pairs seen and a node budget."""

    def __init__(
        self,
        old_root: Any,
        new_root: Any,
        known: frozenset[str] = frozenset(),
        said: frozenset[str] = frozenset(),
    ) -> None:
        self.roots = (old_root, new_root)
        self.known = known
        """Hosts the server already names: a link to one in schema text is not new."""
        self.said = said
        """Roots of the tool's own name and text (see ``Delta.said``)."""
        self.seen: set[tuple[Any, Any, int]] = set()
        self.budget = NODE_BUDGET
        self.work = NODE_BUDGET
        self.depth = 0
        self.alternative = 0
        """Inside a new alternative of a union: the old alternatives still accept what they did."""
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
        if pol > 0 and (_union_key(a) or _union_key(b)):
            paired = self._unions(a, b, at, pol)
            if paired is not None:
                yield from paired
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
        yield from annotation_keyword_reasons(a, b, at, self.known, self.said)

    def _properties(
        self, a: dict[str, Any], b: dict[str, Any], path: str, pol: int
    ) -> Iterator[Reason]:
        o_props, n_props = as_dict(a.get("properties")), as_dict(b.get("properties"))
        o_req, n_req = set(str_list(a.get("required"))), set(str_list(b.get("required")))
        base = f"{path}.properties" if path else "properties"
        # In a new alternative the old ones still stand: a name it requires or lacks is the
        # shape of that alternative, not a demand on every call.
        alt = self.alternative > 0
        said = _said(o_props) if alt else ""
        for name in sorted(set(n_props) - set(o_props)):
            required = name in n_req and not alt
            yield _new_parameter(
                name, n_props[name], required, f"{base}.{name}", pol, said, self.known, self.said
            )
        for name in sorted(set(o_props) - set(n_props)) if not alt else ():
            cat, band = ("parameter-removed", M) if pol > 0 else (WIDE, H)
            if pol > 0 and is_gate_param(name, o_props[name]):
                # ``confirmed: const true`` or ``dry_run`` gone: the check it forced is gone.
                yield Reason(
                    WIDE,
                    H,
                    f"parameter {name!r} removed: it was a confirmation or safety check",
                    f"{base}.{name}",
                )
                continue
            yield Reason(cat, band, f"parameter {name!r} removed", f"{base}.{name}")
        for name in sorted(set(o_props) & set(n_props)):
            yield from self.compare(o_props[name], n_props[name], f"{base}.{name}", pol)
        for name in sorted((o_req - n_req) & (set(n_props) | (o_req - set(o_props)))):
            yield direction(
                True, f"parameter {name!r} is no longer required", f"{base}.{name}", pol
            )
        for name in sorted(n_req - o_req) if not alt else ():
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

    def _alternatives(self, node: dict[str, Any], side: int, depth: int = 0) -> list[Any]:
        """The alternatives a node offers: its union's members (nested unions and references
        to unions flattened), each carrying the union's own annotations; else the node."""
        key = _union_key(node)
        if key is None:
            return [node]
        notes = {k: v for k, v in node.items() if k in ANNOTATION_KEYS}
        out: list[Any] = []
        for member in node[key]:
            shaped, _ = self.resolve(member, side)
            if depth < _MAX_LIFT and isinstance(shaped, dict) and _union_key(shaped):
                out.extend(self._alternatives(shaped, side, depth + 1))
            elif notes and isinstance(member, dict):
                out.append({**notes, **member})
            else:
                out.append(member)
            if len(out) > _MAX_ALTERNATIVES:
                break
        unique = {canon_json(m): m for m in out}
        return list(unique.values())

    def _unions(
        self, a: dict[str, Any], b: dict[str, Any], at: str, pol: int
    ) -> list[Reason] | None:
        """Alternatives compared by what each new one adds to the old ones it is closest to.

        A schema rewritten as ``anyOf: [old, {"type": "string"}]`` still accepts what it did
        plus one more kind of value: that is not "any". Each new alternative is compared with
        the old alternative it differs least from (sharing a type); one of a type no old
        alternative had is compared with a bare value of its type, so its named fields and
        text are graded like new optional parameters. None when the unions are too large to
        pair up (the plain comparison then applies).
        """
        olds, news = self._alternatives(a, 0), self._alternatives(b, 1)
        if len(olds) * len(news) > _MAX_ALTERNATIVES * 2 or not olds or not news:
            return None
        key = _union_key(b)
        out: list[Reason] = []
        used: set[int] = set()
        old_types = [_types(self.resolve(o, 0)[0]) for o in olds]
        for j, n in enumerate(news):
            sub = f"{at}.{key}[{j}]" if key else at
            n_types = _types(self.resolve(n, 1)[0])
            near = [i for i, t in enumerate(old_types) if _overlap(t, n_types)]
            if not near:
                out.extend(self._new_kind(old_types, n, n_types, sub, pol))
                continue
            best: tuple[tuple[int, int], int, list[Reason]] | None = None
            for i in near:
                seen = set(self.seen)
                trial = self._in_alternative(olds[i], n, sub, pol)
                self.seen = seen
                score = (max((r.severity for r in trial), default=0), len(trial))
                if best is None or score < best[0]:
                    best = (score, i, trial)
                if not trial:
                    break
            assert best is not None
            used.add(best[1])
            out.extend(best[2])
        for i in range(len(olds)):
            if i not in used:
                at_key = f"{at}.{_union_key(a) or 'anyOf'}"
                out.append(direction(False, "an alternative removed", at_key, pol))
        return out

    def _in_alternative(self, old: Any, new: Any, path: str, pol: int) -> list[Reason]:
        self.alternative += 1
        try:
            return list(self.compare(old, new, path, pol))
        finally:
            self.alternative -= 1

    def _new_kind(
        self,
        old_types: list[frozenset[str] | None],
        new: Any,
        types: frozenset[str] | None,
        path: str,
        pol: int,
    ) -> list[Reason]:
        """A new alternative of a type no old one had: one more kind of value (medium), and
        whatever fields or text it declares, graded against a bare value of its type."""
        before = frozenset().union(*(t for t in old_types if t is not None))
        after = before | (types or frozenset())
        shown = f"{fmt_types(before)} to {fmt_types(after)}"
        many = listed(before, after)
        found = [
            Reason(
                WIDE, M, f"type widened from {shown} (an alternative of another type){many}", path
            )
        ]
        bare = {"type": sorted(types or ())}
        return found + self._in_alternative(bare, new, path, pol)


_MAX_ALTERNATIVES = 32


def _union_key(node: Any) -> str | None:
    """``anyOf``/``oneOf`` when it is all the node constrains (annotations aside)."""
    if not isinstance(node, dict):
        return None
    keys = set(node) - ANNOTATION_KEYS
    if len(keys) != 1:
        return None
    key = next(iter(keys))
    members = node[key]
    ok = key in ("anyOf", "oneOf") and isinstance(members, list) and bool(members)
    return key if ok else None


def _types(node: Any) -> frozenset[str] | None:
    return types_of(node.get("type")) if isinstance(node, dict) else None


def _overlap(x: frozenset[str] | None, y: frozenset[str] | None) -> bool:
    if x is None or y is None:
        return True
    numeric = {"integer", "number"}
    return bool(x & y) or bool(x & numeric and y & numeric)


_UNDECLARED = (".additionalProperties", ".unevaluatedProperties")
_PARAM_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def _said(props: dict[str, Any]) -> str:
    """What the properties of an old alternative already told the model."""
    texts = [p.get("description") for p in list(props.values())[:200] if isinstance(p, dict)]
    return ". ".join(t for t in texts if isinstance(t, str))[:MAX_SAID]


MAX_SAID = 16_384
_SCOPE = re.compile(r"\b(?:all|every|everything|entire|whole|any|recursive(?:ly)?|bulk)\b", re.I)
"""Scope in a new switch ("all_instances", "Stop every instance"): raised on a tool that acts."""
FLAG = "a true/false switch that"
"""Marks a new boolean parameter whose only signal is a scope word (see severity)."""


def _new_parameter(
    name: str,
    schema: Any,
    required: bool,
    at: str,
    pol: int,
    said: str = "",
    known: frozenset[str] = frozenset(),
    tool_said: frozenset[str] = frozenset(),
) -> Reason:
    """A new required parameter is high; an optional one by what its name and text say.

    ``said``: text the old alternative's fields already carried (a new alternative that
    repeats "where you want to add" in one more field adds no directive); ``tool_said``:
    roots of the tool's own name and text, whose capability words are not new here
    ("Only return runs at this level" on ``list_qc_runs``).
    """
    req = "required" if required else "optional"
    if pol < 0:
        return Reason(WIDE, H, f"new {req} parameter {name!r}", at)
    spoken = " ".join(_PARAM_WORDS.findall(name)).lower() if name.isascii() else name
    parts = (
        [schema.get(k) for k in ("description", "default", "examples", "title")]
        if isinstance(schema, dict)
        else []
    )
    strings = [p for p in parts if isinstance(p, str)] + [
        v for p in parts if isinstance(p, list) for v in p if isinstance(v, str)
    ]
    # The name is a label, not a sentence: "reply to" or "tell count" commands nothing, so
    # it is read after a noun ("you", "always cc" and scope words still count).
    text = ". ".join([f"field {spoken}", *strings])
    switch = isinstance(schema, dict) and schema.get("type") == "boolean"
    # A switch's words say what turning it on does, however familiar ("permanent: delete
    # the item for good"): only other fields borrow the tool's own words.
    found = text_signals(said, text, known, frozenset() if switch else tool_said)
    if tool_said and not switch:
        # The name is the field's own claim ("share_with"): the tool's words never cover it.
        found += [s for s in text_signals(said, f"field {spoken}", known) if s not in found]
    if (
        isinstance(schema, dict)
        and isinstance(schema.get("enum"), list)
        and schema["enum"]
        and not _default_told(schema)
    ):
        # A closed list of values ("main", "north") cannot carry what the model was told;
        # unless the text says what the default value brings back ("with_identities
        # resolves each code to a real name"): then every call leaving it out returns that.
        found = [sig for sig in found if sig.kind != "harvest"]
    why = _what_it_opens(name, schema, f"{spoken}. {text}")
    answered = [sig for sig in found if sig.kind in ("authority", "override")]
    if why == _CONFIRMATION and answered:
        # "set to true when the caller says the prescriber has already agreed": the field
        # lets the model answer for the person whose consent it stands for.
        said_so = "; ".join(sig.describe() for sig in answered[:2])
        return Reason(
            "parameter-added",
            H,
            f"new {req} parameter {name!r}: {why} its text answers for the person ({said_so})",
            at,
        )
    if why is not None:
        band = M if why == _CONFIRMATION else H
        return Reason("parameter-added", band, f"new {req} parameter {name!r}: {why}", at)
    flag = isinstance(schema, dict) and schema.get("type") == "boolean"
    if flag and not found and _SCOPE.search(text):
        found = [Signal("capability", tuple(dict.fromkeys(_SCOPE.findall(text))))]
    if found and flag and all(sig.kind == "capability" for sig in found):
        # include_forwarded, include_shared: a switch on what is returned; high on a tool
        # that acts (severity raises it there), where a switch can change the effect.
        why = "; ".join(sig.describe() for sig in found[:3])
        return Reason("parameter-added", M, f"new {req} parameter {name!r}: {FLAG} {why}", at)
    if found or not name.isascii() or not name.isidentifier():
        why = "; ".join(sig.describe() for sig in found[:3]) or "its name is not plain ASCII"
        return Reason("parameter-added", H, f"new {req} parameter {name!r}: {why}", at)
    # A new required field the model must fill is read the same way as an optional one:
    # an audit ``reason`` or an ``idempotency_key`` asks for nothing; a harvesting name or
    # text is high above.
    return Reason(
        "parameter-added",
        M,
        f"new {req} parameter {name!r}: its name and description ask for nothing new",
        at,
    )


def _default_told(schema: dict[str, Any]) -> bool:
    """The default is a value other than the first, and the description names it."""
    default, values, text = schema.get("default"), schema["enum"], schema.get("description")
    return (
        isinstance(default, str)
        and isinstance(text, str)
        and len(default) >= 3
        and default != values[0]
        and default.casefold() in text[:4096].casefold()
    )


_CONFIRMATION = "a confirmation field"


def _what_it_opens(name: str, schema: Any, text: str) -> str | None:
    """Why a new parameter is high by its kind alone, or that it is a new confirmation
    field (medium), or None to read its text."""
    enum = schema.get("enum") if isinstance(schema, dict) else None
    if not isinstance(enum, list):  # hostile: "enum": true
        enum = None
    ranked = [v for v in enum if isinstance(v, str) and _PROTECTED.search(v)] if enum else []
    if ranked:
        shown = ", ".join(repr(v) for v in ranked[:3])
        return f"it can sort or filter by a protected characteristic ({shown})"
    if detect_param(name)[1]:
        return "its name asks for text"
    flag_like = isinstance(schema, dict) and (
        schema.get("type") == "boolean" or schema.get("const") is True
    )
    if flag_like and is_gate_param(name, schema) and not _permissive_default(name, schema):
        return _CONFIRMATION  # ``confirm_external: const true``: one more check to pass
    tenants = _TENANTS.search(text)
    if tenants:
        return f"it reaches other tenants' data ({tenants.group(0)!r})"
    unmasks = _UNMASK.search(text)
    if unmasks:
        return f"it can lift masking or redaction ({unmasks.group(0)!r})"
    return None


_UNMASK = re.compile(
    r"\b(?:reveal\w*|unmask\w*|unredact\w*|plain ?text|clear ?text|decrypt\w*|"
    r"(?:full|raw|real|whole|complete|unmasked|actual) (?:secret|password|token|key|card|"
    r"account|credential)s?(?: values?| numbers?)?|"
    r"(?:show|return|include|expose)s? (?:the )?(?:full |raw )?(?:secret|password|token|"
    r"credential)s?(?: values?)?|without (?:any )?mask\w*|instead of (?:the )?masked)\b",
    re.IGNORECASE,
)
"""A switch or field that lifts masking: secret values, full card or account numbers."""

_PROTECTED = re.compile(
    r"(?:^|_|\b)(?:age|gender|sex|race|ethnicity|religion|disability|pregnancy|marital\w*|"
    r"nationality|national_origin|birth_?year|date_of_birth|dob|graduation_?year|"
    # Proxies in housing, lending and hiring: familial status, language, income source.
    r"children|kids|no_?kids|adults?_?only|famil(?:y|ies|ial)\w*|english\w*|native\w*|"
    r"accent|vouchers?|section_?8|citizen\w*|immigra\w*|veteran\w*|pregnan\w*|disab\w*|"
    r"religio\w*)(?:$|_|\b)",
    re.IGNORECASE,
)
_TENANTS = re.compile(
    r"\bevery (?:store|tenant|workspace|organi[sz]ation|account|customer|team|project|shop)s? on "
    r"the\b|\ball (?:stores|tenants|workspaces|organi[sz]ations|orgs|shops)\b|"
    r"\bplatform-wide\b|\bcross-tenant\b|\bacross (?:all )?(?:stores|tenants|workspaces|"
    r"organi[sz]ations|orgs|shops)\b",
    re.IGNORECASE,
)
"""A switch that reaches past the caller's own store or workspace."""
_GATE_NAME = re.compile(
    r"(?:^|_)(?:confirm\w*|approv\w*|consent\w*|acknowledg\w*|ack|dry_?run|preview|"
    r"verif\w*|two_?factor|2fa|otp|sign_?off|change_?ticket)(?:$|_)",
    re.IGNORECASE,
)


def _permissive_default(name: str, schema: dict[str, Any]) -> bool:
    default = schema.get("default")
    return isinstance(default, bool) and permissive(name, default)


def is_gate_param(name: str, schema: Any) -> bool:
    """A parameter that made the caller confirm, preview or prove something: ``confirmed``
    (often ``const: true``), ``dry_run``, ``approval_code``."""
    if _GATE_NAME.search(name):
        return True
    return isinstance(schema, dict) and schema.get("const") is True


def schema_reasons(
    old: Any,
    new: Any,
    path: str,
    known_hosts: frozenset[str] = frozenset(),
    said: frozenset[str] = frozenset(),
) -> Iterator[Reason]:
    """Every reason one schema differs from another; low only for an equivalent rewrite.

    ``known_hosts``: hosts the server's pinned surface names, so a docs link on one of them
    inside schema text grades as plain text; ``said``: roots of the tool's own name and text,
    whose capability words in a parameter's description are not new."""
    comparer = _Comparer(old, new, known_hosts, said)
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
