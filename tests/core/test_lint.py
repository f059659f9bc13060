"""Advisory lint: ambiguity, scope, annotation lies, naming, and lint drift.

Fixture ``tests/fixtures/filesystem_tools.json``: the 14 tools of the official filesystem
server, ``npx -y @modelcontextprotocol/server-filesystem@2026.8.31 <dir>`` (serverInfo
secure-filesystem-server 0.2.0), captured once over stdio with the mcp 2.3.0 client
(``mode="legacy"``, ``cache=None``) and dumped with
``model_dump(by_alias=True, mode="json", exclude_unset=True)``: the wire JSON, unedited.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import subprocess
import sys
import time
from collections.abc import Mapping
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from mcplock_tui.core.lint import RULES, ambiguous_pairs, lint_drift, lint_tools
from mcplock_tui.core.lint import ambiguity as amb
from mcplock_tui.core.lint.naming import skeleton
from mcplock_tui.core.model import Finding, Severity

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "filesystem_tools.json"

Tools = dict[str, dict[str, Any]]

PATH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"path": {"type": "string"}},
    "required": ["path"],
}
ID_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"id": {"type": "string"}},
    "required": ["id"],
}


def fs_tools() -> Tools:
    return {t["name"]: t for t in json.loads(FIXTURE.read_text(encoding="utf-8"))}


def tool(
    name: Any,
    description: str = "",
    schema: Any = None,
    **annotations: Any,
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": name,
        "description": description,
        "inputSchema": PATH_SCHEMA if schema is None else schema,
    }
    if annotations:
        out["annotations"] = annotations
    return out


def keyed(*tools: dict[str, Any]) -> Tools:
    return {
        t["name"] if isinstance(t["name"], str) else f"<tool #{i}>": t for i, t in enumerate(tools)
    }


def hits(findings: list[Finding]) -> set[tuple[str, str]]:
    return {(f.code, f.item) for f in findings}


# --- the real filesystem server ------------------------------------------------------------


def test_fixture_is_the_real_server_listing() -> None:
    raw = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert isinstance(raw, list)
    assert [t["name"] for t in raw] == [
        "read_file", "read_text_file", "read_media_file", "read_multiple_files", "write_file",
        "edit_file", "create_directory", "list_directory", "list_directory_with_sizes",
        "directory_tree", "move_file", "search_files", "get_file_info",
        "list_allowed_directories",
    ]  # fmt: skip


def test_filesystem_flags_exactly_the_confusable_pairs() -> None:
    pairs = {(p.a, p.b) for p in ambiguous_pairs(fs_tools())}
    assert pairs == {
        ("read_file", "read_media_file"),
        ("read_file", "read_text_file"),
        ("read_media_file", "read_text_file"),
        ("list_directory", "list_directory_with_sizes"),
    }


def test_filesystem_lint_findings_are_exact() -> None:
    findings = lint_tools("fs", fs_tools())
    assert [(f.code, f.item, f.path, f.severity) for f in findings] == [
        ("MCPL-LINT-001", "list_directory", "name", Severity.MEDIUM),
        ("MCPL-LINT-001", "list_directory_with_sizes", "name", Severity.MEDIUM),
        ("MCPL-LINT-001", "read_file", "name", Severity.MEDIUM),
        ("MCPL-LINT-012", "read_file", "description", Severity.LOW),
        ("MCPL-LINT-001", "read_media_file", "name", Severity.MEDIUM),
        ("MCPL-LINT-001", "read_text_file", "name", Severity.MEDIUM),
    ]
    by_item = {(f.code, f.item): f for f in findings}
    read_file = by_item[("MCPL-LINT-001", "read_file")].message
    assert read_file.startswith('may be mistaken for "read_text_file" (score 0.64')
    assert '; "read_media_file" (score 0.46' in read_file
    assert by_item[("MCPL-LINT-012", "read_file")].message == (
        "12 of 12 sibling tools state a boundary "
        '(most often "only works within allowed directories"); this one states none'
    )
    assert all(f.server == "fs" and f.kind == "tool" for f in findings)
    assert len({f.key() for f in findings}) == len(findings)


def test_filesystem_threshold_sits_in_the_documented_gap() -> None:
    """The module docstring's numbers: 28 gated pairs, flagged >= 0.44, others <= 0.37."""
    profiles = amb.profiles(fs_tools())
    gated = [amb.score(a, b) for a, b in combinations(profiles, 2) if amb.substitutable(a, b)]
    assert len(gated) == 28
    flagged = sorted(round(p.score, 2) for p in gated if p.score >= amb.THRESHOLD)
    rest = max(p.score for p in gated if p.score < amb.THRESHOLD)
    assert flagged == [0.44, 0.46, 0.64, 0.82]
    assert round(rest, 2) == 0.37
    assert rest < amb.THRESHOLD < min(flagged)


