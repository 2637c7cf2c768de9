"""Positions for timing rummy's move check and move search (`sahra bench rummy`).

The bench needs tables of a chosen size (20, 40, 80 cards), with jokers lying on them in
the joker variants, and a mover's hand; for the move check also a real move on that table.
Random play does not get there (the random player never lays a joker, and few games reach
80 cards), so positions are CONSTRUCTED: valid random groups dealt from the variant's deck
(engine/rummy/bench_tables.py), the hand 7 to 13 cards from the rest, and in a joker
variant each joker not on the table goes to the hand with chance 1/2.

A move is one to three changes a player makes to such a table (engine/rummy/bench_moves.py),
at least one of them adding hand cards; the hand holds the added cards and more. Every
move is checked with `check_move` before it is handed out, and a refused one is counted
and built again: that count is the bench's sanity figure (it should stay 0).

Everything is drawn from the caller's generator, so a seed names a position, and
`Position` / `Submitted` encode to JSON to be printed and timed again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from engine.cards import Card
from engine.errors import RuleViolation
from engine.players import Rng
from engine.rummy.bench_moves import changes
from engine.rummy.bench_tables import Built, Pool, between, build_table, shuffled
from engine.rummy.moves import Checked, check_move
from engine.rummy.variants import VARIANTS

__all__ = ["Position", "Submitted", "checking", "position", "searching", "submitted", "validate"]

Table = tuple[tuple[Card, ...], ...]

_HAND = (7, 13)
_TRIES = 200  # builds of a table (or a move) before giving up: a bug, not bad luck


class Position(msgspec.Struct, frozen=True, kw_only=True):
    """A table (jokers named), the mover's hand, and the variant: a search's question."""

    variant: str
    table: Table
    names: tuple[tuple[Card, str], ...]
    hand: tuple[Card, ...]
    first_play: bool = False


class Submitted(msgspec.Struct, frozen=True, kw_only=True):
    """A legal move on `before`: the new table and the names it gives (jokers placed or
    renamed), as a Play command carries them; `changes` says how it was made."""

    before: Position
    table: Table
    names: tuple[tuple[Card, str], ...]
    changes: tuple[str, ...]
    refused: int = 0  # moves built on the way to this one that check_move refused


def position(variant: str, cards: int, rng: Rng, *, jokers: bool = True) -> Position:
    """A valid table of `cards` cards in `variant` and a hand of 7 to 13 cards."""
    rules = VARIANTS[variant]
    for _ in range(_TRIES):
        pool = Pool(rules, rng)
        groups = build_table(pool, rules, cards, rng, jokers=jokers)
        if groups is None:
            continue
        hand = pool.hand(between(rng, *_HAND), rng, jokers=jokers)
        return _position(variant, groups, hand)
    raise RuntimeError(f"no {variant} table of {cards} cards after {_TRIES} tries")


def submitted(variant: str, cards: int, rng: Rng, *, jokers: bool = True) -> Submitted:
    """A legal move on a valid table of `cards` cards (see the module's docstring)."""
    rules = VARIANTS[variant]
    refused = 0
    for _ in range(_TRIES):
        pool = Pool(rules, rng)
        groups = build_table(pool, rules, cards, rng, jokers=jokers)
        if groups is None:
            continue
        after = [g.copy() for g in groups]
        added: list[Card] = []
        given: dict[Card, str] = {}
        done = changes(after, pool, rules, rng, added, given)
        if not added:
            continue
        size = max(between(rng, *_HAND), len(added) + between(rng, 0, 3))
        hand = [*added, *pool.hand(size - len(added), rng, jokers=jokers)]
        before = _position(variant, groups, tuple(shuffled(hand, rng)))
        move = Submitted(
            before=before,
            table=tuple(tuple(g.cards) for g in after if g.cards),
            names=tuple(sorted(given.items())),
            changes=tuple(done),
        )
        try:
            validate(move)
        except RuleViolation:
            refused += 1
            continue
        return msgspec.structs.replace(move, refused=refused)
    raise RuntimeError(f"no {variant} move on {cards} cards after {_TRIES} tries")


def validate(move: Submitted) -> Checked:
    """The move check a Play command gets (engine/rummy/rules.py); TableViolation if refused."""
    return checking(move)()


def checking(move: Submitted) -> Callable[[], Checked]:
    """The move check of `move` with its arguments made ready, to be timed alone."""
    before = move.before
    args = (before.table, dict(before.names), move.table, dict(move.names), before.hand)
    variant, first = VARIANTS[before.variant], before.first_play
    return lambda: check_move(*args, variant, first_play=first)


def searching(name: str, at: Position) -> Callable[[], Any]:
    """A search of engine/rummy/search.py (`hint`, `find_move`, `best_move`) asked about
    `at`, its arguments made ready, to be timed alone."""
    from engine.rummy import search  # on use: the move check's timing never needs it

    function = getattr(search, name)
    args = (at.table, dict(at.names), at.hand, VARIANTS[at.variant])
    first = at.first_play
    return lambda: function(*args, first_play=first)


# --- helpers ------------------------------------------------------------------------------


def _position(variant: str, groups: list[Built], hand: Sequence[Card]) -> Position:
    names = {j: g.faces[g.cards.index(j)] for g in groups for j in g.jokers}
    return Position(
        variant=variant,
        table=tuple(tuple(g.cards) for g in groups),
        names=tuple(sorted(names.items())),
        hand=tuple(hand),
    )
