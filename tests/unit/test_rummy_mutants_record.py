"""The rummy deal record (docs/deal-format.md §10.2, engine/rummy/record.py): written from
a table's stored units, replayed to the last round's end, and verified round by round,
with each failing check named the way `sahra verify` prints it.

Written against the survivors of mutation testing (scripts/mutate.sh, docs/testing.md):
no fast test read a verdict's check and detail, a record of another variant than
Manipulation, a host other than seat 1, or a record of more than one round.

The records here are real games: the golden Carousel game (tests/golden/rummy, three
rounds of three seats) cut into its rounds as the store keeps them, and a Shanghai game
that its host, seat 2, stops in the first round.

Rules: PF-FAIR-1, PF-FAIR-2, PF-FAIR-3, PF-FAIR-5, PF-AMB-12, RM-CORE-3, RM-CORE-7, RM-AMB-4,
RM-AMB-22.
"""

from __future__ import annotations

import dataclasses
import hashlib
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from engine import protocol
from engine.rummy.evolve import evolve
from engine.rummy.messages import (
    Command,
    CommitSeed,
    Deal,
    Draw,
    Event,
    RoundDealt,
    SeedCommitted,
    StopGame,
)
from engine.rummy.options import options_from
from engine.rummy.record import (
    Record,
    RoundLog,
    RoundVerdict,
    Verdict,
    build,
    decode,
    replay,
    units,
    verify,
)
from engine.rummy.rules import decide
from engine.rummy.state import RoundResult, State

_SYSTEM = 0
_GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "rummy" / "carousel.json"
_SHANGHAI_SECRET = "a7" * 32


