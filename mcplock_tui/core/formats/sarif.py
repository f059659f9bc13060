"""Report -> a SARIF 2.1.0 document, with results located at the lockfile's pin tables.

``json.dumps(..., ensure_ascii=True)``-ready, like the JSON report.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from typing import Any

from mcplock_tui import __version__
from mcplock_tui.core.exitcodes import ExitCode
from mcplock_tui.core.graded import GradedChange
from mcplock_tui.core.grading.severity import CATEGORIES
from mcplock_tui.core.model import Finding, Kind, Origin, Reason, Severity
from mcplock_tui.core.report import Report, ServerReport
from mcplock_tui.core.rules import all_rules

_TABLE = {  # the lockfile table each list kind is pinned under
    Kind.TOOL: "tools",
    Kind.PROMPT: "prompts",
    Kind.RESOURCE: "resources",
    Kind.RESOURCE_TEMPLATE: "resource_templates",
}
_LEVEL = {
    Severity.CRITICAL: "error",
    Severity.HIGH: "error",
    Severity.MEDIUM: "warning",
    Severity.LOW: "note",
}
_SECURITY_SEVERITY = {
    Severity.CRITICAL: "9.5",
    Severity.HIGH: "8.0",
    Severity.MEDIUM: "5.0",
    Severity.LOW: "2.0",
}


def lockfile_lines(text: str) -> dict[tuple[str, ...], int]:
    """Map each table header's key path to its 1-based line, by parsing the header itself."""
    lines: dict[tuple[str, ...], int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.startswith("[") or line.startswith("[["):
            continue
        try:
            doc: Any = tomllib.loads(line)
        except tomllib.TOMLDecodeError:
            continue
        path: list[str] = []
        while isinstance(doc, dict) and len(doc) == 1:
            key = next(iter(doc))
            path.append(key)
            doc = doc[key]
        lines[tuple(path)] = number
    return lines


def _line_for(c: GradedChange | None, server: str, lines: Mapping[tuple[str, ...], int]) -> int:
    if c is not None and c.kind in _TABLE:
        name = c.old_name or c.name
        found = lines.get(("servers", server, _TABLE[c.kind], name))
        if found:
            return found
    if c is not None and c.kind is Kind.INSTRUCTIONS:
        found = lines.get(("servers", server, "instructions"))
        if found:
            return found
    return lines.get(("servers", server, "server"), 1)


def _rule_meta(rule_id: str, severity: Severity, text: str) -> dict[str, Any]:
    """A rule's own description: from the registry, or the drift category's text.

    ``text`` (one instance's message) is the last resort only: a rule is shared by every
    result that carries it, so it must not read as one of them.
    """
    rule = all_rules().get(rule_id)
    category = rule_id.removeprefix("MCPL-DRIFT-")
    about = CATEGORIES.get(category) if rule is None else None
    short = rule.title if rule else (f"drift: {category}" if about else text)
    full = rule.rationale if rule else (about or text)
    return {
        "id": rule_id,
        "name": rule_id,
        "shortDescription": {"text": short},
        "fullDescription": {"text": full},
        "defaultConfiguration": {"level": _LEVEL[rule.severity if rule else severity]},
        "properties": {
            "security-severity": _SECURITY_SEVERITY[rule.severity if rule else severity],
            "tags": ["security", "mcp", rule.family if rule else "drift"],
        },
    }


def to_sarif(report: Report, lockfile: str, lockfile_text: str) -> dict[str, Any]:
    """One result per change, tagged with its strongest rule; failed servers as notifications."""
    lines = lockfile_lines(lockfile_text)
    rules: dict[str, dict[str, Any]] = {}
    results: list[dict[str, Any]] = []
    notifications: list[dict[str, Any]] = []
    for server in report.servers:
        if server.error:
            text = f"{server.name}: {server.error}"
            if server.stderr_log:
                text += f" (server log: {server.stderr_log})"
            if server.stderr_tail:
                text += "\nlast lines of its stderr:\n" + "\n".join(server.stderr_tail)
            notifications.append(
                {
                    "level": "error",
                    "message": {"text": text},
                    "locations": [_location(lockfile, _line_for(None, server.name, lines))],
                }
            )
        for c in server.changes:
            top = c.reasons[0] if c.reasons else Reason("changed", c.severity, "changed")
            rule_id = f"MCPL-DRIFT-{top.code}" if top.origin is Origin.DRIFT else top.code
            rules.setdefault(rule_id, _rule_meta(rule_id, top.severity, top.message))
            text = (
                f"{c.server}: {c.kind.value} {c.name!r} {c.change.value} ({c.severity.label}): "
                + "; ".join(r.message for r in c.reasons)
            )
            if server.rejection(c) is not None:
                text += " [rejected in review]"
            verdict = report.verdict(c)
            results.append(
                {
                    "ruleId": rule_id,
                    "level": _LEVEL[c.severity],
                    "message": {"text": text},
                    "locations": [_location(lockfile, _line_for(c, server.name, lines))],
                    "partialFingerprints": {"mcplockChange/v1": f"{c.id}@{c.new_hash}"},
                    "properties": {
                        "severity": c.severity.label,
                        "status": server.state(c).value,
                        "findings": [f.code for f in c.findings],
                        **({"explain": verdict.to_dict()} if verdict else {}),
                    },
                }
            )
        results.extend(_known_results(server, lockfile, lines, rules))
    invocations = [
        {
            "executionSuccessful": not notifications,
            "exitCode": int(report.exit_code()),
            "toolExecutionNotifications": notifications,
        }
    ]
    return _sarif_document(rules, results, invocations)


def error_sarif(error: str, kind: str, lockfile: str) -> dict[str, Any]:
    """The SARIF document for the same case: no results, one failed invocation."""
    notification = {
        "level": "error",
        "message": {"text": f"{kind}: {error}"},
        "locations": [_location(lockfile, 1)],
    }
    invocation = {
        "executionSuccessful": False,
        "exitCode": int(ExitCode.CANNOT_CHECK),
        "toolExecutionNotifications": [notification],
    }
    return _sarif_document({}, [], [invocation])


def _known_results(
    server: ServerReport,
    lockfile: str,
    lines: Mapping[tuple[str, ...], int],
    rules: dict[str, dict[str, Any]],
) -> list[dict[str, Any]]:
    """Findings in pinned, unchanged text: level ``note`` whatever their band (reviewed)."""
    out: list[dict[str, Any]] = []
    for f in server.known_findings:
        rules.setdefault(f.code, _rule_meta(f.code, f.severity, f.message))
        table = {k.value: v for k, v in _TABLE.items()}.get(f.kind)
        line = (lines.get(("servers", server.name, table, f.item)) if table else None) or lines.get(
            ("servers", server.name, "server"), 1
        )
        out.append(
            {
                "ruleId": f.code,
                "level": "note",
                "message": {
                    "text": f"{server.name}: known {f.kind} {f.item!r}: {f.message} "
                    f"({f.severity.label}, pinned as is)"
                },
                "locations": [_location(lockfile, line)],
                "partialFingerprints": {
                    "mcplockKnown/v1": f"{server.name}/{f.kind}/{f.item}/{f.code}/{f.path}"
                },
                "properties": {"severity": f.severity.label, "status": "known"},
            }
        )
    return out


def _location(uri: str, line: int) -> dict[str, Any]:
    return {"physicalLocation": {"artifactLocation": {"uri": uri}, "region": {"startLine": line}}}


def findings_to_sarif(findings: list[Finding], lockfile: str, lockfile_text: str) -> dict[str, Any]:
    lines = lockfile_lines(lockfile_text)
    rules: dict[str, dict[str, Any]] = {}
    results = []
    for f in findings:
        rules.setdefault(f.code, _rule_meta(f.code, f.severity, f.message))
        line = lines.get(("servers", f.server, "tools", f.item)) or lines.get(
            ("servers", f.server, "server"), 1
        )
        results.append(
            {
                "ruleId": f.code,
                "level": _LEVEL[f.severity],
                "message": {"text": f"{f.server}: {f.kind} {f.item!r}: {f.message} ({f.path})"},
                "locations": [_location(lockfile, line)],
                "partialFingerprints": {
                    "mcplockFinding/v1": f"{f.server}/{f.item}/{f.code}/{f.path}"
                },
            }
        )
    return _sarif_document(rules, results)


def _sarif_document(
    rules: dict[str, dict[str, Any]],
    results: list[dict[str, Any]],
    invocations: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "mcplock-tui",
                "version": __version__,
                "informationUri": "https://pypi.org/project/mcplock-tui/",
                "rules": [rules[k] for k in sorted(rules)],
            }
        },
        "results": results,
    }
    if invocations is not None:
        run["invocations"] = invocations
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    }
