"""Capture what ``prompts/get`` returns for prompts that take no arguments.

``prompts/list`` only names a prompt; the text a model reads is in the messages that
``prompts/get`` returns, and a server can change them without touching the listing. For
every prompt that declares no arguments the messages are fetched once, after the lists,
and stored in the prompt item under :data:`MESSAGES_KEY`, so they are hashed, pinned,
diffed and scanned with the rest of the definition. Prompts with arguments are not called:
any value we made up would be ours, not the server's.

Bounds, and which way they fail: at most :data:`MAX_PROMPTS` prompts are fetched (the rest
are listed without messages, with a warning); a reply over :data:`MAX_BYTES` has its strings
cut to fit and carries the digest of the full reply under :data:`OVERFLOW_KEY`, so a change
beyond the cut is still drift, just not scanned; each call gets its share of the server's
timeout and a slow or failing call ends the fetching with a warning, never the capture.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import anyio
from mcp import MCPError
from pydantic import ValidationError

from mcplock_tui.capture.failure import server_text
from mcplock_tui.capture.tap import RawTap
from mcplock_tui.core.canonical import canon_json, digest
from mcplock_tui.core.model import PROMPT_LISTED_KEY, PROMPT_MESSAGES_KEY, PROMPT_OVERFLOW_KEY

MESSAGES_KEY = PROMPT_MESSAGES_KEY
"""Where the captured messages live in a prompt item (as ``prompts/get`` sent them)."""
LISTED_KEY = PROMPT_LISTED_KEY
"""A ``messages`` key the listing itself carried is kept here, so nothing it said is lost."""
OVERFLOW_KEY = PROMPT_OVERFLOW_KEY
"""Set when the reply was cut: its size and the digest of everything the server sent."""
MAX_PROMPTS = 50
MAX_BYTES = 64 * 1024
"""Canonical-JSON size above which a reply's strings are cut."""
MIN_CALL_SECONDS = 1.0


def takes_no_arguments(prompt: Mapping[str, Any]) -> bool:
    args = prompt.get("arguments")
    return args is None or args == []


def _cut(value: Any, budget: list[int]) -> Any:
    """``value`` with its strings cut so that together they fit ``budget[0]`` characters."""
    if isinstance(value, str):
        keep = max(0, min(len(value), budget[0]))
        budget[0] -= keep
        return value[:keep]
    if isinstance(value, dict):
        return {k: _cut(v, budget) for k, v in value.items()}
    if isinstance(value, list):
        return [_cut(v, budget) for v in value]
    return value


def bounded(messages: Any) -> tuple[Any, dict[str, Any] | None]:
    """(messages as stored, overflow record or None)."""
    size = len(canon_json(messages))
    if size <= MAX_BYTES:
        return messages, None
    return _cut(messages, [MAX_BYTES // 2]), {"bytes": size, "digest": digest(messages)}


def attach(prompt: dict[str, Any], result: Mapping[str, Any]) -> None:
    """Store a raw ``prompts/get`` result's messages in the prompt item."""
    stored, overflow = bounded(result.get(MESSAGES_KEY))
    prompt[MESSAGES_KEY] = stored
    if overflow is not None:
        prompt[OVERFLOW_KEY] = overflow


async def capture_messages(
    get_prompt: Callable[[str], Awaitable[object]],
    tap: RawTap,
    prompts: list[Any],
    limit: float,
    warnings: list[str],
) -> None:
    """Fetch and attach the messages of each argument-less prompt in ``prompts`` (in place).

    A ``messages`` key the listing itself sent is moved aside first, on every prompt, so that
    ``messages`` in a pinned prompt is always what ``prompts/get`` returned.
    """
    for p in prompts:
        if isinstance(p, dict) and MESSAGES_KEY in p:
            p[LISTED_KEY] = p.pop(MESSAGES_KEY)
    wanted = [
        p
        for p in prompts
        if isinstance(p, dict) and isinstance(p.get("name"), str) and takes_no_arguments(p)
    ]
    if len(wanted) > MAX_PROMPTS:
        warnings.append(
            f"{len(wanted)} prompts take no arguments; the messages of the first {MAX_PROMPTS} "
            "were captured"
        )
        wanted = wanted[:MAX_PROMPTS]
    per_call = max(MIN_CALL_SECONDS, limit / 4)
    for prompt in wanted:
        name = prompt["name"]
        shown = json.dumps(server_text(name))
        mark = tap.mark()
        try:
            with anyio.fail_after(per_call):
                await get_prompt(name)
        except TimeoutError:
            warnings.append(
                f"prompts/get {shown} did not answer within {per_call:g} s; "
                "messages of the remaining prompts not captured"
            )
            return
        except (MCPError, ValidationError):
            pass  # an error reply, or one the SDK rejects: the tap holds what was sent
        reply = tap.reply_since(mark, "prompts/get")
        if reply is None:
            warnings.append(
                f"prompts/get {shown} got no reply; messages of the remaining prompts not captured"
            )
            return
        if reply.result is None and (reply.error or {}).get("code") == -32601:
            return  # not implemented: no client can fetch messages either, so none to pin
        if reply.result is None:
            warnings.append(f"prompts/get {shown} returned an error; its messages not captured")
            continue
        attach(prompt, reply.result)
