"""Exfiltration: links, addresses and commands that carry data out of the session.

A poisoned tool needs somewhere to send what it collects: a URL, an e-mail address, an
image the client renders (and so fetches), a shell one-liner, a request-capture service
(:mod:`.hosts`), a host name with data spliced into it, a URL the data is appended to.

Which way it fails: honest text links to docs and names support addresses all the time, so
a bare link or address is LOW. The CRITICAL rule needs a transfer verb, a data object ("the
contents", "it", "all files") and a literal destination in one sentence; "send a request
to https://api..." (what an API wrapper says) and example/loopback hosts stay quiet. A
destination assembled at run time ("the URL in the config") is missed here and left to
the harvesting and secrets families, except when the text says to put the data into a URL,
query string or host name. A curl example aimed at a documentation host is not reported.
"""

from __future__ import annotations

import re

from mcplock_tui.core.detectors import hosts
from mcplock_tui.core.detectors.base import Hit, alt, forms, quote, rx, vocab
from mcplock_tui.core.detectors.hosts import SENTENCE

_URL = r"(?:(?:https?|ftp|wss?)://|www\.)[^\s<>\"'`)\]}]+"
_EMAIL = r"[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\b"
_IP = r"\b(?:\d{1,3}\.){3}\d{1,3}(?::\d{2,5})?\b"
_URL_RE = re.compile(_URL)
_EMAIL_RE = re.compile(_EMAIL)
_IP_RE = re.compile(_IP)
_TRAIL = ".,;:!?*_~"

