"""Secrets out of launch commands, URLs and log text, by pattern and by position.

A launch line is committed to the repo in the lockfile, and configs are copied from READMEs
that put tokens straight into ``args``: ``--header "Authorization: Bearer …"`` (mcp-remote),
docker ``-e GITHUB_PERSONAL_ACCESS_TOKEN=…``, ``--api-key …``, ``Password=`` in a connection
string, a key in a URL path. Each rule below catches one way a secret is written:

- by position: the value after a flag whose name has a secret word (``--pass``, ``--key``,
  ``--bearer``, ``--api-key=…``, and the short ``-p``/``-t``), unless the flag names a file,
  path, folder or variable (``--token-file``), or the value is a port or a number;
- by name: ``NAME=VALUE``, ``"name": "value"`` and ``Name: value`` (a header) where the name
  has a secret word (token, key, secret, pass, pwd, auth, credential, session, cookie, …);
- inside URLs: userinfo, query and fragment are dropped (DSNs such as
  ``postgres://user:pw@host`` included);
- by shape: well-known token prefixes (``ghp_``, ``github_pat_``, ``sk-ant-``, ``xoxb-``,
  ``AKIA``, ``glpat-``, JWTs, …) and long high-entropy runs anywhere, URL paths included.

``${VAR}`` and ``$VAR`` references are kept as written: they are the recommended form and
hold no secret. Every rule is a pure function of its input, so a re-pin is byte-identical.

Failure direction: toward redacting. A long random-looking identifier (a commit hash, a
UUID) is hidden too; an ordinary path, package name (``@scope/server-x``), ``--port 8080``
or ``-y`` is not, since those have no secret word and no high-entropy run.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from urllib.parse import urlsplit, urlunsplit

REDACTED = "<redacted>"

_SECRET_WORDS = frozenset(
    {
        "token", "tokens", "key", "keys", "apikey", "secret", "secrets", "pass", "passwd",
        "password", "passphrase", "pwd", "pw", "auth", "authorization", "authtoken",
        "credential", "credentials", "creds", "session", "sessionid", "cookie", "cookies",
        "bearer", "pat", "jwt", "signature", "sig", "privatekey", "accesskey", "clientsecret",
    }
)  # fmt: skip
"""Name parts that mark a secret. Whole parts only: ``MONKEY`` and ``author`` are not."""
_NOT_A_VALUE = frozenset({"file", "path", "dir", "folder", "env", "var", "name", "type", "length"})
"""A last name part that says the value is a reference, not the secret (``--token-file``)."""
_SECRET_SHORT_FLAGS = frozenset({"-p", "-t"})
_HEADER_NAMES = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie"})
_SCHEMES = frozenset({"bearer", "basic", "token", "digest", "bot", "apikey"})

_REF = re.compile(r"\$\{[^}\s]*\}|\$[A-Za-z_][A-Za-z0-9_]*")
_PORTISH = re.compile(r"[0-9]{1,5}(?::[0-9]{1,5}){0,2}(?:/(?:tcp|udp))?")
_URL = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*://[^\s'\"<>]+")
_HEADER = re.compile(r"^(\s*)([A-Za-z][A-Za-z0-9_-]*)(\s*:\s*)(\S.*)$", re.DOTALL)
_KV = re.compile(r"([A-Za-z_][A-Za-z0-9_.-]*)(\s*=\s*)([^;&\s,\"']+)")
_JSON_KV = re.compile(r"(\"([A-Za-z_][\w.-]*)\"\s*:\s*\")((?:[^\"\\]|\\.)*)\"")
_PREFIXED = re.compile(
    r"(?<![A-Za-z0-9])(?:"
    r"gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}"
    r"|sk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]*[0-9][A-Za-z0-9_-]{10,}"
    r"|[sr]k_(?:live|test)_[A-Za-z0-9]{10,}|xox[abposr]-[A-Za-z0-9-]{10,}|xapp-[A-Za-z0-9-]{10,}"
    r"|(?:AKIA|ASIA)[A-Z0-9]{16}|AIza[A-Za-z0-9_-]{30,}|npm_[A-Za-z0-9]{30,}"
    r"|pypi-[A-Za-z0-9_-]{30,}|hf_[A-Za-z0-9]{30,}|shp(?:at|ss|ca)_[A-Fa-f0-9]{20,}"
    r"|dop_v1_[a-f0-9]{40,}|ya29\.[A-Za-z0-9_-]{20,}|SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}"
    r"|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"
    r"|-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)"
    r")"
)
_RUN = re.compile(r"[A-Za-z0-9_+=-]{20,}")
_MAX_RUN = 4096
"""Longer runs are redacted without measuring: nobody passes 4 KB of words as one token."""


def name_parts(name: str) -> list[str]:
    """``GITHUB_PERSONAL_ACCESS_TOKEN`` -> github, personal, access, token; camelCase too."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return [p.lower() for p in re.split(r"[^A-Za-z0-9]+", spaced) if p]


