"""Advisory lint over a server's tool definitions: ambiguity, scope, annotations, naming.

These are judgment calls for a reviewer, not the binary facts drift detection deals in,
so every finding is advisory unless policy says otherwise. Each check reads only what a
server *says* (names, descriptions, schemas, hints), never what its tools do.

``tools`` maps a tool key (normally the name; ``name#2`` for a repeated one) to the raw
tool dict as the server sent it, camelCase wire keys included. Anything else in the
mapping (a non-dict value, a non-string key) is ignored rather than trusted.
"""

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from mcplock_tui.core.lint import ambiguity, annotations, naming, rules, scope, text
from mcplock_tui.core.lint.ambiguity import AmbiguousPair, ambiguous_pairs
from mcplock_tui.core.lint.rules import RULES
from mcplock_tui.core.model import Finding

__all__ = ["RULES", "AmbiguousPair", "ambiguous_pairs", "lint_drift", "lint_tools"]

Tools = Mapping[str, Mapping[str, Any]]
MAX_LISTED = 5
"""Partners named in one finding's message; a cluster of hundreds is summarised."""


def _usable(tools: Tools) -> dict[str, Mapping[str, Any]]:
    return {k: v for k, v in tools.items() if isinstance(k, str) and isinstance(v, Mapping)}


def _sorted(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.item, f.code, f.path, f.excerpt, f.message))


def _pair_findings(
    code: str, verb: str, server: str, tools: Tools, pairs: Iterable[tuple[str, str, str]]
) -> list[Finding]:
    """One finding per tool, naming every partner: ``(key, partner key, detail)`` triples."""
    by_key: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for key, partner, detail in pairs:
        by_key[key].append((partner, detail))
    out: list[Finding] = []
    for key, partners in by_key.items():
        listed = "; ".join(
            f"{naming.describe(p, tools)}{detail}" for p, detail in partners[:MAX_LISTED]
        )
        if len(partners) > MAX_LISTED:
            listed += f"; and {len(partners) - MAX_LISTED} more"
        out.append(
            rules.finding(code, server=server, item=key, path="name", message=f"{verb} {listed}")
        )
    return out


def _ambiguity_triples(pairs: Iterable[AmbiguousPair]) -> list[tuple[str, str, str]]:
    triples: list[tuple[str, str, str]] = []
    for key, items in ambiguity.partners(list(pairs)).items():
        for n, pair in enumerate(items):
            detail = (
                f" (score {pair.score:.2f}: same arguments accepted, name affinity "
                f"{pair.name_affinity:.2f}, description similarity "
                f"{pair.description_similarity:.2f})"
                if n < MAX_LISTED
                else ""  # never shown: only counted
            )
            triples.append((key, ambiguity.other(pair, key), detail))
    return triples


def lint_tools(server: str, tools: Tools) -> list[Finding]:
    """Every lint finding for one server's tools, sorted by tool, code and path."""
    usable = _usable(tools)
    findings: list[Finding] = []
    findings += _pair_findings(
        rules.AMBIGUOUS,
        "may be mistaken for",
        server,
        usable,
        _ambiguity_triples(ambiguous_pairs(usable)),
    )
    findings += scope.check(server, usable)
    findings += annotations.check(server, usable)
    findings += naming.check(server, usable)
    return _sorted(findings)


def lint_drift(server: str, old_tools: Tools, new_tools: Tools) -> list[Finding]:
    """Lint findings the new tool set has and the old did not, for drift grading.

    Limited to what a change can newly create: a boundary statement dropped from a tool
    present in both, and a new ambiguous, duplicate or look-alike pair of tools. Pairs are
    matched by tool key. Description similarity is weighted by the whole server's
    vocabulary, so a pair near the threshold can cross it when unrelated tools change.
    """
    old, new = _usable(old_tools), _usable(new_tools)
    findings: list[Finding] = []
    for key in sorted(old.keys() & new.keys()):
        before = scope.boundary(old[key])
        if before is not None and scope.boundary(new[key]) is None:
            findings.append(
                rules.finding(
                    rules.BOUNDARY_DROPPED,
                    server=server,
                    item=key,
                    path=before.path,
                    message=f"no longer states a boundary; its {before.path} said "
                    f'"{text.show(before.phrase)}"',
                )
            )

    old_pairs = {(p.a, p.b) for p in ambiguous_pairs(old)}
    fresh = [p for p in ambiguous_pairs(new) if (p.a, p.b) not in old_pairs]
    findings += _pair_findings(
        rules.NEW_AMBIGUOUS_PAIR, "became mistakable for", server, new, _ambiguity_triples(fresh)
    )

    new_names = naming.name_pairs(new) - naming.name_pairs(old)
    triples = [
        (key, partner, "")
        for pair in sorted(sorted(p) for p in new_names)
        for key, partner in ((pair[0], pair[1]), (pair[1], pair[0]))
    ]
    findings += _pair_findings(
        rules.NEW_CONFUSABLE_NAME, "now has a name equal to or like", server, new, triples
    )
    return _sorted(findings)
