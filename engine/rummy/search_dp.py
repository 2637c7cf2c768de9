"""The exact partition search behind every rummy move search (rules/rummy.md RM-AMB-5).

Question: given copies of each face that MUST lie on the table (the table's cards), copies
that MAY (hand cards, which score, and Tahiti's unused singletons, which do not) and wild
jokers (freed ones that must be placed, hand ones that score, singleton ones that do not),
split the used cards into valid sets and runs; among all splits, the best by an objective:

- ``"count"``: the most hand cards used (the bot's move, and "is there a move at all");
- ``"first"``: the earliest hand card in hand order (♣ ♦ ♥ ♠, then A … K; jokers last)
  that some split uses: RM-AMB-5's hint card.

It is a dynamic programme over the places of a suit, 1 (ace low) … 13 (king), 14 (ace
high), one suit at a time within a place. The state holds, per suit, the runs still open
(tokens, search_runs), the copies of the current rank sent to sets, the jokers used, the
aces kept back to stand high, the Vatican opening run's progress, and what the joker
rules track (search_hot). A run that stops must hold 3 cards; a place's set copies must
split into sets (search_sets). Every group of a table is a run on consecutive places of
one suit or a set of one rank, so every legal split is a path through these states, and
the best value per state is all the future needs: the search is exact, not a heuristic.

Most copies are only counted. Cards the joker rules name one by one are passed as `Hot`
cards and followed individually; a Tahiti group frozen round its joker is a `Block`: it
stays whole and takes hand cards only, at either end (runs) or in the suit it lacks (sets).

Why it is fast: tokens forget all but what decides the future, equal states merge, the
per-suit choices for untracked copies are cached by their inputs, and a run is opened only
where the cards (or jokers) can carry it to three.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from engine.rummy.search_hot import Marked, close, final_ok, marked_splits, payload, with_payload
from engine.rummy.search_runs import (
    CAND,
    FROZEN,
    JOK,
    LEN,
    LOW,
    NAT,
    NATC,
    WILD_C,
    WILD_J,
    Option,
    grow,
    options,
    start,
)
from engine.rummy.search_sets import set_jokers, split_sets
from engine.rummy.variants import AceRule

__all__ = [
    "BLOCK",
    "HAND",
    "HAND_CLS",
    "HAND_JOKER",
    "HOT",
    "JOKER_INDEX",
    "MUST",
    "NATURAL",
    "SPARE",
    "WILD",
    "Block",
    "Hot",
    "Objective",
    "Problem",
    "Slot",
    "Solution",
    "face_of",
    "solve",
]

Objective = Literal["count", "first"]

# Slot tags: what fills a place of a solved group. Slot = (face, tag, key).
NATURAL = 0  # an untracked copy of the face (the caller picks which)
HAND = 1  # an untracked copy that must come from the hand
WILD = 2  # an untracked joker named as the face
HAND_JOKER = 3  # an untracked joker from the hand
HOT = 4  # tracked card number `key` (a joker: named as the face)
BLOCK = 5  # frozen block number `key`, whole (face -1)
JOKER_INDEX = 52  # a hand joker's place in hand order: after every natural card
MUST, SPARE, HAND_CLS = 0, 1, 2  # where a tracked card comes from

Slot = tuple[int, int, int]


class Hot(msgspec.Struct, frozen=True):
    """A card followed one by one: its face (-1: a joker), where it comes from, and what a
    group holding it adds to the group's payload (search_hot)."""

    face: int
    cls: int
    counts: int = 0
    flags: int = 0


class Block(msgspec.Struct, frozen=True):
    """A frozen Tahiti group: a run of `suit` on places low..high that hand cards may extend
    (up to `left` places below), or a set at place `low` (suit -1) that may take a hand
    card of suit `missing`."""

    suit: int
    low: int
    high: int
    left: int = 0
    missing: int = -1


