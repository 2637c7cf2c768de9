"""A position as the partition search sees it, once per joker scenario, and a solved split
back as a table of card identities (rules/rummy.md §2.4, §2.6, §9, §10; engine/rummy/moves.py).

Every table joker is either kept (it keeps its name: Carousel moves it anywhere as that
card, RM-CAR-5; Vatican keeps it beside a card that lay next to it, RM-VAT-4; Tahiti
keeps its whole group together, taking hand cards only, RM-TAH-8) or freed (a real card
of its face, from the hand or, except in Tahiti, from another group, lands in the group
that continues the joker's old group, and the joker goes anywhere as anything,
RM-JOKER-4/5, RM-CAR-6, RM-TAH-9/10). Each combination is one scenario, solved
separately; a joker with no real card that could free it is only ever kept. A kept joker
that the move happens to free anyway is still legal (moves.py lets a freed joker keep its
name), so the scenarios together are exactly the legal moves.

The cards the rules name one by one (a Vatican joker and its neighbours, a freed joker's
old group and the real cards that may free it) become tracked cards of the search
(search_dp.Hot, search_hot); the rest are counted by face.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import product

import msgspec

from engine.cards import JOKER, RANKS, SUITS, Card
from engine.rummy.groups import check_group
from engine.rummy.search_hot import FREED, STAYS
from engine.rummy.search_types import (
    HAND_CLS,
    MUST,
    Block,
    Hot,
    Problem,
)
from engine.rummy.variants import Variant

__all__ = [
    "Position",
    "Scenario",
    "face_index",
    "face_name",
    "position",
    "relaxed",
    "scenarios",
    "with_freers",
]

Table = tuple[tuple[Card, ...], ...]
_RANK = {name: i + 1 for i, name in enumerate(RANKS)}


class Position(msgspec.Struct, frozen=True, kw_only=True):
    """The question, read once: the table, its jokers' names, the hand in hand order."""

    table: Table
    names: dict[Card, str]
    hand: tuple[Card, ...]  # hand order: ♣ ♦ ♥ ♠, A … K, jokers last (RM-AMB-5)
    variant: Variant
    first_play: bool
    lone: frozenset[int]  # indexes of Tahiti's untouched singletons


class Scenario(msgspec.Struct, frozen=True, kw_only=True):
    """One combination of kept and freed table jokers, as a search problem, with what is
    needed to turn its solution back into cards."""

    problem: Problem
    hot: tuple[Card, ...]  # the card of each tracked index
    blocks: tuple[tuple[Card, ...], ...]  # each frozen group's cards, in order
    freed: frozenset[Card]


def face_index(face: str) -> int:
    return SUITS.index(face[-1]) * 13 + _RANK[face[:-1]] - 1


