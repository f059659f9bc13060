"""The severity model: which structural change lands in which band, and why.

The closer a change is to text the model reads as guidance, or to what a tool may do, the
higher it grades. Each rule returns a :class:`Reason` with a stable category so a team's
policy can move a category to another band. Schemas are graded in ``schema_grade`` and text
edits in ``text_grade``; this module owns annotations, URIs, server identity and the item
level. Failure direction: when a change cannot be classified it is graded up
(``schema-changed`` medium, text ``description-changed`` high, a malformed annotation as its
spec default), never down; only edits proven cosmetic or equivalent are graded low.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

from mcplock_tui.core.canonical import canon_json
from mcplock_tui.core.diff import MISSING, Change, FieldChange
from mcplock_tui.core.grading.schema import FLAG, schema_reasons
from mcplock_tui.core.grading.schema_keywords import LISTED, OUTWARD, SWITCHED, VALUES_ADDED
from mcplock_tui.core.grading.text import (
    added_text_reason,
    classify_text,
    text_reason,
    title_reason,
)
from mcplock_tui.core.grading.text_delta import said_roots
from mcplock_tui.core.hosts import uri_hosts
from mcplock_tui.core.model import (
    ANNOTATION_DEFAULTS,
    JSON,
    PROMPT_MESSAGES_KEY,
    PROMPT_OVERFLOW_KEY,
    ChangeType,
    Kind,
    Reason,
    Severity,
)

__all__ = [
    "ANNOTATION_DEFAULTS",
    "CATEGORIES",
    "annotation_reasons",
    "classify_text",
    "effective_annotations",
    "field_reasons",
    "hosts_of",
    "schema_reasons",
    "structural_reasons",
]

C, H, M, L = Severity.CRITICAL, Severity.HIGH, Severity.MEDIUM, Severity.LOW

CATEGORIES: dict[str, str] = {
    "annotation-loosened": "a hint now claims less safety (readOnlyHint true to false: high; destructive, idempotent or open-world: medium); never critical",
    "annotation-tightened": "a hint now claims more safety (readOnlyHint to true: high, critical when the tool's own text says it acts, including a name that makes something such as open_pull_request or add_note, medium when its name says it reads; destructiveHint to false, idempotentHint to true or openWorldHint to false: medium, high when the text contradicts: a tool that rotates, revokes, deletes, unlocks, disarms or cuts off a supply, whose name makes a new thing each call, or whose text says a repeated call repeats its effect)",
    "annotation-changed": "another annotation key changed, or a hint was rewritten with the same effect (medium when the new value is not a boolean)",
    "tool-shadowing": "a new or renamed tool is named like another server's tool or a sibling, repeats a name, is renamed to a look-alike of itself, or a name mixes scripts or hides characters",
    "description-changed": "model-read text changed or added: high when the edit directs the model, sets conditions on the user, orders tool calls, claims authority, overrides earlier guidance, introduces a path, host, e-mail, secret name or code, adds capability words, flips a negation, modal, quantifier or number, or is in a language the grader cannot read; medium for a rewording",
    "description-removed": "a description was removed",
    "text-cosmetic": "whitespace, punctuation, case or typo-level edit",
    "title-changed": "a title or display name changed (medium when it grows into a sentence)",
    "parameter-added": "a new parameter or prompt argument (medium unless its name or description asks for something or lifts masking (reveal, full secret values), its values sort or filter people by a protected characteristic (age, gender), or it names where an acting tool's effect goes or more of its act, such as also_unlock; a true/false switch whose only signal is a scope word is medium on a tool that only reads, high on one that acts)",
    "parameter-removed": "a parameter or prompt argument was removed",
    "capability-widened": "required to optional, a confirmation or safety parameter (confirmed, dry_run, a const true) removed, a maximum raised or a floor dropped below zero (a lowered floor such as minimum 50 -> 10 or minLength is medium, high on a notice period or a count of approvers or witnesses), enum/const/pattern/format/length/range/multipleOf/uniqueItems loosened, type widened, a constraint dropped (also under $ref, allOf, not or if/then); medium for additionalProperties opened (high on a tool that sends, posts or invites), one more scalar type, a union alternative of a type no old alternative had (its fields graded as new optional parameters; high when a value becomes a list of them on a tool whose text says it acts, as each call can then name many targets), or an enum that keeps its values and gains plain ones (high for a value like all, public, admin, primary or production, one that names a secret such as a PIN, password or access code, or an unlock or disarm act, or on a parameter that says where an acting tool's effect goes; digits written onto a value's letters, as in pm25, are part of its name, not a number)",
    "capability-narrowed": "the opposite of widened",
    "default-changed": "a default or example value changed (high when its new text steers the model, when a default on a parameter that names where an acting tool's effect goes changes, when a true/false default flips on a tool that acts, or when a new default answers a confirmation or safety switch for the model (confirmed: true, dry_run: false) or names a wide target such as production or all on a tool that acts; an example that steers nowhere stays medium)",
    "schema-changed": "another schema keyword changed (low when only the spelling of the same constraints changed, high when a schema is not an object)",
    "output-schema-changed": "the output schema changed (medium; its text, and a new field whose name or text steers the model, keep their band; a new field named for medical, identity, payment or secret data is high)",
    "tool-added": "a new tool not marked read-only (high when its text names a side effect or it takes a URL or host, medium when it only returns or computes)",
    "tool-added-readonly": "a new tool claiming read-only (critical when its text says it acts, high when it takes a URL or host, its text says its input is executed or it returns environment variables or credentials, or its name does not say it reads, medium otherwise)",
    "prompt-added": "a new prompt, graded by its text",
    "resource-added": "a new resource on a known host",
    "resource_template-added": "a new resource template on a known host (high when it reads local files, takes any path through reserved expansion, or carries a secret in its query)",
    "host-added": "a new outbound host: a resource or template points at it, or a URL in any text or default names it",
    "uri-changed": "a resource URI changed on a known host (high when its scheme changes or a template now takes any path or carries a secret, low for http to https)",
    "tool-removed": "a tool was removed",
    "prompt-removed": "a prompt was removed",
    "resource-removed": "a resource was removed",
    "resource_template-removed": "a resource template was removed",
    "instructions-removed": "the server instructions were removed",
    "renamed": "a tool, prompt or resource was renamed (high when a tool whose name acts is renamed to a name that reads)",
    "metadata-changed": "icons, size, mimeType or execution changed (low); _meta or an unknown key changed (medium)",
    "server-version": "the server's version changed",
    "server-identity": "the server's name changed",
    "server-metadata": "other server info, protocol version or capabilities changed (medium for a downgrade or a gained change notification)",
    "launch-changed": "the launch command or URL changed, or a sealed hidden part of it (a redacted argument, an env or header value, the working directory); --check does not start such a server",
    "analysis-capped": "text too long to analyse whole, or the server's analysis budget was spent: graded high, never a silent pass",
    "probe-mismatch": "with --probe: the server answered a common client's identity, or a second listing, differently (critical)",
    "changed": "anything else",
}
"""Every reason category the model emits; a policy may move any of them to another band."""

_LOOSEN_BAND = {"readOnlyHint": C, "destructiveHint": C, "idempotentHint": H, "openWorldHint": H}
_GAINED_CAPABILITY = frozenset({"listChanged", "subscribe", "experimental", "extensions", "tasks"})
"""Capabilities that let a server act after it was checked (change lists, push, run tasks)."""


def _raw_annotations(item: Mapping[str, JSON] | None) -> dict[str, Any]:
    raw = (item or {}).get("annotations")
    return raw if isinstance(raw, dict) else {}


def effective_annotations(item: Mapping[str, JSON] | None) -> dict[str, bool]:
    ann = _raw_annotations(item)
    return {
        key: value if isinstance(value := ann.get(key), bool) else default
        for key, default in ANNOTATION_DEFAULTS.items()
    }


def _shown(value: Any) -> str:
    if value is MISSING:
        return "(absent)"
    text = json.dumps(value)  # ASCII-escaped: no hidden character reaches a message
    return text if len(text) <= 40 else text[:39] + "…"


_WORD_SPLIT = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+")
_ACTS = re.compile(
    r"\b(?:writes?|writing|close[sd]?|closing|export(?:s|ing)?|edit(?:s|ing)?|create[sd]?|creating|update[sd]?|updating|delete[sd]?|"
    r"deleting|remove[sd]?|removing|move[sd]?|moving|rename[sd]?|send(?:s|ing)?|sent|post(?:s|ing)?|"
    r"push(?:es|ing)?|upload(?:s|ing)?|execute[sd]?|executing|exec|run(?:s|ning)?|install(?:s|ing)?|"
    r"modif(?:y|ies|ying)|overwrite[sd]?|insert(?:s|ing)?|drop(?:s|ping)?|kill(?:s|ing)?|"
    r"deploy(?:s|ing)?|publish(?:es|ing)?|pay(?:s|ing)?|transfer(?:s|ring)?|cancel(?:s|ling|ing)?|"
    r"archive[sd]?|commit(?:s|ting)?|merge[sd]?|put(?:s|ting)?|patch(?:es|ing)?|erase[sd]?|"
    r"purge[sd]?|destroy(?:s|ing)?|submit(?:s|ting)?|invite[sd]?|share[sd]?|forward(?:s|ing)?|"
    r"e-?mails?|save[sd]?|saving|append(?:s|ing)?|set(?:s|ting)?|start(?:s|ing)?|trigger(?:s|ing)?|"
    r"launch(?:es|ing)?|stop(?:s|ping)?|restart(?:s|ing)?|notif(?:y|ies|ying)|schedule[sd]?|"
    r"approve[sd]?|revoke[sd]?|grant(?:s|ing)?|assign(?:s|ing)?|enable[sd]?|disable[sd]?|"
    r"reset(?:s|ting)?|rollback|revert(?:s|ing)?|reboot(?:s|ing)?|shutdown|terminate[sd]?|"
    r"sign(?:s|ing)?|charge[sd]?|refund(?:s|ing)?|buy(?:s|ing)?|purchase[sd]?|book(?:s|ing)?|"
    r"rotate[sd]?|renew(?:s|ing)?|regenerate[sd]?|reissue[sd]?|scale[sd]?|restore[sd]?|"
    r"unlock(?:s|ed|ing)?|disarm(?:s|ed|ing)?|reject(?:s|ing)?|truncate[sd]?|truncating|"
    r"empt(?:y|ies|ying)|wipe[sd]?|wiping|flush(?:es|ing)?|suspend(?:s|ing)?|ban(?:s|ning)?)\b"
)
"""Words by which a tool's own text says it changes or sends something."""
_DESTROYS = re.compile(
    r"\b(?:delete[sd]?|deleting|remove[sd]?|removing|overwrite[sd]?|drop(?:s|ping)?|erase[sd]?|"
    r"purge[sd]?|destroy(?:s|ing)?|cancel(?:s|led|ling)?|kill(?:s|ing)?|wipe[sd]?|permanent(?:ly)?|"
    r"irreversibl[ey]|cannot be undone|unlock(?:s|ed|ing)?|disarm(?:s|ed|ing)?|truncate[sd]?|rotate[sd]?|rotating|revoke[sd]?|revoking|"
    # A supply or a service cut off: "remote_disconnect cuts the supply at the meter".
    r"disconnect(?:s|ed|ing)?|cuts? (?:off )?(?:the |their |a )?(?:supply|power|water|gas|"
    r"electricity|service|access|connection)|shuts? (?:off|down) (?:the |their |a )?\w+|"
    r"invalidate[sd]?|invalidating|close[sd]? (?:the|a|an|its|their|any|all)|stops? working|no longer works?|replace[sd]? (?:the )?(?:live|"
    r"existing|current)|(?:are|is|be|get|gets) (?:\S+ )?(?:replaced|overwritten|lost|discarded|"
    r"wiped)|over the (?:live|existing|current))\b"
)
"""Words by which a tool says it destroys: a rotated or revoked secret stops working; an
unlocked door or a disarmed alarm drops a physical protection."""
_OUTWARD = re.compile(
    r"\b(?:web|internet|urls?|https?|fetch(?:es)?|external|remote|e-?mails?|webhooks?|network|"
    r"online|download(?:s)?|upload(?:s)?|websites?|pages? on|invit(?:es?|ations?|ing|ees?)|"
    r"sms|text messages?|posts?|publish(?:es)?|slack)\b"
)
"""Words by which a tool says it reaches people or systems outside: e-mail, invitations.
Not a bare "sends": MCP tools send progress notifications and elicitations to the client."""
_SENDS = re.compile(
    r"send(?:s|ing)?|sent|e-?mails?|mails?|post(?:s|ing)?|publish(?:es|ing)?|upload(?:s|ing)?|"
    r"forward(?:s|ing)?|share[sd]?|invite[sd]?|notif(?:y|ies|ying)|transfer(?:s|ring)?|"
    r"pay(?:s|ing)?|submit(?:s|ting)?"
)
"""Acts whose effect leaves the system: where they go is the whole risk."""
_READS = re.compile(
    r"^(?:get|list|read|search|find|query|describe|show|view|count|lookup|look|fetch|browse|print|"
    r"inspect|check|explain|resolve|retrieve|open|stat|tree|summari[sz]e|validate|compute|"
    r"calculate|convert|format|parse|echo|sum|return|lookup|analy[sz]e|diff|preview)$"
)
_MAKES = re.compile(
    r"^(?:add|attach|open|file|create|post|send|submit|append|insert|new|comment|raise|log|"
    r"enqueue|book|charge|pay|invite|notify|publish|e-?mail|reply|register|lodge|place|issue|"
    r"schedule|request|reserve|dispatch|enrol{1,2}|take|make)$"
)
"""Name verbs for acts that make something new each call: a pull request opened, a note
added, a ticket filed. Such a tool is neither read-only nor idempotent."""
_MADE = re.compile(
    r"^(?:pull|merge|pr|mr|issue|ticket|case|incident|note|comment|review|request|account|"
    r"order|session|thread|discussion|tab|window|page|port|position|draft|report|entry|task|"
    r"item|record|label|tag|reaction|observation|relation|entity|entities|observations|"
    r"relations|branch|release|job|event|message|reply|invite|claim|declaration|complaint|"
    r"dispute|application|appeal|booking|reservation|appointment|payment|refund|invoice|"
    r"shipment|return|form|filing|submission|petition|notice|refill|credit|voucher|token|"
    r"certificate|reminder)s?$"
)
"""Things such a verb makes: ``open_pull_request`` acts, ``open_nodes`` or ``open_file`` reads."""


