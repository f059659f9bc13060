"""Scope: does a tool that can destroy say where it may act?

Two checks, both over what a tool *says*, never what it does:

* A destructive verb (delete, overwrite, kill, run, ...) in the name, description or a
  parameter description, with no boundary language anywhere ("only works within allowed
  directories", "restricted to", "must be inside", "sandbox"). When the text also claims
  unbounded reach ("arbitrary", "any file", "anywhere", "entire filesystem") it is the
  stronger finding. Descriptions of tools annotated ``readOnlyHint: true`` are not scanned
  for verbs (a listing that "deletes nothing" destroys nothing), and their names only for
  data-loss verbs: a read-only ``run_query`` is a common, honest shape.
* Convention departure: most tools with parameters on the server state a boundary and
  this one does not. On the official filesystem server this flags ``read_file``, whose
  deprecated description is the only one of the 13 tools with parameters that lacks
  "within allowed directories". Tools without parameters are skipped: there is nothing
  to bound.

A tool that enforces a boundary without documenting it is reported anyway, so findings
are documentation gaps, LOW or MEDIUM, never vulnerabilities. The phrase lists fail
towards silence: "limited to 100 results" reads as a boundary, and a boundary said in
other words ("inside the project root") is accepted only when it matches a pattern here.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from mcplock_tui.core.lint import rules, text
from mcplock_tui.core.lint.text import Cleaned, Tool
from mcplock_tui.core.model import Finding

BOUNDARY = re.compile(
    r"(?:\bonly\s+(?:\w+\s+){0,2}?(?:within|inside|under)\b"
    r"|\bwithin\s+(?:the\s+|its\s+|an?\s+)?(?:allowed|permitted|configured|approved|specified|"
    r"sandbox|workspace|project|root)"
    r"|\b(?:allowed|permitted|approved)\s+(?:director(?:y|ies)|paths?|folders?|roots?|"
    r"locations?|hosts?|domains?|scopes?|urls?|commands?)"
    r"|\b(?:restricted|limited|confined|scoped|bounded)\s+to\b"
    r"|\bmust\s+(?:be|reside|lie|stay)\s+(?:inside|within|under|in\s+the\s+allowed)"
    r"|\bcannot\s+(?:\w+\s+){0,3}?outside"
    r"|\boutside\s+(?:of\s+)?(?:the\s+)?(?:allowed|permitted|sandbox|workspace|configured)"
    r"|\bsandbox(?:ed)?\b|\ballow-?list(?:ed)?\b|\bwhitelist(?:ed)?\b)"
    r"(?:\s+(?:the\s+)?(?:allowed|permitted|configured)\s+[a-z]+)?"
)
"""Language that states where a tool may act. Matched on cleaned (folded) text."""

UNBOUNDED = re.compile(
    r"\barbitrary\b|\banywhere\b|\bunrestricted\b|\bsystem-wide\b"
    r"|\bany\s+(?:file|path|director(?:y|ie)|folder|location|command|process|program|code|"
    r"script|host|url|table|database|record|resource)s?\b"
    r"|\b(?:entire|whole)\s+(?:file\s*system|disk|drive|system|machine|host|computer|"
    r"database|server|cluster|bucket|account)\b"
    r"|\b(?:without|no)\s+(?:any\s+)?restrictions?\b"
)
"""Language claiming reach everywhere; it only strengthens a destructive finding."""

_DESTRUCTIVE = text.verb_pattern(text.DESTRUCTIVE_VERBS)
MIN_BOUNDED_SIBLINGS = 3
CONVENTION_SHARE = 2 / 3


@dataclass(frozen=True, slots=True)
class Hit:
    path: str
    excerpt: str
    span: tuple[int, int]
    phrase: str
    """The cleaned matched text, for messages and for comparing phrasing across tools."""


def texts(tool: Tool) -> Iterator[tuple[str, str]]:
    """Every string a tool documents itself with: description, then parameter descriptions."""
    desc = text.description(tool)
    if desc:
        yield "description", desc
    yield from text.schema_texts(tool)


def _first(pattern: re.Pattern[str], path: str, value: str, skip_negated: bool) -> Hit | None:
    cleaned = Cleaned(value)
    for m in pattern.finditer(cleaned.text):
        if skip_negated and text.negated(cleaned.text, m.start()):
            continue
        excerpt, span = cleaned.excerpt(m.start(), m.end())
        return Hit(path, excerpt, span, m.group(0))
    return None


def boundary(tool: Tool) -> Hit | None:
    """The first boundary statement the tool makes, if any."""
    for path, value in texts(tool):
        if (hit := _first(BOUNDARY, path, value, skip_negated=False)) is not None:
            return hit
    return None


def destructive(key: str, tool: Tool) -> Hit | None:
    """The first destructive verb in the name, or (unless read-only) in the text."""
    name = text.tool_name(key, tool)
    read_only = text.hint(tool, "readOnlyHint") is True
    # A query runner marked read-only is common; the hint check owns any lie it tells.
    verbs = text.DATA_LOSS_VERBS if read_only else text.DESTRUCTIVE_VERBS
    for token in text.name_verbs(text.name_tokens(name)):
        if token in verbs:
            return Hit("name", name, (0, len(name)), token)
    if read_only:
        return None
    for path, value in texts(tool):
        if (hit := _first(_DESTRUCTIVE, path, value, skip_negated=True)) is not None:
            return hit
    return None


def unbounded(tool: Tool) -> Hit | None:
    for path, value in texts(tool):
        if (hit := _first(UNBOUNDED, path, value, skip_negated=True)) is not None:
            return hit
    return None


def check(server: str, tools: Mapping[str, Tool]) -> list[Finding]:
    findings: list[Finding] = []
    bounds = {key: boundary(tool) for key, tool in tools.items()}
    for key, tool in tools.items():
        if bounds[key] is not None:
            continue
        verb = destructive(key, tool)
        if verb is None:
            continue
        reach = unbounded(tool)
        if reach is not None:
            findings.append(
                rules.finding(
                    rules.DESTRUCTIVE_CLAIMS_REACH,
                    server=server,
                    item=key,
                    path=reach.path,
                    excerpt=reach.excerpt,
                    span=reach.span,
                    message=f'destructive ("{text.show(verb.phrase)}") with no stated '
                    f'boundary, and claims reach over "{text.show(reach.phrase)}"',
                )
            )
        else:
            findings.append(
                rules.finding(
                    rules.DESTRUCTIVE_UNBOUNDED,
                    server=server,
                    item=key,
                    path=verb.path,
                    excerpt=verb.excerpt,
                    span=verb.span,
                    message=f'destructive ("{text.show(verb.phrase)}") and nothing in its '
                    "description or parameters says where it may act",
                )
            )
    findings.extend(_convention(server, tools, bounds))
    return findings


def _convention(
    server: str, tools: Mapping[str, Tool], bounds: Mapping[str, Hit | None]
) -> Iterator[Finding]:
    with_params = [key for key, tool in tools.items() if text.properties(tool)]
    bounded = [key for key in with_params if bounds[key] is not None]
    phrasing = Counter(_norm(hit.phrase) for key in bounded if (hit := bounds[key]) is not None)
    for key in with_params:
        if bounds[key] is not None:
            continue
        siblings = len(with_params) - 1
        if len(bounded) < MIN_BOUNDED_SIBLINGS or len(bounded) < CONVENTION_SHARE * siblings:
            continue
        usual = phrasing.most_common(1)[0][0]
        yield rules.finding(
            rules.BOUNDARY_CONVENTION,
            server=server,
            item=key,
            path="description",
            message=f"{len(bounded)} of {siblings} sibling tools state a boundary "
            f'(most often "{text.show(usual)}"); this one states none',
        )


def _norm(phrase: str) -> str:
    return " ".join(phrase.split())
