"""A random Bunco evening, for benches and property tests: the system's steps (commit each
round's secret from the caller's generator, start the round) and the rolls.

BU-AMB-4: when the tables are simulated the server takes one roll a table in turn, head,
middle, low: `random_step` rolls at the first waiting table after the one that rolled
last, so a seeded generator replays a whole evening. Now and then (`timeouts`, a share of
the rolls) the roll is the system's timeout instead of the player's (PF-TIMER-8).
"""

from __future__ import annotations

from typing import Any

from engine.bunco.messages import CommitSeed, Deal, Event, Roll, Timeout
from engine.bunco.rules import awaited, decide, roller_seat
from engine.bunco.state import State
from engine.players import Rng

__all__ = ["next_table", "random_step"]

_SYSTEM = 0


def random_step(
    state: State, rng: Rng, timeouts: float = 0.0
) -> tuple[int, Any, tuple[Event, ...]]:
    """One accepted command of whoever acts now, as (seat, command, its events)."""
    command: Any
    if state.phase == "play" and not timeouts:  # nearly every step: a player's roll
        seat = roller_seat(state, state.tables[next_table(state) - 1])
        command = Roll()
        return seat, command, decide(state, seat, command)
    if state.phase == "seeding":
        secret = "".join(f"{rng.randrange(256):02x}" for _ in range(32))
        command = CommitSeed(secret=secret)
        return _SYSTEM, command, decide(state, _SYSTEM, command)
    if state.phase == "seeded":
        return _SYSTEM, Deal(), decide(state, _SYSTEM, Deal())
    number = next_table(state)
    table = state.tables[number - 1]
    if timeouts and rng.random() < timeouts:
        command = Timeout(round=state.round, table=number, roll=table.rolls + 1)
        return _SYSTEM, command, decide(state, _SYSTEM, command)
    seat = roller_seat(state, table)
    return seat, Roll(), decide(state, seat, Roll())


def next_table(state: State) -> int:
    """BU-AMB-4: the first waiting table after the one that rolled last (head after low)."""
    if not state.bell and state.phase == "play":  # every table waits: the next one round
        return state.last_table % len(state.tables) + 1
    waiting = awaited(state)
    return next((n for n in waiting if n > state.last_table), waiting[0])