_REPEATS = re.compile(
    r"\b(?:each|every) (?:call|request|run|time|invocation)\b[^.;]{0,60}?\b(?:again|another|anew|"
    r"a new|a second|once more)\b"
    r"|\bcall(?:ing|ed)? (?:it |this tool )?(?:twice|again|more than once)\b[^.;]{0,40}?\b(?:charges?|"
    r"sends?|creates?|books?|pays?|files?|debits?|posts?|orders?)\b"
)
"""A tool's text saying a repeated call repeats its effect ("each call charges the card
again"): not idempotent."""


def makes(item: Mapping[str, JSON] | None) -> list[str]:
    """Name verbs by which the tool says each call makes something new (``add_note``).

    ``open`` and ``file`` count only before an object such a verb makes (within the next
    three words), and a bare ``add``
    (sum two numbers) does not: the verb needs its object.
    """
    name = str((item or {}).get("name") or "")
    parts = [w.lower() for w in _WORD_SPLIT.findall(name)]
    if len(parts) < 2 or not _MAKES.match(parts[0]):
        return []
    if parts[0] in _NEEDS_OBJECT and not any(map(_MADE.match, parts[1:4])):
        return []  # ``file_customs_declaration``: the object may follow a qualifier
    return [parts[0]]


_NEEDS_OBJECT = frozenset(
    ["open", "file", "log", "new", "register", "place", "issue", "schedule", "take", "make"]
)
"""Name verbs that are nouns or reads too (``open_file``, ``issue_list``): they make
something only before a thing such a verb makes."""


