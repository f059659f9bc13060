"""What each JSON Schema keyword means for grading: its normal form and its leaf rules.

The normal form folds spellings that accept the same values into one (``true`` and ``{}``,
``const`` and a one-value ``enum``, draft-4 boolean exclusive bounds, a sorted ``type`` set with
``integer`` folded into ``number``, keywords at their default dropped, bounds that are not
numbers dropped since validators ignore them). Leaf rules compare one node's own keywords;
walking into sub-schemas and following references is ``schema_grade``'s job. Failure
direction: a keyword this module does not know is reported as changed (medium) rather than
folded away, so only differences it understands can vanish.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import unquote

from mcplock_tui.core.canonical import canon_json
from mcplock_tui.core.grading.regex_subset import pattern_subset
from mcplock_tui.core.grading.text import clip, text_reason, title_reason
from mcplock_tui.core.grading.text_delta import said_roots, text_signals
from mcplock_tui.core.model import Reason, Severity

H, M = Severity.HIGH, Severity.MEDIUM
WIDE, NARROW = "capability-widened", "capability-narrowed"
NODE_BUDGET = 4000
"""Schema nodes looked at per item before the rest is graded high as a whole."""
NEVER: dict[str, Any] = {"not": {}}
ABSENT: Any = object()

UPPER = {"maxLength", "maxItems", "maxProperties", "maxContains"}
LOWER = {"minLength", "minItems", "minProperties", "minContains"}
ZERO_DEFAULT = {"minLength", "minItems", "minProperties"}
STRINGY = ("pattern", "format", "contentEncoding", "contentMediaType")
ANY_WHEN_ABSENT = (
    "additionalProperties",
    "unevaluatedProperties",
    "items",
    "additionalItems",
    "unevaluatedItems",
    "propertyNames",
    "contains",
    "contentSchema",
)
HANDLED = {
    "$ref", "type", "enum", "properties", "required", "maximum", "exclusiveMaximum",
    "minimum", "exclusiveMinimum", "multipleOf", "uniqueItems", "patternProperties",
    "dependentRequired", "dependentSchemas", "allOf", "anyOf", "oneOf", "not", "if", "then",
    "else", "prefixItems", "title", "default", "examples", "$defs", "definitions",
    *UPPER, *LOWER, *STRINGY, *ANY_WHEN_ABSENT,
}  # fmt: skip
INTERACTING = {
    "properties", "patternProperties", "additionalProperties", "unevaluatedProperties",
    "items", "prefixItems", "additionalItems", "unevaluatedItems", "contains", "minContains",
    "maxContains", "if", "then", "else", "$ref",
}  # fmt: skip
"""Keywords that read their siblings: a combinator holding them is never merged upwards."""
ANNOTATION_KEYS = {
    "title", "description", "default", "examples", "$comment", "deprecated", "readOnly",
    "writeOnly", "$id", "$schema", "$anchor", "$dynamicAnchor", "markdownDescription",
}  # fmt: skip
"""Keywords that constrain nothing: when two merged nodes both carry one, the outer wins."""


def is_text_key(key: str) -> bool:
    return key == "$comment" or key.casefold().endswith("description")


def number(value: Any) -> float | int | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def is_any(schema: Any) -> bool:
    return schema is True or (isinstance(schema, dict) and not schema)


def is_never(schema: Any) -> bool:
    return schema is False or (
        isinstance(schema, dict) and list(schema) == ["not"] and is_any(schema["not"])
    )


def types_of(value: Any) -> frozenset[str] | None:
    """The JSON types admitted; None means any. ``number`` includes ``integer``."""
    if isinstance(value, str):
        names = {value}
    elif isinstance(value, list):
        names = {v for v in value if isinstance(v, str)}
    else:
        return None
    if "number" in names:
        names.discard("integer")
    return frozenset(names)


def shape(raw: Any) -> Any:
    """One node in normal form (children untouched); non-schemas are returned as they are."""
    if raw is True:
        return {}
    if raw is False:
        return dict(NEVER)
    if not isinstance(raw, dict):
        return raw
    s = dict(raw)
    if is_any(s.get("not", {})) and "not" in s:
        return dict(NEVER)
    if "type" in s and (types := types_of(s["type"])) is not None:
        s["type"] = sorted(types)
    if "const" in s:
        const = s.pop("const")
        if isinstance(s.get("enum"), list):
            s["enum"] = [v for v in s["enum"] if canon_json(v) == canon_json(const)]
        else:
            s["enum"] = [const]
    if isinstance(s.get("enum"), list):
        s["enum"] = sorted({canon_json(v): v for v in s["enum"]}.values(), key=canon_json)
    for plain, excl in (("maximum", "exclusiveMaximum"), ("minimum", "exclusiveMinimum")):
        if isinstance(s.get(excl), bool):  # draft 4: a flag on the plain bound
            flag = s.pop(excl)
            if flag and number(s.get(plain)) is not None:
                s[excl] = s.pop(plain)
        for key in (plain, excl):
            if key in s and number(s[key]) is None:
                del s[key]
    for key in (*UPPER, *LOWER, "multipleOf"):
        if key in s and (number(s[key]) is None or (key in ZERO_DEFAULT and s[key] == 0)):
            del s[key]
    if s.get("uniqueItems") is False:
        del s["uniqueItems"]
    if isinstance(s.get("required"), list):
        s["required"] = sorted({v for v in s["required"] if isinstance(v, str)})
    if isinstance(s.get("items"), list):  # draft 4 tuple form
        s["prefixItems"] = s.pop("items")
        if "additionalItems" in s:
            s["items"] = s.pop("additionalItems")
    deps = s.pop("dependencies", None)
    if isinstance(deps, dict):
        for name, dep in deps.items():
            target = "dependentRequired" if isinstance(dep, list) else "dependentSchemas"
            if not isinstance(s.get(target), dict):  # hostile: `"dependentRequired": null`
                s[target] = {}
            s[target].setdefault(name, dep)
    elif deps is not None:
        s["dependencies"] = deps
    for key in ("anyOf", "allOf"):
        members = s.get(key)
        if isinstance(members, list):
            if key == "anyOf" and any(is_any(m) for m in members):
                del s[key]  # one alternative accepts anything: no constraint at all
            elif key == "allOf":
                s[key] = [m for m in members if not is_any(m)]
    droppable = (*ANY_WHEN_ABSENT, "properties", "patternProperties", "dependentRequired",
                 "dependentSchemas", "required", "allOf")  # fmt: skip
    for key in droppable:
        if key == "contains":
            continue  # `contains: {}` still demands a non-empty array
        if key in s and (is_any(s[key]) or s[key] == []):
            del s[key]
    return s


def pointer(root: Any, ref: str) -> Any:
    """Follow a JSON pointer fragment (``#/$defs/A``); ``ABSENT`` when it leads nowhere."""
    if ref != "#" and not ref.startswith("#/"):
        return ABSENT
    node = root
    for part in ref[2:].split("/") if ref != "#" else []:
        token = unquote(part).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return ABSENT
    return node


def anchor_index(root: Any) -> dict[str, Any]:
    """Embedded schemas by ``$id`` and by ``#anchor``, so ``urn:x`` and ``#node`` resolve."""
    found: dict[str, Any] = {}
    stack, seen = [root], 0
    while stack and seen < NODE_BUDGET:
        node = stack.pop()
        seen += 1
        if isinstance(node, dict):
            for key, prefix in (("$id", ""), ("$anchor", "#"), ("$dynamicAnchor", "#")):
                if isinstance(node.get(key), str):
                    found.setdefault(prefix + node[key], node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def direction(widened: bool, message: str, path: str, polarity: int) -> Reason:
    """A widened or narrowed reason; under ``not`` the direction flips."""
    if polarity < 0:
        message = f"{message}, inside `not`"
    if widened == (polarity > 0):
        return Reason(WIDE, H, message, path)
    return Reason(NARROW, M, message, path)


def fmt_types(types: frozenset[str] | None) -> str:
    return "any" if types is None else "|".join(sorted(types)) or "none"


LISTED = "one value becomes a list of them"


def listed(before: frozenset[str] | None, after: frozenset[str] | None) -> str:
    """``"; one value becomes a list of them"`` when a scalar-only type gains ``array``: each
    call can now name many targets."""
    if before and after and "array" in after and not before - _SCALARS and "array" not in before:
        return f"; {LISTED}"
    return ""


Bound = tuple[float, bool, str, Any]
"""(value, exclusive, keyword, value as written)."""


def bound(s: Mapping[str, Any], upper: bool) -> Bound | None:
    """The tightest numeric bound; None when unbounded."""
    plain, excl = ("maximum", "exclusiveMaximum") if upper else ("minimum", "exclusiveMinimum")
    found = [(as_float(s[k]), k == excl, k, s[k]) for k in (plain, excl) if k in s]
    if not found:
        return None
    sign = 1 if upper else -1
    return min(found, key=lambda b: (sign * b[0], not b[1]))


def as_float(value: float) -> float:
    try:
        return float(value)
    except OverflowError:  # an integer beyond any float: as good as infinite
        return float("inf") if value > 0 else float("-inf")


def bound_looser(o: Bound | None, n: Bound | None, upper: bool) -> bool | None:
    """True if ``n`` admits more than ``o``, False if fewer, None if the same."""
    if (o and o[:2]) == (n and n[:2]):
        return None
    if n is None or o is None:
        return n is None
    sign = 1 if upper else -1
    if o[0] != n[0]:
        return sign * (n[0] - o[0]) > 0
    return o[1] and not n[1]


_QUANT = re.compile(r"(?<![\\(])(?:\{(\d{1,6})(?:(,)(\d{0,6}))?\}|[*+?])")
_INF = float("inf")


def _ranges(pattern: str) -> tuple[str, list[tuple[float, float]]]:
    """A pattern's skeleton with each quantifier taken out, and the quantifiers' ranges."""
    out: list[tuple[float, float]] = []

    def take(m: re.Match[str]) -> str:
        q = m.group(0)
        if q in "*+?":
            out.append({"*": (0.0, _INF), "+": (1.0, _INF), "?": (0.0, 1.0)}[q])
        else:
            low = float(m.group(1))
            high = low if m.group(2) is None else float(m.group(3)) if m.group(3) else _INF
            out.append((low, high))
        return "\x00"

    return _QUANT.sub(take, pattern), out


def pattern_narrowed(old: Any, new: Any) -> bool:
    """``^CHG-[0-9]{4,8}$`` -> ``^CHG-[0-9]{6}$``: the same pattern with every repeat count
    inside the old one's range; ``^[A-Z]{3}$`` -> ``^(USD|EUR)$``: a list of plain values
    the old pattern takes; otherwise the two patterns' languages compared (capped, see
    :mod:`regex_subset`). Each proves the new one matches a subset. Anything else is not
    proven."""
    if not (isinstance(old, str) and isinstance(new, str)) or len(old) + len(new) > 4096:
        return False
    if _values_taken(old, new) or _prefix_extended(old, new):
        return True
    (a, ra), (b, rb) = _ranges(old), _ranges(new)
    if a == b and len(ra) == len(rb):
        return all(o[0] <= n[0] and n[1] <= o[1] for o, n in zip(ra, rb, strict=True))
    return pattern_subset(old, new) is True


def _top_level_alternation(pattern: str) -> bool:
    """A ``|`` outside every group and character class: it splits the whole pattern."""
    depth, in_class, escaped = 0, False, False
    for ch in pattern:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            return True
    return False


def _prefix_extended(old: str, new: str) -> bool:
    """``^https://`` -> ``^https://[a-z0-9.-]+/``: a start-anchored pattern with more
    required after it. Patterns search, so the old one took any text that starts the same
    way; the new one takes only some of it."""
    return (
        old.startswith("^")
        and new.startswith(old)
        and len(new) > len(old)
        and not old.endswith(("$", "\\"))
        and not _top_level_alternation(new)
        and new[len(old)] not in "*+?{|"  # "^https?" would make the old end optional
    )


_VALUE_LIST = re.compile(
    r"\^(?:\((?:\?:)?([A-Za-z0-9_ -]{1,64}(?:\|[A-Za-z0-9_ -]{1,64}){0,199})\)"
    r"|([A-Za-z0-9_ -]{1,64}))\$"
)
"""``^(USD|EUR|GBP)$``, ``^(?:prod|dev)$``, ``^USD$``: an anchored list of plain values."""
_SIMPLE = re.compile(
    r"\^?(?:(?:\[[^\]\\]{1,64}\]|\\[dwsDWS.\-]|[A-Za-z0-9_ :/.-])"
    r"(?:\{\d{1,3}(?:,\d{0,3})?\}|[*+?])?){1,64}\$?"
)
"""A pattern of single characters, classes and repeats, no groups or alternatives: one
that a listed value can be tried against without a run-away search."""
_OPEN_REPEAT = re.compile(r"[*+?]|\{\d{1,3},\d{0,3}\}")


def _values_taken(old: str, new: str) -> bool:
    """``new`` is an anchored list of plain values, each of which ``old`` accepts (JSON
    Schema patterns search, so ``old`` is searched, as a validator would)."""
    listed = _VALUE_LIST.fullmatch(new)
    if listed is None or not _SIMPLE.fullmatch(old) or len(_OPEN_REPEAT.findall(old)) > 2:
        return False  # more open repeats than two could search for long on a crafted value
    try:
        accepts = re.compile(old).search
    except (re.error, RecursionError, OverflowError):
        return False
    values = (listed.group(1) or listed.group(2)).split("|")
    return all(accepts(value) is not None for value in values)


def _goes_negative(o: Bound | None, n: Bound | None) -> bool:
    """The floor now admits values below zero that it did not."""
    return o is not None and o[0] >= 0 and (n is None or n[0] < 0)


def show_bound(found: Bound | None) -> str:
    if found is None:
        return "none"
    return f"{found[3]!r} exclusive" if found[1] else repr(found[3])


_SCALARS = frozenset({"string", "number", "integer", "boolean", "null"})


def scalar_reasons(a: dict[str, Any], b: dict[str, Any], at: str, pol: int) -> Iterator[Reason]:
    ot, nt = types_of(a.get("type")), types_of(b.get("type"))
    if ot != nt:
        wider = nt is None or (ot is not None and not nt <= ot)
        found = direction(
            wider,
            f"type {'widened' if wider else 'narrowed'} from {fmt_types(ot)} to {fmt_types(nt)}"
            + (listed(ot, nt) if wider else ""),
            at,
            pol,
        )
        if found.severity >= H and ot and nt is not None and (nt - ot) <= _SCALARS:
            # One more scalar spelling (a flag that also takes "true", a number as text):
            # no new structure to fill, and nothing the text does not already ask for.
            found = Reason(found.category, M, f"{found.message} (a scalar alternative)", at)
        yield found
    o_enum, n_enum = a.get("enum"), b.get("enum")
    if canon_json(o_enum) != canon_json(n_enum):
        ov = {canon_json(v) for v in o_enum} if isinstance(o_enum, list) else None
        nv = {canon_json(v) for v in n_enum} if isinstance(n_enum, list) else None
        wider = nv is None or (ov is not None and not nv <= ov)
        found = direction(
            wider,
            f"allowed values {'loosened' if wider else 'narrowed'} (enum/const)",
            f"{at}.enum",
            pol,
        )
        if (
            found.severity >= H
            and isinstance(o_enum, list)
            and isinstance(n_enum, list)
            and {canon_json(v) for v in o_enum} <= {canon_json(v) for v in n_enum}
        ):
            found = _values_added(o_enum, n_enum, f"{at}.enum") or found
        yield found
    for key in (*STRINGY, "$ref"):
        o, n = a.get(key, ABSENT), b.get(key, ABSENT)
        if canon_json(o if o is not ABSENT else None) == canon_json(n if n is not ABSENT else None):
            continue
        if o is ABSENT:
            yield direction(False, f"{key} added", f"{at}.{key}", pol)
        elif key == "pattern" and pattern_narrowed(o, n):
            yield direction(
                False, f"pattern narrowed from {clip(o)} to {clip(n)}", f"{at}.{key}", pol
            )
        else:
            how = "removed" if n is ABSENT else f"changed from {clip(o)} to {clip(n)}"
            yield direction(True, f"{key} {how}", f"{at}.{key}", pol)
    yield from _limit_reasons(a, b, at, pol)
    o, n = a.get("multipleOf"), b.get("multipleOf")
    if o != n:
        looser = n is None or (o is not None and not (n % o == 0 if o else False))
        yield direction(looser, _limit_words("multipleOf", o, n, looser), f"{at}.multipleOf", pol)
    if a.get("uniqueItems") != b.get("uniqueItems"):
        looser = b.get("uniqueItems") is not True
        how = "dropped: duplicates now accepted" if looser else "added: items must now be unique"
        yield direction(looser, f"uniqueItems {how}", f"{at}.uniqueItems", pol)


_PROTECTIVE = re.compile(
    r"notice|cooling|grace|waiting|witness|approv|reviewer|signator|signature|sign.?off|"
    r"confirmation|second.?person|four.?eyes",
    re.I,
)


def _protective_floor(at: str, node: dict[str, Any]) -> bool:
    """A minimum on a notice period, a cooling-off wait or a count of approvers: lowering
    it takes protection away from a person, unlike a threshold that only filters."""
    name = at.rpartition(".")[2]
    text = node.get("description")
    return bool(
        _PROTECTIVE.search(name) or (isinstance(text, str) and _PROTECTIVE.search(text[:500]))
    )


def _limit_reasons(a: dict[str, Any], b: dict[str, Any], at: str, pol: int) -> Iterator[Reason]:
    """Numeric bounds and length or count limits. A lower floor (a threshold from 50 to 10,
    a shorter minLength) lets smaller values through and is medium; what grows an act's
    reach is a raised maximum or a floor dropped below zero (a negative amount turns a
    payment around)."""
    for upper in (True, False):
        o_b, n_b = bound(a, upper), bound(b, upper)
        looser = bound_looser(o_b, n_b, upper)
        if looser is not None:
            name = (n_b or o_b or (0, False, "maximum"))[2]
            how = "loosened" if looser else "tightened"
            found = direction(
                looser,
                f"{name} {how} ({show_bound(o_b)} -> {show_bound(n_b)})",
                f"{at}.{name}",
                pol,
            )
            if (
                found.severity >= H
                and not upper
                and not _goes_negative(o_b, n_b)
                and not _protective_floor(at, b)
            ):
                found = Reason(found.category, M, f"{found.message} (a lower floor)", found.path)
            elif found.severity >= H and not upper and _protective_floor(at, b):
                found = Reason(
                    found.category,
                    H,
                    f"{found.message}: a floor that protects someone (a notice period, a "
                    "number of approvers or witnesses) lowered",
                    found.path,
                )
            yield found
    for key in sorted(UPPER | LOWER):
        o, n = a.get(key), b.get(key)
        if o != n:
            sign = 1 if key in UPPER else -1
            looser = n is None or (o is not None and sign * (n - o) > 0)
            found = direction(looser, _limit_words(key, o, n, looser), f"{at}.{key}", pol)
            if found.severity >= H and key in LOWER:
                found = Reason(found.category, M, f"{found.message} (a lower floor)", found.path)
            yield found


VALUES_ADDED = "allowed values loosened by named values"
"""Marks an enum that kept its values and gained named ones (severity: high where the
parameter names where an acting tool's effect goes)."""


# Digits written onto letters stay with them: ``pm25``, ``co2`` are names, not counts.
_IDENT_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+[0-9]*|[A-Z]+[0-9]*|[0-9]+|[^\W\d_]+")


def _spoken(value: str) -> str:
    """``all_customers_including_payment`` read as the words it is made of."""
    return " ".join(_IDENT_PARTS.findall(value)) if value.isascii() else value


_PROSE_WORDS = 6


def _prose(value: str) -> bool:
    """A value that is a sentence or carries a remark ("cleanup (no check needed)"): an
    enum value is a label; words the model reads as advice do not belong in one."""
    words = value.split()
    return len(words) >= _PROSE_WORDS or ("(" in value and len(words) >= 3)


def _values_added(old: list[Any], new: list[Any], path: str) -> Reason | None:
    """An enum that kept every value and gained a few plain ones (a new region, a new
    format): each new value is named and reviewable, not a door to any value. High when a
    new value's text steers the model; None when the values are not plain."""
    before = {canon_json(v) for v in old}
    added = [v for v in new if canon_json(v) not in before]
    plain = all(
        v is None or isinstance(v, bool | int | float) or (isinstance(v, str) and len(v) <= 64)
        for v in added
    )
    if not added or len(added) > 20 or not plain:
        return None
    words = [_spoken(v) for v in old if isinstance(v, str)]
    said = "\n".join(f"value {_spoken(v)}" for v in added if isinstance(v, str))  # labels
    found = text_signals("\n".join(words), said)
    # Read as words, "email+copy:qa@example.net" loses its address: look for places as written.
    raw = "\n".join(v for v in added if isinstance(v, str))
    found += [
        sig for sig in text_signals("\n".join(str(v) for v in old), raw) if sig.kind == "entity"
    ]
    shown = ", ".join(clip(v, 30) for v in added[:5])
    prose = [v for v in added if isinstance(v, str) and _prose(v)]
    if (
        found
        or prose
        or any("*" in v or _SCOPE_VALUE.search(_spoken(v)) for v in added if isinstance(v, str))
    ):
        why = "; ".join(sig.describe() for sig in found[:3]) or (
            "a value that reads as a sentence" if prose else "a scope word"
        )
        return Reason(WIDE, H, f"{VALUES_ADDED} ({shown}): {why}", path)
    if any(_OUTWARD_VALUE.search(_spoken(v)) for v in added if isinstance(v, str)):
        return Reason(WIDE, M, f"{VALUES_ADDED} ({shown}), {OUTWARD}", path)
    return Reason(WIDE, M, f"{VALUES_ADDED} ({shown})", path)


OUTWARD = "one of them a new place outside"
"""Marks a named value that sends the effect somewhere new (a webhook, a partner, a share
link): high on a parameter that says where an acting tool's effect goes."""
_OUTWARD_VALUE = re.compile(
    r"\b(?:webhooks?|urls?|uris?|https?|endpoints?|partners?|third|vendors?|forward\w*|"
    r"shared?|links?|cc|bcc|portals?|uploads?|s3|ftp|sftp|buckets?|remote|relay|sms|slack|"
    r"anyone|others?|external|public)\b",
    re.IGNORECASE,
)


_SCOPE_VALUE = re.compile(
    r"\b(?:all|every|any|everything|everyone|entire|public|external|unsafe|raw|root|"
    r"privileged|unrestricted|force|global|owner|admin|organi[sz]ation|company|domain|"
    r"tenant|workspace|"
    # The live or writable side of a system a tool was kept off: the primary database.
    r"primary|master|prod|production|live|writer|read-?write|rw|"
    # A secret or a physical protection dropped: PIN codes, passwords, unlocking, disarming.
    r"pins?|passcodes?|passwords?|secrets?|credentials?|(?:alarm|access|door|lock|security) "
    r"codes?|unlock(?:s|ing)?|disarm(?:s|ing)?|"
    # A protected characteristic to sort or filter people by.
    r"age|gender|sex|race|ethnicity|religion|disability|pregnancy|marital|nationality|"
    r"national origin|birth ?year|date of birth|graduation year|"
    # Personal data a value now pulls in: contact details, addresses, documents.
    r"(?:customer|user|contact|personal|buyer|patient|candidate|member)s? (?:e-?mails?|phones?|"
    r"address(?:es)?|names?)|e-?mail address(?:es)?|phone numbers?|(?:street|postal|shipping|"
    r"billing|home) address(?:es)?|ssn|passport|iban)\b",
    re.IGNORECASE,
)
"""A new enum value that widens who or what (``public``, ``all``, ``admin``, ``primary``,
``production``), reads a secret (``pin_codes``) or drops a physical protection (``unlock``,
``disarm``): high anywhere."""


def _limit_words(key: str, old: Any, new: Any, looser: bool) -> str:
    """``maxLength loosened (200 -> 900)``; a side that is absent is said, not shown as None."""
    if new is None:
        return f"{key} removed (was {_json(old)})"
    if old is None:
        return f"{key} added ({_json(new)})"
    return f"{key} {'loosened' if looser else 'tightened'} ({_json(old)} -> {_json(new)})"


def _json(value: Any, limit: int = 40) -> str:
    """A schema value as JSON (``true``, not ``True``), cut to ``limit``."""
    shown = canon_json(value)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _strings(value: Any, depth: int = 0) -> list[str]:
    if isinstance(value, str):
        return [value]
    if depth > 20:
        return []
    if isinstance(value, list):
        return [s for v in value for s in _strings(v, depth + 1)]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v, depth + 1)]
    return []


