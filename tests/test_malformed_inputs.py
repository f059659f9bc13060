"""Broken lockfiles, configs and policies: every CLI path exits 2 with file, field and cause.

Config, lockfile and policy arrive in a pull request, so they are hostile. A crash would
exit 1, which means "drift", and print a traceback instead of telling the user what to fix.
The corpus covers parse, type, range and depth problems; each case runs through the real
entry point for every command that reads the file.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from mcplock_tui.cli.main import main
from tests.servers.harness import mcp_json, stdio_spec, write_defs

DEEP = 100_000
BIG_INT = "9" * 5000


def _pinned(tmp_path: Path) -> str:
    defs = write_defs(tmp_path / "defs.json")
    (tmp_path / ".mcp.json").write_text(json.dumps(mcp_json({"docs": stdio_spec("docs", defs)})))
    assert main(["pin"]) == 0
    return (tmp_path / "mcplock.lock").read_text()


def _sub(pattern: str, repl: str) -> Callable[[str], str]:
    def edit(text: str) -> str:
        new, n = re.subn(pattern, repl, text, count=1, flags=re.MULTILINE)
        assert n == 1, pattern
        return new

    return edit


SCHEMA = r"^input_schema = (?:\"\"\"[\s\S]*?\"\"\"|'''[\s\S]*?''')$"  # basic or literal


def _server_only(text: str) -> str:
    """The header and the first server table: a valid start to build a broken file on."""
    return text.split("[servers.docs.instructions]", 1)[0]


# name -> (edit of a valid lockfile's text, text that the message must contain)
LOCK_CASES: dict[str, tuple[Callable[[str], str], str]] = {
    "not-toml": (lambda t: t + "\n[servers\n", "not valid TOML"),
    "empty": (lambda t: "", "version"),
    "deep-array": (lambda t: t + "\nx = " + "[" * DEEP + "]" * DEEP + "\n", "nested"),
    "deep-table": (lambda t: t + "\nx = " + "{a=" * DEEP + "1" + "}" * DEEP + "\n", "nested"),
    "big-int-version": (_sub(r"^version = 2$", f"version = {BIG_INT}"), "version"),
    "big-int-anywhere": (lambda t: t + f"\nz = {BIG_INT}\n", "digits"),
    "version-string": (_sub(r"^version = 2$", 'version = "1"'), "version"),
    "version-date": (_sub(r"^version = 2$", "version = 1979-05-27"), "version"),
    "hash-model-inf": (_sub(r"^hash_model = 1$", "hash_model = inf"), "hash model"),
    "servers-int": (lambda t: "version = 2\nhash_model = 1\nservers = 5\n", "servers"),
    "server-string": (lambda t: 'version = 2\nhash_model = 1\n[servers]\ndocs = "x"\n', "docs"),
    "server-table-int": (
        lambda t: "version = 2\nhash_model = 1\n[servers.docs]\nserver = 5\n",
        "servers.docs.server",
    ),
    "tools-int": (lambda t: _server_only(t) + "[servers.docs]\ntools = 5\n", "tools"),
    "version-bool": (_sub(r"^version = 2$", "version = true"), "version"),
    "format-1-hash-int": (  # format 1 stored each item's hash; one of the wrong type
        lambda t: _sub(r"^version = 2$", "version = 1")(t).replace(
            "[servers.docs.server]\n", "[servers.docs.server]\nhash = 5\n", 1
        ),
        "hash",
    ),
    "schema-array": (_sub(SCHEMA, "input_schema = [1, 2]"), "input_schema"),
    "schema-deep-json": (_sub(SCHEMA, 'input_schema = "' + "[" * DEEP + "]" * DEEP + '"'), "JSON"),
    "schema-300-deep-json": (
        _sub(SCHEMA, 'input_schema = "' + "[" * 300 + "]" * 300 + '"'),
        "deep",
    ),
    "schema-big-int-json": (_sub(SCHEMA, f'input_schema = "{BIG_INT}"'), "digits"),
    "rejected-int": (
        lambda t: t.replace(
            "[servers.docs.server]", "[servers.docs]\nrejected = 5\n\n[servers.docs.server]", 1
        ),
        "rejected",
    ),
    "rejected-strings": (
        lambda t: t.replace(
            "[servers.docs.server]", '[servers.docs]\nrejected = ["x"]\n\n[servers.docs.server]', 1
        ),
        "rejected",
    ),
    "invalid-utf8": (lambda t: "\udcff", "UTF-8"),
}


def _write(path: Path, text: str) -> None:
    path.write_bytes(text.encode("utf-8", "surrogateescape"))


LOCK_COMMANDS = [
    ["--check"],
    ["pin"],
    ["accept", "docs"],
    ["--check", "--format", "json"],
]


@pytest.fixture
def pinned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(tmp_path)
    return _pinned(tmp_path)


def _expect_2(argv: list[str], capsys: pytest.CaptureFixture[str], *needles: str) -> str:
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, (argv, err)
    assert "Traceback" not in err and "internal error" not in err, err
    for needle in needles:
        assert needle.lower() in err.lower(), (argv, needle, err)
    return err


@pytest.mark.parametrize("case", list(LOCK_CASES))
def test_broken_lockfile_exits_2_on_every_command(
    case: str, pinned: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit, needle = LOCK_CASES[case]
    broken = edit(pinned)
    lock = tmp_path / "mcplock.lock"
    _write(lock, broken)
    before = lock.read_bytes()
    for argv in LOCK_COMMANDS:
        _expect_2(argv, capsys, "mcplock.lock", needle)
    assert lock.read_bytes() == before, "a broken lockfile is never overwritten"
    code = main(["log", "verify"])
    out = capsys.readouterr()
    assert code == 2 and "Traceback" not in out.err  # cannot verify: not "verified, bad"
    assert "lockfile" in out.out + out.err


def test_lockfile_in_an_unwritable_place_is_a_clear_message(
    pinned: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "afile").write_text("")
    _expect_2(["pin", "--lock", "afile/mcplock.lock"], capsys, "afile")
    (tmp_path / "adir.lock").mkdir()
    _expect_2(["--check", "--lock", "adir.lock"], capsys, "adir.lock")


CONFIG_CASES: dict[str, tuple[str, str]] = {
    "deep-json": ("[" * DEEP + "]" * DEEP, "nested"),
    "big-int": (
        f'{{"mcpServers": {{"docs": {{"command": "x", "timeout": {BIG_INT}}}}}}}',
        "digits",
    ),
    "servers-list": ('{"mcpServers": []}', "mcpServers"),
    "command-int": ('{"mcpServers": {"docs": {"command": 5}}}', "command"),
    "args-string": ('{"mcpServers": {"docs": {"command": "x", "args": "y"}}}', "args"),
    "args-int-item": ('{"mcpServers": {"docs": {"command": "x", "args": [1]}}}', "args"),
    "env-int": ('{"mcpServers": {"docs": {"command": "x", "env": {"K": 1}}}}', "env"),
    "url-bad": ('{"mcpServers": {"docs": {"url": "ftp://"}}}', "url"),
    "not-json": ('{"mcpServers": ', "invalid JSON"),
    "top-list": ("[]", ".mcp.json"),
    "nan": ('{"mcpServers": {"docs": {"command": "x", "args": [NaN]}}}', "args"),
}

POLICY_CASES: dict[str, tuple[str, str]] = {
    "not-toml": ("[policy\n", "not valid TOML"),
    "deep": ("x = " + "[" * DEEP + "]" * DEEP + "\n", "nested"),
    "big-int": (f"[policy]\nfail_on = {BIG_INT}\n", "digits"),
    "policy-int": ("policy = 5\n", "policy"),
    "fail-on-int": ("[policy]\nfail_on = 5\n", "fail_on"),
    "fail-on-unknown": ('[policy]\nfail_on = "extreme"\n', "fail_on"),
    "severity-list": ("[policy]\nseverity = [1]\n", "severity"),
    "suppress-int": ("[policy]\nsuppress = 5\n", "suppress"),
    "suppress-item-int": ("[policy]\nsuppress = [5]\n", "suppress"),
    "suppress-code-int": ('[[policy.suppress]]\ncode = 1\ntarget = "a"\nreason = "r"\n', "code"),
    "invalid-utf8": ("\udcff", "UTF-8"),
}


@pytest.mark.parametrize("case", list(CONFIG_CASES))
def test_broken_config_exits_2(
    case: str, pinned: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, needle = CONFIG_CASES[case]
    _write(tmp_path / ".mcp.json", text)
    for argv in (["--check"], ["pin"], ["lint"], ["accept", "docs"]):
        _expect_2(argv, capsys, ".mcp.json", needle)


@pytest.mark.parametrize("case", list(POLICY_CASES))
def test_broken_policy_exits_2(
    case: str, pinned: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, needle = POLICY_CASES[case]
    _write(tmp_path / "mcplock.toml", text)
    for argv in (["--check"], ["pin"], ["lint"], ["accept", "docs"]):
        _expect_2(argv, capsys, "mcplock.toml", needle)


def test_real_process_prints_no_traceback(pinned: str, tmp_path: Path) -> None:
    """The same through a real process: the interpreter's own limits apply there."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    for edit, _ in (LOCK_CASES["deep-array"], LOCK_CASES["big-int-anywhere"]):
        _write(tmp_path / "mcplock.lock", edit(pinned))
        for argv in (["--check"], ["pin"]):
            done = subprocess.run(
                [sys.executable, "-m", "mcplock_tui", *argv],
                cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
            )  # fmt: skip
            assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