_REDIRECT_PARAM = re.compile(
    r"^(?:recipients?|to|cc|bcc|reply|destinations?|dest|targets?|urls?|uris?|webhooks?|hosts?|"
    r"hostnames?|paths?|endpoints?|address(?:es)?|emails?|phone|number|channels?|callbacks?|"
    r"redirect|forward|server|domain|bucket|mirror(?:s|ing)?|relay|copy|sink|hooks?|"
    r"upstream|proxy|notify|payees?|beneficiar(?:y|ies)|payouts?|iban|bank|wallet|routing)$"
)
"""Parameter name words that say where a side effect goes (to, cc, webhook, path)."""
_URL_PARAM = re.compile(
    r"^(?:urls?|uris?|links?|href|endpoints?|hosts?|hostnames?|domains?|webhooks?|servers?|"
    r"callback|redirect|origin|remote|proxy)$"
)


def _tool_words(item: Mapping[str, JSON] | None) -> tuple[list[str], str]:
    """(the words of the tool's name and parameter names, its description) casefolded."""
    item = item or {}
    names = [str(item.get("name") or "")]
    schema = item.get("inputSchema")
    props = schema.get("properties") if isinstance(schema, dict) else None
    if isinstance(props, dict):
        names.extend(str(k) for k in props)
    words = [w.lower() for n in names for w in _WORD_SPLIT.findall(n)]
    desc = item.get("description")
    return words, (desc if isinstance(desc, str) else "")[:4096].casefold()


_LEADING_VERB = re.compile(r"(?:^|[.!?]\s+|\n\s*)(?:also\s+|then\s+)?([a-z]+)")

_CHANGES_STATE = re.compile(
    r"(?:adjust|void|revers|withdraw|reassign|allocat|deallocat|apply|appli|waiv|overrid|"
    r"upsert|increment|decrement|promot|demot|provision|deprovision|activat|deactivat|"
    r"reactivat|replac|correct|amend|freez|unfreez|block|unblock|escalat|reopen|finali[sz]|"
    r"confirm|accept|declin|deny|deni|mute|unmute|pause|resum|releas|chang|lock|clear|mark|"
    r"link|unlink|flag|unflag|credit|debit|refill|dispens|expel|suspend|reinstat|enforc|"
    r"impos|lift)(?:e|es|s|ies|ed)?"
)
"""Stems of verbs that change a record's state (``void_invoice``, "Releases the hold"):
counted as the name's first word, or leading a description sentence before its object."""
_READ_NOUN = re.compile(
    r"^(?:notes?|logs?|history|histories|status|statuses|list|lists|info|details?|summary|"
    r"summaries|report|reports|preview|count|stats|feed|requests?|rules?|types?|reasons?|"
    r"codes?|options?|schedule|calendar|dates?|filters?)$"
)
"""What follows a name's first word when that word is a noun: ``release_notes``,
``change_log``, ``lock_status``."""
_OBJECT_AFTER = re.compile(r"\s+(?:the|a|an|its|their|one|each|every|all|any|this|that)\b")


def _changes_state(parts: list[str], first: str) -> list[str]:
    """The name's first word or the description's leading verb when it changes state."""
    found = []
    noun = len(parts) > 1 and _READ_NOUN.match(parts[1])
    if parts and _CHANGES_STATE.fullmatch(parts[0]) and not noun:
        found.append(parts[0])
    for m in _LEADING_VERB.finditer(first):
        if _CHANGES_STATE.fullmatch(m.group(1)) and _OBJECT_AFTER.match(first, m.end()):
            found.append(m.group(1))
    return found


