"""What a Bunco view and `legal` show, and every verdict of a Bunco record, pinned
(written against the survivors of mutation testing, docs/testing.md).

Rules: BU-SET-4, BU-SET-6, BU-SET-7, PF-FAIR-3, PF-FAIR-5, PF-FAIR-6, PF-AMB-12,
PF-TIMER-8.
"""

from __future__ import annotations

import dataclasses

import pytest
from msgspec.structs import replace

from engine import protocol
from engine.bunco.game import GAME
from engine.bunco.messages import (
    AssignSeats,
    BellRang,
    CommitSeed,
    Deal,
    DiceRolled,
    Roll,
    SendClientSeed,
    Timeout,
)
from engine.bunco.record import Record, RoundVerdict, Verdict
from engine.bunco.rules import decide
from engine.bunco.state import State
from engine.bunco.view import legal, view
from engine.errors import RuleViolation
from tests.unit.bunco_support import (
    evening,
    fold,
    fresh_caches,  # noqa: F401 - autouse, see its docstring
    playing,
    table_log,
)

_SYSTEM = 0


# --- legal agrees with decide -----------------------------------------------------------


def _accepted(state: State, seat: int, command: object) -> bool:
    try:
        decide(state, seat, command)  # type: ignore[arg-type]
    except RuleViolation:
        return False
    return True


def _candidates(state: State) -> dict[str, object]:
    places = state.options.places
    seating = tuple(tuple(range(i, i + 4)) for i in range(1, places + 1, 4))
    waiting = [n for n in range(1, 4) if _timeout_ok(state, n)]
    number = waiting[0] if waiting else 1
    rolls = state.tables[number - 1].rolls + 1 if state.tables else 1
    return {
        "CommitSeed": CommitSeed(secret="ab" * 32),
        "SendClientSeed": SendClientSeed(seed="x"),
        "Deal": Deal(),
        "Roll": Roll(),
        "AssignSeats": AssignSeats(tables=seating),
        "Timeout": Timeout(round=state.round, table=number, roll=rolls),
    }


def _timeout_ok(state: State, number: int) -> bool:
    if not number <= len(state.tables):
        return False
    roll = state.tables[number - 1].rolls + 1
    return _accepted(state, _SYSTEM, Timeout(round=state.round, table=number, roll=roll))


def test_legal_lists_exactly_the_commands_decide_accepts() -> None:
    """At every state of a short evening (4 players, one set, the host's seating and a
    client seed in round 1) and of the first rounds of one of 8, for the system and every
    seat: a command kind is in `legal` if and only if `decide` accepts it (the system's
    CloseSeedWindow is for the games that cut, and is left out)."""
    state = GAME.initial(GAME.options_from(players=4, sets=1), 1)
    states = [state]
    for command in (CommitSeed(secret="cd" * 32),):
        state = fold(state, decide(state, _SYSTEM, command))
        states.append(state)
    state = fold(state, decide(state, 2, SendClientSeed(seed="s")))
    states.append(state)
    state = fold(state, decide(state, 1, AssignSeats(tables=((4, 3, 2, 1),))))
    states.append(state)
    while state.phase != "over":
        if state.phase == "seeding":
            command = CommitSeed(secret=f"{state.round:02x}" * 32)
            events = decide(state, _SYSTEM, command)
        elif state.phase == "seeded":
            events = decide(state, _SYSTEM, Deal())
        else:
            events = decide(state, GAME.awaiting(state)[0], Roll())
        state = fold(state, events)
        states.append(state)
    replayed = GAME.initial(GAME.options_from(players=8, sets=1), 1)
    for _, _, events in evening(8, sets=1)[:400]:
        replayed = fold(replayed, events)
        states.append(replayed)
    for state in states:
        for seat in range(len(state.seeds_sent) + 1):
            listed = set(legal(state, seat).commands)
            for kind, command in _candidates(state).items():
                assert (kind in listed) == _accepted(state, seat, command), (
                    state.phase,
                    state.round,
                    seat,
                    kind,
                )
        assert legal(state, None).commands == ()


# --- views ------------------------------------------------------------------------------


