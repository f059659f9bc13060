"""Team policy: the failure threshold, severity overrides, and reasoned suppressions.

Lives in a ``[policy]`` table of ``mcplock.toml`` beside the lockfile (see README). Every
suppression must carry a written reason, so the report can say why a finding is absent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import cache
from typing import Any

from mcplock_tui.core.errors import ConfigError
from mcplock_tui.core.model import Finding, Reason, Severity


@dataclass(frozen=True, slots=True)
class Suppression:
    code: str
    """A rule code (``MCPL-INJ-020``) or ``*``."""
    target: str
    """``server`` or ``server/item``; shell-style wildcards allowed (``github/*``)."""
    reason: str

    def matches(self, finding: Finding) -> bool:
        if self.code != "*" and self.code != finding.code:
            return False
        server, _, item = self.target.partition("/")
        if not fnmatchcase(finding.server, server):
            return False
        return not item or fnmatchcase(finding.item, item)


@dataclass(frozen=True, slots=True)
class Policy:
    fail_on: Severity = Severity.HIGH
    overrides: Mapping[str, Severity] = field(default_factory=dict)
    """Severity by reason category, rule code or rule family (most specific wins)."""
    suppressions: tuple[Suppression, ...] = ()
    fail_on_known: Severity | None = None
    """Known findings (in pinned, unchanged text) at or above this band fail the check;
    None (the default): they are reported and counted, never failing."""

    def severity(self, reason: Reason, family: str = "") -> Severity:
        for key in (reason.category, family):
            if key and key in self.overrides:
                return self.overrides[key]
        return reason.severity

    def filter(
        self, findings: Iterable[Finding]
    ) -> tuple[tuple[Finding, ...], tuple[Finding, ...]]:
        """Split into (kept, suppressed)."""
        kept: list[Finding] = []
        dropped: list[Finding] = []
        for finding in findings:
            if any(s.matches(finding) for s in self.suppressions):
                dropped.append(finding)
            else:
                kept.append(finding)
        return tuple(kept), tuple(dropped)


def _severity(value: Any, where: str) -> Severity:
    if not isinstance(value, str):
        raise ConfigError(f"{where}: expected a severity name")
    try:
        return Severity.parse(value)
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from None


@cache
def known_policy_names() -> frozenset[str]:
    """Every name a policy may use: rule codes, rule families and drift reason categories."""
    from mcplock_tui.core.grading.severity import CATEGORIES
    from mcplock_tui.core.rules import all_rules  # the registries import the grading modules

    rules = all_rules()
    return frozenset({*rules, *(r.family for r in rules.values()), *CATEGORIES})


def _known_rule_codes() -> frozenset[str]:
    from mcplock_tui.core.rules import all_rules

    return frozenset(all_rules())


def _check_name(name: str, valid: frozenset[str], what: str, where: str) -> None:
    if name in valid:
        return
    import difflib  # only for a misspelt name's suggestion

    near = difflib.get_close_matches(name, sorted(valid), n=1, cutoff=0.6)
    hint = f"; did you mean {near[0]!r}?" if near else " (see README: Policy)"
    raise ConfigError(f"{where}: unknown {what} {name!r}{hint}")


def parse_policy(table: Mapping[str, Any], source: str) -> Policy:
    """Validate a ``[policy]`` table; errors name the file and key."""
    known = {"fail_on", "fail_on_known", "severity", "suppress"}
    for key in table:
        if key not in known:
            raise ConfigError(
                f"{source}: [policy] has unknown key {key!r} (known: {', '.join(sorted(known))})"
            )
    fail_on = _severity(table.get("fail_on", "high"), f"{source}: policy.fail_on")
    fail_on_known = (
        _severity(table["fail_on_known"], f"{source}: policy.fail_on_known")
        if "fail_on_known" in table
        else None
    )
    overrides_raw = table.get("severity", {})
    if not isinstance(overrides_raw, dict):
        raise ConfigError(f"{source}: policy.severity must be a table of category = severity")
    for key in overrides_raw:
        _check_name(
            str(key),
            known_policy_names(),
            "rule code, family or reason category",
            f"{source}: policy.severity",
        )
    overrides = {
        str(k): _severity(v, f"{source}: policy.severity.{k}") for k, v in overrides_raw.items()
    }
    suppressions: list[Suppression] = []
    raw_list = table.get("suppress", [])
    if not isinstance(raw_list, list):
        raise ConfigError(f"{source}: policy.suppress must be an array of tables")
    for index, raw in enumerate(raw_list):
        where = f"{source}: policy.suppress[{index}]"
        if not isinstance(raw, dict):
            raise ConfigError(f"{where}: expected a table with code, target and reason")
        code, target, reason = raw.get("code"), raw.get("target"), raw.get("reason")
        if not isinstance(code, str) or not code:
            raise ConfigError(f"{where}: 'code' (a rule code or \"*\") is required")
        if not isinstance(target, str) or not target:
            raise ConfigError(f'{where}: \'target\' ("server" or "server/tool") is required')
        if not isinstance(reason, str) or not reason.strip():
            raise ConfigError(f"{where}: 'reason' is required: say why this finding is acceptable")
        if code != "*":
            _check_name(code, _known_rule_codes(), "rule code", where)
        suppressions.append(Suppression(code, target, reason.strip()))
    return Policy(
        fail_on=fail_on,
        overrides=overrides,
        suppressions=tuple(suppressions),
        fail_on_known=fail_on_known,
    )
