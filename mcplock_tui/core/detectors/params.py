"""Parameter names: where a schema smuggles a sentence or asks the model for a secret.

A property name is read by the model as a label for what to put there. ``note_to_assistant``
or ``sidenote`` invites free text aimed at the model; ``content_of_ssh_key`` asks it to fetch
key material; ``api_key`` makes it handle a credential.

Which way it fails: names are split on ``_``, ``-``, ``.``, digits and camelCase, then judged
by their words. A secret-looking word used for something else (``max_tokens``, ``page_token``)
is exempt by its neighbours; a sentence spelt as one unbroken lowercase word is not split
and is missed here (the text families still read it).
"""

from __future__ import annotations

import re

from mcplock_tui.core.detectors.base import Hit, vocab
from mcplock_tui.core.detectors.normalize import char_forms, is_plain, normalize

_SPLIT = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+|[^\W\d_]+")
_ADDRESS = frozenset(
    [
        "assistant",
        "assistants",
        "llm",
        "sidenote",
        "sidenotes",
        "please",
        "you",
        "yourself",
        "secretly",
    ]
)
_CONVERSATION = re.compile(
    r"\b(?:conversation|chat|dialog|dialogue|session) (?:history|log|logs|transcript|so far)\b"
    r"|\b(?:previous|prior|earlier|past|all) (?:user )?messages\b"
    r"|\b(?:previous|prior|earlier|past|entire|full|whole|current|this) (?:conversation|chat"
    r"|dialog|dialogue)s?\b"
)
_CONVERSATION_WORDS = frozenset(
    ["conversation", "chat", "dialog", "dialogue", "session", "messages", "entire"]
)
_NOTE_WORDS = frozenset(
    ["note", "notes", "side", "to", "for", "ai", "llm", "model", "agent", "claude", "gpt"]
)
_NOTE_TO = re.compile(
    r"\bside ?notes?\b|\bnotes? (?:to|for) (?:the )?\w+|\b(?:to|for) (?:the )?(?:model|ai|llm|agent|claude|gpt)\b"
    r"|\b(?:ai|llm|model|agent|claude|gpt) (?:notes?|instructions?|message|memo|reasoning"
    r"|thoughts)\b"
)
_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "for",
        "with",
        "by",
        "and",
        "or",
        "from",
        "at",
        "as",
        "is",
    ]
)
_KEY_WORDS = frozenset(
    [
        "ssh",
        "private",
        "signing",
        "gpg",
        "pgp",
        "wallet",
        "master",
        "id",
        "idrsa",
        "seed",
        "recovery",
        "mnemonic",
        "aws",
        "secret",
        "env",
        "dotenv",
        "credential",
        "credentials",
        "netrc",
        "npmrc",
        "kube",
        "kubeconfig",
        "contents",
        "content",
        "data",
        "cookie",
        "cookies",
        "session",
    ]
)
_KEY_MATERIAL = re.compile(
    r"\b(?:ssh|private|signing|gpg|pgp|wallet|master) (?:key|keys|passphrase|password)\b"
    r"|\bid (?:rsa|dsa|ecdsa|ed25519)\b|\bidrsa\b"
    r"|\b(?:seed|recovery|mnemonic) (?:phrase|words?)\b|\bmnemonic\b"
    r"|\baws secret(?: access)? key\b|\bsecret access key\b"
    r"|\b(?:env|dotenv|credentials?|netrc|npmrc|kube ?config|ssh) (?:file|contents?|data)\b"
    r"|\b(?:contents?|data) of (?:the |your |my )?(?:ssh|env|credentials?|private|secret|key"
    r"|keys|token|password|config)\b"
    r"|\b(?:cookie|cookies|session) (?:jar|file|data|dump)\b"
    r"|\b(?:dump|copy|contents?|values?) (?:of )?(?:the )?(?:env|environment|dotenv)\b"
)
_CREDENTIAL = re.compile(
    r"^(?:(?:user|admin|root|db|database|account|login|master|github|gitlab|openai|anthropic"
    r"|slack|aws|api|access|auth|bearer|session|refresh|oauth|personal access|client|app"
    r"|bot|service|secret|private) )*(?:password|passwd|pwd|passphrase|api key|apikey|token"
    r"|access token|secret|client secret|credentials?|auth|authorization|bearer|cookie"
    r"|otp|totp|2fa code|mfa code|private key|secret key)$"
)
_TOKEN_NOT_SECRET = frozenset(
    [
        "max",
        "min",
        "num",
        "count",
        "limit",
        "page",
        "next",
        "prev",
        "previous",
        "continuation",
        "cursor",
        "sync",
        "csrf",
        "xsrf",
        "input",
        "output",
        "completion",
        "prompt",
        "total",
    ]
)


_REFERS = frozenset(
    vocab(
        "path paths location dir directory filename name id ids type format algorithm bits size "
        "length fingerprint"
    )
)
"""Last words that make a name refer to key material (its path, its type) without holding it."""
_PROMPT_COPY = re.compile(
    r"\b(?:copy|contents?|dump|text|full|entire|your|current|original|hidden|initial|verbatim)"
    r" (?:of )?(?:the |your )?(?:system (?:prompt|message|instructions)|initial instructions"
    r"|hidden instructions)\b"
)


def split_words(name: str) -> str:
    """``getSSHKeyContents`` -> ``get ssh key contents``, normalised like any text.

    Hidden characters are dropped before splitting, so ``pass<ZWSP>word`` is one word.
    """
    if is_plain(name):
        return " ".join(m.group().lower() for m in _SPLIT.finditer(name))
    clean = "".join(ch for ch in name if char_forms(ch)[0])
    return " ".join(normalize(m.group()).text for m in _SPLIT.finditer(clean))


def detect(name: str) -> tuple[str, list[Hit]]:
    """The name's words, and hits that span the whole name (names are short: the name is
    the excerpt)."""
    text = split_words(name)
    words = text.split()
    hits: list[Hit] = []
    if not words:
        return text, hits
    whole = (0, len(name))
    if not _ADDRESS.isdisjoint(words) or (
        len(words) > 1 and not _NOTE_WORDS.isdisjoint(words) and _NOTE_TO.search(text)
    ):
        hits.append(Hit("MCPL-INJ-070", *whole, f"parameter name {name!r} addresses the model"))
    elif len([w for w in words if w not in _STOP]) >= 5:
        hits.append(
            Hit("MCPL-INJ-071", *whole, f"parameter name {name!r} is a {len(words)}-word sentence")
        )
    if (not _CONVERSATION_WORDS.isdisjoint(words) and _CONVERSATION.search(text)) or (
        ("instructions" in words or "prompt" in words or "message" in words)
        and _PROMPT_COPY.search(text)
    ):
        hits.append(Hit("MCPL-INJ-074", *whole, f"parameter {name!r} asks for the conversation"))
    if not _KEY_WORDS.isdisjoint(words) and _KEY_MATERIAL.search(text) and words[-1] not in _REFERS:
        hits.append(Hit("MCPL-INJ-073", *whole, f"parameter {name!r} asks for key material"))
    elif _CREDENTIAL.match(text) and _TOKEN_NOT_SECRET.isdisjoint(words):
        hits.append(Hit("MCPL-INJ-072", *whole, f"parameter {name!r} asks for a credential"))
    return text, hits