def test_a_view_names_its_seat_its_table_and_every_tables_state_bu_set_4_bu_set_6() -> None:
    state = playing(8, scores=[(3, 4), (5, 6)], rollers=[2, 3])
    state = replace(state, tables=(state.tables[0], replace(state.tables[1], rolls=4)))
    mine = view(state, 7)
    assert (mine.seat, mine.table) == (7, 2)
    low = mine.tables[1]
    assert (low.number, low.name, low.full) == (2, "low", True)
    assert (low.seats, low.roller, low.rolls_by, low.rolls) == ((5, 6, 7, 8), 3, 7, 4)
    assert (low.rolloff, low.winner) == (False, 0)
    head = mine.tables[0]
    assert (head.number, head.name, head.full, head.scores) == (1, "head", False, (3, 4))
    assert (head.seats, head.roller, head.rolls, head.last) == ((), 0, 0, ())
    assert view(state, None).table == 0 and view(state, None).seat is None
    rang = replace(state, bell=1, tables=(state.tables[0], replace(state.tables[1], rolloff=True)))
    assert view(rang, 5).tables[1].rolloff and view(rang, 5).awaiting == (7,)
    decided = replace(rang, tables=(rang.tables[0], replace(rang.tables[1], winner=2)))
    assert view(decided, 5).tables[1].winner == 2 and view(decided, 5).awaiting == ()


def test_before_round_one_no_seat_has_a_table() -> None:
    state = GAME.initial(GAME.options_from(players=4), 1)
    seen = view(state, 1)
    assert (seen.table, seen.tables, seen.round, seen.target) == (0, (), 0, 0)
    assert (seen.players, seen.ghost, seen.rounds, seen.wipeout) == (4, 0, 24, False)


def test_a_view_shows_the_last_round_and_the_evenings_result() -> None:
    options = GAME.options_from(players=3, sets=1, wipeout=True)
    state = GAME.initial(options, 1)
    for _, _, events in evening(3, sets=1, wipeout=True):
        state = fold(state, events)
    seen = view(state, 2)
    assert seen.result == state.result is not None
    assert seen.evening == state.evening is not None
    assert (seen.ghost, seen.wipeout, seen.phase) == (4, True, "over")
    assert seen.wins == state.wins and seen.losses == state.losses
    assert seen.buncos == state.buncos and seen.wipeouts == state.wipeouts


# --- records ----------------------------------------------------------------------------


def _built(players: int = 4, host: int = 1) -> Record:
    log = table_log(players, sets=1)
    return GAME.records.build(dataclasses.replace(log, host=host))  # type: ignore[no-any-return]


def test_a_record_keeps_its_host_and_replays_the_hosts_seating_bu_set_7() -> None:
    """The host's AssignSeats is decided again from the record's host."""
    state = GAME.initial(GAME.options_from(players=4, sets=1), 2)
    steps = []
    state = fold(state, events := decide(state, _SYSTEM, CommitSeed(secret="cd" * 32)))
    steps.append((_SYSTEM, CommitSeed(secret="cd" * 32), events))
    for seat, command in ((2, AssignSeats(tables=((2, 1, 4, 3),))), (_SYSTEM, Deal())):
        events = decide(state, seat, command)
        steps.append((seat, command, events))
        state = fold(state, events)
    while state.phase == "play":
        seat = GAME.awaiting(state)[0]
        events = decide(state, seat, Roll())
        steps.append((seat, Roll(), events))
        state = fold(state, events)
    log = dataclasses.replace(table_log(4, steps, sets=1), host=2)
    built = GAME.records.build(log)
    assert built.host == 2
    assert GAME.records.verify(built).passed
    assert not GAME.records.verify(replace(built, host=1)).passed


def test_a_stacked_unit_cannot_be_written_as_a_bunco_record() -> None:
    log = table_log(4, sets=1)
    unit = dataclasses.replace(log.units[0], secret=None)
    with pytest.raises(ValueError, match="round 1 has no secret to verify"):
        GAME.records.build(dataclasses.replace(log, units=(unit,)))


