"""Content for the detail tabs, the server summary and the header line.

Pure functions from core objects to :class:`~textual.content.Content`: all server text goes
through :mod:`.safe_text`. Paths under the home folder are shown as ``~/…``, which reads
better and keeps machine-specific prefixes off the screen.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textual.content import Content

from mcplock_tui.capture.logs import redact_log_line
from mcplock_tui.core.canonical import visible
from mcplock_tui.core.graded import GradedChange
from mcplock_tui.core.model import JSON, Finding, Origin, Severity, text_at
from mcplock_tui.tui.render.safe_text import (
    HIDDEN_STYLE,
    JSON_ESCAPE,
    MUTED,
    badge,
    display_json,
    one_line,
    safe,
    state_word,
)
from mcplock_tui.tui.session import Filter, ServerState
from mcplock_tui.tui.widgets.navigator import KIND_LABEL

if TYPE_CHECKING:
    from mcplock_tui.core.verdict import Explained

CONTEXT_CHARS = 40
EXCERPT_CHARS = 120
"""Displayed cells of a match; a long hidden run is summarised (its finding says what it spells)."""
LOG_TAIL_BYTES = 4096
LOG_TAIL_LINES = 6
_NL = Content("\n")


def home_relative(text: str) -> str:
    home = str(Path.home())
    return text.replace(home + "/", "~/") if len(home) > 1 else text


def lines(parts: Iterable[Content]) -> Content:
    return _NL.join(parts)


def heading(text: str) -> Content:
    return Content.styled(text, "bold underline")


def clip_visible(text: str, budget: int) -> str:
    """The longest prefix whose displayed form (hidden characters as tokens) fits ``budget``."""
    used = 0
    for index, ch in enumerate(text):
        if 0xE0020 <= ord(ch) <= 0xE007E:
            used += 1  # a run of tag characters is shown decoded, one cell each
        else:
            used += len(visible(ch)) if ch not in "\n\t" else 2
        if used > budget:
            return text[:index]
    return text


def excerpt_in_context(finding: Finding, source: str | None) -> Content:
    """The matched text, highlighted, with a little of what surrounds it."""
    if source is None or finding.span is None or source[slice(*finding.span)] != finding.excerpt:
        shown = clip_visible(finding.excerpt, EXCERPT_CHARS)
        more = "…" if len(shown) < len(finding.excerpt) else ""
        return Content.assemble("“", one_line(shown, "bold reverse"), more, "”")
    start, end = finding.span
    left = source[max(0, start - CONTEXT_CHARS) : start]
    right = source[end : end + CONTEXT_CHARS]
    match = source[start:end]
    shown = clip_visible(match, EXCERPT_CHARS)
    return Content.assemble(
        "“…" if start > CONTEXT_CHARS else "“",
        one_line(left),
        one_line(shown, "bold reverse $text-error"),
        Content.styled(f" …{len(match) - len(shown)} more characters… ", MUTED)
        if len(shown) < len(match)
        else "",
        one_line(right),
        "…”" if end + CONTEXT_CHARS < len(source) else "”",
    )


def finding_lines(findings: Sequence[Finding], item: Mapping[str, JSON] | None) -> list[Content]:
    out: list[Content] = []
    for f in findings:
        out.append(
            Content.assemble(badge(f.severity), " ", (f.code, "bold"), "  ", safe(f.message))
        )
        if f.path:
            out.append(Content.assemble("     at ", one_line(f.path, MUTED)))
        if f.excerpt:
            out.append(Content.assemble("     ", excerpt_in_context(f, text_at(item, f.path))))
    return out


def change_head(change: GradedChange, state: str, note: str = "") -> Content:
    kind = KIND_LABEL[change.kind]
    first: list[Content | str | tuple[str, str]] = [
        badge(change.severity),
        " ",
        (kind, MUTED),
        " ",
        one_line(change.name, "bold", limit=80),
        "  ",
        (change.change.value, MUTED),
    ]
    if change.old_name is not None:
        first += [(" from ", MUTED), one_line(change.old_name, limit=60)]
    first += ["  ", state_word(state)]
    if note:
        first += [(": ", MUTED), one_line(note, limit=60)]
    second: list[Content | str | tuple[str, str]] = [
        ("on ", MUTED),
        one_line(change.server, limit=40),
    ]
    if len(change.reasons) > 1:
        second.append((f"  ·  {len(change.reasons)} reasons, all in Findings", MUTED))
    elif change.reasons:
        second.append(("  ·  1 reason, in Findings", MUTED))
    return lines([Content.assemble(*first), Content.assemble(*second)])


def change_why(change: GradedChange) -> Content:
    """The change's first reason, for a line of its own that ends in "…" where it is cut:
    the head keeps the pointer to Findings in view at any width."""
    why = [r for r in change.reasons if r.origin is Origin.DRIFT] or list(change.reasons)
    return one_line(why[0].message, limit=200) if why else Content("")


def findings_text(change: GradedChange) -> Content:
    """Why the change got its band (the severity model's reasons), then the detector findings."""
    out = [heading(f"Why {change.severity.label}")]
    coded = {f.code for f in change.findings}
    for reason in change.reasons:
        if reason.category in coded:
            continue  # a finding's own reason: listed in full below
        out.append(
            Content.assemble(
                badge(reason.severity), " ", safe(reason.message), ("  " + reason.category, MUTED)
            )
        )
    if change.findings:
        out.append(Content.styled("and the findings below", MUTED))
    out.append(Content(""))
    out.append(heading(f"Findings ({len(change.findings)})"))
    if not change.findings:
        out.append(Content.styled("No detector finding in what changed.", MUTED))
    item = change.new if change.new is not None else change.old
    out.extend(finding_lines(change.findings, item))
    return lines(out)


def lint_text(change: GradedChange, findings: Sequence[Finding] | None, captured: bool) -> Content:
    if change.kind.value != "tool":
        return Content.styled("Lint covers tools only.", MUTED)
    if change.new is None:
        return Content.styled("The tool was removed; there is nothing live to lint.", MUTED)
    if not captured:
        return Content.styled("The server has not been captured in this session.", MUTED)
    if findings is None:
        return Content.styled("Linting this server's tools…", MUTED)
    mine = [f for f in findings if f.item == change.name]
    if not mine:
        return Content.styled(
            "No lint finding for this tool (advisory checks: ambiguity, scope, "
            "annotations, naming).",
            MUTED,
        )
    return lines([heading(f"Lint ({len(mine)}, advisory)"), *finding_lines(mine, change.new)])


def explain_text(answer: Explained | None, asking: bool) -> Content:
    if asking:
        return Content.styled("Asking Claude for a second opinion…", MUTED)
    if answer is None:
        return lines(
            [
                Content.assemble(
                    "Press ",
                    ("e", "bold"),
                    " to ask Claude for an advisory verdict on this change.",
                ),
                Content.styled(
                    "Only the changed definition is sent. It needs ANTHROPIC_API_KEY; the verdict "
                    "never changes the severity.",
                    MUTED,
                ),
            ]
        )
    from mcplock_tui.core.verdict import ExplainFailure  # loaded with the first answer

    if isinstance(answer, ExplainFailure):
        return Content.assemble(("Explain unavailable: ", "bold $text-error"), safe(answer.error))
    style = {"benign": "bold $text-success", "suspicious": "bold $text-warning"}.get(
        answer.verdict, "bold $text-error"
    )
    out = [
        Content.assemble(
            ("Verdict: ", "bold"),
            (answer.verdict.upper(), style),
            (f"  ({answer.model}{', cached' if answer.cached else ''})", MUTED),
        )
    ]
    if answer.reason:
        out.append(safe(answer.reason))
    if answer.excerpt:
        out.append(Content.assemble(("Rests on: ", MUTED), "“", safe(answer.excerpt, "bold"), "”"))
    out.append(
        Content.styled(
            "Advisory only: it does not change the severity or the check's result.", MUTED
        )
    )
    return lines(out)


def raw_text(change: GradedChange) -> Content:
    title = (
        "Live definition, as captured"
        if change.new is not None
        else "Pinned definition (no longer served)"
    )
    item = change.new if change.new is not None else change.old
    body = safe(display_json(item)).highlight_regex(JSON_ESCAPE, style=HIDDEN_STYLE)
    return lines([heading(title), body])


def log_tail(path: str) -> list[Content]:
    """The last lines of a server's log, secret-looking values redacted, one line each."""
    try:
        with open(path, "rb") as handle:
            handle.seek(0, 2)
            size = handle.tell()
            handle.seek(max(0, size - LOG_TAIL_BYTES))
            data = handle.read().decode("utf-8", "replace")
    except OSError:
        return []
    tail = [line for line in data.splitlines() if line.strip()][-LOG_TAIL_LINES:]
    return [
        Content.assemble(("  │ ", MUTED), one_line(redact_log_line(line), limit=200))
        for line in tail
    ]


def server_text(state: ServerState) -> Content:
    report = state.report
    out = [Content.assemble(one_line(state.name, "bold"), "  ", (state.status, MUTED))]
    if report is None:
        if state.status == "connecting":
            out.append(Content.styled("Capturing what the server exposes…", MUTED))
        return lines(out)
    if report.changes:
        counts = {s: sum(1 for c in report.changes if c.severity == s) for s in Severity}
        out.append(
            Content.assemble(
                *[
                    part
                    for s in reversed(Severity)
                    if counts[s]
                    for part in (badge(s), f" {counts[s]}  ")
                ]
            )
        )
        out.append(Content.styled("Pick a change below the server to see its diff.", MUTED))
    elif report.status == "clean":
        out.append(
            Content.styled("Everything the server exposes matches the lockfile.", "$text-success")
        )
    if report.error:
        label = "Cause: " if report.status == "failed" else "Note: "
        out.append(Content.assemble((label, "bold"), safe(home_relative(report.error))))
    if report.error_kind and report.status == "failed":
        out.append(Content.assemble(("Kind: ", MUTED), report.error_kind))
    if report.stderr_log:
        out.append(
            Content.assemble(("Server log: ", MUTED), safe(home_relative(report.stderr_log)))
        )
        # The capture's own tail (spec secrets scrubbed too); the file itself as a fallback.
        tail = [
            Content.assemble(("  │ ", MUTED), one_line(line, limit=200))
            for line in report.stderr_tail
        ] or (log_tail(report.stderr_log) if report.status == "failed" else [])
        if tail:
            out.append(Content.styled("Last lines of the log:", MUTED))
            out.extend(tail)
    for warning in report.warnings:
        out.append(Content.assemble(("Warning: ", "$text-warning"), safe(warning)))
    if report.known_findings:
        out.append(
            Content.styled(f"{len(report.known_findings)} finding(s) in pinned definitions", MUTED)
        )
    return lines(out)


def summary_text(
    lock_name: str,
    servers: int,
    counts: Mapping[Severity, int],
    pending: int,
    flt: Filter,
    connecting: bool,
) -> Content:
    parts: list[Content | str | tuple[str, str]] = [
        one_line(lock_name, "bold", limit=40),
        (f"  {servers} server{'s' if servers != 1 else ''}  ", MUTED),
    ]
    for severity in reversed(Severity):
        parts += [badge(severity), f" {counts.get(severity, 0)}  "]
    parts.append((f"{pending} pending", "bold" if pending else MUTED))
    if connecting:
        parts.append(("  capturing…", MUTED))
    if flt.active:
        shown = [] if flt.min_severity == Severity.LOW else [f"≥{flt.min_severity.label}"]
        parts.append(
            (
                "  filter: " + " ".join(shown) + (" " if shown and flt.text.strip() else ""),
                "$text-accent",
            )
        )
        if flt.text.strip():
            parts += ["“", one_line(flt.text.strip(), "$text-accent", limit=30), "”"]
    return Content.assemble(*parts)
