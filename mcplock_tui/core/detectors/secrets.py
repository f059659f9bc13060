"""Credential files and requests for secret material.

Poisoned tools steal by asking the model to read a well-known secret file (``~/.ssh/id_rsa``,
``~/.aws/credentials``, ``.env``, an MCP client config that holds other servers' tokens) or
to pass along passwords, keys and tokens.

Which way it fails: file names are matched as path tokens, so ``.env`` fires and
"environment" does not, while a path spelt with variables (``$HOME/.s""sh``) is missed. A
server whose honest job involves these files (a kube or dotenv manager) will fire and needs
a suppression. Requests for secrets need a transfer verb plus either key material or an
exhaustive/possessive qualifier ("all tokens", "the user's password"), so "Provide the API
key" in an API wrapper's docs stays quiet while "collect any API keys" does not.
"""

from __future__ import annotations

import re

from mcplock_tui.core.detectors.base import Hit, Pattern, alt, forms, pattern, quote

F, S = "MCPL-INJ-020", "MCPL-INJ-021"
_F, _S = "names a credential file", "asks for secret material"

FILES: tuple[Pattern, ...] = (
    pattern(F, _F, r"(?<![\w.])\.ssh\b(?:[/\\][\w.-]+)*", "ssh", ".ssh"),
    pattern(F, _F, r"\bid_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?(?:\.pub)?\b", "id", "id_"),
    pattern(F, _F, r"\bauthorized_keys\b", "authorized", "authorized_keys"),
    # A template (.env.example) documents variable names and holds no values.
    pattern(
        F,
        _F,
        r"(?<![\w.$-])\.env(?!\.(?:example|sample|template|dist|defaults?|tmpl|schema)\b)"
        r"(?:\.[\w-]+)?(?![\w-])",
        "env",
        ".env",
    ),
    pattern(F, _F, r"(?<![\w.])\.aws\b(?:[/\\][\w.-]+)*", "aws", ".aws"),
    pattern(
        F,
        _F,
        r"(?<![\w.])\.(?:npmrc|pypirc|netrc|git-credentials|pgpass|gnupg"
        r"|password-store|vault-token|s3cfg|dockercfg|htpasswd|bash_history|zsh_history"
        r"|psql_history|mysql_history|docker/config\.json|kube/config|config/gcloud|azure"
        r"|config/gh/hosts\.ya?ml|config/hub|terraform\.d/credentials(?:\.tfrc\.json)?"
        r"|terraformrc|oci/config|cargo/credentials(?:\.toml)?|gem/credentials|m2/settings\.xml"
        r"|boto|my\.cnf|config/op|local/share/keyrings|ethereum/keystore|bitcoin/wallets?"
        r"|config/rclone/rclone\.conf|git-credential-store)\b",
        "npmrc pypirc netrc git pgpass gnupg password vault cfg dockercfg htpasswd bash "
        "zsh psql mysql docker kube config azure terraform terraformrc oci cargo gem boto cnf "
        "keyrings ethereum bitcoin",
        ".",
    ),
    pattern(
        F,
        _F,
        r"\b_netrc\b|\bapplication_default_credentials\.json\b|\bwallet\.dat\b",
        "netrc application wallet",
        ".",
    ),
    pattern(
        F,
        _F,
        r"/etc/(?:passwd|shadow|gshadow|sudoers|master\.passwd)\b"
        r"|/proc/(?:self|\d+)/environ\b",
        "etc proc",
        "/",
    ),
    pattern(F, _F, r"\b(?:cookies\.sqlite|logins\.json|key[34]\.db)\b", "cookies logins key", "."),
    # Browser profile stores (saved passwords, cookies) and OS credential stores.
    pattern(
        F,
        _F,
        r"\b(?:chrome|chromium|brave[\w-]*|edge|opera|vivaldi|firefox|mozilla)\b[^\n]{0,80}?"
        r"[/\\](?:cookies|login data|web data|local state|network[/\\]cookies)\b",
        "chrome chromium brave edge opera vivaldi firefox mozilla",
        "cookies login web local",
    ),
    pattern(
        F,
        _F,
        r"\blibrary[/\\]keychains\b(?:[/\\][\w.-]+)*|\b[\w-]*\.keychain(?:-db)?\b",
        "keychains keychain",
        "keychain",
    ),
    pattern(
        F,
        _F,
        r"\bsecurity (?:find-generic-password|find-internet-password|dump-keychain)\b"
        r"|\bcmdkey /list\b|\bvaultcmd\b|\bntds\.dit\b|\\config\\sam\b|\blsass(?:\.exe|\.dmp)?\b",
        "security cmdkey vaultcmd ntds config lsass",
    ),
    pattern(
        F,
        _F,
        r"\b(?:claude_desktop_config|cline_mcp_settings|mcp_settings|mcp_config)"
        r"\.json\b",
        "claude cline mcp",
        ".json",
    ),
    pattern(
        F,
        _F,
        r"(?<![\w-])\.?mcp\.json\b|(?<![\w.])\.claude\.json\b"
        r"|\.claude/settings(?:\.local)?\.json\b",
        "mcp claude",
        ".json",
    ),
    pattern(
        F,
        _F,
        r"\.codex/config\.toml\b|\.gemini/settings\.json\b"
        r"|\.continue/config\.(?:json|yaml)\b",
        "codex gemini continue",
        "/",
    ),
    # MCP client configuration folders: they hold every other server's tokens.
    pattern(
        F,
        _F,
        r"(?:\.config|application support|appdata[/\\]roaming)[/\\](?:claude|cursor|windsurf"
        r"|codeium|zed|goose|continue|cline)\b(?:[/\\][\w.-]+)*|(?<![\w.])\.(?:cursor|codeium"
        r"|windsurf)[/\\](?:[\w.-]+[/\\]?)*",
        "claude cursor windsurf codeium zed goose continue cline",
        "/",
    ),
)
_PATH_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_.~/\\$%-")

