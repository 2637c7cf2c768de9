"""Moves that need no rearrangement: one hand card joins a group whole (RM-AMB-5, RM-OPT-1a).

"No rearrangement" (the hint's preferred kind of move): every group of the table stays
whole, one of them may grow by hand cards, or hand cards alone lay a new group; a Tahiti
singleton grown by hand cards counts as a group kept whole (two singletons put together
do not). Vatican's first play also lays its opening run from the hand (RM-VAT-5).

For one hand card the search is exact over such moves: the card joins a group (or starts
one) as the only change, with the fewest other hand cards needed, ending at a run's ends,
filling its gaps, or completing a set; a joker tries every face. Every candidate is
judged by engine/rummy/moves.check_move, so nothing illegal comes out of here.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

from engine.cards import JOKER, Card
from engine.errors import RuleViolation
from engine.rummy.groups import check_group
from engine.rummy.moves import check_move
from engine.rummy.search_model import Position, face_index, face_name

__all__ = ["Simple", "opening_core", "simple_move"]

Table = tuple[tuple[Card, ...], ...]
# A move found here: the new table, every joker's name on it, the cards added, and the
# old groups it changes (at most one).
Simple = tuple[Table, dict[Card, str], tuple[Card, ...], tuple[int, ...]]


def simple_move(pos: Position, card: Card) -> Simple | None:
    """A legal move that plays `card` and rearranges nothing, or None if there is none."""
    for base, extra, named in _candidates(pos, card):
        found = _try(pos, base, extra, named)
        if found is not None:
            return found
    return None


def opening_core(pos: Position, avoid: frozenset[Card] = frozenset()) -> tuple[Card, ...] | None:
    """Three natural hand cards of one suit in sequence (RM-VAT-5, RM-AMB-11), or None."""
    by_face: dict[int, Card] = {}
    for c in pos.hand:
        if c not in avoid and not _is_joker(c):
            by_face.setdefault(face_index(_face(c)), c)
    for suit in range(4):
        for low in range(_first(pos), _last(pos) - 1):
            run = [by_face.get(_face_at(suit, p)) for p in range(low, low + 3)]
            if all(run):
                return tuple(c for c in run if c)
    return None


# ---- candidates ----------------------------------------------------------------------------


def _candidates(
    pos: Position, card: Card
) -> Iterator[tuple[int, tuple[Card, ...], dict[Card, str]]]:
    """(old group index or -1, hand cards to add, names of the group's jokers), each a
    group that holds the old group whole, `card` and the fewest other hand cards."""
    natural = not _is_joker(card)
    rank, suit = _face(card)[:-1], _face(card)[-1]
    for base in [-1, *range(len(pos.table))]:
        group = pos.table[base] if base >= 0 else ()
        if natural and not _joinable(group, rank, suit):
            continue
        yield from _grown(pos, base, group, card)


def _joinable(group: tuple[Card, ...], rank: str, suit: str) -> bool:
    """Whether a set or a run could hold the group's natural cards and a card of `rank`
    and `suit` (a cheap test before the group's candidates are built: most groups hold a
    card of another rank and one of another suit)."""
    same_rank = same_suit = True
    for c in group:
        if _is_joker(c):
            continue
        face = _face(c)
        same_rank = same_rank and face[:-1] == rank
        same_suit = same_suit and face[-1] == suit
        if not (same_rank or same_suit):
            return False
    return True


def _grown(
    pos: Position, base: int, group: tuple[Card, ...], card: Card
) -> Iterator[tuple[int, tuple[Card, ...], dict[Card, str]]]:
    """Every way a joker of the group may be freed by a hand card of its face (RM-JOKER-4:
    the real card lands in the joker's own group) and named anew."""
    lone = base in pos.lone
    table_jokers = [c for c in group if _is_joker(c) and not lone]
    hand = [c for c in pos.hand if c != card]
    options: list[list[Card | None]] = []
    for joker in table_jokers:
        face = pos.names[joker]
        real = card if _face(card) == face else next((c for c in hand if _face(c) == face), None)
        options.append([None, real] if real is not None else [None])
    for freers in product(*options):
        freed = [j for j, r in zip(table_jokers, freers, strict=True) if r is not None]
        added = [card, *(r for r in freers if r is not None and r != card)]
        if len(set(added)) < len(added):
            continue
        faces = [_face(c) for c in group if not _is_joker(c)]
        faces += [pos.names[j] for j in table_jokers if j not in freed]
        faces += [_face(c) for c in added if not _is_joker(c)]
        wild = [j for j in group if _is_joker(j) and (j in freed or lone)]
        wild += [c for c in added if _is_joker(c)]
        if (
            len(set(faces)) < len(faces)
            or len(wild) + len(table_jokers) - len(freed) > pos.variant.jokers_per_group
        ):
            continue
        rest = [c for c in hand if c not in added]
        fixed = {j: pos.names[j] for j in table_jokers if j not in freed}
        for extra, names in _complete(
            pos, [face_index(f) for f in faces], wild, rest, len(table_jokers) - len(freed)
        ):
            yield base, (*added, *extra), {**fixed, **names}


def _complete(
    pos: Position, faces: list[int], wild: list[Card], rest: list[Card], fixed_jokers: int
) -> Iterator[tuple[tuple[Card, ...], dict[Card, str]]]:
    """Hand cards (fewest first) that make `faces` and the `wild` jokers one set or run;
    with names for the wild jokers and any hand joker used."""
    if not faces and not wild:
        return
    ranks = {f % 13 for f in faces}
    suits = {f // 13 for f in faces}
    spare_jokers = [c for c in rest if _is_joker(c)]
    room = pos.variant.jokers_per_group - fixed_jokers - len(wild)
    if len(ranks) <= 1:
        for rank in ranks or set(range(13)):
            yield from _as_set(rank, faces, wild, rest, spare_jokers, room)
    if len(suits) <= 1:
        for suit in suits or set(range(4)):
            for core in _placings(pos, faces):
                yield from _as_run(pos, suit, core, wild, rest, spare_jokers, room)


def _as_set(
    rank: int, faces: list[int], wild: list[Card], rest: list[Card], jokers: list[Card], room: int
) -> Iterator[tuple[tuple[Card, ...], dict[Card, str]]]:
    """Hand cards of the rank in new suits, then hand jokers, up to a set of three."""
    taken = {f // 13 for f in faces}
    size = len(faces) + len(wild)
    if size > 4:
        return
    extra: list[Card] = []
    for c in rest:
        f = -1 if _is_joker(c) else face_index(_face(c))
        if size < 3 and f >= 0 and f % 13 == rank and f // 13 not in taken:
            taken.add(f // 13)
            extra.append(c)
            size += 1
    named = list(wild)
    spare = list(jokers)
    while size < 3 and spare and room > 0:
        named.append(spare.pop(0))
        extra.append(named[-1])
        size += 1
        room -= 1
    free = [s for s in range(4) if s not in taken]
    if size >= 3 and len(named) <= len(free):
        yield tuple(extra), {j: face_name(s * 13 + rank) for j, s in zip(named, free, strict=False)}


def _as_run(
    pos: Position,
    suit: int,
    core: set[int],
    wild: list[Card],
    rest: list[Card],
    jokers: list[Card],
    room: int,
) -> Iterator[tuple[tuple[Card, ...], dict[Card, str]]]:
    """Spans holding the core places, filled by hand cards of the suit, the group's wild
    jokers and hand jokers (at most `room` more)."""
    by_place: dict[int, Card] = {}
    for c in rest:
        if not _is_joker(c) and face_index(_face(c)) // 13 == suit:
            for at in _ace_places(pos, face_index(_face(c)) % 13 + 1):
                by_place.setdefault(at, c)
    need = max(3, len(core) + len(wild))
    first, last = _first(pos), _last(pos)
    lo, hi = (min(core), max(core)) if core else (last, first)
    found: list[tuple[int, int, tuple[Card, ...], dict[Card, str]]] = []
    for a in range(first, last + 1):
        for b in range(a + need - 1, min(last, a + 12) + 1):
            if (a == 1 and b == 14) or a > lo or b < hi:
                continue
            gaps = [p for p in range(a, b + 1) if p not in core]
            bare = [p for p in gaps if p not in by_place]
            if len(gaps) < len(wild) or len(bare) > len(wild) + min(room, len(jokers)):
                continue
            # The group's own jokers take the places no hand card can fill first.
            order = bare + [p for p in gaps if p in by_place]
            names = {j: face_name(_face_at(suit, p)) for j, p in zip(wild, order, strict=False)}
            extra: list[Card] = []
            spare = list(jokers)
            for p in order[len(wild) :]:
                if p in by_place:
                    extra.append(by_place[p])
                else:
                    j = spare.pop(0)
                    names[j] = face_name(_face_at(suit, p))
                    extra.append(j)
            used_jokers = sum(1 for c in extra if _is_joker(c))
            found.append((len(extra), used_jokers, tuple(extra), names))
            break  # a longer span from the same start only needs more cards
    for _, _, extra_cards, names in sorted(found, key=lambda f: (f[0], f[1])):
        yield extra_cards, names


def _placings(pos: Position, faces: list[int]) -> list[set[int]]:
    """The places the faces take in a run (an ace low or high as the variant allows)."""
    out: list[set[int]] = [set()]
    for f in faces:
        out = [p | {at} for p in out for at in _ace_places(pos, f % 13 + 1) if at not in p]
    return out


# ---- judging a candidate -------------------------------------------------------------------


def _try(
    pos: Position, base: int, extra: tuple[Card, ...], named: dict[Card, str]
) -> Simple | None:
    group = (pos.table[base] if base >= 0 else ()) + extra
    names = {**pos.names, **named}
    try:
        check_group(group, pos.variant, names)
    except RuleViolation:
        return None
    after = list(pos.table)
    if base >= 0:
        after[base] = group
    else:
        after.append(group)
    tables = [tuple(after)]
    if pos.first_play:
        core = opening_core(pos, frozenset(group))
        tables = ([tables[0]] if base < 0 else []) + ([(*tables[0], core)] if core else [])
    for table in tables:
        try:
            checked = check_move(
                pos.table, pos.names, table, names, pos.hand, pos.variant, first_play=pos.first_play
            )
        except RuleViolation:
            continue
        return table, dict(checked.names), checked.added, (base,) if base >= 0 else ()
    return None


# ---- reading groups and places ----------------------------------------------------------------


def _ace_places(pos: Position, rank: int) -> list[int]:
    if rank != 1:
        return [rank]
    return {"high": [14], "low": [1], "high_or_low": [1, 14]}[pos.variant.ace]


def _first(pos: Position) -> int:
    return 2 if pos.variant.ace == "high" else 1


def _face_at(suit: int, place: int) -> int:
    return suit * 13 + (0 if place == 14 else place - 1)


def _last(pos: Position) -> int:
    return 13 if pos.variant.ace == "low" else 14


def _is_joker(card: Card) -> bool:
    return card.startswith(JOKER + "#")


def _face(card: Card) -> str:
    return card.partition("#")[0]
