"""The severity model: which structural change lands in which band, and why.

The closer a change is to text the model reads as guidance, or to what a tool may do, the
higher it grades. Each rule returns a :class:`Reason` with a stable category so a team's
policy can move a category to another band. Failure direction: when a change cannot be
classified it is graded up (``schema-changed`` medium, text ``description-changed`` high),
never down; only edits proven cosmetic (whitespace, punctuation, case, small typos that
touch no negation, modal, quantifier or number) are graded low.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

from mcplock_tui.core.canonical import canon_json, has_hidden
from mcplock_tui.core.diff import MISSING, Change, FieldChange
from mcplock_tui.core.model import JSON, ChangeType, Kind, Reason, Severity

C, H, M, L = Severity.CRITICAL, Severity.HIGH, Severity.MEDIUM, Severity.LOW

CATEGORIES: dict[str, str] = {
    "annotation-loosened": "a safety annotation now grants more (critical for readOnly/destructive)",
    "annotation-tightened": "a safety annotation now grants less",
    "annotation-changed": "another annotation key changed",
    "tool-shadowing": "a new or renamed tool is named like another server's tool or a sibling",
    "description-changed": "description, parameter description, prompt text or instructions changed in meaning",
    "description-removed": "a description was removed",
    "text-cosmetic": "whitespace, punctuation, case or typo-level edit",
    "title-changed": "a title or display name changed",
    "parameter-added": "a new parameter or prompt argument",
    "parameter-removed": "a parameter or prompt argument was removed",
    "capability-widened": "required to optional, enum/const/pattern/format/length/range loosened, type widened, additionalProperties opened",
    "capability-narrowed": "the opposite of widened",
    "default-changed": "a default or example value changed",
    "schema-changed": "another schema keyword changed",
    "output-schema-changed": "the output schema changed",
    "tool-added": "a new tool not marked read-only",
    "tool-added-readonly": "a new read-only tool",
    "prompt-added": "a new prompt",
    "resource-added": "a new resource on a known host",
    "resource_template-added": "a new resource template on a known host",
    "host-added": "a resource or template points at a new host",
    "uri-changed": "a resource URI changed on a known host",
    "tool-removed": "a tool was removed",
    "prompt-removed": "a prompt was removed",
    "resource-removed": "a resource was removed",
    "resource_template-removed": "a resource template was removed",
    "instructions-removed": "the server instructions were removed",
    "renamed": "a tool, prompt or resource was renamed",
    "metadata-changed": "icons, _meta, size, mimeType, execution or an unknown key changed",
    "server-version": "the server's version changed",
    "server-identity": "the server's name changed",
    "server-metadata": "other server info, protocol version or capabilities changed",
    "launch-changed": "the launch command or URL changed",
    "changed": "anything else",
}
"""Every reason category the model emits; a policy may move any of them to another band."""

ANNOTATION_DEFAULTS: dict[str, bool] = {
    "readOnlyHint": False,
    "destructiveHint": True,
    "idempotentHint": False,
    "openWorldHint": True,
}
"""Spec defaults, applied when a key is absent: deleting a key is a change to its default."""

# For each hint: the value that grants the tool more room (the "loose" value).
_LOOSE = {
    "readOnlyHint": False,
    "destructiveHint": True,
    "idempotentHint": False,
    "openWorldHint": True,
}
_LOOSEN_BAND = {"readOnlyHint": C, "destructiveHint": C, "idempotentHint": H, "openWorldHint": H}

# Words whose change flips meaning even when the spelling barely moves (can -> can't).
_SENSITIVE = frozenset(
    [
        "not",
        "no",
        "never",
        "none",
        "nothing",
        "nobody",
        "cannot",
        "cant",
        "can",
        "don't",
        "dont",
        "do",
        "does",
        "doesn't",
        "doesnt",
        "is",
        "isn't",
        "isnt",
        "are",
        "aren't",
        "arent",
        "was",
        "wasn't",
        "will",
        "won't",
        "wont",
        "would",
        "wouldn't",
        "should",
        "shouldn't",
        "must",
        "mustn't",
        "may",
        "might",
        "only",
        "all",
        "any",
        "every",
        "each",
        "always",
        "also",
        "without",
        "with",
        "unless",
        "except",
        "before",
        "after",
        "read",
        "write",
        "delete",
        "remove",
        "create",
        "update",
        "send",
        "receive",
        "allow",
        "deny",
        "disable",
        "enable",
        "safe",
        "unsafe",
        "true",
        "false",
        "yes",
        "public",
        "private",
        "internal",
        "external",
        "local",
        "remote",
    ]
)
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
_MAX_TYPO_EDITS = 2


def effective_annotations(item: Mapping[str, JSON] | None) -> dict[str, Any]:
    raw = (item or {}).get("annotations")
    ann = raw if isinstance(raw, dict) else {}
    return {k: ann.get(k, default) for k, default in ANNOTATION_DEFAULTS.items()}


def _squash(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(_WORD.findall(text))


def _distance(a: str, b: str) -> int:
    """Optimal-string-alignment distance, capped: only "is it <= 2" matters."""
    if abs(len(a) - len(b)) > _MAX_TYPO_EDITS:
        return _MAX_TYPO_EDITS + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = ca != cb
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


def classify_text(old: str, new: str) -> str:
    """``same``, ``cosmetic`` (space/punctuation/case), ``typo``, or ``meaning``."""
    if old == new:
        return "same"
    if has_hidden(old) != has_hidden(new) or (has_hidden(new) and old != new):
        return "meaning"  # hidden characters are never cosmetic
    a, b = _squash(old), _squash(new)
    if a == b:
        return "cosmetic"
    wa, wb = a.split(), b.split()
    if len(wa) != len(wb):
        return "meaning"
    edits = [(x, y) for x, y in zip(wa, wb, strict=True) if x != y]
    if len(edits) > 2:
        return "meaning"
    for x, y in edits:
        if x in _SENSITIVE or y in _SENSITIVE or any(ch.isdigit() for ch in x + y):
            return "meaning"
        if min(len(x), len(y)) < 4 or _distance(x, y) > _MAX_TYPO_EDITS:
            return "meaning"
    return "typo"


def _text_reason(path: str, old: JSON, new: JSON, what: str) -> Reason:
    if isinstance(old, str) and isinstance(new, str):
        kind = classify_text(old, new)
        if kind in ("cosmetic", "typo"):
            label = "whitespace/punctuation" if kind == "cosmetic" else "typo-level"
            return Reason("text-cosmetic", L, f"{what}: {label} edit", path)
    if old is MISSING or old is None:
        return Reason("description-changed", H, f"{what} added", path)
    if new is MISSING or new is None:
        return Reason("description-removed", M, f"{what} removed", path)
    return Reason("description-changed", H, f"{what} changed in meaning", path)


def _types(schema: Mapping[str, Any]) -> frozenset[str] | None:
    """The set of JSON types a schema admits; None means any."""
    t = schema.get("type", MISSING)
    if t is MISSING:
        return None
    if isinstance(t, str):
        types = {t}
    elif isinstance(t, list):
        types = {x for x in t if isinstance(x, str)}
    else:
        return None
    if "number" in types:
        types.add("integer")
    return frozenset(types)


_UPPER = ("maxLength", "maxItems", "maximum", "exclusiveMaximum", "maxProperties", "maxContains")
_LOWER = ("minLength", "minItems", "minimum", "exclusiveMinimum", "minProperties", "minContains")
_NESTED = ("items", "additionalItems", "contains", "not", "if", "then", "else")
_LISTED = ("anyOf", "oneOf", "allOf", "prefixItems")


def schema_reasons(old: Any, new: Any, path: str) -> Iterator[Reason]:
    """Widening (what a caller may now pass) grades high; narrowing grades medium."""
    if not isinstance(old, dict) or not isinstance(new, dict):
        if canon_json(old) != canon_json(new):
            yield Reason("schema-changed", H, "schema replaced by a non-object", path)
        return
    o_props, n_props = _dict(old.get("properties")), _dict(new.get("properties"))
    o_req, n_req = _names(old.get("required")), _names(new.get("required"))
    base = f"{path}.properties" if path else "properties"
    for name in sorted(set(n_props) - set(o_props)):
        req = "required" if name in n_req else "optional"
        yield Reason("parameter-added", H, f"new {req} parameter {name!r}", f"{base}.{name}")
    for name in sorted(set(o_props) - set(n_props)):
        yield Reason("parameter-removed", M, f"parameter {name!r} removed", f"{base}.{name}")
    for name in sorted(set(o_props) & set(n_props)):
        yield from schema_reasons(o_props[name], n_props[name], f"{base}.{name}")
    for name in sorted((o_req - n_req) & set(n_props)):
        yield Reason(
            "capability-widened", H, f"parameter {name!r} is no longer required", f"{base}.{name}"
        )
    for name in sorted(n_req - o_req):
        yield Reason(
            "capability-narrowed", M, f"parameter {name!r} is now required", f"{base}.{name}"
        )
    yield from _constraint_reasons(old, new, path)


def _constraint_reasons(old: dict[str, Any], new: dict[str, Any], path: str) -> Iterator[Reason]:
    at = path or "(schema)"
    ot, nt = _types(old), _types(new)
    if ot != nt:
        if nt is None or (ot is not None and nt > ot):
            yield Reason("capability-widened", H, f"type widened from {_fmt(ot)} to {_fmt(nt)}", at)
        elif ot is None or nt < ot:
            yield Reason(
                "capability-narrowed", M, f"type narrowed from {_fmt(ot)} to {_fmt(nt)}", at
            )
        else:
            yield Reason("capability-widened", H, f"type changed from {_fmt(ot)} to {_fmt(nt)}", at)
    for key in ("enum", "const"):
        o, n = old.get(key, MISSING), new.get(key, MISSING)
        if _cj(o) == _cj(n):
            continue
        ov = (
            {canon_json(v) for v in (o if isinstance(o, list) else [o])}
            if o is not MISSING
            else None
        )
        nv = (
            {canon_json(v) for v in (n if isinstance(n, list) else [n])}
            if n is not MISSING
            else None
        )
        if ov == nv:
            continue
        if nv is None or (ov is not None and not nv <= ov):
            yield Reason("capability-widened", H, f"{key} loosened", f"{at}.{key}")
        else:
            yield Reason("capability-narrowed", M, f"{key} narrowed", f"{at}.{key}")
    for key in ("pattern", "format", "contentEncoding", "contentMediaType"):
        o, n = old.get(key, MISSING), new.get(key, MISSING)
        if _cj(o) == _cj(n):
            continue
        if n is MISSING:
            yield Reason("capability-widened", H, f"{key} removed", f"{at}.{key}")
        elif o is MISSING:
            yield Reason("capability-narrowed", M, f"{key} added", f"{at}.{key}")
        else:
            yield Reason(
                "capability-widened", H, f"{key} changed from {o!r} to {n!r}", f"{at}.{key}"
            )
    for key, looser in [(k, 1) for k in _UPPER] + [(k, -1) for k in _LOWER]:
        o, n = old.get(key, MISSING), new.get(key, MISSING)
        if _cj(o) == _cj(n):
            continue
        if n is MISSING or (
            isinstance(o, int | float) and isinstance(n, int | float) and (n - o) * looser > 0
        ):
            yield Reason(
                "capability-widened", H, f"{key} loosened ({_num(o)} -> {_num(n)})", f"{at}.{key}"
            )
        else:
            yield Reason(
                "capability-narrowed", M, f"{key} tightened ({_num(o)} -> {_num(n)})", f"{at}.{key}"
            )
    yield from _additional_reasons(old, new, at)
    for key in ("description",):
        o, n = old.get(key, MISSING), new.get(key, MISSING)
        if _cj(o) != _cj(n):
            yield _text_reason(f"{at}.{key}", o, n, "parameter description")
    if _cj(old.get("title", MISSING)) != _cj(new.get("title", MISSING)):
        yield Reason("title-changed", L, "parameter title changed", f"{at}.title")
    for key in ("default", "examples"):
        if canon_json(old.get(key)) != canon_json(new.get(key)):
            yield Reason("default-changed", M, f"{key} changed", f"{at}.{key}")
    for key in _NESTED:
        if canon_json(old.get(key)) != canon_json(new.get(key)):
            yield from schema_reasons(old.get(key, {}), new.get(key, {}), f"{at}.{key}")
    for key in _LISTED:
        o, n = old.get(key, []), new.get(key, [])
        if canon_json(o) != canon_json(n):
            ol = {canon_json(v) for v in o} if isinstance(o, list) else set()
            nl = {canon_json(v) for v in n} if isinstance(n, list) else set()
            band = H if (nl - ol) and key != "allOf" else M
            yield Reason(
                "capability-widened" if band is H else "schema-changed",
                band,
                f"{key} alternatives changed",
                f"{at}.{key}",
            )
    handled = {
        "type",
        "enum",
        "const",
        "pattern",
        "format",
        "contentEncoding",
        "contentMediaType",
        "description",
        "title",
        "default",
        "examples",
        "properties",
        "required",
        "additionalProperties",
        "patternProperties",
        *_UPPER,
        *_LOWER,
        *_NESTED,
        *_LISTED,
    }
    for key in sorted((set(old) | set(new)) - handled):
        if canon_json(old.get(key)) != canon_json(new.get(key)):
            yield Reason("schema-changed", M, f"schema keyword {key!r} changed", f"{at}.{key}")


def _additional_reasons(old: dict[str, Any], new: dict[str, Any], at: str) -> Iterator[Reason]:
    for key in ("additionalProperties", "patternProperties"):
        o, n = old.get(key, MISSING), new.get(key, MISSING)
        if _cj(o) == _cj(n):
            continue
        if key == "additionalProperties" and (o is False) and n is not False:
            yield Reason("capability-widened", H, "additionalProperties opened", f"{at}.{key}")
        elif key == "additionalProperties" and n is False:
            yield Reason("capability-narrowed", M, "additionalProperties closed", f"{at}.{key}")
        else:
            yield Reason("capability-widened", H, f"{key} changed", f"{at}.{key}")


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _names(value: Any) -> set[str]:
    return {v for v in value if isinstance(v, str)} if isinstance(value, list) else set()


def _cj(value: Any) -> str | None:
    return None if value is MISSING else canon_json(value)


def _fmt(types: frozenset[str] | None) -> str:
    if types is None:
        return "any"
    shown = sorted(types - ({"integer"} if "number" in types else set()))
    return "|".join(shown) or "none"


def _num(value: Any) -> str:
    return "none" if value is MISSING else repr(value)


def annotation_reasons(
    old: Mapping[str, JSON] | None, new: Mapping[str, JSON] | None
) -> Iterator[Reason]:
    a, b = effective_annotations(old), effective_annotations(new)
    read_only_after = b["readOnlyHint"] is True
    for key in ANNOTATION_DEFAULTS:
        if a[key] == b[key]:
            continue
        path = f"annotations.{key}"
        shown = f"{key} {json.dumps(a[key])} -> {json.dumps(b[key])}"
        if b[key] == _LOOSE[key]:
            if key == "destructiveHint" and read_only_after:
                yield Reason(
                    "annotation-changed", L, f"{shown} (ignored: tool stays read-only)", path
                )
            else:
                yield Reason(
                    "annotation-loosened",
                    _LOOSEN_BAND[key],
                    f"{shown}: the tool may now do more",
                    path,
                )
        else:
            yield Reason("annotation-tightened", M, f"{shown}", path)


def hosts_of(value: Any) -> set[str]:
    if not isinstance(value, str):
        return set()
    try:
        parts = urlsplit(value.replace("{", "").replace("}", ""))
    except ValueError:
        return set()
    return {parts.hostname} if parts.hostname else set()


def field_reasons(change: Change, f: FieldChange, known_hosts: set[str]) -> Iterator[Reason]:
    """Reasons for one moved field of a modified or renamed item."""
    top = f.path.partition(".")[0].split("[")[0]
    kind = change.kind
    if kind is Kind.SERVER:
        if f.path == "serverInfo.version":
            yield Reason("server-version", L, f"server version {f.old!r} -> {f.new!r}", f.path)
        elif f.path == "serverInfo.name":
            yield Reason("server-identity", M, f"server name {f.old!r} -> {f.new!r}", f.path)
        elif top == "launch":
            yield Reason("launch-changed", L, "launch command changed", f.path)
        else:
            yield Reason("server-metadata", L, f"{f.path} changed", f.path)
        return
    if kind is Kind.INSTRUCTIONS:
        yield _text_reason(f.path, f.old, f.new, "server instructions")
        return
    if top == "description":
        yield _text_reason(f.path, f.old, f.new, f"{kind.value} description")
    elif top in ("title", "name"):
        yield Reason("title-changed", L, f"{top} changed", f.path)
    elif top in ("icons", "_meta", "size", "mimeType", "execution"):
        yield Reason("metadata-changed", L, f"{top} changed", f.path)
    elif top in ("uri", "uriTemplate"):
        new_hosts = hosts_of(f.new) - hosts_of(f.old) - known_hosts
        if new_hosts:
            yield Reason(
                "host-added", H, f"now points at new host {', '.join(sorted(new_hosts))}", f.path
            )
        else:
            yield Reason("uri-changed", M, f"{top} changed", f.path)
    elif kind is Kind.PROMPT and top == "arguments":
        yield from _argument_reasons(f)
    elif top in ("annotations", "inputSchema", "outputSchema"):
        return  # handled per item, not per leaf
    else:
        yield Reason("metadata-changed", M, f"field {f.path!r} changed", f.path)


def _argument_reasons(f: FieldChange) -> Iterator[Reason]:
    path = f.path
    if path.endswith("]") and f.old is MISSING:
        yield Reason("parameter-added", H, "new prompt argument", path)
    elif path.endswith("]") and f.new is MISSING:
        yield Reason("parameter-removed", M, "prompt argument removed", path)
    elif path.endswith(".description"):
        yield _text_reason(path, f.old, f.new, "prompt argument description")
    elif path.endswith(".required"):
        if f.new is True:
            yield Reason("capability-narrowed", M, "prompt argument now required", path)
        else:
            yield Reason("capability-widened", H, "prompt argument no longer required", path)
    else:
        yield Reason("metadata-changed", M, f"{path} changed", path)


def structural_reasons(change: Change, known_hosts: set[str]) -> list[Reason]:
    """Every non-detector reason for one change (the detector side lives in grade.py)."""
    kind, ct = change.kind, change.change
    label = kind.value.replace("_", " ")
    if ct is ChangeType.REMOVED:
        return [Reason(f"{kind.value}-removed", M, f"{label} removed")]
    if ct is ChangeType.ADDED:
        return list(_added_reasons(change, known_hosts))
    reasons: list[Reason] = []
    if ct is ChangeType.RENAMED:
        reasons.append(Reason("renamed", M, f"renamed from {change.old_name!r}"))
    for f in change.fields:
        reasons.extend(field_reasons(change, f, known_hosts))
    if kind is Kind.TOOL:
        reasons.extend(annotation_reasons(change.old, change.new))
        old, new = change.old or {}, change.new or {}
        for key in ("inputSchema", "outputSchema"):
            if canon_json(old.get(key)) != canon_json(new.get(key)):
                found = list(schema_reasons(old.get(key, {}), new.get(key, {}), key))
                if key == "outputSchema":
                    found = [
                        Reason(
                            "output-schema-changed",
                            min(r.severity, M),
                            f"output schema: {r.message}",
                            r.path,
                        )
                        for r in found
                    ]
                reasons.extend(found or [Reason("schema-changed", M, f"{key} changed", key)])
        o_ann, n_ann = old.get("annotations"), new.get("annotations")
        if canon_json(o_ann) != canon_json(n_ann):
            extra = {
                k
                for d in (o_ann, n_ann)
                if isinstance(d, dict)
                for k in d
                if k not in ANNOTATION_DEFAULTS
            }
            for k in sorted(extra):
                o = o_ann.get(k) if isinstance(o_ann, dict) else None
                n = n_ann.get(k) if isinstance(n_ann, dict) else None
                if canon_json(o) != canon_json(n):
                    band = L if k == "title" else M
                    reasons.append(
                        Reason(
                            "annotation-changed",
                            band,
                            f"annotation {k!r} changed",
                            f"annotations.{k}",
                        )
                    )
    return reasons or [Reason("changed", M, f"{label} changed")]


def _added_reasons(change: Change, known_hosts: set[str]) -> Iterator[Reason]:
    item = change.new or {}
    kind = change.kind
    if kind is Kind.TOOL:
        if effective_annotations(item)["readOnlyHint"] is True:
            yield Reason("tool-added-readonly", M, "new read-only tool")
        else:
            yield Reason(
                "tool-added", H, "new tool that may have side effects (not marked read-only)"
            )
    elif kind is Kind.PROMPT:
        yield Reason("prompt-added", H, "new prompt: new text the model will read")
    elif kind is Kind.INSTRUCTIONS:
        yield Reason("description-changed", H, "server instructions added")
    elif kind in (Kind.RESOURCE, Kind.RESOURCE_TEMPLATE):
        key = "uri" if kind is Kind.RESOURCE else "uriTemplate"
        new_hosts = hosts_of(item.get(key)) - known_hosts
        if new_hosts:
            yield Reason("host-added", H, f"points at new host {', '.join(sorted(new_hosts))}", key)
        else:
            yield Reason(f"{kind.value}-added", M, f"new {kind.value.replace('_', ' ')}")
    else:
        yield Reason("server-metadata", L, f"{kind.value} added")
