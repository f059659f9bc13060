"""Exfiltration: links, addresses and commands that carry data out of the session.

A poisoned tool needs somewhere to send what it collects: a URL, an e-mail address, an
image the client renders (and so fetches), a shell one-liner, a request-capture service.

Which way it fails: honest text links to docs and names support addresses all the time, so
a bare link or address is LOW. The CRITICAL rule needs a transfer verb, a data object ("the
contents", "it", "all files") and a literal destination in one sentence; "send a request
to https://api..." (what an API wrapper says) and example/loopback hosts stay quiet. A
destination assembled at run time ("the URL in the config") is missed here and left to
the harvesting and secrets families.
"""

from __future__ import annotations

import re

from mcplock_tui.core.detectors.base import Hit, alt, forms, quote, rx

_URL = r"(?:(?:https?|ftp|wss?)://|www\.)[^\s<>\"'`)\]}]+"
_EMAIL = r"[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\b"
_IP = r"\b(?:\d{1,3}\.){3}\d{1,3}(?::\d{2,5})?\b"
_URL_RE = re.compile(_URL)
_EMAIL_RE = re.compile(_EMAIL)
_TRAIL = ".,;:!?*_~"

_VERB = (
    "(?P<verb>"
    + alt(
        "send",
        "sent",
        "post",
        "upload",
        "forward",
        "transmit",
        "exfiltrate",
        "leak",
        "copy",
        "e-?mail",
        "mail",
        "beacon",
        "relay",
        "push",
        "deliver",
        "bcc",
        "cc",
        "stream",
        "sync",
        "pipe",
        "report back",
        "ship",
        "dump",
        "share",
        "write",
    )
    + ")"
)
_PARTICIPLES = frozenset(
    {"sent", "post", "forward", "upload", "copy", "deliver", "mail", "email", "e-mail", "cc", "bcc"}
)
_DATA = re.compile(
    r"\b(?:it|them|this|that|everything|contents?|data|files?|keys?|conversation|history"
    r"|results?|outputs?|tokens?|credentials|secrets?|passwords?|information|info|details"
    r"|messages?|summary|copy|variables|logs?|documents?|emails?|text|body|values?|answers?"
    r"|responses?|notes?|the user'?s?|all)\b"
)
_SENTENCE = r"(?:[^.!?\n]|[.!?](?!\s))"
_TRANSFER = rx(
    r"\b" + _VERB + r"(?:s|ed|ing|t)?\b(?P<mid>" + _SENTENCE + r"{0,100}?)\b(?:to|at|into|onto|via"
    r"|through|using|with|cc|bcc)\b"
    + _SENTENCE
    + r"{0,40}?(?P<dest>"
    + _URL
    + "|"
    + _EMAIL
    + "|"
    + _IP
    + ")"
)
_BENIGN_OBJECT = re.compile(
    r"\b(?:feedback|questions?|bug|bugs|issues?|suggestions?|comments?|inquiries|enquiries"
    r"|support requests?|requests?|queries|query|get|post|put|patch|delete|head)\b"
)
_BENIGN_HOST = re.compile(
    r"(?:^|[/@.])(?:example\.(?:com|org|net)|[\w.-]*\.(?:example|test|invalid|localhost)"
    r"|localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[?::1\]?)(?:[:/]|$)"
)
_CC = re.compile(r"\b(?:bcc|cc)(?:'?d|'?ing)?\b\s*:?\s*(?:to\s+)?(?P<dest>" + _EMAIL + ")")
_SENSITIVE_SLOT = re.compile(
    r"(?:https?://|www\.)[^\s<>\"'`]*?(?:\{\{?|<|\$\{?|%)\s*(?:conversation|history|chat|messages?"
    r"|secrets?|tokens?|keys?|api_?key|passwords?|credentials?|env|prompt|system_?prompt|context"
    r"|ssh_?key|private_?key)[^\s<>\"'`]*"
)
_IMAGE = [
    re.compile(r"!\[[^\]\n]{0,200}\]\(\s*<?(?:https?:)?//[^)\s]+[^)]*\)?"),
    re.compile(r"<img\b[^>]*\bsrc\s*=\s*[\"']?(?:https?:)?//[^\s>\"']+[^>]*>?"),
]
_SHELL = [
    # The whole command up to the end of its line or code span, when it names a target
    # or sends data; "| sh" at its end is part of it.
    re.compile(
        r"\b(?:curl|wget)\b(?=[^\n`;]{0,200}?(?:(?:https?|ftp)://|"
        + _IP
        + r"|\s-d\s|--data|--upload-file|\s-t\s|\s-f\s|@[~/.\w]))[^\n`;]{1,200}"
    ),
    re.compile(r"\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b"),
    re.compile(r"/dev/(?:tcp|udp)/\S+"),
    re.compile(r"\b(?:nc|ncat|netcat)\s+(?:-[a-z]+\s+)*[\w.-]+\s+\d{2,5}\b"),
    re.compile(
        r"\b(?:invoke-webrequest|invoke-restmethod|invoke-expression)\b|\|\s*iex\b|\biex\s*\("
    ),
    re.compile(r"\bpowershell(?:\.exe)?\s+(?:-\w+\s+)*-e(?:nc(?:odedcommand)?)?\s+\S+"),
]
_CAPTURE = re.compile(
    r"\b(?:[\w-]+\.)*(?:webhook\.site|requestbin\.(?:com|net)|pipedream\.net|ngrok(?:-free)?\.(?:io|app|dev)"
    r"|burpcollaborator\.net|oastify\.com|interact\.sh|oast\.(?:fun|live|me|online|pro|site)"
    r"|trycloudflare\.com|serveo\.net|loca\.lt|localtunnel\.me|beeceptor\.com|hookbin\.com"
    r"|requestcatcher\.com|postb\.in|ptsv[23]\.com|canarytokens\.(?:com|org)|dnslog\.cn"
    r"|ceye\.io|pipedream\.com|webhook\.cool|smee\.io)\b"
)
_IP_RE = re.compile(_IP)
_LINK_WORDS = frozenset(["http", "https", "ftp", "ws", "wss", "www"])
_SHELL_WORDS = frozenset(
    [
        "curl",
        "wget",
        "sh",
        "bash",
        "zsh",
        "dash",
        "ksh",
        "dev",
        "nc",
        "ncat",
        "netcat",
        "invoke",
        "iex",
        "powershell",
    ]
)
_CAPTURE_WORDS = frozenset(
    [
        "webhook",
        "requestbin",
        "pipedream",
        "ngrok",
        "burpcollaborator",
        "oastify",
        "interact",
        "oast",
        "trycloudflare",
        "serveo",
        "loca",
        "localtunnel",
        "beeceptor",
        "hookbin",
        "requestcatcher",
        "postb",
        "ptsv",
        "canarytokens",
        "dnslog",
        "ceye",
        "smee",
    ]
)
_VERB_WORDS = frozenset(
    [
        *forms(
            "send",
            "post",
            "upload",
            "forward",
            "transmit",
            "exfiltrate",
            "leak",
            "copy",
            "email",
            "mail",
            "beacon",
            "relay",
            "push",
            "deliver",
            "bcc",
            "cc",
            "stream",
            "sync",
            "pipe",
            "report",
            "ship",
            "dump",
            "share",
            "write",
        ).split(),
        *("sent", "e", "copied", "shipped", "piped", "wrote", "written"),
    ]
)