# --- ambiguity, hand-made ------------------------------------------------------------------

NUM_ID = {"type": "object", "properties": {"id": {"type": "number"}}, "required": ["id"]}
INT_ID = {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}
EMAIL = {"type": "object", "properties": {"email": {"type": "string"}}, "required": ["email"]}

AMBIGUITY_CASES = [
    pytest.param(
        tool("get_user", "Get a user by id.", ID_SCHEMA),
        tool("fetch_user", "Fetch a user record by id.", ID_SCHEMA),
        True,
        id="verb-synonyms-fold",
    ),
    pytest.param(
        tool("search", "Search the web for pages.", ID_SCHEMA),
        tool("find", "Find pages on the web.", ID_SCHEMA),
        True,
        id="bare-verbs",
    ),
    pytest.param(
        tool("get_issue", "Get an issue.", INT_ID),
        tool("get_issue_details", "Get issue details.", NUM_ID),
        True,
        id="integer-satisfies-number",
    ),
    pytest.param(
        tool("get_issue", "Get an issue.", ID_SCHEMA),
        tool("get_issue_details", "Get issue details.", INT_ID),
        False,
        id="gate-type-mismatch",
    ),
    pytest.param(
        tool("get_user", "Get a user by id.", ID_SCHEMA),
        tool("get_user_by_email", "Get a user by email.", EMAIL),
        False,
        id="gate-required-missing",
    ),
    pytest.param(
        tool("lock_file", "Lock a file so others cannot edit it."),
        tool("unlock_file", "Unlock a file so others can edit it."),
        False,
        id="veto-antonyms",
    ),
    pytest.param(
        tool("read_config", "Read the configuration file at path."),
        tool("write_config", "Write the configuration file at path."),
        False,
        id="veto-read-vs-write",
    ),
    pytest.param(
        tool("list_directory", "List the entries of a directory."),
        tool("search_directory", "Search the entries of a directory."),
        False,
        id="veto-different-verbs",
    ),
    pytest.param(
        tool("get_issue", "Get details of a specific issue.", ID_SCHEMA),
        tool("get_issue_comments", "Get comments for a specific issue.", ID_SCHEMA),
        False,
        id="different-head-noun",
    ),
    pytest.param(
        tool("get_user_profile", "Get a profile.", ID_SCHEMA),
        tool("get_profile_picture", "Returns an image.", ID_SCHEMA),
        False,
        id="head-differs-though-nouns-overlap",
    ),
    pytest.param(
        tool("read_text_file", "Read a text file and return its text."),
        tool("read_media_file", "Encode an image as base64 with its MIME type."),
        False,
        id="score-below-threshold",
    ),
    pytest.param(
        tool("get_user", "Get a user by id.", ID_SCHEMA),
        tool("getUser", "Get a user by id.", ID_SCHEMA),
        False,
        id="look-alikes-left-to-naming",
    ),
]


@pytest.mark.parametrize(("a", "b", "flagged"), AMBIGUITY_CASES)
def test_ambiguity_cases(a: dict[str, Any], b: dict[str, Any], flagged: bool) -> None:
    tools = keyed(a, b)
    pairs = [(p.a, p.b) for p in ambiguous_pairs(tools)]
    assert pairs == ([tuple(sorted((a["name"], b["name"])))] if flagged else [])
    codes = {f.code for f in lint_tools("s", tools) if f.code == "MCPL-LINT-001"}
    assert codes == ({"MCPL-LINT-001"} if flagged else set())


def _namespace(prefix: str) -> list[dict[str, Any]]:
    return [
        tool(f"{prefix}_list_issues", "List issues in a repository.", ID_SCHEMA),
        tool(f"{prefix}_fetch_issues", "Fetch the issues of a repository.", ID_SCHEMA),
        tool(f"{prefix}_create_branch", "Create a branch.", ID_SCHEMA),
    ]


