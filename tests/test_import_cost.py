"""What a headless command imports beyond the MCP client is paid on every CI run.

A JSON check renders nothing for people, so it has no use for rich; a lockfile in the usual
shapes has no use for tomli_w. Both are checked on a real ``--check --format json`` run
against a real stdio server, pinned first, in a fresh interpreter.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.servers.harness import RAWSERVER, write_defs

_RUN = (
    "import sys\n"
    "from mcplock_tui.cli.main import main\n"
    "code = main(sys.argv[1:])\n"
    "heavy = ('rich', 'tomli_w', 'textual', 'anthropic')\n"
    "print('LOADED', sorted(h for h in heavy if h in sys.modules), file=sys.stderr)\n"
    "sys.exit(code)\n"
)


def _run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _RUN, *args, "--config", ".mcp.json", "--lock", "mcplock.lock"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _project(folder: Path) -> None:
    """A project whose one server is the raw fixture server over stdio."""
    defs = write_defs(folder / "defs.json")
    config = {
        "mcpServers": {"local": {"command": sys.executable, "args": [str(RAWSERVER), str(defs)]}}
    }
    (folder / ".mcp.json").write_text(json.dumps(config), encoding="utf-8")


def test_json_check_imports_neither_rich_nor_tomli_w(tmp_path: Path) -> None:
    _project(tmp_path)
    pinned = _run(tmp_path, "pin")
    assert pinned.returncode == 0, pinned.stderr
    checked = _run(tmp_path, "--check", "--format", "json")
    assert checked.returncode == 0, checked.stderr
    assert json.loads(checked.stdout)["servers"], checked.stdout
    assert "LOADED []" in checked.stderr, checked.stderr


def test_the_app_module_loads_without_the_mcp_client(repo_root: Path) -> None:
    """The app paints its first frame before the MCP SDK is imported (capture loads it in a
    worker), so a reviewer sees the app in a fraction of a second, not after ~1 s of imports."""
    code = (
        "import sys\n"
        "import mcplock_tui.tui.app, mcplock_tui.tui.launch\n"
        "print(sorted(m for m in ('mcp', 'mcp_types', 'httpx2', 'anthropic') if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=repo_root, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


def test_the_console_entry_pauses_the_collector_until_a_command_runs(repo_root: Path) -> None:
    """The cyclic collector walks every object start-up makes each time a generation fills;
    the console entry switches it off before anything heavy is imported, and a headless
    command switches it back on (the start-up heap frozen) before it does its work."""
    code = (
        "import gc, sys\n"
        "import mcplock_tui.cli.entry as entry\n"
        "print('AT_IMPORT', gc.isenabled(), 'textual' in sys.modules, 'mcplock_tui.cli.main' in sys.modules)\n"
        "sys.argv = ['mcplock-tui', 'log', 'verify', '--lock', sys.argv[1]]\n"
        "code = entry.main()\n"
        "print('AFTER', gc.isenabled(), gc.get_freeze_count() > 0, code)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(repo_root / "no-such-dir" / "mcplock.lock")],
        cwd=repo_root,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "AT_IMPORT False False False" in out.stdout, (out.stdout, out.stderr)
    assert "AFTER True True" in out.stdout, (out.stdout, out.stderr)


_ENTRY_CHECK = (
    "import sys\n"
    "import mcplock_tui.cli.entry as entry\n"
    "import mcplock_tui.startup as startup\n"
    "resume = startup.resume_collector\n"
    "def watched():\n"
    "    print('RESUMED WITH SDK', 'mcp' in sys.modules, file=sys.stderr)\n"
    "    resume()\n"
    "startup.resume_collector = watched\n"
    "sys.argv = ['mcplock-tui', *sys.argv[1:]]\n"
    "sys.exit(entry.main())\n"
)


def test_a_check_imports_the_sdk_before_the_collector_resumes(tmp_path: Path) -> None:
    """Importing the MCP SDK makes most of a check's long-lived objects: with the collector
    on, it walks them again and again (about 0.15 s of CPU per run)."""
    _project(tmp_path)
    for args in (["pin"], ["--check", "--format", "json"]):
        done = subprocess.run(
            [sys.executable, "-c", _ENTRY_CHECK, *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert "RESUMED WITH SDK True" in done.stderr, (args, done.stderr)


def test_the_first_frame_loads_nothing_it_does_not_draw(repo_root: Path) -> None:
    """The diff model and the split view, the tabs, the dialogs, grading and signing load
    when first used, not while the reviewer waits for the first frame."""
    later = (
        "mcplock_tui.tui.render.field_diff",
        "mcplock_tui.tui.widgets.split_view",
        "mcplock_tui.tui.screens.modals",
        "textual.widgets._tabbed_content",
        "mcplock_tui.core.grading",
        "mcplock_tui.core.detectors",
        "cryptography",
    )
    code = (
        "import sys\n"
        "import mcplock_tui.cli.main, mcplock_tui.tui.launch, mcplock_tui.tui.app\n"
        f"print(sorted(m for m in {later!r} if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=repo_root, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout


_FIRST_FRAME = (
    "import sys\n"
    "from mcplock_tui.cli.main import build_parser\n"
    "from mcplock_tui.tui.app import ReviewApp\n"
    "from mcplock_tui.tui.launch import build_app\n"
    "def ready(self):\n"
    "    print('AT_READY', sorted(m for m in sys.argv[1:] if m in sys.modules))\n"
    "    self.call_after_refresh(self.exit)\n"
    "ReviewApp.on_ready = ready\n"
    "app = build_app(build_parser().parse_args([]))\n"
    "app.run(headless=True, size=(80, 24))\n"
)


def test_the_first_frame_on_a_pinned_project_loads_only_what_it_uses(tmp_path: Path) -> None:
    """A lockfile as written reads without tomllib (the fast reader takes it); no launch line
    is shown, no lockfile written, no change decided or explained before capture: the TOML
    fallback, the redaction and host patterns, the decision rules and the explain types load
    with what uses them."""
    _project(tmp_path)
    pinned = _run(tmp_path, "pin")
    assert pinned.returncode == 0, pinned.stderr
    later = (
        "tomllib",
        "mcplock_tui.redaction",
        "mcplock_tui.core.hosts",
        "mcplock_tui.core.verdict",
        "mcplock_tui.core.review",
    )
    done = subprocess.run(
        [sys.executable, "-c", _FIRST_FRAME, *later],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "AT_READY []" in done.stdout, (done.stdout, done.stderr)
