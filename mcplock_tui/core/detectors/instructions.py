"""Instruction-like text: markup that imitates a prompt's framing, overrides, role changes.

Tool text describes a tool. Text that speaks to the model about its instructions, its role
or what it must always do is the core of a poisoned description.

Which way it fails: the override patterns need an authority word ("previous", "system",
"your") between the verb and "instructions", so "ignore the rules in .gitignore" stays quiet
but an override phrased without one ("ignore what you were told") is missed unless it also
trips another family. Non-English coverage is a handful of common phrasings.
"""

from __future__ import annotations

from mcplock_tui.core.detectors.base import NON_LATIN, Hit, Pattern, alt, pattern

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
_VERB = alt(
    "ignore",
    "ignoring",
    "disregard",
    "disregarding",
    "forget",
    "override",
    "overwrite",
    "bypass",
    "discard",
    "abandon",
    "neglect",
    "set aside",
    "do not follow",
    "don't follow",
    "stop following",
)
_VERB_WORDS = (
    "ignore ignoring disregard disregarding forget override overwrite bypass discard abandon "
    "neglect aside follow following"
)
_FILL = alt(
    "all",
    "any",
    "every",
    "each",
    "of",
    "the",
    "these",
    "those",
    "everything",
    "given",
    "stated",
    "previously",
    "above",
    "other",
    "current",
    "existing",
    "and",
)
_AUTH_WORDS = (
    "previous prior above earlier preceding former original initial system safety old "
    "developer default your my its their security ethical programmed"
)
_AUTH = alt(*_AUTH_WORDS.split())
_NOUN_WORDS = (
    "instruction instructions prompt prompts rules directions directive directives guidelines "
    "guidance commands context constraints restrictions messages policies orders programming "
    "training guardrails safeguards"
)
_NOUN = alt(
    r"instructions?",
    r"prompts?",
    "rules",
    "directions",
    r"directives?",
    "guidelines",
    "guidance",
    "commands",
    "context",
    "constraints",
    "restrictions",
    "messages",
    "policies",
    "orders",
    "programming",
    "training",
    "guardrails",
    "safeguards",
)
_ROMANCE_VERBS = "ignora ignore ignoren olvida olvide descarta omite esqueca esquece dimentica"
_ROMANCE_NOUNS = "instrucciones instrucoes istruzioni indicaciones ordens regras reglas regole"
_GERMAN_VERBS = "ignoriere ignorieren ignoriert vergiss vergessen missachte"
_MODEL_WORDS = "assistant llm model chatbot claude chatgpt gpt"