def test_namespaces_tell_tools_apart_but_not_within_one() -> None:
    tools = keyed(*_namespace("github"), *_namespace("gitlab"))
    # github_list_issues and gitlab_list_issues match on everything but the namespace;
    # list vs fetch (folded to get) inside one namespace are different verbs.
    assert ambiguous_pairs(tools) == []
    same = keyed(
        *_namespace("github"),
        tool("github_get_issues", "Get the issues of a repository.", ID_SCHEMA),
    )
    assert {(p.a, p.b) for p in ambiguous_pairs(same)} == {
        ("github_fetch_issues", "github_get_issues")
    }


def test_cluster_finding_names_every_partner() -> None:
    tools = keyed(
        tool("get_user", "Get a user by id.", ID_SCHEMA),
        tool("fetch_user", "Fetch a user by id.", ID_SCHEMA),
        tool("retrieve_user", "Retrieve a user by id.", ID_SCHEMA),
    )
    findings = [f for f in lint_tools("s", tools) if f.code == "MCPL-LINT-001"]
    assert [f.item for f in findings] == ["fetch_user", "get_user", "retrieve_user"]
    for f in findings:
        others = {"fetch_user", "get_user", "retrieve_user"} - {f.item}
        assert all(f'"{o}"' in f.message for o in others)
        assert f'"{f.item}"' not in f.message


# --- scope ---------------------------------------------------------------------------------

SCOPE_CASES = [
    pytest.param(
        tool("delete_record", "Deletes a record."),
        [("MCPL-LINT-010", "name", "delete_record")],
        id="destructive-name",
    ),
    pytest.param(
        tool("shell", "Execute arbitrary shell commands anywhere on the host."),
        [("MCPL-LINT-011", "description", "arbitrary")],
        id="unbounded-reach",
    ),
    pytest.param(
        tool("records", "Permanently de\u200bletes a record."),
        [("MCPL-LINT-010", "description", "de\u200bletes")],
        id="zero-width-inside-verb",
    ),
    pytest.param(
        tool("delete_file", "Deletes a file. Only works within allowed directories."),
        [],
        id="bounded-in-description",
    ),
    pytest.param(
        tool(
            "delete_file",
            "Deletes a file.",
            {
                "type": "object",
                "properties": {
                    "path": {"type": "string", "description": "Must be inside the sandbox."}
                },
            },
        ),
        [],
        id="bounded-in-parameter",
    ),
    pytest.param(
        tool("list_trash", "Lists files, deleting nothing.", readOnlyHint=True),
        [],
        id="read-only-description-not-scanned",
    ),
    pytest.param(
        tool("list_trash", "Shows deleted files and results truncated at 100."),
        [],
        id="past-participles-describe-state",
    ),
    pytest.param(
        tool("archive_note", "Archives a note. This tool never deletes anything."),
        [],
        id="negated-verb",
    ),
    pytest.param(
        tool("run_query", "Runs a read-only SQL query.", readOnlyHint=True),
        [],
        id="read-only-runner",
    ),
]


@pytest.mark.parametrize(("subject", "expected"), SCOPE_CASES)
def test_scope_cases(subject: dict[str, Any], expected: list[tuple[str, str, str]]) -> None:
    findings = [f for f in lint_tools("s", keyed(subject)) if f.code.startswith("MCPL-LINT-01")]
    assert [(f.code, f.path, f.excerpt) for f in findings] == expected
    for f in findings:
        assert f.span is not None
        source = subject["name"] if f.path == "name" else subject["description"]
        assert source[f.span[0] : f.span[1]] == f.excerpt


BOUND = "Only works within allowed directories."


@pytest.mark.parametrize(
    ("bounded", "unbounded", "expected"),
    [
        pytest.param(3, 1, {"u0"}, id="three-of-three-siblings"),
        pytest.param(4, 2, {"u0", "u1"}, id="four-of-five-siblings"),
        pytest.param(2, 1, set(), id="too-few-to-be-a-convention"),
        pytest.param(3, 3, set(), id="three-of-five-is-not-most"),
    ],
)
def test_convention_departure(bounded: int, unbounded: int, expected: set[str]) -> None:
    tools = {f"b{i}": tool(f"b{i}", f"Reads b{i}. {BOUND}") for i in range(bounded)}
    tools |= {f"u{i}": tool(f"u{i}", f"Reads u{i}.") for i in range(unbounded)}
    # A tool without parameters has nothing to bound and is neither sibling nor departure.
    tools["roots"] = tool("roots", "Lists the roots.", {"type": "object", "properties": {}})
    found = {f.item for f in lint_tools("s", tools) if f.code == "MCPL-LINT-012"}
    assert found == expected


