"""The move search's question and answer as data (see search_dp for the search itself).

A `Problem` counts copies by face index, suit * 13 + rank - 1 with suits ♣ ♦ ♥ ♠ and
ranks A … K, which is also hand order (RM-AMB-5); jokers come after every face
(`JOKER_INDEX`). Places of a run are 1 (ace low) … 13 (king), 14 (ace high). A few cards
are followed one by one (`Hot`, search_hot), Tahiti's frozen groups are `Block`s. A
`Solution` lists groups of slots: (face, tag, key), the tag saying what fills the place.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.rummy.variants import AceRule

__all__ = [
    "BLOCK",
    "HAND",
    "HAND_CLS",
    "HAND_JOKER",
    "HOT",
    "JOKER_INDEX",
    "MUST",
    "NATURAL",
    "SPARE",
    "WILD",
    "Block",
    "Hot",
    "Objective",
    "Problem",
    "Slot",
    "Solution",
    "face_of",
]

Objective = Literal["count", "first"]

# Slot tags: what fills a place of a solved group. Slot = (face, tag, key).
NATURAL = 0  # an untracked copy of the face (the caller picks which)
HAND = 1  # an untracked copy that must come from the hand
WILD = 2  # an untracked joker named as the face
HAND_JOKER = 3  # an untracked joker from the hand
HOT = 4  # tracked card number `key` (a joker: named as the face)
BLOCK = 5  # frozen block number `key`, whole (face -1)
JOKER_INDEX = 52  # a hand joker's place in hand order: after every natural card
MUST, SPARE, HAND_CLS = 0, 1, 2  # where a tracked card comes from

Slot = tuple[int, int, int]


class Hot(msgspec.Struct, frozen=True):
    """A card followed one by one: its face (-1: a joker), where it comes from, and what a
    group holding it adds to the group's payload (search_hot)."""

    face: int
    cls: int
    counts: int = 0
    flags: int = 0


class Block(msgspec.Struct, frozen=True):
    """A frozen Tahiti group: a run of `suit` on places low..high that hand cards may extend
    (up to `left` places below), or a set at place `low` (suit -1) that may take a hand
    card of suit `missing`."""

    suit: int
    low: int
    high: int
    left: int = 0
    missing: int = -1


class Problem(msgspec.Struct, frozen=True, kw_only=True):
    """Copies by face index; what must, may, and may-and-scores be used."""

    ace: AceRule
    must: tuple[int, ...]  # untracked copies that must be used
    spare: tuple[int, ...]  # untracked copies that may be used and do not score
    hand: tuple[int, ...]  # untracked copies that may be used and score
    wild_must: int = 0  # freed jokers: must be placed
    wild_first: int = 0  # freed jokers of a loosened problem: may be placed, before hand ones
    wild_hand: int = 0  # hand jokers: may be placed, score
    wild_spare: int = 0  # Tahiti singleton jokers: may be placed, after hand ones
    joker_limit: int = 0  # jokers a group may hold
    first_play: bool = False  # a Vatican opening run is required
    hot: tuple[Hot, ...] = ()
    blocks: tuple[Block, ...] = ()
    kinds: tuple[int, ...] = ()  # per watched joker: search_hot.FREED or STAYS
    order: tuple[int, ...] = ()  # per face its place in hand order when not the face itself


class Solution(msgspec.Struct, frozen=True):
    value: int  # "count": hand cards used; "first": minus the first hand index used
    groups: tuple[tuple[Slot, ...], ...]


def face_of(place: int, suit: int) -> int:
    return suit * 13 + (0 if place == 14 else place - 1)
