"""The automatic discard (PF-AUTO-1..4, decided exactly by PF-AMB-3).

Candidates are the cards that are neither 2s nor jokers (else the 2s, else the jokers).
Each candidate's usefulness u is the number of other non-wild cards in the hand, exact
duplicates of it ignored, that are its partners: same rank and another suit for an ace or
a three (toward a set), or same suit and ranks 1 or 2 apart (toward a run; an ace is 1 and
14). The smallest u goes; ties by lowest points, lowest rank, suit ♣ < ♦ < ♥ < ♠, and the
copy from the second deck.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.banakil.scoring import HALF_POINTS
from engine.cards import RANK, SUIT, SUITS, Card, face

__all__ = ["auto_discard", "usefulness"]


def _near(a: int, b: int) -> bool:
    for x in (a, 14) if a == 1 else (a,):
        for y in (b, 14) if b == 1 else (b,):
            if 1 <= abs(x - y) <= 2:
                return True
    return False


def usefulness(card: Card, hand: Sequence[Card]) -> int:
    """PF-AMB-3 (2): how many other non-wild cards of the hand are partners of `card`."""
    r, s = RANK[card], SUIT[card]
    count = 0
    for other in hand:
        o = RANK[other]
        if other == card or o in (0, 2) or face(other) == face(card):
            continue
        if (o == r and r in (1, 3) and SUIT[other] != s) or (SUIT[other] == s and _near(r, o)):
            count += 1
    return count


def auto_discard(hand: Sequence[Card]) -> Card:
    """The card the system discards for a player whose time ran out (PF-AUTO-1..4)."""
    plain = [c for c in hand if RANK[c] not in (0, 2)]
    twos = [c for c in hand if RANK[c] == 2]
    candidates = plain or twos or list(hand)  # PF-AUTO-1: wild cards last

    def key(c: Card) -> tuple[int, int, int, int, int]:
        copy = int(c.rsplit("#", 1)[1])
        return (
            usefulness(c, hand),  # PF-AUTO-2
            HALF_POINTS[c],  # PF-AUTO-3
            RANK[c] or 14,
            SUITS.index(SUIT[c]) if SUIT[c] else 4,
            -copy,  # the second deck's copy first
        )

    return min(candidates, key=key)
