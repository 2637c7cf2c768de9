"""Where one face's tracked cards, tracked jokers and frozen groups go, before its untracked
copies are placed (an inner step of search_dp; rules/rummy.md RM-TAH-8, RM-AMB-25,
RM-JOKER-4, RM-VAT-4).

Each alternative is a `Pre`: the runs left to the untracked copies, the runs it grew or
began (their tokens carrying the tracked cards' payloads, search_hot), the frozen runs it
closed, the hand cards it used, what it sent to the rank's sets, and a log the rebuild
replays. A tracked card goes on an open run, begins a run, joins the rank's sets, waits
(an ace at place 1 may stand high at place 14 instead), or, if it may stay in the hand or
alone, goes nowhere. A frozen run passes its own places whole, and only hand cards join it
at either end; a frozen set of three may take a hand card of the suit it lacks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.rummy.search_hot import Marked, with_payload
from engine.rummy.search_runs import (
    CAND,
    EJ,
    FROZEN,
    JOK,
    LEN,
    LOW,
    NAT,
    NATC,
    SJ,
    WILD_J,
    grow,
    start,
)
from engine.rummy.search_types import HAND_CLS, MUST, Problem, face_of

__all__ = ["Placer", "Pre"]

_BLOCK_BITS = FROZEN | 256 | 512  # a frozen run's token: the flag and its block number


class Pre:
    """One way to place this face's tracked cards, tracked jokers and frozen groups."""

    __slots__ = (
        "cand",
        "ended",
        "gain",
        "kmask",
        "left",
        "log",
        "m",
        "new",
        "o1",
        "rest",
        "sets",
        "taken",
        "wmask",
    )

    def __init__(self, rest: list[int], m: int, o1: int, wmask: int, kmask: int, left: int) -> None:
        self.rest = rest  # open runs left to the untracked copies
        self.new: list[int] = []  # runs grown or begun here
        self.ended: list[int] = []  # frozen runs closed here
        self.m, self.o1 = m, o1  # untracked must and hand copies left
        self.gain = 0  # hand cards used
        self.wmask, self.kmask = wmask, kmask  # tracked jokers placed; tracked aces waiting
        self.sets: list[Marked] = []
        self.cand = False  # began the Vatican opening candidate
        self.taken = 0  # tracked cards of this face dealt with (bits)
        self.left = left  # jokers the state has left to place (for the runs' reach)
        self.log: list[tuple[Any, ...]] = []

    def copy(self) -> Pre:
        out = Pre(list(self.rest), self.m, self.o1, self.wmask, self.kmask, self.left)
        out.new, out.ended, out.gain = list(self.new), list(self.ended), self.gain
        out.sets, out.cand, out.taken = list(self.sets), self.cand, self.taken
        out.log = list(self.log)
        return out


Room = Callable[[int, int, int], tuple[int, int]]  # (place, suit, jokers) -> reach, reach_low
Begin = Callable[[int, int], int]  # (place, suit) -> the bits a run begun there carries


