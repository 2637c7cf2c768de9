"""The two checks of search_dp that come after the faces: a rank's sets, where a tracked
card may lie in them (then its sets are checked after its suits, search_hot), and the end
of the search (every run stops, the joker rules' totals hold, Vatican's opening run is
there, and the jokers left over are laid where groups have room).

A mixin of search_dp's search: it reads the search's problem, budget, room and bound.
"""

from __future__ import annotations

from typing import Any

from engine.rummy.search_hot import close, final_ok, marked_splits, payload
from engine.rummy.search_room import NO_HOPE, Room
from engine.rummy.search_runs import CAND, EJ, LEN, STREAK
from engine.rummy.search_sets import set_jokers, set_room
from engine.rummy.search_state import ZERO4, Layer, State, gain, index, keep
from engine.rummy.search_types import JOKER_INDEX, Problem

__all__ = ["Ends"]


class Ends:
    p: Problem
    budget: int
    limit: int
    follow: bool
    first: bool
    bound: int | None
    room: Room
    hot_wild: list[int]
    places: list[int]

    # ---- a rank's sets, checked after its suits (tracked cards among them) ---------------

    def _rank_step(self, layer: Layer) -> Layer:
        out: Layer = {}
        for key, (value, _) in layer.items():
            acc, acc_hot = key[1], key[2]
            if not any(acc) and not acc_hot:
                keep(out, key, value, (key, None))
                continue
            spare = self.budget - key[3]
            if not acc_hot:
                for j in set_jokers(tuple(sorted(acc)), spare, self.limit):
                    gain = set_room(acc, j, self.limit) if self.follow else 0
                    nkey = self._after_sets(key, j, key[7], gain)
                    keep(out, nkey, value, (key, (j, None)))
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
                        keep(out, nkey, value, (key, (j, witness)))
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
        room = self.room.roomier(key[10], gain)
        return (
            key[0],
            ZERO4,
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
                    room = self.room.roomier(room, self.room.run_room(tok, last))
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
                v = gain(v, JOKER_INDEX, hand_jokers) if self.first else v + hand_jokers
            worth = -index(v) if self.first else v
            if worth <= (-NO_HOPE if self.first else 0) or (
                self.bound is not None and worth <= self.bound
            ):
                continue
            if best is None or v > best[0]:
                best = (v, key, absorb)
        return best
