"""Walk a raw MCP item and scan every string a model reads, with its field path.

Servers smuggle text wherever a client forwards it: schema descriptions, enum values,
defaults, examples, nested ``$defs``, vendor keys nobody documents. The walk therefore
covers the known text fields of each kind and, for everything it does not know, every
string it can reach (depth-limited). Structural schema keywords (``type``, ``$ref``,
``$schema``) are skipped: they are not prose; ``pattern`` and ``format`` are scanned, as a
model reads them and a server can hide a sentence there.

Which way it fails: an item's ``icons`` and a tool's ``execution`` block are skipped (data
URIs and enum values, not prose), so text hidden there is missed; a link in a field that is
a URI by definition (``uri``, ``uriTemplate``, ``websiteUrl``) or in a ``pattern`` or
``format`` is not listed as a link. Text split across two fields ("Ignore all" in one,
"previous instructions" in the next) is read field by field and missed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from mcplock_tui.core.detectors import hidden, params
from mcplock_tui.core.detectors.base import EMPTY_CONTEXT, ScanContext, word_set
from mcplock_tui.core.detectors.foreign_names import ForeignTools
from mcplock_tui.core.detectors.scan import Hits, keyword_hits, scan_hits, to_findings
from mcplock_tui.core.model import Finding, Kind

MAX_DEPTH = 24
_SKIP_ITEM_KEYS = frozenset({"icons", "execution"})
_SCHEMA_TEXT = frozenset({"description", "title", "$comment", "markdownDescription"})
_SCHEMA_VALUES = frozenset({"enum", "examples", "default", "const"})
_SCHEMA_MAPS = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
)
_SCHEMA_ONE = frozenset(
    {
        "items",
        "additionalProperties",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "unevaluatedProperties",
        "additionalItems",
        "unevaluatedItems",
    }
)
_SCHEMA_LIST = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
_SCHEMA_SKIP = frozenset(
    {
        "type",
        "$schema",
        "$id",
        "$ref",
        "$anchor",
        "$dynamicRef",
        "$dynamicAnchor",
        "$vocabulary",
        "required",
        "contentEncoding",
        "contentMediaType",
    }
)
_SCHEMA_CODE = frozenset({"format", "pattern"})
"""Not prose, but a model reads them: scanned like text, links not listed."""
_URI_FIELDS = frozenset({"uri", "uriTemplate", "websiteUrl"})
_ITEM_KEY = {
    Kind.TOOL: "name",
    Kind.PROMPT: "name",
    Kind.RESOURCE: "uri",
    Kind.RESOURCE_TEMPLATE: "uriTemplate",
}


def _param_findings(name: str, path: str, ctx: ScanContext) -> list[Finding]:
    hits = Hits()
    hidden_hits, _runs = hidden.detect(name)
    for hit in hidden_hits:
        hits.add(hit, check=False)
    words, param_hits = params.detect(name)
    for hit in param_hits:
        hits.add(hit)
    if words.count(" ") >= 2:
        # Text rules read the split words ("ignorePreviousInstructions"); a hit on a name
        # is reported on the whole name.
        addressed = any(h.code == "MCPL-INJ-070" for h in param_hits)
        for hit in keyword_hits(words, word_set(words), ctx):
            if not (addressed and hit.code == "MCPL-INJ-005"):  # one finding for one message
                hits.add(hit._replace(start=0, end=len(name)))
    ordered = sorted(hits.items, key=lambda h: (h.start, h.code, h.end))
    return to_findings(name, ordered, path, ctx)


def scan_param_name(name: str, path: str, ctx: ScanContext | None = None) -> list[Finding]:
    """Findings on one schema property or prompt argument name; ``path`` names the field."""
    return _param_findings(name, path, ctx or EMPTY_CONTEXT)


class _Walker:
    def __init__(self, ctx: ScanContext) -> None:
        self.ctx = ctx
        self.findings: list[Finding] = []

    def text(self, path: str, value: Any, uri: bool = False) -> None:
        if not isinstance(value, str) or not value:
            return
        found = to_findings(value, scan_hits(value, self.ctx), path, self.ctx)
        if uri:
            found = [f for f in found if f.code != "MCPL-INJ-054"]
        self.findings.extend(found)

    def param(self, path: str, name: Any) -> None:
        if isinstance(name, str) and name:
            self.findings.extend(_param_findings(name, path, self.ctx))

    def loose(self, path: str, value: Any, depth: int = 0) -> None:
        """Every string under ``value``: for fields whose shape is unknown."""
        if depth > MAX_DEPTH:
            return
        if isinstance(value, str):
            self.text(path, value)
        elif isinstance(value, Mapping):
            for key, sub in value.items():
                if key not in _SKIP_ITEM_KEYS:
                    self.loose(f"{path}.{key}", sub, depth + 1)
        elif isinstance(value, list):
            for i, sub in enumerate(value):
                self.loose(f"{path}[{i}]", sub, depth + 1)

    def schema(self, path: str, node: Any, depth: int = 0) -> None:
        if depth > MAX_DEPTH or not isinstance(node, Mapping):
            return
        for key, value in node.items():
            sub = f"{path}.{key}"
            if key in _SCHEMA_SKIP:
                continue
            if key in _SCHEMA_TEXT:
                self.text(sub, value)
            elif key in _SCHEMA_CODE:
                self.text(sub, value, uri=True)
            elif key in _SCHEMA_VALUES:
                self.loose(sub, value, depth + 1)
            elif key in _SCHEMA_MAPS and isinstance(value, Mapping):
                for name, child in value.items():
                    if key == "properties":
                        self.param(f"{sub}.{name}", name)
                    self.schema(f"{sub}.{name}", child, depth + 1)
            elif key in _SCHEMA_ONE:
                if isinstance(value, list):
                    self._schemas(sub, value, depth)
                else:
                    self.schema(sub, value, depth + 1)
            elif key in _SCHEMA_LIST and isinstance(value, list):
                self._schemas(sub, value, depth)
            else:
                self.loose(sub, value, depth + 1)

    def _schemas(self, path: str, nodes: list[Any], depth: int) -> None:
        for i, child in enumerate(nodes):
            self.schema(f"{path}[{i}]", child, depth + 1)

    def fields(self, item: Mapping[str, Any], known: Mapping[str, str]) -> None:
        """Scan ``known`` fields by their role and loosely walk every other key."""
        for key, value in item.items():
            role = known.get(key)
            if role == "text":
                self.text(key, value, uri=key in _URI_FIELDS)
            elif role == "schema":
                self.schema(key, value)
            elif role == "arguments" and isinstance(value, list):
                for i, arg in enumerate(value):
                    if isinstance(arg, Mapping):
                        self.param(f"{key}[{i}].name", arg.get("name"))
                        rest = {k: v for k, v in arg.items() if k != "name"}
                        self.loose(f"{key}[{i}]", rest)
                    else:
                        self.loose(f"{key}[{i}]", arg)
            elif role == "server_info" and isinstance(value, Mapping):
                for k, v in value.items():
                    if k in ("version", "icons"):
                        continue
                    if isinstance(v, str):
                        self.text(f"{key}.{k}", v, uri=k in _URI_FIELDS)
                    else:
                        self.loose(f"{key}.{k}", v)
            elif role is None and key not in _SKIP_ITEM_KEYS:
                self.loose(key, value)


_TEXT = {"name": "text", "title": "text", "description": "text"}
_KNOWN: dict[Kind, dict[str, str]] = {
    Kind.TOOL: {**_TEXT, "inputSchema": "schema", "outputSchema": "schema"},
    Kind.PROMPT: {**_TEXT, "arguments": "arguments"},
    Kind.RESOURCE: {**_TEXT, "uri": "text", "mimeType": "skip", "size": "skip"},
    Kind.RESOURCE_TEMPLATE: {**_TEXT, "uriTemplate": "text", "mimeType": "skip"},
    Kind.INSTRUCTIONS: {"instructions": "text"},
    Kind.SERVER: {
        "serverInfo": "server_info",
        "launch": "skip",
        "protocolVersion": "skip",
        "capabilities": "skip",
    },
}


def scan_item(kind: Kind, item: Mapping[str, Any], ctx: ScanContext | None = None) -> list[Finding]:
    """Findings on every model-visible string of one raw item, each with its field path."""
    context = ctx or EMPTY_CONTEXT
    key = _ITEM_KEY.get(kind)
    raw_name = item.get(key) if key else None
    name = raw_name if isinstance(raw_name, str) else kind.value
    if kind is Kind.TOOL and name in context.foreign_tools:
        # A tool mentioning its own name is not steering, even if another server shares it.
        context = replace(context, foreign_tools=ForeignTools(context.foreign_tools, (name,)))
    walker = _Walker(context)
    walker.fields(item, _KNOWN[kind])
    # One order whatever the item's key order: the findings are a function of what the item
    # means (its canonical JSON), which lets the scan memo key on the item's digest.
    found = sorted(walker.findings, key=_finding_order)
    return [replace(f, kind=kind.value, item=name) for f in found]


def _finding_order(f: Finding) -> tuple[str, int, str, int]:
    start, end = f.span or (-1, -1)
    return (f.path, start, f.code, end)  # within one text, as its hits are ordered
