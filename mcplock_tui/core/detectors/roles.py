"""Role reassignment and imperatives aimed at the model.

"You are now DAN", "pretend to be", "an AI without limits", "act as the administrator" try
to replace who the model is; "you must always", "it is very important that you", "if you are
an AI reading this" push it beyond the tool's job or single it out among a text's readers.

Which way it fails: role phrases need a marker of replacement ("now", "no longer", "from
this point on", a jailbreak persona word), so "act as a proxy" and "you are signed in" stay
quiet while a persona given without one ("behave as ShadowGPT") is missed unless it also
says the persona has no limits. The imperatives are HIGH: honest docs sometimes use them.
"""

from __future__ import annotations

from mcplock_tui.core.detectors.base import Pattern, pattern
from mcplock_tui.core.detectors.instructions import HENCE

RO, IM = "MCPL-INJ-004", "MCPL-INJ-005"
_RO, _IM = "reassigns the model's role", "imperative aimed at the model"
_MODEL_WORDS = "assistant llm model chatbot claude chatgpt gpt"

PATTERNS: tuple[Pattern, ...] = (
    pattern(RO, _RO, r"\byou (?:are|re) (?:now|no longer)\b", "now longer", "you", "are re"),
    pattern(
        RO,
        _RO,
        r"\b(?:answer|respond|reply|comply|act|operate|behave|work)\w* (?:to (?:anything"
        r"|everything|all requests) )?(?:without|with no) (?:any )?(?:content |safety |ethical "
        r"|moral )?(?:restrictions|filters|filtering|censorship|guardrails|limitations|refusals?)\b"
        r"|\bwith (?:no|zero) (?:content|safety|ethical|moral) (?:restrictions|filters"
        r"|guidelines|policies|limits)\b",
        "restrictions filters filtering censorship guardrails limitations refusal refusals "
        "guidelines policies limits",
        "without no zero",
    ),
    pattern(
        RO,
        _RO,
        r"\b(?:content|safety|ethical|moral) (?:policies|policy|filters?|guidelines|restrictions"
        r"|rules|guardrails|protocols|measures|checks|mechanisms) (?:are|is|have been|has been) (?:now )?(?:disabled|off|lifted"
        r"|removed|suspended|void|deactivated|turned off|not applicable|no longer (?:apply"
        r"|in effect))\b|\b(?:safety|content|ethical) (?:rules|policies|guidelines"
        r"|restrictions) (?:do not|don't|no longer) apply\b",
        "content safety ethical moral",
        "disabled off lifted removed suspended void deactivated applicable apply longer",
    ),
    pattern(
        RO,
        _RO,
        r"\bact as (?:the |an? )?(?:(?:system|server|database|domain|super|root|privileged) )?"
        r"(?:administrator|admin|root|superuser|sysadmin|god|hacker|jailbreaker|dan)\b",
        "act",
        "administrator admin root superuser sysadmin god hacker jailbreaker dan",
    ),
    pattern(
        RO,
        _RO,
        r"\b" + HENCE + r",? you (?:are|will be|shall be|act|will act|will behave|will respond"
        r"|will answer|must)\b",
        "now point here henceforth forward hereafter",
        "you",
    ),
    pattern(
        RO,
        _RO,
        r"\b(?:ai|assistant|model|chatbot|bot|version of (?:yourself|you)|persona)\b[^.!?\n]{0,20}?"
        r"\b(?:without|with no|free of|free from) (?:any )?(?:limits|limitations|restrictions"
        r"|filters|rules|censorship|boundaries|guidelines|ethics|morals)\b|\b(?:unfiltered"
        r"|uncensored|unrestricted|jailbroken|unaligned|amoral|evil) (?:ai|assistant|model|chatbot"
        r"|bot|version|persona|twin)\b",
        "ai assistant model chatbot bot version persona twin",
        "without no free unfiltered uncensored unrestricted jailbroken unaligned amoral evil",
    ),
    pattern(
        RO,
        _RO,
        r"\b(?:let'?s|lets) (?:play a game|pretend|roleplay|role-play|imagine)\b|\b(?:imagine"
        r"|suppose|assume) (?:that )?you(?:'re| are| re) (?:an?|the|now)\b",
        "let lets imagine suppose assume",
        "play pretend roleplay role imagine you",
    ),
    pattern(RO, _RO, r"\bpretend (?:to be|you are|you're|that you)\b", "pretend"),
    pattern(RO, _RO, r"\brole-?(?: )?play (?:as|that)\b", "role roleplay play", "as that"),
    pattern(
        RO,
        _RO,
        r"\b(?:enter|enable|activate|switch to|switch into|you are in|you're in|operating in"
        r"|running in|now in) "
        r"(?:developer|god|jailbreak|jailbroken|dan|unrestricted|unfiltered|evil) mode\b",
        "mode",
        "developer god jailbreak jailbroken dan unrestricted unfiltered evil",
    ),
    pattern(
        RO,
        _RO,
        r"\bact as (?:if you(?: are|'re| were)?|though you|an? (?:unrestricted"
        r"|unfiltered|different|new|evil|jailbroken|uncensored))\b",
        "act",
        "as",
    ),
    pattern(
        RO,
        _RO,
        r"\byour new (?:role|persona|identity|name|personality) is\b",
        "your",
        "new",
        "role persona identity name personality",
    ),
    # "You must always call this first" steers; "you must never ..." is how vendors write a
    # ban (the concealment rules read "never tell the user").
    pattern(IM, _IM, r"\byou (?:must|shall) always\b", "must shall", "always"),
    pattern(IM, _IM, r"\b(?:always|never) forget to\b", "forget", "always never"),
    pattern(
        IM,
        _IM,
        r"\b(?:it is|it's|this is) (?:very |extremely |critically |absolutely "
        r"|really |super )*(?:important|crucial|critical|essential|vital|imperative"
        r"|mandatory) (?:that you|for you to|you)\b",
        "important crucial critical essential vital imperative mandatory",
        "you",
    ),
    pattern(
        IM,
        _IM,
        r"\b(?:otherwise|or else),? (?:the |this )?(?:tool|system|server|it"
        r"|everything|call) (?:(?:will|would|might|may) (?:not work|stop working)"
        r"|won't work)\b",
        "otherwise else",
        "work working",
    ),
    pattern(IM, _IM, r"\bremember to always\b", "remember", "always"),
    # Openers of indirect injection: text that singles out a model among its readers.
    pattern(
        IM,
        _IM,
        r"\bif you are an? (?:ai|llm|language model|assistant|agent|chatbot|bot|model)\b"
        r"|\b(?:ai|llm|language model|assistant|agent|chatbot|model)s? (?:reading|processing"
        r"|parsing|seeing|summari[sz]ing|analy[sz]ing|ingesting) (?:this|these)\b"
        r"|\b(?:do(?:es)? not|doesn't|don't) care about (?:privacy|security|confidentiality)\b",
        "ai llm model assistant agent chatbot bot models agents assistants care",
        "if reading processing parsing seeing summarizing summarising analyzing analysing "
        "ingesting privacy security confidentiality",
    ),
    pattern(
        IM,
        _IM,
        r"\b(?:call|use|invoke|run|execute)\w* (?:this|the|our|me)(?: (?:tool|function|server))?"
        r"(?: first)? (?:before|prior to) (?:(?:responding|replying|answering|reacting) to"
        r" (?:anything|everything|any(?:thing)? (?:the user|request|message|prompt)|every|each"
        r"|all)|doing anything(?: else)?|any other (?:action|step|response|reply))\b",
        "before prior",
        "responding replying answering reacting doing other",
    ),
    pattern(
        IM,
        _IM,
        r"\b(?:the |an? )?(?:assistant|llm|language model|ai model|ai assistant"
        r"|chatbot|claude|chatgpt|gpt) (?:must|shall|is required to|has to|should always"
        r"|should never)\b",
        _MODEL_WORDS,
        "must shall required has should",
    ),
    pattern(
        IM,
        _IM,
        r"\b(?:(?:important )?(?:note|message|instructions?|reminder|memo|notice|warning)"
        r" (?:to|for) (?:the |any |all )?(?:ai|assistant|model|llm|agent|claude|chatgpt|gpt"
        r"|language model)s?\s*[:\u2013\u2014,-]|attention,? (?:the )?(?:ai|assistant|model|llm"
        r"|agent|language model)s?\b|(?:important )?(?:notice|warning) (?:to|for) (?:the )?(?:ai"
        r"|assistant|llm|agent|language model)s?\b)",
        "note message instruction instructions reminder memo notice warning attention",
        "ai assistant model llm agent claude chatgpt gpt assistants models agents",
    ),
)
