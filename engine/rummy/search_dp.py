"""The exact partition search behind every rummy move search (rules/rummy.md RM-AMB-5).

Question (search_types.Problem): given copies of each face that MUST lie on the table (the
table's cards), copies that MAY (hand cards, which score, and Tahiti's unused singletons,
which do not) and wild jokers (freed ones that must be placed, hand ones that score,
singleton ones that do not), split the used cards into valid sets and runs; among all
splits that use a hand card, the best by an objective:

- ``"count"``: the most hand cards used (the bot's move, and "is there a move at all");
- ``"first"``: the earliest hand card in hand order (♣ ♦ ♥ ♠, then A … K; jokers last)
  that some split uses: RM-AMB-5's hint card.

It is a dynamic programme over the places of a suit, 1 (ace low) … 13 (king), 14 (ace
high); within a place it first chooses the copies that go to the rank's sets (a vector
that splits exactly into sets, search_sets), then takes the four suits in turn. The state
holds, per suit, the runs still open (tokens, search_runs), the set copies each suit has
still to give, the jokers used, the aces left at place 1 for place 14, the Vatican opening
run's progress, and what the joker rules track (search_hot). A run that stops must hold 3
cards. Every group of a table is a run on consecutive places of one suit or a set of one
rank, so every legal split is a path through these states, and the best value per state
is all the future needs: the search is exact, not a heuristic.

Most copies are only counted; cards the joker rules name one by one are `Hot` and followed
individually (search_place); a rank whose sets may hold such a card checks its sets after
its suits instead (search_hot.marked_splits). Tahiti's frozen groups are `Block`s.

Why it is fast: tokens forget all but what decides the future; equal states merge; a run
is opened only where cards or the jokers left can carry it to three; a rank offers only
set choices that are sets; the per-suit choices are cached by their inputs; and with a
`bound` (a value already reached), states that cannot beat it are dropped.

A run never holds a low ace and a high ace (the same card twice, RM-GRP-4), so none
exceeds 13 cards (RM-AMB-6); a run that began on place 1 cannot reach place 14.
"""

from __future__ import annotations

from typing import Any

from engine.rummy.search_hot import COUNT_SHIFT, close, final_ok, marked_splits, payload
from engine.rummy.search_mirror import mirror, unmirror
from engine.rummy.search_place import Placer, Pre
from engine.rummy.search_rebuild import Step, rebuild
from engine.rummy.search_runs import (
    CAND,
    EJ,
    FROZEN,
    JOK,
    LEN,
    LOW,
    S2,
    S3,
    STREAK,
    Option,
    options,
)
from engine.rummy.search_sets import set_jokers, set_room, set_vectors
from engine.rummy.search_types import HAND_CLS, JOKER_INDEX, Objective, Problem, Solution, face_of

__all__ = ["solve"]

# State: 0 open runs (tokens) per suit; 1 set copies per suit (chosen for this rank and not
# yet given, or given so far where the rank checks its sets after its suits); 2 tracked
# cards sent to this rank's sets; 3 untracked jokers used; 4 aces left at place 1 per suit
# (must + 8 × spare + 64 × hand); 5 opening (0 none, 1 candidate open, 2 opened); 6 jokers
# in the candidate; 7 joker-rule totals; 8 tracked jokers placed; 9 tracked aces waiting;
# 10 room for more jokers in the closed groups (counted up to the jokers there are).
State = tuple[
    tuple[tuple[int, ...], ...],
    tuple[int, ...],
    tuple[tuple[int, int, int, int], ...],
    int,
    tuple[int, ...],
    int,
    int,
    tuple[int, ...],
    int,
    int,
    int,
]
# Per state: its best value and how it was reached: (previous state, the choice made).
Layer = dict[State, tuple[int, Any]]
_NO_VALUE = -(10**6)
_NO_HOPE = 10**6  # no hand card left: the earliest index lies beyond every value
_ZERO4 = (0, 0, 0, 0)
_PRUNE_FROM = 64  # layers smaller than this are not worth comparing
# A token that may stop at once and carries nothing else: 3+ cards, no joker to follow, not
# the opening candidate, not frozen, no Tahiti joker, no place-2/3 mark, nothing tracked.
_STRIP_MASK = LEN | EJ | CAND | FROZEN | JOK | S2 | S3 | ~((1 << COUNT_SHIFT) - 1)


