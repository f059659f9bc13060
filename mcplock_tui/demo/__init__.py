"""A ready-made project whose MCP servers drifted since they were pinned, for ``mcplock-tui demo``.

The demo must show the real pipeline, not a canned report: :func:`prepare_demo` launches the
bundled servers (:mod:`mcplock_tui.demo.server`), pins what they expose with the ordinary
capture code, then swaps their definitions files for the "drifted" state. Each server
re-reads its file on every request, so the next check or app session captures a real rug
pull: a poisoned description, an annotation flip, a widened schema, a rename, a smuggled
instruction in invisible characters, a typo fix, a version bump and a server that no longer
starts, among tools that did not change.

This module is imported whenever a demo server starts (``python -m`` imports the package
first), so its top level stays stdlib-only; the capture stack is imported inside
:func:`prepare_demo`.
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path

SERVERS = ("filesystem", "github", "jira", "slack")
"""The demo servers; each has ``defs/pinned/NAME.json`` and ``defs/drifted/NAME.json``."""
STATES = ("pinned", "drifted")
PROJECT_DIR = "mcplock-demo"
CAPTURE_TIMEOUT = 15.0

_README = """\
mcplock-tui demo project
========================

.mcp.json       the demo servers, as an MCP client would launch them
mcplock.lock    what the servers exposed when they were pinned
servers/*.json  what each server exposes now; it re-reads its file on every request
servers/pinned/ the pinned state, to copy back over servers/*.json
logs/           the servers' stderr

Run `mcplock-tui --check` or `mcplock-tui` in this folder. Edit servers/*.json to make
changes of your own; the next check sees them.
"""


def bundled_defs(state: str, name: str) -> str:
    """The text of one bundled definitions file (works from a wheel or a zip too)."""
    if state not in STATES or name not in SERVERS:
        raise ValueError(f"no demo definitions for {state}/{name}")
    return resources.files(__name__).joinpath("defs", state, f"{name}.json").read_text("utf-8")


def server_command(defs_path: Path) -> list[str]:
    """How the project's ``.mcp.json`` launches a demo server serving ``defs_path``."""
    return [sys.executable, "-m", "mcplock_tui.demo.server", str(defs_path)]


def mcp_config(project: Path) -> dict[str, object]:
    servers: dict[str, object] = {}
    for name in SERVERS:
        command, *args = server_command(project / "servers" / f"{name}.json")
        servers[name] = {"command": command, "args": args}
    return {"mcpServers": servers}


def prepare_demo(folder: Path) -> Path:
    """Create ``folder/mcplock-demo`` with a lockfile pinned from live servers, then drift them.

    Files of an earlier demo in the same place are overwritten. Raises
    :class:`~mcplock_tui.errors.CaptureError` when a server cannot be captured in its pinned
    state (for example when this interpreter cannot run ``-m mcplock_tui.demo.server``).
    """
    from mcplock_tui.capture import capture_sync
    from mcplock_tui.config import load_servers
    from mcplock_tui.core.model import Surface
    from mcplock_tui.decisions import pin_new
    from mcplock_tui.errors import CaptureError
    from mcplock_tui.storage import write_text_atomic

    project = Path(folder).resolve() / PROJECT_DIR
    live_dir = project / "servers"
    (live_dir / "pinned").mkdir(parents=True, exist_ok=True)
    for name in SERVERS:
        pinned = bundled_defs("pinned", name)
        write_text_atomic(live_dir / "pinned" / f"{name}.json", pinned)
        write_text_atomic(live_dir / f"{name}.json", pinned)
    config = project / ".mcp.json"
    write_text_atomic(config, json.dumps(mcp_config(project), indent=2) + "\n")
    write_text_atomic(project / "README.txt", _README)

    specs = load_servers(project, [config])
    captures = capture_sync(specs, timeout=CAPTURE_TIMEOUT, log_dir=project / "logs" / "pin")
    pins: dict[str, Surface] = {}
    for name, result in captures.items():
        if result.surface is None:
            raise CaptureError(f"demo server {name!r} could not be pinned: {result.error}")
        pins[name] = result.surface
    lock_path = project / "mcplock.lock"
    for old in (
        lock_path,
        *(lock_path.with_name(f"mcplock.decisions.{x}") for x in ("jsonl", "pub")),
    ):
        old.unlink(missing_ok=True)  # an earlier demo here: start its review afresh
    pin_new(lock_path, pins)  # signed like `mcplock-tui pin`, so the demo's log verifies

    for name in SERVERS:  # the rug pull: same launch line, new definitions
        write_text_atomic(live_dir / f"{name}.json", bundled_defs("drifted", name))
    return project
