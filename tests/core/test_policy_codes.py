"""Policy keys and suppression codes name things that exist: a typo fails loudly, with a hint.

A suppression whose code matches no rule silently does nothing, so the finding it was meant
to cover keeps failing (or, worse, someone widens it to ``*``). Unknown names are refused
with the nearest valid one.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mcplock_tui.core.policy import known_policy_names, parse_policy
from mcplock_tui.core.rules import all_rules
from mcplock_tui.errors import ConfigError

README = Path(__file__).resolve().parents[2] / "README.md"


def test_an_unknown_suppression_code_is_refused_with_the_nearest_code() -> None:
    real = sorted(all_rules())[0]
    typo = real[:-1] + ("9" if real[-1] != "9" else "8")
    with pytest.raises(ConfigError, match=r"policy.suppress\[0\].*unknown rule code"):
        parse_policy({"suppress": [{"code": "MCPL-NOPE-001", "target": "a", "reason": "r"}]}, "p")
    with pytest.raises(ConfigError, match="did you mean"):
        parse_policy({"suppress": [{"code": typo, "target": "a", "reason": "r"}]}, "p")


def test_an_unknown_severity_key_is_refused_with_a_suggestion() -> None:
    with pytest.raises(ConfigError, match="did you mean 'description-changed'"):
        parse_policy({"severity": {"descripton-changed": "low"}}, "p")


def test_every_kind_of_valid_name_is_accepted() -> None:
    code = sorted(all_rules())[0]
    policy = parse_policy(
        {
            "severity": {"description-changed": "low", code: "low", "injection": "medium"},
            "suppress": [
                {"code": code, "target": "a/*", "reason": "reviewed"},
                {"code": "*", "target": "b", "reason": "reviewed"},
            ],
        },
        "p",
    )
    assert policy.overrides[code].label == "low"
    assert "description-changed" in known_policy_names()


def test_the_readme_policy_example_is_a_valid_policy() -> None:
    text = README.read_text(encoding="utf-8")
    block = re.search(r"```toml\n(\[policy\]\n.*?)```", text, re.S)
    assert block is not None
    import tomllib

    parse_policy(tomllib.loads(block.group(1))["policy"], "README.md")
