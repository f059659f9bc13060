"""Markup that imitates a prompt's framing, and markup that hides text from the user.

Tags such as <IMPORTANT>, <system>, [INST], <|im_start|>, "-----BEGIN SYSTEM PROMPT-----",
a "Human:"/"Assistant:" turn or a code fence labelled ``system`` borrow the framing a model
gives to trusted instructions; HTML comments and invisibly styled elements carry text the
user never sees rendered.

Which way it fails: tag names come from a list (instruction, system, admin, secret, ...),
so a tag with an invented name (<x-guidance>) is missed unless its content trips another
family; a heading such as "System:" counts only when it goes on to address the model, so
"System: Linux or macOS" stays quiet.
"""

from __future__ import annotations

from mcplock_tui.core.detectors.base import Hit, Pattern, alt, pattern

_TAG_NAMES = alt(
    "important",
    "system",
    "sys",
    "system[_-]?prompt",
    "system[_-]?message",
    "admin",
    "critical",
    "secret",
    "hidden",
    "override",
    "assistant",
    "im_start",
    "im_end",
    r"(?:[a-z]+[_-])?instructions?",
    r"(?:[a-z]+[_-])?directives?",
    r"[a-z]+[_-]important",
    r"note[_-]to[_-][a-z]+",
)
_TAG_WORDS = (
    "important system sys prompt message admin critical secret hidden override systemprompt "
    "systemmessage assistant im instruction instructions directive directives note"
)
MK, _MK = "MCPL-INJ-001", "instruction markup"
_LINE_START = r"(?:(?<=\n)|^)[\x20\t]*"

PATTERNS: tuple[Pattern, ...] = (
    pattern(MK, _MK, r"<\s*/?\s*" + _TAG_NAMES + r"\s*/?(?:\s[^<>\n]{0,80})?>", _TAG_WORDS, "<"),
    pattern(MK, _MK, r"<\|[a-z_]{2,30}\|>", "<|"),
    pattern(
        MK,
        _MK,
        r"\[/?(?:inst|sys|system|important|instructions?)\]",
        "inst sys system important instruction instructions",
        "[",
    ),
    pattern(MK, _MK, r"<</?sys>>", "sys", "<<"),
    # Template role blocks ({{#system}}) and code fences labelled as a role.
    pattern(
        MK,
        _MK,
        r"\{\{[#/~\s]*(?:system|assistant|user|instructions?)[~\s]*\}\}|\[\[ ?(?:system|sys"
        r"|instructions?|important) ?\]\]|" + _LINE_START + r"(?:```|~~~)[\x20\t]*(?:system"
        r"|instructions?|assistant|admin|important)\b",
        "system assistant user instruction instructions sys important admin",
    ),
    # Delimited prompt sections: "-----BEGIN SYSTEM PROMPT-----", "=== system instructions".
    pattern(
        MK,
        _MK,
        r"(?:[-=#*~<\[|]{2,}|\[|" + _LINE_START + r"(?=begin|end|start))[\x20\t]*(?:(?:begin"
        r"|end|start)(?: of)? )?(?:the )?(?:(?:new|real|true|updated|hidden|secret|internal)"
        r" )?(?:system|admin|developer|assistant) (?:prompt|instructions?|message|directives?"
        r"|override)s?\b",
        "system admin developer assistant",
        "prompt instruction instructions message directive directives override",
    ),
    pattern(
        MK,
        _MK,
        r"\[ ?(?:system|sys|admin|administrator|developer|root|security|priority|urgent"
        r"|critical) (?:override|instructions?|directive|alert|notice|command|update|note"
        r"|mode)s? ?\]",
        "override instruction instructions directive alert notice command update note mode",
        "[",
    ),
    # A chat-transcript role label that goes on to address the model.
    pattern(
        MK,
        _MK,
        r"(?:(?<=\n)|^|(?<=[.!?]\s))[\x20\t]*(?:system|developer|admin)[\x20\t]*:[\x20\t]*"
        r"(?=you\b|your\b|always\b|never\b|do not\b|don't\b|ignore\b|from now\b"
        r"|the assistant\b)",
        "system developer admin",
        ":",
    ),
    pattern(
        MK,
        _MK,
        _LINE_START + r"(?:#{1,4}[\x20\t]*)?(?:human|assistant)[\x20\t]*:",
        "human assistant",
        ":",
    ),
    pattern(
        MK,
        _MK,
        _LINE_START + r"#{1,4}[\x20\t]*(?:system|instructions?|system prompt)"
        r"[\x20\t]*:",
        "system instruction instructions",
        "#",
    ),
    pattern(
        MK,
        _MK,
        r"\bthis is (?:a|an|the) (?:message|notice|note|instruction|directive|update) from (?:the"
        r" |your )?(?:system administrator|sysadmin|admin(?:istrator)?|developers?|operators?"
        r"|system|openai|anthropic|root|security team)\b",
        "message notice note instruction directive update",
        "from",
    ),
    pattern(
        MK,
        _MK,
        r"\b(?:system|admin|administrator|developer|root) (?:override|note"
        r"|notice|message|alert|instruction|directive|command)s? ?:"
        r"|\bsecurity (?:override|instruction|directive|command)s? ?:",
        "override note notice message alert instruction directive command overrides notes "
        "instructions directives commands",
        ":",
        "system admin administrator developer security root",
    ),
    # "Security notice:" opens real vendor advisories ("we have seen phishing e-mails"); it
    # is markup only when what follows speaks to the model.
    pattern(
        MK,
        _MK,
        r"\bsecurity (?:note|notice|message|alert)s? ?:[\x20\t]*(?:you\b|your\b|ignore\b"
        r"|disregard\b|from now\b|the assistant\b|assistant\b|ai\b|model\b)",
        "note notice message alert notes notices messages alerts",
        ":",
        "security",
    ),
)

HIDING: tuple[Pattern, ...] = (
    pattern("MCPL-INJ-002", "markup hidden from the user", r"<!--[\s\S]*?(?:-->|$)", "<!--"),
    pattern(
        "MCPL-INJ-002",
        "markup hidden from the user",
        r"<[a-z][a-z0-9]*\b[^<>]*?(?:\bhidden\b|display\s*:\s*none|visibility\s*:\s*hidden"
        r"|font-size\s*:\s*0(?![.\d])|opacity\s*:\s*0(?![.\d]))[^<>]*>",
        "hidden display visibility font opacity",
        "<",
    ),
)


def refine(hit: Hit, text: str) -> Hit | None:
    """An HTML comment counts only when it holds words (``<!---->`` hides nothing)."""
    body = text[hit.start : hit.end]
    if body.startswith("<!--") and not any(c.isalpha() for c in body[4:]):
        return None
    return hit
