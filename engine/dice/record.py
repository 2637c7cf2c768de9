"""The record of a dice-tool table (docs/deal-format.md §10.4): read, replayed, audited.

A record holds the table's rolls 1..n, each with its revealed secret, the seat's client
seed, every command after the roll's commitment (the seat's SendClientSeed and Roll, the
system's Deal, a Stop) and the events as stored. Each roll is decided again, in order,
from its revealed secret: the secret must hash to the recorded commitment, every command
must be accepted, and the events must be exactly the recorded ones. A changed die is
found at its roll, named with the dice the secret gives. The rolls after a failed one are
not checked (a record that lies once is not read further).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import msgspec

from engine import protocol
from engine.audit import replay_unit, unit_verdicts, until_failed
from engine.dice.evolve import evolve
from engine.dice.messages import Command, CommitSeed, DiceThrown, Event
from engine.dice.options import DiceOptions, options_from
from engine.dice.rules import decide
from engine.dice.state import State, Thrown
from engine.errors import RuleViolation

__all__ = [
    "Record",
    "Report",
    "RollLog",
    "RollVerdict",
    "Verdict",
    "build",
    "decode",
    "options_of",
    "replay",
    "units",
    "verify",
]

_SYSTEM = 0


class RollLog(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    number: int
    secret: str
    client_seeds: tuple[str, ...]
    commands: tuple[tuple[int, Command], ...]
    events: tuple[Event, ...]


class Record(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    game: Literal["dice"]
    options: dict[str, Any] = {}
    seats: tuple[str, ...]
    host: int = 1
    rolls: tuple[RollLog, ...]


class RollVerdict(msgspec.Struct, frozen=True, kw_only=True):
    number: int
    passed: bool
    check: str | None = None
    detail: str | None = None


class Verdict(msgspec.Struct, frozen=True, kw_only=True):
    passed: bool
    rolls: tuple[RollVerdict, ...]


class Report(msgspec.Struct, frozen=True, kw_only=True):
    """What `sahra replay` prints: every roll of the record as the rules derive it (its
    dice, commitment, client seed and revealed secret), and whether the seat ended the
    table (`ended`; not `stopped`, which `sahra replay` reads as a replay stopped at a
    rejected command)."""

    rolls: tuple[Thrown, ...]
    ended: bool


def options_of(options: DiceOptions) -> dict[str, Any]:
    """A record's "options": the tool has none."""
    return {}


def build(log: protocol.TableLog) -> Record:
    rolls = []
    for unit in log.units:
        if unit.secret is None:  # pragma: no cover - a roll is never stacked
            raise ValueError(f"roll {unit.number} has no secret to verify")
        rolls.append(
            RollLog(
                number=unit.number,
                secret=unit.secret,
                client_seeds=unit.client_seeds,
                commands=unit.commands,
                events=unit.events,
            )
        )
    return Record(
        game="dice", options=log.options, seats=log.seats, host=log.host, rolls=tuple(rolls)
    )


def _start(record: Record) -> State:
    return State(options=options_from(None, **record.options), host=record.host)


def verify(record: Record) -> Verdict:
    try:
        state = _start(record)
    except RuleViolation as exc:
        bad = RollVerdict(number=1, passed=False, check="options", detail=exc.message)
        return Verdict(passed=False, rolls=(bad,))
    out = until_failed(state, record.rolls, _roll)
    return Verdict(passed=all(v.passed for v in out), rolls=tuple(out))


def _roll(state: State, log: RollLog) -> tuple[RollVerdict, State]:
    failed, after = replay_unit(
        state,
        log.secret,
        log.commands,
        log.events,
        decide,
        evolve,
        unit="roll",
        describe=_difference,
    )
    if failed is not None:
        return RollVerdict(
            number=log.number, passed=False, check=failed[0], detail=failed[1]
        ), state
    return RollVerdict(number=log.number, passed=True), after


def _difference(at: int, recorded: Sequence[Event], derived: Sequence[Event]) -> str:
    """Which event differs; for a roll, its number and the dice both ways."""
    if at >= len(recorded):
        return f"event {at} (nothing) differs from the one the rules derive"
    event = recorded[at]
    shown = f"event {at} ({type(event).__name__})"
    if isinstance(event, DiceThrown):
        shown += f" of roll {event.roll}, dice {list(event.dice)}"
        other = derived[at] if at < len(derived) else None
        if isinstance(other, DiceThrown) and other.dice != event.dice:
            shown += f" (the secret gives {list(other.dice)})"
    return f"{shown} differs from the one the rules derive"


def replay(record: Record) -> Report:
    """Every roll as the rules derive it from the record's secrets and commands."""
    state = _start(record)
    thrown: list[Thrown] = []
    for log in record.rolls:
        for seat, command in ((_SYSTEM, CommitSeed(secret=log.secret)), *log.commands):
            for event in decide(state, seat, command):
                state = evolve(state, event)
        thrown.extend(t for t in state.history if t.roll == log.number)
    return Report(rolls=tuple(thrown), ended=state.phase == "over")


def units(verdict: Verdict) -> tuple[protocol.UnitVerdict, ...]:
    return unit_verdicts(verdict.rolls)


decode = msgspec.json.Decoder(Record).decode