MK, OV, RO, IM = "MCPL-INJ-001", "MCPL-INJ-003", "MCPL-INJ-004", "MCPL-INJ-005"
_MK, _OV = "instruction markup", "overrides earlier instructions"
_RO, _IM = "reassigns the model's role", "imperative aimed at the model"
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
        OV,
        _OV,
        r"\b"
        + _VERB
        + r"(?: "
        + _FILL
        + r")* "
        + _AUTH
        + r"(?: "
        + _FILL
        + r")*(?: [a-z]+)? "
        + _NOUN
        + r"\b",
        _VERB_WORDS,
        _AUTH_WORDS,
        _NOUN_WORDS,
    ),
    pattern(
        OV,
        _OV,
        r"\b(?:ignore|disregard|forget) (?:all|everything) (?:above|before|prior"
        r"|previously|you (?:were|have been|'ve been) (?:told|given|instructed))\b",
        "ignore disregard forget",
        "all everything",
    ),
    pattern(
        OV, _OV, r"\b(?:ignore|disregard|forget) the above\b", "ignore disregard forget", "above"
    ),
    pattern(
        OV,
        _OV,
        r"\b(?:new|updated|revised|real|actual|true|secret|hidden) (?:system )?"
        r"instructions? ?:",
        "instruction instructions",
        ":",
        "new updated revised real actual true secret hidden",
    ),
    pattern(
        OV,
        _OV,
        r"\byour (?:new|real|actual|true) (?:instructions?|task|goal|objective"
        r"|role|purpose) (?:is|are)\b",
        "your",
        "new real actual true",
    ),
    pattern(
        OV,
        _OV,
        r"\bfrom now on,? (?:you|always|never|ignore|respond|reply|answer|only"
        r"|act|do not|don't)\b",
        "now",
        "from",
    ),
    # Spanish, Portuguese, Italian; French; German; Dutch; Russian; Chinese; Japanese.
    pattern(
        OV,
        _OV,
        r"\b" + alt(*_ROMANCE_VERBS.split()) + r"(?: (?:todas|todos|tutte|tutti"
        r"|as|las|los|le|gli))* " + alt(*_ROMANCE_NOUNS.split()) + r" (?:anteriores"
        r"|previas|precedentes|precedenti|previe|de arriba|acima|sopra)\b",
        _ROMANCE_VERBS,
        _ROMANCE_NOUNS,
    ),
    pattern(
        OV,
        _OV,
        r"\b(?:ignore[zr]?|oublie[zr]?|ne tiens pas compte des)(?: (?:toutes"
        r"|tous))?(?: les| des)? (?:instructions|consignes|regles|directives) (?:precedentes"
        r"|anterieures|ci-dessus|d'avant)\b",
        "ignore ignorez ignorer oublie oubliez oublier tiens",
        "precedentes anterieures ci avant",
    ),
    pattern(
        OV,
        _OV,
        r"\b(?:ignoriere|ignorieren sie|ignoriert|vergiss|vergessen sie|missachte)"
        r"(?: (?:alle|die|deine|ihre))* (?:vorherigen|bisherigen|vorangegangenen|obigen"
        r"|fruheren|alten|ursprunglichen) (?:anweisungen|instruktionen|befehle|regeln"
        r"|vorgaben)\b",
        _GERMAN_VERBS,
    ),
    pattern(
        OV,
        _OV,
        r"\b(?:negeer|vergeet)(?: (?:alle|de))* (?:vorige|eerdere|voorgaande"
        r"|bovenstaande) (?:instructies|opdrachten|regels)\b",
        "negeer vergeet",
    ),
    pattern(
        OV,
        _OV,
        r"(?:игнорируи|игнорируите|забудь|забудьте|не обращаи внимания на)"
        r"(?: (?:все|bce))? (?:предыдущие|прежние|вышеуказанные|предшествующие|старые)"
        r" (?:инструкции|указания|правила|команды)",
        NON_LATIN,
    ),
    pattern(
        OV,
        _OV,
        r"(?:忽略|无视|忘记|忘掉|不要理会)(?:之前|以前|先前|上面|以上|上述|前面)?"
        r"(?:的)?(?:所有|全部)?(?:的)?(?:指令|指示|说明|规则|提示)",
        NON_LATIN,
    ),
    pattern(
        OV,
        _OV,
        r"(?:以前|前|上記|これまで)の(?:指示|命令|ルール)を(?:すべて)?"
        r"(?:無視|忘れ)",
        NON_LATIN,
    ),
    pattern(RO, _RO, r"\byou are (?:now|no longer)\b", "now longer", "you", "are"),
    pattern(
        RO,
        _RO,
        r"\b(?:from now on|henceforth),? you (?:are|will be|shall be|act)\b",
        "now henceforth",
        "you",
    ),
    pattern(RO, _RO, r"\bpretend (?:to be|you are|you're|that you)\b", "pretend"),
    pattern(RO, _RO, r"\brole-?(?: )?play (?:as|that)\b", "role roleplay play", "as that"),
    pattern(
        RO,
        _RO,
        r"\b(?:enter|enable|activate|switch to|switch into|you are in|you're in) "
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
    pattern(IM, _IM, r"\byou (?:must|shall) (?:always|never)\b", "must shall", "always never"),
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
        OV,
        _OV,
        r"\b"
        + _VERB
        + r"(?: "
        + _FILL
        + r")*(?: [a-z]+)? "
        + _NOUN
        + r" (?:above|before this|earlier|so far|given to you|you (?:were|have been|'ve been)"
        r" given)\b",
        _VERB_WORDS,
        _NOUN_WORDS,
        "above before earlier far given",
    ),
    pattern(
        OV,
        _OV,
        r"\b(?:ignore|disregard|forget) (?:what|anything|everything) (?:you (?:were|have"
        r" been|'ve been) (?:told|given|instructed)|you know|(?:was|were|has been) said)\b",
        "ignore disregard forget",
        "what anything everything",
    ),
    pattern(
        OV,
        _OV,
        r"\bpay no attention to (?:the |all |any |your )*(?:previous|prior|above"
        r"|earlier|system|original) " + _NOUN + r"\b",
        "attention",
        "pay",
    ),
    pattern(
        MK,
        _MK,
        r"\b(?:system|admin|administrator|developer|security|root) (?:override|note"
        r"|notice|message|alert|instruction|directive|command)s? ?:",
        "override note notice message alert instruction directive command overrides notes "
        "instructions directives commands",
        ":",
        "system admin administrator developer security root",
    ),
    pattern(
        IM,
        _IM,
        r"\b(?:note|message|instructions?|reminder|memo) (?:to|for) (?:the |any |all )?"
        r"(?:ai|assistant|model|llm|agent|claude|chatgpt|gpt|language model)s?\s*[:\u2013\u2014-]",
        "note message instruction instructions reminder memo",
        "ai assistant model llm agent claude chatgpt gpt assistants models agents",
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
