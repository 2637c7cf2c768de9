"""A brute-force enumerator of every rummy move from a small position, written from
`rules/rummy.md` alone; it judges each candidate with the move checker
(engine/rummy/moves.check_move) and shares no other code with engine/rummy.

A candidate is a cover: every card of the table (Tahiti's singletons may stay alone) and
any subset of the hand cut into groups, each group a set or a run by the group oracle of
tests/property/rummy_oracle.py for some naming of its jokers (each joker tries the faces
of the group's rank or suit). Every cover, under every such naming, is offered to
check_move; the accepted ones are the legal moves.

What is read from them (RM-AMB-5, RM-OPT-1a): whether a move exists, the most hand cards a
move adds, the hand cards some move plays, the first of them in hand order (♣ ♦ ♥ ♠, then
A … K, jokers last), and which cards a move without rearrangement plays (every old group
whole in one new group, no new group holding two old groups' cards).

Small positions only: a table of about 8 cards and a hand of about 5.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations, product

from engine.errors import RuleViolation
from engine.rummy.moves import check_move
from engine.rummy.variants import VARIANTS
from tests.property.rummy_oracle import group_outcome

__all__ = ["Moves", "enumerate_moves", "hand_order", "no_rearrangement"]

_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUITS = ("C", "D", "H", "S")
Group = tuple[str, ...]


@dataclass
class Moves:
    """Every legal move found: (table, names, added)."""

    legal: list[tuple[tuple[Group, ...], dict[str, str], tuple[str, ...]]] = field(
        default_factory=list
    )

    @property
    def exists(self) -> bool:
        return bool(self.legal)

    @property
    def most(self) -> int:
        return max((len(added) for _, _, added in self.legal), default=0)

    def played(self) -> set[str]:
        return {c for _, _, added in self.legal for c in added}


def hand_order(card: str) -> tuple[int, int]:
    face = card.partition("#")[0]
    if face == "JK":
        return (4, 0)
    return (_SUITS.index(face[-1]), _NAMES.index(face[:-1]))


def no_rearrangement(before: Sequence[Group], after: Sequence[Group]) -> bool:
    """Every old group lies whole in one new group, and no new group holds cards of two."""
    home = {c: i for i, g in enumerate(after) for c in g}
    owners: dict[int, int] = {}
    for k, group in enumerate(before):
        places = {home[c] for c in group}
        if len(places) != 1:
            return False
        place = places.pop()
        if owners.setdefault(place, k) != k:
            return False
    return True


def enumerate_moves(
    table: Sequence[Group],
    names: Mapping[str, str],
    hand: Sequence[str],
    variant: str,
    *,
    first_play: bool = False,
) -> Moves:
    rules = VARIANTS[variant]
    lone = [g[0] for g in table if len(g) == 1] if rules.singletons else []
    must = [c for g in table for c in g if c not in lone]
    optional = [*lone, *hand]
    out = Moves()
    for cover in _covers(must, optional, variant):
        used = {c for g in cover for c in g}
        after_groups = [*cover, *((c,) for c in lone if c not in used)]
        olds = tuple(sorted(names.items()))
        for naming in product(*(_namings(g, variant, olds) for g in cover)):
            after_names: dict[str, str] = {}
            for n in naming:
                after_names.update(n)
            after = tuple(after_groups)
            try:
                checked = check_move(
                    tuple(table),
                    dict(names),
                    after,
                    after_names,
                    list(hand),
                    rules,
                    first_play=first_play,
                )
            except RuleViolation:
                continue
            out.legal.append((after, after_names, checked.added))
    return out


def _covers(must: list[str], optional: list[str], variant: str) -> Iterator[list[Group]]:
    """Every set of disjoint candidate groups covering `must` (optional cards as wished)."""
    if must:
        first, rest = must[0], must[1:]
        for group in _groups_with(first, rest + optional, variant):
            left_must = [c for c in rest if c not in group]
            left_opt = [c for c in optional if c not in group]
            for tail in _covers(left_must, left_opt, variant):
                yield [group, *tail]
        return
    if not optional:
        yield []
        return
    first, rest = optional[0], optional[1:]
    yield from _covers([], rest, variant)  # the first optional card stays out
    for group in _groups_with(first, rest, variant):
        for tail in _covers([], [c for c in rest if c not in group], variant):
            yield [group, *tail]


def _groups_with(card: str, pool: list[str], variant: str) -> Iterator[Group]:
    """Groups holding `card` and 2 or more cards of `pool` that are a set or a run for
    some naming of their jokers."""
    near = [c for c in pool if _could_be((card, c))]
    for size in range(2, min(len(near), 12) + 1):
        for others in combinations(near, size):
            group = (card, *others)
            if _could_be(group) and _namings(group, variant, ()):
                yield group


def _could_be(group: Group) -> bool:
    faces = [c.partition("#")[0] for c in group if not c.startswith("JK")]
    if len(set(faces)) < len(faces):
        return False
    ranks = {f[:-1] for f in faces}
    suits = {f[-1] for f in faces}
    return len(ranks) <= 1 or len(suits) <= 1


@cache
def _namings(group: Group, variant: str, olds: tuple[tuple[str, str], ...]) -> list[dict[str, str]]:
    """The namings of the group's jokers (faces of its rank or suit) that make it valid,
    one per class: a hand joker may take any identity that fits, and of a table joker
    only one thing matters besides fitting: whether it keeps its old identity (RM-JOKER-3,
    RM-JOKER-5). `olds` are the table jokers' identities before the move."""
    old = dict(olds)
    jokers = [c for c in group if c.startswith("JK")]
    faces = [c.partition("#")[0] for c in group if not c.startswith("JK")]
    ranks = {f[:-1] for f in faces}
    suits = {f[-1] for f in faces}
    as_set = {r + s for r in ranks for s in _SUITS} if len(ranks) == 1 else set()
    as_run = {r + s for s in suits for r in _NAMES} if len(suits) == 1 else set()
    pool = sorted((as_set | as_run) - set(faces))
    out: dict[tuple[bool, ...], dict[str, str]] = {}
    for picked in product(pool, repeat=len(jokers)):
        naming = dict(zip(jokers, picked, strict=True))
        kind = tuple(naming[j] == old[j] for j in jokers if j in old)
        every = faces + list(picked)
        if kind in out or len(set(every)) < len(every):
            continue
        if len({f[:-1] for f in every}) > 1 and len({f[-1] for f in every}) > 1:
            continue
        if _valid(group, tuple(sorted(naming.items())), variant):
            out[kind] = naming
    return list(out.values())


_SEEN: dict[tuple[object, ...], bool] = {}


def _valid(group: Group, naming: tuple[tuple[str, str], ...], variant: str) -> bool:
    """The group oracle's verdict, remembered by faces (which copy a card is never matters)."""
    faces = tuple(sorted(c.partition("#")[0] for c in group if not c.startswith("JK")))
    key = (faces, tuple(sorted(n for _, n in naming)), variant)
    if key not in _SEEN:
        _SEEN[key] = group_outcome(group, dict(naming), variant) is not None
    return _SEEN[key]