def _param_of(path: str) -> str:
    parts = path.split(".")
    marks = [i for i, part in enumerate(parts[:-1]) if part == "properties"]
    return parts[marks[-1] + 1] if marks else ""


_SAYS_YES = re.compile(
    r"confirm|approv|consent|acknowledg|^ack|force|skip|bypass|yes|unmask|reveal|"
    r"include_?(?:contact|pii|personal|secrets?|raw|unmasked|full|sensitive|private|email|phone|"
    r"medical|health|diagnos\w*|financial|bank\w*|ssn|salary|payroll|credit|criminal|"
    r"background|biometric|location|address(?:es)?|dob|birth\w*)|"
    r"show_?(?:secrets?|full|raw|contact)",
    re.I,
)
_SAYS_CHECK = re.compile(
    r"dry_?run|preview|verify|validate|require|check|safe|mask|redact|hide|anonymi|encrypt|"
    r"saniti",
    re.I,
)


def permissive(param: str, value: bool) -> bool:
    """``confirmed: true`` or ``dry_run: false``: the value that waves a check through."""
    if value and _SAYS_YES.search(param):
        return True
    return not value and bool(_SAYS_CHECK.search(param)) and not _SAYS_YES.search(param)


SWITCHED = "a switch that every call leaving it out now flips"
_INCLUDES = re.compile(r"(?:include|show|with|return)_?", re.I)
_WHOSE = re.compile(
    r"\b(?:scope|visibility|audience|access|sharing|share|shared|owners?|tenants?|workspaces?|"
    r"who|whose|permissions?|reach|range|org|organi[sz]ation)\b",
    re.IGNORECASE,
)
"""Parameter names that say whose records a call reaches, not which of them it filters."""
"""Marks a boolean default that changed (severity raises it on a tool that acts)."""


