"""The import graph's contracts, read statically from every module (lazy imports included).

The subprocess test in ``test_architecture.py`` proves what importing the core loads; this one
proves what each layer's *source* may import, so a deferred import inside a function cannot
slip a layer violation past the runtime check.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "mcplock_tui"


@dataclass(frozen=True)
class Import:
    module: str
    """The importing module, e.g. ``mcplock_tui.cli.check``."""
    target: str
    """The imported module, absolute."""
    top_level: bool
    """At module level (not inside a function, and not under ``if TYPE_CHECKING``)."""
    line: int


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(module: str, is_package: bool, body: list[ast.stmt], top: bool) -> Iterator[Import]:
    for node in body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(module, alias.name, top, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, is_package, node)
            for alias in node.names:
                # "from pkg import sub" may name a submodule: record both spellings
                yield Import(module, f"{target}.{alias.name}", top, node.lineno)
            yield Import(module, target, top, node.lineno)
        elif isinstance(node, ast.If):
            lazy = _is_type_checking(node.test)
            yield from _walk(module, is_package, node.body, top and not lazy)
            yield from _walk(module, is_package, node.orelse, top)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield from _walk(module, is_package, node.body, False)
        elif isinstance(node, ast.ClassDef):
            yield from _walk(module, is_package, node.body, top)
        elif isinstance(node, (ast.Try, ast.With, ast.AsyncWith, ast.For, ast.While)):
            for field in ("body", "orelse", "finalbody", "handlers"):
                for child in getattr(node, field, []):
                    inner = child.body if isinstance(child, ast.ExceptHandler) else [child]
                    yield from _walk(module, is_package, inner, top)


def all_imports() -> list[Import]:
    found: list[Import] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found.extend(_walk(module, path.name == "__init__.py", tree.body, True))
    return found


IMPORTS = all_imports()


REPORT_MODEL = (
    "mcplock_tui.core.report",
    "mcplock_tui.core.graded",
    "mcplock_tui.core.verdict",
    "mcplock_tui.core.model",
    "mcplock_tui.core.exitcodes",
    "mcplock_tui.core.diff",
)
SHELLS = (
    "mcplock_tui.cli",
    "mcplock_tui.tui",
    "mcplock_tui.explain",
    "mcplock_tui.guard",
    "mcplock_tui.pinning",
    "mcplock_tui.decisions",
)
GRADING = (
    "mcplock_tui.core.grading",
    "mcplock_tui.core.detectors",
    "mcplock_tui.core.lint",
    "mcplock_tui.core.analysis",
)


def _in(name: str, *packages: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def violations(rule: str) -> list[str]:
    out = []
    for imp in IMPORTS:
        if CONTRACTS[rule](imp):
            out.append(f"{imp.module}:{imp.line} imports {imp.target}")
    return sorted(set(out))


CONTRACTS: dict[str, Callable[[Import], bool]] = {
    "core imports nothing of the package outside core": lambda i: (
        _in(i.module, "mcplock_tui.core")
        and _in(i.target, "mcplock_tui")
        and not _in(i.target, "mcplock_tui.core")
        and i.target
        not in ("mcplock_tui", "mcplock_tui.__version__")  # the root holds a version only
    ),
    "only capture/ imports the MCP SDK (mcp, mcp_types)": lambda i: (
        _in(i.target, "mcp", "mcp_types") and not _in(i.module, "mcplock_tui.capture")
    ),
    # The guard relays raw JSON-RPC (no SDK models) and needs HTTP for --url upstreams.
    "only capture/ and guard/ open network connections (httpx2)": lambda i: (
        _in(i.target, "httpx2") and not _in(i.module, "mcplock_tui.capture", "mcplock_tui.guard")
    ),
    "only tui/ imports textual": lambda i: (
        _in(i.target, "textual") and not _in(i.module, "mcplock_tui.tui")
    ),
    "only explain/ imports anthropic": lambda i: (
        _in(i.target, "anthropic") and not _in(i.module, "mcplock_tui.explain")
    ),
    "rich only in the shells (cli/, tui/)": lambda i: (
        _in(i.target, "rich") and not _in(i.module, "mcplock_tui.cli", "mcplock_tui.tui")
    ),
    "tui does not import cli": lambda i: (
        _in(i.module, "mcplock_tui.tui") and _in(i.target, "mcplock_tui.cli")
    ),
    # The one exception: the commands that open the app do so lazily, through tui.launch.
    "cli imports tui only through tui.launch, lazily": lambda i: (
        _in(i.module, "mcplock_tui.cli")
        and _in(i.target, "mcplock_tui.tui")
        and not (_in(i.target, "mcplock_tui.tui.launch") and not i.top_level)
    ),
    # The app shows reports before the grading code has loaded (its first frame waits for
    # nothing that grades), so the report model must stay free of it.
    "the report model does not import grading, detectors or lint": lambda i: (
        _in(i.module, *REPORT_MODEL) and _in(i.target, *GRADING) and i.top_level
    ),
    # One entry to grading: every shell gets the same report for the same input.
    "the shells reach grading only through core.analysis": lambda i: (
        _in(i.module, *SHELLS)
        and _in(i.target, "mcplock_tui.core.grading", "mcplock_tui.core.detectors")
    ),
    "explain is imported only lazily outside explain/": lambda i: (
        _in(i.target, "mcplock_tui.explain")
        and not _in(i.module, "mcplock_tui.explain")
        and i.top_level
    ),
}


def test_the_walker_sees_lazy_and_top_level_imports() -> None:
    main = [i for i in IMPORTS if i.module == "mcplock_tui.cli.main"]
    assert any(i.target.startswith("mcplock_tui.tui.launch") and not i.top_level for i in main)
    assert any(i.target == "argparse" and i.top_level for i in main)


@pytest.mark.parametrize("rule", sorted(CONTRACTS))
def test_import_contract(rule: str) -> None:
    assert violations(rule) == []
