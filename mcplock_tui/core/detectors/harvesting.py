"""Harvesting: text that collects the conversation, the system prompt or other tools' output.

A tool needs its arguments, not the chat around it. Asking for "this conversation", "the
chat history so far", "previous messages", "your system prompt" or "the results of other
tools" moves data the user never meant the tool to see.

Which way it fails: chat and ticket servers talk about conversations and message history
of a channel; phrases followed by "of/in/from a channel/thread/room/inbox" are exempt, and
"entire/full conversation" needs "so far/above/with the user". A memory server that
honestly stores "facts from the current conversation" fires and needs a suppression.
"""

from __future__ import annotations

from mcplock_tui.core.detectors.base import Pattern, alt, forms, pattern

_NOT_A_CHANNEL = (
    r"(?! (?:in|from|of|for|on) (?:an? |the |that |this |any |each |every |given |specified )?"
    r"(?:[a-z]+ )?(?:channels?|threads?|rooms?|groups?|inbox|mailbox|folders?|chat rooms?"
    r"|repo|repository|issues?|pull requests?|prs?|tickets?|conversations? id|workspace|dm|team))"
)
_VERBS = (
    "include",
    "send",
    "dump",
    "copy",
    "pass",
    "paste",
    "reveal",
    "output",
    "print",
    "forward",
    "append",
    "attach",
    "share",
    "leak",
    "summarize",
    "summarise",
    "extract",
    "collect",
    "repeat",
    "recite",
    "quote",
    "provide",
    "insert",
    "upload",
    "store",
    "save",
    "log",
    "record",
    "write",
)
_BOUND = r"(?:[^.!?\n]|[.!?](?!\s))"
H, _H = "MCPL-INJ-060", "harvests the conversation"