def secret_name(name: str) -> bool:
    parts = name_parts(name)
    if not parts or parts[-1] in _NOT_A_VALUE:
        return False
    joined = "".join(parts)
    return any(p in _SECRET_WORDS for p in parts) or joined in _SECRET_WORDS


def _is_reference(value: str) -> bool:
    """Only ``${VAR}``/``$VAR`` references and auth-scheme words: nothing literal to hide."""
    rest = _REF.sub(" ", value)
    return bool(_REF.search(value)) and all(w.lower() in _SCHEMES for w in rest.split())


def _hide(value: str) -> str:
    return value if _is_reference(value) else REDACTED


def high_entropy(run: str) -> bool:
    """Random-looking: long, letters and digits mixed, and few repeats."""
    if len(run) > _MAX_RUN:
        return True
    if not (any(c.isdigit() for c in run) and any(c.isalpha() for c in run)):
        return False
    mixed_case = any(c.islower() for c in run) and any(c.isupper() for c in run)
    if not mixed_case and len(run) < 32:
        return False
    counts = Counter(run)
    bits = -sum(n / len(run) * math.log2(n / len(run)) for n in counts.values())
    return bits >= 3.5


def redact_url(url: str) -> str:
    """Scheme, host, port and path only: userinfo, query and fragment never survive."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return REDACTED
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    netloc = f"{host}:{port}" if port is not None else host
    return _by_shape(urlunsplit((parts.scheme, netloc, parts.path, "", "")))


def _by_shape(text: str) -> str:
    text = _PREFIXED.sub(REDACTED, text)
    return _RUN.sub(lambda m: REDACTED if high_entropy(m.group(0)) else m.group(0), text)


def _header(text: str) -> str | None:
    m = _HEADER.match(text)
    if m is None or "://" in text:
        return None
    name = m.group(2)
    if not (name.lower() in _HEADER_NAMES or secret_name(name)):  # X-Api-Key, Private-Token
        return None
    value = m.group(4)
    if _is_reference(value):
        return text
    scheme, _, rest = value.partition(" ")
    kept = f"{scheme} " if rest and scheme.lower() in _SCHEMES else ""
    return f"{m.group(1)}{name}{m.group(3)}{kept}{REDACTED}"


def redact_text(text: str) -> str:
    """Secrets in free text: a header, ``NAME=VALUE``, JSON pairs, URLs, token shapes."""
    header = _header(text)
    if header is not None:
        return header
    text = _URL.sub(lambda m: redact_url(m.group(0)), text)
    text = _JSON_KV.sub(
        lambda m: f'{m.group(1)}{_hide(m.group(3))}"' if secret_name(m.group(2)) else m.group(0),
        text,
    )
    text = _KV.sub(
        lambda m: (
            f"{m.group(1)}{m.group(2)}{_hide(m.group(3))}"
            if secret_name(m.group(1))
            else m.group(0)
        ),
        text,
    )
    return _by_shape(text)


def _secret_flag(flag: str) -> bool:
    if flag in _SECRET_SHORT_FLAGS:
        return True
    return flag.startswith("-") and len(flag) > 2 and secret_name(flag.lstrip("-"))


def _value_after(flag: str, value: str) -> str:
    """The argument that follows a secret-looking flag."""
    if value.startswith("-") or _is_reference(value):
        return redact_text(value)
    if flag in _SECRET_SHORT_FLAGS and _PORTISH.fullmatch(value):
        return value  # `-p 8080:80` is a port mapping, not a password
    return REDACTED


def redact_args(args: Sequence[str]) -> list[str]:
    """Each arg with its secrets replaced by ``<redacted>``; same length and order."""
    out: list[str] = []
    after: str | None = None
    for arg in args:
        if after is not None:
            out.append(_value_after(after, arg))
            after = None
            continue
        flag, eq, value = arg.partition("=")
        if flag.startswith("-") and " " not in flag and _secret_flag(flag):
            if eq:
                out.append(f"{flag}={_hide(value)}")
            else:
                out.append(arg)
                after = flag
            continue
        if flag.startswith("-") and eq and " " not in flag:
            out.append(f"{flag}={redact_text(value)}")  # --header=Authorization: Bearer …
            continue
        out.append(redact_text(arg))
    return out