def solve(problem: Problem, objective: Objective, bound: int | None = None) -> Solution | None:
    """The best split by `objective` that uses at least one hand card and whose value beats
    `bound` (when given), or None.

    For the hint, only hand cards earlier than the bound can beat it, and states that have
    passed them all without using one are dropped: the places are taken in the direction
    (A up to K, or K down to A on the mirrored problem) that passes them soonest."""
    if objective == "first" and bound is not None:
        places = _places_beating(problem, bound)
        if places is None:
            return None
        if places and max(places) > 15 - min(places):
            sol = _Search(mirror(problem), objective, bound).run()
            return None if sol is None else Solution(sol.value, unmirror(sol.groups))
    return _Search(problem, objective, bound).run()


def _places_beating(problem: Problem, bound: int) -> list[int] | None:
    """Places of the hand cards that could beat the hint's bound ([] : a hand joker could,
    so no direction helps), or None if none can."""
    if problem.wild_hand and bound < -JOKER_INDEX:
        return []
    faces = {f for f in range(52) if problem.hand[f]}
    faces |= {h.face for h in problem.hot if h.cls == HAND_CLS and h.face >= 0}
    order = problem.order or tuple(range(52))
    places = []
    for f in faces:
        if -order[f] > bound:
            rank = f % 13 + 1
            if rank != 1:
                places.append(rank)
            elif problem.ace == "high":
                places.append(14)
            elif problem.ace == "low":
                places.append(1)
            else:
                return []  # an ace may stand at either end
    return places or None