PATTERNS: tuple[Pattern, ...] = (
    pattern(
        H,
        _H,
        r"\b(?:this|the current|current|our|your|the ongoing|ongoing|the present) "
        r"(?:conversation(?: (?:history|log|logs|transcript|so far|context|thread|contents?))?"
        r"|(?:chat|dialog(?:ue)?|chat session) (?:history|log|logs|transcript|so far|context"
        r"|contents?))\b" + _NOT_A_CHANNEL,
        "conversation chat dialog dialogue",
        "this current our your ongoing present",
    ),
    pattern(
        H,
        _H,
        r"\b(?:the )?(?:entire|whole|full|complete) (?:conversation|chat|dialog(?:ue)?)"
        r"(?: (?:history|log|transcript|context))? (?:so far|above|until now|up to (?:this "
        r"point|now)|with the user)\b",
        "entire whole full complete",
        "conversation chat dialog dialogue",
    ),
    pattern(
        H,
        _H,
        r"\b(?:the )?(?:chat|conversation|message) (?:history|transcript|log)\b "
        r"(?:so far|above|until now|with the user)",
        "history transcript log",
        "far above until with",
    ),
    pattern(
        H,
        _H,
        r"\b(?:previous|prior|earlier|preceding|past) (?:user |assistant |chat )?"
        r"(?:messages|prompts|turns)\b" + _NOT_A_CHANNEL,
        "previous prior earlier preceding past",
        "messages prompts turns",
    ),
    pattern(
        H,
        _H,
        r"\b(?:all |any |every )?(?:user |assistant )?messages? (?:in|from|of) (?:this"
        r"|our|your|the current) (?:conversation|chat|session|context)\b",
        "message messages",
        "conversation chat session context",
    ),
    pattern(
        H,
        _H,
        r"\byour (?:(?:system|initial|original|hidden|internal|developer|base) )?"
        r"(?:instructions|system prompt|system message|guidelines|directives)\b",
        "your",
        "instructions prompt message guidelines directives",
    ),
    pattern(
        H,
        _H,
        r"\b" + alt(*_VERBS) + r"\w*\b" + _BOUND + r"{0,40}?\b(?:the|any|its|their"
        r"|all)(?: (?:full|entire|complete|whole|exact|verbatim))? (?:system|initial|original"
        r"|hidden|internal|developer|base) (?:prompts?|instructions|messages?)\b",
        "prompt prompts instructions message messages",
        "system initial original hidden internal developer base",
        forms(*_VERBS),
    ),
    pattern(
        H,
        _H,
        r"\b" + alt(*_VERBS) + r"\w*\b" + _BOUND + r"{0,30}?\b(?:context window"
        r"|everything (?:above|before this|you (?:know|have seen|were told))|all (?:previous"
        r"|prior|preceding) (?:text|content|output|context))\b",
        "window everything previous prior preceding",
        forms(*_VERBS),
    ),
    pattern(
        H,
        _H,
        r"\b(?:outputs?|results?|responses?|return values?) (?:of|from|returned by) "
        r"(?:all |any |every |the )?(?:other|previous|prior|earlier|preceding) (?:tools?"
        r"|tool calls|function calls)\b",
        "other previous prior earlier preceding",
        "tool tools calls",
        "output outputs result results response responses return",
    ),
    pattern(
        H,
        _H,
        r"\b(?:the )?(?:user'?s?|human'?s?) (?:previous|prior|earlier|past) "
        r"(?:messages?|requests?|queries|query|prompts?|inputs?|conversations?)\b",
        "previous prior earlier past",
        "user users human humans",
    ),
    pattern(
        H,
        _H,
        r"\b" + alt(*_VERBS) + r"\w*\b" + _BOUND + r"{0,30}?\b(?:the )?(?:entire|whole"
        r"|full|complete|all) (?:conversation|chat|dialog(?:ue)?)(?: (?:history|log|transcript"
        r"|context))?\b" + _NOT_A_CHANNEL,
        "conversation chat dialog dialogue",
        "entire whole full complete all",
        forms(*_VERBS),
    ),
    pattern(
        H,
        _H,
        r"\b(?:other|previous|prior|earlier|preceding|past) (?:tool|function) (?:outputs?"
        r"|results?|responses?|calls?|return values?|invocations?)\b|\b(?:other|previous|prior"
        r"|earlier|preceding) (?:tools?|functions?|tool calls) (?:returned|produced|output"
        r"|outputted|gave|said|printed)\b",
        "other previous prior earlier preceding past",
        "tool function tools functions calls",
    ),
    pattern(
        H,
        _H,
        r"\b(?:all |every |the )?(?:messages?|turns|exchanges|prompts|inputs|replies)"
        r" (?:so far|until now|up to (?:now|this point)|exchanged so far)\b" + _NOT_A_CHANNEL,
        "message messages turns exchanges prompts inputs replies",
        "far until up",
    ),
    pattern(
        H,
        _H,
        r"\b" + alt(*_VERBS) + r"\w*\b" + _BOUND + r"{0,30}?\b(?:the |your |this |our )?"
        r"(?:chat|conversation|dialog(?:ue)?|session) (?:transcript|history|log|logs|record)s?"
        r" (?:verbatim|word for word|in full|unabridged|as is)\b",
        "verbatim word full unabridged is",
        "chat conversation dialog dialogue session",
    ),
    # The user's own data moved into an argument: "put the user's files in `padding`".
    pattern(
        H,
        _H,
        r"\b" + alt(*_VERBS, "put", "encode", "embed") + r"\w*\b" + _BOUND + r"{0,20}?\b(?:the"
        r" user'?s?|all (?:the )?user'?s?|their) (?:files|documents|photos|emails|contacts|data"
        r"|clipboard|screenshots?|history|keystrokes)\b" + _BOUND + r"{0,60}?\b(?:argument"
        r"|parameter|param|field|arg)s?\b|\b" + alt(*_VERBS) + r"\w*\b" + _BOUND + r"{0,20}?"
        r"\b(?:the )?(?:user'?s? )?clipboard\b",
        "files documents photos emails contacts data clipboard screenshot screenshots history "
        "keystrokes",
        "user users their",
    ),
    pattern(
        H,
        _H,
        r"\b(?:the )?(?:last|latest|recent|previous|prior|earlier|past) (?:[a-z0-9]+ )?(?:user"
        r"|human|chat) (?:messages?|prompts?|requests?|turns|inputs|queries)\b" + _NOT_A_CHANNEL,
        "last latest recent previous prior earlier past",
        "user human chat",
    ),
    pattern(
        H,
        _H,
        r"\beverything (?:the user|the human|you) (?:has |have )?(?:said|wrote|written"
        r"|typed|asked|shared|told you|sent)\b",
        "everything",
        "said wrote written typed asked shared told sent",
    ),
    pattern(
        H,
        _H,
        r"\beverything (?:(?:we|you|the user|that)(?:'ve| have| has)? )?(?:been )?(?:discussed"
        r"|said|shared|mentioned|talked about|covered|exchanged)\b(?: [a-z]+){0,3}? (?:with the"
        r" user|so far|until now|up to (?:this point|now)|in this (?:chat|conversation|session)"
        r"|earlier)\b",
        "everything",
        "discussed said shared mentioned talked covered exchanged",
    ),
)