class Problem(msgspec.Struct, frozen=True, kw_only=True):
    """Copies by face index (suit * 13 + rank - 1, suits ♣ ♦ ♥ ♠: hand order)."""

    ace: AceRule
    must: tuple[int, ...]  # untracked copies that must be used
    spare: tuple[int, ...]  # untracked copies that may be used and do not score
    hand: tuple[int, ...]  # untracked copies that may be used and score
    wild_must: int = 0
    wild_hand: int = 0
    wild_spare: int = 0
    joker_limit: int = 0  # jokers a group may hold
    first_play: bool = False  # a Vatican opening run is required
    hot: tuple[Hot, ...] = ()
    blocks: tuple[Block, ...] = ()
    kinds: tuple[int, ...] = ()  # per watched joker: search_hot.FREED or STAYS


class Solution(msgspec.Struct, frozen=True):
    value: int  # "count": hand cards used; "first": minus the first hand index used
    groups: tuple[tuple[Slot, ...], ...]


def face_of(place: int, suit: int) -> int:
    return suit * 13 + (0 if place == 14 else place - 1)


def solve(problem: Problem, objective: Objective) -> Solution | None:
    """The best split by `objective` that uses at least one hand card, or None."""
    return _Search(problem, objective).run()


# State: 0-3 tokens per suit; 4 set copies of this rank per suit; 5 tracked cards sent to
# this rank's sets; 6 untracked jokers used; 7 aces kept for place 14 per suit (total + 8 ×
# from the hand); 8 opening (0 none, 1 candidate open, 2 opened); 9 jokers in the
# candidate; 10 joker-rule totals; 11 tracked jokers placed (bits); 12 tracked aces kept.
State = tuple[
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[Marked, ...],
    int,
    tuple[int, ...],
    int,
    int,
    tuple[int, ...],
    int,
    int,
]
# Per state: its best value and how it was reached ((previous state, the choice made)).
Layer = dict[State, tuple[int, Any]]
_NO_VALUE = -(10**6)


class _Pre:
    """One way to place this face's tracked cards, tracked jokers and frozen groups, before
    the untracked copies are placed (search_runs.options)."""

    __slots__ = (
        "cand",
        "ended",
        "gain",
        "kmask",
        "log",
        "m",
        "new",
        "o1",
        "o1k",
        "rest",
        "sets",
        "taken",
        "wmask",
    )

    def __init__(self, rest: list[int], m: int, o1: int, o1k: int, wmask: int, kmask: int) -> None:
        self.rest = rest
        self.new: list[int] = []
        self.ended: list[int] = []
        self.m, self.o1, self.o1k = m, o1, o1k
        self.gain = 0
        self.wmask, self.kmask = wmask, kmask
        self.sets: list[Marked] = []
        self.cand = False
        self.taken = 0  # tracked cards of this face already placed (bits)
        self.log: list[tuple[Any, ...]] = []

    def copy(self) -> _Pre:
        out = _Pre(list(self.rest), self.m, self.o1, self.o1k, self.wmask, self.kmask)
        out.new, out.ended, out.gain = list(self.new), list(self.ended), self.gain
        out.sets, out.cand, out.taken = list(self.sets), self.cand, self.taken
        out.log = list(self.log)
        return out