def _fixed_moved(a: dict[str, Any], o: Any, n: Any) -> bool:
    """The old schema allowed one value (``enum: ["public"]`` or ``const``) and the default
    moves off it: a fixed setting made variable, and changed for every call that leaves
    it out."""
    allowed = a.get("enum") if "enum" in a else [a["const"]] if "const" in a else None
    return (
        isinstance(allowed, list)
        and len(allowed) == 1
        and o is not ABSENT
        and n is not ABSENT
        and o == allowed[0]
        and n != o
    )


def _value_text_reason(key: str, o: Any, n: Any, path: str, known: frozenset[str]) -> Reason:
    """A default or example is text the model reads too: high when its new strings steer.

    A boolean default that flips (``force: false`` -> ``true``) changes what every call that
    leaves it out does; it is marked so a tool that acts can grade it high."""
    param = _param_of(path)
    if key == "default" and isinstance(n, bool) and o != n and permissive(param, n):
        # ``confirmed: true`` or ``dry_run: false`` by default: the check is answered for
        # the model on every call that leaves it out.
        what = (
            "now pulls in that data"
            if _INCLUDES.match(param)
            else "now skips its confirmation or safety check"
        )
        return Reason(
            "default-changed",
            H,
            f"default {_json(None if o is ABSENT else o)} -> {_json(n)}: every call that leaves "
            f"{param!r} out {what}",
            path,
        )
    if key == "default" and isinstance(n, bool) and o is not ABSENT and o != n:
        return Reason("default-changed", M, f"default {_json(o)} -> {_json(n)}: {SWITCHED}", path)
    if key == "default" and isinstance(n, str) and o != n and _SCOPE_VALUE.search(_spoken(n)):
        if _WHOSE.search(_spoken(param)) and not (
            isinstance(o, str) and _SCOPE_VALUE.search(_spoken(o))
        ):
            # ``scope: assigned`` -> ``all_accessible``: every call that leaves it out now
            # reaches everyone's records, on a reading tool too.
            return Reason(
                "default-changed",
                H,
                f"default now {clip(n, 40)}: every call that leaves {param!r} out now reaches "
                "wider",
                path,
            )
        return Reason("default-changed", M, f"default now {clip(n, 40)}: {SWITCHED}", path)
    old_text = " \n".join(_strings(None if o is ABSENT else o))
    new_text = " \n".join(_strings(None if n is ABSENT else n))
    if new_text and new_text != old_text:
        # An example shows a value ("refund order ORD-1"): its words name things, they do
        # not widen the tool; orders, places and claims in it still count.
        ignore = ("capability",) if key == "examples" else ()
        r = text_reason(path, old_text or None, new_text, f"{key} value", ignore, known)
        if r.severity >= H:
            return Reason("default-changed", H, r.message, path)
    return Reason("default-changed", M, f"{key} changed", path)