def acts(item: Mapping[str, JSON] | None) -> list[str]:
    """Words by which the tool's own name or description says it writes, sends or runs.

    The name's words count anywhere (``send_receipt``); the description's only where a
    sentence starts with the verb ("Deletes the record."), so "lists files updated today"
    does not count.
    """
    name = str((item or {}).get("name") or "")
    parts = [w.lower() for w in _WORD_SPLIT.findall(name)]
    if parts and _READS.match(parts[0]):
        parts = []  # get_run, list_deployments: what follows a reading verb is its object
    found = [w for w in parts if _ACTS.fullmatch(w) and not w.endswith("ing")]  # long-running
    _, desc = _tool_words(item)
    first = re.split(r"(?<=[.!?])\s|\n", desc, maxsplit=1)[0]  # what the tool does
    found += [
        m.group(1)
        for m in _LEADING_VERB.finditer(first)
        if _ACTS.fullmatch(m.group(1)) and m.group(1) not in ("set", "sets", "put", "puts")
    ]
    found += _changes_state(parts, first)
    return list(dict.fromkeys(makes(item) + found))


def _destroys(item: Mapping[str, JSON] | None) -> list[str]:
    words, desc = _tool_words(item)
    return list(
        dict.fromkeys([w for w in words if _DESTROYS.fullmatch(w)] + _DESTROYS.findall(desc))
    )


_SENDS_OUT = re.compile(
    r"^(?:send|text|sms|e-?mail|mail|message|invite|forward|share|post|publish|notify|remind|"
    r"call|fax|page)$"
)
"""Name verbs that reach a person: ``send_pickup_reminder``, ``email_invoice``."""
_IN_PROCESS = re.compile(r"^(?:progress|logs?|heartbeat|ping|keepalive|signal|metrics?)$")
"""What a send reaches inside the session: MCP progress and log notifications."""
_SENDS_TO = re.compile(
    r"\b(?:sends?|e-?mails?|texts?|messages?|delivers?|forwards?|notif(?:y|ies)|reminds?)\b"
    r"[^.;\n]{0,80}?\bto (?:the |a |an |each |every |their |its |his |her )?(?:\S+'s )?"
    r"(?:\S+ )?(?:contacts?|customers?|recipients?|clients?|patients?|members?|owners?|"
    r"people|persons?|employees?|staff|candidates?|parents?|students?|guests?|attendees?|"
    r"suppliers?|vendors?|shippers?|consignees?|carriers?|drivers?|tenants?|buyers?|sellers?|"
    r"payees?|phones?|inbox(?:es)?|addresses|numbers?)\b"
)
"""A tool's own text saying it reaches a person: "sends a reminder to the patient's phone"."""


def _outward(item: Mapping[str, JSON] | None) -> list[str]:
    words, desc = _tool_words(item)
    found = [w for w in words if _OUTWARD.fullmatch(w)] + _OUTWARD.findall(desc)
    name = [w.lower() for w in _WORD_SPLIT.findall(str((item or {}).get("name") or ""))]
    if len(name) > 1 and _SENDS_OUT.match(name[0]) and not _IN_PROCESS.match(name[1]):
        found.append(name[0])
    found += [m.group(0) for m in _SENDS_TO.finditer(desc)]
    # A parameter's own words are the tool's text too: "text added to the reminder SMS".
    found += [w for text in _param_texts(item) for w in _OUTWARD_PARAM.findall(text)]
    return list(dict.fromkeys(found))


_OUTWARD_PARAM = re.compile(
    r"\b(?:e-?mails?|sms|text messages?|webhooks?|internet|https?://|urls?)\b"
)
"""In a parameter's text only the means of reaching out count: a ``location`` that may be
"remote" names a job, not the network."""


def _param_texts(item: Mapping[str, JSON] | None) -> list[str]:
    schema = (item or {}).get("inputSchema")
    props = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(props, dict):
        return []
    return [
        sub["description"][:1024].casefold()
        for sub in list(props.values())[:64]
        if isinstance(sub, dict) and isinstance(sub.get("description"), str)
    ]


def takes_locations(item: Mapping[str, JSON] | None) -> list[str]:
    """Parameters that take a URL, host or link (by name, format or description)."""
    schema = (item or {}).get("inputSchema")
    props = schema.get("properties") if isinstance(schema, dict) else None
    found: list[str] = []
    for name, sub in (props or {}).items() if isinstance(props, dict) else ():
        words = [w.lower() for w in _WORD_SPLIT.findall(str(name))]
        desc = sub.get("description", "") if isinstance(sub, dict) else ""
        fmt = sub.get("format") if isinstance(sub, dict) else None
        if _scalar_only(sub):
            continue  # a flag or a count cannot carry a URL, whatever its text mentions
        if (
            any(_URL_PARAM.match(w) for w in words)
            or fmt in ("uri", "url", "iri", "hostname", "uri-reference")
            or (
                isinstance(desc, str)
                and re.search(r"\b(?:url|uri|link|address of|host)\b", desc.casefold())
            )
        ):
            found.append(str(name))
    return found


_NO_TEXT_TYPES = frozenset({"boolean", "integer", "number", "null"})


def _scalar_only(schema: Any) -> bool:
    """The schema admits only booleans, numbers or null (its declared ``type`` says so)."""
    raw = schema.get("type") if isinstance(schema, dict) else None
    listed = raw if isinstance(raw, list) else [raw]
    types = {t for t in listed if isinstance(t, str)}
    if len(types) < len(listed):
        return False  # something other than a type name: read as any type
    return bool(types) and types <= _NO_TEXT_TYPES


_COMPOUND_READ = re.compile(
    r"^(?:get|list|read|search|find|query|describe|show|view|fetch|lookup|count)[a-z]{3,}$"
    r"|^[a-z]{3,}(?:thinking|reasoning|planning|analysis|lookup|search|viewer|reader|status)$"
)
"""A name written as one lowercase word that starts with a reading verb or ends in one."""


def _reads(item: Mapping[str, JSON] | None) -> list[str]:
    """Words by which the tool's name (or its description's first verb) says it reads."""
    words, desc = _tool_words(item)
    name = str((item or {}).get("name") or "")
    found = [w for w in words[: len(_WORD_SPLIT.findall(name))][:3] if _READS.match(w)]
    if name.isascii() and name.isalpha() and name.islower() and _COMPOUND_READ.match(name):
        found.append(name)  # "sequentialthinking", "getweather": one word, read by its parts
    first = _LEADING_VERB.match(desc)
    verb = first.group(1) if first else ""
    if verb and any(_READS.match(v) for v in (verb, verb[:-1], verb[:-2])):
        found.append(verb)
    return found


