"""A minimal stdio MCP server for benchmarks: serves a definitions file, answers tools/list late.

Stdlib ``json`` and ``sys`` only, run with ``python -S``, so twenty of them starting at once
cost the 2-core machine little CPU of their own and the benchmark measures the checker.
Usage: python -S slow_server.py DEFS_JSON DELAY_SECONDS [PAGE_SIZE]
(the definitions file is read once, at start; a page size pages the tools list).
"""

import json
import sys
import time

defs = json.load(open(sys.argv[1], encoding="utf-8"))  # noqa: SIM115 (lives as long as the process)
delay = float(sys.argv[2])
page_size = int(sys.argv[3]) if len(sys.argv) > 3 else 0
lists = {
    "tools/list": "tools",
    "prompts/list": "prompts",
    "resources/list": "resources",
    "resources/templates/list": "resourceTemplates",
}
for line in sys.stdin:
    request = json.loads(line)
    if "id" not in request:
        continue
    method, params = request.get("method"), request.get("params") or {}
    if method == "initialize":
        result = {
            "protocolVersion": params.get("protocolVersion", "2025-11-25"),
            "capabilities": {"tools": {}},
            "serverInfo": defs["serverInfo"],
        }
    elif method in lists:
        items = defs.get(lists[method], [])
        result = {lists[method]: items}
        if method == "tools/list":
            time.sleep(delay)
            if page_size:
                start = int(params.get("cursor") or 0)
                result = {"tools": items[start : start + page_size]}
                if start + page_size < len(items):
                    result["nextCursor"] = str(start + page_size)
    else:
        reply = {
            "jsonrpc": "2.0",
            "id": request["id"],
            "error": {"code": -32601, "message": "Method not found"},
        }
        print(json.dumps(reply), flush=True)
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result}), flush=True)
