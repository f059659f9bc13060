"""Import boundaries: the core is pure, and the headless path stays light."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import mcplock_tui.core

FORBIDDEN_IN_CORE = (
    "textual",
    "rich",
    "anthropic",
    "mcp",
    "httpx2",
    "mcplock_tui.tui",
    "mcplock_tui.explain",
    "mcplock_tui.capture",
)


def core_modules() -> list[str]:
    return sorted(
        m.name for m in pkgutil.walk_packages(mcplock_tui.core.__path__, "mcplock_tui.core.")
    )


def test_core_imports_no_ui_client_or_network_package(repo_root: Path) -> None:
    modules = core_modules()
    assert "mcplock_tui.core.grading.grade" in modules and "mcplock_tui.core.detectors" in modules
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"print(sorted(f for f in {FORBIDDEN_IN_CORE!r} if any(k == f or k.startswith(f + '.') for k in sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=repo_root, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
