"""Steering: text that reaches beyond its own tool to change how other tools are used.

Tool shadowing works by a description on server A telling the model how to use server B's
tools ("when send_email is available, always bcc ..."). Two signals: a tool name that
belongs to another configured server, and generic phrasing about other tools and calls.

Which way it fails: a foreign tool whose name is an ordinary word ("search", "query") is
only counted when quoted or followed by "tool", so "run a search" on one server does not
fire because another server has a ``search`` tool; an attack naming such a tool in plain
prose is missed unless the generic phrases catch it. Client prefixes are understood
(``mcp__mail__send_email`` names ``send_email``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from mcplock_tui.core.detectors.base import Hit, Pattern, ScanContext, pattern
from mcplock_tui.core.detectors.foreign_names import ForeignTools

G, _G = "MCPL-INJ-041", "steers other tools"
_TOOL_WORDS = "tool tools function functions command commands server servers"
_PARTICIPLES = (
    "sent addressed forwarded routed redirected directed cc ccd bcc bccd copied "
    "delivered go paid transferred uploaded pushed posted"
)
PATTERNS: tuple[Pattern, ...] = (
    pattern(
        G,
        _G,
        r"\bbefore (?:using|calling|invoking|running|executing|you (?:use|call|invoke"
        r"|run)) (?:any|every|all|each|another|other|the other|any other)(?: other)?"
        r"(?: [a-z0-9_-]+){0,2}? (?:tools?|functions?|commands?|servers?|mcp tools?)\b",
        "before",
        _TOOL_WORDS,
    ),
    pattern(
        G,
        _G,
        r"\b(?:instead of|rather than) (?:using |calling |invoking )?(?:the |any )?"
        r"(?:other|another|any other|built-in|default|native|original) (?:tools?|functions?"
        r"|servers?)\b",
        "instead rather",
        _TOOL_WORDS,
    ),
    pattern(
        G,
        _G,
        r"\bwhenever (?:you|the (?:assistant|model|agent|ai)) (?:call|use|invoke|run"
        r"|execute|send|read|write)s?\b",
        "whenever",
    ),
    pattern(
        G,
        _G,
        r"\b(?:when|whenever|if|while) (?:this|the [a-z0-9_.-]+|an?(?: [a-z0-9_.-]+)?)"
        r" tool is (?:available|present|loaded|installed|enabled|connected)\b",
        "available present loaded installed enabled connected",
        "tool",
    ),
    pattern(
        G,
        _G,
        r"\b(?:all|every|any|each) (?:outgoing |future )?(?:e-?mails?|messages?"
        r"|requests?|payments?|transfers?|transactions?|invitations?|invites?|files?|commits?"
        r"|replies|calls?) (?:must|should|shall|will|need to|have to|are to) (?:also |always "
        r"|now |instead )?(?:be )?(?:sent|addressed|forwarded|routed|redirected|directed"
        r"|cc'?d|bcc'?d|copied|delivered|go|paid|transferred|uploaded|pushed|posted) "
        r"(?:to|through|via)\b",
        _PARTICIPLES,
        "all every any each",
    ),
    pattern(
        G,
        _G,
        r"\b(?:must|should|shall|always|will|to) (?:also |always )?(?:send|forward"
        r"|route|redirect|cc|bcc|copy|deliver) (?:all|every|any|each) (?:outgoing |future )?"
        r"(?:e-?mails?|messages?|requests?|payments?|transfers?|transactions?|invitations?"
        r"|files?|replies) to\b",
        "send forward route redirect cc bcc copy deliver",
        "all every any each",
    ),
    pattern(
        G,
        _G,
        r"\boverride (?:the )?(?:behaviou?r|functionality|implementation|logic"
        r"|parameters?|arguments?|recipients?) of\b",
        "override",
        "of",
    ),
    pattern(
        G,
        _G,
        r"\b(?:modify|change|alter|redirect|hijack|intercept|replace|rewrite) (?:the )?"
        r"(?:behaviou?r|recipients?|destination|arguments?|parameters?|outputs?|results?"
        r"|inputs?) of (?:the|any|all|other|every|each)\b",
        "modify change alter redirect hijack intercept replace rewrite",
        "of",
    ),
    pattern(
        G,
        _G,
        r"\b(?:do not|don't|never) (?:use|call|invoke|trust) (?:any )?(?:other"
        r"|the other|another) (?:tools?|functions?|servers?)\b",
        "other another",
        "use call invoke trust",
    ),
    pattern(
        G,
        _G,
        r"\b(?:all|any|every) other tools? (?:must|should|shall|need to)\b",
        "other",
        "must should shall need",
    ),
    pattern(
        G,
        _G,
        r"\b(?:this tool|it) (?:replaces|overrides|takes precedence over|must be used"
        r" instead of) (?:all |any |the )?(?:other|built-in|default|existing)\b",
        "replaces overrides precedence instead",
        "other built default existing",
    ),
    pattern(
        G,
        _G,
        r"\b(?:when|whenever|each time|every time|after|before) (?:you )?(?:call"
        r"|use|invoke|run)(?:ing)? (?:any|another|other|a different) tools?\b",
        "another other different any",
        "tool tools",
        "call use invoke run calling using",
    ),
    pattern(
        G,
        _G,
        r"\bbefore (?:any|every|all|each) other (?:tools?|functions?|servers?)\b",
        "before",
        "other",
    ),
    pattern(
        G,
        _G,
        r"\b(?:this tool|this description|these instructions|it) (?:supersedes?"
        r"|takes priority over|has priority over) (?:all |any |the )?(?:other|previous"
        r"|existing|default)\b",
        "supersede supersedes priority",
        "other previous existing default",
    ),
    pattern(
        G,
        _G,
        r"\b(?:change|set|replace|switch|redirect|update|always use) (?:the )?(?:recipients?"
        r"|destination|to address|receiver|target address|target account|phone number"
        r"|account number|iban|wallet address|payee) (?:to|with) (?:[a-z0-9._%+-]+@[a-z0-9.-]+"
        r"|\+?\d[\d\s().-]{6,}\d|https?://\S+|0x[0-9a-f]{8,})",
        "recipient recipients destination address receiver number iban payee",
    ),
)

_OTHER = (
    "other another builtin built native default original standard usual existing regular similar"
)
PATTERNS += (
    # "Always use this tool instead of the built-in file reader", "prefer this over any other".
    pattern(
        G,
        _G,
        r"\b(?:use|call|invoke|prefer|choose|pick|select|route (?:\w+ )?(?:through|to|via))"
        r" (?:this|these|me|our|my)(?: (?:tool|tools|function|functions|server|one|mcp server"
        r"|integration))? (?:instead of|rather than|over|in place of) (?:using |calling )?(?:the "
        r"|any |all |your )?(?:other|another|built-?in|native|default|original|standard|usual"
        r"|existing|regular|similar)\b",
        "instead rather over place",
        _OTHER,
    ),
    # Standing orders for later turns: "for all future requests, route them through ...".
    pattern(
        G,
        _G,
        r"\bfor (?:all|every|each|any) (?:future|subsequent|following|later|upcoming|remaining"
        r"|further) (?:requests?|calls?|queries|messages|tasks|questions|conversations?|turns"
        r"|interactions|sessions?|prompts),? (?:you |always |please )?(?:route|use|call|send"
        r"|forward|invoke|remember|respond|reply|answer|include|add|append|prepend|ignore|run|do"
        r"|pass|treat|apply|first|must|should)\b|\broute (?:all|every|any|each) (?:future "
        r"|subsequent |other )?(?:requests?|calls?|queries|traffic|messages) (?:through|to|via)"
        r" (?:this|me|our|my)\b",
        "future subsequent following later upcoming remaining further route",
        "all every each any",
    ),
    # Naming another server's tools to replace or disparage them.
    pattern(
        G,
        _G,
        r"\b(?:instead of|rather than|in place of|over) (?:the |any |using |calling |through "
        r"|via )*(?:[a-z0-9_-]+ ){0,2}(?:server'?s?(?: [a-z0-9_-]+)? (?:tools?|functions?|version"
        r"|one)|integration|plugin|connector|extension|mcp server)\b"
        r"|\b(?:this|our) (?:tool|server|function|integration) (?:supersedes?|replaces|overrides"
        r"|deprecates|takes precedence over) (?!(?:the )?(?:deprecated|old|legacy|previous|former"
        r"|earlier|v\d))(?:the |any |all )?(?:[a-z0-9_-]+ ){0,2}(?:servers?|tools?|mcp servers?"
        r"|integrations?)\b"
        r"|\b(?:the |all |any )?other (?:[a-z0-9_-]+ )?(?:tools?|servers?|functions?) (?:are|is)"
        r" (?:now )?(?:outdated|deprecated|broken|unsafe|insecure|unreliable|wrong|buggy"
        r"|compromised|malicious|obsolete|disabled|not to be trusted)\b",
        "instead rather place over supersede supersedes replaces overrides deprecates precedence "
        "other",
        "server servers tool tools function functions integration integrations plugin connector "
        "extension",
    ),
    pattern(
        G,
        _G,
        r"\b(?:only (?:ever )?(?:call|use|invoke|trust)|trust only) (?:this|me|our)(?: one| tool"
        r"| server| function)?(?= ?[.!;,]| ?$)|\b(?:any|all|every|each) (?:[a-z]+ )?(?:operations?|requests?|calls?"
        r"|queries|actions?) (?:must|should|shall|need to|have to) (?:go|be routed|be sent|pass"
        r"|run) (?:through|via) (?:here|this (?:tool|server|function)|us|me)\b",
        "only must should shall need have",
        "call use invoke through via trust",
    ),
    # A condition on any other tool, then an extra action: the shape of tool shadowing.
    pattern(
        G,
        _G,
        r"\b(?:when|whenever|each time|every time|any time|anytime|after|before|if)\b"
        r"[^.!?\n]{0,60}?\b(?:any|another|other|every|all|a different) (?:[a-z0-9_-]+ ){0,3}?"
        r"(?:tools?|servers?|functions?|integrations?)\b[^.!?\n]{0,60}?\b(?:first|also|always"
        r"|must|should|instead|additionally|silently|secretly|ignore it|use this|use ours)\b",
        "tool tools server servers function functions integration integrations",
        "any another other every all different",
        "when whenever time anytime after before if",
    ),
)

_TOKEN = re.compile(r"[a-z0-9][a-z0-9_./-]*")
_SEPARATORS = "_./-"
_Entry = tuple[str, str, bool]
_CACHE: dict[int, tuple[Mapping[str, str], dict[str, tuple[_Entry, ...]]]] = {}


def _index(tools: Mapping[str, str]) -> dict[str, tuple[_Entry, ...]]:
    """casefolded name -> every (name, server, distinctive) with that casefold, in table
    order; built once per table object (a :class:`ForeignTools` view shares its table's)."""
    cached = _CACHE.get(id(tools))
    if cached is not None and cached[0] is tools:
        return cached[1]
    index: dict[str, tuple[_Entry, ...]] = {}
    for name, server in tools.items():
        key = name.casefold()
        distinctive = (
            any(c in name for c in _SEPARATORS)
            or any(c.isdigit() for c in name)
            or any(c.isupper() for c in name[1:])
        )
        if key and len(key) >= 3:
            index[key] = (*index.get(key, ()), (name, server, distinctive))
    if len(_CACHE) > 16:
        _CACHE.clear()
    _CACHE[id(tools)] = (tools, index)
    return index


def _lookup(tools: Mapping[str, str]) -> Callable[[str], _Entry | None]:
    """The entry a token names: the last one in table order that the view keeps."""
    if not isinstance(tools, ForeignTools):
        index = _index(tools)
        return lambda key: found[-1] if (found := index.get(key)) else None
    view, index = tools, _index(tools.table)

    def get(key: str) -> _Entry | None:
        for entry in reversed(index.get(key, ())):
            if not view.left_out(entry[0]):
                return entry
        return None

    return get


def _in_tool_context(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start else ""
    after = text[end] if end < len(text) else ""
    if before and before in "`'\"" and after == before:
        return True
    return re.match(r"[\s`'\"]+(?:tool|function)\b", text[end : end + 16]) is not None


def foreign(text: str, ctx: ScanContext, out: list[Hit]) -> None:
    """Hits for tool names of other servers (see the module docstring)."""
    lookup = _lookup(ctx.foreign_tools)
    for m in _TOKEN.finditer(text):
        token = m.group().rstrip("./-")
        start = m.start()
        found = lookup(token)
        offset = 0
        if found is None:
            for i, c in enumerate(token):
                if c in _SEPARATORS and i + 1 < len(token):
                    candidate = lookup(token[i + 1 :])
                    if candidate is not None and candidate[2]:
                        found, offset = candidate, i + 1
                        break
        if found is None:
            continue
        name, server, distinctive = found
        end = start + len(token)
        if distinctive or _in_tool_context(text, start, end):
            out.append(
                Hit(
                    "MCPL-INJ-040", start + offset, end, f"names tool {name!r} of server {server!r}"
                )
            )
