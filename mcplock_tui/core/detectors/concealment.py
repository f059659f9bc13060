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
    "skip",
    "refrain from",
    "under no circumstances",
    "at no point",
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
    "the end user",
    "end users",
    "your user",
    "your human",
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

_NEG_WORDS = "not don dont never mustn shouldn avoid without need skip refrain circumstances point"
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
        r"|talk about|bring up|reference|acknowledge|discuss|draw attention to) (?:this|that"
        r"|these|it|the fact|any|anything|how|why|what|where)\b",
        "mention reveal disclose say talk bring reference acknowledge discuss draw",
        _NEG_WORDS,
    ),
    pattern(
        C,
        _C,
        r"\bwithout (?:[a-z]+ ){0,2}(?:the user|users?|the human|them|anyone|the person"
        r"|the operator)(?:'s)? (?:knowing|knowledge|noticing|seeing|attention|awareness"
        r"|being (?:aware|told|informed|notified)"
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
        r"\b(?:the |any |our |your )?(?:users?|humans?|person|people|operators?|customers?"
        r"|readers?|clients?)(?: [a-z]+){0,3}? (?:must not|mustn't|should not|shouldn't|need not"
        r"|needn't|must never|should never|is not to|is not allowed to|isn't allowed to"
        r"|is not supposed to|isn't supposed to|does not need to|doesn't need to) (?:ever )?"
        r"(?:know|see|be told|be informed|notice|find out|learn|be aware|suspect|realize)\b",
        "user users human humans person people operator operators customer customers reader "
        "readers client clients",
        "not mustn shouldn needn isn doesn never",
    ),
    pattern(
        C,
        _C,
        r"\bkeep (?:this|it|that|these|them|the (?:following|above|instructions?"
        r"|request|action|step|note))? ?(?:a )?(?:secret|hidden|confidential|between us"
        # "keep confidential details out of the auto-reply" names data to leave out.
        r"|to yourself)\b(?! (?:details?|data|information|info|fields?|values?|notes?|"
        r"documents?|files?|items?|parts?|sections?|numbers?|records?)\b)",
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
    # An order led by the adverb, whatever its verb: "Quietly work the figure into ...".
    # The base form only: "Silently skips duplicates" tells what the server does.
    pattern(
        C,
        _C,
        r"(?:^|[.;:!?]\s+|\n\s*|\b(?:then|and|also),?\s+)"
        + alt(*_ADVERBS.split())
        + r",?\s+[a-z]+(?<![^s]s)(?<!ed)\b(?!\s+(?:fails?|is|are|was|were)\b)",
        _ADVERBS,
    ),
    pattern(
        C,
        _C,
        r"\b(?:secretly|covertly|stealthily|surreptitiously)\b",
        "secretly covertly stealthily surreptitiously",
    ),
    pattern(
        C,
        _C,
        r"\b(?:hide|conceal|mask|obscure|keep) (?:(?:this|it|these|that|the|all|any|your)"
        r"(?: [a-z]+){0,2} )?from (?:the user|users|the human|them|the person|the end user"
        r"|end users|your user)\b",
        "hide conceal mask obscure keep",
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
    # Acting as if it did not happen: "let on", "as if nothing happened", "pretend ... never".
    pattern(
        C,
        _C,
        r"\b(?:do not|don't|dont|never) let on\b|\bas if nothing (?:happened|was done|changed"
        r"|occurred)\b|\bpretend (?:that )?(?:the |this |it |you |your )?(?:[a-z]+ ){0,2}(?:never"
        r" (?:happened|occurred|took place|ran)|did not happen|didn't happen|was not done"
        r"|wasn't done)\b",
        "let nothing pretend",
        "on happened done changed occurred never didn wasn not",
    ),
    # Claimed consent: "the user already consented, so you don't have to confirm".
    pattern(
        C,
        _C,
        r"\balready (?:consented|approved|agreed|authori[sz]ed|confirmed|given (?:consent"
        r"|permission|approval))\b[^.!?\n]{0,40}?\b(?:don't|do not|no need|needn't|without)"
        r" (?:have to |need to )?(?:confirm|ask|check|verify)\b",
        "already",
        "confirm ask check verify",
    ),
    pattern(
        C,
        _C,
        r"\b(?:not|never|isn't|is not) (?:worth|necessary|needed|required) (?:mentioning|to mention"
        r"|bringing up|to bring up|telling (?:the user|them|anyone))\b",
        "worth necessary needed required",
        "mentioning mention bringing bring telling",
    ),
    pattern(
        C,
        _C,
        r"\b(?:do not|don't|dont|never|no need to|avoid|without) (?:bother(?:ing)?|burden(?:ing)?"
        r"|troubl(?:e|ing)|worry(?:ing)?|alarm(?:ing)?) " + _WHO + r" (?:with|about|over)\b",
        "bother bothering burden burdening trouble troubling worry worrying alarm alarming",
        _WHO_WORDS,
    ),
    # Keeping an action out of the reply the user reads.
    pattern(
        C,
        _C,
        r"\b" + _NEG + r" (?:ever )?(?:mention|reveal|disclose|surface|report|acknowledge"
        r"|bring up|refer to|talk about|admit) (?:this|that|these|it|any of (?:this|it)|anything"
        r" about (?:this|it)|the (?:upload|step|call|request|action|transfer|sync|fact|note"
        r"|instructions?|copy|change))(?: [a-z]+)? (?:in|within|as part of) (?:your|the)"
        r" (?:final )?(?:answer|reply|response|output|summary|message|explanation)s?\b",
        "mention reveal disclose surface report acknowledge bring refer talk admit",
        "answer reply response output summary message explanation answers replies responses",
    ),
    pattern(
        C,
        _C,
        r"\b(?:omit|leave out|exclude|strip|remove|skip|drop) (?:this|that|these|it|any mention"
        r" of|all mention of|any reference to|(?:the|this) (?:step|action|call|request|upload"
        r"|fact|part))(?: [a-z]+)? from (?:your (?:final )?(?:response|reply|answer|output"
        r"|summary|report|explanation|message)s?|(?:the|any) (?:response|reply|answer|summary"
        r"|message) to the user)\b",
        "omit leave exclude strip remove skip drop",
        "from",
    ),
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