_EXECUTES_OR_DUMPS = re.compile(
    r"\b(?:is|are|gets?|being|be) (?:\S+ )?(?:executed|run|evaluated|applied|committed)\b"
    r"|\bexecut(?:es|ed|ing)\b|\bevaluat(?:es|ed|ing)\b"
    r"|\b(?:script|code|commands?|statements?|query|sql|expressions?|input|program) (?:\S+ )?"
    r"(?:runs|gets run|executes)\b"
    r"|\b(?:environment|env) (?:variables?|vars?)\b|\bsecret values?\b|\bcredentials?\b"
    r"|\bprivate keys?\b|\bapi keys?\b|\b(?:access|auth|bearer|refresh|api) tokens?\b"
    r"|\bpasswords?\b|\bconnection strings?\b|\bclient secrets?\b|\bsigning keys?\b"
)
_KEPT_BACK = re.compile(r"\b(?:mask\w*|redact\w*|never|not|no|without|omit\w*|hid\w*)\b")
"""Words anywhere in a tool's text that say a call runs its input, or returns the secrets
of the process: a read-only claim beside them is not what a client auto-approves."""


def _executes_or_dumps(item: Mapping[str, JSON] | None) -> list[str]:
    _, desc = _tool_words(item)
    found = [
        m.group(0)
        for m in _EXECUTES_OR_DUMPS.finditer(desc)
        # "secret names, values masked", "never returns passwords": kept back, not dumped.
        if not _KEPT_BACK.search(desc[max(0, m.start() - 40) : m.end() + 40])
    ]
    return list(dict.fromkeys(found))[:3]


def _named(words: list[str]) -> str:
    return ", ".join(repr(w) for w in words[:3])


def _claim_reason(key: str, shown: str, path: str, new: Mapping[str, JSON] | None) -> Reason:
    """A hint now claims the tool is safer: clients act on it, so it must match the text."""
    if key == "readOnlyHint":
        lie = acts(new)
        if lie:
            return Reason(
                "annotation-tightened",
                C,
                f"{shown}, but the tool's own text says it acts ({_named(lie)}): "
                "clients auto-approve read-only tools",
                path,
            )
        where = takes_locations(new)
        if where:
            return Reason(
                "annotation-tightened",
                H,
                f"{shown} on a tool that takes a URL or host ({_named(where)}): clients may "
                "now send its requests without asking",
                path,
            )
        reads = _reads(new)
        if reads:
            return Reason(
                "annotation-tightened",
                M,
                f"{shown}: consistent with its name ({_named(reads)}); clients may now run it "
                "without asking",
                path,
            )
        return Reason(
            "annotation-tightened",
            H,
            f"{shown}: clients may now run it without asking, and nothing in its name says it "
            "only reads",
            path,
        )
    if key == "destructiveHint":
        if effective_annotations(new)["readOnlyHint"]:
            return Reason(
                "annotation-changed", L, f"{shown} (ignored: the tool is read-only)", path
            )
        said = _destroys(new)
        if said:
            return Reason(
                "annotation-tightened",
                H,
                f"{shown}, but the tool's own text says it destroys ({_named(said)})",
                path,
            )
    if key == "idempotentHint":
        made = makes(new)
        again = _REPEATS.search(_tool_words(new)[1])
        if again and not made:
            return Reason(
                "annotation-tightened",
                H,
                f"{shown}, but the tool's own text says a repeated call repeats its effect "
                f"({again.group(0)[:50]!r}): a client may retry it",
                path,
            )
        if made:
            return Reason(
                "annotation-tightened",
                H,
                f"{shown}, but the tool's own name says each call makes a new one "
                f"({_named(made)}): a client may retry it",
                path,
            )
    if key == "openWorldHint":
        said = _outward(new)
        if said:
            return Reason(
                "annotation-tightened",
                H,
                f"{shown}, but the tool's own text reaches outside ({_named(said)})",
                path,
            )
    return Reason("annotation-tightened", M, f"{shown}: a claim of safety to check", path)


def _caution_reason(key: str, shown: str, path: str) -> Reason:
    """A hint now claims less safety: honest, but the behaviour may have widened."""
    if key == "readOnlyHint":
        return Reason(
            "annotation-loosened",
            H,
            f"{shown}: the tool may now change things; review what it does",
            path,
        )
    return Reason("annotation-loosened", M, f"{shown}: the tool may now do more", path)


def annotation_reasons(
    old: Mapping[str, JSON] | None, new: Mapping[str, JSON] | None
) -> Iterator[Reason]:
    ra, rb = _raw_annotations(old), _raw_annotations(new)
    a, b = effective_annotations(old), effective_annotations(new)
    for key, loose in ANNOTATION_DEFAULTS.items():
        path = f"annotations.{key}"
        before, after = ra.get(key, MISSING), rb.get(key, MISSING)
        shown = f"{key} {json.dumps(a[key])} -> {json.dumps(b[key])}"
        if not isinstance(after, bool) and after is not MISSING:
            shown += f" ({_shown(after)} is not a boolean: read as the spec default)"
        if a[key] != b[key] and b[key] != loose:
            yield _claim_reason(key, shown, path, new)
        elif a[key] != b[key] and key == "destructiveHint" and b["readOnlyHint"]:
            yield Reason("annotation-changed", L, f"{shown} (ignored: tool stays read-only)", path)
        elif a[key] != b[key]:
            yield _caution_reason(key, shown, path)
        elif _cj(before) != _cj(after):
            raw = f"{key} {_shown(before)} -> {_shown(after)}"
            if after is MISSING or after is None or isinstance(after, bool):
                yield Reason("annotation-changed", L, f"{raw}: same effect", path)
            else:
                yield Reason(
                    "annotation-changed",
                    M,
                    f"{raw}: not a boolean, graded as the default {json.dumps(loose)}; "
                    "clients may read it either way",
                    path,
                )
    for key in sorted((set(ra) | set(rb)) - set(ANNOTATION_DEFAULTS)):
        before, after = ra.get(key, MISSING), rb.get(key, MISSING)
        if _cj(before) == _cj(after):
            continue
        path = f"annotations.{key}"
        if key == "title":
            yield title_reason(path, before, after, "annotation 'title'")
        else:
            yield Reason("annotation-changed", M, f"annotation {key!r} changed", path)


def _cj(value: Any) -> str | None:
    return None if value is MISSING else canon_json(value)


def hosts_of(value: Any) -> set[str]:
    """The network host of a URI; a custom scheme (``memory://graph``) names none."""
    return uri_hosts(value)


def _scheme(value: Any) -> str:
    if not isinstance(value, str):
        return ""
    try:
        return urlsplit(value).scheme.lower()
    except ValueError:
        return ""


def _host_is_variable(value: Any) -> bool:
    """``https://{tenant}.example.com/...``: the host is filled in at request time."""
    if not isinstance(value, str):
        return False
    try:
        return "{" in urlsplit(value).netloc
    except ValueError:
        return True


