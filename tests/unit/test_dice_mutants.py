"""Every refusal of the dice tool says its code, its rule and its sentence; what each event
leaves in the state and the view; what a record carries and how a bad one fails (written
against the survivors of mutation testing, docs/testing.md, issue 13).

Rules: PF-DICE-1, PF-DICE-2, PF-FAIR-1, PF-FAIR-2, PF-FAIR-3, PF-FAIR-5, PF-AMB-12 (h),
PF-AMB-13, PF-ROOM-2.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from engine import protocol
from engine.bunco.messages import Roll as BuncoRoll
from engine.dice.autoplay import random_step
from engine.dice.evolve import evolve
from engine.dice.game import GAME, initial, summary
from engine.dice.messages import (
    CommitSeed,
    Deal,
    DiceThrown,
    Roll,
    SeedCommitted,
    SendClientSeed,
    Stop,
)
from engine.dice.options import DiceOptions, options_from
from engine.dice.record import Record, RollVerdict, Verdict, build, decode, verify
from engine.dice.state import State, Thrown
from engine.dice.view import legal, view
from engine.errors import RuleViolation

_SYSTEM = 0
_PHONE = 1


def _secret(n: int) -> str:
    return hashlib.sha256(f"mutant-secret-{n}".encode()).hexdigest()


def _send(state: State, seat: int, command: Any) -> State:
    for event in GAME.decide(state, seat, command):
        state = GAME.evolve(state, event)
    return state


def _committed(n: int = 1, *, seed: str | None = None) -> State:
    """Rolls 1..n-1 rolled, roll n committed (its client seed sent when `seed`)."""
    state = _send(initial(DiceOptions()), _SYSTEM, CommitSeed(secret=_secret(1)))
    for k in range(2, n + 1):
        state = _send(state, _PHONE, Roll())
        state = _send(state, _SYSTEM, CommitSeed(secret=_secret(k)))
    if seed is not None:
        state = _send(state, _PHONE, SendClientSeed(seed=seed))
    return state


def _refusal(state: State, seat: int, command: object) -> tuple[str, str, str]:
    before = msgspec.json.encode(state)
    with pytest.raises(RuleViolation) as caught:
        GAME.decide(state, seat, command)
    assert msgspec.json.encode(state) == before
    return caught.value.code, caught.value.rule_id, caught.value.message


# --- refusals: the game alone, as a record's replay decides ------------------------------


def test_only_the_phone_rolls_or_stops_and_the_refusal_says_which_seat_tried_pf_dice_1() -> None:
    ready = _committed()
    assert _refusal(ready, _SYSTEM, Roll()) == (
        "not_the_phone",
        "PF-DICE-1",
        "only the table's phone (seat 1) rolls; seat 0 cannot",
    )
    assert _refusal(ready, 2, Stop()) == (
        "not_the_phone",
        "PF-DICE-1",
        "only the table's phone (seat 1) stops the table; seat 2 cannot",
    )


def test_a_roll_before_its_commitment_is_refused_with_a_moment_to_wait_pf_fair_2() -> None:
    seeding = _send(_committed(), _PHONE, Roll())
    assert seeding.phase == "seeding"
    assert _refusal(seeding, _PHONE, Roll()) == (
        "not_committed",
        "PF-FAIR-2",
        "the next roll's commitment is not published yet: roll again in a moment",
    )


def test_after_stop_the_dice_are_put_away_for_rolling_and_for_stopping_again() -> None:
    """PF-DICE-1: a stopped table refuses a roll and a second Stop (the game alone: the
    table refuses both earlier, PF-ROOM-4), whether a roll was committed or not."""
    for over in (
        _send(_committed(2), _PHONE, Stop()),
        _send(_send(_committed(), 1, Roll()), 1, Stop()),
    ):
        assert over.phase == "over"
        assert _refusal(over, _PHONE, Roll()) == (
            "table_over",
            "PF-DICE-1",
            "the dice are put away: the table ended",
        )
        assert _refusal(over, _PHONE, Stop()) == (
            "table_over",
            "PF-DICE-1",
            "the dice are already put away",
        )


def test_only_the_system_closes_an_open_seed_window_pf_amb_12_h() -> None:
    ready = _committed()
    assert _refusal(ready, _PHONE, Deal()) == (
        "system_only",
        "PF-AMB-12",
        "only the system closes a roll's seed window",
    )
    closed = _send(ready, _SYSTEM, Deal())
    for state in (closed, _send(ready, _PHONE, Roll())):
        assert _refusal(state, _SYSTEM, Deal()) == (
            "seed_window_closed",
            "PF-AMB-12",
            "no roll's seed window is open",
        )


def test_another_games_command_is_not_a_command_of_the_dice_tool() -> None:
    assert _refusal(_committed(), _PHONE, BuncoRoll()) == (
        "not_now",
        "PF-DICE-1",
        "Roll is not a command of the dice tool",
    )


def test_an_unknown_preset_names_room_2_and_an_unknown_option_says_the_tool_has_none() -> None:
    with pytest.raises(RuleViolation) as caught:
        options_from("yahtzee")
    assert (caught.value.code, caught.value.rule_id, caught.value.message) == (
        "bad_option",
        "PF-ROOM-2",
        "the dice tool's preset is three_dice, not 'yahtzee'",
    )
    with pytest.raises(RuleViolation) as caught:
        options_from(None, dice=4)
    assert (caught.value.code, caught.value.rule_id) == ("bad_option", "PF-DICE-1")
    assert caught.value.message.startswith("the dice tool has no options: ")
    assert "dice" in caught.value.message


def test_an_option_named_preset_is_an_option_the_tool_does_not_have_pf_room_2() -> None:
    """The preset is positional: `{"preset": ...}` among the options is refused as an
    option like any other, never a TypeError (a record naming it failed to verify)."""
    for overrides in ({"preset": "three_dice"}, {"preset": "yahtzee"}):
        with pytest.raises(RuleViolation) as caught:
            options_from(None, **overrides)
        assert (caught.value.code, caught.value.rule_id) == ("bad_option", "PF-DICE-1")
        with pytest.raises(RuleViolation):
            GAME.options_from("three_dice", **overrides)
        raw = _raw(build(_log()))
        raw["options"] = overrides
        verdict = verify(decode(json.dumps(raw)))
        assert verdict.passed is False and verdict.rolls[0].check == "options"


# --- what the events leave ---------------------------------------------------------------


def test_a_roll_leaves_the_next_roll_waiting_with_nothing_of_the_last_rolls_lifecycle() -> None:
    """PF-FAIR-3, PF-AMB-13: after the roll and its reveal, no commitment, seed, window
    or secret is left over; the roll is in the history with its proof."""
    ready = _committed(seed="mine")
    rolled = _send(ready, _PHONE, Roll())
    thrown = rolled.history[-1]
    assert rolled == State(
        options=DiceOptions(),
        host=1,
        phase="seeding",
        roll=1,
        rolls=1,
        secret=None,
        commitment=None,
        client_seed="",
        seed_sent=False,
        window=False,
        history=(
            Thrown(
                roll=1,
                dice=thrown.dice,
                commitment=hashlib.sha256(bytes.fromhex(_secret(1))).hexdigest(),
                client_seed="mine",
                secret=_secret(1),
            ),
        ),
    )
    assert GAME.unit.lifecycle(rolled).secret is None


def test_a_commitment_opens_a_fresh_window_and_a_close_or_a_stop_shuts_it() -> None:
    ready = _committed(2)
    assert (ready.phase, ready.client_seed, ready.seed_sent, ready.window) == (
        "ready",
        "",
        False,
        True,
    )
    assert ready.seed_sent is False and ready.window is True
    closed = _send(ready, _SYSTEM, Deal())
    assert closed.window is False and closed.phase == "ready"
    stopped = _send(_send(ready, _PHONE, Roll()), _PHONE, Stop())
    assert stopped.phase == "over" and stopped.window is False
    assert stopped.seed_sent is False and stopped.commitment is None
    unrolled = _send(_committed(2, seed="s"), _PHONE, Stop())
    assert (unrolled.phase, unrolled.window, unrolled.seed_sent, unrolled.client_seed) == (
        "over",
        False,
        False,
        "",
    )
    assert unrolled.window is False and unrolled.seed_sent is False
    assert unrolled.secret is None and unrolled.history[-1].dice == ()


def test_an_event_the_tool_does_not_know_is_a_programming_error() -> None:
    with pytest.raises(AssertionError, match=r"^unknown event 'nope'$"):
        evolve(initial(DiceOptions()), "nope")  # type: ignore[arg-type]


def test_the_initial_state_waits_for_the_first_commitment_with_the_host_it_is_given() -> None:
    assert initial(DiceOptions()) == State(options=DiceOptions(), host=1)
    assert GAME.initial(DiceOptions(), 1).host == 1


# --- the view and what may be sent -------------------------------------------------------


def test_the_phones_view_names_its_seat_and_its_seed_window_pf_amb_12_h() -> None:
    seen = view(_committed(), _PHONE)
    assert (seen.seat, seen.phase, seen.roll, seen.window, seen.seed_sent) == (
        1,
        "ready",
        1,
        True,
        False,
    )
    assert seen.window is True and seen.seed_sent is False
    sent = view(_committed(seed="x"), _PHONE)
    assert sent.seed_sent is True and sent.window is True
    after = view(_send(_committed(seed="x"), _PHONE, Roll()), _PHONE)
    assert after.window is False and after.seed_sent is False and after.commitment is None


def test_what_each_seat_may_send_in_each_phase() -> None:
    seeding = _send(_committed(), _PHONE, Roll())
    ready = _committed()
    closed = _send(ready, _SYSTEM, Deal())
    seeded = _committed(seed="x")
    expect = {
        (_SYSTEM, "seeding"): ("CommitSeed",),
        (_SYSTEM, "ready"): ("Deal",),
        (_SYSTEM, "closed"): (),
        (_PHONE, "seeding"): ("Stop",),
        (_PHONE, "ready"): ("SendClientSeed", "Roll", "Stop"),
        (_PHONE, "seeded"): ("Roll", "Stop"),
        (_PHONE, "closed"): ("Roll", "Stop"),
        (2, "ready"): (),
        (2, "seeding"): (),
    }
    states = {"seeding": seeding, "ready": ready, "closed": closed, "seeded": seeded}
    for (seat, where), commands in expect.items():
        assert legal(states[where], seat).commands == commands, (seat, where)
        assert view(states[where], seat).legal.commands == commands
    assert legal(ready, None).commands == ()


# --- the summary -------------------------------------------------------------------------


def test_the_summary_is_the_last_revealed_roll_and_none_before_the_first() -> None:
    assert summary(initial(DiceOptions())) is None
    assert summary(_committed()) is None
    state = _committed(3)
    state = _send(state, _PHONE, Roll())
    assert [t.roll for t in state.history] == [1, 2, 3]
    assert summary(state) == state.history[-1]
    assert summary(state) != state.history[1]
    one = _send(_committed(), _PHONE, Roll())
    assert summary(one) == one.history[0]
    hidden = replace(state, history=(*state.history[:-1], replace(state.history[-1], secret=None)))
    assert summary(hidden) is None


# --- the random player -------------------------------------------------------------------


class _Fixed:
    """A generator that always draws the same: random() -> `value`, randrange(n) -> n-1."""

    def __init__(self, value: float) -> None:
        self.value = value
        self.stops: list[int] = []

    def random(self) -> float:
        return self.value

    def randrange(self, stop: int, /) -> int:
        self.stops.append(stop)
        return stop - 1


def test_the_random_phone_sends_a_seed_with_probability_seeds_before_it_rolls() -> None:
    ready = _committed()
    rng = _Fixed(0.0)
    seat, command, events = random_step(ready, rng, seeds=0.5)
    assert seat == _PHONE and command == SendClientSeed(seed=f"phone-{(1 << 30) - 1:x}")
    assert rng.stops == [1 << 30]
    seeded = ready
    for event in events:
        seeded = evolve(seeded, event)
    assert random_step(seeded, rng, seeds=0.5)[1] == Roll()  # one seed a roll
    assert random_step(ready, _Fixed(0.0), seeds=0.0)[1] == Roll()  # seeds=0: never
    assert random_step(ready, _Fixed(0.5), seeds=0.5)[1] == Roll()


# --- records -----------------------------------------------------------------------------


def _log(
    rolls: int = 2, *, options: dict[str, Any] | None = None, host: int = 1
) -> protocol.TableLog:
    """A session's units as the store gives them: each roll seeded, then rolled."""
    state = initial(DiceOptions())
    units: list[protocol.UnitLog] = []
    for n in range(1, rolls + 1):
        opened = GAME.decide(state, _SYSTEM, CommitSeed(secret=_secret(n)))
        for event in opened:
            state = evolve(state, event)
        commands: list[tuple[int, Any]] = [(_PHONE, SendClientSeed(seed=f"s{n}")), (_PHONE, Roll())]
        events: list[Any] = [replace(opened[0], secret=""), *opened[1:]]
        for seat, command in commands:
            got = GAME.decide(state, seat, command)
            for event in got:
                state = evolve(state, event)
            events.extend(got)
        units.append(
            protocol.UnitLog(
                number=n,
                secret=_secret(n),
                client_seeds=(f"s{n}",),
                commands=tuple(commands),
                events=tuple(events),
            )
        )
    return protocol.TableLog(options=options or {}, seats=("Salma",), host=host, units=tuple(units))


