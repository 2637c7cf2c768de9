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

import hashlib
from typing import Any, Literal

import msgspec
from msgspec.structs import replace

from engine import protocol
from engine.errors import RuleViolation
from engine.rummy.evolve import evolve
from engine.rummy.messages import Command, CommitSeed, Event, SeedCommitted
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
    out: list[RoundVerdict] = []
    for log in record.rounds:
        verdict, state = _round(state, log)
        out.append(verdict)
        if not verdict.passed:
            break
    return Verdict(passed=all(v.passed for v in out), rounds=tuple(out))


def _round(state: State, log: RoundLog) -> tuple[RoundVerdict, State]:
    def failed(check: str, detail: str) -> tuple[RoundVerdict, State]:
        return RoundVerdict(number=log.number, passed=False, check=check, detail=detail), state

    try:
        secret = bytes.fromhex(log.secret)
    except ValueError:
        return failed("secret", "the revealed secret is not hex")
    recorded = list(log.events)
    if not recorded or not isinstance(recorded[0], SeedCommitted):
        return failed("commitment", "the round does not open with its commitment")
    if recorded[0].commitment != hashlib.sha256(secret).hexdigest():
        return failed("commitment", "the revealed secret does not hash to the commitment")
    derived: list[Event] = []
    steps = ((_SYSTEM, CommitSeed(secret=log.secret)), *log.commands)
    for i, (seat, command) in enumerate(steps):
        try:
            events = decide(state, seat, command)
        except RuleViolation as exc:
            return failed("commands", f"command {i} is refused: {exc.message}")
        for event in events:
            state = evolve(state, event)
        derived.extend(events)
    derived[0] = replace(derived[0], secret="")
    if derived != recorded:
        pairs = enumerate(zip(recorded, derived, strict=False))
        at = next((i for i, (a, b) in pairs if a != b), min(len(recorded), len(derived)))
        shown = type(recorded[at]).__name__ if at < len(recorded) else "nothing"
        return failed("events", f"event {at} ({shown}) differs from the one the rules derive")
    return RoundVerdict(number=log.number, passed=True), state


def replay(record: Record) -> RoundResult | None:
    """The end of the record's last round, as the rules derive it."""
    state = _start(record)
    for log in record.rounds:
        for seat, command in ((_SYSTEM, CommitSeed(secret=log.secret)), *log.commands):
            for event in decide(state, seat, command):
                state = evolve(state, event)
    return state.result


def units(verdict: Verdict) -> tuple[protocol.UnitVerdict, ...]:
    return tuple(
        protocol.UnitVerdict(number=v.number, passed=v.passed, check=v.check, detail=v.detail)
        for v in verdict.rounds
    )


decode = msgspec.json.Decoder(Record).decode
