"""The lockfile model and its TOML-shaped document, in one place.

Layout (``version = 2``)::

    version = 2
    hash_model = 1
    [servers.NAME.server]            launch, protocol_version, server_info, capabilities
    [servers.NAME.instructions]      text
    [servers.NAME.tools."TOOL"]      name/title/description as TOML strings,
                                     input_schema/output_schema/annotations as pretty JSON,
                                     extra: every other key the server sent, as pretty JSON
    [servers.NAME.prompts."P"] / [servers.NAME.resources."URI"] / [servers.NAME.resource_templates."T"]
    [[servers.NAME.rejected]]        kind, name, hash, note: a reviewed-and-refused definition
    servers.NAME.hosts               every network host the pinned surface names (sorted)

The file holds what was reviewed and nothing derived from it that moves with every change,
so a pull request's diff is the change itself: one schema property is one line. Each
item's hash (SHA-256 over its canonical JSON, ``hash_model`` 1) is recomputed on read and
bound to the signed decision log, whose latest record for the item must name that hash
(:mod:`mcplock_tui.evidence.ledger`); that, not a hash stored beside the text, is what
refuses a hand edit.

Version 1 files (still read; the next write makes them version 2) also stored each item's
``hash`` and partial hashes, checked on read, and a ``[log] seq/head`` naming the decision
log's newest record.

``hosts`` is written for the reviewer of a lockfile diff, who sees a new host as one new
line. It is derived from the pinned definitions on every write and never trusted on read:
grading derives the known hosts from the definitions, so adding a host to the list by hand
whitelists nothing.

Each item is split into readable fields and recombined on read. No I/O here:
:mod:`mcplock_tui.storage` turns documents into bytes.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcplock_tui.core.canonical import (
    HASH_MODEL,
    HashedItem,
    canon_json,
    digest,
    digest_text,
    escape_hidden_json,
    plain_pretty_json,
)
from mcplock_tui.core.errors import LockfileError, PinHashError
from mcplock_tui.core.model import ITEM_KINDS, JSON, PROMPT_MESSAGES_KEY, Kind, Surface
from mcplock_tui.core.surface import KEY_FIELD, MAX_DEPTH, depth_exceeds

if TYPE_CHECKING:
    from mcplock_tui.core.hosts import HostCollector

LOCKFILE_VERSION = 2
_READABLE_VERSIONS = (1, 2)

# (wire key, lockfile key) pairs. Text fields are stored as TOML strings when the server
# sent a string; JSON fields are stored as pretty JSON text whatever their value.
_TEXT_FIELDS: dict[Kind, tuple[tuple[str, str], ...]] = {
    Kind.TOOL: (("name", "name"), ("title", "title"), ("description", "description")),
    Kind.PROMPT: (("name", "name"), ("title", "title"), ("description", "description")),
    Kind.RESOURCE: (
        ("uri", "uri"),
        ("name", "name"),
        ("title", "title"),
        ("description", "description"),
        ("mimeType", "mime_type"),
    ),
    Kind.RESOURCE_TEMPLATE: (
        ("uriTemplate", "uri_template"),
        ("name", "name"),
        ("title", "title"),
        ("description", "description"),
        ("mimeType", "mime_type"),
    ),
    Kind.INSTRUCTIONS: (("instructions", "text"),),
    Kind.SERVER: (("launch", "launch"), ("protocolVersion", "protocol_version")),
}
_JSON_FIELDS: dict[Kind, tuple[tuple[str, str], ...]] = {
    Kind.TOOL: (
        ("inputSchema", "input_schema"),
        ("outputSchema", "output_schema"),
        ("annotations", "annotations"),
    ),
    Kind.PROMPT: (("arguments", "arguments"), (PROMPT_MESSAGES_KEY, "messages")),
    Kind.RESOURCE: (),
    Kind.RESOURCE_TEMPLATE: (),
    Kind.INSTRUCTIONS: (),
    Kind.SERVER: (("serverInfo", "server_info"), ("capabilities", "capabilities")),
}
_TABLE: dict[Kind, str] = {
    Kind.TOOL: "tools",
    Kind.PROMPT: "prompts",
    Kind.RESOURCE: "resources",
    Kind.RESOURCE_TEMPLATE: "resource_templates",
}


@dataclass(frozen=True, slots=True)
class Rejection:
    """A definition a reviewer refused: ``--check`` keeps failing on it, marked as triaged."""

    kind: Kind
    name: str
    hash: str
    """Hash of the refused definition, or ``removed`` when the refusal was of a removal."""
    note: str = ""


@dataclass(frozen=True, slots=True)
class ServerPin:
    surface: Surface
    rejected: tuple[Rejection, ...] = ()

    def rejection_for(self, kind: Kind, name: str) -> Rejection | None:
        for rejection in self.rejected:
            if rejection.kind is kind and rejection.name == name:
                return rejection
        return None


@dataclass(frozen=True, slots=True)
class LogHead:
    """The decision log's newest record, as a version 1 lockfile named it (version 2 binds
    each item to its records instead, see :mod:`mcplock_tui.evidence.ledger`)."""

    seq: int
    head: str
    """Hash of that record (what the next record's ``prev`` holds)."""


@dataclass(frozen=True, slots=True)
class Lockfile:
    servers: Mapping[str, ServerPin] = field(default_factory=dict)
    log_head: LogHead | None = None


def hashed_surface(surface: Surface) -> Surface:
    """``surface`` with every list item's digest computed once and kept with the item.

    A new pin needs each item's digest for its signed record and again for the scan memo;
    a :class:`HashedItem` carries it from the one to the other.
    """
    lists: dict[Kind, dict[str, Mapping[str, JSON]]] = {}
    for kind in ITEM_KINDS:
        lists[kind] = {name: _hashed(kind, item) for name, item in surface.items(kind).items()}
    return Surface(
        server=surface.server,
        instructions=surface.instructions,
        tools=lists[Kind.TOOL],
        prompts=lists[Kind.PROMPT],
        resources=lists[Kind.RESOURCE],
        resource_templates=lists[Kind.RESOURCE_TEMPLATE],
    )


def _hashed(kind: Kind, item: Mapping[str, JSON]) -> Mapping[str, JSON]:
    if type(item) is HashedItem:
        return item
    return HashedItem(item, digest(item))


def share_unchanged(
    pinned: Surface, kind: Kind, live: list[object], shared: set[int] | None = None
) -> None:
    """Put each pinned item whose live twin has the same definition in that twin's place.

    Capture calls this page by page, so a check never holds an unchanged item twice (at
    20,000 tools each side is tens of megabytes): the live copy is freed as soon as it is
    found equal, and the diff finds the two sides to be one object. The pinned object is
    the one kept: it carries the digest it was verified against, which the scan memo keys
    on. Only equal canonical JSON counts, so the live surface means what the server sent
    (in the pin's key order); an item whose key capture gives another name (a duplicate)
    is merely not shared. ``shared`` collects the ``id`` of each item shared: it was read
    from the lockfile within the depth bound, so assembling the surface need not walk it
    again.
    """
    items = pinned.items(kind)
    if not items or type(items) is not dict:
        return
    field = KEY_FIELD[kind]
    for index, item in enumerate(live):
        if type(item) is not dict:
            continue
        key = item.get(field)
        old = items.get(key) if type(key) is str else None
        if type(old) is not HashedItem:
            continue
        try:
            text = canon_json(item)
        except (RecursionError, ValueError, TypeError):  # refused by capture anyway
            continue
        if digest_text(text) == old.digest:
            live[index] = old
            if shared is not None:
                shared.add(id(old))


def _encode_item(
    kind: Kind, item: Mapping[str, JSON], hosts: HostCollector | None = None
) -> dict[str, Any]:
    """``item``'s table; ``hosts`` collects the hosts its strings name on the way."""
    table: dict[str, Any] = {}
    rest = dict(item)
    skip = kind is Kind.SERVER  # the launch line is our configuration: names no host
    for wire, key in _TEXT_FIELDS[kind]:
        value = rest.get(wire)
        if isinstance(value, str):
            table[key] = value
            del rest[wire]
            if hosts is not None and not (skip and wire == "launch"):
                hosts.string(value)
    for wire, key in _JSON_FIELDS[kind]:
        if wire in rest:
            table[key] = _pretty(rest.pop(wire), hosts)
    if rest:
        if skip and hosts is not None and "launch" in rest:  # not a string: not ours either
            hosts.json_text(plain_pretty_json({k: v for k, v in rest.items() if k != "launch"}))
            hosts = None
        table["extra"] = _pretty(rest, hosts)
    if hosts is not None:
        hosts.uri(kind, item)
    return table


def _pretty(value: Any, hosts: HostCollector | None) -> str:
    text = plain_pretty_json(value)
    if hosts is not None:
        hosts.json_text(text)
    return escape_hidden_json(text)


_SHORT = 16


def _shared_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    return {
        sys.intern(key): sys.intern(v) if type(v) is str and len(v) <= _SHORT else v
        for key, v in pairs
    }


_FIELD_DECODER = json.JSONDecoder(object_pairs_hook=_shared_keys)
"""Each JSON field of a lockfile is its own decode, and the C decoder shares repeated keys
within one call only: without this every pinned item held its own ``type``,
``description``, ``properties``... (about a fifth of the pinned side at 20,000 tools).
Short string values are shared too: ``"string"``, ``"object"``, ``"integer"``."""
_decode_json = _FIELD_DECODER.decode


def _decode_item(kind: Kind, table: Any, where: str, stored: bool = False) -> dict[str, JSON]:
    """One item from its table; ``stored``: the table holds its ``hash`` (version 1)."""
    if not isinstance(table, dict):
        raise LockfileError(f"{where}: expected a table")
    item: dict[str, JSON] = {}
    try:
        if "extra" in table:
            extra = _decode_json(_text(table, "extra", where))
            if not isinstance(extra, dict):
                raise LockfileError(f"{where}.extra: expected a JSON object")
            item.update(extra)
        for wire, key in _TEXT_FIELDS[kind]:
            if key in table:
                item[wire] = _text(table, key, where)
        for wire, key in _JSON_FIELDS[kind]:
            if key in table:
                item[wire] = _decode_json(_text(table, key, where))
    except json.JSONDecodeError as exc:
        raise LockfileError(
            f"{where}: invalid JSON text ({exc.msg} at line {exc.lineno})"
        ) from None
    except RecursionError:
        raise LockfileError(f"{where}: JSON text nested too deeply") from None
    except ValueError as exc:  # a number of more than 4300 digits
        raise LockfileError(f"{where}: invalid JSON text ({exc})") from None
    try:
        text: str | None = canon_json(item)
    except RecursionError:  # deep enough for the encoder to give up: the walk decides
        text = None
    if (text is None or not _shallow(text)) and depth_exceeds(item, MAX_DEPTH):
        # the same bound capture applied
        raise LockfileError(f"{where}: definition nested more than {MAX_DEPTH} levels deep")
    if text is None:
        raise LockfileError(f"{where}: JSON text nested too deeply")
    actual = digest_text(text)
    if stored and table.get("hash") != actual:
        raise PinHashError(
            f"{where}: the pinned definition does not match its hash (edited by hand?)"
        )
    return HashedItem(item, actual)


def _shallow(text: str) -> bool:
    """Whether the value whose canonical JSON is ``text`` is within the depth bound.

    Every array or object opens with one bracket there, so with fewer than ``MAX_DEPTH``
    opening brackets (brackets inside strings only add to the count) no leaf can sit deeper
    than ``MAX_DEPTH``; only a definition with more needs the walk of :func:`depth_exceeds`.
    """
    return text.count("[") + text.count("{") < MAX_DEPTH


def _text(table: Mapping[str, Any], key: str, where: str) -> str:
    value = table[key]
    if not isinstance(value, str):
        raise LockfileError(f"{where}.{key}: expected a string")
    return value


def encode(lock: Lockfile) -> dict[str, Any]:
    """Lockfile -> TOML-shaped dict, in a fixed order so the bytes are deterministic."""
    from mcplock_tui.core.hosts import HostCollector  # only a write needs the host patterns

    servers: dict[str, Any] = {}
    for name in sorted(lock.servers):
        pin = lock.servers[name]
        surface = pin.surface
        found = HostCollector()
        table: dict[str, Any] = {"server": _encode_item(Kind.SERVER, surface.server, found)}
        if surface.instructions is not None:
            table["instructions"] = _encode_item(
                Kind.INSTRUCTIONS, {"instructions": surface.instructions}, found
            )
        for kind in ITEM_KINDS:
            items = surface.items(kind)
            if items:
                table[_TABLE[kind]] = {
                    key: _encode_item(kind, items[key], found) for key in sorted(items)
                }
        if found.hosts:  # what surface_hosts finds, without encoding the surface again
            table["hosts"] = sorted(found.hosts)
        if pin.rejected:
            table["rejected"] = [
                {"kind": r.kind.value, "name": r.name, "hash": r.hash, "note": r.note}
                for r in sorted(pin.rejected, key=lambda r: (r.kind.value, r.name))
            ]
        servers[name] = table
    doc: dict[str, Any] = {"version": LOCKFILE_VERSION, "hash_model": HASH_MODEL}
    doc["servers"] = servers
    return doc


def _same_int(value: object, expected: int) -> bool:
    return type(value) is int and value == expected  # `true` is not 1 here


def decode(doc: Mapping[str, Any], source: str = "lockfile", *, consume: bool = False) -> Lockfile:
    """TOML-shaped dict -> Lockfile; refuses other versions, wrong types and any hash mismatch.

    ``consume`` empties ``doc``'s server tables as their items are decoded, for a caller whose
    document is its own: each item's table (its JSON texts) is freed as soon as the item is
    read, so the document and the decoded pins never live whole at once.
    """
    version = doc.get("version")
    if not any(_same_int(version, v) for v in _READABLE_VERSIONS):
        raise LockfileError(
            f"{source}: lockfile format version {version!r} is not supported; this mcplock-tui "
            f"reads versions {' and '.join(map(str, _READABLE_VERSIONS))} (upgrade "
            "mcplock-tui, or re-pin to rewrite it)"
        )
    stored = version == 1
    if not _same_int(doc.get("hash_model"), HASH_MODEL):
        raise LockfileError(
            f"{source}: hash model {doc.get('hash_model')!r} differs from this mcplock-tui's "
            f"{HASH_MODEL}; re-pin to rewrite the lockfile"
        )
    raw_servers = doc.get("servers", {})
    if not isinstance(raw_servers, dict):
        raise LockfileError(f"{source}: 'servers' must be a table")
    servers: dict[str, ServerPin] = {}
    for name in list(raw_servers):
        table = raw_servers.pop(name) if consume else raw_servers[name]
        try:
            servers[name] = _decode_server(table, f"{source}: servers.{name}", consume, stored)
        except LockfileError as exc:  # one server's table: replaceable on its own
            raise PinHashError(
                f"{exc}; restore the file from version control, or run `mcplock-tui pin "
                f"--server {shlex.quote(name)} --replace` to capture that server and pin it "
                "again (the other pins stay as they are)",
                server=name,
            ) from None
    log_head = _decode_log_head(doc.get("log"), source) if stored else None
    return Lockfile(servers=servers, log_head=log_head)


def _decode_server(
    table: Any, where: str, consume: bool = False, stored: bool = False
) -> ServerPin:
    if not isinstance(table, dict) or "server" not in table:
        raise LockfileError(f"{where}: missing [server] table")
    server = _decode_item(Kind.SERVER, table["server"], where + ".server", stored)
    instructions = None
    if "instructions" in table:
        item = _decode_item(
            Kind.INSTRUCTIONS, table["instructions"], where + ".instructions", stored
        )
        value = item.get("instructions")
        instructions = value if isinstance(value, str) else None
    lists: dict[Kind, dict[str, dict[str, JSON]]] = {}
    for kind in ITEM_KINDS:
        raw_items = table.get(_TABLE[kind], {})
        if not isinstance(raw_items, dict):
            raise LockfileError(f"{where}.{_TABLE[kind]}: expected a table")
        take = raw_items.pop if consume else raw_items.__getitem__
        lists[kind] = {
            key: _decode_item(kind, take(key), f"{where}.{_TABLE[kind]}.{key}", stored)
            for key in list(raw_items)
        }
    hosts = table.get("hosts", [])
    if not isinstance(hosts, list) or not all(isinstance(h, str) for h in hosts):
        raise LockfileError(f"{where}.hosts: expected a list of host names")
    raw_rejected = table.get("rejected", [])
    if not isinstance(raw_rejected, list):
        raise LockfileError(f"{where}.rejected: expected an array of tables")
    rejected = tuple(_decode_rejection(r, where) for r in raw_rejected)
    surface = Surface(
        server=server,
        instructions=instructions,
        tools=lists[Kind.TOOL],
        prompts=lists[Kind.PROMPT],
        resources=lists[Kind.RESOURCE],
        resource_templates=lists[Kind.RESOURCE_TEMPLATE],
    )
    return ServerPin(surface=surface, rejected=rejected)


def _decode_log_head(raw: Any, source: str) -> LogHead | None:
    if raw is None:
        return None
    seq, head = (raw.get("seq"), raw.get("head")) if isinstance(raw, dict) else (None, None)
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1 or not isinstance(head, str):
        raise LockfileError(f"{source}: [log] must hold seq (a positive integer) and head (text)")
    return LogHead(seq=seq, head=head)


def _decode_rejection(raw: Any, where: str) -> Rejection:
    try:
        return Rejection(
            kind=Kind(raw["kind"]),
            name=str(raw["name"]),
            hash=str(raw["hash"]),
            note=str(raw.get("note", "")),
        )
    except (KeyError, ValueError, TypeError):
        raise LockfileError(f"{where}.rejected: malformed entry {raw!r}") from None
