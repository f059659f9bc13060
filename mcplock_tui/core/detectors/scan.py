"""The scan pipeline for one string: hidden characters, normalised views, leetspeak, decodings.

Every family runs on the normalised view; keyword families also run on leetspeak and
letter-spaced ("i g n o r e", "i.g.n.o.r.e") readings, and the non-Latin tables on the
unfolded view; then each encoded run, in-line encoding or cipher reading (ROT13, reversed
text) is decoded and the whole pipeline runs again on the result (two levels deep), with
the finding pointed at the encoded characters. A finding that only exists after decoding
also raises MCPL-INJ-080, because hiding it was deliberate (for a finding of medium or above,
and for a link or e-mail address: a place spelled in an encoding is not documentation).

Which way it fails: a match is kept once per rule per place; the same rule firing again on
an overlapping span of another reading is dropped, so a plain and a decoded copy of one
payload do not double up. Each rule reports at most :data:`MAX_PER_RULE` findings per string,
so a hostile string cannot flood a report (the rest of that rule's hits are dropped).
"""

from __future__ import annotations

from collections.abc import Sequence

from mcplock_tui.core.detectors import (
    concealment,
    cooccur,
    decode,
    exfiltration,
    harvesting,
    hidden,
    instructions,
    languages,
    markup,
    roles,
    scripts,
    secrets,
    steering,
)
from mcplock_tui.core.detectors.base import (
    EMPTY_CONTEXT,
    Hit,
    PatternSet,
    ScanContext,
    quote,
    word_set,
)
from mcplock_tui.core.detectors.normalize import (
    View,
    is_plain,
    leet_variants,
    normalize_pair,
    spaced_variant,
)
from mcplock_tui.core.detectors.rules import SEVERITY
from mcplock_tui.core.model import Finding, Severity

KEYWORDS = PatternSet(
    markup.PATTERNS
    + instructions.PATTERNS
    + roles.PATTERNS
    + markup.HIDING
    + secrets.PATTERNS
    + concealment.PATTERNS
    + steering.PATTERNS
    + harvesting.PATTERNS
    + languages.LATIN
)
"""Every keyword pattern in one index: a text pays for the patterns its words can open."""
_REFINE = {
    "MCPL-INJ-002": markup.refine,
    "MCPL-INJ-020": secrets.refine,
    "MCPL-INJ-021": secrets.refine,
}
MAX_DEPTH = 2
MAX_PER_RULE = 25
_OPAQUE = frozenset({"base64", "base64url", "base32", "hex"})


class Hits:
    """Hits of one string in original coordinates, with per-rule dedupe and caps."""

    def __init__(self) -> None:
        self.items: list[Hit] = []
        self._by_code: dict[str, list[tuple[int, int]]] = {}

    def overlaps(self, code: str, start: int, end: int) -> bool:
        return any((s < end and start < e) or s == start for s, e in self._by_code.get(code, ()))

    def add(self, hit: Hit, check: bool = True) -> bool:
        spans = self._by_code.setdefault(hit.code, [])
        if len(spans) >= MAX_PER_RULE or (check and self.overlaps(hit.code, hit.start, hit.end)):
            return False
        spans.append((hit.start, hit.end))
        self.items.append(hit)
        return True


def _trimmed(view: View, hit: Hit) -> Hit | None:
    start, end = hit.start, hit.end
    text = view.text
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start >= end:
        return None
    s, e = view.span(start, end)
    return hit._replace(start=s, end=e)


def keyword_hits(text: str, words: frozenset[str], ctx: ScanContext) -> list[Hit]:
    """Hits of the keyword families (instructions, secrets, concealment, steering,
    harvesting) on normalised ``text``."""
    raw: list[Hit] = []
    KEYWORDS.run(text, words, raw)
    out: list[Hit] = []
    for hit in raw:
        refine = _REFINE.get(hit.code)
        kept = refine(hit, text) if refine else hit
        if kept is not None:
            out.append(kept)
    out += cooccur.detect(text, words)
    if ctx.foreign_tools:
        steering.foreign(text, ctx, out)
    return out


def map_hits(view: View, hits: Sequence[Hit]) -> list[Hit]:
    """Hits on ``view.text`` moved to original coordinates, surrounding blanks trimmed."""
    out: list[Hit] = []
    for hit in hits:
        mapped = _trimmed(view, hit)
        if mapped is not None:
            out.append(mapped)
    return out


