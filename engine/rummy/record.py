"""The deal record of a rummy table (docs/deal-format.md §10): read, replayed, audited.

A record holds the table's options and its rounds 1..n, each with its revealed secret,
the seats' client seeds, every command after the round's commitment and the events as
stored. Rounds are replayed in order from the options alone, because a round depends on
the ones before it (the running totals, the first player one seat on, RM-CORE-7): each
round's commitment and every command are decided again from the revealed secret, and the
events must be exactly the recorded ones. A changed card, a changed secret, a command
the rules refuse, or an event that was not derived, fails that round at the first
difference; the rounds after it are not checked.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from engine import protocol
from engine.audit import replay_unit, unit_verdicts, until_failed
from engine.errors import RuleViolation
from engine.rummy.evolve import evolve
from engine.rummy.messages import Command, CommitSeed, Event
from engine.rummy.options import RummyOptions, options_from
from engine.rummy.rules import decide
from engine.rummy.state import RoundResult, State

__all__ = [
    "Record",
    "RoundLog",
    "RoundVerdict",
    "Verdict",
    "build",
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
    game: Literal["rummy"]
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


def options_of(options: RummyOptions) -> dict[str, Any]:
    """A record's "options": the variant, then every option that differs from its preset."""
    mine = msgspec.structs.asdict(options)
    preset = msgspec.structs.asdict(options_from(options.variant))
    return {"variant": options.variant} | {k: v for k, v in mine.items() if v != preset[k]}


def build(log: protocol.TableLog) -> Record:
    rounds = []
    for unit in log.units:
        if unit.secret is None:  # pragma: no cover - rummy rounds are never stacked
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
        game="rummy", options=log.options, seats=log.seats, host=log.host, rounds=tuple(rounds)
    )


def _start(record: Record) -> State:
    options = dict(record.options)
    variant = options.pop("variant", None)
    return State(options=options_from(variant, **options), host=record.host)


def verify(record: Record) -> Verdict:
    try:
        state = _start(record)
    except RuleViolation as exc:
        bad = RoundVerdict(number=1, passed=False, check="options", detail=exc.message)
        return Verdict(passed=False, rounds=(bad,))
    out = until_failed(state, record.rounds, _round)
    return Verdict(passed=all(v.passed for v in out), rounds=tuple(out))


def _round(state: State, log: RoundLog) -> tuple[RoundVerdict, State]:
    failed, after = replay_unit(state, log.secret, log.commands, log.events, decide, evolve)
    if failed is not None:
        return RoundVerdict(
            number=log.number, passed=False, check=failed[0], detail=failed[1]
        ), state
    return RoundVerdict(number=log.number, passed=True), after


def replay(record: Record) -> RoundResult | None:
    """The end of the record's last round, as the rules derive it."""
    state = _start(record)
    for log in record.rounds:
        for seat, command in ((_SYSTEM, CommitSeed(secret=log.secret)), *log.commands):
            for event in decide(state, seat, command):
                state = evolve(state, event)
    return state.result


def units(verdict: Verdict) -> tuple[protocol.UnitVerdict, ...]:
    return unit_verdicts(verdict.rounds)


decode = msgspec.json.Decoder(Record).decode