class Placer:
    """The alternatives for one face of one state."""

    def __init__(self, problem: Problem, room: Room, limit: int, begin: Begin) -> None:
        self.p = problem
        self.room = room
        self.begin = begin
        self.limit = limit
        self.split_aces = problem.ace == "high_or_low"
        self.hot_at: dict[int, list[int]] = {}
        for k, h in enumerate(problem.hot):
            if h.face >= 0:
                self.hot_at.setdefault(h.face, []).append(k)

    def place(
        self,
        base: Pre,
        opening: int,
        place: int,
        suit: int,
        hot: list[int],
        wild: list[int],
    ) -> list[Pre]:
        face = face_of(place, suit)
        pres = self._frozen(base, place, suit, face, hot)
        for k in hot:
            pres = [x for pre in pres for x in self._hot(pre, k, place, suit, opening)]
        for k in wild:
            pres = [x for pre in pres for x in self._wild(pre, k, place, suit)]
        return pres

    # ---- frozen groups --------------------------------------------------------------------

    def _frozen(self, base: Pre, place: int, suit: int, face: int, hot: list[int]) -> list[Pre]:
        """A frozen run's block passes, begins, or takes a hand card at an end; a frozen set
        of three may take a hand card of its missing suit (RM-TAH-8, RM-AMB-25)."""
        pres = [base]
        reach, reach_low = self.room(place, suit, base.left)
        for number, block in enumerate(self.p.blocks):
            if block.suit < 0:
                if block.low == place and block.missing == suit:
                    pres = [x for pre in pres for x in [pre, *self._take(pre, hot, ("b", number))]]
                continue
            if block.suit != suit:
                continue
            mark = FROZEN | number << 8
            grown: list[Pre] = []
            for pre in pres:
                mine = [t for t in pre.rest if t & _BLOCK_BITS == mark]
                if not mine:
                    if place == block.low:
                        new = 3 | mark | JOK | (LOW if place == 1 else 0)
                        pre.new.append(new)
                        pre.log.append(("s", "block", number, new))
                    grown.append(pre)
                    if block.low - block.left <= place < block.low:
                        new = 1 | mark | JOK | (LOW if place == 1 else 0)
                        for x in self._take(pre, hot, ("s",)):
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
                    after = grow(tok, NAT, place == 14, reach, reach_low, 1)
                else:
                    after = (tok & ~LEN) | 1
                if after is not None:
                    for x in self._take(pre, hot, ("c", tok)):
                        x.new.append(after | JOK)
                        x.log[-1] = (*x.log[-1], after | JOK)
                        grown.append(x)
            pres = grown
        return pres

    def _take(self, pre: Pre, hot: list[int], head: tuple[Any, ...]) -> list[Pre]:
        """Copies of `pre` in which one hand card of this face is taken, untracked or
        tracked; the log gets `head` + (how, key)."""
        out: list[Pre] = []
        if pre.o1 > 0:
            x = pre.copy()
            x.o1 -= 1
            x.gain += 1
            x.log.append((*head, "hand", -1))
            out.append(x)
        for k in hot:
            if self.p.hot[k].cls != HAND_CLS or pre.taken >> k & 1:
                continue
            x = pre.copy()
            x.taken |= 1 << k
            x.kmask &= ~(1 << k)
            x.gain += 1
            x.log.append((*head, "hot", k))
            out.append(x)
        return out

    # ---- tracked cards and tracked jokers ------------------------------------------------------

    def _hot(self, pre: Pre, k: int, place: int, suit: int, opening: int) -> list[Pre]:
        """Where tracked card k goes: on an open run, a new run, the rank's sets, waiting
        for place 14 (an ace at place 1), or (a hand or spare card) nowhere."""
        if pre.taken >> k & 1:
            return [pre]
        h = self.p.hot[k]
        low_aces = place == 1 and self.split_aces
        out: list[Pre] = []
        if low_aces:
            x = pre.copy()
            x.taken |= 1 << k
            x.kmask |= 1 << k
            out.append(x)
        elif h.cls != MUST:
            x = pre.copy()
            x.taken |= 1 << k
            x.kmask &= ~(1 << k)
            out.append(x)
        reach, reach_low = self.room(place, suit, pre.left)
        top = place == 14
        score = 1 if h.cls == HAND_CLS else 0

        def placed() -> Pre:
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
        for action in (NAT, NATC) if score and opening == 0 and not pre.cand else (NAT,):
            new = start(
                action, place == 1, top, reach, reach_low, self.limit, self.begin(place, suit)
            )
            if new is None:
                continue
            x = placed()
            x.cand = x.cand or action == NATC
            new = with_payload(new, h.counts, h.flags)
            x.new.append(new)
            x.log.append(("s", "hot", k, new))
            out.append(x)
        if not low_aces:
            x = placed()
            x.sets.append((suit, h.counts, h.flags, k))
            x.log.append(("q", k))
            out.append(x)
        return out

    def _wild(self, pre: Pre, k: int, place: int, suit: int) -> list[Pre]:
        """Tracked joker k (a freed table joker) stays unplaced, or goes here as this face."""
        h = self.p.hot[k]
        out = [pre]
        reach, reach_low = self.room(place, suit, pre.left)
        top = place == 14
        # A tracked joker is never left to the end (search_runs): it stands where it is put.
        for tok in sorted(set(pre.rest)):
            new = grow(tok, WILD_J, top, reach, reach_low, self.limit)
            if new is None:
                continue
            new &= ~EJ
            x = pre.copy()
            x.wmask |= 1 << k
            x.rest.remove(tok)
            new = with_payload(new, h.counts, h.flags)
            x.new.append(new)
            x.log.append(("c", tok, "hot", k, new))
            out.append(x)
        new = start(WILD_J, place == 1, top, reach, reach_low, self.limit, self.begin(place, suit))
        if new is not None:
            new &= ~SJ
            x = pre.copy()
            x.wmask |= 1 << k
            new = with_payload(new, h.counts, h.flags)
            x.new.append(new)
            x.log.append(("s", "hot", k, new))
            out.append(x)
        if not (place == 1 and self.split_aces):
            x = pre.copy()
            x.wmask |= 1 << k
            x.sets.append((-1, h.counts, h.flags, k))
            out.append(x)
        return out