class _Search:
    def __init__(self, problem: Problem, objective: Objective) -> None:
        self.p = problem
        self.objective = objective
        self.budget = problem.wild_must + problem.wild_hand + problem.wild_spare
        self.hot_wild = [k for k, h in enumerate(problem.hot) if h.face < 0]
        self.limit = problem.joker_limit if self.budget or self.hot_wild else 0
        ace = problem.ace
        self.places = list(range(2 if ace == "high" else 1, 14 if ace == "low" else 15))
        self.split_aces = ace == "high_or_low"
        self.hot_at: dict[int, list[int]] = {}
        for k, h in enumerate(problem.hot):
            if h.face >= 0:
                self.hot_at.setdefault(h.face, []).append(k)
        self.hands = problem.first_play or bool(problem.blocks)
        self.kinds = problem.kinds
        self.reach = [self._reach(s) for s in range(4)]

    def _avail(self, place: int, suit: int) -> bool:
        f = face_of(place, suit)
        p = self.p
        return bool(p.must[f] + p.spare[f] + p.hand[f] or f in self.hot_at) or any(
            b.suit == suit and b.low - b.left <= place <= b.high for b in p.blocks
        )

    def _reach(self, suit: int) -> dict[int, int]:
        """Per place: how many later places (0, 1, 2+) a run of this suit can still take."""
        out: dict[int, int] = {}
        ahead = 0
        free = bool(self.budget or self.hot_wild)
        for place in reversed(self.places):
            out[place] = min(ahead, 2)
            ahead = ahead + 1 if free or self._avail(place, suit) else 0
        return out

    def _room(self, place: int, suit: int) -> tuple[int, int]:
        reach = self.reach[suit][place]
        return reach, min(reach, max(0, 13 - place))

    def run(self) -> Solution | None:
        opening = 0 if self.p.first_play else 2
        glob = (0,) * len(self.kinds)
        begin: State = ((), (), (), (), (0, 0, 0, 0), (), 0, (0, 0, 0, 0), opening, 0, glob, 0, 0)
        zero = _NO_VALUE if self.objective == "first" else 0
        layer: Layer = {begin: (zero, None)}
        trail: list[Layer] = []
        for place in self.places:
            for suit in range(4):
                layer = self._suit_step(layer, place, suit)
                trail.append(layer)
            layer = self._rank_step(layer)
            trail.append(layer)
        best = self._close(layer)
        if best is None:
            return None
        value, key = best
        return Solution(value, _Rebuild(self, trail).groups(key))

    # ---- one suit at one place -----------------------------------------------------------

    def _suit_step(self, layer: Layer, place: int, suit: int) -> Layer:
        p = self.p
        face = face_of(place, suit)
        high_place = place == 14 and self.split_aces
        m0, o0, o1 = (0, 0, 0) if high_place else (p.must[face], p.spare[face], p.hand[face])
        hot_here = [] if high_place else self.hot_at.get(face, [])
        reach, reach_low = self._room(place, suit)
        may_defer = place == 1 and self.split_aces and self._k_reachable(suit)
        places = (place == 1, place == 14, high_place)
        busy = any(
            (b.suit == suit and b.low - b.left <= place <= b.low)
            or (b.suit < 0 and b.low == place and b.missing == suit)
            for b in p.blocks
        )
        first = self.objective == "first"
        out: Layer = {}
        for key, (value, _) in layer.items():
            toks = _runs(key)[suit]
            kept = key[7][suit] if high_place else 0
            m, o1k = (kept & 7, kept >> 3) if high_place else (m0, 0)
            avail_hot = hot_here
            if high_place:
                avail_hot = [k for k in self.hot_at.get(face, []) if key[12] >> k & 1]
            wild_free = [k for k in self.hot_wild if not key[11] >> k & 1]
            plain = not (avail_hot or wild_free or busy or any(t & FROZEN for t in toks))
            if plain and not toks and not (m or o0 or o1):
                _keep(out, key, value, (key, None))
                continue
            base = _Pre(list(toks), m, o1, o1k, key[11], key[12])
            if plain:
                pres = [base]
            else:
                pres = self._pre(base, key[8], place, suit, avail_hot, wild_free, may_defer)
            for pre in pres:
                opening = 1 if pre.cand and key[8] == 0 else key[8]
                rest = tuple(sorted(pre.rest))
                cold = options(
                    rest,
                    pre.m,
                    o0,
                    pre.o1,
                    pre.o1k,
                    min(self.budget - key[6], 4),
                    places,
                    reach,
                    reach_low,
                    may_defer,
                    self.limit,
                    opening,
                    self.hands,
                )
                for opt in cold:
                    nkey = self._next(key, suit, high_place, pre, opt)
                    if nkey is None:
                        continue
                    used = opt[3] + pre.gain
                    nv = (-face if used and value < -face else value) if first else value + used
                    _keep(out, nkey, nv, (key, (tuple(pre.log), rest, opt)))
        return out

    def _next(
        self, key: State, suit: int, high_place: bool, pre: _Pre, opt: Option
    ) -> State | None:
        glob = key[10]
        for tok in (*opt[7], *pre.ended):
            counts, flags = payload(tok)
            if counts or flags:
                closed = close(counts, flags, glob, self.kinds)
                if closed is None:
                    return None
                glob = closed
        acc = key[4]
        if opt[1]:
            acc_l = list(acc)
            acc_l[suit] += opt[1]
            acc = tuple(acc_l)
        acc_hot = key[5] if not pre.sets else tuple(sorted((*key[5], *pre.sets)))
        defer = key[7]
        if opt[6] is not None or high_place:
            kept_l = list(defer)
            kept_l[suit] = opt[6] or 0
            defer = tuple(kept_l)
        runs = [key[0], key[1], key[2], key[3]]
        runs[suit] = tuple(sorted((*opt[0], *pre.new)))
        opening = key[8]
        if self.p.first_play and opening != 2:
            if any(t & CAND for t in (*opt[7], *pre.ended)):
                opening = 2
            else:
                opening = 1 if any(t & CAND for r in runs for t in r) else 0
        return (
            runs[0],
            runs[1],
            runs[2],
            runs[3],
            acc,
            acc_hot,
            key[6] + opt[2],
            defer,
            opening,
            key[9] + opt[5],
            glob,
            pre.wmask,
            pre.kmask,
        )

    def _k_reachable(self, suit: int) -> bool:
        """An ace kept for place 14 needs a run through Q and K (or jokers) to stand in."""
        return bool(self.budget or self.hot_wild) or (
            self._avail(12, suit) and self._avail(13, suit)
        )

    # ---- tracked cards, tracked jokers and frozen groups at one face ----------------------

    def _pre(
        self,
        base: _Pre,
        opening: int,
        place: int,
        suit: int,
        avail_hot: list[int],
        wild_free: list[int],
        may_defer: bool,
    ) -> list[_Pre]:
        face = face_of(place, suit)
        kept_place = place == 14 and self.split_aces
        pres = self._frozen(base, place, suit, face, avail_hot)
        for k in avail_hot:
            pres = [
                x
                for pre in pres
                for x in self._place_hot(pre, k, place, suit, opening, kept_place, may_defer)
            ]
        for k in wild_free:
            pres = [x for pre in pres for x in self._place_wild(pre, k, place, suit, kept_place)]
        return pres

    def _frozen(
        self, base: _Pre, place: int, suit: int, face: int, avail_hot: list[int]
    ) -> list[_Pre]:
        """Frozen groups here: a run's block passes, begins, or takes a hand card at an end;
        a set of three may take a hand card of its missing suit (RM-TAH-8, RM-AMB-25)."""
        pres = [base]
        reach, reach_low = self._room(place, suit)
        for number, block in enumerate(self.p.blocks):
            if block.suit < 0:
                if block.low == place and block.missing == suit:
                    pres = [
                        x
                        for pre in pres
                        for x in [pre, *self._take_hand(pre, face, avail_hot, ("b", number))]
                    ]
                continue
            if block.suit != suit:
                continue
            mark = FROZEN | number << 8
            grown: list[_Pre] = []
            for pre in pres:
                mine = [t for t in pre.rest if t & (FROZEN | 768) == mark]
                if not mine:
                    if place == block.low:
                        new = 3 | mark | JOK | (LOW if place == 1 else 0)
                        pre.new.append(new)
                        pre.log.append(("s", "block", number, new))
                    grown.append(pre)
                    if block.low - block.left <= place < block.low:
                        new = 1 | mark | JOK | (LOW if place == 1 else 0)
                        for x in self._take_hand(pre, face, avail_hot, ("s",)):
                            x.new.append(new)
                            x.log[-1] = (*x.log[-1], new)
                            grown.append(x)
                    continue
                tok = mine[0]
                pre.rest.remove(tok)
                if block.low <= place <= block.high:
                    new = tok | LEN
                    how = "block" if place == block.low else "pass"
                    pre.new.append(new)
                    pre.log.append(("c", tok, how, number, new))
                    grown.append(pre)
                    continue
                if place > block.high:
                    done = pre.copy()
                    done.ended.append(tok)
                    done.log.append(("e", tok))
                    grown.append(done)
                    new_tok = grow(tok, NAT, place == 14, reach, reach_low, 1)
                else:
                    new_tok = (tok & ~LEN) | 1
                if new_tok is not None:
                    for x in self._take_hand(pre, face, avail_hot, ("c", tok)):
                        x.new.append(new_tok | JOK)
                        x.log[-1] = (*x.log[-1], new_tok | JOK)
                        grown.append(x)
            pres = grown
        return pres

    def _take_hand(
        self, pre: _Pre, face: int, avail_hot: list[int], head: tuple[Any, ...]
    ) -> list[_Pre]:
        """Copies of `pre` in which one hand card of this face is taken, untracked or
        tracked; the log gets `head` + (how, key)."""
        out: list[_Pre] = []
        kept_place = self.split_aces and face % 13 == 0 and pre.m and not pre.o1 and pre.o1k
        if kept_place:
            x = pre.copy()
            x.o1k -= 1
            x.m -= 1
            x.log.append((*head, "hand", -1))
            out.append(x)
        elif pre.o1 > 0:
            x = pre.copy()
            x.o1 -= 1
            x.gain += 1
            x.log.append((*head, "hand", -1))
            out.append(x)
        for k in avail_hot:
            if self.p.hot[k].cls != HAND_CLS or pre.taken >> k & 1:
                continue
            x = pre.copy()
            x.taken |= 1 << k
            x.kmask &= ~(1 << k)
            x.gain += 1
            x.log.append((*head, "hot", k))
            out.append(x)
        return out

    def _place_hot(
        self,
        pre: _Pre,
        k: int,
        place: int,
        suit: int,
        opening: int,
        kept_place: bool,
        may_defer: bool,
    ) -> list[_Pre]:
        """Where tracked card k goes: on an open run, a new run, the rank's sets, kept for
        the high ace, or (a hand or spare card) nowhere."""
        if pre.taken >> k & 1:
            return [pre]
        h = self.p.hot[k]
        out: list[_Pre] = []
        if h.cls != MUST and not kept_place:
            out.append(pre)
        reach, reach_low = self._room(place, suit)
        top = place == 14
        score = 1 if h.cls == HAND_CLS else 0

        def placed() -> _Pre:
            x = pre.copy()
            x.taken |= 1 << k
            x.kmask &= ~(1 << k)
            x.gain += score
            return x

        for tok in sorted(set(pre.rest)):
            action = NATC if tok & CAND else NAT
            if action == NATC and not score:
                continue
            new = grow(tok, action, top, reach, reach_low, self.limit)
            if new is None:
                continue
            x = placed()
            x.rest.remove(tok)
            new = with_payload(new, h.counts, h.flags)
            x.new.append(new)
            x.log.append(("c", tok, "hot", k, new))
            out.append(x)
        if kept_place:
            return out
        actions = [NAT]
        if score and opening == 0 and not pre.cand:
            actions.append(NATC)
        for action in actions:
            new = start(action, place == 1, top, reach, reach_low, self.limit)
            if new is None:
                continue
            x = placed()
            x.cand = x.cand or action == NATC
            new = with_payload(new, h.counts, h.flags)
            x.new.append(new)
            x.log.append(("s", "hot", k, new))
            out.append(x)
        x = placed()
        x.sets.append((suit, h.counts, h.flags, k))
        out.append(x)
        if may_defer:
            x = pre.copy()
            x.taken |= 1 << k
            x.kmask |= 1 << k
            out.append(x)
        return out

    def _place_wild(self, pre: _Pre, k: int, place: int, suit: int, kept_place: bool) -> list[_Pre]:
        """Tracked joker k (a freed table joker) stays unplaced, or goes here as this face."""
        h = self.p.hot[k]
        out = [pre]
        reach, reach_low = self._room(place, suit)
        top = place == 14
        for tok in sorted(set(pre.rest)):
            new = grow(tok, WILD_J, top, reach, reach_low, self.limit)
            if new is None:
                continue
            x = pre.copy()
            x.wmask |= 1 << k
            x.rest.remove(tok)
            new = with_payload(new, h.counts, h.flags)
            x.new.append(new)
            x.log.append(("c", tok, "hot", k, new))
            out.append(x)
        new = start(WILD_J, place == 1, top, reach, reach_low, self.limit)
        if new is not None:
            x = pre.copy()
            x.wmask |= 1 << k
            new = with_payload(new, h.counts, h.flags)
            x.new.append(new)
            x.log.append(("s", "hot", k, new))
            out.append(x)
        if not kept_place:
            x = pre.copy()
            x.wmask |= 1 << k
            x.sets.append((-1, h.counts, h.flags, k))
            out.append(x)
        return out

    # ---- the sets of one rank ------------------------------------------------------------

    def _rank_step(self, layer: Layer) -> Layer:
        out: Layer = {}
        for key, (value, _) in layer.items():
            acc, acc_hot = key[4], key[5]
            if not any(acc) and not acc_hot:
                _keep(out, key, value, (key, None))
                continue
            spare = self.budget - key[6]
            if not acc_hot:
                for j in set_jokers(tuple(sorted(acc)), spare, self.limit):
                    nkey = self._after_sets(key, j, key[10])
                    _keep(out, nkey, value, (key, (j, None)))
                continue
            for j in range(spare + 1):
                for pays, witness in marked_splits(acc, acc_hot, j, self.limit):
                    glob: tuple[int, ...] | None = key[10]
                    for counts, flags in pays:
                        if glob is not None:
                            glob = close(counts, flags, glob, self.kinds)
                    if glob is not None:
                        _keep(out, self._after_sets(key, j, glob), value, (key, (j, witness)))
        return out

    def _after_sets(self, key: State, jokers: int, glob: tuple[int, ...]) -> State:
        return (
            key[0],
            key[1],
            key[2],
            key[3],
            (0, 0, 0, 0),
            (),
            key[6] + jokers,
            key[7],
            key[8],
            key[9],
            glob,
            key[11],
            key[12],
        )

    # ---- the end ---------------------------------------------------------------------------

    def _close(self, layer: Layer) -> tuple[int, State] | None:
        p = self.p
        every_wild = sum(1 << k for k in self.hot_wild)
        best: tuple[int, State] | None = None
        count = self.objective == "count"
        for key, (value, _) in layer.items():
            if key[11] != every_wild or key[12]:
                continue
            glob: tuple[int, ...] | None = key[10]
            for toks in _runs(key):
                for tok in toks:
                    if tok & LEN != 3 or (tok & CAND and (tok >> 5) & 3 != 3):
                        glob = None
                        break
                    counts, flags = payload(tok)
                    if glob is not None and (counts or flags):
                        glob = close(counts, flags, glob, self.kinds)
                if glob is None:
                    break
            if glob is None or not final_ok(glob, self.kinds):
                continue
            if p.first_play and key[8] != 2 and not any(t & CAND for r in _runs(key) for t in r):
                continue
            extra = key[6] - p.wild_must
            hand_jokers = min(p.wild_hand, extra)
            if extra < 0 or hand_jokers < key[9]:
                continue
            v = value
            if hand_jokers:
                v = v + hand_jokers if count else max(v, -JOKER_INDEX)
            if v <= (0 if count else _NO_VALUE):
                continue
            if best is None or v > best[0]:
                best = (v, key)
        return best


