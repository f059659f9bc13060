"""Human-readable reports on a terminal, via rich, with server text treated as data.

Every server-supplied string goes through :func:`one_line` and into a ``Text`` object, never
through markup: a ``[/red]`` or ``[link=…]`` in a description prints as those characters,
escape sequences print as ``\\x1b`` and every line break (``\\n``, CR, VT, FF, NEL,
U+2028/2029) prints as an escape, so one server string is one line of output. Every line
starts with text of ours (a mark, a label or indentation followed by one), never with server
text: the GitHub Actions runner reads any line whose first non-blank characters are ``::``
as a workflow command. Under ``GITHUB_ACTIONS`` the report adds real annotations, escaped as
GitHub documents. NO_COLOR is honoured by rich itself.
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO

from rich.console import Console
from rich.text import Text

from mcplock_tui.core.canonical import visible
from mcplock_tui.core.diff import MISSING
from mcplock_tui.core.graded import GradedChange
from mcplock_tui.core.groups import Group, change_order, group_changes
from mcplock_tui.core.lockfile import Rejection
from mcplock_tui.core.model import Finding, Origin, Severity, text_at
from mcplock_tui.core.report import Report, ServerReport, Status, band_counts
from mcplock_tui.core.verdict import Explained, ExplainFailure

SEVERITY_STYLE = {
    Severity.CRITICAL: "bold white on red",
    Severity.HIGH: "bold red",
    Severity.MEDIUM: "yellow",
    Severity.LOW: "dim",
}
_EXCERPT_CONTEXT = 30
REDACTION_HINT = (
    "looks like it holds a secret, so the lockfile records it redacted; "
    "keep the value in an environment variable and write ${VAR} in the config"
)
REDACTION_CHECK = "read the lockfile's launch lines before you commit it"


def make_console(file: IO[str] | None = None, width: int | None = None) -> Console:
    return Console(
        file=file,
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=True,
        width=width,
    )


def one_line(text: str) -> str:
    """``text`` for a terminal or a CI log: no control character, no line break of any kind.

    :func:`visible` already escapes CR, VT, FF, NEL and the Unicode separators; only ``\\n``
    (kept there for multi-line displays) is left to escape here.
    """
    return visible(text).replace("\n", "\\n")


def safe(text: object, style: str = "") -> Text:
    return Text(
        one_line(text if isinstance(text, str) else json.dumps(text, ensure_ascii=False)),
        style=style,
    )


def excerpt_in_context(f: Finding, source: str | None) -> Text:
    if source is None or f.span is None:
        return safe(f.excerpt, "bold")
    start, end = f.span
    left = source[max(0, start - _EXCERPT_CONTEXT) : start]
    right = source[end : end + _EXCERPT_CONTEXT]
    return Text.assemble(
        "\u201c…" if start > _EXCERPT_CONTEXT else "\u201c",
        safe(left),
        safe(source[start:end], "bold reverse"),
        safe(right),
        "…\u201d" if end + _EXCERPT_CONTEXT < len(source) else "\u201d",
    )


MAX_DIFF_LINES = 2000
"""Longer texts are shown whole, old then new, instead of through a quadratic line match."""


def text_diff_lines(old: str, new: str) -> Iterable[Text]:
    # Split on "\n" only: any other separator stays in its line and shows as an escape.
    a, b = old.split("\n"), new.split("\n")
    opcodes: Sequence[tuple[str, int, int, int, int]]
    if len(a) + len(b) > MAX_DIFF_LINES:
        yield Text("    | text too long to diff line by line; showing old, then new", style="dim")
        opcodes = [("replace", 0, len(a), 0, len(b))]
    else:
        opcodes = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    for op, i1, i2, j1, j2 in opcodes:
        if op == "equal":
            for line in a[i1:i2]:
                yield Text.assemble("    | ", safe(line, "dim"))
            continue
        for line in a[i1:i2]:
            yield Text.assemble("    - ", safe(line, "red"))
        for line in b[j1:j2]:
            yield Text.assemble("    + ", safe(line, "green"))


def render_change(
    console: Console,
    c: GradedChange,
    *,
    rejection: Rejection | None = None,
    verdict: Explained | None = None,
) -> None:
    """One change in full; ``rejection`` and ``verdict`` are what review and explain said."""
    label = c.severity.label.upper()
    head = Text.assemble(
        "  ",
        (f" {label} ", SEVERITY_STYLE[c.severity]),
        "  ",
        c.kind.value.replace("_", " "),
        " ",
        safe(c.name, "bold"),
        f"  {c.change.value}",
    )
    if c.old_name:
        head.append_text(Text.assemble(" from ", safe(c.old_name, "bold")))
    if rejection is not None:
        head.append_text(
            Text.assemble(
                "  [rejected in review",
                safe(f": {rejection.note}" if rejection.note else ""),
                "]",
            )
        )
    console.print(head)
    for r in c.reasons:
        if r.origin is not Origin.DRIFT:  # findings print below, with their excerpt
            continue
        console.print(Text.assemble("    · ", safe(r.message), (f"  [{r.category}]", "dim")))
    for f in c.findings:
        source = text_at(c.new, f.path)
        console.print(
            Text.assemble(
                "    ! ",
                (f.code, SEVERITY_STYLE[f.severity]),
                " ",
                safe(f.message),
                ": ",
                excerpt_in_context(f, source),
                (f"  at {f.path}", "dim"),
            )
        )
    if verdict is not None:
        console.print(explain_line(verdict))
    for fc in c.fields:
        if isinstance(fc.old, str) and isinstance(fc.new, str) and fc.old != fc.new:
            console.print(Text.assemble("    field ", safe(fc.path, "bold"), ":"))
            for line in text_diff_lines(fc.old, fc.new):
                console.print(line)
        elif fc.old is not MISSING or fc.new is not MISSING:
            old = (
                "(absent)"
                if fc.old is MISSING
                else json.dumps(fc.old, ensure_ascii=False, sort_keys=True)
            )
            new = (
                "(absent)"
                if fc.new is MISSING
                else json.dumps(fc.new, ensure_ascii=False, sort_keys=True)
            )
            console.print(
                Text.assemble(
                    "    field ",
                    safe(fc.path, "bold"),
                    ": ",
                    safe(_clip(old), "red"),
                    " -> ",
                    safe(_clip(new), "green"),
                )
            )


_VERDICT_STYLE = {"malicious": "bold red", "suspicious": "yellow", "benign": "green"}


def explain_line(explain: Explained) -> Text:
    """Claude's advisory verdict (``--explain``); model text is shown as data, like server text."""
    if isinstance(explain, ExplainFailure):
        return Text.assemble("    Claude: ", safe(f"no verdict ({explain.error})", "dim"))
    style = _VERDICT_STYLE.get(explain.verdict, "")
    return Text.assemble("    Claude: ", safe(explain.verdict, style), ". ", safe(explain.reason))


