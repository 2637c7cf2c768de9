"""Golden Bunco evenings: whole seeded evenings stored as their commands and the events
each produced (tests/golden/bunco/<name>.json), replayed command by command through
`decide`; the events must be exactly the stored ones.

A difference means the engine now plays a recorded evening differently. That is a RULES
CHANGE (or a change of the events' format): say so in the commit message, with the rule
IDs, and regenerate the files on purpose, either way:

    SAHRA_REGOLD=1 .venv/bin/pytest tests/unit/test_bunco_golden.py
    .venv/bin/python -m tests.unit.test_bunco_golden

Each evening is one set (6 rounds) played from a fixed `random.Random` seed, which also
draws every round's secret; the tables roll in BU-AMB-4's turn (engine/bunco/autoplay.py),
seat 2 sends a fixed client seed each round, and every 13th roll is the clock's timeout.
`four`: 4 players, the host seats round 1 himself (BU-SET-7), the pairs rotate
(BU-AMB-9). `seven`: 7 players and the ghost at two tables, with `wipeout` (seed 4: its evening has
roll-offs, wipeouts and Buncos).

Rules: BU-SET-7, BU-RND-1, BU-ROLL-1..5, BU-SCORE-1..4, BU-END-1..6, BU-MOVE-1..5,
BU-SIZE-1..3, BU-TALLY-1/2, BU-EVE-1..3, BU-OPT-1, BU-AMB-1/4/9, PF-FAIR-6, PF-TIMER-8
(as whole evenings play them, pinned).
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine.bunco.autoplay import random_step
from engine.bunco.evolve import evolve
from engine.bunco.game import initial
from engine.bunco.messages import AssignSeats, Command, Event, SendClientSeed, Timeout
from engine.bunco.options import options_from
from engine.bunco.record import options_of
from engine.bunco.rules import awaited, decide
from engine.bunco.state import State

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "bunco"
_REGOLD = os.environ.get("SAHRA_REGOLD") == "1"
_SYSTEM = 0
_CLIENT_SEED = "golden"
_TIMEOUT_EVERY = 13

# name -> (seed, options, the host's seating of round 1 or None)
EVENINGS: dict[str, tuple[int, dict[str, Any], tuple[tuple[int, ...], ...] | None]] = {
    "four": (4, {"players": 4, "sets": 1}, ((3, 1, 4, 2),)),
    "seven": (4, {"players": 7, "sets": 1, "wipeout": True}, None),
}


class Step(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    seat: int
    command: Command
    events: tuple[Event, ...]


class Evening(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    options: dict[str, Any]
    player_seed: int
    steps: tuple[Step, ...]


def play(name: str) -> Evening:
    """The evening `name` as EVENINGS seeds it, with every command's events."""
    seed, overrides, seating = EVENINGS[name]
    options = options_from(**overrides)
    rng = random.Random(seed)
    state = initial(options)
    steps: list[Step] = []
    rolls = 0
    while state.phase != "over":
        seat, command = _special(state, rolls, seating)
        if command is None:
            seat, command, events = random_step(state, rng)
        else:
            events = decide(state, seat, command)
        rolls += state.phase == "play"
        steps.append(Step(seat=seat, command=command, events=events))
        for event in events:
            state = evolve(state, event)
    return Evening(name=name, options=options_of(options), player_seed=seed, steps=tuple(steps))


def _special(
    state: State, rolls: int, seating: tuple[tuple[int, ...], ...] | None
) -> tuple[int, Command | None]:
    """Seat 2's client seed, the host's seating, the clock's timeout."""
    if state.phase == "seeded" and not state.seeds_sent[1]:
        return 2, SendClientSeed(seed=_CLIENT_SEED)
    if state.phase == "seeded" and seating and state.round == 1 and not state.assigned:
        return state.host, AssignSeats(tables=seating)
    if state.phase == "play" and rolls % _TIMEOUT_EVERY == _TIMEOUT_EVERY - 1:
        number = awaited(state)[rolls % len(awaited(state))]
        table = state.tables[number - 1]
        return _SYSTEM, Timeout(round=state.round, table=number, roll=table.rolls + 1)
    return _SYSTEM, None


def write(name: str) -> None:
    """The evening as JSON with one step a line, so that a diff shows the steps."""
    evening = play(name)
    head = msgspec.json.encode(msgspec.structs.replace(evening, steps=()))
    lines = b",\n".join(msgspec.json.encode(step) for step in evening.steps)
    GOLDEN.mkdir(parents=True, exist_ok=True)
    (GOLDEN / f"{name}.json").write_bytes(head[:-3] + b"[\n" + lines + b"\n]}\n")


@pytest.mark.parametrize("name", sorted(EVENINGS))
def test_the_golden_evening_replays_to_exactly_its_events(name: str) -> None:
    """The stored commands, decided again from the stored options, give the stored events
    one for one, and the evening ends."""
    path = GOLDEN / f"{name}.json"
    if _REGOLD:
        write(name)
    assert path.exists(), f"no golden file for {name}: run with SAHRA_REGOLD=1"
    golden = msgspec.json.decode(path.read_bytes(), type=Evening)
    assert golden.name == name
    state = initial(options_from(**golden.options))
    for i, step in enumerate(golden.steps):
        events = decide(state, step.seat, step.command)
        if events != step.events:
            pytest.fail(
                f"{name}.json step {i} ({type(step.command).__name__} of seat {step.seat}) "
                f"now gives {events!r}, stored {step.events!r}: a rules change? If it is "
                "meant, regenerate with SAHRA_REGOLD=1 and say so in the commit."
            )
        for event in events:
            state = evolve(state, event)
    assert state.phase == "over" and state.evening is not None


def test_every_golden_file_is_an_evening_of_the_test() -> None:
    """No stale file: one per evening, named after it."""
    assert sorted(p.stem for p in GOLDEN.glob("*.json")) == sorted(EVENINGS)


if __name__ == "__main__":
    for evening_name in EVENINGS:
        write(evening_name)