class _Step(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    command: Command
    events: tuple[Event, ...]


class _Golden(msgspec.Struct, frozen=True, kw_only=True):
    options: dict[str, Any]
    steps: tuple[_Step, ...]


@cache
def _golden() -> _Golden:
    return msgspec.json.decode(_GOLDEN.read_bytes(), type=_Golden)


def _stored(events: list[Event]) -> tuple[Event, ...]:
    """A unit's events as the store keeps them: the commitment's secret written ""."""
    first = events[0]
    assert isinstance(first, SeedCommitted)
    return (replace(first, secret=""), *events[1:])


@cache
def _carousel_units() -> tuple[protocol.UnitLog, ...]:
    """The golden Carousel game as the platform reads it from its store: one unit a round,
    each opened by the system's CommitSeed (docs/deal-format.md §10)."""
    rounds: list[tuple[str, list[tuple[int, Command]], list[Event]]] = []
    for step in _golden().steps:
        if isinstance(step.command, CommitSeed):
            rounds.append((step.command.secret, [], list(step.events)))
        else:
            rounds[-1][1].append((step.seat, step.command))
            rounds[-1][2].extend(step.events)
    return tuple(
        protocol.UnitLog(
            number=n,
            secret=secret,
            client_seeds=("golden", "", ""),
            commands=tuple(commands),
            events=_stored(events),
        )
        for n, (secret, commands, events) in enumerate(rounds, start=1)
    )


def _carousel_log() -> protocol.TableLog:
    return protocol.TableLog(
        options=dict(_golden().options),
        seats=("Hala", "Ilyas", "Bot 3"),
        host=3,  # not the default: the record must carry it
        units=_carousel_units(),
    )


def _carousel() -> Record:
    return build(_carousel_log())


def _shanghai_stopped_by(host: int) -> Record:
    """A Shanghai round dealt, one draw, then the host (not seat 1) ends the game."""
    state = State(options=options_from("shanghai", seats=3), host=host)
    events: list[Event] = []
    for event in decide(state, _SYSTEM, CommitSeed(secret=_SHANGHAI_SECRET)):
        events.append(event)
        state = evolve(state, event)
    commands: list[tuple[int, Command]] = [(_SYSTEM, Deal())]
    for seat, command in commands:
        for event in decide(state, seat, command):
            events.append(event)
            state = evolve(state, event)
    for seat, command in ((state.turn, Draw()), (host, StopGame())):
        commands.append((seat, command))
        for event in decide(state, seat, command):
            events.append(event)
            state = evolve(state, event)
    assert state.phase == "over"
    log = RoundLog(
        number=1,
        secret=_SHANGHAI_SECRET,
        client_seeds=("", "", ""),
        commands=tuple(commands),
        events=_stored(events),
    )
    return Record(
        game="rummy",
        options={"variant": "shanghai", "seats": 3},
        seats=("Hala", "Ilyas", "Jad"),
        host=host,
        rounds=(log,),
    )


def _with_round(record: Record, index: int, **changes: Any) -> Record:
    rounds = list(record.rounds)
    rounds[index] = replace(rounds[index], **changes)
    return replace(record, rounds=tuple(rounds))


def _passed(number: int) -> RoundVerdict:
    return RoundVerdict(number=number, passed=True, check=None, detail=None)


# --- the record of a table's units (docs/deal-format.md §10) ----------------------------


def test_a_tables_units_become_its_record_field_by_field() -> None:
    """docs/deal-format.md §10.2: the record names its game, keeps the table's options,
    seat names and host, and each unit becomes a round with its number, revealed secret,
    client seeds, commands and stored events, in order; it reads back from its JSON."""
    log = _carousel_log()
    record = build(log)
    assert record == Record(
        game="rummy",
        options={"variant": "carousel", "seats": 3},
        seats=("Hala", "Ilyas", "Bot 3"),
        host=3,
        rounds=tuple(
            RoundLog(
                number=u.number,
                secret=u.secret or "",
                client_seeds=u.client_seeds,
                commands=u.commands,
                events=u.events,
            )
            for u in log.units
        ),
    )
    assert [r.number for r in record.rounds] == [1, 2, 3]
    assert decode(msgspec.json.encode(record)) == record


def test_a_unit_without_a_secret_cannot_become_a_round_of_the_record() -> None:
    """PF-FAIR-1: every rummy round has a committed secret; a unit without one (a stacked
    unit of another game) is refused by name, not written as a round nobody can verify."""
    units_ = _carousel_units()
    log = dataclasses.replace(
        _carousel_log(), units=(units_[0], dataclasses.replace(units_[1], secret=None))
    )
    with pytest.raises(ValueError, match=r"^round 2 has no secret to verify$"):
        build(log)


# --- replay: the end of the last round ----------------------------------------------------


def test_replay_ends_where_the_recorded_events_end() -> None:
    """docs/deal-format.md §10.2 (`sahra replay`): every round is decided again from the
    options and the revealed secrets; the end shown is the last round's, exactly the one
    the recorded events fold into (RM-CORE-7: round 3 depends on rounds 1 and 2)."""
    folded = State(options=options_from("carousel", seats=3))
    for step in _golden().steps:
        for event in step.events:
            folded = evolve(folded, event)
    assert isinstance(folded.result, RoundResult) and folded.result.round == 3
    assert replay(_carousel()) == folded.result


def test_replay_of_a_game_stopped_by_its_host_reads_the_host_from_the_record() -> None:
    """RM-AMB-22: only the host ends a Shanghai game; the host the record names (seat 2
    here) is the one whose StopGame the replay accepts."""
    result = replay(_shanghai_stopped_by(2))
    assert result is not None and result.how == "stopped" and result.game_over


# --- verify: round by round ----------------------------------------------------------------


def test_a_genuine_record_of_three_rounds_passes_every_round() -> None:
    """docs/deal-format.md §10.2 (`sahra verify`), RM-CORE-7: each round is checked in
    order from the state the rounds before it left; a Carousel record is read as Carousel
    (RM-CORE-3), and every round passes."""
    assert verify(_carousel()) == Verdict(passed=True, rounds=(_passed(1), _passed(2), _passed(3)))


def test_the_host_a_record_names_may_stop_its_shanghai_game() -> None:
    """RM-AMB-22: the record's host (seat 2) stopped the game; verifying accepts that
    StopGame because the round is replayed with that host, not seat 1."""
    assert verify(_shanghai_stopped_by(2)) == Verdict(passed=True, rounds=(_passed(1),))


def test_a_record_without_a_variant_is_read_as_manipulation() -> None:
    """RM-CORE-3: Manipulation is the default variant, so a record whose options name none
    is replayed as Manipulation: the Carousel game then fails its first round (a
    Manipulation table of three seats deals another deck), it does not crash."""
    record = replace(_carousel(), options={"seats": 3})
    verdict = verify(record)
    assert not verdict.passed
    assert [(v.number, v.passed) for v in verdict.rounds] == [(1, False)]
    assert verdict.rounds[0].check in ("commands", "events")


def test_a_record_naming_an_unknown_variant_fails_on_its_options() -> None:
    """RM-CORE-3: the seven variants only; the verdict fails round 1 on the `options`
    check, with the refusal's sentence naming the variants, and checks nothing more."""
    record = replace(_carousel(), options={"variant": "gin", "seats": 3})
    detail = (
        "the variants are manipulation, machiavelli, shanghai, guadeloupe, carousel, "
        "vatican, tahiti, not 'gin'"
    )
    assert verify(record) == Verdict(
        passed=False,
        rounds=(RoundVerdict(number=1, passed=False, check="options", detail=detail),),
    )


def test_a_secret_that_is_not_hex_fails_its_round_and_the_later_ones_go_unchecked() -> None:
    """PF-FAIR-5: the revealed secret must be hex; round 2 fails on `secret`, round 1 still
    passes and round 3, which depends on round 2, is not checked."""
    record = _with_round(_carousel(), 1, secret="not hex at all")
    assert verify(record) == Verdict(
        passed=False,
        rounds=(
            _passed(1),
            RoundVerdict(
                number=2, passed=False, check="secret", detail="the revealed secret is not hex"
            ),
        ),
    )


def test_a_round_that_does_not_open_with_its_commitment_fails_on_it() -> None:
    """PF-FAIR-2, PF-FAIR-5: a round's events start with its commitment; a round whose
    first event is anything else (here its deal) fails on `commitment`."""
    events = _carousel().rounds[0].events
    record = _with_round(_carousel(), 0, events=events[1:])
    assert verify(record) == Verdict(
        passed=False,
        rounds=(
            RoundVerdict(
                number=1,
                passed=False,
                check="commitment",
                detail="the round does not open with its commitment",
            ),
        ),
    )


def test_a_round_with_no_events_fails_on_its_commitment() -> None:
    """PF-FAIR-2: a round recorded with no events has no commitment to check against."""
    record = _with_round(_carousel(), 0, events=())
    verdict = verify(record)
    assert verdict.rounds == (
        RoundVerdict(
            number=1,
            passed=False,
            check="commitment",
            detail="the round does not open with its commitment",
        ),
    )


def test_a_secret_that_does_not_hash_to_the_commitment_fails_on_it() -> None:
    """PF-FAIR-1, PF-FAIR-5: the revealed secret of round 3 replaced by another 32 bytes:
    its SHA-256 is not the recorded commitment."""
    other = "00" * 32
    assert hashlib.sha256(bytes.fromhex(other)).hexdigest() != _carousel().rounds[2].secret
    record = _with_round(_carousel(), 2, secret=other)
    assert verify(record) == Verdict(
        passed=False,
        rounds=(
            _passed(1),
            _passed(2),
            RoundVerdict(
                number=3,
                passed=False,
                check="commitment",
                detail="the revealed secret does not hash to the commitment",
            ),
        ),
    )


def test_a_command_the_rules_refuse_fails_on_commands_and_is_named_by_its_place() -> None:
    """docs/deal-format.md §10.2: every command must be accepted by the rules; the first
    refused one is named by its place among the round's commands, counted from 1, with
    the rules' sentence. Here the system deals round 1 twice."""
    log = _carousel().rounds[0]
    commands = (log.commands[0], (_SYSTEM, Deal()), *log.commands[1:])
    verdict = verify(_with_round(_carousel(), 0, commands=commands))
    assert verdict == Verdict(
        passed=False,
        rounds=(
            RoundVerdict(
                number=1,
                passed=False,
                check="commands",
                detail="command 3 is refused: no committed round is waiting",
            ),
        ),
    )


def test_a_changed_event_fails_on_events_naming_the_first_difference() -> None:
    """RM-AMB-4, docs/deal-format.md §10.2: the derived events must be the recorded ones,
    one for one; a forged event is named by its place and type."""
    events = list(_carousel().rounds[1].events)
    dealt_at = next(i for i, e in enumerate(events) if isinstance(e, RoundDealt))
    dealt = events[dealt_at]
    assert isinstance(dealt, RoundDealt)
    events[dealt_at] = replace(dealt, first=dealt.first % 3 + 1)
    verdict = verify(_with_round(_carousel(), 1, events=tuple(events)))
    assert verdict == Verdict(
        passed=False,
        rounds=(
            _passed(1),
            RoundVerdict(
                number=2,
                passed=False,
                check="events",
                detail=f"event {dealt_at} (RoundDealt) differs from the one the rules derive",
            ),
        ),
    )


def test_a_missing_or_extra_event_at_the_end_is_named_too() -> None:
    """docs/deal-format.md §10.2: one event too few is "nothing" recorded where the rules
    derive one; one too many is named by its type after the last derived event."""
    events = _carousel().rounds[0].events
    short = verify(_with_round(_carousel(), 0, events=events[:-1])).rounds[0]
    assert (short.check, short.detail) == (
        "events",
        f"event {len(events) - 1} (nothing) differs from the one the rules derive",
    )
    extra = verify(_with_round(_carousel(), 0, events=(*events, events[-1]))).rounds[0]
    name = type(events[-1]).__name__
    assert (extra.check, extra.detail) == (
        "events",
        f"event {len(events)} ({name}) differs from the one the rules derive",
    )


# --- the verdict for an audit of many units ----------------------------------------------


def test_the_verdict_of_each_round_becomes_a_unit_verdict_for_the_audit() -> None:
    """docs/deal-format.md §10.2 (`sahra verify --all`): one unit verdict a checked round,
    with its number, whether it passed, and the failing check and its detail."""
    record = _with_round(_carousel(), 1, secret="zz")
    assert units(verify(record)) == (
        protocol.UnitVerdict(number=1, passed=True, check=None, detail=None),
        protocol.UnitVerdict(
            number=2, passed=False, check="secret", detail="the revealed secret is not hex"
        ),
    )