def face_name(index: int) -> str:
    return RANKS[index % 13] + SUITS[index // 13]


def position(
    table: Sequence[Sequence[Card]],
    names: Mapping[Card, str],
    hand: Sequence[Card],
    variant: Variant,
    first_play: bool,
) -> Position:
    """Read a search's arguments; the hand is put in hand order (stable for equal faces)."""
    lone = frozenset(i for i, g in enumerate(table) if len(g) == 1 and variant.singletons)
    return Position(
        table=tuple(tuple(g) for g in table),
        names=dict(names),
        hand=tuple(sorted(hand, key=_hand_order)),
        variant=variant,
        first_play=first_play and bool(variant.first_play_natural_run),
        lone=lone,
    )


def scenarios(pos: Position) -> list[Scenario]:
    """One search problem per combination of kept and freed table jokers."""
    jokers = _table_jokers(pos)
    choices = [(False, True) if _freers(pos, card, i) else (False,) for card, i in jokers]
    return [_scenario(pos, jokers, chosen) for chosen in product(*choices)]


def relaxed(pos: Position, scen: Scenario | None = None) -> Scenario:
    """A looser problem whose splits include every legal move of `scen` (of every
    scenario when None): nothing is tracked, and with no scenario every table joker is
    wild. Its best split, if the move check accepts it, is the best move there."""
    jokers = _table_jokers(pos)
    freed = tuple(scen is None or card in scen.freed for card, _ in jokers)
    return _scenario(pos, jokers, freed, track=False)


def with_freers(pos: Position, scen: Scenario, asked: int) -> Problem:
    """`scen`'s loosened problem with, for each freed joker whose real card can only come
    from the hand, one hand copy of that card made a card that must be laid: still a
    loosening of the scenario's legal moves (the joker is freed only by a real copy that
    is not in its old group lying on the table, RM-JOKER-4; from the hand only in Tahiti,
    RM-TAH-9), but one whose best split no longer leaves the freeing card in the hand,
    which the move check would refuse (measured on 40-card Carousel tables). The face
    `asked` (the hint's card) is left alone: a forced copy would no longer count as played.
    Only for problems whose objective needs `asked`, never for "is there any move"."""
    problem = scen.problem
    must, hand = list(problem.must), list(problem.hand)
    for card, home in _table_jokers(pos):
        if card not in scen.freed:
            continue
        face = face_index(pos.names[card])
        on_table = pos.variant.jokers != "freezes" and any(
            _face(c) == pos.names[card]
            for i, g in enumerate(pos.table)
            if i != home and i not in pos.lone
            for c in g
        )
        if face != asked and not on_table and hand[face] and must[face] == problem.must[face]:
            must[face] += 1
            hand[face] -= 1
    if must == list(problem.must):
        return problem
    return msgspec.structs.replace(problem, must=tuple(must), hand=tuple(hand))


def _table_jokers(pos: Position) -> list[tuple[Card, int]]:
    return [
        (card, i)
        for i, g in enumerate(pos.table)
        if i not in pos.lone
        for card in g
        if _is_joker(card)
    ]


def _scenario(
    pos: Position,
    jokers: list[tuple[Card, int]],
    freed_flags: tuple[bool, ...],
    *,
    track: bool = True,
) -> Scenario:
    v = pos.variant
    freed = {card for (card, _), f in zip(jokers, freed_flags, strict=True) if f}
    counts: dict[Card, int] = {}
    flags: dict[Card, int] = {}
    kinds: list[int] = []
    blocks: list[tuple[Card, ...]] = []
    block_specs: list[Block] = []
    in_block: set[Card] = set()
    for card, i in jokers:
        group = pos.table[i]
        if card in freed and not track:
            continue
        if card in freed:
            w = len(kinds)
            kinds.append(FREED)
            for other in group:
                if other != card:
                    counts[other] = counts.get(other, 0) + (1 << 4 * w)
            for real in _freers(pos, card, i):
                flags[real] = flags.get(real, 0) | 1 << w
        elif v.jokers == "stays" and track:
            w = len(kinds)
            kinds.append(STAYS)
            counts[card] = counts.get(card, 0) + (1 << 4 * w)
            for near in _neighbours(group, card, pos):
                flags[near] = flags.get(near, 0) | 1 << w
        elif v.jokers == "freezes":
            ordered = _ordered_group(group, pos)
            blocks.append(ordered)
            block_specs.append(_block(ordered, pos))
            in_block.update(ordered)
    marked = set(counts) | set(flags)
    must = [0] * 52
    spare = [0] * 52
    hand = [0] * 52
    hot_cards: list[Card] = []
    hot: list[Hot] = []
    wild_must = 0
    wild_first = 0

    def follow(card: Card, face: int, cls: int) -> None:
        hot_cards.append(card)
        hot.append(Hot(face, cls, counts.get(card, 0), flags.get(card, 0)))

    for i, group in enumerate(pos.table):
        for card in group:
            if card in in_block:
                continue
            if i in pos.lone:
                if not _is_joker(card):
                    spare[face_index(_face(card))] += 1
                continue
            if _is_joker(card):
                if card in freed:
                    if card in marked:
                        follow(card, -1, MUST)
                    elif track:
                        wild_must += 1
                    else:
                        wild_first += 1  # loosened: it may stay off (search.py checks)
                    continue
                face = face_index(pos.names[card])
            else:
                face = face_index(_face(card))
            if card in marked:
                follow(card, face, MUST)
            else:
                must[face] += 1
    wild_hand = 0
    for card in pos.hand:
        if _is_joker(card):
            wild_hand += 1
            continue
        face = face_index(_face(card))
        if card in marked:
            follow(card, face, HAND_CLS)
        else:
            hand[face] += 1
    problem = Problem(
        ace=v.ace,
        must=tuple(must),
        spare=tuple(spare),
        hand=tuple(hand),
        wild_must=wild_must,
        wild_first=wild_first,
        wild_hand=wild_hand,
        wild_spare=sum(1 for i in pos.lone if _is_joker(pos.table[i][0])),
        joker_limit=v.jokers_per_group,
        first_play=pos.first_play,
        hot=tuple(hot),
        blocks=tuple(block_specs),
        kinds=tuple(kinds),
    )
    return Scenario(
        problem=problem, hot=tuple(hot_cards), blocks=tuple(blocks), freed=frozenset(freed)
    )


def _freers(pos: Position, joker: Card, home: int) -> list[Card]:
    """Real cards that may free `joker` (moves.py _freed): its face, not from its group;
    Tahiti: from the hand only (RM-TAH-9)."""
    face = pos.names.get(joker, "")
    out = [c for c in pos.hand if _face(c) == face]
    if pos.variant.jokers != "freezes":
        out += [
            c
            for i, g in enumerate(pos.table)
            if i != home and i not in pos.lone
            for c in g
            if _face(c) == face
        ]
    return out


def _neighbours(group: tuple[Card, ...], joker: Card, pos: Position) -> list[Card]:
    """RM-AMB-10 as moves.py reads it: a run's neighbours in run order, a set's other cards."""
    checked = check_group(group, pos.variant, pos.names)
    if checked.kind == "set":
        return [c for c in group if c != joker]
    cards = checked.cards
    k = cards.index(joker)
    return list(cards[max(k - 1, 0) : k] + cards[k + 1 : k + 2])


def _ordered_group(group: tuple[Card, ...], pos: Position) -> tuple[Card, ...]:
    return check_group(group, pos.variant, pos.names).cards


def _block(ordered: tuple[Card, ...], pos: Position) -> Block:
    """A frozen Tahiti group as the search's block (RM-TAH-8, RM-AMB-25)."""
    checked = check_group(ordered, pos.variant, pos.names)
    faces = [face_index(f) for f in checked.faces]
    if checked.kind == "set":
        suits = {f // 13 for f in faces}
        missing = next(iter(set(range(4)) - suits)) if len(faces) == 3 else -1
        rank = faces[0] % 13 + 1
        # Aces form sets at place 1 only where they may not stand high (search_dp).
        place = 14 if rank == 1 and pos.variant.ace != "low" else rank
        return Block(suit=-1, low=place, high=place, missing=missing)
    suit = faces[0] // 13
    ranks = [f % 13 + 1 for f in faces]
    # check_group orders a run low to high: an ace first stands low, an ace last high.
    high = 14 if ranks[-1] == 1 else ranks[-1]
    low = high - len(ranks) + 1
    left = 0
    hand_faces = {face_index(_face(c)) for c in pos.hand if not _is_joker(c)}
    first_place = 2 if pos.variant.ace == "high" else 1
    while low - left - 1 >= first_place and (suit * 13 + (low - left - 1) - 1) in hand_faces:
        left += 1
    return Block(suit=suit, low=low, high=high, left=left)


def _is_joker(card: Card) -> bool:
    return card.startswith(JOKER + "#")


def _face(card: Card) -> str:
    return card.partition("#")[0]


def _hand_order(card: Card) -> tuple[int, int]:
    if _is_joker(card):
        return (52, 0)
    return (face_index(_face(card)), 0)
