"""The random legal rummy player (engine/rummy/autoplay.py): every command it builds is one
the rules accept, so a bench times the engine and never a refused try; it plays when a
move without rearrangement exists, within the variant's groups and ace rule.

Rules: RM-GRP-2, RM-GRP-3, RM-GRP-4, RM-ACE-1, RM-ACE-2, RM-ACE-3, RM-MOVE-1, RM-MOVE-5,
RM-VAT-5, RM-TAH-3, RM-CAR-8, RM-BLOCK-1.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.rummy.autoplay import random_command, random_step
from engine.rummy.evolve import evolve
from engine.rummy.game import initial
from engine.rummy.messages import Draw, Pass, Play
from engine.rummy.options import options_from
from engine.rummy.rules import decide
from engine.rummy.state import State
from tests.unit.rummy_support import cards, playing, trusting

_VARIANTS = (
    "manipulation",
    "machiavelli",
    "shanghai",
    "guadeloupe",
    "carousel",
    "vatican",
    "tahiti",
)


def _commands(state: State, tries: int = 40) -> list[Any]:
    rng = random.Random(7)
    return [random_command(state, state.turn, rng) for _ in range(tries)]


def _plays(state: State, tries: int = 40) -> set[tuple[tuple[str, ...], ...]]:
    """The new tables of the plays the player chose, each one accepted by the rules."""
    out = set()
    for command in _commands(state, tries):
        assert isinstance(command, Play)
        decide(state, state.turn, command)  # raises if the rules refuse it
        out.add(tuple(sorted(tuple(sorted(g)) for g in command.table)))
    return out


@pytest.mark.parametrize("variant", _VARIANTS)
@pytest.mark.parametrize("seats", [2, 4])
def test_every_command_of_a_random_round_is_accepted(variant: str, seats: int) -> None:
    """RM-MOVE-1, RM-MOVE-5: whole seeded rounds of every variant, each of the player's
    commands accepted by `decide` (random_step would raise on a refusal), with plays in
    them."""
    options = options_from(variant, seats=seats, **trusting(variant))
    rng = random.Random(f"{variant}:{seats}")
    plays = 0
    for _ in range(3):
        state = initial(options)
        while state.phase not in ("over", "seeding") or state.round == 0:
            _, command, events = random_step(state, rng)
            plays += isinstance(command, Play)
            for event in events:
                state = evolve(state, event)
    assert plays > 0


def test_a_set_from_the_hand_is_laid_in_distinct_suits() -> None:
    """RM-GRP-2, RM-GRP-4: the two copies of 7H never share the set it lays."""
    state = playing("machiavelli", ["7H 7H#2 7S 7C 2D", "3C"], stock="4D")
    laid = _plays(state)
    assert laid  # the only moves are sets of sevens
    for new in laid:
        (group,) = new
        assert len({c.partition("#")[0] for c in group}) == len(group) >= 3


def _table(*groups: str) -> tuple[tuple[str, ...], ...]:
    return tuple(sorted(tuple(sorted(cards(g))) for g in groups))


def test_the_ace_stands_only_where_the_variant_lets_it() -> None:
    """RM-ACE-1 (Manipulation: above the king only), RM-ACE-2 (Shanghai: below the 2
    only), RM-ACE-3 (Machiavelli: either end, never both)."""
    hand = "AS 2S 3S QS KS 9D"
    high = playing("manipulation", [hand, "3C"], stock="4D", **trusting("manipulation"))
    assert _plays(high) == {_table("QS KS AS")}
    low = playing("shanghai", [hand, "3C"], stock="4D", **trusting("shanghai"))
    assert _plays(low) == {_table("AS 2S 3S")}
    both = playing("machiavelli", [hand, "3C"], stock="4D")
    assert _plays(both, 80) == {_table("AS 2S 3S"), _table("QS KS AS")}


def test_a_card_is_laid_off_at_a_run_end_or_into_a_set_including_jokers_faces() -> None:
    """RM-GRP-3, RM-GRP-4: 5H goes below 6H 7H 8H; 9C joins the set whose joker stands
    for 9D; 9D, whose face that joker holds, goes nowhere; the 4H cannot reach the run."""
    state = playing(
        "carousel",
        ["5H 9C 9D 4H#2 KD", "3C"],
        stock="4D",
        on_table="6H 7H 8H | 9H 9S JK1",
        names={"JK1": "9D"},
        drawn=1,
    )
    added = {c for t in _commands(state) for c in t.added}
    assert added == set(cards("5H 9C"))
    _plays(state)


def test_vaticans_first_play_is_a_natural_run_from_the_hand() -> None:
    """RM-VAT-5: before its first play the seat lays a run of natural hand cards, never a
    set or a card laid off; after it, the set and the card laid off are played too."""
    hand = "4C 5C 6C 9H 9S 9D 7H"
    run = "8H 9H#2 10H"
    first = playing("vatican", [hand, "3C"], stock="4D", on_table=run, opened=[False, True])
    assert _plays(first) == {_table(run, "4C 5C 6C")}
    later = playing("vatican", [hand, "3C"], stock="4D", on_table=run)
    assert _plays(later, 80) == {
        _table(run, "4C 5C 6C"),
        _table(run, "9H 9S 9D"),
        _table("7H " + run),
    }


def test_tahitis_singletons_are_left_alone() -> None:
    """RM-TAH-3: a singleton is not a group to lay off on; with only it to reach, the
    player draws."""
    state = playing("tahiti", ["5H 9C", "3C"], stock="4D", on_table="6H | 9D")
    assert all(c == Draw() for c in _commands(state))


def test_without_a_play_it_draws_and_passes_on_an_empty_stock() -> None:
    """RM-CAR-8, RM-BLOCK-1: a Carousel turn starts with a draw; no play and no stock is
    a pass."""
    carousel = playing("carousel", ["5H 6H 7H", "3C"], stock="4D")
    assert all(c == Draw() for c in _commands(carousel))
    empty = playing("machiavelli", ["5H 9C", "3C"])
    assert all(c == Pass() for c in _commands(empty))
