"""The deal record of a Bunco evening (docs/deal-format.md §10.3): read, replayed, audited.

A record holds the table's options and its rounds 1..n, each with its revealed secret,
the seats' client seeds, every command after the round's commitment (the system's Deal
and Timeouts, every Roll, the host's AssignSeats) and the events as stored. Rounds are
replayed in order from the options alone, because a round depends on the ones before it
(the seating the movement left, the tallies): each round's commitment and every command
are decided again from the revealed secret, and the events must be exactly the recorded
ones. A changed die is found at its roll (the table and the roll number are named), as is
a changed secret, a command the rules refuse or an event that was not derived; the rounds
after a failed one are not checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import msgspec

from engine import protocol
from engine.audit import replay_unit, unit_verdicts, until_failed
from engine.bunco.evolve import evolve
from engine.bunco.messages import (
    Command,
    CommitSeed,
    DiceRolled,
    Event,
    RollOffRolled,
)
from engine.bunco.options import BuncoOptions, options_from
from engine.bunco.rules import decide
from engine.bunco.state import Evening, RoundResult, State
from engine.errors import RuleViolation

__all__ = [
    "Record",
    "Report",
    "RoundLog",
    "RoundVerdict",
    "Verdict",
    "build",
    "decode",
    "options_of",
    "replay",
    "units",
    "verify",
]

_SYSTEM = 0


class RoundLog(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    number: int
    secret: str
    client_seeds: tuple[str, ...]
    commands: tuple[tuple[int, Command], ...]
    events: tuple[Event, ...]


class Record(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    game: Literal["bunco"]
    options: dict[str, Any]
    seats: tuple[str, ...]
    host: int = 1
    rounds: tuple[RoundLog, ...]


class RoundVerdict(msgspec.Struct, frozen=True, kw_only=True):
    number: int
    passed: bool
    check: str | None = None
    detail: str | None = None


class Verdict(msgspec.Struct, frozen=True, kw_only=True):
    passed: bool
    rounds: tuple[RoundVerdict, ...]


class Report(msgspec.Struct, frozen=True, kw_only=True):
    """What `sahra replay` prints: the last round's end, the tally sheets after it (by
    place, the ghost's last) and, after the evening's last round, its result."""

    last_round: RoundResult | None
    wins: tuple[int, ...]
    losses: tuple[int, ...]
    buncos: tuple[int, ...]
    wipeouts: tuple[int, ...]
    evening: Evening | None


def options_of(options: BuncoOptions) -> dict[str, Any]:
    """A record's "options": the player count, then every option that differs from the
    defaults."""
    mine = msgspec.structs.asdict(options)
    default = msgspec.structs.asdict(options_from())
    return {"players": options.players} | {k: v for k, v in mine.items() if v != default[k]}


def build(log: protocol.TableLog) -> Record:
    rounds = []
    for unit in log.units:
        if unit.secret is None:  # pragma: no cover - Bunco rounds are never stacked
            raise ValueError(f"round {unit.number} has no secret to verify")
        rounds.append(
            RoundLog(
                number=unit.number,
                secret=unit.secret,
                client_seeds=unit.client_seeds,
                commands=unit.commands,
                events=unit.events,
            )
        )
    return Record(
        game="bunco", options=log.options, seats=log.seats, host=log.host, rounds=tuple(rounds)
    )


def _start(record: Record) -> State:
    options = options_from(**record.options)
    n = options.places
    return State(
        options=options,
        host=record.host,
        wins=(0,) * n,
        losses=(0,) * n,
        buncos=(0,) * n,
        wipeouts=(0,) * n,
    )


def verify(record: Record) -> Verdict:
    try:
        state = _start(record)
    except RuleViolation as exc:
        bad = RoundVerdict(number=1, passed=False, check="options", detail=exc.message)
        return Verdict(passed=False, rounds=(bad,))
    out = until_failed(state, record.rounds, _round)
    return Verdict(passed=all(v.passed for v in out), rounds=tuple(out))


def _round(state: State, log: RoundLog) -> tuple[RoundVerdict, State]:
    failed, after = replay_unit(
        state, log.secret, log.commands, log.events, decide, evolve, describe=_difference
    )
    if failed is not None:
        verdict = RoundVerdict(number=log.number, passed=False, check=failed[0], detail=failed[1])
        return verdict, state
    return RoundVerdict(number=log.number, passed=True), after


def _difference(at: int, recorded: Sequence[Event], derived: Sequence[Event]) -> str:
    """Which event differs; for a roll, which table and roll, and the dice both ways."""
    if at >= len(recorded):
        return f"event {at} (nothing) differs from the one the rules derive"
    event = recorded[at]
    shown = f"event {at} ({type(event).__name__})"
    if isinstance(event, DiceRolled | RollOffRolled):
        shown += f" of table {event.table}, roll {event.roll}, dice {list(event.dice)}"
        other = derived[at] if at < len(derived) else None
        if isinstance(other, DiceRolled | RollOffRolled) and other.dice != event.dice:
            shown += f" (the secret gives {list(other.dice)})"
    return f"{shown} differs from the one the rules derive"


def replay(record: Record) -> Report:
    """The end of the record's last round and the tallies, as the rules derive them."""
    state = _start(record)
    for log in record.rounds:
        for seat, command in ((_SYSTEM, CommitSeed(secret=log.secret)), *log.commands):
            for event in decide(state, seat, command):
                state = evolve(state, event)
    return Report(
        last_round=state.result,
        wins=state.wins,
        losses=state.losses,
        buncos=state.buncos,
        wipeouts=state.wipeouts,
        evening=state.evening,
    )


def units(verdict: Verdict) -> tuple[protocol.UnitVerdict, ...]:
    return unit_verdicts(verdict.rounds)


decode = msgspec.json.Decoder(Record).decode