def _uri_reasons(f: FieldChange, top: str, known_hosts: set[str]) -> Iterator[Reason]:
    new_hosts = hosts_of(f.new) - hosts_of(f.old) - known_hosts
    old_scheme, new_scheme = _scheme(f.old), _scheme(f.new)
    if new_hosts:
        variable = " (a template variable: any host)" if _host_is_variable(f.new) else ""
        shown = ", ".join(sorted(new_hosts))
        yield Reason("host-added", H, f"now points at new host {shown}{variable}", f.path)
    elif old_scheme != new_scheme and (old_scheme, new_scheme) == ("http", "https"):
        yield Reason("uri-changed", L, f"{top} upgraded from http to https", f.path)
    elif old_scheme != new_scheme:
        yield Reason(
            "uri-changed",
            H,
            f"{top} scheme changed from {old_scheme or 'none'!r} to {new_scheme or 'none'!r}",
            f.path,
        )
    elif (reach := _template_reach(f.new)) and reach != _template_reach(f.old):
        yield Reason("uri-changed", H, f"{top} now {reach}", f.path)
    else:
        yield Reason("uri-changed", M, f"{top} changed", f.path)


def _server_reasons(f: FieldChange) -> Iterator[Reason]:
    top = f.path.partition(".")[0]
    if f.path == "serverInfo.version":
        yield Reason("server-version", L, f"server version {f.old!r} -> {f.new!r}", f.path)
    elif f.path == "serverInfo.name":
        yield Reason("server-identity", M, f"server name {f.old!r} -> {f.new!r}", f.path)
    elif top == "launch":
        yield Reason("launch-changed", L, "launch command changed", f.path)
    elif f.path in ("serverInfo.description", "serverInfo.title"):
        # Shown to people more than to models: a meaning change is worth a look, not a failure.
        r = text_reason(f.path, f.old, f.new, f.path)
        yield Reason(r.category, min(r.severity, M), r.message, r.path)
    elif (
        top == "protocolVersion"
        and isinstance(f.old, str)
        and isinstance(f.new, str)
        and f.new < f.old  # protocol versions are ISO dates
    ):
        yield Reason("server-metadata", M, f"protocol downgraded {f.old!r} -> {f.new!r}", f.path)
    elif (
        top == "capabilities"
        and f.new not in (MISSING, None, False)
        and f.old in (MISSING, None, False)
        and (_GAINED_CAPABILITY & set(f.path.split(".")) or _GAINED_CAPABILITY & _keys(f.new))
    ):
        yield Reason(
            "server-metadata",
            M,
            f"{f.path} gained: the server may change what it offers after it was checked",
            f.path,
        )
    else:
        yield Reason("server-metadata", L, f"{f.path} changed", f.path)


def _keys(value: Any) -> set[str]:
    """Every key in a nested JSON value, so a capability gained as a whole object counts."""
    if isinstance(value, dict):
        return set(value).union(*(_keys(v) for v in value.values()))
    return set()


def field_reasons(change: Change, f: FieldChange, known_hosts: set[str]) -> Iterator[Reason]:
    """Reasons for one moved field of a modified or renamed item."""
    top = f.path.partition(".")[0].split("[")[0]
    kind = change.kind
    if kind is Kind.SERVER:
        yield from _server_reasons(f)
        return
    known = frozenset(known_hosts)
    if kind is Kind.INSTRUCTIONS:
        yield text_reason(f.path, f.old, f.new, "server instructions", known_hosts=known)
        return
    if top == "description":
        # A prompt is a request the user picks: its verbs ("write a reply") are its job. A
        # resource is a document: its description says what it covers ("who may share
        # what"); orders, claims and places in it still count.
        ignore = (
            ("capability",) if kind in (Kind.PROMPT, Kind.RESOURCE, Kind.RESOURCE_TEMPLATE) else ()
        )
        yield text_reason(f.path, f.old, f.new, f"{kind.value} description", ignore, known)
    elif top == "title":
        name = (change.new or {}).get("name")
        yield title_reason(f.path, f.old, f.new, "title", name if isinstance(name, str) else "")
    elif top == "name":
        yield Reason("title-changed", L, "name changed", f.path)
    elif top == "_meta":
        # Extension keys clients act on (UI resources, output templates): worth a look.
        yield Reason(
            "metadata-changed", M, "_meta changed: extension keys clients may act on", f.path
        )
    elif top in ("icons", "size", "mimeType", "execution"):
        yield Reason("metadata-changed", L, f"{top} changed", f.path)
    elif top in ("uri", "uriTemplate"):
        yield from _uri_reasons(f, top, known_hosts)
    elif kind is Kind.PROMPT and top == PROMPT_MESSAGES_KEY:
        what = "prompt message text"
        yield text_reason(f.path, _message_text(f.old), _message_text(f.new), what)
    elif kind is Kind.PROMPT and top == PROMPT_OVERFLOW_KEY:
        yield Reason(
            "description-changed", H, "prompt messages changed beyond the captured part", f.path
        )
    elif kind is Kind.PROMPT and top == "arguments":
        yield from _argument_reasons(f)
    elif top in ("annotations", "inputSchema", "outputSchema"):
        return  # handled per item, not per leaf
    elif _strings_in(f.new):
        # A field this model does not know (prompt messages, a new spec field) may still be
        # text a model reads: graded like a description, never below medium.
        old_text = "\n".join(_strings_in(f.old)) or None
        r = text_reason(f.path, old_text, "\n".join(_strings_in(f.new)), f"field {f.path!r}")
        yield Reason(r.category, max(r.severity, M), r.message, f.path)
    else:
        yield Reason("metadata-changed", M, f"field {f.path!r} changed", f.path)


def _strings_in(value: Any, depth: int = 0) -> list[str]:
    if isinstance(value, str):
        return [value] if value else []
    if depth > 30:
        return []
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings_in(v, depth + 1)]
    if isinstance(value, list):
        return [s for v in value for s in _strings_in(v, depth + 1)]
    return []


