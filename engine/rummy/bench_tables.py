"""Random valid rummy tables for the bench (engine/rummy/bench_positions.py): groups dealt
from the variant's deck, built as mutable records that the bench's moves then change
(engine/rummy/bench_moves.py).

A table of n cards is random group sizes of 3 to 6 adding up to n (Tahiti: after 0 to 4
natural singletons), each group a run (on the places the variant's ace allows, RM-ACE-1..4)
or, up to 4 cards, a set of distinct suits (RM-GRP-2/3), drawn from a shuffled deck; a
group that the rest of the deck cannot make is drawn again. In a joker variant 1 group
or more (at most all the deck's jokers, one a group) has one card replaced by a joker
named as that card. Randomness is the caller's generator: nothing is drawn here otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from engine.cards import JOKER, RANKS, SUITS, Card
from engine.players import Rng
from engine.rummy.variants import Variant, deck

__all__ = ["Built", "Pool", "between", "build_table", "face_at", "new_group", "places", "shuffled"]

_T = TypeVar("_T")
_TRIES = 200  # draws of one group before the table is given up (the deck ran short)
_SEATS = 4  # the deck of 3 to 5 players (Carousel's two-player deck is too small for 80)


@dataclass
class Built:
    """A group being built: its cards in order (a run low to high), each one's face, and
    for a run its suit and first place (1 = low ace … 14 = high ace)."""

    kind: str  # "run", "set" or "single"
    cards: list[Card]
    faces: list[str]
    suit: str = ""
    low: int = 0
    jokers: list[Card] = field(default_factory=list)
    # a joker was freed here: the group must keep its cards together for the real card to
    # count as taking the joker's place (RM-JOKER-4, RM-AMB-7), so no change splits it
    pinned: bool = False
    cut: bool = False  # lost cards to a split or a new set: a joker here is freed nowhere

    def copy(self) -> Built:
        return Built(self.kind, [*self.cards], [*self.faces], self.suit, self.low, [*self.jokers])


class Pool:
    """The cards not dealt yet: the variant's deck, shuffled, by face; jokers apart."""

    def __init__(self, variant: Variant, rng: Rng) -> None:
        self.by_face: dict[str, list[Card]] = {}
        self.jokers: list[Card] = []
        for card in shuffled(deck(variant, _SEATS), rng):
            if card.startswith(JOKER):
                self.jokers.append(card)
            else:
                self.by_face.setdefault(card.partition("#")[0], []).append(card)

    def has(self, face: str) -> bool:
        return bool(self.by_face.get(face))

    def take(self, face: str) -> Card:
        return self.by_face[face].pop()

    def hand(self, size: int, rng: Rng, *, jokers: bool) -> list[Card]:
        out = [j for j in self.jokers if jokers and rng.randrange(2)]
        self.jokers = [j for j in self.jokers if j not in out]
        rest = [c for cards in self.by_face.values() for c in cards]
        out += shuffled(rest, rng)[: max(size - len(out), 0)]
        for card in out:
            if not card.startswith(JOKER):
                self.by_face[card.partition("#")[0]].remove(card)
        return out


def between(rng: Rng, low: int, high: int) -> int:
    return low + rng.randrange(high - low + 1)


def shuffled(items: Sequence[_T], rng: Rng) -> list[_T]:
    """A shuffled copy of `items` (Fisher-Yates on the caller's generator)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        k = rng.randrange(i + 1)
        out[i], out[k] = out[k], out[i]
    return out


def face_at(place: int, suit: str) -> str:
    return f"{RANKS[(place - 1) % 13]}{suit}"


def places(variant: Variant) -> tuple[int, int]:
    """The lowest and highest place a run may reach (RM-ACE-1..4)."""
    return {"high": (2, 14), "low": (1, 13), "high_or_low": (1, 14)}[variant.ace]


def _sizes(cards: int, rng: Rng) -> list[int]:
    """Group sizes of 3 to 6 adding up to `cards` (at least 3)."""
    sizes: list[int] = []
    left = cards
    while left >= 9:
        size = (3, 3, 4, 4, 5, 6)[rng.randrange(6)]
        sizes.append(size)
        left -= size
    sizes += [left] if left <= 6 else [3, left - 3]
    return shuffled(sizes, rng)


def build_table(
    pool: Pool, variant: Variant, cards: int, rng: Rng, *, jokers: bool
) -> list[Built] | None:
    """Random valid groups holding `cards` cards, or None when the deck ran short."""
    singles = between(rng, 0, variant.singletons) if variant.singletons else 0
    singles = min(singles, max(cards - 3, 0))
    sizes = _sizes(cards - singles, rng)
    wild = len(pool.jokers) if jokers and variant.jokers_per_group else 0
    laid = between(rng, 1, min(wild, len(sizes))) if wild and sizes else 0
    with_joker = set(shuffled(list(range(len(sizes))), rng)[:laid])
    groups: list[Built] = []
    for i, size in enumerate(sizes):
        built = None
        for _ in range(_TRIES):
            built = new_group(pool, variant, size, rng, joker=i in with_joker)
            if built is not None:
                break
        if built is None:
            return None
        groups.append(built)
    for _ in range(singles):
        faces = [f for f, copies in pool.by_face.items() if copies]
        face = faces[rng.randrange(len(faces))]
        groups.append(Built("single", [pool.take(face)], [face]))
    order = shuffled(list(range(len(groups))), rng)
    return [groups[k] for k in order]


def new_group(pool: Pool, variant: Variant, size: int, rng: Rng, *, joker: bool) -> Built | None:
    """A run or set of `size` from the pool (one card a joker if `joker`), or None."""
    if size <= variant.max_set and rng.randrange(2):
        rank = RANKS[rng.randrange(13)]
        suits = shuffled(SUITS, rng)[:size]
        faces = [f"{rank}{s}" for s in SUITS if s in suits]
        group = Built("set", [], faces)
    else:
        lowest, highest = places(variant)
        suit = SUITS[rng.randrange(4)]
        low = between(rng, lowest, highest - size + 1)
        faces = [face_at(p, suit) for p in range(low, low + size)]
        group = Built("run", [], faces, suit=suit, low=low)
    stand_in = rng.randrange(size) if joker else -1
    if (joker and not pool.jokers) or not all(
        pool.has(f) for k, f in enumerate(faces) if k != stand_in
    ):
        return None
    for k, face in enumerate(faces):
        if k == stand_in:
            group.jokers.append(pool.jokers.pop())
            group.cards.append(group.jokers[-1])
        else:
            group.cards.append(pool.take(face))
    return group
