"""A brute-force oracle for rummy groups and rebuilt tables, written from `rules/rummy.md`
alone.

It shares no code with `engine/rummy/` (not even the card tables or the variant data). A
group is tried against every set it could be — each rank, each choice of 3 or 4 suits —
and every run — each suit, each first place 1..14 and each length, the ace standing on
place 1 (low) or 14 (high) where the variant allows — and is valid when its faces (a
joker read as the face it was named) are exactly those of one of them. A table is checked
by counting cards.

Definitions used, by rule ID:
- RM-GRP-2: a set is 3 or 4 cards of one rank, each suit once. RM-GRP-3: a run is 3 or
  more cards of one suit on consecutive places. RM-GRP-4: no two identical cards.
- RM-ACE-1 high only (place 14); RM-ACE-2 low only (place 1); RM-ACE-3/RM-ACE-4 low or
  high, never both in one run (RM-AMB-6, so at most 13 cards) and never in the middle.
- RM-GRP-5, RM-JOKER-1/2: a joker counts as its named face; an unnamed joker is refused.
  RM-CORE-2: no jokers in the first four variants; RM-TAH-7: one per group in Tahiti.
- RM-MOVE-1/3/5: every table card stays, the added cards come from the hand, at least one.
- RM-TAH-3, RM-AMB-24: a Tahiti singleton may stay alone while unused.
- RM-VAT-5, RM-AMB-11: a first Vatican play lays a run wholly from the hand with three
  natural cards on consecutive places.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations

__all__ = ["VARIANT_RULES", "group_outcome", "table_ok"]

_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUITS = ("C", "D", "H", "S")

# name: (ace may be low, ace may be high, jokers a group, singletons, first-play run)
VARIANT_RULES: dict[str, tuple[bool, bool, int, bool, bool]] = {
    "manipulation": (False, True, 0, False, False),
    "machiavelli": (True, True, 0, False, False),
    "shanghai": (True, False, 0, False, False),
    "guadeloupe": (True, True, 0, False, False),
    "carousel": (True, True, 99, False, False),
    "vatican": (True, True, 99, False, True),
    "tahiti": (True, True, 1, True, False),
}


def _place_name(place: int) -> str:
    return "A" if place in (1, 14) else _NAMES[place - 1]


def _read(cards: Sequence[str], named: Mapping[str, str], jokers_allowed: int) -> list[str] | None:
    """The faces the cards stand for, or None if a card cannot be read."""
    faces = []
    jokers = 0
    for card in cards:
        base, _, copy = card.partition("#")
        if base == "JK":
            jokers += 1
            name = named.get(card)
            if copy not in ("1", "2", "3", "4") or name is None:
                return None
            base = name
        elif copy not in ("1", "2"):
            return None
        if base[:-1] not in _NAMES or base[-1:] not in _SUITS:
            return None
        faces.append(base)
    if jokers > jokers_allowed or len(set(cards)) != len(cards):
        return None
    return faces


def group_outcome(
    cards: Sequence[str], named: Mapping[str, str], variant: str
) -> tuple[str, tuple[str, ...]] | None:
    """("set" | "run", the faces in order) or None when the cards make no group."""
    low, high, jokers, _, _ = VARIANT_RULES[variant]
    faces = _read(cards, named, jokers)
    if faces is None:
        return None
    want = Counter(faces)
    for name in _NAMES:
        for size in (3, 4):
            for suits in combinations(_SUITS, size):
                candidate = [name + s for s in suits]
                if Counter(candidate) == want:
                    return "set", tuple(candidate)
    for suit in _SUITS:
        for first in range(1, 15):
            for length in range(3, 15):
                places = range(first, first + length)
                if places[-1] > 14 or (1 in places and 14 in places):
                    continue
                if (1 in places and not low) or (14 in places and not high):
                    continue
                candidate = [_place_name(p) + suit for p in places]
                if Counter(candidate) == want:
                    return "run", tuple(candidate)
    return None


def table_ok(
    groups: Sequence[Sequence[str]],
    before: Sequence[Sequence[str]],
    hand: Sequence[str],
    named: Mapping[str, str],
    variant: str,
    *,
    first_play: bool = False,
) -> bool:
    _, _, _, singletons, first_run = VARIANT_RULES[variant]
    now = Counter(c for g in groups for c in g)
    was = Counter(c for g in before for c in g)
    if any(n > 1 for n in now.values()) or was - now:
        return False
    added = now - was
    if not added or added - Counter(hand):
        return False
    lone = {g[0] for g in before if len(g) == 1} if singletons else set()
    outcomes = []
    for g in groups:
        if len(g) == 1 and g[0] in lone:
            continue
        outcome = group_outcome(g, named, variant)
        if outcome is None:
            return False
        outcomes.append((g, outcome))
    if not (first_play and first_run):
        return True
    return any(_opens(g, outcome, set(hand)) for g, outcome in outcomes)


def _opens(cards: Sequence[str], outcome: tuple[str, tuple[str, ...]], hand: set[str]) -> bool:
    kind, ordered = outcome
    if kind != "run" or not set(cards) <= hand:
        return False
    natural = {c.partition("#")[0] for c in cards if not c.startswith("JK")}
    return any(all(f in natural for f in ordered[k : k + 3]) for k in range(len(ordered) - 2))
