"""Golden rummy playthroughs: one whole seeded game per variant, stored as its commands and
the events each produced (tests/golden/rummy/<variant>.json), replayed command by command
through `decide`; the events must be exactly the stored ones.

A difference means the engine now plays a recorded game differently. That is a RULES
CHANGE (or a change of the events' format): say so in the commit message, with the rule
IDs, and regenerate the files on purpose, either way:

    SAHRA_REGOLD=1 .venv/bin/pytest tests/unit/test_rummy_golden.py
    .venv/bin/python -m tests.unit.test_rummy_golden

Each game is played from a fixed `random.Random` seed, which also draws every round's
secret: on a turn the seat plays the bot's move (engine/rummy/bot.py: the search's best
move, jokers named, Carousel's knock) half the time (never in Guadeloupe's, whose game
is left to run out of stock and be blocked), else engine/rummy/autoplay's random
command; seat 1 sends a fixed client seed each round, and the system times out a turn now
and then. The bot and the search run only when the files are written, never when they are
replayed. Manipulation and Shanghai are played under `trust_player`: a reminder at every
draw would ask the search each time. Shanghai never ends by itself (RM-AMB-22): its host
stops it during the third round.

Rules: RM-CORE-1..7, RM-BLOCK-2, RM-MAN-8, RM-SHA-5, RM-CAR-18, RM-CAR-21, RM-AMB-22,
PF-FAIR-3, PF-FAIR-6, PF-TIMER-8 (as a whole game plays them, pinned).
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine.rummy.autoplay import random_step
from engine.rummy.evolve import evolve
from engine.rummy.game import GAME, initial
from engine.rummy.messages import Command, Event, SendClientSeed, StopGame, Timeout
from engine.rummy.options import RummyOptions, options_from
from engine.rummy.record import options_of
from engine.rummy.rules import decide
from engine.rummy.state import State

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "rummy"
_REGOLD = os.environ.get("SAHRA_REGOLD") == "1"
_SYSTEM = 0
_CLIENT_SEED = "golden"
_TIMEOUT_EVERY = 17  # the system times out every 17th turn command
_SHANGHAI_STOP = (3, 12)  # the host stops the game at turn 12 of round 3 (or later)

# variant -> (seats, the player's seed, the share of the bot's moves): seeds whose games are
# short and take the search seconds, not minutes, to write
GAMES: dict[str, tuple[int, int, float]] = {
    "manipulation": (5, 4, 0.5),
    "machiavelli": (3, 3, 0.5),
    "shanghai": (2, 7, 0.5),
    "guadeloupe": (5, 1, 0.0),  # random play only: the stock runs out, the round is blocked
    "carousel": (3, 2, 0.5),  # knock, out, knock
    "vatican": (4, 3, 0.5),
    "tahiti": (3, 4, 0.5),
}


class Step(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    seat: int
    command: Command
    events: tuple[Event, ...]


class Playthrough(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    variant: str
    options: dict[str, Any]
    player_seed: int
    steps: tuple[Step, ...]


def _options(variant: str, seats: int) -> RummyOptions:
    extra = {"compulsory_play": "trust_player"} if variant in ("manipulation", "shanghai") else {}
    return options_from(variant, seats=seats, **extra)


def play(variant: str) -> Playthrough:
    """The game of `variant` as GAMES seeds it, with every command's events."""
    seats, seed, bot_share = GAMES[variant]
    options = _options(variant, seats)
    rng = random.Random(seed)
    state = initial(options)
    steps: list[Step] = []
    commands = 0
    while state.phase != "over":
        seat, command = _special(state, commands)
        if command is None and state.phase == "play" and rng.random() < bot_share:
            seat, command = GAME.bot(state, state.turn)
        if command is None:
            seat, command, events = random_step(state, rng)
        else:
            events = decide(state, seat, command)
        if state.phase == "play":
            commands += 1
        steps.append(Step(seat=seat, command=command, events=events))
        for event in events:
            state = evolve(state, event)
    return Playthrough(
        variant=variant, options=options_of(options), player_seed=seed, steps=tuple(steps)
    )


def _special(state: State, commands: int) -> tuple[int, Command | None]:
    """Seat 1's client seed, the clock's timeout, the Shanghai host's stop."""
    if state.phase == "seeded" and not state.seeds_sent[0]:
        return 1, SendClientSeed(seed=_CLIENT_SEED)
    if state.phase != "play":
        return _SYSTEM, None
    if state.options.variant == "shanghai" and (state.round, state.turn_no) >= _SHANGHAI_STOP:
        return state.host, StopGame()
    if commands % _TIMEOUT_EVERY == _TIMEOUT_EVERY - 1:
        return _SYSTEM, Timeout(round=state.round, turn=state.turn_no)
    return _SYSTEM, None


def write(variant: str) -> None:
    """The playthrough as JSON with one step a line, so that a diff shows the steps."""
    game = play(variant)
    head = msgspec.json.encode(msgspec.structs.replace(game, steps=()))
    lines = b",\n".join(msgspec.json.encode(step) for step in game.steps)
    GOLDEN.mkdir(parents=True, exist_ok=True)
    (GOLDEN / f"{variant}.json").write_bytes(head[:-3] + b"[\n" + lines + b"\n]}\n")


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_the_golden_game_replays_to_exactly_its_events(variant: str) -> None:
    """The stored commands, decided again from the stored options, give the stored events
    one for one, and the game ends (RM-CORE-1..7 and the variant's rules, pinned)."""
    path = GOLDEN / f"{variant}.json"
    if _REGOLD:
        write(variant)
    assert path.exists(), f"no golden file for {variant}: run with SAHRA_REGOLD=1"
    golden = msgspec.json.decode(path.read_bytes(), type=Playthrough)
    assert golden.variant == variant
    options = dict(golden.options)
    state = initial(options_from(options.pop("variant"), **options))
    for i, step in enumerate(golden.steps):
        events = decide(state, step.seat, step.command)
        if events != step.events:
            pytest.fail(
                f"{variant}.json step {i} ({type(step.command).__name__} of seat {step.seat}) "
                f"now gives {events!r}, stored {step.events!r}: a rules change? If it is "
                "meant, regenerate with SAHRA_REGOLD=1 and say so in the commit."
            )
        for event in events:
            state = evolve(state, event)
    assert state.phase == "over"


def test_every_golden_file_is_a_variants_game() -> None:
    """No stale file: one per variant, named after it."""
    assert sorted(p.stem for p in GOLDEN.glob("*.json")) == sorted(GAMES)


if __name__ == "__main__":
    for name in GAMES:
        write(name)