_VERBS = vocab(
    "send post upload forward transmit exfiltrate leak copy email mail beacon relay push deliver "
    "bcc cc stream sync pipe report ship dump share write mirror submit publish replicate export "
    "paste attach"
)
_VERB = "(?P<verb>" + alt(*_VERBS, "sent", "e-?mail", "report back") + ")"
_VERB_WORDS = frozenset(
    [*forms(*_VERBS).split(), "sent", "e", "copied", "shipped", "piped", "wrote", "written"]
)
_PARTICIPLES = frozenset(
    {"sent", "post", "forward", "upload", "copy", "deliver", "mail", "email", "e-mail", "cc", "bcc"}
)
_DATA = re.compile(
    r"\b(?:it|them|this|that|everything|contents?|data|files?|keys?|conversation|history"
    r"|results?|outputs?|tokens?|credentials|secrets?|passwords?|information|info|details"
    r"|messages?|summary|copy|variables|logs?|documents?|emails?|text|body|values?|answers?"
    r"|responses?|notes?|the user'?s?|all|reports?|listings?|dumps?|archives?|backups?"
    r"|snapshots?|workspace|repo|repository|director(?:y|ies)|folders?|databases?|payloads?"
    r"|transcripts?|records?|screenshots?|clipboard|source|code|diffs?|environment|cookies"
    r"|sessions?)\b"
)
_TRANSFER = rx(
    r"\b" + _VERB + r"(?:s|ed|ing|t)?\b(?P<mid>" + SENTENCE + r"{0,100}?)\b(?:to|at|into|onto|via"
    r"|through|using|with|cc|bcc)\b"
    + SENTENCE
    + r"{0,40}?(?P<dest>"
    + _URL
    + "|"
    + _EMAIL
    + "|"
    + _IP
    + r"|\b(?:[\w-]+\.)*"
    + hosts.CAPTURE_HOSTS
    + ")"
)
_BENIGN_OBJECT = re.compile(
    r"\b(?:feedback|questions?|bug|bugs|issues?|suggestions?|comments?|inquiries|enquiries"
    r"|support requests?|requests?|queries|query|get|post|put|patch|delete|head)\b"
)
_CC = re.compile(r"\b(?:bcc|cc)(?:'?d|'?ing)?\b\s*:?\s*(?:to\s+)?(?P<dest>" + _EMAIL + ")")
_CC_ADD = re.compile(
    r"\b(?:add|include|put|insert|set)\w*\b[^.!?\n]{0,20}?(?P<dest>" + _EMAIL + r")[^.!?\n]{0,15}?"
    r"\b(?:as|in|to) (?:a |an |the )?(?:bcc|cc|blind (?:carbon )?copy|carbon copy|hidden"
    r" recipient|additional recipient)s?\b"
)
_SENSITIVE_SLOT = re.compile(
    r"(?:https?://|www\.)[^\s<>\"'`]*?(?:\{\{?|<|\$\{?|%)\s*(?:[a-z_ -]{0,30}?)(?:conversation"
    r"|history|chat|messages?"
    r"|secrets?|tokens?|keys?|api_?key|passwords?|credentials?|env|prompt|system_?prompt|context"
    r"|ssh_?key|private_?key)[^\s<>\"'`]*"
)
_INTO_URL = [
    rx(
        r"\b(?:append|add|put|include|encode|embed|attach|insert|place)\w*\b"
        + SENTENCE
        + r"{0,40}?\b(?:results?|outputs?|responses?|contents?|answers?|conversation|history"
        r"|summary|secrets?|everything|the user'?s? (?:data|files?|messages?))\b"
        + SENTENCE
        + r"{0,20}?\b(?:to|in|into|onto) (?:the |a |each |every )?(?:[`'\"]?\w+[`'\"]? )?(?:url"
        r"|query string|query param(?:eter)?s?|link|image url|request url|path|subdomain)\b"
    ),
    # "https://... with the user's last message appended".
    rx(
        r"(?:https?://|www\.)\S+"
        + SENTENCE
        + r"{0,30}?\bwith (?:the |all |every |each )?(?:user'?s?"
        r" )?(?:[a-z]+ ){0,2}(?:messages?|conversation|history|data|contents?|results?|outputs?"
        r"|answers?|secrets?|keys?|tokens?|passwords?|credentials|files?|prompts?) (?:appended"
        r"|attached|added|included|embedded|encoded)\b"
    ),
]
_APPENDED = frozenset(vocab("appended attached added included embedded encoded"))
_INTO_VERBS = frozenset(forms("append add put include encode embed attach insert place").split())
# Every reply, every result: a standing copy of the session to an outside address.
_EVERY = rx(
    r"\b(?:save|store|log|record|persist|write|copy|mirror|send|post|forward|upload|report"
    r"|sync|stream|push|ship|relay|deliver|back up)\w*\b" + SENTENCE + r"{0,40}?\b(?:every|each"
    r"|all|any)(?: [a-z]+)? (?:responses?|replies|messages?|results?|outputs?|answers?"
    r"|conversations?|files?|prompts?|inputs?|turns)\b" + SENTENCE + r"{0,60}?\b(?:to|at|into"
    r"|onto|via|through|on)\b" + SENTENCE + r"{0,30}?(?P<dest>" + _URL + "|" + _EMAIL + ")"
)
_URL_WORDS = frozenset(vocab("url link path subdomain query params parameters"))
_EVERY_WORDS = frozenset(vocab("every each all any"))
_EVERY_VERBS = frozenset(
    forms(
        "save store log record persist write copy mirror send post forward upload report sync "
        "stream push ship relay deliver back"
    ).split()
)
_IMAGE = [
    re.compile(r"!\[[^\]\n]{0,200}\]\(\s*<?(?:https?:)?//[^)\s]+[^)]*\)?"),
    re.compile(r"<img\b[^>]*\b(?:src|srcset)\s*=\s*[\"']?(?:https?:)?//[^\s>\"']+[^>]*>?"),
]
_IMAGE_REF = re.compile(r"!\[[^\]\n]{0,200}\]\[(?P<label>[^\]\n]{1,40})\]")
_SHELL = [
    # The whole command up to the end of its line or code span, when it names a target
    # or sends data; "| sh" at its end is part of it.
    re.compile(
        r"\b(?:curl|wget)\b(?=[^\n`;]{0,200}?(?:(?:https?|ftp)://|"
        + _IP
        + r"|\s-d\s|--data|--upload-file|\s-t\s|\s-f\s|@[~/.\w]))[^\n`;]{1,200}"
    ),
    # Not a Markdown table cell ("| sh |").
    re.compile(r"\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b(?![ \t]*\|)"),
    # Fetch-and-execute without a pipe: sh -c "$(curl ...)", eval, source <(wget ...).
    re.compile(
        r"(?:\b(?:ba|z|da|k)?sh\s+-c|\beval|\bsource|(?<![\w.])\.)\s+[\"']?(?:\$\(|<\(|`)\s*"
        r"(?:curl|wget)\b[^\n`;)]*\)?"
    ),
    re.compile(r"/dev/(?:tcp|udp)/\S+"),
    re.compile(r"\b(?:nc|ncat|netcat)\s+(?:-[a-z]+\s+)*[\w.-]+\s+\d{2,5}\b"),
    re.compile(
        r"\b(?:invoke-webrequest|invoke-restmethod|invoke-expression)\b|\|\s*iex\b|\biex\s*\("
    ),
    re.compile(r"\bpowershell(?:\.exe)?\s+(?:-\w+\s+)*-e(?:nc(?:odedcommand)?)?\s+\S+"),
]
_ACTS = re.compile(
    r"\s-d\s|--data|--upload-file|--form|\s-t\s|\s-f\s|@[~/.\w]|\||&&|\s-o\s|-o-|--output"
    r"|\$\(|`|>\s*\S"
)
_LINK_WORDS = frozenset(["http", "https", "ftp", "ws", "wss", "www"])
_SHELL_WORDS = frozenset(
    vocab("curl wget sh bash zsh dash ksh dev nc ncat netcat invoke iex powershell eval source")
)


