"""Dealing a rummy round from its committed secret (RM-CORE-5..7, RM-AMB-3, RM-AMB-4).

The deck is the variant's canonical deck (engine/rummy/variants.py) shuffled under the
label "deal" with the seats' entropy E (PF-AMB-12). The first player of the first round is
drawn under "first" (PF-FAIR-6); each later round's first player is one seat on. Cards go
from the top of the deck one at a time to each player, starting with the first player;
Shanghai deals packets of 3, 3, 3 and 1 (RM-SHA-1); Tahiti's 4 face-up singletons are the
next 4 cards (RM-TAH-2); the rest is the stock, top card first.
"""

from __future__ import annotations

from engine import fair
from engine.rummy.variants import Variant, deck

__all__ = ["deal", "first_player"]

_PACKETS = {"shanghai": (3, 3, 3, 1)}


def first_player(secret: bytes, entropy: str, seats: int, round_no: int, previous: int) -> int:
    """RM-CORE-7: the fair draw for round 1, then one seat on from the last round's first."""
    if round_no <= 1 or previous == 0:
        return fair.first_draw(secret, entropy, seats)
    return previous % seats + 1


def deal(
    variant: Variant, seats: int, secret: bytes, entropy: str, first: int
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], tuple[str, ...]]:
    """(hands by seat, Tahiti's singletons, the stock top first) of one round."""
    cards = fair.shuffle(deck(variant, seats), secret, "deal", entropy)
    order = [(first - 1 + k) % seats for k in range(seats)]
    hands: list[list[str]] = [[] for _ in range(seats)]
    top = 0
    for packet in _PACKETS.get(variant.name, (1,) * variant.hand_size):
        for i in order:
            hands[i].extend(cards[top : top + packet])
            top += packet
    singles = cards[top : top + variant.singletons]
    top += variant.singletons
    return tuple(tuple(h) for h in hands), tuple(singles), tuple(cards[top:])