def _clip(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _summary(changes: list[GradedChange], rejected: Container[str] = ()) -> str:
    counts = band_counts(changes)
    parts = [f"{counts[s]} {s.label}" for s in sorted(Severity, reverse=True) if counts[s]]
    noun = "change" if len(changes) == 1 else "changes"
    text = f"{len(changes)} {noun}" + (f" ({', '.join(parts)})" if parts else "")
    groups = group_changes(changes, rejected=rejected)
    if groups:
        text += " · " + "; ".join(visible(g.label) for g in groups)
    return text


def _known_summary(report: Report) -> str:
    known = report.known_findings
    counts = {s: sum(1 for f in known if f.severity == s) for s in Severity}
    parts = [f"{counts[s]} {s.label}" for s in sorted(Severity, reverse=True) if counts[s]]
    gate = report.fail_on_known
    rule = f"fail at {gate.label} or worse" if gate else "do not fail (policy fail_on_known)"
    return (
        f"Known: {len(known)} finding{'s' if len(known) != 1 else ''} ({', '.join(parts)}); {rule}"
    )


def known_finding_line(f: Finding, suffix: str = "") -> Text:
    """A finding in a definition that is pinned as it is: reviewed, but still worth a look."""
    return Text.assemble(
        "    known ",
        (f.severity.label.upper(), SEVERITY_STYLE[f.severity]),
        " ",
        f.code,
        " ",
        safe(f.kind),
        " ",
        safe(f.item, "bold"),
        ": ",
        safe(f.message),
        ": ",
        safe(_clip(f.excerpt, 80), "bold"),
        (suffix, "dim"),
    )


_GROUP_NAMES_SHOWN = 6


def render_group(console: Console, g: Group, beside: Beside) -> None:
    """One line for alike changes, the first in full, then the others by name only."""
    console.print(
        Text.assemble(
            "  ",
            (f" {g.severity.label.upper()} ", SEVERITY_STYLE[g.severity]),
            "  ",
            safe(g.label, "bold"),
            ("  (select all: ", "dim"),
            safe(g.selector, "dim"),
            (")", "dim"),
        )
    )
    first, *rest = g.members
    render_change(console, first, rejection=beside.rejection(first), verdict=beside.verdict(first))
    names = [c.name for c in rest]
    shown = names if len(names) <= _GROUP_NAMES_SHOWN else [*names[:5], "…", names[-1]]
    console.print(
        Text.assemble(
            f"    and {len(rest)} more like it: ", Text(", ").join(safe(n) for n in shown)
        )
    )


@dataclass(frozen=True, slots=True)
class Beside:
    """What review and explain said about changes, by change id."""

    rejections: Mapping[str, Rejection] = field(default_factory=dict)
    verdicts: Mapping[str, Explained] = field(default_factory=dict)

    def rejection(self, c: GradedChange) -> Rejection | None:
        return self.rejections.get(c.id)

    def verdict(self, c: GradedChange) -> Explained | None:
        return self.verdicts.get(c.id)


def render_changes(
    console: Console, changes: Sequence[GradedChange], beside: Beside | None = None
) -> None:
    """Groups of alike changes first (one line each), then every other change."""
    beside = beside or Beside()
    groups = group_changes(changes, rejected=beside.rejections)
    grouped = {c.id for g in groups for c in g.members}
    for g in groups:
        render_group(console, g, beside)
    for c in sorted(changes, key=change_order):
        if c.id not in grouped:
            render_change(console, c, rejection=beside.rejection(c), verdict=beside.verdict(c))


def render_server(
    console: Console, s: ServerReport, verdicts: Mapping[str, Explained] | None = None
) -> None:
    if s.status == Status.CLEAN:
        console.print(Text.assemble(("✓ ", "green"), safe(s.name, "bold"), "  clean"))
    elif s.status == Status.DRIFT:
        console.print(
            Text.assemble(
                ("✗ ", "red"),
                safe(s.name, "bold"),
                "  ",
                _summary(list(s.changes), s.rejections),
            )
        )
        render_changes(console, s.changes, Beside(s.rejections, verdicts or {}))
    elif s.status == Status.UNCONFIGURED:
        console.print(
            Text.assemble(
                ("- ", "dim"), safe(s.name, "bold"), "  pinned but not in any config (not checked)"
            )
        )
    else:
        console.print(
            Text.assemble(
                ("! ", "bold red"), safe(s.name, "bold"), f"  {s.status}: ", safe(s.error or "")
            )
        )
        if s.pinned_launch is not None or s.status == Status.LAUNCH_CHANGED:
            console.print(Text.assemble("    pinned: ", safe(s.pinned_launch or "(none)")))
        if s.launch is not None:
            console.print(Text.assemble("    now:    ", safe(s.launch)))
        if s.stderr_log:
            console.print(Text.assemble("    server log: ", safe(s.stderr_log)))
        render_stderr_tail(console, s.stderr_tail)
    if s.new_hosts:
        shown = Text(", ").join(safe(h, "bold") for h in s.new_hosts)
        console.print(Text.assemble("    new outbound hosts: ", shown))
    for w in s.warnings:
        console.print(Text.assemble("    warning: ", safe(w)))
    for f in s.known_findings:
        console.print(known_finding_line(f))
    for f in s.suppressed:
        console.print(
            Text.assemble(
                "    suppressed ", safe(f.code), " on ", safe(f.item), " (policy)", style="dim"
            )
        )


def render_stderr_tail(console: Console, tail: Sequence[str]) -> None:
    """The last lines a failed server wrote to stderr (already escaped and redacted)."""
    if not tail:
        return
    console.print(Text("    last lines of its stderr:", style="dim"))
    for line in tail:
        console.print(Text.assemble("    | ", safe(line, "dim")))


def render_report(
    console: Console, report: Report, lockfile: str, *, configs: Sequence[str] = ()
) -> None:
    """The report; it opens with the files it was made from (config files, then lockfile)."""
    if configs:
        noun = "config" if len(configs) == 1 else "configs"
        console.print(Text(f"{noun} {', '.join(one_line(c) for c in configs)}", style="dim"))
    console.print(
        Text(
            f"lockfile {one_line(lockfile)} · fail on {report.fail_on.label} or worse", style="dim"
        )
    )
    console.print()
    for s in report.servers:
        render_server(console, s, report.verdicts)
    console.print()
    unchecked = (Status.FAILED, Status.UNPINNED, Status.LAUNCH_CHANGED)
    failed = [s for s in report.servers if s.status in unchecked]
    changes = report.changes
    line = f"Drift: {_summary(changes, report.rejections)}." if changes else "No drift."
    if failed:
        line += f" {len(failed)} server{'s' if len(failed) != 1 else ''} could not be checked."
    if report.known_findings:
        line += f" {_known_summary(report)}."
    line += f" Exit {int(report.exit_code())}."
    console.print(Text(line, style="bold"))
    if changes:
        console.print(
            Text(
                "Review with `mcplock-tui` (the review app), or accept with `mcplock-tui accept SERVER/ITEM`.",
                style="dim",
            )
        )
    if os.environ.get("GITHUB_ACTIONS") == "true":
        console.file.flush()
        console.file.write("".join(line + "\n" for line in github_annotations(report, lockfile)))


def github_escape_data(text: str) -> str:
    """A workflow command's message, escaped as GitHub documents (``%``, CR, LF)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_escape_property(text: str) -> str:
    """A workflow command's property value: the data escapes plus ``:`` and ``,``."""
    return github_escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _annotation(level: str, lockfile: str, title: str, message: str) -> str:
    # visible() first: the escapes above only cover what GitHub parses; this covers the log.
    return (
        f"::{level} file={github_escape_property(visible(lockfile))},"
        f"title={github_escape_property(visible(title))}::{github_escape_data(visible(message))}"
    )


def github_annotations(report: Report, lockfile: str) -> list[str]:
    """One annotation per change (an error at or above the gate) and per unchecked server."""
    lines: list[str] = []
    for s in report.servers:
        if s.status in (Status.FAILED, Status.UNPINNED):
            message = f"{s.status}: {s.error}"
            if s.stderr_tail:  # CI keeps the annotation, not the server's log file
                message += "\nlast lines of its stderr:\n" + "\n".join(s.stderr_tail)
            lines.append(_annotation("error", lockfile, f"mcplock: {s.name} not checked", message))
        for c in s.changes:
            level = "error" if c.severity >= report.fail_on else "warning"
            why = "; ".join(r.message for r in c.reasons[:3])
            lines.append(
                _annotation(
                    level,
                    lockfile,
                    f"mcplock {c.severity.label}: {c.id}",
                    f"{c.kind.value} {c.name} {c.change.value}" + (f": {why}" if why else ""),
                )
            )
    return lines