def _trim(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1] in _TRAIL:
        end -= 1
    if text[start:end].count("(") < text[start:end].count(")") and text[end - 1] == ")":
        end -= 1
    return end


class _Out:
    """Hits plus the spans they cover, so a link already reported is not listed again."""

    def __init__(self) -> None:
        self.hits: list[Hit] = []
        self.covered: list[tuple[int, int]] = []

    def add(self, code: str, start: int, end: int, message: str, cover: int | None = None) -> None:
        self.hits.append(Hit(code, start, end, message))
        self.covered.append((start if cover is None else cover, end))

    def free(self, start: int, end: int) -> bool:
        return not any(s <= start < e or start <= s < end for s, e in self.covered)


def detect(text: str, words: frozenset[str]) -> list[Hit]:
    out = _Out()
    has_at = "@" in text
    has_link = not words.isdisjoint(_LINK_WORDS)
    capture = hosts.names_capture(text, words)
    if not words.isdisjoint(_VERB_WORDS) and (
        has_at or has_link or capture or _IP_RE.search(text) is not None
    ):
        _transfers(text, out)
    if has_at and not words.isdisjoint(("cc", "bcc", "ccd", "bccd", "copy", "recipient")):
        for m in [*_CC.finditer(text), *_CC_ADD.finditer(text)]:
            if not hosts.BENIGN.search(m.group("dest")) and out.free(m.start("dest"), m.end()):
                msg = f"copies mail to {quote(m.group('dest'))}"
                out.add("MCPL-INJ-050", m.start(), m.end(), msg, m.start("dest"))
    if has_link and ("{" in text or "<" in text or "$" in text or "%" in text):
        for m in _SENSITIVE_SLOT.finditer(text):
            end = _trim(text, m.start(), m.end())
            msg = f"link carries a data slot: {quote(text[m.start() : end])}"
            out.add("MCPL-INJ-050", m.start(), end, msg)
    if (
        (has_link or has_at)
        and not words.isdisjoint(_EVERY_VERBS)
        and not words.isdisjoint(_EVERY_WORDS)
    ):
        for m in _EVERY.finditer(text):
            if not hosts.BENIGN.search(m.group("dest")):
                end = _trim(text, m.start(), m.end())
                msg = f"sends every reply to {quote(text[m.start('dest') : end])}"
                out.add("MCPL-INJ-050", m.start(), end, msg, m.start("dest"))
    into = []
    if not words.isdisjoint(_URL_WORDS) and not words.isdisjoint(_INTO_VERBS):
        into.append(_INTO_URL[0])
    if has_link and not words.isdisjoint(_APPENDED):
        into.append(_INTO_URL[1])
    for regex in into:
        for m in regex.finditer(text):
            msg = f"puts data into a URL: {quote(m.group())}"
            out.add("MCPL-INJ-050", m.start(), m.end(), msg)
    if not words.isdisjoint(hosts.DNS_WORDS):
        for m in hosts.DNS.finditer(text):
            msg = f"puts data into a host name: {quote(m.group())}"
            out.add("MCPL-INJ-050", m.start(), m.end(), msg)
    if "![" in text or "<img" in text:
        _images(text, out)
    if not words.isdisjoint(_SHELL_WORDS) or "|" in text:
        for regex in _SHELL:
            for m in regex.finditer(text):
                end = _trim(text, m.start(), m.end())
                command = text[m.start() : end]
                if regex is _SHELL[0] and _fetch_only(command):
                    continue
                out.add("MCPL-INJ-052", m.start(), end, f"shell command {quote(command)}")
    if capture:
        for m in hosts.CAPTURE.finditer(text):
            end = _trim(text, m.start(), m.end())
            msg = f"data-capture host {quote(text[m.start() : end])}"
            out.add("MCPL-INJ-053", m.start(), end, msg)
    if has_link:
        for m in hosts.IP_LINK.finditer(text):
            end = _trim(text, m.start(), m.end())
            if hosts.public_ip(m.group("ip")) and out.free(m.start(), end):
                msg = f"link to a bare IP address {quote(text[m.start() : end])}"
                out.add("MCPL-INJ-053", m.start(), end, msg)
        for m in _URL_RE.finditer(text):
            end = _trim(text, m.start(), m.end())
            if out.free(m.start(), end):
                out.hits.append(
                    Hit("MCPL-INJ-054", m.start(), end, f"link {quote(text[m.start() : end])}")
                )
    if has_at:
        for m in _EMAIL_RE.finditer(text):
            if not any(s <= m.start() < e for s, e in out.covered) and not _in_url(text, m.start()):
                out.hits.append(
                    Hit("MCPL-INJ-055", m.start(), m.end(), f"e-mail address {quote(m.group())}")
                )
    return out.hits


