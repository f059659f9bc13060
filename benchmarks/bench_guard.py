"""Cost of the runtime guard: a tools/call round trip and a 1,000-tool tools/list, direct vs guarded.

Run: python benchmarks/bench_guard.py [--calls 500] [--lists 30] [--tools 1000] [--rounds 3]
A raw JSON-RPC client (no SDK, so only the guard is measured) talks over pipes to the
fixture server ``tests/guard/callserver.py``, first directly, then through
``mcplock-tui guard`` with every tool pinned, alternating a few rounds so that load on
the machine hits both sides alike. Prints medians and the added time.
Targets: tools/call adds under 5 ms median; tools/list of 1,000 tools adds under 50 ms, for
the first listing of a session (every item hashed) and for later ones.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers.harness import write_defs  # noqa: E402

CALLSERVER = ROOT / "tests" / "guard" / "callserver.py"


def tools(n: int) -> list[dict[str, Any]]:
    return [
        {
            "name": f"tool_{i}",
            "description": f"Tool number {i}: reads a record and returns it as JSON. " * 3,
            "inputSchema": {
                "type": "object",
                "properties": {
                    "id": {"type": "string", "description": "Record id"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                },
                "required": ["id"],
            },
            "annotations": {"readOnlyHint": True},
        }
        for i in range(n)
    ]


class Raw:
    def __init__(self, argv: list[str], cwd: Path) -> None:
        self.proc = subprocess.Popen(
            argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.next = 0

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.next += 1
        msg = {"jsonrpc": "2.0", "id": self.next, "method": method, "params": params or {}}
        self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
        self.proc.stdin.flush()
        while True:
            reply = json.loads(self.proc.stdout.readline())
            if reply.get("id") == self.next:
                return reply  # type: ignore[no-any-return]

    def start(self) -> None:
        self.call(
            "initialize",
            {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "0"},
            },
        )
        assert self.proc.stdin is not None
        self.proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self.proc.stdin.flush()

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(15)


def measure_calls(client: Raw, calls: int) -> float:
    client.start()
    client.call("tools/call", {"name": "tool_1", "arguments": {"id": "x"}})  # warm up
    times = []
    for _ in range(calls):
        t = time.perf_counter()
        reply = client.call("tools/call", {"name": "tool_1", "arguments": {"id": "x"}})
        times.append(time.perf_counter() - t)
        assert "result" in reply, reply
    client.close()
    return statistics.median(times) * 1000


def measure_lists(client: Raw, lists: int, n_tools: int) -> tuple[float, float]:
    """(first listing of the session, median of the rest) in ms.

    The guard judges a page it has not seen with one digest per item; a page identical byte
    for byte to one judged before under the same lockfile reuses those verdicts.
    """
    client.start()
    times = []
    for _ in range(lists):
        t = time.perf_counter()
        reply = client.call("tools/list")
        times.append(time.perf_counter() - t)
        assert len(reply["result"]["tools"]) == n_tools, "the guard withheld pinned tools"
    client.close()
    return times[0] * 1000, statistics.median(times[1:]) * 1000


def setup(root: Path, name: str, n_tools: int) -> tuple[list[str], list[str]]:
    """A pinned project folder for ``n_tools`` tools; the direct and the guarded argv."""
    folder = root / name
    folder.mkdir()
    defs = write_defs(folder / "defs.json", tools=tools(n_tools), pageSize=n_tools)
    server = [sys.executable, str(CALLSERVER), str(defs)]
    config = {"mcpServers": {name: {"command": server[0], "args": server[1:]}}}
    (folder / ".mcp.json").write_text(json.dumps(config))
    subprocess.run(
        [sys.executable, "-m", "mcplock_tui", "pin"], cwd=folder, check=True, capture_output=True
    )
    guard = [
        sys.executable,
        "-m",
        "mcplock_tui",
        "guard",
        "--name",
        name,
        "--lock",
        str(folder / "mcplock.lock"),
        "--log",
        str(folder / "guard.log"),
        "--",
        *server,
    ]
    return server, guard


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--lists", type=int, default=30)
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3, help="direct/guarded alternations")
    args = parser.parse_args()
    results: dict[str, list[float]] = {
        k: [] for k in ("call-d", "call-g", "first-d", "first-g", "list-d", "list-g")
    }
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        small = setup(root, "small", 5)  # calls: a server whose per-request work is tiny
        large = setup(root, "large", args.tools)
        for _ in range(args.rounds):
            for tag, argv in (("d", 0), ("g", 1)):
                results[f"call-{tag}"].append(measure_calls(Raw(small[argv], root), args.calls))
                first, rest = measure_lists(Raw(large[argv], root), args.lists, args.tools)
                results[f"first-{tag}"].append(first)
                results[f"list-{tag}"].append(rest)
    med = {k: statistics.median(v) for k, v in results.items()}
    print(
        f"tools/call round trip   direct {med['call-d']:7.2f} ms  guarded {med['call-g']:7.2f} ms  "
        f"added {med['call-g'] - med['call-d']:6.2f} ms (median; target < 5 ms)"
    )
    for key, label in (("first", "first listing"), ("list", "later listings")):
        d, g = med[f"{key}-d"], med[f"{key}-g"]
        print(
            f"tools/list {args.tools} tools, {label:14}  direct {d:7.2f} ms  guarded {g:7.2f} ms"
            f"  added {g - d:6.2f} ms (median; target < 50 ms)"
        )


if __name__ == "__main__":
    main()
