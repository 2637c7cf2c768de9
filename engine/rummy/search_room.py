"""What search_dp knows of a problem before it starts: how far a run can still reach, how
much room a closed group leaves for jokers laid at the end, and what hand cards are still
to come (rules/rummy.md RM-GRP-3, RM-ACE-1..4, RM-AMB-6).

- Reach: from a place, how many of the next two places of the suit a run can still take,
  each place with no card costing a joker. A run is only begun or continued where it can
  still get to 3 cards.
- Room: jokers placed canonically (search_runs) leave some to be laid at the end where a
  group can take one: a run that is not 12 or 13 cards long (runs begun on place 2 or 3
  are marked to know it, in suits where such a run could form), a set of three; where a
  group holds one joker at most, one a group, and none where it has one. Counted up to the
  jokers there are.
- Hopes: per face in search order, how many hand cards the rest may still score and the
  earliest of them in hand order, so that states that cannot beat a bound are dropped.
"""

from __future__ import annotations

from engine.rummy.search_runs import JOK, LOW, S2, S3
from engine.rummy.search_types import HAND_CLS, JOKER_INDEX, Problem, face_of

__all__ = ["NO_HOPE", "Room"]

NO_HOPE = 10**6  # no hand card left: the earliest index lies beyond every value


class Room:
    def __init__(
        self,
        problem: Problem,
        places: list[int],
        hot_at: dict[int, list[int]],
        hot_wild: int,
        budget: int,
        limit: int,
    ) -> None:
        self.p = problem
        self.places = places
        self.hot_at = hot_at
        self.hot_wild = hot_wild
        self.budget = budget
        self.limit = limit
        self.split_aces = problem.ace == "high_or_low"
        # Per suit, the places some card may fill (read once: the reach reads each often).
        self.avail = [{q for q in places if self._avail(q, s)} for s in range(4)]
        self.long = [bool(budget) and self._long(s) for s in range(4)]
        self.reach = [self._reach(s) for s in range(4)]

    def reach_of(self, place: int, suit: int, jokers: int) -> tuple[int, int]:
        """(reach, reach of a run begun on a low ace: it stops at the king)."""
        reach = self.reach[suit][place][min(jokers, 2)]
        return reach, min(reach, max(0, 13 - place))

    def begin(self, place: int, suit: int) -> int:
        """The marks a run begun here carries (its length must be known when it ends)."""
        if not self.long[suit]:
            return 0
        return S2 if place == 2 else S3 if place == 3 else 0

    def run_room(self, tok: int, last: int) -> int:
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

    def roomier(self, room: int, gain: int) -> int:
        """Room after a group closes that can take `gain` more jokers: counted up to the
        jokers there are (one a group where a group holds one at most)."""
        return min(self.budget, room + (min(gain, 1) if self.limit == 1 else gain))

    def hopes(self, order: tuple[int, ...]) -> dict[tuple[int, int], tuple[int, int]]:
        """Per face in search order: the hand cards it and every later face may still
        score (hand jokers always), and the earliest hand index among them."""
        p = self.p
        later = p.wild_hand
        earliest = JOKER_INDEX if p.wild_hand else NO_HOPE
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
                        earliest = min(earliest, order[face])
                out[place, suit] = (later, earliest)
        return out

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
        avail = self.avail[suit]
        for i, place in enumerate(places):
            room = []
            for jokers in range(3):
                n, spare = 0, jokers
                for q in places[i + 1 : i + 3]:
                    if q in avail:
                        n += 1
                    elif spare:
                        spare -= 1
                        n += 1
                    else:
                        break
                room.append(n)
            out[place] = (room[0], room[1], room[2])
        return out

    def _long(self, suit: int) -> bool:
        """Could 12 places in a row of this suit be filled (cards, or jokers for gaps)?"""
        jokers = self.budget + self.hot_wild
        for first in range(1, 4):
            window = [p for p in range(first, first + 12) if p in self.places]
            gaps = sum(1 for p in window if p not in self.avail[suit])
            if len(window) == 12 and gaps <= jokers:
                return True
        return False
