"""A necessary condition for a move to play a card with given cards only: some valid group
holding the card can be made of them at all (rules/rummy.md RM-GRP-2/3, RM-ACE-1..4).

search.py asks, for one hand card, the exact search on one or two groups of the table
with the hand (a move changing only those groups): most such questions find nothing, and
on random Manipulation play's 90-card tables they were the hint's largest cost. A move of
that kind lays the card in a group made of those groups' cards and hand cards, so when no
set (three suits of its rank) and no run (three places in a row of its suit) can hold the
card among them, the search can be skipped: nothing is lost, it is only a proof of "none"
read off the faces. Jokers can stand for anything, so with one among the cards nothing is
concluded.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import JOKER, RANKS
from engine.rummy.variants import AceRule

__all__ = ["may_hold"]

_RANK = {name: i + 1 for i, name in enumerate(RANKS)}


def may_hold(face: str, others: Iterable[str], ace: AceRule) -> bool:
    """Whether a valid group holding a card of `face` can be made of it and cards of the
    faces `others` (no two copies of a face in one group): False proves it cannot."""
    rank, suit = _RANK[face[:-1]], face[-1]
    suits = {suit}
    places: set[int] = set()
    for other in others:
        if other == JOKER or other.startswith(JOKER + "#"):
            return True
        o_rank, o_suit = _RANK[other[:-1]], other[-1]
        if o_rank == rank:
            suits.add(o_suit)
        if o_suit == suit:
            places.update(_places(o_rank, ace))
    if len(suits) >= 3:
        return True
    for place in _places(rank, ace):
        row = places | {place}
        if any(all(p in row for p in range(low, low + 3)) for low in range(place - 2, place + 1)):
            return True
    return False


def _places(rank: int, ace: AceRule) -> tuple[int, ...]:
    if rank != 1:
        return (rank,)
    return {"high": (14,), "low": (1,), "high_or_low": (1, 14)}[ace]
