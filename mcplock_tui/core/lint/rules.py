"""The lint family's rules: codes, titles, rationales and default severities.

Codes are stable and never reused. Numbering leaves room per check: 00x ambiguity,
01x scope, 02x annotations, 03x naming, 04x drift between two captures.
"""

from __future__ import annotations

from mcplock_tui.core.model import Finding, Kind, Severity
from mcplock_tui.core.rules import Rule

AMBIGUOUS = "MCPL-LINT-001"
DESTRUCTIVE_UNBOUNDED = "MCPL-LINT-010"
DESTRUCTIVE_CLAIMS_REACH = "MCPL-LINT-011"
BOUNDARY_CONVENTION = "MCPL-LINT-012"
READ_ONLY_MUTATES = "MCPL-LINT-020"
NOT_DESTRUCTIVE_DELETES = "MCPL-LINT-021"
INVALID_NAME = "MCPL-LINT-030"
DUPLICATE_NAME = "MCPL-LINT-031"
CONFUSABLE_NAME = "MCPL-LINT-032"
BOUNDARY_DROPPED = "MCPL-LINT-040"
NEW_AMBIGUOUS_PAIR = "MCPL-LINT-041"
NEW_CONFUSABLE_NAME = "MCPL-LINT-042"

RULES: tuple[Rule, ...] = (
    Rule(
        AMBIGUOUS,
        "Tools a model could mistake for each other",
        "Both tools accept the same arguments, their names share a verb and object, and "
        "their descriptions overlap, so picking the wrong one raises no error: it silently "
        "does the other thing. Say in each description when to use it instead of the other.",
        Severity.MEDIUM,
        "lint",
    ),
    Rule(
        DESTRUCTIVE_UNBOUNDED,
        "Destructive tool states no boundary",
        "The tool deletes, overwrites or runs something, and nothing in its description or "
        "parameters says where it may act. The server may enforce a boundary anyway; this is "
        "a documentation gap, not a proof of reach.",
        Severity.LOW,
        "lint",
    ),
    Rule(
        DESTRUCTIVE_CLAIMS_REACH,
        "Destructive tool claims unbounded reach",
        "Besides stating no boundary, the description says the tool acts on arbitrary or "
        "any targets. Confirm the server really confines it, or document the limit.",
        Severity.MEDIUM,
        "lint",
    ),
    Rule(
        BOUNDARY_CONVENTION,
        "Tool omits the boundary its siblings state",
        'Most tools on this server say where they may act (for example "only works within '
        'allowed directories"); this one does not. Either it is the exception, which users '
        "should be told, or its description is out of date.",
        Severity.LOW,
        "lint",
    ),
    Rule(
        READ_ONLY_MUTATES,
        "Read-only hint on a tool that changes state",
        "readOnlyHint: true lets clients run a tool without asking. The name or description "
        "says it writes, deletes, creates or sends, so the hint is wrong or the name is.",
        Severity.HIGH,
        "lint",
    ),
    Rule(
        NOT_DESTRUCTIVE_DELETES,
        "destructiveHint: false on a tool that destroys",
        "The name or description says the tool deletes, overwrites or kills, yet it "
        "explicitly declares itself non-destructive, which clients may use to skip "
        "confirmation.",
        Severity.MEDIUM,
        "lint",
    ),
    Rule(
        INVALID_NAME,
        "Tool name breaks the naming rule",
        "MCP tool names should match ^[A-Za-z0-9_.-]{1,128}$. Other characters (spaces, "
        "non-ASCII letters, invisible characters) are mangled or rejected by clients and "
        "make look-alike names possible.",
        Severity.MEDIUM,
        "lint",
    ),
    Rule(
        DUPLICATE_NAME,
        "Two tools share a name",
        "The server lists the same name twice, or two names equal ignoring case. A client "
        "calls by name, so one of them is unreachable or the wrong one runs.",
        Severity.HIGH,
        "lint",
    ),
    Rule(
        CONFUSABLE_NAME,
        "Tool names differ only by look-alike characters",
        "The names are equal once look-alike letters (Cyrillic a, digit 0, l and I) and "
        "separators are folded, so a reader, or a model, can take one for the other.",
        Severity.MEDIUM,
        "lint",
    ),
    Rule(
        BOUNDARY_DROPPED,
        "Boundary statement removed",
        "The pinned definition said where the tool may act; the current one no longer does. "
        "Either the limit was lifted or the documentation lost it; both deserve a look.",
        Severity.MEDIUM,
        "lint",
    ),
    Rule(
        NEW_AMBIGUOUS_PAIR,
        "New pair of easily confused tools",
        "Since the pin, this tool became mistakable for another (a new look-alike tool, or "
        "descriptions that converged). A look-alike appearing later is how a tool is shadowed.",
        Severity.MEDIUM,
        "lint",
    ),
    Rule(
        NEW_CONFUSABLE_NAME,
        "New duplicate or look-alike tool name",
        "Since the pin, a tool appeared whose name equals or imitates an existing one. That is "
        "the shape of a tool-shadowing attempt.",
        Severity.HIGH,
        "lint",
    ),
)

_BY_CODE = {rule.code: rule for rule in RULES}


def finding(
    code: str,
    *,
    server: str,
    item: str,
    message: str,
    path: str,
    excerpt: str = "",
    span: tuple[int, int] | None = None,
) -> Finding:
    """A tool finding at the rule's default severity."""
    return Finding(
        code=code,
        severity=_BY_CODE[code].severity,
        message=message,
        path=path,
        excerpt=excerpt,
        span=span,
        server=server,
        kind=Kind.TOOL.value,
        item=item,
    )