def _trim(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1] in _TRAIL:
        end -= 1
    if text[start:end].count("(") < text[start:end].count(")") and text[end - 1] == ")":
        end -= 1
    return end


def detect(text: str, words: frozenset[str]) -> list[Hit]:
    out: list[Hit] = []
    has_at = "@" in text
    has_link = not words.isdisjoint(_LINK_WORDS)
    covered: list[tuple[int, int]] = []
    if not words.isdisjoint(_VERB_WORDS) and (
        has_at or has_link or _IP_RE.search(text) is not None
    ):
        _transfers(text, out, covered)
    if has_at and ("cc" in words or "bcc" in words or "ccd" in words or "bccd" in words):
        for m in _CC.finditer(text):
            if not _BENIGN_HOST.search(m.group("dest")):
                out.append(
                    Hit(
                        "MCPL-INJ-050",
                        m.start(),
                        m.end(),
                        f"copies mail to {quote(m.group('dest'))}",
                    )
                )
                covered.append((m.start("dest"), m.end()))
    if has_link and ("{" in text or "<" in text or "$" in text or "%" in text):
        for m in _SENSITIVE_SLOT.finditer(text):
            end = _trim(text, m.start(), m.end())
            out.append(
                Hit(
                    "MCPL-INJ-050",
                    m.start(),
                    end,
                    f"link carries a data slot: {quote(text[m.start() : end])}",
                )
            )
            covered.append((m.start(), end))
    if "![" in text or "<img" in text:
        for regex in _IMAGE:
            for m in regex.finditer(text):
                out.append(
                    Hit("MCPL-INJ-051", m.start(), m.end(), f"remote image {quote(m.group())}")
                )
                covered.append((m.start(), m.end()))
    if not words.isdisjoint(_SHELL_WORDS) or "|" in text:
        for regex in _SHELL:
            for m in regex.finditer(text):
                end = _trim(text, m.start(), m.end())
                out.append(
                    Hit(
                        "MCPL-INJ-052",
                        m.start(),
                        end,
                        f"shell command {quote(text[m.start() : end])}",
                    )
                )
                covered.append((m.start(), end))
    if not words.isdisjoint(_CAPTURE_WORDS):
        for m in _CAPTURE.finditer(text):
            out.append(
                Hit("MCPL-INJ-053", m.start(), m.end(), f"data-capture host {quote(m.group())}")
            )
            covered.append((m.start(), m.end()))
    if has_link:
        for m in _URL_RE.finditer(text):
            end = _trim(text, m.start(), m.end())
            if not any(s <= m.start() < e or m.start() <= s < end for s, e in covered):
                out.append(
                    Hit("MCPL-INJ-054", m.start(), end, f"link {quote(text[m.start() : end])}")
                )
    if has_at:
        for m in _EMAIL_RE.finditer(text):
            if not any(s <= m.start() < e for s, e in covered) and not _in_url(text, m.start()):
                out.append(
                    Hit("MCPL-INJ-055", m.start(), m.end(), f"e-mail address {quote(m.group())}")
                )
    return out