def _raw(record: Record) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(msgspec.json.encode(record))
    return out


def test_a_record_carries_the_logs_options_seats_and_host_as_stored() -> None:
    record = build(_log(options={"dice": 4}, host=2))
    assert (record.options, record.seats, record.host) == ({"dice": 4}, ("Salma",), 2)
    assert verify(build(_log())).passed


def test_a_unit_without_its_secret_cannot_be_written_into_a_record() -> None:
    log = _log(1)
    bare = protocol.TableLog(
        options={},
        seats=log.seats,
        host=1,
        units=(
            protocol.UnitLog(number=1, secret=None, client_seeds=("",), commands=(), events=()),
        ),
    )
    with pytest.raises(ValueError, match=r"^roll 1 has no secret to verify$"):
        build(bare)


def test_options_the_tool_does_not_have_fail_the_record_at_its_first_roll() -> None:
    for options in ({"dice": 5}, {"dice": 3, "seats": 1}):
        raw = _raw(build(_log()))
        raw["options"] = options
        verdict = verify(decode(json.dumps(raw)))
        assert verdict.passed is False
        assert len(verdict.rolls) == 1
        bad = verdict.rolls[0]
        assert (bad.number, bad.passed, bad.check) == (1, False, "options")
        assert bad.passed is False and bad.detail is not None
        assert bad.detail.startswith("the dice tool has no options: ")
        assert verdict == Verdict(passed=False, rolls=(bad,))


