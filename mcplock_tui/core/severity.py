"""The severity model: which structural change lands in which band, and why.

The closer a change is to text the model reads as guidance, or to what a tool may do, the
higher it grades. Each rule returns a :class:`Reason` with a stable category so a team's
policy can move a category to another band. Schemas are graded in ``schema_grade`` and text
edits in ``text_grade``; this module owns annotations, URIs, server identity and the item
level. Failure direction: when a change cannot be classified it is graded up
(``schema-changed`` medium, text ``description-changed`` high, a malformed annotation as its
spec default), never down; only edits proven cosmetic or equivalent are graded low.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

from mcplock_tui.core.canonical import canon_json
from mcplock_tui.core.diff import MISSING, Change, FieldChange
from mcplock_tui.core.hosts import uri_hosts
from mcplock_tui.core.model import (
    JSON,
    PROMPT_MESSAGES_KEY,
    PROMPT_OVERFLOW_KEY,
    ChangeType,
    Kind,
    Reason,
    Severity,
)
from mcplock_tui.core.schema_grade import schema_reasons
from mcplock_tui.core.text_grade import classify_text, text_reason, title_reason

__all__ = [
    "ANNOTATION_DEFAULTS",
    "CATEGORIES",
    "annotation_reasons",
    "classify_text",
    "effective_annotations",
    "field_reasons",
    "hosts_of",
    "schema_reasons",
    "structural_reasons",
]

C, H, M, L = Severity.CRITICAL, Severity.HIGH, Severity.MEDIUM, Severity.LOW

CATEGORIES: dict[str, str] = {
    "annotation-loosened": "a safety annotation now grants more (critical for readOnly/destructive)",
    "annotation-tightened": "a safety annotation now grants less",
    "annotation-changed": "another annotation key changed, or a hint was rewritten with the same effect (medium when the new value is not a boolean)",
    "tool-shadowing": "a new or renamed tool is named like another server's tool or a sibling, or repeats a name",
    "description-changed": "description, parameter description, schema comment, prompt text, instructions or server description changed in meaning",
    "description-removed": "a description was removed",
    "text-cosmetic": "whitespace, punctuation, case or typo-level edit",
    "title-changed": "a title or display name changed (medium when it grows into a sentence)",
    "parameter-added": "a new parameter or prompt argument",
    "parameter-removed": "a parameter or prompt argument was removed",
    "capability-widened": "required to optional, enum/const/pattern/format/length/range/multipleOf/uniqueItems loosened, type widened, additionalProperties opened, a constraint dropped (also under $ref, allOf, not or if/then)",
    "capability-narrowed": "the opposite of widened",
    "default-changed": "a default or example value changed",
    "schema-changed": "another schema keyword changed (low when only the spelling of the same constraints changed, high when a schema is not an object)",
    "output-schema-changed": "the output schema changed",
    "tool-added": "a new tool not marked read-only",
    "tool-added-readonly": "a new read-only tool",
    "prompt-added": "a new prompt",
    "resource-added": "a new resource on a known host",
    "resource_template-added": "a new resource template on a known host",
    "host-added": "a new outbound host: a resource or template points at it, or a URL in any text or default names it",
    "uri-changed": "a resource URI changed on a known host (high when its scheme changes, low for http to https)",
    "tool-removed": "a tool was removed",
    "prompt-removed": "a prompt was removed",
    "resource-removed": "a resource was removed",
    "resource_template-removed": "a resource template was removed",
    "instructions-removed": "the server instructions were removed",
    "renamed": "a tool, prompt or resource was renamed",
    "metadata-changed": "icons, size, mimeType or execution changed (low); _meta or an unknown key changed (medium)",
    "server-version": "the server's version changed",
    "server-identity": "the server's name changed",
    "server-metadata": "other server info, protocol version or capabilities changed (medium for a downgrade or a gained change notification)",
    "launch-changed": "the launch command or URL changed",
    "probe-mismatch": "with --probe: the server answered a common client's identity, or a second listing, differently (critical)",
    "changed": "anything else",
}
"""Every reason category the model emits; a policy may move any of them to another band."""

ANNOTATION_DEFAULTS: dict[str, bool] = {
    "readOnlyHint": False,
    "destructiveHint": True,
    "idempotentHint": False,
    "openWorldHint": True,
}
"""Spec defaults, applied when a key is absent: deleting a key is a change to its default.