# --- annotations ---------------------------------------------------------------------------

HINT_CASES = [
    pytest.param(
        tool("write_note", "Write a note.", readOnlyHint=True), "MCPL-LINT-020", id="ro-name"
    ),
    pytest.param(
        tool("ticket", "Creates a ticket.", readOnlyHint=True), "MCPL-LINT-020", id="ro-desc"
    ),
    pytest.param(
        tool("github_create_issue", "Opens an issue.", readOnlyHint=True),
        "MCPL-LINT-020",
        id="ro-after-namespace",
    ),
    pytest.param(
        tool("mysql_describe_commit", "Describe a commit.", readOnlyHint=True),
        None,
        id="ro-verb-object",
    ),
    pytest.param(tool("run_query", "Run a SQL query.", readOnlyHint=True), None, id="ro-runner"),
    pytest.param(
        tool("write_note", "Write a note.", readOnlyHint="true"), None, id="ro-string-not-bool"
    ),
    pytest.param(
        tool("delete_user", "Delete a user.", destructiveHint=False), "MCPL-LINT-021", id="nd-name"
    ),
    pytest.param(
        tool("save_file", "Overwrites the target file.", destructiveHint=False),
        "MCPL-LINT-021",
        id="nd-lead-verb",
    ),
    pytest.param(
        tool("put_file", "Stores a file; it overwrites any existing copy.", destructiveHint=False),
        "MCPL-LINT-021",
        id="nd-verb-in-text",
    ),
    pytest.param(
        tool(
            "create_file", "Creates a file. Fails rather than overwrite it.", destructiveHint=False
        ),
        None,
        id="nd-negated",
    ),
    pytest.param(tool("delete_user", "Delete a user.", destructiveHint=True), None, id="nd-honest"),
    pytest.param(tool("delete_user", "Delete a user."), None, id="no-hints"),
]


@pytest.mark.parametrize(("subject", "code"), HINT_CASES)
def test_annotation_cases(subject: dict[str, Any], code: str | None) -> None:
    found = [f for f in lint_tools("s", keyed(subject)) if f.code.startswith("MCPL-LINT-02")]
    assert [f.code for f in found] == ([code] if code else [])


def test_annotation_message_says_where_the_verb_is() -> None:
    subject = tool("ticket", "Creates a ticket.", readOnlyHint=True)
    (f,) = [f for f in lint_tools("s", keyed(subject)) if f.code == "MCPL-LINT-020"]
    assert f.path == "annotations.readOnlyHint"
    assert f.message == 'marked readOnlyHint: true, but its description says "create"'
    assert f.severity is Severity.HIGH


# --- naming --------------------------------------------------------------------------------


def naming_findings(tools: Mapping[str, dict[str, Any]]) -> set[tuple[str, str]]:
    return {(f.code, f.item) for f in lint_tools("s", tools) if f.code.startswith("MCPL-LINT-03")}


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        pytest.param("read file", "contains a space", id="space"),
        pytest.param("x" * 129, "is 129 characters long", id="too-long"),
        pytest.param("", "is empty", id="empty"),
        pytest.param("rеad", "contains U+0435 CYRILLIC SMALL LETTER IE", id="cyrillic"),
        pytest.param("read\u200bfile", "contains U+200B ZERO WIDTH SPACE", id="zero-width"),
        pytest.param("read\nfile", "contains '\\n'", id="newline-not-accepted-by-dollar"),
    ],
)
def test_invalid_names(name: str, reason: str) -> None:
    (f,) = [f for f in lint_tools("s", {name: tool(name)}) if f.code == "MCPL-LINT-030"]
    assert f.message == f"name {reason}; tool names should match ^[A-Za-z0-9_.-]{{1,128}}$"
    assert f.excerpt == name


@pytest.mark.parametrize("name", ["read_file", "a", "x" * 128, "ns.tool-name_2"])
def test_valid_names(name: str) -> None:
    assert naming_findings({name: tool(name)}) == set()


def test_missing_name_is_reported_under_its_key() -> None:
    found = lint_tools("s", {"<tool #0>": {"description": "no name"}})
    assert [(f.code, f.item, f.message) for f in found] == [
        ("MCPL-LINT-030", "<tool #0>", "has no name string; it cannot be called")
    ]


