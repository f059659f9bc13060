"""Is a new JSON Schema ``pattern`` at least as strict as the old one?

:func:`pattern_subset` decides L(new) ⊆ L(old) for the regular core of ECMA-262 patterns.
A JSON Schema pattern searches, so an unanchored start or end is read as a ``.*`` over the
whole alphabet (code points 0..0x10FFFF). Both patterns become Thompson NFAs whose edges are
labelled with character sets; the alphabet is cut into the classes those sets cannot tell
apart; both NFAs are determinised lazily and their product is walked looking for a string
the new pattern takes and the old one refuses.

Which way it fails: syntax outside the supported subset (lookarounds, backreferences,
``\\b``, named groups, ``^``/``$`` inside the pattern, dialect-dependent classes such as
``[]``) and inputs over a size limit give ``None``, never a guess.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import deque
from dataclasses import dataclass

MAX_PATTERN_LEN = 512
MAX_NFA_STATES = 2_000
"""Per pattern, counted repeats expanded; a repeat of an empty body counts one per copy."""
MAX_PRODUCT_STATES = 5_000
MAX_DEPTH = 32
"""Group nesting."""
MAX_WORK = 200_000
"""NFA edges, closure states, symbols and alphabet cuts visited: a tenth of a second here."""

_TOP = 0x10FFFF
Ranges = tuple[tuple[int, int], ...]
"""A character set: sorted, disjoint, non-adjacent inclusive code-point ranges."""


class _Undecided(Exception):
    """Syntax outside the supported subset, or a size limit reached."""


def _norm(pairs: list[tuple[int, int]]) -> Ranges:
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(pairs):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return tuple(out)


def _negate(ranges: Ranges) -> Ranges:
    out: list[tuple[int, int]] = []
    nxt = 0
    for lo, hi in ranges:
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= _TOP:
        out.append((nxt, _TOP))
    return tuple(out)


def _one(ch: int) -> Ranges:
    return ((ch, ch),)


_ANY: Ranges = ((0, _TOP),)
_DIGIT: Ranges = ((0x30, 0x39),)
_WORD = _norm([(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)])
_SPACE = _norm(
    [
        (0x09, 0x0D),
        (0x20, 0x20),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x2000, 0x200A),
        (0x2028, 0x2029),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
        (0xFEFF, 0xFEFF),
    ]
)
# ECMA `.` stops at line terminators; the implicit search prefix/suffix does not.
_DOT = _negate(_norm([(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)]))
_CLASS_ESCAPES: dict[str, Ranges] = {
    "d": _DIGIT,
    "D": _negate(_DIGIT),
    "w": _WORD,
    "W": _negate(_WORD),
    "s": _SPACE,
    "S": _negate(_SPACE),
}
_CONTROL = {"n": 0x0A, "t": 0x09, "r": 0x0D, "f": 0x0C, "v": 0x0B}
_BRACE = re.compile(r"\{(\d+)(?:(,)(\d*))?\}")
_HEX2 = re.compile(r"[0-9A-Fa-f]{2}")
_HEX4 = re.compile(r"[0-9A-Fa-f]{4}")


@dataclass(frozen=True, slots=True)
class _Chars:
    ranges: Ranges


@dataclass(frozen=True, slots=True)
class _Seq:
    items: tuple[_Node, ...]


@dataclass(frozen=True, slots=True)
class _Alt:
    options: tuple[_Node, ...]


@dataclass(frozen=True, slots=True)
class _Repeat:
    node: _Node
    lo: int
    hi: int | None


@dataclass(frozen=True, slots=True)
class _Anchor:
    start: bool


_Node = _Chars | _Seq | _Alt | _Repeat | _Anchor
_ANY_STAR = _Repeat(_Chars(_ANY), 0, None)


class _Parser:
    """Recursive descent over one pattern; group nesting is capped so recursion stays shallow."""

    def __init__(self, src: str) -> None:
        self.src = src
        self.pos = 0

    def peek(self, ahead: int = 0) -> str:
        i = self.pos + ahead
        return self.src[i] if i < len(self.src) else ""

    def parse(self) -> list[list[_Node]]:
        alts = self._alternatives(0)
        if self.pos != len(self.src):  # an unmatched ")"
            raise _Undecided
        return alts

    def _alternatives(self, depth: int) -> list[list[_Node]]:
        alts = [self._sequence(depth)]
        while self.peek() == "|":
            self.pos += 1
            alts.append(self._sequence(depth))
        return alts

    def _sequence(self, depth: int) -> list[_Node]:
        items: list[_Node] = []
        while self.pos < len(self.src) and self.src[self.pos] not in "|)":
            atom = self._atom(depth)
            quant = self._quantifier()
            if quant is None:
                items.append(atom)
                continue
            if isinstance(atom, _Anchor) or self._quantifier() is not None:
                raise _Undecided  # `^*`, `a{2}*`: syntax errors in ECMA-262
            items.append(_Repeat(atom, *quant))
        return items

    def _quantifier(self) -> tuple[int, int | None] | None:
        c = self.peek()
        lo: int
        hi: int | None
        if c == "*":
            lo, hi = 0, None
        elif c == "+":
            lo, hi = 1, None
        elif c == "?":
            lo, hi = 0, 1
        elif c == "{":
            m = _BRACE.match(self.src, self.pos)
            if m is None:
                return None  # a literal "{"
            lo = int(m[1])
            hi = lo if m[2] is None else (int(m[3]) if m[3] else None)
            if hi is not None and hi < lo:
                raise _Undecided
            if lo > MAX_NFA_STATES or (hi is not None and hi > MAX_NFA_STATES):
                raise _Undecided
            self.pos = m.end() - 1
        else:
            return None
        self.pos += 1
        if self.peek() == "?":  # lazy: same set of strings
            self.pos += 1
        return lo, hi

    def _atom(self, depth: int) -> _Node:
        c = self.src[self.pos]
        self.pos += 1
        if c == "(":
            if depth >= MAX_DEPTH:
                raise _Undecided
            if self.src.startswith("?:", self.pos):
                self.pos += 2
            elif self.peek() == "?":
                raise _Undecided  # lookaround or named group
            alts = self._alternatives(depth + 1)
            if self.peek() != ")":
                raise _Undecided
            self.pos += 1
            return _Alt(tuple(_Seq(tuple(a)) for a in alts))
        if c == "[":
            return _Chars(self._class())
        if c == ".":
            return _Chars(_DOT)
        if c == "\\":
            return _Chars(self._escape(in_class=False))
        if c in "^$":
            return _Anchor(c == "^")
        if c in "*+?" or (c == "{" and _BRACE.match(self.src, self.pos - 1)):
            raise _Undecided  # nothing to repeat
        return _Chars(_one(ord(c)))

    def _escape(self, *, in_class: bool) -> Ranges:
        if self.pos >= len(self.src):
            raise _Undecided
        c = self.src[self.pos]
        self.pos += 1
        if c in _CLASS_ESCAPES:
            return _CLASS_ESCAPES[c]
        if c in _CONTROL:
            return _one(_CONTROL[c])
        if c == "b" and in_class:
            return _one(0x08)
        if c == "0" and not self.peek().isdigit():
            return _one(0)
        for letter, hexes in (("x", _HEX2), ("u", _HEX4)):
            if c == letter and (m := hexes.match(self.src, self.pos)):
                self.pos = m.end()
                return _one(int(m[0], 16))
        if c == "c" and self.peek().isascii() and self.peek().isalpha():
            self.pos += 1
            return _one(ord(self.src[self.pos - 1]) % 32)
        if c.isascii() and c.isalnum():
            raise _Undecided  # \b \B \1 \k \p and letters whose meaning differs by dialect
        return _one(ord(c))

    def _class(self) -> Ranges:
        negated = self.peek() == "^"
        if negated:
            self.pos += 1
        if self.peek() == "]":
            raise _Undecided  # `[]` / `[^]`: empty/any in ECMA, a literal "]" elsewhere
        pairs: list[tuple[int, int]] = []
        while True:
            if self.pos >= len(self.src):
                raise _Undecided
            if self.src[self.pos] == "]":
                self.pos += 1
                break
            first = self._class_atom()
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.pos += 1
                last = self._class_atom()
                if len(first) != 1 or len(last) != 1:
                    raise _Undecided
                (lo, lo_end), (hi, hi_end) = first[0], last[0]
                if lo != lo_end or hi != hi_end or lo > hi:
                    raise _Undecided  # `[\d-z]` or a reversed range
                pairs.append((lo, hi))
            else:
                pairs.extend(first)
        ranges = _norm(pairs)
        return _negate(ranges) if negated else ranges

    def _class_atom(self) -> Ranges:
        c = self.src[self.pos]
        self.pos += 1
        if c == "\\":
            return self._escape(in_class=True)
        if c == "[" and self.peek() in (":", ".", "="):
            raise _Undecided  # POSIX class syntax means something else in ECMA
        return _one(ord(c))


def _language(pattern: str) -> _Node:
    """The pattern as a whole-string language: each top-level alternative padded with `.*`
    on every side it does not anchor."""
    options: list[_Node] = []
    for items in _Parser(pattern).parse():
        start = bool(items) and isinstance(items[0], _Anchor) and items[0].start
        if start:
            items = items[1:]
        last = items[-1] if items else None
        end = isinstance(last, _Anchor) and not last.start
        if end:
            items = items[:-1]
        body = ([] if start else [_ANY_STAR]) + items + ([] if end else [_ANY_STAR])
        options.append(_Seq(tuple(body)))
    return _Alt(tuple(options))


class _Budget:
    def __init__(self) -> None:
        self.left = MAX_WORK

    def spend(self, n: int) -> None:
        self.left -= n
        if self.left < 0:
            raise _Undecided


class _NFA:
    """Thompson NFA. `build(node, s)` adds edges out of `s` and among fresh states only, never
    into `s`, so fragments may start on the state an earlier fragment ended on."""

    def __init__(self, node: _Node, charsets: dict[Ranges, int]) -> None:
        self.eps: list[list[int]] = []
        self.edges: list[list[tuple[int, int]]] = []
        self.charsets = charsets
        self.empty_copies = 0
        self.start = self._state()
        self.accept = self._build(node, self.start)
        self.important = [bool(e) or i == self.accept for i, e in enumerate(self.edges)]

    def _state(self) -> int:
        if len(self.eps) + self.empty_copies >= MAX_NFA_STATES:
            raise _Undecided
        self.eps.append([])
        self.edges.append([])
        return len(self.eps) - 1

    def _copy(self, node: _Node, s: int) -> int:
        before = len(self.eps)
        end = self._build(node, s)
        if len(self.eps) == before:  # an empty body: charge it so `(){2000}{2000}` stops
            self.empty_copies += 1
            if len(self.eps) + self.empty_copies >= MAX_NFA_STATES:
                raise _Undecided
        return end

    def _build(self, node: _Node, s: int) -> int:
        if isinstance(node, _Chars):
            cid = self.charsets.setdefault(node.ranges, len(self.charsets))
            end = self._state()
            self.edges[s].append((cid, end))
            return end
        if isinstance(node, _Seq):
            for item in node.items:
                s = self._build(item, s)
            return s
        if isinstance(node, _Alt):
            if len(node.options) == 1:
                return self._build(node.options[0], s)
            end = self._state()
            for option in node.options:
                self.eps[self._build(option, s)].append(end)
            return end
        if isinstance(node, _Repeat):
            for _ in range(node.lo):
                s = self._copy(node.node, s)
            if node.hi is None:
                loop = self._state()
                self.eps[s].append(loop)
                self.eps[self._copy(node.node, loop)].append(loop)
                return loop
            if node.hi == node.lo:
                return s
            end = self._state()
            self.eps[s].append(end)
            for _ in range(node.hi - node.lo):
                s = self._copy(node.node, s)
                self.eps[s].append(end)
            return end
        raise _Undecided  # an anchor that is not at an edge of a top-level alternative


def _alphabet(charsets: dict[Ranges, int], budget: _Budget) -> tuple[int, list[list[int]]]:
    """Cut the code points into symbols no charset tells apart; per charset, its symbols."""
    cuts = {0}
    for ranges in charsets:
        for lo, hi in ranges:
            cuts.add(lo)
            cuts.add(hi + 1)
    cuts.discard(_TOP + 1)
    bounds = sorted(cuts)
    signature = [0] * len(bounds)
    for ranges, cid in charsets.items():
        bit = 1 << cid
        for lo, hi in ranges:
            a, b = bisect_left(bounds, lo), bisect_left(bounds, hi + 1)
            budget.spend(b - a)
            for k in range(a, b):
                signature[k] |= bit
    symbols: dict[int, int] = {}
    for sig in signature:
        symbols.setdefault(sig, len(symbols))
    members: list[list[int]] = [[] for _ in charsets]
    budget.spend(len(symbols) * len(charsets))
    for sig, sym in symbols.items():
        for cid in range(len(charsets)):
            if sig >> cid & 1:
                members[cid].append(sym)
    return len(symbols), members


class _DFA:
    """Subset construction on demand; a state is the set of important NFA states reached."""

    def __init__(self, nfa: _NFA, nsym: int, members: list[list[int]], budget: _Budget) -> None:
        self.nfa = nfa
        self.nsym = nsym
        self.members = members
        self.budget = budget
        self.index: dict[frozenset[int], int] = {}
        self.sets: list[frozenset[int]] = []
        self.trans: list[list[int] | None] = []
        self.reach: dict[int, frozenset[int]] = {}
        self.dead = self._intern(frozenset())
        self.start = self._intern(self._closure({nfa.start}))

    def _intern(self, states: frozenset[int]) -> int:
        i = self.index.get(states)
        if i is None:
            i = self.index[states] = len(self.sets)
            self.sets.append(states)
            self.trans.append(None)
        return i

    def _closure(self, seeds: set[int]) -> frozenset[int]:
        """The important states reachable from `seeds` over epsilon edges."""
        out: set[int] = set()
        for s in seeds:
            out |= self._reach(s)
        self.budget.spend(len(seeds) + len(out))
        return frozenset(out)

    def _reach(self, state: int) -> frozenset[int]:
        done = self.reach.get(state)
        if done is not None:
            return done
        seen = {state}
        stack = [state]
        eps = self.nfa.eps
        while stack:
            for t in eps[stack.pop()]:
                if t not in seen:
                    seen.add(t)
                    stack.append(t)
        self.budget.spend(len(seen))
        important = self.nfa.important
        done = self.reach[state] = frozenset(s for s in seen if important[s])
        return done

    def accepting(self, i: int) -> bool:
        return self.nfa.accept in self.sets[i]

    def step(self, i: int) -> list[int]:
        done = self.trans[i]
        if done is not None:
            return done
        self.budget.spend(self.nsym)
        buckets: list[set[int]] = [set() for _ in range(self.nsym)]
        for s in self.sets[i]:
            for cid, target in self.nfa.edges[s]:
                syms = self.members[cid]
                self.budget.spend(len(syms) + 1)
                for sym in syms:
                    buckets[sym].add(target)
        seen: dict[frozenset[int], int] = {}
        out: list[int] = []
        for bucket in buckets:
            key = frozenset(bucket)
            j = seen.get(key)
            if j is None:
                j = seen[key] = self._intern(self._closure(bucket)) if bucket else self.dead
            out.append(j)
        self.trans[i] = out
        return out

    def universal(self, i: int) -> bool:
        """Accepts here and stays here on every symbol: every continuation is accepted."""
        return self.accepting(i) and all(j == i for j in self.step(i))


def _included(new: _DFA, old: _DFA, budget: _Budget) -> bool | None:
    first = (new.start, old.start)
    seen = {first}
    queue = deque([first])
    while queue:
        a, b = queue.popleft()
        if new.accepting(a) and not old.accepting(b):
            return False
        if old.universal(b):
            continue
        budget.spend(new.nsym)
        for na, nb in zip(new.step(a), old.step(b), strict=True):
            if na == new.dead or (na, nb) in seen:
                continue
            if len(seen) >= MAX_PRODUCT_STATES:
                return None
            seen.add((na, nb))
            queue.append((na, nb))
    return True


def pattern_subset(old: str, new: str) -> bool | None:
    """True when every string pattern `new` accepts, `old` accepts too (new is at least as
    strict); False when some string passes `new` but not `old`; None when undecided
    (unsupported syntax, or a pattern, expansion or search over its limit)."""
    if len(old) > MAX_PATTERN_LEN or len(new) > MAX_PATTERN_LEN:
        return None
    try:
        old_lang, new_lang = _language(old), _language(new)
        charsets: dict[Ranges, int] = {}
        old_nfa, new_nfa = _NFA(old_lang, charsets), _NFA(new_lang, charsets)
        budget = _Budget()
        nsym, members = _alphabet(charsets, budget)
        new_dfa = _DFA(new_nfa, nsym, members, budget)
        return _included(new_dfa, _DFA(old_nfa, nsym, members, budget), budget)
    except _Undecided:
        return None