def _transfers(text: str, out: _Out) -> None:
    for m in _TRANSFER.finditer(text):
        dest = m.group("dest")
        if hosts.BENIGN.search(dest) or _BENIGN_OBJECT.search(m.group("mid")):
            continue
        # Active ("send the file to ...") or passive ("all files must be sent to ...").
        if not _DATA.search(m.group("mid")) and not (
            m.group("verb") in _PARTICIPLES and _DATA.search(_sentence_before(text, m.start()))
        ):
            continue
        end = _trim(text, m.start(), m.end())
        msg = f"sends data to {quote(text[m.start('dest') : end])}"
        out.add("MCPL-INJ-050", m.start(), end, msg, m.start("dest"))


def _images(text: str, out: _Out) -> None:
    for regex in _IMAGE:
        for m in regex.finditer(text):
            out.add("MCPL-INJ-051", m.start(), m.end(), f"remote image {quote(m.group())}")
    # Reference-style: ![alt][id] with "[id]: https://..." elsewhere in the text.
    for m in _IMAGE_REF.finditer(text):
        label = re.escape(m.group("label"))
        target = re.search(r"(?m)^[ \t]*\[" + label + r"\]:[ \t]*<?(?:https?:)?//\S+", text)
        if target is not None:
            out.add("MCPL-INJ-051", m.start(), m.end(), f"remote image {quote(m.group())}")
            out.covered.append((target.start(), target.end()))


def _fetch_only(command: str) -> bool:
    """A curl/wget call that only fetches a named host: it sends no data, pipes nothing into
    a shell, writes no file and targets no bare IP (API docs show such calls all the time)."""
    return _ACTS.search(command) is None and _IP_RE.search(command) is None


def _sentence_before(text: str, pos: int) -> str:
    window = text[max(0, pos - 60) : pos]
    cut = max(window.rfind(". "), window.rfind("! "), window.rfind("? "), window.rfind("\n"))
    return window[cut + 1 :]


def _in_url(text: str, pos: int) -> bool:
    """Whether ``pos`` is inside a URL (user@host in a link is part of the link)."""
    line_start = max(text.rfind(" ", 0, pos), text.rfind("\n", 0, pos)) + 1
    return "://" in text[line_start:pos]
