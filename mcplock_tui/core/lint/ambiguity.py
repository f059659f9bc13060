"""Ambiguity: could a model choosing tools pick the wrong one of two?

Description similarity alone does not answer that. On the 14 tools of the official
filesystem server (``tests/fixtures/filesystem_tools.json``) the description cosine of the
distinct pair list_directory / directory_tree (0.27) is above that of the confusable pair
read_file / read_media_file (0.17). So a pair goes through four stages:

1. **Candidates: same object.** Only tools whose names have the same head noun (the last
   noun before a preposition, qualifiers like "details" skipped: read_text_file -> file,
   list_directory_with_sizes -> directory) are paired, so a server costs far fewer than
   n^2 comparisons. Tools in different namespaces (``github_`` vs ``gitlab_``) and names
   that are look-alikes of each other (the naming check's job) are not paired.
2. **Gate: schema substitutability.** Could one set of arguments satisfy both tools?
   Each tool's required parameters must be properties of the other, with a common JSON
   type. If not, a wrong pick fails validation instead of silently doing the other thing.
   On the filesystem server the gate keeps 28 of the 91 pairs.
3. **Veto: different or opposing verbs.** Verbs known on both sides with none in common
   (after folding synonyms such as fetch -> get), an antonym pair (create/delete,
   lock/unlock), or a pure read against a write. A name without a verb takes the
   description's first word ("Get a recursive tree view" -> get).
4. **Score** = 0.5 x name affinity + 0.5 x description similarity >= :data:`THRESHOLD`.
   Name affinity is the mean of verb agreement (1 same, 0.5 unknown on a side) and the
   Jaccard overlap of the other name words. Description similarity is a TF-IDF cosine over
   stemmed, stopword-free words, IDF taken over the server's own tools so its boilerplate
   ("only works within allowed directories") counts for little.

Measured on the filesystem fixture, scoring all 28 gated pairs with the formula alone:
the four flagged pairs score 0.82 (list_directory / list_directory_with_sizes), 0.64
(read_file / read_text_file), 0.46 (read_file / read_media_file) and 0.44 (read_text_file /
read_media_file); the other 24 score at most 0.37 (create_directory / list_directory, also
vetoed). The best pair no rule excludes before scoring is directory_tree / get_file_info at
0.32 (different head nouns), and list_directory / directory_tree scores 0.26 (list vs get:
a flat listing against a recursive JSON tree). So the threshold 0.40 sits in a 0.37-0.44
gap, and on this server the veto and head rules only confirm what the score says.

Failure direction: tuned to flag same-verb tools over the same object that differ by a
qualifier (read_text_file vs read_media_file is meant to be flagged, though the descriptions
tell them apart), so such pairs are flagged even when their documentation is clear. It
misses pairs whose names share no head noun (``http_get`` vs ``fetch_url``), synonyms not in
the fold table (read vs get are kept apart on purpose), and, on very large servers, pairs
in an over-full bucket where one side's verb is unknown (see :data:`BUCKET_LIMIT`).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from mcplock_tui.core.lint import naming, text
from mcplock_tui.core.lint.text import Tool

THRESHOLD = 0.40
NAME_WEIGHT = 0.5
DESCRIPTION_WEIGHT = 0.5
BUCKET_LIMIT = 64
"""Noun buckets larger than this are split by verb before pairing, which keeps a server of
thousands of ``x_get_item``-style tools from costing every pair."""

QUALIFIERS = text.wordset(
    "detail summary info information metadata meta batch bulk all raw recursive multiple many "
    "single full current latest simple advanced content data v1 v2 v3 async sync detailed "
    "verbose extended basic quick brief"
)
"""Name words that say how or how much, not what: never a head noun."""


class AmbiguousPair(NamedTuple):
    """One flagged pair; a tuple because large servers flag many and creation is hot."""

    a: str
    b: str
    score: float
    name_affinity: float
    description_similarity: float


@dataclass(frozen=True, slots=True)
class Profile:
    """What the ambiguity check knows of one tool."""

    key: str
    space: str
    """Namespace prefix stripped from the name (``browser`` in browser_click), or ""."""
    verbs: frozenset[str]
    nouns: frozenset[str]
    head: str
    """The object the name is about: its last noun before any preposition, or ""."""
    skeleton: str
    props: frozenset[str]
    required: frozenset[str]
    types: Mapping[str, frozenset[str]]
    vector: Mapping[str, float]
    shape: int
    """Same number for tools with the same schema signature and verbs: gate and veto depend
    only on those, so a server of near-identical tools decides them once per shape pair."""


def _types(prop: object) -> frozenset[str] | None:
    """JSON types a property accepts; None when unstated (then anything goes)."""
    if not isinstance(prop, Mapping):
        return None
    raw = prop.get("type")
    if isinstance(raw, str):
        names = {raw}
    elif isinstance(raw, list):
        names = {t for t in raw if isinstance(t, str)}
    else:
        return None
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
    """The veto: an antonym pair across the verb sets, a pure read against a write, or
    verbs known on both sides with none in common (list vs get name different actions)."""
    if va and vb and not va & vb:
        return True
    if any(frozenset((x, y)) in text.ANTONYMS for x in va for y in vb):
        return True
    a_reads = bool(va) and all(_is_read(v) for v in va)
    b_reads = bool(vb) and all(_is_read(v) for v in vb)
    a_writes = any(v in text.MUTATING_VERBS for v in va)
    b_writes = any(v in text.MUTATING_VERBS for v in vb)
    return (a_reads and b_writes) or (b_reads and a_writes)


def _namespaces(word_lists: Mapping[str, list[str]]) -> frozenset[str]:
    """Leading non-verb words three or more names start with (``browser_`` in browser_click)."""
    leads = Counter(w[0] for w in word_lists.values() if len(w) > 1)
    return frozenset(
        word
        for word, n in leads.items()
        if n >= 3 and word not in text.READ_VERBS and word not in text.MUTATING_VERBS
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


def _head(words: list[str], verbs: list[str]) -> str:
    """Last noun before the first preposition that follows one: list_directory_with_sizes ->
    directory, read_text_file -> file. Qualifiers are skipped: get_issue_details -> issue."""
    head = ""
    for word in words:
        if word in text.NAME_STOPWORDS:
            if head:
                break
            continue
        if word not in verbs and word not in QUALIFIERS and not word.isdigit():
            head = word
    return head


def profiles(tools: Mapping[str, Tool]) -> list[Profile]:
    word_lists = {k: text.name_words(text.tool_name(k, t)) for k, t in tools.items()}
    spaces = _namespaces(word_lists)
    vectors = _vectors({k: text.words(text.description(t)) for k, t in tools.items()})
    out: list[Profile] = []
    shapes: dict[object, int] = {}
    for key, tool in tools.items():
        words = word_lists[key]
        space = words[0] if len(words) > 1 and words[0] in spaces else ""
        if space:
            words = words[1:]
        tokens = [w for w in words if w not in text.NAME_STOPWORDS]
        raw_verbs = text.name_verbs(tokens)
        nouns = frozenset(t for t in tokens if t not in raw_verbs)
        head = _head(words, raw_verbs)
        if not raw_verbs and (lead := text.lead_verb(tool)) is not None:
            raw_verbs = [lead]
        props = text.properties(tool)
        types = {p: t for p, s in props.items() if isinstance(p, str) and (t := _types(s))}
        verbs = frozenset(text.fold_verb(v) for v in raw_verbs)
        names = frozenset(p for p in props if isinstance(p, str))
        needed = text.required(tool)
        signature = (verbs, names, needed, frozenset(types.items()))
        out.append(
            Profile(
                key=key,
                space=space,
                verbs=verbs,
                nouns=nouns,
                head=head,
                skeleton=naming.skeleton(text.tool_name(key, tool)),
                props=names,
                required=needed,
                types=types,
                vector=vectors[key],
                shape=shapes.setdefault(signature, len(shapes)),
            )
        )
    return out


def name_affinity(a: Profile, b: Profile) -> float:
    # A verb unknown on one side is neither evidence for nor against: 0.5.
    verb = (1.0 if a.verbs & b.verbs else 0.0) if a.verbs and b.verbs else 0.5
    shared, union = len(a.nouns & b.nouns), len(a.nouns | b.nouns)
    noun = shared / union if union else 1.0
    return (verb + noun) / 2


def cosine(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    return sum(a[w] * b[w] for w in a.keys() & b.keys())


def score(a: Profile, b: Profile) -> AmbiguousPair:
    """The score alone, whatever the gate and rules say; the pair ordered by key."""
    names = name_affinity(a, b)
    desc = cosine(a.vector, b.vector)
    x, y = sorted((a.key, b.key))
    return AmbiguousPair(x, y, NAME_WEIGHT * names + DESCRIPTION_WEIGHT * desc, names, desc)


def _candidates(items: list[Profile]) -> Iterator[tuple[int, int]]:
    """Pairs about the same object (same head noun; noun-less names: same verb), each once.

    Made as they are used, not gathered in a set: a server of look-alike tools has tens of
    thousands. A pair repeats only where both tools share two or more verbs (a noun-less
    name is in a bucket per verb; a big bucket is split per verb); it is kept in the group
    of the first verb they share."""
    buckets: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(items):
        if p.head:
            buckets["n:" + p.head].append(i)
        elif not p.nouns:
            for verb in p.verbs:
                buckets["v:" + verb].append(i)
    for bucket, members in buckets.items():
        groups: list[tuple[str | None, list[int]]] = [(None, members)]
        if len(members) > BUCKET_LIMIT:
            # Different verbs never pair (see opposed), so splitting by verb loses only
            # pairs where one side's verb is unknown.
            by_verb: dict[str, list[int]] = defaultdict(list)
            for i in members:
                for verb in items[i].verbs or {""}:
                    by_verb[verb].append(i)
            groups = list(by_verb.items())
        own = bucket[2:] if bucket.startswith("v:") else None
        for of_group, group in groups:
            at = {v for v in (own, of_group) if v is not None}  # the verb this group is of
            for i, j in combinations(group, 2):
                a, b = items[i].verbs, items[j].verbs
                if at and len(a) > 1 and len(b) > 1 and at != {min(a & b)}:
                    continue  # the same pair in another verb's bucket or group
                yield (i, j) if i < j else (j, i)


def ambiguous_pairs(tools: Mapping[str, Tool]) -> list[AmbiguousPair]:
    """Every flagged pair, ``a < b`` by key, sorted by key."""
    items = profiles(tools)
    flagged: list[AmbiguousPair] = []
    eligible: dict[tuple[int, int], bool] = {}
    for i, j in _candidates(items):
        a, b = items[i], items[j]
        if a.skeleton == b.skeleton or (a.space and b.space and a.space != b.space):
            continue  # look-alike names are the naming check's; namespaces tell tools apart
        shapes = (a.shape, b.shape)
        ok = eligible.get(shapes)
        if ok is None:
            ok = eligible[shapes] = substitutable(a, b) and not opposed(a.verbs, b.verbs)
        if ok and (pair := score(a, b)).score >= THRESHOLD:
            flagged.append(pair)
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
