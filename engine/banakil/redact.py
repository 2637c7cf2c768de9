"""What a seat may learn from an event: the same event with hidden cards taken out.

Used to tell a reconnecting client what it missed; the view is still the full truth.
Hidden: other seats' dealt and drawn cards, the stock order, a stacked deck, the secret.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.banakil.messages import (
    CardDrawn,
    CardsDealt,
    DeckStacked,
    Event,
    GroundReshuffled,
    SeedCommitted,
)

__all__ = ["HIDDEN", "redact"]

HIDDEN = "??"  # stands in for a card the seat may not see


def redact(event: Event, seat: int | None) -> Event:
    match event:
        case SeedCommitted():
            return replace(event, secret="")
        case DeckStacked(cards=cards):
            return replace(event, cards=tuple(HIDDEN for _ in cards))
        case CardsDealt(hands=hands, stock=stock):
            return replace(
                event,
                hands=tuple(
                    h if seat == i + 1 else tuple(HIDDEN for _ in h) for i, h in enumerate(hands)
                ),
                stock=tuple(HIDDEN for _ in stock),
            )
        case CardDrawn(seat=drawer) if drawer != seat:
            return replace(event, card=HIDDEN)
        case GroundReshuffled(stock=stock):
            return replace(event, stock=tuple(HIDDEN for _ in stock))
    return event
