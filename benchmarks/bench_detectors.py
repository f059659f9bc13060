"""Time the injection detectors over 5,000 typical tools.

Tools are the reference servers' real definitions (tests/corpus/real_servers.json), cycled,
each given a unique name and a numbered sentence so no two strings repeat. Run:

    .venv/bin/python benchmarks/bench_detectors.py [count]

Prints the number of tools and strings scanned, the best of three runs and the rate.
"""

from __future__ import annotations

import copy
import json
import sys
import time
from pathlib import Path
from typing import Any

from mcplock_tui.core.detectors import scan_item
from mcplock_tui.core.model import Kind

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus" / "real_servers.json"


def typical_tools(count: int) -> list[dict[str, Any]]:
    servers = json.loads(CORPUS.read_text(encoding="utf-8"))["servers"]
    base = [tool for server in servers.values() for tool in server.get("tools", [])]
    tools = []
    for i in range(count):
        tool = copy.deepcopy(base[i % len(base)])
        tool["name"] = f"{tool['name']}_{i}"
        tool["description"] = f"{tool.get('description', '')} Variant {i} of this tool."
        tools.append(tool)
    return tools


_STRUCTURAL = frozenset({"type", "format", "pattern", "$schema", "$ref", "$id", "required"})


def count_strings(value: Any) -> int:
    """Strings the detectors read: text values plus property names, not schema keywords."""
    if isinstance(value, str):
        return 1
    if isinstance(value, dict):
        texts = sum(count_strings(v) for k, v in value.items() if k not in _STRUCTURAL)
        props = value.get("properties")
        return texts + (len(props) if isinstance(props, dict) else 0)
    if isinstance(value, list):
        return sum(count_strings(v) for v in value)
    return 0


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    tools = typical_tools(count)
    strings = sum(count_strings(t) for t in tools)
    chars = sum(len(json.dumps(t)) for t in tools)
    timings = []
    findings = 0
    for _ in range(3):
        start = time.perf_counter()
        findings = sum(len(scan_item(Kind.TOOL, tool)) for tool in tools)
        timings.append(time.perf_counter() - start)
    best = min(timings)
    print(f"{count} tools, ~{strings} strings, {chars / 1e6:.1f} MB of JSON, {findings} findings")
    print(
        f"best of 3: {best:.3f} s ({count / best:,.0f} tools/s, {best / count * 1e6:.0f} µs/tool)"
    )


if __name__ == "__main__":
    main()