def test_duplicates_exact_and_case_insensitive() -> None:
    tools = {
        "read_file": tool("read_file"),
        "read_file#2": tool("read_file"),
        "Read_File": tool("Read_File"),
    }
    assert naming_findings(tools) == {
        ("MCPL-LINT-031", "read_file"),
        ("MCPL-LINT-031", "read_file#2"),
        ("MCPL-LINT-031", "Read_File"),
    }
    (dup,) = [f for f in lint_tools("s", tools) if f.item == "read_file"]
    assert dup.message == 'has the same name as "Read_File", "read_file" (kept as read_file#2)'


def test_confusables() -> None:
    tools = keyed(tool("read_file"), tool("rеad_file"), tool("readFile"), tool("read_files"))
    assert naming_findings(tools) == {
        ("MCPL-LINT-030", "rеad_file"),
        ("MCPL-LINT-032", "read_file"),
        ("MCPL-LINT-032", "rеad_file"),
        ("MCPL-LINT-032", "readFile"),
    }


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("read_file", "rеad_file", True),  # Cyrillic e
        ("list_all", "list_a1l", True),
        ("get_info", "get_inf0", True),
        ("modern", "modem", True),  # rn / m
        ("get-item", "get.item", True),
        ("get_item", "get_items", False),
        ("create_issue", "delete_issue", False),
    ],
)
def test_skeleton(a: str, b: str, same: bool) -> None:
    assert (skeleton(a) == skeleton(b)) is same


# --- drift ---------------------------------------------------------------------------------


def test_drift_nothing_when_unchanged() -> None:
    assert lint_drift("fs", fs_tools(), fs_tools()) == []


def test_drift_boundary_dropped() -> None:
    new = fs_tools()
    new["write_file"]["description"] = new["write_file"]["description"].replace(
        " Only works within allowed directories.", ""
    )
    found = lint_drift("fs", fs_tools(), new)
    assert [(f.code, f.item, f.path, f.message) for f in found] == [
        (
            "MCPL-LINT-040",
            "write_file",
            "description",
            "no longer states a boundary; its description said "
            '"only works within allowed directories"',
        )
    ]


def test_drift_boundary_added_or_tool_removed_is_silent() -> None:
    old, new = fs_tools(), fs_tools()
    new["read_file"]["description"] += " Only works within allowed directories."
    del new["write_file"]
    assert lint_drift("fs", old, new) == []


def test_drift_new_ambiguous_tool() -> None:
    old = fs_tools()
    new = copy.deepcopy(old)
    new["list_directory_detailed"] = dict(
        copy.deepcopy(old["list_directory"]),
        name="list_directory_detailed",
        description="Get a detailed listing of files and directories in a path, with [FILE] "
        "and [DIR] prefixes. Only works within allowed directories.",
    )
    found = lint_drift("fs", old, new)
    assert hits(found) == {
        ("MCPL-LINT-041", "list_directory"),
        ("MCPL-LINT-041", "list_directory_detailed"),
        ("MCPL-LINT-041", "list_directory_with_sizes"),
    }
    (lister,) = [f for f in found if f.item == "list_directory"]
    assert lister.message.startswith('became mistakable for "list_directory_detailed" (score ')
    assert "list_directory_with_sizes" not in lister.message  # that pair was already pinned


def test_drift_new_lookalike_name() -> None:
    old = fs_tools()
    new = copy.deepcopy(old)
    new["rеad_file"] = dict(copy.deepcopy(old["read_file"]), name="rеad_file")
    found = lint_drift("fs", old, new)
    assert ("MCPL-LINT-042", "read_file") in hits(found)
    assert ("MCPL-LINT-042", "rеad_file") in hits(found)
    assert {f.code for f in found} <= {"MCPL-LINT-041", "MCPL-LINT-042"}
    assert all(f.severity is Severity.HIGH for f in found if f.code == "MCPL-LINT-042")


def test_drift_new_duplicate() -> None:
    old = keyed(tool("alpha", "Reads alpha."))
    new = {"alpha": tool("alpha", "Reads alpha."), "alpha#2": tool("alpha", "Writes alpha.")}
    assert hits(lint_drift("s", old, new)) == {
        ("MCPL-LINT-042", "alpha"),
        ("MCPL-LINT-042", "alpha#2"),
    }


# --- robustness, rules, hygiene, speed -----------------------------------------------------

