"""``accept`` and ``reject``: the review app's decisions, from a shell or a script.

The command shows every change it is about to decide, then captures the servers a second
time and refuses the whole command, writing nothing, when any of those definitions moved in
between: a decision is bound to the text that was on screen. The write itself goes through
:mod:`mcplock_tui.decisions` (lock, re-read, record first, then the lockfile), so two
accepts at once both land, and one whose pin another decision changed meanwhile is refused.

Selectors name pinned servers, so they are resolved against the lockfile. A server name is
matched as the longest pinned name that is a prefix (server and item names may contain
``/``); ``SERVER/KIND/ITEM`` is tried before ``SERVER/ITEM``, so an item literally named
``tool/x`` needs the three-part form (``SERVER/tool/tool/x``) when a tool ``x`` also drifted.
The item part may be a shell-style glob (``SERVER/*``, ``SERVER/tool/get_*``): an exact name
still wins, so an item literally named ``get_*`` is selected by itself.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.text import Text

from mcplock_tui.capture import capture_sync
from mcplock_tui.cli.options import lock_path, read_lock_or_explain, workspace
from mcplock_tui.cli.pin import announce_launches
from mcplock_tui.cli.render import make_console, render_change, safe
from mcplock_tui.core.analysis import analyze
from mcplock_tui.core.exitcodes import ExitCode
from mcplock_tui.core.graded import GradedChange
from mcplock_tui.core.groups import name_matches
from mcplock_tui.core.model import CaptureResult, Kind, Surface
from mcplock_tui.core.report import Status
from mcplock_tui.core.review import Action
from mcplock_tui.decisions import decide
from mcplock_tui.errors import CaptureError, ConfigError, DecisionError
from mcplock_tui.evidence.records import EvidencePaths

_KINDS = {k.value: k for k in Kind}


@dataclass(frozen=True, slots=True)
class Selector:
    text: str
    server: str
    kind: Kind | None = None
    item: str | None = None
    """None selects every change of the server."""

    def matches(self, change: GradedChange) -> bool:
        if change.server != self.server:
            return False
        if self.item is None:
            return True
        if self.kind is not None and change.kind is not self.kind:
            return False
        return name_matches(self.item, change.name) or name_matches(self.item, change.old_name)


def parse_selector(text: str, servers: Iterable[str]) -> list[Selector]:
    """The readings of ``text``, most specific first; unknown server -> ConfigError."""
    known = sorted(servers, key=len, reverse=True)
    server = next((s for s in known if text == s or text.startswith(s + "/")), None)
    if server is None:
        pinned = ", ".join(sorted(known)) or "none"
        raise ConfigError(
            f"{text!r}: no pinned server by that name (pinned: {pinned}); "
            "select SERVER, SERVER/ITEM or SERVER/KIND/ITEM"
        )
    rest = text[len(server) + 1 :]
    if not rest:
        return [Selector(text, server)]
    readings = []
    head, sep, tail = rest.partition("/")
    if sep and tail and head in _KINDS:
        readings.append(Selector(text, server, _KINDS[head], tail))
    readings.append(Selector(text, server, None, rest))
    return readings


def select_changes(
    texts: Sequence[str],
    servers: Iterable[str],
    changes: Sequence[GradedChange],
    *,
    skip_rejected: Container[str] = (),
) -> tuple[list[GradedChange], list[str]]:
    """Changes picked by the selectors, in report order, and notes on servers with none.

    A whole-server or glob selector leaves out the changes whose id is in ``skip_rejected``
    (rejected in review; each is named in the notes); a selector naming the item still
    picks it.
    """
    names = list(servers)
    picked: dict[str, GradedChange] = {}
    notes: list[str] = []
    for text in texts:
        readings = parse_selector(text, names)
        for reading in readings:
            hits = [c for c in changes if reading.matches(c)]
            exact = [c for c in hits if reading.item in (c.name, c.old_name)]
            hits = exact or hits  # a name that merely looks like a glob selects itself
            if skip_rejected:  # a server or a glob never overrides a rejection; a name does
                skipped = {
                    c.id
                    for c in hits
                    if c.id in skip_rejected
                    and (reading.item is None or reading.item not in (c.name, c.old_name))
                }
                notes.extend(
                    f"skipped {c.id}: rejected in review; name it "
                    f"(`{c.server}/{c.kind.value}/{c.name}`) or add --include-rejected "
                    "to accept it"
                    for c in hits
                    if c.id in skipped
                )
                hits = [c for c in hits if c.id not in skipped]
                if skipped and not hits:
                    break
            if hits:
                picked.update((c.id, c) for c in hits)
                break
        else:
            if readings[0].item is None:
                notes.append(f"{readings[0].server}: no changes")
                continue
            drifted = (
                ", ".join(
                    f"{c.kind.value}/{c.name}" for c in changes if c.server == readings[0].server
                )
                or "none"
            )
            raise ConfigError(
                f"{text!r}: no change matches it (changes on {readings[0].server}: {drifted})"
            )
    return [c for c in changes if c.id in picked], notes


def _servers_of(texts: Sequence[str], pinned: Iterable[str]) -> list[str]:
    names = list(pinned)
    return list(dict.fromkeys(parse_selector(t, names)[0].server for t in texts))


def _live(captures: Mapping[str, CaptureResult]) -> dict[str, Surface]:
    surfaces: dict[str, Surface] = {}
    for name, result in captures.items():
        if result.surface is None:
            raise CaptureError(f"{name}: {result.error or 'capture failed'}; nothing was written")
        surfaces[name] = result.surface
    return surfaces


def run(args: argparse.Namespace, action: str) -> int:
    """``accept``/``reject`` SELECTOR...; exit 0 done, 1 refused (moved), 2 unusable input."""
    note: str = (args.note or "").strip()
    if action == "reject" and not note:
        raise ConfigError("reject needs --note TEXT saying why the change is refused")
    cwd = Path.cwd()
    path = lock_path(args, cwd)
    lock = read_lock_or_explain(path)
    args.server = _servers_of(args.selectors, lock.servers)
    ws = workspace(args, cwd)
    out, err = make_console(sys.stdout), make_console(sys.stderr)

    announce_launches(make_console(sys.stderr), ws, lock)
    captures = capture_sync(ws.specs, timeout=ws.timeout, log_dir=ws.log_dir)
    report = analyze(lock, captures, configured=[s.name for s in ws.specs], policy=ws.policy)
    for s in report.servers:
        if s.status == Status.FAILED:
            raise CaptureError(f"{s.name}: {s.error}; nothing was written")
    skip = action == "accept" and not getattr(args, "include_rejected", False)
    rejected = report.rejections if skip else {}
    chosen, notes = select_changes(
        args.selectors, lock.servers, report.changes, skip_rejected=rejected
    )
    for line in notes:
        out.print(Text(line, style="dim"))
    if not chosen:
        out.print(Text(f"nothing to {action}"))
        return ExitCode.OK
    verb = "would " + action if args.dry_run else action
    for change in chosen:
        out.print(Text.assemble((f"{verb} ", "bold"), safe(change.id, "bold")))
        render_change(out, change, rejection=report.rejection(change))
    if args.dry_run:
        out.print(Text(f"dry run: {len(chosen)} change(s); nothing written", style="bold"))
        return ExitCode.OK

    again = _live(
        capture_sync(
            [s for s in ws.specs if s.name in {c.server for c in chosen}],
            timeout=ws.timeout,
            log_dir=ws.log_dir,
        )
    )
    try:
        outcome = decide(path, [c.diff for c in chosen], Action(action), live=again, note=note)
    except DecisionError as exc:
        err.print(Text.assemble(("refused: ", "bold red"), safe(str(exc))))
        return ExitCode.REFUSED
    done = "accepted" if action == "accept" else "rejected"
    log = EvidencePaths.for_lock(path).log
    last = outcome.records[-1]["seq"] if outcome.records else None
    out.print(
        Text(
            f"{done} {len(chosen)} change(s); wrote {path}; recorded in {log.name}"
            + (f" (records up to #{last})" if last is not None else ""),
            style="bold",
        )
    )
    return ExitCode.OK
