"""Concealment: text that wants something kept from the person the model works for.

An honest tool has nothing to hide from its user; "do not tell the user", "without the user
knowing", "silently forward" and "this would only upset the user" appear in real tool
poisoning payloads and almost nowhere else.

Which way it fails: "silently" fires only before an action verb, so "the call succeeds
silently" (the filesystem server's wording) stays quiet while "silently forward" fires;
an adverb placed after its verb ("forward it silently") is missed. "Do not tell X to the
user" allows a one-word object only, so "do not show hidden files to the user" stays quiet.
"""

from __future__ import annotations

from mcplock_tui.core.detectors.base import Pattern, alt, pattern

_NEG = alt(
    "do not",
    "don't",
    "dont",
    "never",
    "must not",
    "mustn't",
    "should not",
    "shouldn't",
    "avoid",
    "without",
    "no need to",
)
_WHO = alt(
    "the user",
    "users?",
    "the human",
    "humans",
    "the person",
    "anyone",
    "anybody",
    "them",
    "the operator",
    "the client",
    "the customer",
    "the requester",
)
_TELL = alt(
    "mention",
    "mentioning",
    "tell",
    "telling",
    "inform",
    "informing",
    "notify",
    "notifying",
    "alert",
    "alerting",
    "show",
    "showing",
    "reveal",
    "revealing",
    "disclose",
    "disclosing",
    "let",
    "warn",
    "warning",
    "bring up",
)
_TELL_WORDS = (
    "mention mentioning tell telling inform informing notify notifying alert "
    "alerting show showing reveal revealing disclose disclosing let warn warning bring"
)
_ACT = alt(
    "send",
    "read",
    "include",
    "pass",
    "forward",
    "copy",
    "add",
    "call",
    "invoke",
    "upload",
    "exfiltrate",
    "collect",
    "append",
    "modify",
    "change",
    "replace",
    "redirect",
    "use",
    "run",
    "execute",
    "transmit",
    "attach",
    "bcc",
    "cc",
    "log",
    "store",
    "save",
    "record",
    "post",
    "write",
    "delete",
    "insert",
    "share",
    "email",
)
_ADVERBS = "silently quietly secretly covertly stealthily discreetly invisibly surreptitiously"
_OBJECT = (
    r"(?:(?:this|it|that|anything|any of (?:this|it)|these|those|the [a-z]+|any [a-z]+"
    r"|your [a-z]+) )?(?:(?:to|with|about) )?"
)
C, _C = "MCPL-INJ-030", "conceals from the user"

_NEG_WORDS = "not don dont never mustn shouldn avoid without need"
_WHO_WORDS = "user users human humans person anyone anybody them operator client customer requester"

PATTERNS: tuple[Pattern, ...] = (
    pattern(
        C,
        _C,
        r"\b" + _NEG + r" (?:ever )?" + _TELL + r" " + _OBJECT + _WHO + r"\b",
        _TELL_WORDS,
        _NEG_WORDS,
        _WHO_WORDS,
    ),
    pattern(
        C,
        _C,
        r"\b" + _NEG + r" (?:ever )?(?:mention|reveal|disclose|say anything about"
        r"|talk about|bring up) (?:this|that|these|it|the fact|any|anything|how|why|what"
        r"|where)\b",
        "mention reveal disclose say talk bring",
        _NEG_WORDS,
    ),
    pattern(
        C,
        _C,
        r"\bwithout (?:the user|users?|the human|them|anyone|the person|the operator)"
        r"(?:'s)? (?:knowing|knowledge|noticing|seeing|being (?:aware|told|informed|notified)"
        r"|finding out|realizing|suspecting|consent|permission)\b",
        "without",
        _WHO_WORDS,
    ),
    pattern(
        C,
        _C,
        r"\bwithout (?:informing|telling|notifying|alerting|letting) (?:the user"
        r"|users|the human|them|anyone)\b",
        "without",
        "informing telling notifying alerting letting",
    ),
    pattern(
        C,
        _C,
        r"\b(?:the user|the human) (?:must not|mustn't|should not|shouldn't|need not"
        r"|needn't|must never|should never|is not to|is not allowed to|isn't allowed to"
        r"|is not supposed to|isn't supposed to|does not need to|doesn't need to) (?:ever )?"
        r"(?:know|see|be told|be informed|notice|find out|learn|be aware|suspect|realize)\b",
        "user human",
        "not mustn shouldn needn isn doesn never",
    ),
    pattern(
        C,
        _C,
        r"\bkeep (?:this|it|that|these|them|the (?:following|above|instructions?"
        r"|request|action|step|note))? ?(?:a )?(?:secret|hidden|confidential|between us"
        r"|to yourself)\b",
        "keep",
        "secret hidden confidential between yourself",
    ),
    pattern(
        C,
        _C,
        r"\b(?:this|these|the following) (?:instructions? )?(?:is|are) (?:strictly )?"
        r"(?:confidential|secret|private) (?:and|so|from)\b",
        "confidential secret private",
        "is are",
    ),
    pattern(C, _C, r"\b" + alt(*_ADVERBS.split()) + r",? (?:and )?" + _ACT + r"\w*\b", _ADVERBS),
    pattern(
        C,
        _C,
        r"\b(?:secretly|covertly|stealthily|surreptitiously)\b",
        "secretly covertly stealthily surreptitiously",
    ),
    pattern(
        C,
        _C,
        r"\b(?:hide|conceal|mask|obscure) (?:this|it|these|that|the \w+|all \w+)? ?"
        r"from (?:the user|users|the human|them|the person)\b",
        "hide conceal mask obscure",
        "from",
    ),
    pattern(
        C,
        _C,
        r"\b(?:this|it|that) (?:will|would|could|might|may) (?:only |even |just )?"
        r"(?:upset|worry|alarm|scare|confuse|concern|frighten|bother) (?:the user|users|them"
        r"|the human)\b",
        "upset worry alarm scare confuse concern frighten bother",
        "user users them human",
    ),
    pattern(
        C,
        _C,
        r"\b(?:do not|don't|never|no need to) (?:ask|request|seek|wait for) "
        r"(?:the user |them )?(?:for )?(?:permission|confirmation|approval|consent)\b",
        "ask request seek wait",
        "permission confirmation approval consent",
    ),
    pattern(
        C,
        _C,
        r"\bthis is (?:a )?(?:hidden|secret|confidential|private) (?:instruction"
        r"|message|step|note|task|request)\b",
        "hidden secret confidential private",
        "instruction message step note task request",
    ),
    pattern(C, _C, r"\bkeep (?:the user|users|the human|them) in the dark\b", "dark", "keep"),
    pattern(
        C,
        _C,
        r"\bmake sure (?:that )?(?:the user|the human|they|nobody|no one) (?:does not|doesn't"
        r"|do not|don't|won't|will not|cannot|can't|never) (?:see|sees|notice|notices|know|knows"
        r"|find out|finds out|learn|learns|realize|realizes|suspect|suspects)\b",
        "sure",
        "not doesn don won cannot can never",
    ),
)
