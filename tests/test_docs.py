"""The README documents what the code does: every rule, every reason category, the test command."""

from __future__ import annotations

from pathlib import Path

from mcplock_tui.core.grading.severity import CATEGORIES
from mcplock_tui.core.rules import all_rules


def readme(repo_root: Path) -> str:
    return (repo_root / "README.md").read_text(encoding="utf-8")


def test_every_rule_is_in_the_readme_with_its_severity(repo_root: Path) -> None:
    text = readme(repo_root)
    for rule in all_rules().values():
        assert f"| `{rule.code}` | {rule.severity.label} | {rule.title} |" in text, rule.code


def test_every_reason_category_is_in_the_readme(repo_root: Path) -> None:
    text = readme(repo_root)
    for category in CATEGORIES:
        assert f"| `{category}` |" in text, category


def test_ci_runs_the_readme_test_command(repo_root: Path) -> None:
    lines = readme(repo_root).splitlines()
    marker = lines.index("<!-- ci:test-command -->")
    assert lines[marker + 1] == "```sh"
    assert "pytest" in lines[marker + 2]
    assert "ci:test-command" in (repo_root / ".ci" / "run").read_text()


def test_every_code_the_readme_names_exists(repo_root: Path) -> None:
    """The other direction: no stale row, no example naming a rule that is gone."""
    import re

    text = readme(repo_root)
    named = set(re.findall(r"\bMCPL-[A-Z]+-\d{3}\b", text))
    assert named, "the README names rule codes"
    assert sorted(named - set(all_rules())) == []


def test_every_category_row_in_the_readme_exists(repo_root: Path) -> None:
    import re

    lines = readme(repo_root).splitlines()
    start = lines.index("| category | when |")
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        found = re.match(r"\| `([^`]+)` \|", line)
        assert found, line
        rows.append(found.group(1))
    assert rows, "the category table has rows"
    assert sorted(set(rows) - set(CATEGORIES)) == []
