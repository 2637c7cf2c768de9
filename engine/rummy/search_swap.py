"""Other tables with the same groups: copies of one face traded between groups (for
search.py, when the move check refuses a loosened problem's split).

A loosened problem (search_model.relaxed) counts copies by face, so its split says which
faces form each group, not which copy of a face goes where; search_table picks copies in
a fixed order. The joker rules, though, name cards one by one (rules/rummy.md RM-JOKER-4,
RM-AMB-7: a freed joker's real card must lie in the group continuing the joker's old
group, the group holding most of that group's other cards; RM-AMB-10: a Vatican joker
beside a card that lay next to it). Two copies of a face (a kept joker counts as a copy of
its name) fill the same places equally well, so trading them between groups keeps every
group valid and may satisfy those rules: on 40-card Carousel tables the refused split was
most often one trade of a copy away from a legal move, which the tracked search (search_hot)
then took 100-400 ms to find.

Only faces the rules look at are traded: those of the table jokers' old groups, and the
faces the freed jokers stood for. The tables are offered fewest trades first; search.py
keeps the first one moves.check_move accepts, so nothing here decides legality.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import combinations, permutations, product

from engine.cards import JOKER, Card

__all__ = ["traded"]

Table = tuple[tuple[Card, ...], ...]
Where = tuple[int, int]  # (group, place in group)
# Tables offered at most: each costs a move check (about 0.1 ms at 40 cards) when the cheap
# freeing test below passes it.
_LIMIT = 16
# Trades tried at most (each a cheap test of the freeing rule, a few microseconds).
_TRIES = 2_000


def traded(
    before: Table,
    before_names: Mapping[Card, str],
    after: Table,
    names: Mapping[Card, str],
    freed: frozenset[Card],
) -> Iterator[Table]:
    """Tables made from `after` by trading copies of a face between its groups, fewest
    trades first, `after` itself left out; only those in which every joker of `freed`
    lying on the table is freed by the move (RM-AMB-7, as moves.py reads it)."""
    faces = _watched(before, before_names, freed)
    if not faces:
        return
    spots: dict[str, list[Where]] = {}
    for g, group in enumerate(after):
        for k, card in enumerate(group):
            face = _face_on_table(card, names)
            if face in faces:
                spots.setdefault(face, []).append((g, k))
    ways: list[list[dict[Where, Card]]] = []
    for where in spots.values():
        if len({g for g, _ in where}) < 2:  # all in one group: nothing to trade
            continue
        cards = [after[g][k] for g, k in where]
        options: dict[frozenset[tuple[Card, int]], dict[Where, Card]] = {}
        same = frozenset((c, w[0]) for w, c in zip(where, cards, strict=True))
        for order in permutations(cards):
            placed = frozenset((c, w[0]) for w, c in zip(where, order, strict=True))
            change = {w: c for w, c, old in zip(where, order, cards, strict=True) if c != old}
            if placed != same and placed not in options:
                options[placed] = change
        ways.append(list(options.values()))
    if not ways:
        return
    homes = _homes(before, freed)
    offered = tried = 0
    for n in range(1, len(ways) + 1):
        for faces_traded in combinations(ways, n):
            for combo in product(*faces_traded):
                tried += 1
                if tried > _TRIES:
                    return
                change = {w: c for part in combo for w, c in part.items()}
                table = tuple(
                    tuple(change.get((g, k), card) for k, card in enumerate(group))
                    for g, group in enumerate(after)
                )
                if _frees(table, homes, before_names):
                    yield table
                    offered += 1
                    if offered >= _LIMIT:
                        return


def _watched(before: Table, names: Mapping[Card, str], freed: frozenset[Card]) -> set[str]:
    """Faces whose copies the joker rules tell apart: the table jokers' old groups (a
    joker as its name) and the freed jokers' names."""
    out: set[str] = set()
    for group in before:
        jokers = [c for c in group if _is_joker(c)]
        if not jokers or len(group) == 1:
            continue
        out.update(_face_on_table(c, names) for c in group)
        out.update(names[j] for j in jokers if j in freed)
    return out


def _homes(before: Table, freed: frozenset[Card]) -> list[tuple[Card, frozenset[Card]]]:
    """Each freed joker with the other cards of its old group."""
    return [
        (joker, frozenset(c for c in group if c != joker))
        for group in before
        for joker in group
        if joker in freed
    ]


def _frees(
    table: Table, homes: list[tuple[Card, frozenset[Card]]], names: Mapping[Card, str]
) -> bool:
    """Every freed joker on `table` has a real copy of its old name, not from its old
    group, in a group holding the most of its old group's other cards."""
    for joker, home in homes:
        if not any(joker in g for g in table):
            return False
        held = [sum(1 for c in g if c in home) for g in table]
        most = max(held)
        if most == 0:
            return False
        face = names[joker]
        if not any(
            held[g] == most and any(c.partition("#")[0] == face and c not in home for c in group)
            for g, group in enumerate(table)
        ):
            return False
    return True


def _face_on_table(card: Card, names: Mapping[Card, str]) -> str:
    return names.get(card, "") if _is_joker(card) else card.partition("#")[0]


def _is_joker(card: Card) -> bool:
    return card.startswith(JOKER + "#")
