"""Secrets in launch args and URLs never reach the lockfile; ordinary args stay readable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mcplock_tui.redaction import REDACTED, redact_args, redact_text, redact_url
from mcplock_tui.spec import ServerSpec
from tests.servers.harness import RAWSERVER, write_defs

# (args as written, the secret that must vanish); each is one way READMEs put a token in.
SECRET_ARGS: list[tuple[list[str], str]] = [
    (["--header", "Authorization: Bearer Zq81mXv3LpW0tRk7YbN2cE"], "Zq81mXv3LpW0tRk7YbN2cE"),
    (["--header", "Authorization:Bearer plainword"], "plainword"),
    (["-H", "Cookie: sid=chocolatechip"], "chocolatechip"),
    (["--header", "X-Goog-Api-Key: lowkeyvalue"], "lowkeyvalue"),
    (["--header", "Private-Token: tokenish"], "tokenish"),
    (["--header=X-Api-Key: inlineheader"], "inlineheader"),
    (["run", "-i", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN=hunter2hunter2", "img"], "hunter2hunter2"),
    (["API_KEY=positional-secret"], "positional-secret"),
    (["--env", "DB_PASSWORD=swordfish"], "swordfish"),
    (["--pass", "correct horse"], "correct horse"),
    (["--key", "k3yvalue"], "k3yvalue"),
    (["--bearer", "brr"], "brr"),
    (["-p", "s3cretpw"], "s3cretpw"),
    (["-t", "tokval"], "tokval"),
    (["--api-key=inline-secret"], "inline-secret"),
    (["--clientSecret", "camelcase"], "camelcase"),
    (["--conn", "Server=db;User Id=sa;Password=Pa55word!;"], "Pa55word!"),
    (["host=db user=app pwd=dsnpass dbname=x"], "dsnpass"),
    (["postgres://app:pgpassword@db.example:5432/app"], "pgpassword"),
    (["https://h.example/mcp?key=querysecret"], "querysecret"),
    (["https://h.example/mcp#fragsecret"], "fragsecret"),
    (
        ["https://hooks.example.com/services/T0123ABCD/Zx9Qw8Er7Ty6Ui5Op4As3Df2"],
        "Zx9Qw8Er7Ty6Ui5Op4As3Df2",
    ),
    (["--config", '{"apiKey": "jsonsecret", "region": "eu"}'], "jsonsecret"),
    (["ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"], "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"),
    (["github_pat_11ABCDEFG0abcdefghijkl_mnopqrstu"], "11ABCDEFG0abcdefghijkl"),
    (["--x", "sk-ant-api03-abcdEFGH1234ijkl5678"], "abcdEFGH1234ijkl5678"),
    (["sk-proj-Ab12Cd34Ef56Gh78"], "Ab12Cd34Ef56Gh78"),
    (["xoxb-1234567890-abcdefghij"], "1234567890-abcdefghij"),
    (["AKIAIOSFODNN7EXAMPLE"], "IOSFODNN7EXAMPLE"),
    (["glpat-abcdefghij0123456789"], "abcdefghij0123456789"),
    (["--opt", "mQ9vT2xL7pR4wZ8kN3bY6cF1hJ5sD0gA"], "mQ9vT2xL7pR4wZ8kN3bY6cF1hJ5sD0gA"),
    (
        ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sflKxwRJSMeKKF2QT4fwpM"],
        "sflKxwRJSMeKKF2QT4fwpM",
    ),
]

ORDINARY = [
    "-y", "@modelcontextprotocol/server-filesystem", "/home/user/projects/my-app", "--port",
    "8080", "mcp-server-fetch==2025.4.7", "ghcr.io/github/github-mcp-server", "run", "-i", "--rm",
    "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "--token-file", "./secrets/tok.txt", "--transport",
    "stdio", "--allowed-origins=https://example.com", "--db-path", "./data.db", "--log-level=debug",
    "@playwright/mcp@latest", "--auth-type", "oauth", "--header", "Content-Type: application/json",
    "--author", "Mike", "--token", "${GITHUB_TOKEN}", "--api-key=${API_KEY}", "--header",
    "Authorization: Bearer ${TOKEN}", "-p", "8080:80", "KEYBOARD_LAYOUT=us", "--monkey=banana",
    "mcp_server_really_long_module_name", "C:\\Users\\me\\AppData\\Roaming\\Claude",
]  # fmt: skip


@pytest.mark.parametrize(("args", "secret"), SECRET_ARGS, ids=[s for _, s in SECRET_ARGS])
def test_each_secret_form_is_redacted(args: list[str], secret: str) -> None:
    out = redact_args(args)
    assert len(out) == len(args)
    assert secret not in " ".join(out)
    assert out != args
    assert redact_args(out) == out, "stable: redacting twice changes nothing"


def test_ordinary_args_stay_readable() -> None:
    assert redact_args(ORDINARY) == ORDINARY


def test_header_keeps_its_name_and_scheme() -> None:
    assert redact_args(["--header", "Authorization: Bearer abc"]) == [
        "--header",
        f"Authorization: Bearer {REDACTED}",
    ]
    assert redact_text("API_KEY=x1") == f"API_KEY={REDACTED}"


def test_url_keeps_host_and_plain_path() -> None:
    assert redact_url("https://u:p@mcp.example.com:8443/v1/sse?k=v#f") == (
        "https://mcp.example.com:8443/v1/sse"
    )
    assert redact_url("http://[::1]:99999/x") == REDACTED


def test_redacted_fields_name_the_field_not_the_value() -> None:
    spec = ServerSpec(
        name="s",
        transport="stdio",
        source="t",
        command="npx",
        args=("-y", "mcp-remote", "https://h.example/mcp", "--header", "Authorization: Bearer zz"),
    )
    assert spec.redacted_fields() == ["args[4]"]
    assert "zz" not in spec.launch()
    http = ServerSpec(name="h", transport="http", source="t", url="https://h.example/m?token=zz")
    assert http.redacted_fields() == ["url"] and "zz" not in http.launch()


def test_pin_keeps_every_secret_form_out_of_the_lockfile(tmp_path: Path) -> None:
    defs = write_defs(tmp_path / "defs.json")
    servers = {
        f"s{i}": {"command": sys.executable, "args": [str(RAWSERVER), str(defs), *args]}
        for i, (args, _) in enumerate(SECRET_ARGS)
    }
    servers["plain"] = {"command": sys.executable, "args": [str(RAWSERVER), str(defs), *ORDINARY]}
    servers["web"] = {"command": sys.executable, "args": [str(RAWSERVER), str(defs)]}
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    env.update(GITHUB_TOKEN="gho_envvalue1", API_KEY="envvalue2", TOKEN="envvalue3")

    def pin() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "mcplock_tui", "pin"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    first = pin()
    assert first.returncode == 0, first.stderr
    lock = (tmp_path / "mcplock.lock").read_bytes()
    for _, secret in SECRET_ARGS:
        assert secret.encode() not in lock, secret
        assert secret not in first.stdout + first.stderr, "the warning never shows the value"
    for i in range(len(SECRET_ARGS)):
        warned = [
            line for line in first.stdout.splitlines() if f"s{i}: " in line and "redacted" in line
        ]
        assert warned, f"pin said it redacted s{i}"
        assert "${VAR}" in warned[0]
    for expanded in ("gho_envvalue1", "envvalue2", "envvalue3"):
        assert expanded.encode() not in lock, "references are recorded as written"
    assert not any("plain: " in line for line in first.stdout.splitlines())
    for word in ("@modelcontextprotocol/server-filesystem", "--port 8080", "-y"):
        assert word.encode() in lock
    again = pin()
    assert again.returncode == 0 and (tmp_path / "mcplock.lock").read_bytes() == lock


def test_pin_from_claude_desktop_config_says_so(tmp_path: Path) -> None:
    """Discovery falls back to the user's own Desktop config: personal tokens live there."""
    home = Path(os.environ["HOME"])
    desktop = home / ".config" / "Claude" / "claude_desktop_config.json"
    desktop.parent.mkdir(parents=True)
    defs = write_defs(tmp_path / "defs.json")
    secret = "sk-ant-api03-Pers0nalT0kenValue99"
    args = [str(RAWSERVER), str(defs), "--api-key", secret]
    desktop.write_text(
        json.dumps({"mcpServers": {"mine": {"command": sys.executable, "args": args}}})
    )
    project = tmp_path / "project"
    project.mkdir()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    done = subprocess.run(
        [sys.executable, "-m", "mcplock_tui", "pin"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Claude Desktop" in done.stdout and str(desktop) in done.stdout
    assert secret.encode() not in (project / "mcplock.lock").read_bytes()
