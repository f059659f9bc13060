"""Time ``lint_tools`` on a large, realistic, varied server, and on a worst case.

Run: ``.venv/bin/python benchmarks/bench_lint.py [N]`` (default 1,000 tools).

The realistic set mixes namespaced tools from a dozen services (``github_create_issue``,
``k8s_list_pods``), plain verb-object tools with qualifiers (``read_text_file``), and the
14 real filesystem tools, with descriptions assembled from varied sentences, shared
boilerplate, schemas drawn from parameter pools, and annotations. The worst case is N
tools that all share one verb and one noun, the shape that defeats bucketing.
"""

from __future__ import annotations

import json
import random
import sys
import time
from itertools import combinations
from pathlib import Path
from typing import Any

from mcplock_tui.core.lint import ambiguity, lint_tools

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "filesystem_tools.json"


def _words(text: str) -> list[str]:
    return text.split()


SERVICES = _words(
    "github gitlab slack jira linear notion postgres mysql redis k8s docker aws_s3 gcs "
    "stripe browser calendar gmail drive confluence sentry datadog figma zendesk hubspot"
)
VERBS = _words(
    "get list search create update delete read write move copy send archive close open run "
    "fetch describe export import sync merge start stop restart enable disable add remove"
)
NOUNS = _words(
    "issue pull_request comment branch commit file directory user team project page database "
    "table row record message channel thread event calendar bucket object pod deployment "
    "service secret config log metric alert dashboard invoice customer payment ticket label "
    "milestone release tag workflow job artifact snapshot backup index key document folder"
)
QUALIFIERS = _words("by_id by_name details summary batch recursive with_metadata raw text all")
OPENERS = {
    "get": "Get", "list": "List all", "search": "Search for", "create": "Create a new",
    "update": "Update an existing", "delete": "Permanently delete a", "read": "Read the",
    "write": "Write the", "move": "Move a", "copy": "Copy a", "send": "Send a",
    "archive": "Archive a", "close": "Close a", "open": "Open a", "run": "Run a",
    "fetch": "Fetch the", "describe": "Describe a", "export": "Export a", "import": "Import a",
    "sync": "Synchronise a", "merge": "Merge a", "start": "Start a", "stop": "Stop a",
    "restart": "Restart a", "enable": "Enable a", "disable": "Disable a", "add": "Add a",
    "remove": "Remove a",
}  # fmt: skip
DETAILS = (
    "Returns the result as JSON.",
    "Supports pagination through a cursor.",
    "Requires the caller to have write access.",
    "Results are sorted by creation time, newest first.",
    "Fails if the target does not exist.",
    "Use this when you already know the identifier.",
    "Optionally filters by state and owner.",
    "Includes timestamps and author information.",
    "The operation is idempotent.",
    "Large results are truncated to the first 100 entries.",
    "Only works within the configured workspace.",
    "Use with caution: this cannot be undone.",
)
PARAMS: dict[str, dict[str, Any]] = {
    "id": {"type": "string", "description": "Identifier of the object"},
    "name": {"type": "string"},
    "owner": {"type": "string"},
    "repo": {"type": "string"},
    "path": {"type": "string", "description": "Path to the target"},
    "query": {"type": "string", "description": "Free-text query"},
    "limit": {"type": "integer", "minimum": 1, "maximum": 100},
    "cursor": {"type": "string"},
    "body": {"type": "string"},
    "force": {"type": "boolean", "default": False},
    "labels": {"type": "array", "items": {"type": "string"}},
    "namespace": {"type": "string"},
    "channel": {"type": "string"},
}


def _tool(rng: random.Random, name: str, verb: str, noun: str) -> dict[str, Any]:
    words = noun.replace("_", " ")
    sentences = [f"{OPENERS.get(verb, verb.capitalize())} {words}."]
    sentences += rng.sample(DETAILS, rng.randint(1, 4))
    if rng.random() < 0.3:
        sentences.append(f"The {words} is identified by its {rng.choice(['id', 'name', 'path'])}.")
    required = rng.sample(sorted(PARAMS), rng.randint(0, 2))
    optional = rng.sample(sorted(PARAMS), rng.randint(0, 3))
    props = {p: PARAMS[p] for p in (*required, *optional)}
    tool: dict[str, Any] = {
        "name": name,
        "description": " ".join(sentences),
        "inputSchema": {"type": "object", "properties": props, "required": required},
    }
    if rng.random() < 0.7:
        reads = verb in {"get", "list", "search", "read", "fetch", "describe", "export"}
        tool["annotations"] = {"readOnlyHint": reads, "destructiveHint": verb in {"delete"}}
    return tool


def generate_tools(n: int = 1000, seed: int = 7) -> dict[str, dict[str, Any]]:
    """``n`` varied tools keyed by name, the real filesystem tools among them."""
    rng = random.Random(seed)
    tools: dict[str, dict[str, Any]] = {t["name"]: t for t in json.loads(FIXTURE.read_text())}
    while len(tools) < n:
        verb, noun = rng.choice(VERBS), rng.choice(NOUNS)
        parts = [verb, noun]
        if rng.random() < 0.35:
            parts.append(rng.choice(QUALIFIERS))
        if rng.random() < 0.75:
            parts.insert(0, rng.choice(SERVICES))
        name = "_".join(parts)
        if rng.random() < 0.15:  # some servers use camelCase
            head, *rest = name.split("_")
            name = head + "".join(w.capitalize() for w in rest)
        if name not in tools:
            tools[name] = _tool(rng, name, verb, noun)
    return tools


def worst_case(n: int = 1000) -> dict[str, dict[str, Any]]:
    """``n`` tools sharing verb, noun and schema: every pair is a candidate by design."""
    schema = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
    return {
        f"get_v{i}_item": {
            "name": f"get_v{i}_item",
            "description": f"Get item variant {i} by id.",
            "inputSchema": schema,
        }
        for i in range(n)
    }


def candidate_count(tools: dict[str, dict[str, Any]]) -> int:
    return sum(1 for _ in ambiguity._candidates(ambiguity.profiles(tools)))


def best_of(runs: int, tools: dict[str, dict[str, Any]]) -> tuple[float, int]:
    best, count = float("inf"), 0
    for _ in range(runs):
        start = time.perf_counter()
        count = len(lint_tools("bench", tools))
        best = min(best, time.perf_counter() - start)
    return best, count


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    tools = generate_tools(n)
    all_pairs = len(list(combinations(tools, 2)))
    seconds, count = best_of(3, tools)
    print(
        f"realistic: {len(tools)} tools, {candidate_count(tools)} of {all_pairs} pairs scored, "
        f"{count} findings, lint_tools {seconds:.3f} s (best of 3)"
    )
    worst = worst_case(n)
    seconds, count = best_of(1, worst)
    print(
        f"worst case: {len(worst)} tools sharing verb and noun, "
        f"{candidate_count(worst)} pairs scored, {count} findings, lint_tools {seconds:.3f} s"
    )


if __name__ == "__main__":
    main()