HOSTILE: list[Any] = [
    {"name": "a", "inputSchema": [1, 2]},
    {"name": "b", "inputSchema": {"properties": ["path"], "required": "path"}},
    {
        "name": "c",
        "inputSchema": {"properties": {"p": {"type": ["string", 3]}}, "required": [1, "p"]},
    },
    {"name": "d", "description": 42, "annotations": ["readOnlyHint"]},
    {"name": "e", "description": "Delete " * 5000, "annotations": {"destructiveHint": "false"}},
    {"name": "f", "inputSchema": {"properties": {"x": {"description": {"nested": True}}}}},
    {"__malformed__": "not a tool"},
]


def test_hostile_definitions_do_not_crash() -> None:
    tools: dict[Any, Any] = {f"k{i}": t for i, t in enumerate(HOSTILE)}
    tools["not-a-dict"] = "string value"
    tools[7] = {"name": "numeric key"}
    found = lint_tools("s", tools)
    assert ("MCPL-LINT-010", "k4") in hits(found)
    assert ("MCPL-LINT-030", "k6") in hits(found)
    assert all(f.item in {f"k{i}" for i in range(len(HOSTILE))} for f in found)
    assert lint_drift("s", tools, {}) == []


def test_rules_are_complete_and_stable() -> None:
    codes = [r.code for r in RULES]
    assert len(codes) == len(set(codes))
    assert all(r.family == "lint" and r.code.startswith("MCPL-LINT-0") for r in RULES)
    assert all(r.severity in (Severity.LOW, Severity.MEDIUM, Severity.HIGH) for r in RULES)
    assert codes == [
        "MCPL-LINT-001", "MCPL-LINT-010", "MCPL-LINT-011", "MCPL-LINT-012", "MCPL-LINT-020",
        "MCPL-LINT-021", "MCPL-LINT-030", "MCPL-LINT-031", "MCPL-LINT-032", "MCPL-LINT-040",
        "MCPL-LINT-041", "MCPL-LINT-042",
    ]  # fmt: skip


def test_lint_imports_nothing_heavy() -> None:
    code = (
        "import sys, mcplock_tui.core.lint\n"
        "bad = [m for m in ('textual', 'rich', 'anthropic', 'mcp') if m in sys.modules]\n"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location(
        "bench_lint", ROOT / "benchmarks" / "bench_lint.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_thousand_tools_are_linted_fast_without_scoring_every_pair() -> None:
    bench = _bench()
    tools = bench.generate_tools(1000)
    assert len(tools) == 1000
    all_pairs = 1000 * 999 // 2
    assert bench.candidate_count(tools) < all_pairs // 20
    start = time.perf_counter()
    lint_tools("bench", tools)
    assert time.perf_counter() - start < 2.0


def _shares_a_bucket(items: list[amb.Profile], i: int, j: int) -> bool:
    """Whether two profiles are compared, from the bucket rule itself (the reference)."""
    a, b = items[i], items[j]
    if a.head or b.head:
        if a.head != b.head:
            return False
        size = sum(1 for p in items if p.head == a.head)
        return size <= amb.BUCKET_LIMIT or bool(a.verbs & b.verbs) or not (a.verbs or b.verbs)
    # Noun-less names: a bucket per verb, and a big one split per verb: a shared verb.
    return not (a.nouns or b.nouns) and bool(a.verbs & b.verbs)


@pytest.mark.parametrize("count", [12, 400])
def test_candidate_pairs_are_each_made_once_as_they_are_used(count: int) -> None:
    import gc
    import random
    import tracemalloc

    rnd = random.Random(count)
    verbs, nouns = ["get", "set", "update", "delete", "list"], ["record", "file", ""]
    tools: dict[str, dict[str, Any]] = {}
    for i in range(count):
        noun = rnd.choice(nouns)
        chosen = rnd.sample(verbs, rnd.randint(1, 3))
        name = "_".join([*chosen, *([noun] if noun else []), str(i)])
        tools[name] = {"name": name, "description": f"{' and '.join(chosen)} {noun}".strip()}
    items = amb.profiles(tools)
    made = list(amb._candidates(items))
    assert len(made) == len(set(made)), "a pair was compared twice"
    expected = {
        (i, j) for i, j in combinations(range(len(items)), 2) if _shares_a_bucket(items, i, j)
    }
    assert set(made) == expected
    gc.collect()
    tracemalloc.start()
    try:
        for _ in amb._candidates(items):
            pass
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Before, every pair was gathered into one set first (thousands of tuples here).
    assert len(made) > 4000 or count < 100
    assert peak < 64 * 1024, (peak, len(made))