class _Search:
    def __init__(self, problem: Problem, objective: Objective, bound: int | None) -> None:
        self.p = problem
        self.first = objective == "first"
        self.bound = bound
        self.order = problem.order or tuple(range(52))
        self.budget = (
            problem.wild_must + problem.wild_first + problem.wild_hand + problem.wild_spare
        )
        # With no joker that must be placed, a joker never stands where a spare or hand
        # copy of the same face is left over (swapping them is never worse): search_runs.
        self.lazy = not problem.wild_must
        self.hot_wild = [k for k, h in enumerate(problem.hot) if h.face < 0]
        self.limit = problem.joker_limit if self.budget or self.hot_wild else 0
        ace = problem.ace
        self.places = list(range(2 if ace == "high" else 1, 14 if ace == "low" else 15))
        self.split_aces = ace == "high_or_low"
        # Where jokers may be left to the end (search_runs), the room the groups leave for
        # them is counted (up to the jokers there are), and in a suit where a run of 12 or
        # 13 cards could form, runs begun on place 2 or 3 are marked to know their length.
        self.placer = Placer(problem, self._room, self.limit, self._begin)
        self.hot_at = self.placer.hot_at
        self.follow = bool(self.budget)
        self.long = [self.follow and self._long(s) for s in range(4)]
        self.reach = [self._reach(s) for s in range(4)]
        # Ranks whose sets hold untracked cards only: their sets are chosen first.
        self.quota = {
            place
            for place in self.places
            if not self.hot_wild
            and not any(face_of(1 if place == 14 else place, s) in self.hot_at for s in range(4))
        }

    def _avail(self, place: int, suit: int) -> bool:
        f = face_of(place, suit)
        p = self.p
        return bool(p.must[f] + p.spare[f] + p.hand[f] or f in self.hot_at) or any(
            b.suit == suit and b.low - b.left <= place <= b.high for b in p.blocks
        )

    def _reach(self, suit: int) -> dict[int, tuple[int, int, int]]:
        """Per place, per jokers left (0, 1, 2+): how many later places (0, 1, 2+) a run of
        this suit can still take, a joker bridging a place with no card."""
        out: dict[int, tuple[int, int, int]] = {}
        places = self.places
        for i, place in enumerate(places):
            room = []
            for jokers in range(3):
                n, spare = 0, jokers
                for q in places[i + 1 : i + 3]:
                    if self._avail(q, suit):
                        n += 1
                    elif spare:
                        spare -= 1
                        n += 1
                    else:
                        break
                room.append(n)
            out[place] = (room[0], room[1], room[2])
        return out

    def _room(self, place: int, suit: int, jokers: int) -> tuple[int, int]:
        reach = self.reach[suit][place][min(jokers, 2)]
        return reach, min(reach, max(0, 13 - place))

    def _long(self, suit: int) -> bool:
        """Could 12 places in a row of this suit be filled (cards, or jokers for gaps)?"""
        jokers = self.budget + len(self.hot_wild)
        for first in range(1, 4):
            window = [p for p in range(first, first + 12) if p in self.places]
            gaps = sum(1 for p in window if not self._avail(p, suit))
            if len(window) == 12 and gaps <= jokers:
                return True
        return False

    def _begin(self, place: int, suit: int) -> int:
        if not self.long[suit]:
            return 0
        return S2 if place == 2 else S3 if place == 3 else 0

    def _run_room(self, tok: int, last: int) -> int:
        """Jokers a run ending on place `last` can still take at its ends (0, 1, 2+)."""
        if self.limit == 1 and tok & JOK:
            return 0
        if tok & LOW:
            length = last
        elif tok & S2:
            length = last - 1
        elif tok & S3:
            length = last - 2
        else:
            return 2
        return max(0, min(2, 13 - length))

    def _roomier(self, room: int, gain: int) -> int:
        """Room after a group closes that can take `gain` more jokers: counted up to the
        jokers there are (one a group where a group holds one at most)."""
        return min(self.budget, room + (min(gain, 1) if self.limit == 1 else gain))

    def _jokers_left(self, key: State) -> int:
        return self.budget - key[3] + sum(1 for k in self.hot_wild if not key[8] >> k & 1)

    def _hopes(self) -> dict[tuple[int, int], tuple[int, int]]:
        """Per face in search order: the hand cards it and every later face may still
        score (hand jokers always), and the earliest hand index among them."""
        p = self.p
        later = p.wild_hand
        earliest = JOKER_INDEX if p.wild_hand else _NO_HOPE
        out: dict[tuple[int, int], tuple[int, int]] = {}
        for place in reversed(self.places):
            for suit in (3, 2, 1, 0):
                # Where aces may stand high, they may be used as late as place 14.
                if not (place == 1 and self.split_aces):
                    face = face_of(place, suit)
                    tracked = self.hot_at.get(face, [])
                    n = p.hand[face] + sum(1 for k in tracked if p.hot[k].cls == HAND_CLS)
                    later += n
                    if n:
                        earliest = min(earliest, self.order[face])
                out[place, suit] = (later, earliest)
        return out

    def run(self) -> Solution | None:
        opening = 0 if self.p.first_play else 2
        glob = (0,) * len(self.p.kinds)
        begin: State = (((), (), (), ()), _ZERO4, (), 0, _ZERO4, opening, 0, glob, 0, 0, 0)
        layer: Layer = {begin: (_NO_VALUE if self.first else 0, None)}
        trail: list[Step] = []
        hopes = self._hopes()
        for place in self.places:
            quota = place in self.quota
            if quota:
                layer = self._set_step(layer, place)
                trail.append(("set", place, -1, layer))
            for suit in range(4):
                layer = self._suit_step(layer, place, suit, hopes[place, suit], quota)
                if len(layer) > _PRUNE_FROM:
                    layer = self._prune(layer, place)
                trail.append(("suit", place, suit, layer))
            if not quota:
                layer = self._rank_step(layer)
                trail.append(("rank", place, -1, layer))
        best = self._close(layer)
        if best is None:
            return None
        value, key, absorb = best
        if self.first:
            value = -_index(value)
        return Solution(value, rebuild(self.p, self.limit, trail, key, absorb))

    # ---- a rank's sets, chosen first ---------------------------------------------------------

    def _counts(self, key: State, place: int, suit: int) -> tuple[int, int, int]:
        """Untracked copies of this face: (must, spare, hand)."""
        if place == 14 and self.split_aces:
            left = key[4][suit]
            return left & 7, (left >> 3) & 7, left >> 6
        f = face_of(place, suit)
        return self.p.must[f], self.p.spare[f], self.p.hand[f]

    def _set_step(self, layer: Layer, place: int) -> Layer:
        out: Layer = {}
        no_sets = place == 1 and self.split_aces  # aces form sets at place 14 there
        for key, (value, _) in layer.items():
            avail = tuple(sum(self._counts(key, place, s)) for s in range(4))
            if no_sets or not any(avail):
                _keep(out, key, value, (key, (_ZERO4, 0)))
                continue
            for vector, jokers in set_vectors(avail, self.budget - key[3], self.limit):
                room = key[10]
                if self.follow:
                    room = self._roomier(room, set_room(vector, jokers, self.limit))
                nkey: State = (key[0], vector, key[2], key[3] + jokers, *key[4:10], room)
                _keep(out, nkey, value, (key, (vector, jokers)))
        return out

    # ---- one suit at one place -----------------------------------------------------------

    def _suit_step(
        self, layer: Layer, place: int, suit: int, hope: tuple[int, int], quota: bool
    ) -> Layer:
        """One face: every state's ways on. `hope` (hand cards at this face and later, the
        earliest hand index among them) lets states that cannot beat the bound go."""
        p = self.p
        face = face_of(place, suit)
        low_aces = place == 1 and self.split_aces
        high_aces = place == 14 and self.split_aces
        hot_face = self.hot_at.get(face, [])
        frozen = any(b.suit == suit or (b.suit < 0 and b.low == place) for b in p.blocks)
        # Nothing tracked, no joker to follow, no frozen group: the plain way, for speed.
        plain = not (hot_face or self.hot_wild or frozen)
        counts = None if high_aces else (p.must[face], p.spare[face], p.hand[face])
        rooms = None if self.budget or self.hot_wild else self._room(place, suit, 0)
        first, bound = self.first, self.bound
        rank = self.order[face]  # the face's place in hand order
        begin = self._begin(place, suit)
        low, top, sets, limit = place == 1, place == 14, not low_aces, self.limit
        out: Layer = {}
        for key, (value, _) in layer.items():
            if bound is not None and (
                min(_index(value), hope[1]) >= -bound if first else value + hope[0] <= bound
            ):
                continue
            toks = key[0][suit]
            m, o0, o1 = counts or self._counts(key, place, suit)
            want = key[1][suit] if quota else -1
            if plain and not toks and not (m or o0 or o1):
                if want <= 0:
                    _keep(out, key, value, (key, None))
                continue
            if plain:
                left = self.budget - key[3]
                reach, reach_low = rooms or self._room(place, suit, left)
                by_q = options(
                    toks,
                    m,
                    o0,
                    o1,
                    min(left, 4),
                    low,
                    top,
                    reach,
                    reach_low,
                    sets,
                    low_aces,
                    limit,
                    key[5],
                    begin,
                    self.lazy,
                )
                for opt in by_q.get(want, ()):
                    nkey = self._next(key, place, suit, quota, opt)
                    if nkey is None:
                        continue
                    used = opt[3]
                    nv = _gain(value, rank, used) if first else value + used
                    _keep(out, nkey, nv, (key, ((), toks, opt)))
                continue
            left = self._jokers_left(key)
            reach, reach_low = rooms or self._room(place, suit, left)
            hot = [k for k in hot_face if key[9] >> k & 1] if high_aces else hot_face
            wild = [k for k in self.hot_wild if not key[8] >> k & 1]
            base = Pre(list(toks), m, o1, key[8], key[9], left)
            for pre in self.placer.place(base, key[5], place, suit, hot, wild):
                opening = 1 if pre.cand and key[5] == 0 else key[5]
                rest = tuple(sorted(pre.rest))
                by_q = options(
                    rest,
                    pre.m,
                    o0,
                    pre.o1,
                    min(self.budget - key[3], 4),
                    low,
                    top,
                    reach,
                    reach_low,
                    sets,
                    low_aces,
                    limit,
                    opening,
                    begin,
                    self.lazy,
                )
                log = tuple(pre.log)
                for opt in by_q.get(want, ()):
                    nkey = self._next(key, place, suit, quota, opt, pre)
                    if nkey is None:
                        continue
                    used = opt[3] + pre.gain
                    nv = _gain(value, rank, used) if first else value + used
                    _keep(out, nkey, nv, (key, (log, rest, opt)))
        return out

    def _next(
        self, key: State, place: int, suit: int, quota: bool, opt: Option, pre: Pre | None = None
    ) -> State | None:
        glob = key[7]
        room = key[10]
        ended = (*opt[7], *pre.ended) if pre is not None and pre.ended else opt[7]
        for tok in ended:
            if tok >> COUNT_SHIFT:
                counts, flags = payload(tok)
                closed = close(counts, flags, glob, self.p.kinds)
                if closed is None:
                    return None
                glob = closed
            if self.follow:
                room = self._roomier(room, self._run_room(tok, place - 1))
        high_aces = place == 14 and self.split_aces
        runs = key[0]
        ntoks = tuple(sorted((*opt[0], *pre.new))) if pre is not None and pre.new else opt[0]
        runs = (*runs[:suit], ntoks, *runs[suit + 1 :])
        acc = key[1]
        if quota:
            if acc[suit]:
                acc = (*acc[:suit], 0, *acc[suit + 1 :])
        elif opt[1]:
            acc = (*acc[:suit], acc[suit] + opt[1], *acc[suit + 1 :])
        acc_hot = key[2] if pre is None or not pre.sets else tuple(sorted((*key[2], *pre.sets)))
        aces = key[4]
        if opt[6] is not None or high_aces:
            aces = (*aces[:suit], opt[6] or 0, *aces[suit + 1 :])
        opening = key[5]
        if self.p.first_play and opening != 2:
            if any(t & CAND for t in ended):
                opening = 2
            else:
                opening = 1 if any(t & CAND for r in runs for t in r) else 0
        return (
            runs,
            acc,
            acc_hot,
            key[3] + opt[2],
            aces,
            opening,
            key[6] + opt[5],
            glob,
            key[8] if pre is None else pre.wmask,
            key[9] if pre is None else pre.kmask,
            room,
        )

    def _prune(self, layer: Layer, place: int) -> Layer:
        """Drop states another state dominates: the same but for more open runs that may
        stop now (3 cards or more, no joker to follow, nothing tracked), as good a value,
        and as much room for jokers once those runs stop. Whatever the dominated state can
        still do, the other can too, stopping its extra runs at once."""
        groups: dict[tuple[Any, ...], list[tuple[tuple[tuple[int, ...], ...], int, int, State]]]
        groups = {}
        for key, (value, _) in layer.items():
            base = []
            extra = []
            for toks in key[0]:
                free = tuple(t for t in toks if t & _STRIP_MASK == 3)
                base.append(tuple(t for t in toks if t & _STRIP_MASK != 3) if free else toks)
                extra.append(free)
            groups.setdefault((tuple(base), *key[1:10]), []).append(
                (tuple(extra), value, key[10], key)
            )
        out = dict(layer)
        for members in groups.values():
            if len(members) < 2:
                continue
            members.sort(key=lambda m: (-sum(map(len, m[0])), -m[1]))
            kept: list[tuple[tuple[tuple[int, ...], ...], int, int, State]] = []
            for member in members:
                if any(self._dominates(k, member, place) for k in kept):
                    del out[member[3]]
                else:
                    kept.append(member)
        return out

    def _dominates(
        self,
        a: tuple[tuple[tuple[int, ...], ...], int, int, State],
        b: tuple[tuple[tuple[int, ...], ...], int, int, State],
        place: int,
    ) -> bool:
        if a[1] < b[1]:
            return False
        room = a[2]
        for mine, theirs in zip(a[0], b[0], strict=True):
            if len(mine) < len(theirs):
                return False
            rest = list(mine)
            for tok in theirs:
                if tok not in rest:
                    return False
                rest.remove(tok)
            for tok in rest:  # the room it leaves if it stops at once
                room = self._roomier(room, self._run_room(tok, place))
        return room >= b[2]

    # ---- a rank's sets, checked after its suits (tracked cards among them) ---------------

    def _rank_step(self, layer: Layer) -> Layer:
        out: Layer = {}
        for key, (value, _) in layer.items():
            acc, acc_hot = key[1], key[2]
            if not any(acc) and not acc_hot:
                _keep(out, key, value, (key, None))
                continue
            spare = self.budget - key[3]
            if not acc_hot:
                for j in set_jokers(tuple(sorted(acc)), spare, self.limit):
                    gain = set_room(acc, j, self.limit) if self.follow else 0
                    nkey = self._after_sets(key, j, key[7], gain)
                    _keep(out, nkey, value, (key, (j, None)))
                continue
            for j in range(spare + 1):
                for pays, witness in marked_splits(acc, acc_hot, j, self.limit):
                    glob: tuple[int, ...] | None = key[7]
                    for counts, flags in pays:
                        if glob is not None:
                            glob = close(counts, flags, glob, self.p.kinds)
                    if glob is not None:
                        gain = self._marked_room(witness) if self.follow else 0
                        nkey = self._after_sets(key, j, glob, gain)
                        _keep(out, nkey, value, (key, (j, witness)))
        return out

    def _marked_room(self, witness: Any) -> int:
        """Sets of three among a marked split's sets (joker-free where a group holds one)."""
        gain = 0
        for mask, keys, named in witness:
            size = (
                mask.bit_count()
                + len(keys)
                + len(named)
                - sum(1 for k in keys if self.p.hot[k].face < 0)
            )
            gain += size == 3 and not (self.limit == 1 and named)
        return gain

    def _after_sets(self, key: State, jokers: int, glob: tuple[int, ...], gain: int) -> State:
        room = self._roomier(key[10], gain)
        return (
            key[0],
            _ZERO4,
            (),
            key[3] + jokers,
            key[4],
            key[5],
            key[6],
            glob,
            key[8],
            key[9],
            room,
        )

    # ---- the end ---------------------------------------------------------------------------

    def _close(self, layer: Layer) -> tuple[int, State, int] | None:
        """The best end state, and how many jokers it lays where a group has room."""
        p = self.p
        every_wild = sum(1 << k for k in self.hot_wild)
        last = self.places[-1]
        best: tuple[int, State, int] | None = None
        for key, (value, _) in layer.items():
            if key[8] != every_wild or key[9]:
                continue
            glob: tuple[int, ...] | None = key[7]
            cand = False
            room = key[10]
            for toks in key[0]:
                for tok in toks:
                    if tok & (LEN | EJ) != 3 or (tok & CAND and tok // STREAK & 3 != 3):
                        glob = None
                        break
                    cand = cand or bool(tok & CAND)
                    counts, flags = payload(tok)
                    if glob is not None and (counts or flags):
                        glob = close(counts, flags, glob, p.kinds)
                    room = self._roomier(room, self._run_room(tok, last))
                if glob is None:
                    break
            if glob is None or not final_ok(glob, p.kinds):
                continue
            if p.first_play and key[5] != 2 and not cand:
                continue
            # Jokers left over go where the groups have room for them.
            absorb = min(self.budget - key[3], room)
            laid = key[3] + absorb
            if laid < p.wild_must or p.wild_must > laid - key[6] or key[6] > p.wild_hand:
                continue
            hand_jokers = min(p.wild_hand, max(0, laid - p.wild_must - p.wild_first))
            if hand_jokers < key[6]:
                continue
            v = value
            if hand_jokers:
                v = _gain(v, JOKER_INDEX, hand_jokers) if self.first else v + hand_jokers
            worth = -_index(v) if self.first else v
            if worth <= (-_NO_HOPE if self.first else 0) or (
                self.bound is not None and worth <= self.bound
            ):
                continue
            if best is None or v > best[0]:
                best = (v, key, absorb)
        return best


# The hint's value packs two keys: the earliest hand card used (in hand order), then the
# fewest hand cards used, so that the move shown adds no card it does not need to.
_PACK = 64


def _gain(value: int, order: int, used: int) -> int:
    """The hint's value after `used` hand cards of hand-order place `order` join."""
    if not used:
        return value
    if value == _NO_VALUE:
        return -(order * _PACK + min(used, _PACK - 1))
    index, count = divmod(-value, _PACK)
    return -(min(index, order) * _PACK + min(count + used, _PACK - 1))


def _index(value: int) -> int:
    """The earliest hand card a hint value has used (_NO_HOPE: none yet)."""
    return _NO_HOPE if value == _NO_VALUE else -value // _PACK


def _keep(out: Layer, key: State, value: int, back: Any) -> None:
    old = out.get(key)
    if old is None or value > old[0]:
        out[key] = (value, back)
