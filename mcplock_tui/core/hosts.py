"""Outbound hosts: every network host a server's surface names.

A host that appears for the first time is where a tool may now send data, or where the model
is told to fetch instructions from, so it grades high whatever field it arrives in. Hosts are
taken from URLs with a network scheme in any string of any item (descriptions, titles,
schema defaults, enums, examples, prompt messages, vendor keys) and from resource URIs and
template URIs. A custom scheme names no host: ``memory://knowledge-graph`` and
``test://static/resource/1`` are identifiers, not places on the network.

Which way it fails: a bare domain without a scheme ("send it to evil.example") is not a host
here (the text grader reads it as a new entity); a URL with an unlisted network scheme is
missed. A template whose host is a variable (``https://{tenant}.example.com``) yields the
host with the braces dropped, ``tenant.example.com``, which changes whenever the template does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from functools import lru_cache
from json.encoder import encode_basestring
from typing import Any
from urllib.parse import urlsplit

from mcplock_tui.core.model import JSON, Kind, Surface

NETWORK_SCHEMES = frozenset(
    [
        "http",
        "https",
        "ws",
        "wss",
        "ftp",
        "ftps",
        "sftp",
        "ssh",
        "scp",
        "telnet",
        "git",
        "git+ssh",
        "git+https",
        "svn",
        "smtp",
        "smtps",
        "imap",
        "imaps",
        "pop3",
        "ldap",
        "ldaps",
        "mqtt",
        "mqtts",
        "tcp",
        "udp",
        "grpc",
        "grpcs",
        "redis",
        "rediss",
        "postgres",
        "postgresql",
        "mysql",
        "mariadb",
        "mongodb",
        "mongodb+srv",
        "amqp",
        "amqps",
        "nats",
        "kafka",
        "rtsp",
        "sip",
        "irc",
        "ircs",
        "xmpp",
        "gopher",
        "webdav",
    ]
)
"""Schemes whose authority is a host on a network."""

_SCHEME = re.compile(r"[a-z][a-z0-9+.-]{0,15}$", re.I)
"""A scheme ending where ``://`` starts (searched backwards from each ``://``)."""
_AUTHORITY = re.compile(r"[^\s/?#<>\"'`\\|^{}]{1,300}")
"""The authority after ``://``; it stops at the path, a blank or a template brace."""
_SCHEME_CHAR = re.compile(r"[\w+.-]")
_HOST = re.compile(r"^(?:[\w-]+(?:\.[\w-]+)*|\[?[0-9a-f:.]+\]?)$", re.I)
MAX_DEPTH = 64
URI_FIELDS: dict[Kind, str] = {Kind.RESOURCE: "uri", Kind.RESOURCE_TEMPLATE: "uriTemplate"}
_SKIP_SERVER_KEYS = frozenset({"launch"})
"""The launch line is our configuration, not something the server said."""


def _clean(host: str | None) -> str | None:
    if not host:
        return None
    host = host.rstrip(".").lower()
    return host if host and _HOST.match(host) else None


def uri_hosts(value: Any) -> set[str]:
    """The host of one URI or URI template, when its scheme is a network one."""
    if not isinstance(value, str):
        return set()
    try:
        parts = urlsplit(value.replace("{", "").replace("}", ""))
        host = parts.hostname
    except ValueError:
        return set()
    if parts.scheme.lower() not in NETWORK_SCHEMES:
        return set()
    cleaned = _clean(host)
    return {cleaned} if cleaned else set()


def text_hosts(text: str) -> set[str]:
    """Hosts of every network URL inside free text."""
    return set(_text_hosts(text)) if "://" in text else set()


@lru_cache(maxsize=1 << 12)
def _text_hosts(text: str) -> frozenset[str]:
    """Cached: grading reads the pinned and the live copy of mostly the same strings."""
    return frozenset(_scan(text))


def _scan(text: str) -> set[str]:
    """Linear: each ``://`` is found with ``str.find``, its scheme read backwards (at most 16
    characters) and its authority forwards (at most 300)."""
    out: set[str] = set()
    at = text.find("://")
    while at != -1:
        scheme = _SCHEME.search(text, max(0, at - 16), at)
        if scheme is not None and scheme.group().lower() in NETWORK_SCHEMES:
            start = scheme.start()
            if start == 0 or not _SCHEME_CHAR.match(text, start - 1):
                authority = _AUTHORITY.match(text, at + 3)
                if authority is not None:
                    host = _host_of(authority.group())
                    if host:
                        out.add(host)
        at = text.find("://", at + 3)
    return out


def _host_of(authority: str) -> str | None:
    authority = authority.rpartition("@")[2]
    if authority.startswith("["):
        host = authority[1:].partition("]")[0]
        if ":" not in host:
            return None  # "[a-z0-9.-]+" in a URL pattern is a character class, not IPv6
    else:
        host = authority.partition(":")[0]
    return _clean(host.rstrip(".,;:!)]"))


_SCHEMA_REFERENCES = frozenset({"$schema", "$id", "$ref", "$dynamicRef", "$recursiveRef"})
"""JSON Schema keywords whose URL names a dialect or a schema document, not a place the tool
sends anything: every schema from a 2020-12 server carries ``$schema`` on json-schema.org."""