class _Rebuild:
    """Walks the trail back from the best end state and replays its choices on real runs."""

    def __init__(self, search: _Search, trail: list[Layer]) -> None:
        self.s = search
        self.trail = trail

    def groups(self, key: State) -> tuple[tuple[Slot, ...], ...]:
        steps: list[tuple[State, Any]] = []
        for layer in reversed(self.trail):
            prev, how = layer[key][1]
            steps.append((prev, how))
            key = prev
        steps.reverse()
        groups: list[list[Slot]] = []
        runs: list[dict[int, list[list[Slot]]]] = [{} for _ in range(4)]
        block_ext: dict[int, list[Slot]] = {}
        k = 0
        for place in self.s.places:
            for suit in range(4):
                prev, how = steps[k]
                k += 1
                if how is not None:
                    log, rest, opt = how
                    self._apply(runs[suit], log, rest, opt, place, suit, groups, block_ext)
            prev, how = steps[k]
            k += 1
            if how is not None:
                jokers, witness = how
                groups.extend(self._sets(prev, place, jokers, witness))
        for by_token in runs:
            for bucket in by_token.values():
                groups.extend(bucket)
        for number, block in enumerate(self.s.p.blocks):
            if block.suit < 0:
                groups.append([(-1, BLOCK, number), *block_ext.get(number, [])])
        return tuple(tuple(g) for g in groups)

    def _apply(
        self,
        runs: dict[int, list[list[Slot]]],
        log: tuple[tuple[Any, ...], ...],
        rest: tuple[int, ...],
        opt: Option,
        place: int,
        suit: int,
        groups: list[list[Slot]],
        block_ext: dict[int, list[Slot]],
    ) -> None:
        face = face_of(place, suit)
        moved: list[tuple[int, list[Slot]]] = []
        for entry in log:
            kind = entry[0]
            if kind == "c":
                _, tok, how, ref, new = entry
                run = runs[tok].pop()
                if how != "pass":
                    run.append(_slot(face, how, ref))
                moved.append((new, run))
            elif kind == "s":
                _, how, ref, new = entry
                moved.append((new, [_slot(face, how, ref)]))
            elif kind == "e":
                groups.append(runs[entry[1]].pop())
            elif kind == "b":
                _, number, how, ref = entry
                block_ext.setdefault(number, []).append(_slot(face, how, ref))
        flat, starts = opt[8]
        for i, tok in enumerate(rest):
            act, new = flat[2 * i], flat[2 * i + 1]
            run = runs[tok].pop()
            if act == 0:
                groups.append(run)
                continue
            run.append((face, _SLOT_OF[act], -1))
            moved.append((new, run))
        for i in range(0, len(starts), 2):
            moved.append((starts[i], [(face, _SLOT_OF[starts[i + 1]], -1)]))
        for tok, run in moved:
            runs.setdefault(tok, []).append(run)

    def _sets(self, prev: State, place: int, jokers: int, witness: Any) -> list[list[Slot]]:
        faces = [face_of(place, s) for s in range(4)]
        out: list[list[Slot]] = []
        if witness is None:
            for mask, extra in split_sets(prev[4], jokers, self.s.limit) or ():
                group: list[Slot] = [(faces[s], NATURAL, -1) for s in range(4) if mask >> s & 1]
                missing = [s for s in range(4) if not mask >> s & 1]
                group += [(faces[s], WILD, -1) for s in missing[:extra]]
                out.append(group)
            return out
        hot = self.s.p.hot
        for mask, keys, named in witness:
            group = [(faces[s], NATURAL, -1) for s in range(4) if mask >> s & 1]
            free = list(named)
            for key in keys:
                if hot[key].face >= 0:
                    group.append((hot[key].face, HOT, key))
                else:
                    group.append((faces[free.pop(0)], HOT, key))
            group += [(faces[s], WILD, -1) for s in free]
            out.append(group)
        return out


_SLOT_OF = {NAT: NATURAL, NATC: HAND, WILD_J: WILD, WILD_C: HAND_JOKER}


def _slot(face: int, how: str, ref: int) -> Slot:
    if how == "hand":
        return (face, HAND, -1)
    if how == "block":
        return (-1, BLOCK, ref)
    return (face, HOT, ref)


def _runs(key: State) -> tuple[tuple[int, ...], ...]:
    return (key[0], key[1], key[2], key[3])


def _keep(out: Layer, key: State, value: int, back: Any) -> None:
    old = out.get(key)
    if old is None or value > old[0]:
        out[key] = (value, back)
