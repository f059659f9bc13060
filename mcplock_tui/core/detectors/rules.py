"""The injection rules: stable codes, titles, rationales and default severities.

Severity follows how rarely benign server text trips a rule. Signals with almost no honest
use in text a model reads (instruction markup, concealment, credential files, steering
other servers' tools, harvesting the conversation, invisible control characters, an
encoded payload that itself fires) are CRITICAL. Signals honest text sometimes carries are
HIGH. Plain links, e-mail addresses and credential-sounding parameter names are LOW or
MEDIUM, so documentation links do not bury the findings that matter.
"""

from __future__ import annotations

from mcplock_tui.core.model import Severity
from mcplock_tui.core.rules import Rule

C, H, M, L = Severity.CRITICAL, Severity.HIGH, Severity.MEDIUM, Severity.LOW


def _rule(code: str, title: str, severity: Severity, rationale: str) -> Rule:
    return Rule(code=code, title=title, rationale=rationale, severity=severity, family="injection")


RULES: tuple[Rule, ...] = (
    # instructions.py
    _rule(
        "MCPL-INJ-001",
        "Instruction markup",
        C,
        "Tags such as <IMPORTANT>, <system>, [INST] or <|im_start|> imitate the framing a model "
        "gives to trusted instructions. Tool documentation has no reason to use them.",
    ),
    _rule(
        "MCPL-INJ-002",
        "Markup that hides text",
        H,
        "HTML comments and elements styled invisible are dropped by Markdown renderers, so the "
        "user never sees what the model reads. Generated docs occasionally leave a comment in, "
        "hence HIGH rather than CRITICAL.",
    ),
    _rule(
        "MCPL-INJ-003",
        "Override of earlier instructions",
        C,
        "'Ignore previous instructions' and its variants (also in other languages) are the "
        "canonical injection payload; no tool needs to say it.",
    ),
    _rule(
        "MCPL-INJ-004",
        "Role reassignment",
        C,
        "'You are now ...', 'pretend to be ...' and 'developer mode' try to replace the model's "
        "role; tool text describes a tool, not who the model is.",
    ),
    _rule(
        "MCPL-INJ-005",
        "Imperative aimed at the model",
        H,
        "'You must always ...', 'it is very important that you ...' and 'otherwise the tool will "
        "not work' push the model beyond the tool's job. Honest docs sometimes use the phrasing, "
        "so HIGH.",
    ),
    # hidden.py
    _rule(
        "MCPL-INJ-010",
        "Zero-width or invisible characters",
        C,
        "Invisible characters split trigger words past keyword filters and carry text no "
        "reviewer sees. Their honest uses (a ZWJ inside an emoji, ZWJ/ZWNJ in Arabic or Indic "
        "words, direction marks in right-to-left text, a leading BOM) are exempt, so what is "
        "left has no reason to be in tool text.",
    ),
    _rule(
        "MCPL-INJ-011",
        "Bidirectional control characters",
        C,
        "Bidi overrides and isolates reorder what a reviewer sees (Trojan Source); they have no "
        "place in tool text.",
    ),
    _rule(
        "MCPL-INJ-012",
        "Unicode tag characters",
        C,
        "Characters of the U+E0000 block are invisible but models read them as ASCII ('ASCII "
        "smuggling'). Emoji flag sequences are exempt.",
    ),
    _rule(
        "MCPL-INJ-013",
        "Terminal escape sequence",
        C,
        "ANSI/OSC sequences can rewrite what a terminal shows, set the clipboard (OSC 52) or "
        "plant links (OSC 8).",
    ),
    _rule(
        "MCPL-INJ-014",
        "Control characters",
        H,
        "C0/C1 controls and a lone carriage return can overwrite or hide text when printed.",
    ),
    _rule(
        "MCPL-INJ-015",
        "Variation-selector smuggling",
        C,
        "Runs of variation selectors encode arbitrary bytes invisibly; a single selector after "
        "an emoji or ideograph is normal and exempt.",
    ),
    _rule(
        "MCPL-INJ-016",
        "Blank padding before more text",
        H,
        "Long runs of blank lines or spaces push the rest of the text out of a reviewer's view "
        "while the model still reads it.",
    ),
    # secrets.py
    _rule(
        "MCPL-INJ-020",
        "Credential file reference",
        C,
        "SSH keys, cloud credentials, .env, .npmrc, .netrc, kube config or MCP client configs "
        "named in tool text are how poisoned tools steal secrets.",
    ),
    _rule(
        "MCPL-INJ-021",
        "Request for secret material",
        C,
        "Text telling the model to read, pass or send passwords, private keys, API keys or "
        "tokens asks it to leak them.",
    ),
    # concealment.py
    _rule(
        "MCPL-INJ-030",
        "Concealment from the user",
        C,
        "'Do not tell the user', 'without the user knowing' or 'silently send' only make sense "
        "when the tool wants something kept from the person it acts for.",
    ),
    # steering.py
    _rule(
        "MCPL-INJ-040",
        "Names another server's tool",
        C,
        "A description that mentions a tool of a different configured server tries to change "
        "how that tool is used (tool shadowing).",
    ),
    _rule(
        "MCPL-INJ-041",
        "Steers other tools or calls",
        C,
        "'Before using any other tool', 'whenever you call', 'all emails must be sent to' "
        "reach beyond the tool's own job to other tools' behaviour.",
    ),
    # exfiltration.py
    _rule(
        "MCPL-INJ-050",
        "Sends data to an external destination",
        C,
        "A transfer verb aimed at a literal URL, e-mail address or IP sends data out; example "
        "and loopback hosts are exempt.",
    ),
    _rule(
        "MCPL-INJ-051",
        "Remote Markdown image",
        H,
        "A rendered image fetches its URL automatically, carrying whatever the model put in it.",
    ),
    _rule(
        "MCPL-INJ-052",
        "Shell network command",
        H,
        "curl/wget/nc one-liners that send data or run what they fetch, piping into a shell, "
        "/dev/tcp or PowerShell downloads in tool text invite the model to run them. A plain "
        "curl that only fetches a named host is how API docs show a call, so it is not listed.",
    ),
    _rule(
        "MCPL-INJ-053",
        "Data-capture or tunnelling host",
        H,
        "webhook.site, requestbin, ngrok, interactsh, paste and file-drop sites, chat webhooks "
        "that carry their owner's token and links to a bare public IP address exist to receive "
        "data, not to document a tool.",
    ),
    _rule(
        "MCPL-INJ-054",
        "Link",
        L,
        "A plain link is usually documentation; listed so a reviewer sees where text points.",
    ),
    _rule(
        "MCPL-INJ-055",
        "E-mail address",
        L,
        "A lone address is usually a contact; listed so a reviewer sees it.",
    ),
    # harvesting.py
    _rule(
        "MCPL-INJ-060",
        "Harvests the conversation or system prompt",
        C,
        "Asking for this conversation, the chat history, previous messages, other tools' "
        "results or the model's own instructions collects data the tool has no need for.",
    ),
    # params.py
    _rule(
        "MCPL-INJ-070",
        "Parameter name addressed to the model",
        H,
        "Names like note_to_assistant or sidenote carry instructions through the schema, where "
        "reviewers look least.",
    ),
    _rule(
        "MCPL-INJ-071",
        "Sentence-like parameter name",
        M,
        "A parameter name of five or more words is a sentence, not an identifier.",
    ),
    _rule(
        "MCPL-INJ-072",
        "Parameter asks for a credential",
        M,
        "password, api_key or token parameters make the model handle secrets; common in API "
        "wrappers, hence MEDIUM.",
    ),
    _rule(
        "MCPL-INJ-073",
        "Parameter asks for key material",
        H,
        "ssh_key, private_key, seed phrases or credential file contents as a parameter ask the "
        "model to read and hand over key material.",
    ),
    _rule(
        "MCPL-INJ-074",
        "Parameter asks for the conversation",
        H,
        "Names like conversation_history or previous_messages invite the model to copy the chat "
        "into a call. A summariser may honestly take chat text, hence HIGH rather than CRITICAL.",
    ),
    # decode.py
    _rule(
        "MCPL-INJ-080",
        "Encoded payload hides a finding",
        C,
        "Text that only fires once base64, hex, percent, HTML-entity, escape, tag or "
        "variation-selector encoding is undone was hidden on purpose.",
    ),
    _rule(
        "MCPL-INJ-081",
        "Readable encoded text",
        L,
        "A base64 or hex run that decodes to readable text; listed with its decoding so a "
        "reviewer can read it.",
    ),
)

SEVERITY: dict[str, Severity] = {r.code: r.severity for r in RULES}
TITLE: dict[str, str] = {r.code: r.title for r in RULES}