def test_bad_options_fail_the_first_round() -> None:
    verdict = GAME.records.verify(replace(_built(), options={"players": 6}))
    assert verdict == Verdict(
        passed=False,
        rounds=(
            RoundVerdict(
                number=1,
                passed=False,
                check="options",
                detail="players must be one of 3, 4, 7, 8, 11, 12",
            ),
        ),
    )


@pytest.mark.parametrize(
    ("change", "check", "detail"),
    [
        ({"secret": "zz" * 32}, "secret", "the revealed secret is not hex"),
        ({"events": ()}, "commitment", "the round does not open with its commitment"),
        (
            {"secret": "00" * 32},
            "commitment",
            "the revealed secret does not hash to the commitment",
        ),
    ],
)
def test_each_failed_check_names_itself(change: dict[str, object], check: str, detail: str) -> None:
    built = _built()
    first = built.rounds[0]
    verdict = GAME.records.verify(replace(built, rounds=(replace(first, **change),)))
    assert verdict == Verdict(
        passed=False,
        rounds=(RoundVerdict(number=1, passed=False, check=check, detail=detail),),
    )


def test_a_round_not_opened_by_its_commitment_fails() -> None:
    built = _built()
    first = built.rounds[0]
    moved = replace(first, events=(*first.events[1:], first.events[0]))
    bad = GAME.records.verify(replace(built, rounds=(moved,))).rounds[0]
    assert (bad.check, bad.detail) == ("commitment", "the round does not open with its commitment")


def test_a_refused_command_is_named_by_its_place() -> None:
    built = _built()
    first = built.rounds[0]
    extra = replace(first, commands=((1, Deal()), *first.commands))
    bad = GAME.records.verify(replace(built, rounds=(extra,))).rounds[0]
    assert (bad.number, bad.check) == (1, "commands")
    assert bad.detail == "command 1 is refused: only the system starts a round"


def test_missing_and_extra_events_are_found_where_they_differ() -> None:
    built = _built()
    first = built.rounds[0]
    n = len(first.events)
    short = replace(first, events=first.events[:-2])
    bad = GAME.records.verify(replace(built, rounds=(short,))).rounds[0]
    assert bad.detail == f"event {n - 2} (nothing) differs from the one the rules derive"
    rolled = next(e for e in first.events if isinstance(e, DiceRolled))
    longer = replace(first, events=(*first.events, rolled))
    bad = GAME.records.verify(replace(built, rounds=(longer,))).rounds[0]
    assert bad.detail == (
        f"event {n} (DiceRolled) of table 1, roll {rolled.roll}, dice {list(rolled.dice)} "
        "differs from the one the rules derive"
    )
    at = next(i for i, e in enumerate(first.events) if isinstance(e, BellRang))
    early = replace(first, events=(*first.events[:at], rolled, *first.events[at:]))
    bad = GAME.records.verify(replace(built, rounds=(early,))).rounds[0]
    assert bad.detail == (
        f"event {at} (DiceRolled) of table 1, roll {rolled.roll}, dice {list(rolled.dice)} "
        "differs from the one the rules derive"
    )


def test_a_verdict_is_split_unit_by_unit_and_a_passed_round_is_numbered() -> None:
    built = _built()
    second = built.rounds[1]
    broken = replace(second, secret="zz" * 32)
    verdict = GAME.records.verify(replace(built, rounds=(built.rounds[0], broken)))
    assert GAME.records.units(verdict) == (
        protocol.UnitVerdict(number=1, passed=True),
        protocol.UnitVerdict(
            number=2, passed=False, check="secret", detail="the revealed secret is not hex"
        ),
    )


def test_the_replay_report_holds_the_tally_sheets() -> None:
    built = _built(3)
    report = GAME.records.replay(built)
    state = GAME.initial(GAME.options_from(players=3, sets=1), 1)
    for _, _, events in evening(3, sets=1):
        state = fold(state, events)
    assert (report.wins, report.losses) == (state.wins, state.losses)
    assert (report.buncos, report.wipeouts) == (state.buncos, state.wipeouts)
    assert report.last_round == state.result and report.evening == state.evening
