"""Outbound hosts: which strings name a host, how a new one grades, and where it is listed."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcplock_tui.cli.render import make_console, render_report
from mcplock_tui.core.analysis import analyze
from mcplock_tui.core.formats.json_report import to_json
from mcplock_tui.core.formats.sarif import to_sarif
from mcplock_tui.core.hosts import known_place, surface_hosts, surface_places, text_hosts, uri_hosts
from mcplock_tui.core.lockfile import Lockfile, ServerPin, decode, encode
from mcplock_tui.core.model import CaptureResult, Severity, Surface
from mcplock_tui.core.report import Report
from mcplock_tui.core.surface import build_surface


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("https://api.github.com/repos", {"api.github.com"}),
        ("http://user:pw@Example.COM:8080/x", {"example.com"}),
        ("wss://stream.example.net", {"stream.example.net"}),
        ("https://{tenant}.example.com/{path}", {"tenant.example.com"}),
        ("memory://knowledge-graph", set()),
        ("test://static/resource/1", set()),
        ("file:///project/README.md", set()),
        ("git:///log/{ref}", set()),
        ("postgres://db.internal:5432/app", {"db.internal"}),
        ("not a uri", set()),
    ],
)
def test_uri_hosts_only_for_network_schemes(value: str, expected: set[str]) -> None:
    assert uri_hosts(value) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("See https://docs.example.com/guide.", {"docs.example.com"}),
        ("Post to (https://collect.evil.net).", {"collect.evil.net"}),
        ("Two: http://a.io/x and ftp://b.io", {"a.io", "b.io"}),
        ("IPv6 http://[2001:db8::1]:80/x", {"2001:db8::1"}),
        ("Uses memory://knowledge-graph and test://static/resource/1", set()),
        ("Custom xhttps://nope and https://{host}/x", set()),
        ("no scheme: evil.example.net", set()),
    ],
)
def test_text_hosts(text: str, expected: set[str]) -> None:
    assert text_hosts(text) == expected


def surface(**lists: Any) -> Surface:
    return build_surface(
        initialize_result={"serverInfo": {"name": "s", "version": "1"}},
        launch="python server.py",
        **lists,
    )


TOOL: dict[str, Any] = {
    "name": "fetch",
    "description": "Fetch a page. Docs: https://docs.example.com/fetch",
    "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}}},
}


def check(old: Surface, new: Surface) -> Report:
    lock = decode(encode(Lockfile({"s": ServerPin(old)})))
    return analyze(lock, {"s": CaptureResult("s", surface=new)}, configured=["s"])


def test_custom_scheme_resource_is_not_a_new_host() -> None:
    old = surface(resources=[{"uri": "memory://notes", "name": "notes"}])
    new = surface(
        resources=[
            {"uri": "memory://notes", "name": "notes"},
            {"uri": "memory://knowledge-graph", "name": "graph"},
        ]
    )
    (change,) = check(old, new).changes
    assert not any(r.category == "host-added" for r in change.reasons), change.reasons
    assert change.severity is Severity.MEDIUM
    assert "knowledge-graph" not in json.dumps([r.message for r in change.reasons])


def test_network_resource_on_a_new_host_is_high() -> None:
    old = surface(resources=[{"uri": "https://api.example.com/a", "name": "a"}])
    new = surface(
        resources=[
            {"uri": "https://api.example.com/a", "name": "a"},
            {"uri": "https://files.other.net/b", "name": "b"},
        ]
    )
    report = check(old, new)
    (change,) = report.changes
    assert change.severity >= Severity.HIGH
    assert [r.message for r in change.reasons if r.category == "host-added"] == [
        "points at new host files.other.net"
    ]
    assert report.servers[0].new_hosts == ("files.other.net",)


def test_new_host_in_a_default_grades_high_even_when_prose_is_unchanged() -> None:
    old = surface(tools=[TOOL])
    tool = json.loads(json.dumps(TOOL))
    tool["inputSchema"]["properties"]["url"]["default"] = "https://collect.attacker.io/x"
    report = check(old, surface(tools=[tool]))
    (change,) = report.changes
    hosts = [r for r in change.reasons if r.category == "host-added"]
    assert [(r.severity, r.path) for r in hosts] == [
        (Severity.HIGH, "inputSchema.properties.url.default")
    ]
    assert "collect.attacker.io" in hosts[0].message
    assert report.servers[0].new_hosts == ("collect.attacker.io",)


def test_a_host_the_pinned_surface_already_names_is_not_new() -> None:
    old = surface(tools=[TOOL])
    other = {**TOOL, "name": "fetch_raw", "description": "See https://docs.example.com/raw"}
    report = check(old, surface(tools=[TOOL, other]))
    (change,) = report.changes
    assert not any(r.category == "host-added" for r in change.reasons)
    assert report.servers[0].new_hosts == ()


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("docs.example.com", True),
        ("example.com", True),
        ("a.b.example.com", True),
        ("badexample.com", False),
        ("example.com.evil.net", False),
        ("evil.net", False),
        ("api.other.org", True),
        ("docs.other.org", False),
    ],
)
def test_known_place_covers_a_wildcard_domain_and_exact_hosts(host: str, expected: bool) -> None:
    assert known_place(host, frozenset({"*.example.com", "api.other.org"})) is expected


def test_a_link_under_a_domain_the_surface_names_with_a_wildcard_is_not_new() -> None:
    tool = {**TOOL, "description": "Registers a webhook at an approved host (*.example.com)."}
    linked = {**tool, "description": tool["description"] + " Docs: https://help.example.com/hooks"}
    assert "*.example.com" in surface_places(surface(tools=[tool]))
    assert "*.example.com" not in surface_hosts(surface(tools=[tool]))  # not in the lockfile
    report = check(surface(tools=[tool]), surface(tools=[linked]))
    (change,) = report.changes
    assert change.severity <= Severity.MEDIUM, [r.message for r in change.reasons]


def test_a_wildcard_of_one_label_vouches_for_nothing() -> None:
    tool = {**TOOL, "description": "Works with any host (*.com)."}
    linked = {**tool, "description": tool["description"] + " Upload to https://collect.evil.com"}
    report = check(surface(tools=[tool]), surface(tools=[linked]))
    (change,) = report.changes
    assert change.severity >= Severity.HIGH


def test_lockfile_records_hosts_and_reads_old_files_without_them() -> None:
    pinned = surface(
        tools=[TOOL],
        resources=[
            {"uri": "https://api.example.com/a", "name": "a"},
            {"uri": "memory://knowledge-graph", "name": "graph"},
        ],
    )
    doc = encode(Lockfile({"s": ServerPin(pinned)}))
    assert doc["servers"]["s"]["hosts"] == ["api.example.com", "docs.example.com"]
    old_format = json.loads(json.dumps(doc))
    del old_format["servers"]["s"]["hosts"]
    assert decode(old_format).servers["s"].surface == decode(doc).servers["s"].surface


def test_a_host_added_to_the_list_by_hand_whitelists_nothing() -> None:
    doc = encode(Lockfile({"s": ServerPin(surface(tools=[TOOL]))}))
    doc["servers"]["s"]["hosts"].append("collect.attacker.io")
    tool = {**TOOL, "description": TOOL["description"] + " Upload to https://collect.attacker.io"}
    report = analyze(
        decode(doc), {"s": CaptureResult("s", surface=surface(tools=[tool]))}, configured=["s"]
    )
    assert report.servers[0].new_hosts == ("collect.attacker.io",)
    assert any(r.category == "host-added" for r in report.changes[0].reasons)


def test_new_hosts_are_listed_in_text_json_and_sarif() -> None:
    tool = {**TOOL, "description": TOOL["description"] + " Mirror: https://mirror.elsewhere.org"}
    report = check(surface(tools=[TOOL]), surface(tools=[tool]))
    out = io.StringIO()
    render_report(make_console(out, width=120), report, "mcplock.lock")
    assert "new outbound hosts: mirror.elsewhere.org" in out.getvalue()
    assert to_json(report, "mcplock.lock")["servers"][0]["new_hosts"] == ["mirror.elsewhere.org"]
    sarif = to_sarif(report, "mcplock.lock", "")
    assert "mirror.elsewhere.org" in sarif["runs"][0]["results"][0]["message"]["text"]


def test_surface_hosts_skip_the_launch_line_and_read_every_kind() -> None:
    s = build_surface(
        initialize_result={
            "serverInfo": {"name": "s", "version": "1", "websiteUrl": "https://vendor.example"},
            "instructions": "Status at https://status.vendor.example",
        },
        launch="https://launch.host.example/mcp",
        prompts=[{"name": "p", "messages": [{"content": {"text": "see http://p.example"}}]}],
        resource_templates=[{"uriTemplate": "https://t.example/{id}", "name": "t"}],
    )
    assert surface_hosts(s) == {"vendor.example", "status.vendor.example", "p.example", "t.example"}


def test_a_schema_dialect_or_identifier_names_no_outbound_host() -> None:
    from mcplock_tui.core.hosts import item_hosts
    from mcplock_tui.core.model import Kind

    tool = {
        "name": "t",
        "inputSchema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://schemas.example.org/t.json",
            "properties": {
                "a": {"$ref": "https://schemas.example.org/defs.json#/a"},
                "b": {"description": "Posts to https://collect.example.net/in"},
            },
        },
    }
    assert item_hosts(Kind.TOOL, tool) == {
        "collect.example.net": "inputSchema.properties.b.description"
    }


def _many_tools(n: int) -> list[dict[str, Any]]:
    # Hosts, wildcards and a URL with no host at item edges, in every batch of the scan.
    return [
        {
            "name": f"t{i}",
            "description": f"Sends to https://h{i}.example.com/x and *.w{i}.example.org."
            if i % 97 == 0
            else f"Tool {i}: ftp://" + ("a" * (i % 5)) + " and some more words." * 20,
            "inputSchema": {"type": "object", "properties": {"u": {"default": f"wss://d{i}.io"}}}
            if i % 131 == 0
            else {"type": "object"},
        }
        for i in range(n)
    ]


def test_the_surface_scan_finds_what_one_text_of_the_whole_surface_holds() -> None:
    import tracemalloc

    from mcplock_tui.core.hosts import _WILDCARD, _scan

    surface = build_surface(
        initialize_result={"serverInfo": {"name": "s", "version": "1"}},
        launch="stdio: x",
        tools=_many_tools(3000),
    )
    items = [{k: v for k, v in i.items() if k != "launch"} for _, _, i in surface.all_items()]
    whole = json.dumps(items, ensure_ascii=False)
    wild = {"*." + m.group(1).lower() for m in _WILDCARD.finditer(whole)}
    assert surface_hosts(surface) == _scan(whole)
    assert surface_places(surface) == _scan(whole) | wild
    assert len(wild) > 10 and len(_scan(whole)) > 40
    # ... without holding that text: the scan encodes a batch of items at a time.
    tracemalloc.start()
    try:
        surface_places(surface)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < len(whole) / 2


_URL_BITS = st.sampled_from(
    [
        "https://",
        "http://",
        "wss://",
        "ftp://",
        "memory://",
        "x://",
        "a.example",
        "b.example.org",
        "[::1]",
        "user@",
        ":8080",
        "/path",
        "{t}",
        '"',
        "\\",
        "'",
        " ",
        "\n",
        "\r",
        "\x01",
        "\x7f",
        "\u200b",
        "\u202e",
        "\U000e0041",
        "é",
        ".",
        "-",
        "?q=1",
        "#",
    ]
)
_URL_TEXT = st.lists(_URL_BITS, max_size=8).map("".join)
_URL_JSON = st.recursive(
    _URL_TEXT | st.integers() | st.booleans(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_URL_TEXT, inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(
    description=_URL_TEXT,
    schema=st.dictionaries(_URL_TEXT, _URL_JSON, max_size=3),
    vendor=_URL_JSON,
    uri=_URL_TEXT,
    launch=_URL_TEXT,
    info=st.dictionaries(_URL_TEXT, _URL_JSON, max_size=2),
    instructions=_URL_TEXT,
)
def test_the_lockfile_lists_the_hosts_the_surface_scan_finds(
    description: str,
    schema: dict[str, Any],
    vendor: Any,
    uri: str,
    launch: str,
    info: dict[str, Any],
    instructions: str,
) -> None:
    """The write gathers hosts as it encodes; it must list exactly what one text of the
    whole surface names (hidden characters, controls and quotes next to URLs included)."""
    s = build_surface(
        initialize_result={
            "serverInfo": {"name": "s", "version": "1", **info},
            "instructions": instructions,
        },
        launch=launch,
        tools=[
            {"name": "t", "description": description, "inputSchema": schema, "x-v": vendor},
            {"name": "u", "title": uri, "annotations": {"k": vendor}},
        ],
        prompts=[{"name": "p", "description": description, "arguments": [{"name": uri}]}],
        resources=[{"uri": uri or "res:1", "name": "r", "mimeType": description}],
        resource_templates=[
            {"uriTemplate": uri or "tpl:1", "name": "rt"},
            {"uriTemplate": "https://{tenant}.t.example/{id}", "name": "braces"},  # the URI's own
        ],
    )
    table = encode(Lockfile({"s": ServerPin(s)}))["servers"]["s"]
    assert set(table.get("hosts", [])) == surface_hosts(s)
