"""How the services reach a table's game (services/tables/games.py): by the table's game
name through the registry, and the system's pre-deal steps asked of the game itself.

Banakil's own rule (`needs_cut`, BK-DEAL-C1) is the oracle for `awaits_cut` on every
seeded state of classic and sahrat deals, with and without a client seed window.
"""

from __future__ import annotations

import random

import msgspec
import pytest

from engine import banakil, protocol
from engine.banakil.autoplay import random_step
from engine.banakil.decide import needs_cut
from engine.banakil.messages import CloseSeedWindow, CommitSeed, Cut, Deal, StackDeck
from engine.errors import RuleViolation
from engine.table import TableState
from services.tables.games import (
    DEFAULT_GAME,
    awaits_cut,
    game_named,
    game_of,
    system_command,
)


def test_a_table_plays_the_game_its_state_names_and_an_unnamed_one_plays_the_default() -> None:
    named = TableState(table_id="t1", game="banakil")
    assert game_of(named) is protocol.get("banakil")
    assert game_of(TableState(table_id="t2")) is protocol.get(DEFAULT_GAME)
    with pytest.raises(RuleViolation) as refused:
        game_of(TableState(table_id="t3", game="chess"))
    assert refused.value.code == "unknown_game"
    assert game_named("banakil") is protocol.get("banakil")


def test_the_systems_commands_are_built_through_the_games_union_strictly() -> None:
    game = game_named("banakil")
    assert system_command(game, "Deal") == Deal()
    assert system_command(game, "CloseSeedWindow") == CloseSeedWindow()
    assert system_command(game, "Cut") == Cut()
    stacked = system_command(game, "StackDeck", cards=("AS#1", "2H#1"), dealer=2, cut=None)
    assert stacked == StackDeck(cards=("AS#1", "2H#1"), dealer=2, cut=None)
    with pytest.raises(msgspec.ValidationError):
        system_command(game, "Shuffle")  # no such command in the game
    with pytest.raises(msgspec.ValidationError):
        system_command(game, "Deal", seat=1)  # no such field


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
@pytest.mark.parametrize("window", [True, False])
def test_the_host_cuts_exactly_when_banakils_rule_says_so_bk_deal_c1(
    preset: str, window: bool
) -> None:
    game = game_named("banakil")
    rng = random.Random(f"{preset}:{window}")
    state = banakil.initial(banakil.options_from(preset))
    seen = cuts = 0
    for _ in range(20_000):
        if state.phase == "over" or state.deal > 3:
            break
        if state.phase == "seeding":
            command = CommitSeed(secret=rng.randbytes(32).hex())
            events = banakil.decide(state, 0, command)
        else:
            if state.phase == "seeded":
                seen += 1
                cuts += awaits_cut(game, state)
                assert awaits_cut(game, state) == needs_cut(state)
            if state.phase == "seeded" and state.seed_window and not window:
                events = banakil.decide(state, 0, CloseSeedWindow() if needs_cut(state) else Deal())
            else:
                _, _, events = random_step(state, rng)
        for event in events:
            state = banakil.evolve(state, event)
    assert seen >= 3  # three deals seeded
    assert (cuts > 0) == (preset == "classic")  # only classic's first deal is cut by its host