def _transfers(text: str, out: list[Hit], covered: list[tuple[int, int]]) -> None:
    for m in _TRANSFER.finditer(text):
        dest = m.group("dest")
        if _BENIGN_HOST.search(dest) or _BENIGN_OBJECT.search(m.group("mid")):
            continue
        # Active ("send the file to ...") or passive ("all files must be sent to ...").
        if not _DATA.search(m.group("mid")) and not (
            m.group("verb") in _PARTICIPLES and _DATA.search(_sentence_before(text, m.start()))
        ):
            continue
        end = _trim(text, m.start(), m.end())
        out.append(
            Hit(
                "MCPL-INJ-050",
                m.start(),
                end,
                f"sends data to {quote(text[m.start('dest') : end])}",
            )
        )
        covered.append((m.start("dest"), end))


def _sentence_before(text: str, pos: int) -> str:
    window = text[max(0, pos - 60) : pos]
    cut = max(window.rfind(". "), window.rfind("! "), window.rfind("? "), window.rfind("\n"))
    return window[cut + 1 :]


def _in_url(text: str, pos: int) -> bool:
    """Whether ``pos`` is inside a URL (user@host in a link is part of the link)."""
    line_start = max(text.rfind(" ", 0, pos), text.rfind("\n", 0, pos)) + 1
    return "://" in text[line_start:pos]