def test_a_roll_whose_events_do_not_open_with_its_commitment_fails_naming_the_roll() -> None:
    raw = _raw(build(_log()))
    raw["rolls"][1]["events"] = raw["rolls"][1]["events"][1:]
    verdict = verify(decode(json.dumps(raw)))
    assert verdict.rolls[-1] == RollVerdict(
        number=2,
        passed=False,
        check="commitment",
        detail="the roll does not open with its commitment",
    )


def test_a_roll_missing_its_last_event_fails_at_the_event_it_lacks_pf_fair_5() -> None:
    raw = _raw(build(_log()))
    events = raw["rolls"][0]["events"]
    assert events[-1]["type"] == "SeedRevealed"
    raw["rolls"][0]["events"] = events[:-1]
    verdict = verify(decode(json.dumps(raw)))
    at = len(events) - 1
    assert verdict.rolls == (
        RollVerdict(
            number=1,
            passed=False,
            check="events",
            detail=f"event {at} (nothing) differs from the one the rules derive",
        ),
    )


def test_a_recorded_commitment_is_what_the_view_showed_before_the_roll() -> None:
    """PF-FAIR-2: the commitment event stored (secret blank) is the one the table sent."""
    log = _log(1)
    first = log.units[0].events[0]
    assert isinstance(first, SeedCommitted) and first.secret == ""
    thrown = next(e for e in log.units[0].events if isinstance(e, DiceThrown))
    assert thrown.roll == 1 and len(thrown.dice) == 3
