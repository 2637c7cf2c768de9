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

Why it is fast: tokens forget all but what decides the future; equal states merge, and
states another one dominates are dropped (search_prune); a run is opened only where cards
or the jokers left can carry it to three (search_room); a rank offers only set choices
that are sets; jokers are placed only where their group needs them, the others laid at
the end where there is room (search_runs), and an optional joker never where a copy of
its face is left over; the per-suit choices are cached by their inputs; with a `bound` (a
value already reached) states that cannot beat it are dropped, and the hint's search runs
in the direction (search_mirror) that passes the cards able to beat it soonest.

A run never holds a low ace and a high ace (the same card twice, RM-GRP-4), so none
exceeds 13 cards (RM-AMB-6); a run that began on place 1 cannot reach place 14.
"""

from __future__ import annotations

from engine.rummy.search_ends import Ends
from engine.rummy.search_hot import COUNT_SHIFT, close, payload
from engine.rummy.search_mirror import backwards, mirror, unmirror
from engine.rummy.search_place import Placer, Pre
from engine.rummy.search_prune import PRUNE_FROM, prune
from engine.rummy.search_rebuild import Step, rebuild
from engine.rummy.search_room import Room
from engine.rummy.search_runs import (
    CAND,
    Option,
    options,
)
from engine.rummy.search_sets import set_room, set_vectors
from engine.rummy.search_state import NO_VALUE, ZERO4, Layer, State, gain, index, keep
from engine.rummy.search_types import Objective, Problem, Solution, face_of
from engine.rummy.search_walk import GaveUp, walk

__all__ = ["GaveUp", "solve"]


def solve(
    problem: Problem,
    objective: Objective,
    bound: int | None = None,
    work: list[int] | None = None,
    walk_first: int = 0,
) -> Solution | None:
    """The best split by `objective` that uses at least one hand card and whose value beats
    `bound` (when given), or None. `work` (one count, shared by the searches of one
    question) is lowered by every state visited; GaveUp when it falls below zero: a
    measure of effort that does not depend on the clock.

    For the hint, only hand cards earlier than the bound can beat it, and states that have
    passed them all without using one are dropped: the places are taken in the direction
    (A up to K, or K down to A on the mirrored problem) that passes them soonest.

    `walk_first` (a count of states, for a question any split answers): a depth-first
    walk of that many states is tried first (search_walk), the layers only if it gives up."""
    if objective == "first" and bound is not None:
        reverse = backwards(problem, bound)
        if reverse is None:
            return None
        if reverse:
            sol = _run(mirror(problem), objective, bound, work, walk_first)
            return None if sol is None else Solution(sol.value, unmirror(sol.groups))
    return _run(problem, objective, bound, work, walk_first)


def _run(
    problem: Problem, objective: Objective, bound: int | None, work: list[int] | None, steps: int
) -> Solution | None:
    search = _Search(problem, objective, bound, work)
    if steps:
        try:
            return walk(search, steps)
        except GaveUp:
            pass
    return search.run()


class _Search(Ends):
    def __init__(
        self, problem: Problem, objective: Objective, bound: int | None, work: list[int] | None
    ) -> None:
        self.p = problem
        self.first = objective == "first"
        self.bound = bound
        self.work = work
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
        self.hot_at: dict[int, list[int]] = {}
        for k, h in enumerate(problem.hot):
            if h.face >= 0:
                self.hot_at.setdefault(h.face, []).append(k)
        # Where jokers may be left to the end (search_runs), the room groups leave counts.
        self.follow = bool(self.budget)
        self.room = Room(
            problem, self.places, self.hot_at, len(self.hot_wild), self.budget, self.limit
        )
        self.placer = Placer(problem, self.room.reach_of, self.limit, self.room.begin)
        # Faces with no card, nothing tracked and no frozen group (see _pass).
        self.blank = {
            (place, suit)
            for place in self.places
            for suit in range(4)
            if not (place == 14 and self.split_aces)
            and not self.hot_wild
            and not any(b.suit == suit or (b.suit < 0 and b.low == place) for b in problem.blocks)
            and face_of(place, suit) not in self.hot_at
            and not (
                problem.must[face_of(place, suit)]
                + problem.spare[face_of(place, suit)]
                + problem.hand[face_of(place, suit)]
            )
        }
        # Ranks whose sets hold untracked cards only: their sets are chosen first.
        self.quota = {
            place
            for place in self.places
            if not self.hot_wild
            and not any(face_of(1 if place == 14 else place, s) in self.hot_at for s in range(4))
        }

    def _jokers_left(self, key: State) -> int:
        return self.budget - key[3] + sum(1 for k in self.hot_wild if not key[8] >> k & 1)

    def _start(self) -> Layer:
        opening = 0 if self.p.first_play else 2
        glob = (0,) * len(self.p.kinds)
        begin: State = (((), (), (), ()), ZERO4, (), 0, ZERO4, opening, 0, glob, 0, 0, 0)
        return {begin: (NO_VALUE if self.first else 0, None)}

    def run(self) -> Solution | None:
        layer = self._start()
        trail: list[Step] = []
        hopes = self.room.hopes(self.order)
        for place in self.places:
            quota = place in self.quota
            if quota:
                layer = self._set_step(layer, place)
                trail.append(("set", place, -1, layer))
            for suit in range(4):
                layer = self._suit_step(layer, place, suit, hopes[place, suit], quota)
                if len(layer) > PRUNE_FROM:
                    layer = prune(layer, place, self.room)
                trail.append(("suit", place, suit, layer))
                if self.work is not None:
                    self.work[0] -= len(layer)
                    if self.work[0] < 0:
                        raise GaveUp
            if not quota:
                layer = self._rank_step(layer)
                trail.append(("rank", place, -1, layer))
        best = self._close(layer)
        if best is None:
            return None
        value, key, absorb = best
        if self.first:
            value = -index(value)
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
                keep(out, key, value, (key, (ZERO4, 0)))
                continue
            for vector, jokers in set_vectors(avail, self.budget - key[3], self.limit):
                room = key[10]
                if self.follow:
                    room = self.room.roomier(room, set_room(vector, jokers, self.limit))
                nkey: State = (key[0], vector, key[2], key[3] + jokers, *key[4:10], room)
                keep(out, nkey, value, (key, (vector, jokers)))
        return out

    # ---- one suit at one place -----------------------------------------------------------

    def _suit_step(
        self, layer: Layer, place: int, suit: int, hope: tuple[int, int], quota: bool
    ) -> Layer:
        """One face: every state's ways on. `hope` (hand cards at this face and later, the
        earliest hand index among them) lets states that cannot beat the bound go."""
        if (place, suit) in self.blank:
            passed = self._pass(layer, suit, hope, quota)
            if passed is not None:
                return passed
        p = self.p
        face = face_of(place, suit)
        low_aces = place == 1 and self.split_aces
        high_aces = place == 14 and self.split_aces
        hot_face = self.hot_at.get(face, [])
        frozen = any(b.suit == suit or (b.suit < 0 and b.low == place) for b in p.blocks)
        # Nothing tracked, no joker to follow, no frozen group: the plain way, for speed.
        plain = not (hot_face or self.hot_wild or frozen)
        counts = None if high_aces else (p.must[face], p.spare[face], p.hand[face])
        rooms = None if self.budget or self.hot_wild else self.room.reach_of(place, suit, 0)
        first, bound = self.first, self.bound
        rank = self.order[face]  # the face's place in hand order
        begin = self.room.begin(place, suit)
        low, top, sets, limit = place == 1, place == 14, not low_aces, self.limit
        out: Layer = {}
        for key, (value, _) in layer.items():
            if bound is not None and (
                min(index(value), hope[1]) >= -bound if first else value + hope[0] <= bound
            ):
                continue
            toks = key[0][suit]
            m, o0, o1 = counts or self._counts(key, place, suit)
            want = key[1][suit] if quota else -1
            if plain and not toks and not (m or o0 or o1):
                if want <= 0:
                    keep(out, key, value, (key, None))
                continue
            if plain:
                left = self.budget - key[3]
                reach, reach_low = rooms or self.room.reach_of(place, suit, left)
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
                    nv = gain(value, rank, used) if first else value + used
                    keep(out, nkey, nv, (key, ((), toks, opt)))
                continue
            left = self._jokers_left(key)
            reach, reach_low = rooms or self.room.reach_of(place, suit, left)
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
                    nv = gain(value, rank, used) if first else value + used
                    keep(out, nkey, nv, (key, (log, rest, opt)))
        return out

    def _pass(self, layer: Layer, suit: int, hope: tuple[int, int], quota: bool) -> Layer | None:
        """A face with no card and nothing tracked, where no state has a run of the suit
        open or set copies owed: every state goes on unchanged (None: some state has one).
        Most faces of the small problems of the hint (one or two groups and the hand) are
        so, and the general step's set-up cost more than its states."""
        first, bound = self.first, self.bound
        out: Layer = {}
        for key, (value, _) in layer.items():
            if key[0][suit] or (quota and key[1][suit] > 0):
                return None
            if bound is not None and (
                min(index(value), hope[1]) >= -bound if first else value + hope[0] <= bound
            ):
                continue
            out[key] = (value, (key, None))
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
                room = self.room.roomier(room, self.room.run_room(tok, place - 1))
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