Every default is also the value that grants the tool the most room, so a hint that is null or
not a JSON boolean (``"false"``, ``0``) is read as its default: a malformed hint can never make
a tool look safer than a missing one. Clients disagree on such values (``"false"`` is truthy
in JavaScript), which is why changing to one is reported even when the default was in force.
"""

_LOOSEN_BAND = {"readOnlyHint": C, "destructiveHint": C, "idempotentHint": H, "openWorldHint": H}
_GAINED_CAPABILITY = frozenset({"listChanged", "subscribe", "experimental", "extensions", "tasks"})
"""Capabilities that let a server act after it was checked (change lists, push, run tasks)."""


def _raw_annotations(item: Mapping[str, JSON] | None) -> dict[str, Any]:
    raw = (item or {}).get("annotations")
    return raw if isinstance(raw, dict) else {}


def effective_annotations(item: Mapping[str, JSON] | None) -> dict[str, bool]:
    ann = _raw_annotations(item)
    return {
        key: value if isinstance(value := ann.get(key), bool) else default
        for key, default in ANNOTATION_DEFAULTS.items()
    }


def _shown(value: Any) -> str:
    if value is MISSING:
        return "(absent)"
    text = json.dumps(value)  # ASCII-escaped: no hidden character reaches a message
    return text if len(text) <= 40 else text[:39] + "…"


def annotation_reasons(
    old: Mapping[str, JSON] | None, new: Mapping[str, JSON] | None
) -> Iterator[Reason]:
    ra, rb = _raw_annotations(old), _raw_annotations(new)
    a, b = effective_annotations(old), effective_annotations(new)
    for key, loose in ANNOTATION_DEFAULTS.items():
        path = f"annotations.{key}"
        before, after = ra.get(key, MISSING), rb.get(key, MISSING)
        shown = f"{key} {json.dumps(a[key])} -> {json.dumps(b[key])}"
        if not isinstance(after, bool) and after is not MISSING:
            shown += f" ({_shown(after)} is not a boolean: read as the spec default)"
        if a[key] != b[key] and b[key] != loose:
            yield Reason("annotation-tightened", M, shown, path)
        elif a[key] != b[key] and key == "destructiveHint" and b["readOnlyHint"]:
            if after is MISSING or after is None:
                yield Reason(
                    "annotation-changed", L, f"{shown} (ignored: tool stays read-only)", path
                )
            else:
                yield Reason(
                    "annotation-loosened",
                    H,
                    f"{shown} while readOnlyHint stays true: the hints contradict each other",
                    path,
                )
        elif a[key] != b[key]:
            yield Reason(
                "annotation-loosened", _LOOSEN_BAND[key], f"{shown}: the tool may now do more", path
            )
        elif _cj(before) != _cj(after):
            raw = f"{key} {_shown(before)} -> {_shown(after)}"
            if after is MISSING or after is None or isinstance(after, bool):
                yield Reason("annotation-changed", L, f"{raw}: same effect", path)
            else:
                yield Reason(
                    "annotation-changed",
                    M,
                    f"{raw}: not a boolean, graded as the default {json.dumps(loose)}; "
                    "clients may read it either way",
                    path,
                )
    for key in sorted((set(ra) | set(rb)) - set(ANNOTATION_DEFAULTS)):
        before, after = ra.get(key, MISSING), rb.get(key, MISSING)
        if _cj(before) == _cj(after):
            continue
        path = f"annotations.{key}"
        if key == "title":
            yield title_reason(path, before, after, "annotation 'title'")
        else:
            yield Reason("annotation-changed", M, f"annotation {key!r} changed", path)


def _cj(value: Any) -> str | None:
    return None if value is MISSING else canon_json(value)


def hosts_of(value: Any) -> set[str]:
    """The network host of a URI; a custom scheme (``memory://graph``) names none."""
    return uri_hosts(value)


def _scheme(value: Any) -> str:
    if not isinstance(value, str):
        return ""
    try:
        return urlsplit(value).scheme.lower()
    except ValueError:
        return ""


def _host_is_variable(value: Any) -> bool:
    """``https://{tenant}.example.com/...``: the host is filled in at request time."""
    if not isinstance(value, str):
        return False
    try:
        return "{" in urlsplit(value).netloc
    except ValueError:
        return True


def _uri_reasons(f: FieldChange, top: str, known_hosts: set[str]) -> Iterator[Reason]:
    new_hosts = hosts_of(f.new) - hosts_of(f.old) - known_hosts
    old_scheme, new_scheme = _scheme(f.old), _scheme(f.new)
    if new_hosts:
        variable = " (a template variable: any host)" if _host_is_variable(f.new) else ""
        shown = ", ".join(sorted(new_hosts))
        yield Reason("host-added", H, f"now points at new host {shown}{variable}", f.path)
    elif old_scheme != new_scheme and (old_scheme, new_scheme) == ("http", "https"):
        yield Reason("uri-changed", L, f"{top} upgraded from http to https", f.path)
    elif old_scheme != new_scheme:
        yield Reason(
            "uri-changed",
            H,
            f"{top} scheme changed from {old_scheme or 'none'!r} to {new_scheme or 'none'!r}",
            f.path,
        )
    else:
        yield Reason("uri-changed", M, f"{top} changed", f.path)


def _server_reasons(f: FieldChange) -> Iterator[Reason]:
    top = f.path.partition(".")[0]
    if f.path == "serverInfo.version":
        yield Reason("server-version", L, f"server version {f.old!r} -> {f.new!r}", f.path)
    elif f.path == "serverInfo.name":
        yield Reason("server-identity", M, f"server name {f.old!r} -> {f.new!r}", f.path)
    elif top == "launch":
        yield Reason("launch-changed", L, "launch command changed", f.path)
    elif f.path in ("serverInfo.description", "serverInfo.title"):
        # Shown to people more than to models: a meaning change is worth a look, not a failure.
        r = text_reason(f.path, f.old, f.new, f.path)
        yield Reason(r.category, min(r.severity, M), r.message, r.path)
    elif (
        top == "protocolVersion"
        and isinstance(f.old, str)
        and isinstance(f.new, str)
        and f.new < f.old  # protocol versions are ISO dates
    ):
        yield Reason("server-metadata", M, f"protocol downgraded {f.old!r} -> {f.new!r}", f.path)
    elif (
        top == "capabilities"
        and f.new not in (MISSING, None, False)
        and f.old in (MISSING, None, False)
        and (_GAINED_CAPABILITY & set(f.path.split(".")) or _GAINED_CAPABILITY & _keys(f.new))
    ):
        yield Reason(
            "server-metadata",
            M,
            f"{f.path} gained: the server may change what it offers after it was checked",
            f.path,
        )
    else:
        yield Reason("server-metadata", L, f"{f.path} changed", f.path)


def _keys(value: Any) -> set[str]:
    """Every key in a nested JSON value, so a capability gained as a whole object counts."""
    if isinstance(value, dict):
        return set(value).union(*(_keys(v) for v in value.values()))
    return set()


def field_reasons(change: Change, f: FieldChange, known_hosts: set[str]) -> Iterator[Reason]:
    """Reasons for one moved field of a modified or renamed item."""
    top = f.path.partition(".")[0].split("[")[0]
    kind = change.kind
    if kind is Kind.SERVER:
        yield from _server_reasons(f)
        return
    if kind is Kind.INSTRUCTIONS:
        yield text_reason(f.path, f.old, f.new, "server instructions")
        return
    if top == "description":
        yield text_reason(f.path, f.old, f.new, f"{kind.value} description")
    elif top == "title":
        yield title_reason(f.path, f.old, f.new, "title")
    elif top == "name":
        yield Reason("title-changed", L, "name changed", f.path)
    elif top == "_meta":
        # Extension keys clients act on (UI resources, output templates): worth a look.
        yield Reason(
            "metadata-changed", M, "_meta changed: extension keys clients may act on", f.path
        )
    elif top in ("icons", "size", "mimeType", "execution"):
        yield Reason("metadata-changed", L, f"{top} changed", f.path)
    elif top in ("uri", "uriTemplate"):
        yield from _uri_reasons(f, top, known_hosts)
    elif kind is Kind.PROMPT and top == PROMPT_MESSAGES_KEY:
        what = "prompt message text"
        yield text_reason(f.path, _message_text(f.old), _message_text(f.new), what)
    elif kind is Kind.PROMPT and top == PROMPT_OVERFLOW_KEY:
        yield Reason(
            "description-changed", H, "prompt messages changed beyond the captured part", f.path
        )
    elif kind is Kind.PROMPT and top == "arguments":
        yield from _argument_reasons(f)
    elif top in ("annotations", "inputSchema", "outputSchema"):
        return  # handled per item, not per leaf
    else:
        yield Reason("metadata-changed", M, f"field {f.path!r} changed", f.path)


def _message_text(value: Any) -> str | None:
    """The text of a prompt message (or part of one): every string in it, in order."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict | list):
        parts: list[str] = []
        stack: list[Any] = [value]
        while stack:
            node = stack.pop()
            if isinstance(node, str):
                parts.append(node)
            elif isinstance(node, dict):
                stack.extend(reversed(list(node.values())))
            elif isinstance(node, list):
                stack.extend(reversed(node))
        return "\n".join(parts) or None
    return None


def _argument_reasons(f: FieldChange) -> Iterator[Reason]:
    path = f.path
    if path == "arguments":
        # Not a list of uniquely named arguments on one side: nothing can be matched.
        yield Reason("changed", H, "prompt arguments changed and cannot be matched by name", path)
    elif path.endswith("]") and f.old is MISSING:
        yield Reason("parameter-added", H, "new prompt argument", path)
    elif path.endswith("]") and f.new is MISSING:
        yield Reason("parameter-removed", M, "prompt argument removed", path)
    elif path.endswith(".description"):
        yield text_reason(path, f.old, f.new, "prompt argument description")
    elif path.endswith(".title"):
        yield title_reason(path, f.old, f.new, "prompt argument title")
    elif path.endswith(".required"):
        before, after = f.old is True, f.new is True  # absent, null or non-boolean: optional
        if before == after:
            yield Reason(
                "schema-changed", L, "prompt argument required flag rewritten, same effect", path
            )
        elif after:
            yield Reason("capability-narrowed", M, "prompt argument now required", path)
        else:
            yield Reason("capability-widened", H, "prompt argument no longer required", path)
    else:
        yield Reason("metadata-changed", M, f"{path} changed", path)


def _tool_reasons(change: Change) -> Iterator[Reason]:
    yield from annotation_reasons(change.old, change.new)
    old, new = change.old or {}, change.new or {}
    for key in ("inputSchema", "outputSchema"):
        if canon_json(old.get(key)) == canon_json(new.get(key)):
            continue
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
        yield from found or [Reason("schema-changed", M, f"{key} changed", key)]


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
        reasons.extend(_tool_reasons(change))
    return reasons or [Reason("changed", M, f"{label} changed")]


def _added_reasons(change: Change, known_hosts: set[str]) -> Iterator[Reason]:
    item = change.new or {}
    kind = change.kind
    if kind is Kind.TOOL:
        name = item.get("name")
        if isinstance(name, str) and name != change.name:
            # The surface keeps a repeated name as ``name#2``: clients may call either copy.
            yield Reason(
                "tool-shadowing", C, f"repeats the name of tool {name!r} on the same server", "name"
            )
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
