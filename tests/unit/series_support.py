"""A table of a best-of-3 series played at random up to the start of its next match, for the
tests of what happens between two matches (PF-BOT-5: a replaced player's seat comes back
then, and only then)."""

from __future__ import annotations

import random
from typing import Any

from engine import table
from engine.banakil import options_from
from engine.banakil.autoplay import random_step
from engine.banakil.messages import CommitSeed, Deal
from engine.table import CreateTable, StartTable, TableState, TakeSeat

__all__ = ["fold", "next_match", "series_table"]

_STEPS = 20_000


def fold(state: TableState, seat: int, command: object) -> TableState:
    for event in table.decide(state, seat, command):
        state = table.evolve(state, event)
    return state


def series_table(seed: int = 1) -> TableState:
    """Four players, `sahrat`, a series whose matches end after a deal or two (target 1),
    with the first deal dealt."""
    options = options_from("sahrat", series=True, target_score=1)
    state = fold(table.new_table("s"), 0, CreateTable(options=options, seats=("human",) * 4))
    for seat in range(1, 5):
        state = fold(state, 0, TakeSeat(seat=seat, player=f"P{seat}"))
    state = fold(state, 0, StartTable())
    state = fold(state, 0, CommitSeed(secret=f"{seed:02x}" * 32))
    return fold(state, 0, Deal())


def next_match(state: TableState, seed: int = 1, each: Any = None) -> TableState:
    """Play at random (the system commits each deal's seed) until the next match of the
    series starts, before its first deal is committed. `each(state)` sees every state on
    the way where no deal is running."""
    rng = random.Random(seed)
    match = state.game_state.match if state.game_state else 0
    for _ in range(_STEPS):
        game = state.game_state
        assert game is not None and game.phase != "over"
        if game.phase == "seeding":
            if game.match > match:
                return state
            if each is not None:
                each(state)
            state = fold(state, 0, CommitSeed(secret=rng.randbytes(32).hex()))
            continue
        seat, command, _ = random_step(game, rng)
        state = fold(state, seat, command)
    raise AssertionError("the match did not end")