_STRONG_WORDS = "private ssh secret signing seed recovery mnemonic wallet master keychain aws"
_STRONG = alt(
    r"private keys?",
    r"ssh keys?",
    r"secret keys?",
    r"signing keys?",
    r"seed phrases?",
    r"recovery phrases?",
    r"mnemonic(?: phrases?)?",
    r"wallet (?:keys?|files?)",
    r"master passwords?",
    "keychain",
    r"aws secret access keys?",
    "aws_secret_access_key",
)
_WEAK_WORDS = (
    "password passwords passphrase passphrases api apikey apikeys access accesstoken "
    "accesstokens auth authentication bearer session refresh oauth browser login credentials "
    "secrets environment env vars var fa otp one onetime verification"
)
_WEAK = alt(
    r"passwords?",
    r"passphrases?",
    r"api ?keys?",
    r"apikeys?",
    r"access ?tokens?",
    r"auth(?:entication)? tokens?",
    r"bearer tokens?",
    r"session (?:tokens?|cookies?|ids?)",
    r"refresh tokens?",
    r"oauth tokens?",
    r"(?:browser|auth|login) cookies",
    "credentials",
    "secrets",
    "environment variables",
    r"env vars?",
    r"2fa codes?",
    r"otp codes?",
    r"one-?time (?:pass)?codes?",
    r"verification codes?",
)
_TAKE = (
    "collect",
    "extract",
    "dump",
    "send",
    "include",
    "harvest",
    "steal",
    "exfiltrate",
    "leak",
    "grab",
    "forward",
    "upload",
    "paste",
    "append",
    "copy",
    "attach",
    "reveal",
    "disclose",
)
_ASK = (
    "read",
    "pass",
    "provide",
    "give",
    "share",
    "put",
    "insert",
    "embed",
    "print",
    "retrieve",
    "obtain",
    "fetch",
    "locate",
    "find",
)
# No past tense: "leaked secrets" and "stored passwords" name things, they ask for nothing.
_INFLECT = r"(?:s|es|ing|ting|ping|bing)?\b"
_QUAL_WORDS = "all any every each user users their stored saved cached found available existing"
_QUAL = alt(
    "all",
    "any",
    "every",
    "each",
    "the user's",
    "user's",
    "users'",
    "their",
    "stored",
    "saved",
    "cached",
    "found",
    "available",
    "existing",
)
_BOUND = r"(?:[^.!?\n]|[.!?](?!\s)){0,40}?"
REQUESTS: tuple[Pattern, ...] = (
    pattern(
        S,
        _S,
        r"\b" + alt(*_TAKE, *_ASK) + _INFLECT + _BOUND + r"\b" + _STRONG + r"\b",
        _STRONG_WORDS,
        forms(*_TAKE, *_ASK) + " sent copied gave given put",
    ),
    pattern(
        S,
        _S,
        r"\b" + alt(*_TAKE) + _INFLECT + _BOUND + r"\b" + _WEAK + r"\b",
        _WEAK_WORDS,
        forms(*_TAKE) + " sent copied",
    ),
    pattern(
        S,
        _S,
        r"\b"
        + alt(*_ASK)
        + _INFLECT
        + r" (?:[a-z]+ )?"
        + _QUAL
        + r" (?:[a-z]+ ){0,3}?"
        + _WEAK
        + r"\b",
        _WEAK_WORDS,
        _QUAL_WORDS,
        forms(*_ASK) + " gave given put",
    ),
    pattern(
        S,
        _S,
        r"\b(?:contents?|value) of (?:the |your |their |any )?" + _WEAK + r"\b",
        _WEAK_WORDS,
        "content contents value",
        "of",
    ),
    pattern(
        S,
        _S,
        r"\b" + alt(*_TAKE) + _INFLECT + _BOUND + r"\$?\b[a-z0-9]+(?:_[a-z0-9]+)*_"
        r"(?:api_?key|token|secret|secret_key|password|passwd|access_key|private_key"
        r"|credentials)\b",
        "_",
        forms(*_TAKE) + " sent copied",
    ),
    pattern(
        S,
        _S,
        r"\b(?:contents?|value) of (?:the )?\$?(?:[a-z0-9]+_)+(?:api_?key|token|secret"
        r"|password|access_key|private_key)\b",
        "_",
        "content contents value",
        "of",
    ),
)
_ENV_VERBS = (*_TAKE, *_ASK, "serialize", "serialise", "stringify", "echo", "log", "output", "list")
_SET_VERBS = (*_TAKE, "pass", "put", "insert", "set", "add", "append", "prepend", "embed")
ENVIRONMENT: tuple[Pattern, ...] = (
    # The whole environment: every secret the process holds.
    pattern(
        S,
        _S,
        r"\b(?:printenv|(?:get-childitem|gci|dir|ls) env:)(?!\w)|\b" + alt(*_ENV_VERBS) + r"\w*\b"
        r"[^!?\n]{0,30}?\b(?:process\.env|os\.environ|os\.getenv\(\)|system\.getenv\(\)"
        r"|deno\.env\.toobject\(\)|\$env:|env::vars\(\))(?![\w\[(]|\.\w)"
        r"|\b(?:str|repr|dict|json\.dumps|json\.stringify|print|echo)\s*\(\s*(?:os\.environ"
        r"|process\.env)\s*\)",
        "printenv env environ getenv toobject vars",
    ),
    # "${OPENAI_API_KEY}" in text the model acts on: expand a secret variable into a call.
    pattern(
        S,
        _S,
        r"\b" + alt(*_SET_VERBS) + r"\w*\b[^.!?\n]{0,40}?(?:\$\{|\$|%|\$env:)[a-z0-9_]*"
        r"(?:token|secret|api_?key|password|passwd|access_key|private_key|credentials?)"
        r"[a-z0-9_]*\b",
        "$",
        forms(*_SET_VERBS),
    ),
    # "...any GitHub token and pass it along": a secret named first, the hand-over after.
    pattern(
        S,
        _S,
        r"\b(?:any|all|every|each|the user'?s?|their|stored|saved|cached) (?:[a-z]+ )?(?:tokens?"
        r"|api ?keys?|passwords?|credentials|secrets?|private keys?|cookies)\b"
        + _BOUND
        + r"\b(?:and |then )?(?:pass|send|include|forward|upload|copy|paste|attach|put|add"
        r"|return|share|give|hand|leak|post|email) (?:it|them|those|these)\b",
        "token tokens api apikey key keys password passwords credentials secret secrets cookies",
        "pass send include forward upload copy paste attach put add return share give hand "
        "leak post email",
    ),
    pattern(
        S,
        _S,
        r"\b(?:values?|contents?) of (?:every|all|each|any) (?:environment |env )?variables?\b"
        r"|\b(?:variables?|vars|env(?:ironment)? variables?) (?:ending|starting|named|matching"
        r"|containing|that (?:end|start|contain)) (?:in |with )?\$?_?[a-z_]*(?:token|key|secret"
        r"|password)",
        "variable variables vars",
    ),
)
PATTERNS = FILES + REQUESTS + ENVIRONMENT

