"""The floor: the smallest client that does a check's work with the official MCP SDK.

Connect (``mode="legacy"``), initialize, list every page of tools, canonical JSON and SHA-256
of each tool, for every server at once. Nothing else: no lockfile, no grading, no report.
Usage: python floor_client.py SERVERS_JSON  (a JSON list of [command, [args...]] pairs)
"""

from __future__ import annotations

import hashlib
import json
import os
import sys

import anyio
from mcp import Client, StdioServerParameters, stdio_client


async def one(command: str, args: list[str], counts: list[int]) -> None:
    params = StdioServerParameters(command=command, args=args)
    with open(os.devnull, "w") as log:  # noqa: ASYNC230 (opening /dev/null does not block)
        async with Client(stdio_client(params, errlog=log), mode="legacy", cache=None) as client:
            cursor: str | None = None
            while True:
                page = await client.list_tools(cursor=cursor)
                for tool in page.tools:
                    wire = tool.model_dump(by_alias=True, mode="json", exclude_unset=True)
                    text = json.dumps(wire, sort_keys=True, separators=(",", ":"))
                    hashlib.sha256(text.encode("ascii")).hexdigest()
                counts.append(len(page.tools))
                cursor = page.next_cursor
                if cursor is None:
                    return


async def main(servers: list[tuple[str, list[str]]]) -> int:
    counts: list[int] = []
    async with anyio.create_task_group() as tg:
        for command, args in servers:
            tg.start_soon(one, command, args, counts)
    return sum(counts)


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as handle:
        targets = [(c, list(a)) for c, a in json.load(handle)]
    total = anyio.run(main, targets)
    print(f"{total} tools")
