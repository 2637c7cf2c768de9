"""A seat's preferred order of its hand (PF-SORT-1..3, PF-AMB-22): by suit, by rank, or
its own (manual) order; for any game whose view shows the seat a hand of cards.

Pure presentation: an order is never part of a game's state or of any event (PF-SORT-3).
The platform keeps each seat's choice beside the table (services/tables/seat_asks.py) and
shows the seat its hand in that order.

- `suit`: ♣ ♦ ♥ ♠, within a suit A 2 … 10 J Q K, jokers last; the copy breaks ties.
- `rank`: A 2 … K, within a rank ♣ ♦ ♥ ♠, jokers last; then the copy.
- `manual` (PF-SORT-2): the seat's own list of the cards of its hand, kept as it is: the
  hand is never re-sorted after it; cards that came into the hand since (a draw) follow at
  the end in the order they came; cards that left it are skipped. A manual order belongs
  to the unit of play (deal, round) it was made in: a new unit deals a new hand, shown in
  the game's order until the seat arranges it again.
- `game`: the order the game gives (no preference).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

import msgspec

from engine.cards import JOKER, RANKS, SUITS, Card
from engine.errors import RuleViolation

__all__ = ["MANUAL_CARDS", "HandOrder", "OrderName", "arrange", "check_manual"]

OrderName = Literal["game", "suit", "rank", "manual"]
MANUAL_CARDS = 128  # more than any hand holds (two decks and four jokers are 108 cards)
_RANK = {name: i for i, name in enumerate(RANKS)}
_SUIT = {name: i for i, name in enumerate(SUITS)}
_LAST = len(RANKS)  # jokers after every rank and every suit


class HandOrder(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A seat's choice: the `order`; for `manual` the `cards` in the seat's order and the
    `unit` of play they were arranged in."""

    order: OrderName = "game"
    cards: Annotated[tuple[Card, ...], msgspec.Meta(max_length=MANUAL_CARDS)] = ()
    unit: int = 0


def arrange(hand: Sequence[Card], order: HandOrder, unit: int) -> tuple[Card, ...]:
    """`hand` (identities, in the game's order) in the seat's order during `unit`."""
    match order.order:
        case "suit":
            return tuple(sorted(hand, key=_by_suit))
        case "rank":
            return tuple(sorted(hand, key=_by_rank))
        case "manual" if order.unit == unit:
            held = set(hand)
            placed = [card for card in order.cards if card in held]
            chosen = set(placed)
            return (*placed, *(card for card in hand if card not in chosen))
    return tuple(hand)


def check_manual(hand: Sequence[Card], cards: Sequence[Card]) -> None:
    """PF-SORT-1: a manual order names cards of the hand (identities), each once; the cards
    it leaves out follow in the game's order. RuleViolation otherwise."""
    held = set(hand)
    seen: set[Card] = set()
    for card in cards:
        if card not in held:
            raise RuleViolation(
                "card_not_in_hand",
                "PF-SORT-1",
                f"{card} is not in your hand: a manual order lists the cards of your hand "
                "by identity (7H#2)",
            )
        if card in seen:
            raise RuleViolation(
                "card_twice", "PF-SORT-1", f"{card} is listed twice: name each card once"
            )
        seen.add(card)


def _parts(card: Card) -> tuple[int, int, str]:
    """(rank index, suit index, copy) of an identity; a joker's rank and suit come last."""
    face, _, copy = card.partition("#")
    if face == JOKER:
        return _LAST, len(SUITS), copy
    return _RANK.get(face[:-1], _LAST), _SUIT.get(face[-1:], len(SUITS)), copy


def _by_suit(card: Card) -> tuple[int, int, str]:
    rank, suit, copy = _parts(card)
    return (suit, rank, copy)


def _by_rank(card: Card) -> tuple[int, int, str]:
    return _parts(card)