_NEGATED = re.compile(
    r"(?:\b(?:do not|don't|dont|never|must not|mustn't|should not|shouldn't|avoid|without"
    r"|not)\s+(?:\w+\s+)?)$"
)
_DEFAULTED = re.compile(r"(?:\bdefaults? (?:to|is)|\bdefault:|\bby default,?)[\s`'\"(]*$")


def refine(hit: Hit, text: str) -> Hit | None:
    """Widen a credential-file hit to the whole path ("~/.cursor/mcp.json", not "mcp.json");
    drop a public key (``.pub``), a path given as a setting's default, and a request for
    secrets that is negated ("never include secrets in the message")."""
    if hit.code != F:
        before = text[max(0, hit.start - 24) : hit.start]
        return None if _NEGATED.search(before) else hit
    start = hit.start
    while start > 0 and text[start - 1] in _PATH_CHARS:
        start -= 1
    end = hit.end
    while end < len(text) and text[end] in _PATH_CHARS and text[end] not in "./\\":
        end += 1
    path = text[start:end].rstrip(".")
    if path.endswith((".pub", "/config", "\\config", "known_hosts")) and ".ssh" in path:
        return None  # public material: a public key, the client's host list
    if _DEFAULTED.search(text[max(0, start - 24) : start]):
        return None
    return Hit(F, start, hit.end, f"{_F}: {quote(text[start : hit.end])}")
