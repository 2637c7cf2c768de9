"""A solved split (search_dp) back as a table of card identities (search_model's Position
and Scenario): which copy of a face fills each place, which joker each wild place gets,
and the table in an order a player recognises (groups kept as they were come first).

Per face the search counted every must copy, then hand copies (they score), then spare
ones (Tahiti's singletons), and a place that needs a hand card (Vatican's opening run)
takes one; freed jokers are laid before hand jokers, then singleton jokers.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import JOKER, Card
from engine.rummy.search_model import Position, Scenario, face_index, face_name
from engine.rummy.search_types import BLOCK, HAND, HAND_JOKER, HOT, NATURAL, WILD, Slot

__all__ = ["to_table"]

Table = tuple[tuple[Card, ...], ...]


def to_table(
    pos: Position, scen: Scenario, groups: Sequence[Sequence[Slot]]
) -> tuple[Table, dict[Card, str], tuple[Card, ...]]:
    """The new table (unchanged groups first, in their old order), every joker's name on
    it, and the hand cards it adds (in table order)."""
    naturals: dict[int, list[int]] = {}
    wild_slots = [0, 0]
    for group in groups:
        for face, tag, _ in group:
            if tag in (NATURAL, HAND):
                naturals.setdefault(face, [0, 0])[tag == HAND] += 1
            elif tag in (WILD, HAND_JOKER):
                wild_slots[tag == HAND_JOKER] += 1
    # The search counted, per face, every must copy, then hand copies (they score), then
    # spare ones; slots that need a hand card take hand cards, the others the rest first.
    pools = _pools(pos, scen)
    queues: dict[int, tuple[list[Card], list[Card]]] = {}
    for face, (plain, from_hand) in naturals.items():
        must, hand, spare = pools[face]
        n = plain + from_hand
        in_hand = min(len(hand), n - len(must))
        queues[face] = (hand[:in_hand], must + spare[: n - len(must) - in_hand])
    freed = sorted(c for c in scen.freed if c not in scen.hot)
    hand_jokers = [c for c in pos.hand if _is_joker(c)]
    lone_jokers = [pos.table[i][0] for i in sorted(pos.lone) if _is_joker(pos.table[i][0])]
    n_wild = sum(wild_slots)
    # Freed jokers first (they must lie on the table), then hand jokers, then singletons.
    in_hand = max(0, min(len(hand_jokers), n_wild - len(freed)))
    jokers = (hand_jokers[:in_hand], freed + lone_jokers[: max(0, n_wild - len(freed) - in_hand)])
    names: dict[Card, str] = {}
    out: list[tuple[Card, ...]] = []
    for group in groups:
        cards: list[Card] = []
        for face, tag, key in group:
            if tag == BLOCK:
                block = scen.blocks[key]
                cards.extend(block)
                names.update({c: pos.names[c] for c in block if _is_joker(c)})
                continue
            if tag == HOT:
                card = scen.hot[key]
            elif tag in (NATURAL, HAND):
                card = _pop(queues[face], tag == HAND)
            else:
                card = _pop(jokers, tag == HAND_JOKER)
            if _is_joker(card):
                names[card] = face_name(face)
            cards.append(card)
        out.append(tuple(cards))
    for i in sorted(pos.lone):
        card = pos.table[i][0]
        if not any(card in g for g in out):
            out.append((card,))
    table = _ordered(pos.table, out)
    was = {c for g in pos.table for c in g}
    added = tuple(c for g in table for c in g if c not in was)
    return table, names, added


def _pop(queues: tuple[list[Card], list[Card]], hand_only: bool) -> Card:
    from_hand, others = queues
    if hand_only or not others:
        return from_hand.pop(0)
    return others.pop(0)


# ---- building one scenario -------------------------------------------------------------------


def _pools(pos: Position, scen: Scenario) -> dict[int, tuple[list[Card], list[Card], list[Card]]]:
    """Per face, the untracked cards: (must: table cards and kept Carousel jokers named so;
    hand, in hand order; spare: Tahiti's singletons)."""
    tracked = set(scen.hot) | {c for b in scen.blocks for c in b}
    pools: dict[int, tuple[list[Card], list[Card], list[Card]]] = {}

    def pool(face: int) -> tuple[list[Card], list[Card], list[Card]]:
        return pools.setdefault(face, ([], [], []))

    for i, group in enumerate(pos.table):
        for card in group:
            if card in tracked:
                continue
            if i in pos.lone:
                if not _is_joker(card):
                    pool(face_index(_face(card)))[2].append(card)
                continue
            if _is_joker(card):
                if card not in scen.freed:
                    pool(face_index(pos.names[card]))[0].append(card)
                continue
            pool(face_index(_face(card)))[0].append(card)
    for card in pos.hand:
        if card not in tracked and not _is_joker(card):
            pool(face_index(_face(card)))[1].append(card)
    return pools


def _ordered(before: Table, after: list[tuple[Card, ...]]) -> Table:
    """Groups kept exactly as they were stay in their old order first; the rest follow."""
    olds = {frozenset(g): i for i, g in enumerate(before)}
    same = sorted((olds[frozenset(g)], g) for g in after if frozenset(g) in olds)
    kept = {frozenset(g) for _, g in same}
    return tuple([before[i] for i, _ in same] + [g for g in after if frozenset(g) not in kept])


def _is_joker(card: Card) -> bool:
    return card.startswith(JOKER + "#")


def _face(card: Card) -> str:
    return card.partition("#")[0]
