"""Ambiguity: could a model choosing tools pick the wrong one of two?

Description similarity alone does not answer that. On the 14 tools of the official
filesystem server (fixture ``tests/fixtures/filesystem_tools.json``) the description
cosine of the distinct pair list_directory / directory_tree (0.27) is above that of the
confusable pair read_file / read_media_file (0.17). So a pair is scored in three stages:

1. **Gate: schema substitutability.** Could one set of arguments satisfy both tools?
   Each tool's required parameters must be properties of the other, with a common JSON
   type. If not, a caller who picked the wrong tool gets a validation error, not a wrong
   action. On the filesystem server the gate keeps 28 of the 91 pairs.
2. **Veto: opposing verbs.** Names whose verbs oppose (create/delete, lock/unlock, ...) or
   where one only reads and the other writes are never ambiguous, however alike the text.
3. **Score** = 0.5 x name affinity + 0.5 x description similarity, flagged at
   :data:`THRESHOLD`. Name affinity is the mean of *verb agreement* (same verb after
   folding synonyms; a name without one takes the description's first verb) and *noun
   overlap* (Jaccard of the remaining name tokens). Description similarity is a TF-IDF
   cosine over stemmed, stopword-free words, with IDF taken over the server's own tools so
   its boilerplate ("only works within allowed directories") counts for little.

Measured on the filesystem fixture: flagged pairs score 0.46 (read_file / read_media_file),
0.48 (read_file / read_text_file), 0.44 (read_text_file / read_media_file) and 0.95
(list_directory / list_directory_with_sizes); the best unflagged pair is
list_directory / directory_tree at 0.26 (different verbs, list vs the description's "get";
a flat listing vs a recursive JSON tree). The threshold sits in that 0.26-0.44 gap.
create_directory / list_directory is vetoed (create vs list).

Failure direction: it is tuned to flag same-verb tools over overlapping objects
(read_text_file vs read_media_file is meant to be flagged), so get_user_profile vs
get_user_settings with similar descriptions may be flagged too. It misses pairs that share
no name token at all (``http_get`` vs ``fetch_url``) and, for very large servers, pairs
inside an over-full noun bucket whose verbs differ (see :data:`BUCKET_LIMIT`).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations

from mcplock_tui.core.lint import text
from mcplock_tui.core.lint.text import Tool

THRESHOLD = 0.40
NAME_WEIGHT = 0.5
DESCRIPTION_WEIGHT = 0.5
BUCKET_LIMIT = 64
"""Noun buckets larger than this are split by verb before pairing, which keeps a server of
thousands of ``x_get_item``-style tools from costing every pair."""


@dataclass(frozen=True, slots=True)
class AmbiguousPair:
    a: str
    b: str
    score: float
    name_affinity: float
    description_similarity: float


@dataclass(frozen=True, slots=True)
class Profile:
    key: str
    verbs: frozenset[str]
    nouns: frozenset[str]
    props: frozenset[str]
    required: frozenset[str]
    types: Mapping[str, frozenset[str]]
    vector: Mapping[str, float]


def _types(prop: object) -> frozenset[str] | None:
    """JSON types a property accepts; None when unstated (then anything goes)."""
    if not isinstance(prop, Mapping):
        return None
    raw = prop.get("type")
    names = (
        {raw}
        if isinstance(raw, str)
        else {t for t in raw if isinstance(t, str)}
        if isinstance(raw, list)
        else set()
    )
    if not names:
        return None
    if names & {"integer", "number"}:
        names |= {"integer", "number"}  # an integer argument satisfies both
    return frozenset(names)


def substitutable(a: Profile, b: Profile) -> bool:
    """The gate: one argument object can be valid for both tools."""
    if not (a.required <= b.props and b.required <= a.props):
        return False
    for param in a.required | b.required:
        ta, tb = a.types.get(param), b.types.get(param)
        if ta is not None and tb is not None and not ta & tb:
            return False
    return True


def _is_read(verb: str) -> bool:
    return verb in text.READ_VERBS and verb not in text.MUTATING_VERBS


def opposed(va: frozenset[str], vb: frozenset[str]) -> bool:
    """The veto: an antonym pair across the two verb sets, or a pure read against a write."""
    if any(frozenset((x, y)) in text.ANTONYMS for x in va for y in vb):
        return True
    a_reads = bool(va) and all(_is_read(v) for v in va)
    b_reads = bool(vb) and all(_is_read(v) for v in vb)
    a_writes = any(v in text.MUTATING_VERBS for v in va)
    b_writes = any(v in text.MUTATING_VERBS for v in vb)
    return (a_reads and b_writes) or (b_reads and a_writes)


def _namespaces(token_lists: Mapping[str, list[str]]) -> frozenset[str]:
    """Leading non-verb tokens three or more names start with (``browser_`` in browser_click)."""
    leads = Counter(t[0] for t in token_lists.values() if len(t) > 1)
    return frozenset(
        tok
        for tok, n in leads.items()
        if n >= 3 and tok not in text.READ_VERBS and tok not in text.MUTATING_VERBS
    )


def _vectors(docs: Mapping[str, list[str]]) -> dict[str, dict[str, float]]:
    """Unit TF-IDF vectors, smooth IDF so a two-tool server still has shared weight."""
    n = len(docs)
    df: Counter[str] = Counter()
    for words in docs.values():
        df.update(set(words))
    idf = {w: math.log((1 + n) / (1 + c)) + 1.0 for w, c in df.items()}
    out: dict[str, dict[str, float]] = {}
    for key, words in docs.items():
        weights = {w: c * idf[w] for w, c in Counter(words).items()}
        norm = math.sqrt(sum(x * x for x in weights.values())) or 1.0
        out[key] = {w: x / norm for w, x in weights.items()}
    return out


def _profiles(tools: Mapping[str, Tool]) -> list[Profile]:
    token_lists = {k: text.name_tokens(text.tool_name(k, t)) for k, t in tools.items()}
    spaces = _namespaces(token_lists)
    vectors = _vectors({k: text.words(text.description(t)) for k, t in tools.items()})
    profiles: list[Profile] = []
    for key, tool in tools.items():
        tokens = token_lists[key]
        if len(tokens) > 1 and tokens[0] in spaces:
            tokens = tokens[1:]
        raw_verbs = text.name_verbs(tokens)
        if not raw_verbs and (lead := text.lead_verb(tool)) is not None:
            raw_verbs = [lead]
        props = text.properties(tool)
        types = {p: t for p, s in props.items() if (t := _types(s)) is not None}
        profiles.append(
            Profile(
                key=key,
                verbs=frozenset(text.fold_verb(v) for v in raw_verbs),
                nouns=frozenset(t for t in tokens if t not in raw_verbs),
                props=frozenset(p for p in props if isinstance(p, str)),
                required=text.required(tool),
                types=types,
                vector=vectors[key],
            )
        )
    return profiles


def name_affinity(a: Profile, b: Profile) -> float:
    # A verb unknown on one side is neither evidence for nor against: 0.5.
    verb = (1.0 if a.verbs & b.verbs else 0.0) if a.verbs and b.verbs else 0.5
    shared, union = len(a.nouns & b.nouns), len(a.nouns | b.nouns)
    noun = shared / union if union else 1.0
    return (verb + noun) / 2


def cosine(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(x * b.get(w, 0.0) for w, x in a.items())


def _candidates(profiles: list[Profile]) -> set[tuple[int, int]]:
    """Pairs sharing a noun (or, for noun-less names, a verb); never every pair."""
    buckets: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(profiles):
        for noun in p.nouns:
            buckets["n:" + noun].append(i)
        if not p.nouns:
            for verb in p.verbs:
                buckets["v:" + verb].append(i)
    pairs: set[tuple[int, int]] = set()
    for members in buckets.values():
        groups: list[list[int]] = [members]
        if len(members) > BUCKET_LIMIT:
            by_verb: dict[str, list[int]] = defaultdict(list)
            for i in members:
                for verb in profiles[i].verbs or {""}:
                    by_verb[verb].append(i)
            groups = list(by_verb.values())
        for group in groups:
            pairs.update(combinations(group, 2))
    return pairs


def ambiguous_pairs(tools: Mapping[str, Tool]) -> list[AmbiguousPair]:
    """Every flagged pair, ``a < b`` by key, sorted by key."""
    profiles = _profiles(tools)
    flagged: list[AmbiguousPair] = []
    for i, j in _candidates(profiles):
        a, b = profiles[i], profiles[j]
        if not substitutable(a, b) or opposed(a.verbs, b.verbs):
            continue
        names = name_affinity(a, b)
        desc = cosine(a.vector, b.vector)
        score = NAME_WEIGHT * names + DESCRIPTION_WEIGHT * desc
        if score >= THRESHOLD:
            x, y = sorted((a.key, b.key))
            flagged.append(AmbiguousPair(x, y, round(score, 4), round(names, 4), round(desc, 4)))
    flagged.sort(key=lambda p: (p.a, p.b))
    return flagged


def partners(pairs: list[AmbiguousPair]) -> dict[str, list[AmbiguousPair]]:
    """Each tool's flagged pairs, strongest first."""
    out: dict[str, list[AmbiguousPair]] = defaultdict(list)
    for pair in pairs:
        out[pair.a].append(pair)
        out[pair.b].append(pair)
    for items in out.values():
        items.sort(key=lambda p: (-p.score, p.a, p.b))
    return dict(out)


def other(pair: AmbiguousPair, key: str) -> str:
    return pair.b if pair.a == key else pair.a
