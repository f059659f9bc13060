"""Reading messages with bounded memory: an over-long line is dropped, the next one still read."""

from __future__ import annotations

import asyncio

from mcplock_tui.guard.upstream import read_message


def test_overlong_line_is_skipped_and_reading_goes_on() -> None:
    async def run() -> list[bytes]:
        reader = asyncio.StreamReader(limit=1024)
        reader.feed_data(b"x" * 10_000 + b"\n" + b'{"jsonrpc":"2.0","id":1,"result":{}}\n')
        reader.feed_eof()
        out = []
        while (message := await read_message(reader)) is not None:
            out.append(message)
        return out

    messages = asyncio.run(run())
    assert messages[-1] == b'{"jsonrpc":"2.0","id":1,"result":{}}'
    assert all(len(m) <= 2048 for m in messages)
    assert messages[0].startswith(b"\x00")  # the relay logs and skips these