def _message_text(value: Any) -> str | None:
    """The text of a prompt message (or part of one): every string in it, in order."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict | list):
        parts: list[str] = []
        stack: list[Any] = [value]
        while stack:
            node = stack.pop()
            if isinstance(node, str):
                parts.append(node)
            elif isinstance(node, dict):
                stack.extend(reversed(list(node.values())))
            elif isinstance(node, list):
                stack.extend(reversed(node))
        return "\n".join(parts) or None
    return None


def _argument_reasons(f: FieldChange) -> Iterator[Reason]:
    path = f.path
    if path == "arguments":
        # Not a list of uniquely named arguments on one side: nothing can be matched.
        yield Reason("changed", H, "prompt arguments changed and cannot be matched by name", path)
    elif path.endswith("]") and f.old is MISSING:
        arg = f.new if isinstance(f.new, dict) else {}
        text = ". ".join(str(arg.get(k)) for k in ("name", "description") if arg.get(k))
        r = added_text_reason(path, text, "new prompt argument") if text else None
        if arg.get("required") is True or r is None or r.severity >= H:
            yield Reason("parameter-added", H, r.message if r else "new prompt argument", path)
        else:
            yield Reason(
                "parameter-added", M, "new optional prompt argument: asks for nothing new", path
            )
    elif path.endswith("]") and f.new is MISSING:
        yield Reason("parameter-removed", M, "prompt argument removed", path)
    elif path.endswith(".description"):
        yield text_reason(path, f.old, f.new, "prompt argument description")
    elif path.endswith(".title"):
        yield title_reason(path, f.old, f.new, "prompt argument title")
    elif path.endswith(".required"):
        before, after = f.old is True, f.new is True  # absent, null or non-boolean: optional
        if before == after:
            yield Reason(
                "schema-changed", L, "prompt argument required flag rewritten, same effect", path
            )
        elif after:
            yield Reason("capability-narrowed", M, "prompt argument now required", path)
        else:
            yield Reason("capability-widened", H, "prompt argument no longer required", path)
    else:
        yield Reason("metadata-changed", M, f"{path} changed", path)


def _redirects(reason: Reason) -> bool:
    """A new parameter whose name says where a side effect goes (``bcc``, ``webhook_url``),
    or a default now filled in for one (every call copies to it unless the model says not)."""
    if not reason.path:
        return False
    parts = reason.path.split(".")
    if reason.category == "parameter-added":
        name = parts[-1]
    elif (
        reason.category == "default-changed"
        or (reason.message.startswith(VALUES_ADDED) and OUTWARD in reason.message)
    ) and "properties" in parts[:-1]:
        last = max(i for i, part in enumerate(parts[:-1]) if part == "properties")
        name = parts[last + 1]
    else:
        return False
    if parts[-1] == "examples" and reason.severity < H:
        return False  # an example whose text steers nowhere shows a value; it sets none
    return any(_REDIRECT_PARAM.match(w.lower()) for w in _WORD_SPLIT.findall(name))


_MORE = frozenset(["also", "extra", "additional", "other", "others", "more"])


def _more_targets(reason: Reason, does: list[str]) -> bool:
    """A new optional parameter named for more of the tool's own act (``also_unlock``,
    ``extra_delete``): each call can now act on targets the user did not name."""
    if reason.category != "parameter-added" or not reason.path:
        return False
    words = {w.lower() for w in _WORD_SPLIT.findall(reason.path.split(".")[-1])}
    return bool(words & _MORE) and any(w[:5] == a[:5] for w in words for a in does)


def _acting_input(reasons: list[Reason], does: list[str]) -> Iterator[Reason]:
    """Input widenings kept medium on a tool that only reads are high on one that acts.

    A new optional parameter that redirects the effect (a recipient, a destination, a
    webhook) or is named for more of the act (``also_unlock``) on any tool that acts; undeclared keys accepted on a tool whose effect leaves
    the system (sends, posts, invites), where an extra ``cc`` or ``attachments`` key goes
    out with it. Undeclared keys opened on a tool that creates or deletes stay medium:
    schema generators drop ``additionalProperties: false`` in routine releases.
    """
    sends = [w for w in does if _SENDS.fullmatch(w)]
    for r in reasons:
        opened = r.category == "capability-widened" and r.message.startswith("opened:")
        switch = (
            (r.category == "parameter-added" and FLAG in r.message)
            or (r.category == "default-changed" and SWITCHED in r.message)
            or (r.message.startswith(VALUES_ADDED) and OUTWARD in r.message and _redirects(r))
        )
        more = does and (_more_targets(r, does) or LISTED in r.message)
        if r.severity == M and ((opened and sends) or (does and (_redirects(r) or switch or more))):
            why = f"on a tool whose own text says it acts ({_named(sends if opened else does)})"
            yield Reason(r.category, H, f"{r.message}, {why}", r.path)
        else:
            yield r


_SENSITIVE_FIELD = re.compile(
    r"medical|health|diagnos|medication|prescription|disabilit|clinical|"
    r"ssn|social_?security|national_?(?:insurance|id)|passport|tax_?id|"
    r"card_?(?:number|no|pan)|\bpan\b|cvv|cvc|iban|account_?number|password|passcode|secret|"
    r"api_?key|token|credential|biometric|religio|ethnic|sexual|criminal|immigration",
    re.I,
)
"""Field names for special-category, identity, payment or secret data."""


def _sensitive_field(name: str) -> bool:
    """``medical_condition``, ``card_number``; not a paging ``next_page_token``."""
    return bool(_SENSITIVE_FIELD.search(name)) and not _PAGING.search(name)


_PAGING = re.compile(r"page|cursor|next|continuation|count|has_|is_|_at$|expir", re.I)


def _field_name(r: Reason) -> str:
    return (r.path or "").rpartition(".")[2]


def _exposed_field(r: Reason) -> Reason:
    name = _field_name(r)
    return Reason(
        "output-schema-changed",
        H,
        f"output schema: new field {name!r}: the result now carries medical, identity, "
        "payment or secret data",
        r.path,
    )


def _steering_field(r: Reason) -> bool:
    """A new output field graded high for its name or text (not for being required): the
    model reads it like any description."""
    return r.category == "parameter-added" and r.severity >= H and "required" not in r.message


def _tool_reasons(change: Change, known: frozenset[str] = frozenset()) -> Iterator[Reason]:
    yield from annotation_reasons(change.old, change.new)
    old, new = change.old or {}, change.new or {}
    said = said_roots(
        *(v for k in ("name", "title", "description") if isinstance(v := old.get(k), str))
    )
    for key in ("inputSchema", "outputSchema"):
        if canon_json(old.get(key)) == canon_json(new.get(key)):
            continue
        if key == "outputSchema" and key in old and key not in new:
            # The promise about the result goes (no new text): say that, not "accepts anything".
            yield Reason(
                "output-schema-changed",
                M,
                "output schema removed: the tool no longer describes its result",
                key,
            )
            continue
        found = list(schema_reasons(old.get(key, {}), new.get(key, {}), key, known, said))
        if key == "inputSchema":
            found = list(_acting_input(found, acts(new)))
        if key == "outputSchema":
            # Structure the client validates against is capped at medium; text in it is
            # read by the model like any description and keeps its band. A new field named
            # for special-category or secret data is the result exposing it.
            found = [
                _exposed_field(r)
                if r.category == "parameter-added" and _sensitive_field(_field_name(r))
                else r
                if r.category in ("description-changed", "title-changed", "default-changed")
                or _steering_field(r)
                else Reason(
                    "output-schema-changed",
                    min(r.severity, M),
                    f"output schema: {r.message}",
                    r.path,
                )
                for r in found
            ]
        yield from found or [Reason("schema-changed", M, f"{key} changed", key)]


def _rename_reason(change: Change) -> Reason:
    """A tool whose old name said it acts, renamed to a name that says it reads: the name is
    what a reviewer and a client's approval list go by."""
    if change.kind is Kind.TOOL:
        was = acts({"name": change.old_name or ""}) + _destroys({"name": change.old_name or ""})
        now = _reads({"name": change.name})
        if was and now and not acts({"name": change.name}):
            return Reason(
                "renamed",
                H,
                f"renamed from {change.old_name!r}: a name that acts ({_named(was)}) now reads "
                f"as a read ({_named(now)})",
                "name",
            )
    return Reason("renamed", M, f"renamed from {change.old_name!r}")


