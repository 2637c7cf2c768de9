"""Shared helpers of the Bunco rule tests: states built by hand, dice found in a secret.

The dice of a round come from its secret in log order (engine/bunco/dice.py): the round's
k-th roll reads dice 3k..3k+2. A test that needs given dice does not fake them: it finds
the place `k` in the fixed secret's stream where rolls with those dice follow each other
(`find`), and builds a round in play whose roll counter stands at `k` (`playing`).
`step` decides a command and folds its events (checking that `decide` changed nothing);
`refused` checks that a command is refused with a code and a rule ID and changes nothing.

Whole evenings are played once a test session (`evening`, cached); `fresh_caches` empties
that cache and the dice module's open streams when a session starts, because mutmut runs
each mutant's session in a process forked from one that has filled them already.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from engine import fair, protocol
from engine.bunco import dice, record
from engine.bunco.autoplay import random_step
from engine.bunco.evolve import evolve
from engine.bunco.game import initial
from engine.bunco.messages import Command, CommitSeed, Event
from engine.bunco.options import options_from
from engine.bunco.rules import decide
from engine.bunco.state import PlayTable, State
from engine.errors import RuleViolation

__all__ = [
    "ENTROPY",
    "SECRET",
    "evening",
    "find",
    "fold",
    "fresh_caches",
    "playing",
    "refused",
    "same",
    "step",
    "table_log",
]

SECRET = "5e" * 32  # a fixed round secret: the tests never need it to be unknown
ENTROPY = fair.entropy(())
_MAX_STEPS = 50_000  # an evening of 12 plays about 3,500 commands
_ROLLS = 30_000  # enough rolls of SECRET to find any two or three given rolls in a row
Want = tuple[int, int, int] | Callable[[tuple[int, int, int]], bool]


@functools.cache
def rolls_of_secret() -> tuple[tuple[int, int, int], ...]:
    dice = fair.dice(bytes.fromhex(SECRET), ENTROPY, 3 * _ROLLS)
    return tuple((dice[i], dice[i + 1], dice[i + 2]) for i in range(0, len(dice), 3))


def same(*dice: int) -> Callable[[tuple[int, int, int]], bool]:
    """Any order of these three dice."""
    wanted = sorted(dice)
    return lambda roll: sorted(roll) == wanted


def find(*wanted: Want) -> int:
    """The first roll number k of SECRET's stream from which the rolls k, k+1, … are the
    wanted ones (a tuple: exactly those dice in that order; a function: any roll it
    accepts)."""
    rolls = rolls_of_secret()
    checks = [w if callable(w) else (lambda roll, w=w: roll == w) for w in wanted]
    for k in range(len(rolls) - len(checks)):
        if all(check(rolls[k + i]) for i, check in enumerate(checks)):
            return k
    raise AssertionError(f"no rolls {wanted} in a row in the first {_ROLLS} of the secret")


def playing(
    players: int = 4,
    *,
    target: int = 1,
    round_no: int | None = None,
    tables: Sequence[Sequence[int]] | None = None,
    scores: Sequence[tuple[int, int]] | None = None,
    rollers: Sequence[int] | None = None,
    rolls: int = 0,
    bell: int = 0,
    **options: Any,
) -> State:
    """A round in play with `target` (round `round_no`, by default the first whose target
    it is), the places seated as `tables` (by default in order), these team scores and
    rollers; the round's roll counter at `rolls` (a place `find` gave)."""
    opts = options_from(players=players, **options)
    state = initial(opts)
    places = opts.places
    seated = tables or [tuple(range(i, i + 4)) for i in range(1, places + 1, 4)]
    count = len(seated)
    return replace(
        state,
        phase="play",
        round=round_no or target,
        secret=SECRET,
        commitment=fair.commitment(bytes.fromhex(SECRET)),
        client_seeds=("",) * players,
        seeds_sent=(False,) * players,
        entropy=ENTROPY,
        target=target,
        order=tuple(seated[0]),
        tables=tuple(
            PlayTable(
                seats=tuple(seats),
                scores=(scores or [(0, 0)] * count)[i],
                roller=(rollers or [1] * count)[i],
            )
            for i, seats in enumerate(seated)
        ),
        rolls=rolls,
        bell=bell,
    )


@pytest.fixture(scope="session", autouse=True)
def fresh_caches() -> None:
    """Import this into a test module: its session plays the evenings under its own code."""
    evening.cache_clear()
    dice.forget()


def fold(state: State, events: Iterable[Event]) -> State:
    for event in events:
        state = evolve(state, event)
    return state


def step(state: State, seat: int, command: Command) -> tuple[tuple[Event, ...], State]:
    """The events `command` decides, and the state they fold into; `decide` must not
    change the state it is given."""
    before = msgspec.json.encode(state)
    events = decide(state, seat, command)
    assert msgspec.json.encode(state) == before, "decide changed the state it was given"
    return events, fold(state, events)


def refused(state: State, seat: int, command: Command) -> tuple[str, str]:
    """(code, rule ID) of the refusal; the state is checked unchanged."""
    before = msgspec.json.encode(state)
    with pytest.raises(RuleViolation) as caught:
        decide(state, seat, command)
    assert msgspec.json.encode(state) == before, "a refused command changed the state"
    return caught.value.code, caught.value.rule_id


@functools.cache
def evening(
    players: int, seed: int = 1, **options: Any
) -> tuple[tuple[int, Any, tuple[Event, ...]], ...]:
    """A whole random evening (engine/bunco/autoplay.py) as its (seat, command, events)."""
    rng = random.Random(f"{players}:{seed}")
    state = initial(options_from(players=players, **options))
    steps = []
    while state.phase != "over":
        seat, command, events = random_step(state, rng, 0.05)
        steps.append((seat, command, events))
        state = fold(state, events)
        assert len(steps) < _MAX_STEPS, "the evening does not end"
    return tuple(steps)


def table_log(
    players: int,
    steps: Sequence[tuple[int, Any, tuple[Event, ...]]] | None = None,
    **options: Any,
) -> protocol.TableLog:
    """The table log of an evening (by default `evening(players, **options)`), unit by
    unit, as the store gives it: the commitment's secret written empty."""
    units: list[protocol.UnitLog] = []
    seeds = ("",) * players
    for seat, command, events in steps if steps is not None else evening(players, **options):
        if isinstance(command, CommitSeed):
            opened = (replace(events[0], secret=""), *events[1:])
            units.append(
                protocol.UnitLog(
                    number=len(units) + 1,
                    secret=command.secret,
                    client_seeds=seeds,
                    commands=(),
                    events=opened,
                )
            )
            continue
        last = units[-1]
        sent = [e for e in events if type(e).__name__ == "ClientSeedSent"]
        client_seeds = list(last.client_seeds)
        for e in sent:
            client_seeds[e.seat - 1] = e.seed  # type: ignore[attr-defined]
        units[-1] = dataclasses.replace(
            last,
            client_seeds=tuple(client_seeds),
            commands=(*last.commands, (seat, command)),
            events=(*last.events, *events),
        )
    return protocol.TableLog(
        options=record.options_of(options_from(players=players, **options)),
        seats=tuple(f"P{s}" for s in range(1, players + 1)),
        host=1,
        units=tuple(units),
    )