def _strings(value: JSON, path: str, depth: int = 0) -> Iterator[tuple[str, str]]:
    if depth > MAX_DEPTH:
        return
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, sub in value.items():
            if key in _SCHEMA_REFERENCES and isinstance(sub, str):
                continue
            if isinstance(key, str):  # property names too: a URL can be one
                yield f"{path}.{key}" if path else key, key
            yield from _strings(sub, f"{path}.{key}" if path else str(key), depth + 1)
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            yield from _strings(sub, f"{path}[{i}]", depth + 1)


def item_hosts(kind: Kind, item: Mapping[str, JSON] | None) -> dict[str, str]:
    """Every host one item names -> the first field path it appears in."""
    out: dict[str, str] = {}
    if item is None:
        return out
    uri_key = URI_FIELDS.get(kind)
    if uri_key is not None:
        for host in sorted(uri_hosts(item.get(uri_key))):
            out.setdefault(host, uri_key)
    for key, value in item.items():
        if kind is Kind.SERVER and key in _SKIP_SERVER_KEYS:
            continue
        if key == uri_key:
            continue
        for path, text in _strings(value, key):
            for host in sorted(text_hosts(text)):
                out.setdefault(host, path)
    return out


_WILDCARD = re.compile(r"(?<![\w.*-])\*\.((?:[a-z0-9-]{1,63}\.){1,8}[a-z]{2,24})(?![\w-])", re.I)
"""A domain named with a wildcard in prose: "an approved host (*.example.com)"."""


def known_place(host: str, known: frozenset[str] | set[str]) -> bool:
    """``host`` is one the surface names, or lies under a domain it names with a wildcard
    (``*.example.com`` covers ``docs.example.com`` and ``example.com``); a wildcard of one
    label (``*.com``) is never taken, so a whole top-level domain is not vouched for."""
    if host in known:
        return True
    labels = host.split(".")
    return any("*." + ".".join(labels[i:]) in known for i in range(len(labels) - 1))


def surface_places(surface: Surface) -> frozenset[str]:
    """:func:`surface_hosts` plus every domain the surface names as ``*.domain``, kept in
    that form: the places a link may point at without being new (see :func:`known_place`)."""
    return _surface_scan(surface, wildcards=True)


def surface_hosts(surface: Surface) -> frozenset[str]:
    """Every host a whole surface names: what the lockfile records per server.

    :func:`item_hosts` without the paths, over the surface's JSON text, a batch of items at a
    time: the encoder runs in C, so a surface without any ``://`` costs one dump per batch. An
    authority stops at a quote or backslash, so a host never runs from one JSON string into
    the next.
    """
    return _surface_scan(surface, wildcards=False)


def _surface_scan(surface: Surface, wildcards: bool) -> frozenset[str]:
    hosts: set[str] = set()
    items: list[Mapping[str, JSON]] = []
    for kind, _name, item in surface.all_items():
        if kind is Kind.SERVER:
            item = {k: v for k, v in item.items() if k not in _SKIP_SERVER_KEYS}
        uri_key = URI_FIELDS.get(kind)
        if uri_key is not None:
            hosts |= uri_hosts(item.get(uri_key))
        items.append(item)
    found: set[str] = set()
    try:
        for start in range(0, len(items), _SCAN_BATCH):
            blob = json.dumps(items[start : start + _SCAN_BATCH], ensure_ascii=False)
            if "://" in blob:
                found |= _scan(blob)
            if wildcards and "*." in blob:
                found.update("*." + m.group(1).lower() for m in _WILDCARD.finditer(blob))
    except (TypeError, ValueError):  # not JSON after all: take the exact walk
        for kind, _name, item in surface.all_items():
            hosts.update(item_hosts(kind, item))
        return frozenset(hosts)
    return frozenset(hosts | found)


class HostCollector:
    """:func:`surface_hosts` gathered while a lockfile write encodes the surface.

    The write already turns every item into JSON text (its schemas) or holds it as strings;
    each string's hosts are those of its JSON encoding, as in the one text of the whole
    surface that :func:`surface_hosts` scans, since a host never runs from one JSON string
    into the next. JSON text must be given with hidden characters raw, as the encoder writes
    them, not escaped for the lockfile.
    """

    def __init__(self) -> None:
        self.hosts: set[str] = set()

    def json_text(self, text: str) -> None:
        if "://" in text:
            self.hosts |= _scan(text)

    def string(self, value: str) -> None:
        if "://" in value:  # an escape never makes or breaks a "://"
            self.hosts |= _scan(encode_basestring(value))

    def uri(self, kind: Kind, item: Mapping[str, JSON]) -> None:
        """A resource's or template's own URI, braces dropped (see :func:`uri_hosts`)."""
        uri_key = URI_FIELDS.get(kind)
        if uri_key is not None:
            self.hosts |= uri_hosts(item.get(uri_key))


_SCAN_BATCH = 256
"""Items encoded into one text for the scan. The text of a whole surface was the largest
allocation of a drifted check (22 MB at 20,000 tools); a host or a wildcard lies inside one
JSON string, never across two items, so batches find exactly what the whole text does."""