def annotation_keyword_reasons(
    a: dict[str, Any],
    b: dict[str, Any],
    at: str,
    known: frozenset[str] = frozenset(),
    said: frozenset[str] = frozenset(),
) -> Iterator[Reason]:
    """Text, titles, defaults and unknown keywords of one node; ``known``: hosts the server
    already names (a docs link on one of them is not a new place); ``said``: roots of the
    tool's own name and text (a parameter described in them adds no capability)."""
    parent, _, name = at.rpartition(".")
    if said and parent.endswith("properties"):
        said = said | said_roots(name)  # "remove_attendees": "Addresses to remove."
    for key in sorted(set(a) | set(b)):
        o, n = a.get(key, ABSENT), b.get(key, ABSENT)
        same = canon_json(None if o is ABSENT else o) == canon_json(None if n is ABSENT else n)
        if same and ((o is ABSENT) == (n is ABSENT) or key in ANNOTATION_KEYS):
            continue
        if is_text_key(key):
            yield text_reason(
                f"{at}.{key}",
                None if o is ABSENT else o,
                None if n is ABSENT else n,
                "parameter description" if key == "description" else f"schema {key}",
                known_hosts=known,
                said=said,
            )
        elif key == "title":
            yield title_reason(f"{at}.title", o, n, "parameter title")
        elif key == "default" and _fixed_moved(a, o, n):
            yield Reason(
                "default-changed",
                M,
                f"default {_json(o)} -> {_json(n)}, off the one value the old schema allowed: "
                f"{SWITCHED}",
                f"{at}.{key}",
            )
        elif key in ("default", "examples"):
            yield _value_text_reason(key, o, n, f"{at}.{key}", known)
        elif key in ("$defs", "definitions"):
            yield Reason("schema-changed", M, f"{key} changed", f"{at}.{key}")
        elif key not in HANDLED:
            yield Reason("schema-changed", M, f"schema keyword {key!r} changed", f"{at}.{key}")


def members_of(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def str_list(value: Any) -> list[Any]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
