"""The seven rummy variants of the Manipulation family as data (rules/rummy.md §1–§10).

One frozen Struct per variant; the group validator reads only these fields, never the
variant's name. Decks hold two copies of each card (``7H#1``, ``7H#2``) plus jokers
(``JK#1`` …), except Carousel for two players: one deck and one joker (RM-CAR-1).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.cards import JOKER, RANKS, SUITS, Card

__all__ = [
    "CAROUSEL",
    "GUADELOUPE",
    "MACHIAVELLI",
    "MANIPULATION",
    "SHANGHAI",
    "TAHITI",
    "VARIANTS",
    "VATICAN",
    "AceRule",
    "JokerRule",
    "Variant",
    "deck",
]

# "high": only above the king (RM-ACE-1); "low": only below the 2 (RM-ACE-2);
# "high_or_low": at one end, low or high, never both and never round the corner
# (RM-ACE-3, RM-ACE-4: the same rule by RM-AMB-6).
AceRule = Literal["high", "low", "high_or_low"]
# "none": no jokers; "fixed": named when played, keeps that identity until freed
# (RM-JOKER-1..5, RM-CAR-4..7); "stays": as fixed, and cannot leave its group until freed
# (RM-VAT-4); "freezes": one per group, and its group is frozen (RM-TAH-7..10).
JokerRule = Literal["none", "fixed", "stays", "freezes"]


class Variant(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    deck_size: int  # RM-CORE-2 and each variant's first rule
    deck_size_two_players: int  # differs only in Carousel (RM-CAR-1)
    hand_size: int
    ace: AceRule
    ace_rule_id: str
    jokers: JokerRule = "none"
    joker_rule_id: str = "RM-CORE-2"
    jokers_per_group: int = 0  # 0 = no jokers; Carousel/Vatican: no limit (RM-AMB-9)
    min_group: int = 3  # RM-GRP-2, RM-GRP-3
    max_set: int = 4  # RM-GRP-2
    max_run: int = 13  # RM-ACE-3, RM-ACE-4, RM-AMB-6: never 14 cards
    set_repeats_suit: bool = False  # RM-GRP-2: "each of a different suit"
    singletons: int = 0  # Tahiti: 4 face-up singletons (RM-TAH-2, RM-TAH-3)
    first_play_natural_run: int = 0  # Vatican: 3 natural cards of a run from hand (RM-VAT-5)


_UNLIMITED = 52  # more jokers than any group can hold

MANIPULATION = Variant(
    name="manipulation",
    deck_size=104,
    deck_size_two_players=104,
    hand_size=7,
    ace="high",
    ace_rule_id="RM-ACE-1",
)  # RM-MAN-1, RM-MAN-2
MACHIAVELLI = Variant(
    name="machiavelli",
    deck_size=104,
    deck_size_two_players=104,
    hand_size=13,
    ace="high_or_low",
    ace_rule_id="RM-ACE-3",
)  # RM-MAC-1, RM-MAC-2
SHANGHAI = Variant(
    name="shanghai",
    deck_size=104,
    deck_size_two_players=104,
    hand_size=10,
    ace="low",
    ace_rule_id="RM-ACE-2",
)  # RM-SHA-1, RM-SHA-2
GUADELOUPE = Variant(
    name="guadeloupe",
    deck_size=104,
    deck_size_two_players=104,
    hand_size=5,
    ace="high_or_low",
    ace_rule_id="RM-ACE-3",
)  # RM-GUA-1, RM-GUA-2
CAROUSEL = Variant(
    name="carousel",
    deck_size=106,
    deck_size_two_players=53,
    hand_size=10,
    ace="high_or_low",
    ace_rule_id="RM-ACE-4",
    jokers="fixed",
    joker_rule_id="RM-CAR-4",
    jokers_per_group=_UNLIMITED,
)  # RM-CAR-1..7, RM-AMB-9
VATICAN = Variant(
    name="vatican",
    deck_size=106,
    deck_size_two_players=106,
    hand_size=13,
    ace="high_or_low",
    ace_rule_id="RM-ACE-4",
    jokers="stays",
    joker_rule_id="RM-VAT-4",
    jokers_per_group=_UNLIMITED,
    first_play_natural_run=3,
)  # RM-VAT-1, RM-VAT-3..5
TAHITI = Variant(
    name="tahiti",
    deck_size=108,
    deck_size_two_players=108,
    hand_size=5,
    ace="high_or_low",
    ace_rule_id="RM-ACE-3",
    jokers="freezes",
    joker_rule_id="RM-TAH-7",
    jokers_per_group=1,
    singletons=4,
)  # RM-TAH-1, RM-TAH-2, RM-TAH-5, RM-TAH-7

VARIANTS: dict[str, Variant] = {
    v.name: v for v in (MANIPULATION, MACHIAVELLI, SHANGHAI, GUADELOUPE, CAROUSEL, VATICAN, TAHITI)
}


def deck(variant: Variant, players: int) -> tuple[Card, ...]:
    """The unshuffled deck in canonical order: first deck then second, ♣ ♦ ♥ ♠, A … K, jokers."""
    size = variant.deck_size_two_players if players == 2 else variant.deck_size
    copies = 1 if size < 104 else 2
    jokers = size - 52 * copies
    cards = [f"{r}{s}#{c}" for c in range(1, copies + 1) for s in SUITS for r in RANKS]
    return tuple(cards + [f"{JOKER}#{j}" for j in range(1, jokers + 1)])
