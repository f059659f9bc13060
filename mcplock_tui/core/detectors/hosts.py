"""Destinations: the hosts and address shapes that exfiltrated data is sent to.

Request-capture and tunnelling services, paste and file-drop sites, chat webhooks that carry
their owner's token, links to a bare public IP address and host names with data spliced into
them (DNS exfiltration) have almost no place in honest tool text, so naming one is a finding
by itself (HIGH) and the exfiltration family treats one as a literal destination.

Which way it fails: the service list is a list; a new capture service, a generic cloud
function URL or an attacker's own domain is not recognised here and is left to the rules
that need a transfer verb. Documentation, loopback and private ranges count as benign, so an
attacker on a private network address (an internal pivot) is missed by the IP rule.
"""

from __future__ import annotations

import re

from mcplock_tui.core.detectors.base import vocab

SENTENCE = r"(?:[^.!?\n]|[.!?](?!\s))"
"""Any character that does not end a sentence."""

CAPTURE_HOSTS = (
    r"(?:webhook\.site|requestbin\.(?:com|net)|pipedream\.(?:net|com)|ngrok(?:-free)?\.(?:io|app"
    r"|dev)|burpcollaborator\.net|oastify\.com|interact\.sh|oast\.(?:fun|live|me|online|pro"
    r"|site)|trycloudflare\.com|serveo\.net|loca\.lt|localtunnel\.me|beeceptor\.com"
    r"|hookbin\.com|requestcatcher\.com|postb\.in|ptsv[23]\.com|canarytokens\.(?:com|org)"
    r"|dnslog\.cn|ceye\.io|webhook\.cool|smee\.io"
    # Paste and file-drop services: anonymous, public, no account.
    r"|pastebin\.com|paste\.ee|hastebin\.com|ghostbin\.\w+|0x0\.st|transfer\.sh|termbin\.com"
    r"|file\.io|dpaste\.(?:com|org)|privatebin\.\w+|rentry\.(?:co|org)|controlc\.com"
    r"|justpaste\.it)\b"
)
CAPTURE = re.compile(
    r"\b(?:[\w-]+\.)*"
    + CAPTURE_HOSTS
    # Chat webhooks and bot endpoints whose URL holds their owner's token.
    + r"|\b(?:discord(?:app)?\.com/api/webhooks/\d+|api\.telegram\.org/bot\d+"
    r"|hooks\.slack\.com/services/t[a-z0-9]+/)[^\s<>\"'`)\]}]*"
)
CAPTURE_WORDS = frozenset(
    vocab(
        "webhook requestbin pipedream ngrok burpcollaborator oastify interact oast trycloudflare "
        "serveo loca localtunnel beeceptor hookbin requestcatcher postb ptsv canarytokens dnslog "
        "ceye smee pastebin hastebin ghostbin termbin dpaste privatebin rentry controlc justpaste "
        "discord discordapp telegram"
    )
)
_CAPTURE_MARKS = re.compile(r"file\.io|transfer\.sh|paste\.ee|hooks\.slack|0x0\.st")
"""Hosts whose words are too common to gate on ("file", "paste"): found as substrings."""


def names_capture(text: str, words: frozenset[str]) -> bool:
    """Whether ``text`` can hold a :data:`CAPTURE` host (a cheap necessary condition)."""
    return not words.isdisjoint(CAPTURE_WORDS) or _CAPTURE_MARKS.search(text) is not None


_NON_PUBLIC = re.compile(
    r"(?:10|127|0)\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|169\.254\.|100\.(?:6[4-9]|[7-9]\d"
    r"|1[01]\d|12[0-7])\.|192\.0\.2\.|198\.51\.100\.|203\.0\.113\."
)
IP_LINK = re.compile(
    r"\b(?:https?|ftp|wss?)://(?P<ip>(?:\d{1,3}\.){3}\d{1,3})(?![\w.-])[^\s<>\"'`)\]}]*"
)

DNS = re.compile(
    # A lookup of a name with a placeholder in it: "resolve <hex>.x.attacker.net".
    r"\b(?:nslookup|dig|host|ping|resolve|lookup)\b[^\n]{0,60}?(?:<[a-z_ -]{1,30}>"
    r"|\{\{?[a-z_ ]{1,30}\}?\}|\$\{?[a-z_]{1,30}\}?|\$\([^)\n]{1,60}\))\.(?:[a-z0-9-]+\.)+"
    r"[a-z]{2,}\b"
    # Data placed into a host name: "the token in the subdomain".
    r"|\b(?:tokens?|keys?|secrets?|passwords?|credentials|data|results?|outputs?|contents?"
    r"|conversation|history|answers?|responses?|env(?:ironment)?)\b" + SENTENCE + r"{0,30}?"
    r"\b(?:in|into|as) (?:the |a |each )?(?:sub-?domains?|host ?names?|dns (?:names?|labels?"
    r"|quer(?:y|ies)|lookups?))\b"
)
DNS_WORDS = frozenset(vocab("nslookup dig host ping resolve lookup subdomain subdomains dns"))

BENIGN = re.compile(
    r"(?:^|[/@.])(?:example\.(?:com|org|net)|[\w.-]*\.(?:example|test|invalid|localhost)"
    r"|localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[?::1\]?)(?:[:/]|$)"
)
"""Hosts reserved for documentation and loopback: examples, not destinations."""


def public_ip(ip: str) -> bool:
    """Whether a dotted quad is a routable public address (not private, loopback, CGNAT or a
    documentation range) with every part a byte."""
    return all(int(p) < 256 for p in ip.split(".")) and _NON_PUBLIC.match(ip) is None