def scan_hits(text: str, ctx: ScanContext = EMPTY_CONTEXT, depth: int = 0) -> list[Hit]:
    """All hits on ``text`` in its own coordinates, sorted by position then code."""
    hits = Hits()
    plain = is_plain(text)
    hidden_hits, invisible_runs = hidden.detect(text, plain)
    for hit in hidden_hits:
        hits.add(hit, check=False)
    view, unfolded = normalize_pair(text, plain)
    words = word_set(view.text)
    found = keyword_hits(view.text, words, ctx) + exfiltration.detect(view.text, words)
    for hit in map_hits(view, found):
        hits.add(hit)
    if not plain:
        native = unfolded or view
        for hit in map_hits(native, scripts.detect(native.text)):
            hits.add(hit)
    spaced = spaced_variant(view)
    for variant in [*leet_variants(view), *([spaced] if spaced is not None else [])]:
        variant_words = word_set(variant.text)
        if (variant_words - words).isdisjoint(KEYWORDS.keys):
            continue
        for hit in map_hits(variant, keyword_hits(variant.text, variant_words, ctx)):
            how = " (letter-spaced)" if variant is spaced else " (leetspeak)"
            hits.add(hit._replace(message=hit.message + how))
    if depth < MAX_DEPTH:
        for run in [*invisible_runs, *decode.runs(text)][: decode.MAX_RUNS]:
            _add_decoded_run(hits, run, ctx, depth)
        ciphers = [] if words.isdisjoint(decode.CIPHER_WORDS) else decode.ciphers(text, words)
        for var in [*decode.variants(text), *ciphers]:
            _add_variant(hits, var, ctx, depth)
    return sorted(hits.items, key=lambda h: (h.start, h.code, h.end))


_PLACES = frozenset({"MCPL-INJ-054", "MCPL-INJ-055"})
"""A link or address: low in plain text (documentation), deliberate once encoded."""


def _hidden_on_purpose(code: str) -> bool:
    return SEVERITY[code] >= Severity.MEDIUM or code in _PLACES


def _add_decoded_run(hits: Hits, run: hidden.Decoded, ctx: ScanContext, depth: int) -> None:
    inner = scan_hits(run.text, ctx, depth + 1)
    serious: list[str] = []
    for hit in inner:
        added = hits.add(
            Hit(hit.code, run.start, run.end, f"{hit.message} (decoded from {run.encoding})")
        )
        if added and _hidden_on_purpose(hit.code):
            serious.append(hit.code)
    if serious:
        codes = ", ".join(dict.fromkeys(serious))
        hits.add(
            Hit(
                "MCPL-INJ-080",
                run.start,
                run.end,
                f"{run.encoding} run hides {codes}: {quote(run.text)}",
            )
        )
    elif run.encoding in _OPAQUE:
        hits.add(
            Hit("MCPL-INJ-081", run.start, run.end, f"{run.encoding} run reads {quote(run.text)}")
        )


def _add_variant(hits: Hits, var: decode.Variant, ctx: ScanContext, depth: int) -> None:
    for hit in scan_hits(var.text, ctx, depth + 1):
        # min/max: a reversed reading maps backwards.
        start = min(var.starts[hit.start], var.starts[hit.end - 1])
        end = max(var.ends[hit.start], var.ends[hit.end - 1])
        # Overlap with a plain hit of the same rule means the decoding revealed nothing new.
        added = hits.add(Hit(hit.code, start, end, f"{hit.message} (decoded from {var.encoding})"))
        if added and _hidden_on_purpose(hit.code):
            hits.add(
                Hit(
                    "MCPL-INJ-080",
                    start,
                    end,
                    f"{hit.code} hidden by {var.encoding}: {quote(var.text[hit.start : hit.end])}",
                )
            )


def to_findings(text: str, hits: Sequence[Hit], path: str, ctx: ScanContext) -> list[Finding]:
    return [
        Finding(
            code=h.code,
            severity=SEVERITY[h.code],
            message=h.message,
            path=path,
            excerpt=text[h.start : h.end],
            span=(h.start, h.end),
            server=ctx.server,
        )
        for h in hits
    ]


def scan_text(text: str, path: str, ctx: ScanContext | None = None) -> list[Finding]:
    """Findings on one string a model reads; spans and excerpts index ``text`` itself."""
    context = ctx or EMPTY_CONTEXT
    return to_findings(text, scan_hits(text, context), path, context)