def structural_reasons(change: Change, known_hosts: set[str]) -> list[Reason]:
    """Every non-detector reason for one change (the detector side lives in grade.py)."""
    kind, ct = change.kind, change.change
    label = kind.value.replace("_", " ")
    if ct is ChangeType.REMOVED:
        return [Reason(f"{kind.value}-removed", M, f"{label} removed")]
    if ct is ChangeType.ADDED:
        return list(_added_reasons(change, known_hosts))
    reasons: list[Reason] = []
    if ct is ChangeType.RENAMED:
        reasons.append(_rename_reason(change))
    for f in change.fields:
        reasons.extend(field_reasons(change, f, known_hosts))
    if kind is Kind.TOOL:
        reasons.extend(_tool_reasons(change, frozenset(known_hosts)))
    return reasons or [Reason("changed", M, f"{label} changed")]


def _added_tool_reasons(
    item: Mapping[str, JSON], known: frozenset[str] = frozenset()
) -> Iterator[Reason]:
    """A new tool by what it can do, and by what its read-only claim is worth."""
    does, where = acts(item), takes_locations(item)
    reads = _reads(item)
    if effective_annotations(item)["readOnlyHint"] is True:
        if does:
            yield Reason(
                "tool-added-readonly",
                C,
                f"new tool claims read-only, but its own text says it acts ({_named(does)})",
            )
        elif where:
            yield Reason(
                "tool-added-readonly",
                H,
                f"new read-only tool that takes a URL or host ({_named(where)}): it reaches out",
            )
        elif hidden := _executes_or_dumps(item):
            yield Reason(
                "tool-added-readonly",
                H,
                f"new tool claims read-only, but its text says it runs its input or returns "
                f"secrets ({_named(hidden)})",
            )
        elif reads:
            yield Reason("tool-added-readonly", M, f"new read-only tool ({_named(reads)})")
        else:
            yield Reason(
                "tool-added-readonly",
                H,
                "new tool claims read-only (clients auto-approve it) and nothing in its "
                "name says it only reads",
            )
    elif does:
        yield Reason("tool-added", H, f"new tool with side effects ({_named(does)})")
    elif where:
        yield Reason("tool-added", H, f"new tool that takes a URL or host ({_named(where)})")
    else:
        yield Reason(
            "tool-added",
            M,
            "new tool that only returns or computes (no side-effect verb, no URL or host "
            "parameter)",
        )
    desc = item.get("description")
    if isinstance(desc, str) and desc:
        text = added_text_reason(
            "description", desc, "new tool's description", ("capability",), known
        )
        if text.severity >= H:
            yield text


def _prompt_text(item: Mapping[str, JSON]) -> str:
    parts = [item.get("description"), item.get("title")]
    args = item.get("arguments")
    for arg in args if isinstance(args, list) else []:
        if isinstance(arg, dict):
            parts.extend([arg.get("name"), arg.get("description")])
    for key in ("messages", "text"):  # what prompts/get returned, when it was captured
        parts.append(canon_json(item[key]) if key in item else None)
    return ". ".join(p for p in parts if isinstance(p, str) and p)


_SECRET_VAR = re.compile(
    r"(?:token|key|secret|password|passwd|pwd|auth|session|cookie|credential|bearer|sig)", re.I
)
_TEMPLATE_VAR = re.compile(r"\{([+#./;?&]?)([^{}]{1,200})\}")


def _template_reach(value: Any) -> str | None:
    """What a new URI template can reach beyond its own server's data: local files (a
    ``file:`` scheme), any path (reserved expansion ``{+path}`` keeps the slashes), or a
    secret carried in the URI (``{?token}``, logged and forwarded wherever the URI goes)."""
    if not isinstance(value, str):
        return None
    if value[:5].casefold() == "file:":
        return "reads local files (file: scheme)"
    for m in _TEMPLATE_VAR.finditer(value[:4096]):
        op, names = m.group(1), m.group(2)
        if op in ("+", "#"):
            return f"takes any path ({{{op}{names[:40]}}} keeps slashes and '..')"
        if op in ("?", "&") and _SECRET_VAR.search(names):
            return f"carries a secret in its URI ({{{op}{names[:40]}}})"
    return None


def _added_reasons(change: Change, known_hosts: set[str]) -> Iterator[Reason]:
    item = change.new or {}
    kind = change.kind
    if kind is Kind.TOOL:
        name = item.get("name")
        if isinstance(name, str) and name != change.name:
            # The surface keeps a repeated name as ``name#2``: clients may call either copy.
            yield Reason(
                "tool-shadowing", C, f"repeats the name of tool {name!r} on the same server", "name"
            )
        yield from _added_tool_reasons(item, frozenset(known_hosts))
    elif kind is Kind.PROMPT:
        r = added_text_reason("", _prompt_text(item), "new prompt's text")
        yield Reason("prompt-added", r.severity, r.message)
    elif kind is Kind.INSTRUCTIONS:
        text = item.get("instructions")
        if isinstance(text, str):
            yield added_text_reason("instructions", text, "server instructions")
        else:
            yield Reason("description-changed", H, "server instructions added")
    elif kind in (Kind.RESOURCE, Kind.RESOURCE_TEMPLATE):
        key = "uri" if kind is Kind.RESOURCE else "uriTemplate"
        new_hosts = hosts_of(item.get(key)) - known_hosts
        reach = _template_reach(item.get(key)) if kind is Kind.RESOURCE_TEMPLATE else None
        if new_hosts:
            yield Reason("host-added", H, f"points at new host {', '.join(sorted(new_hosts))}", key)
        elif reach:
            yield Reason("resource_template-added", H, f"new resource template {reach}", key)
        else:
            yield Reason(f"{kind.value}-added", M, f"new {kind.value.replace('_', ' ')}")
        desc = item.get("description")
        if isinstance(desc, str) and desc:
            text = added_text_reason(
                "description",
                desc,
                f"new {kind.value.replace('_', ' ')}'s description",
                ignore=("capability",),  # a resource describes data: its nouns are not acts
            )
            if text.severity >= H:
                yield text
    else:
        yield Reason("server-metadata", L, f"{kind.value} added")
