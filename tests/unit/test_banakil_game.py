"""Banakil's registered object (engine/banakil/game.py) exposes each part of a game, and
each part agrees with what the services compute today: the clock's deadlines
(services/projections/deadlines.py), the bots worker's moves (services/tables/bot_policy.py)
and the verifier's record options (services/verifier/records.py), on every state of whole
deals."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine import banakil, protocol, replay, verify
from engine.banakil import hints, messages, redact
from engine.banakil import options as banakil_options
from engine.banakil.autoplay import random_step
from engine.banakil.messages import DealScored, SeedCommitted, Timeout
from engine.banakil.state import State, team_of
from engine.banakil.timer import DISCARD_SECONDS
from engine.table import SeatInfo, TableState
from services.projections import deadlines
from services.projections.in_play import Tracked
from services.tables.bot_policy import bot_move, bot_to_act
from services.verifier.records import record_options_of

GAME = protocol.get("banakil")
_EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
_SINCE = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
_TABLES = [("classic", {}), ("sahrat", {}), ("sahrat", {"mode": "one_vs_one"})]


def _deal_states(
    preset: str, overrides: dict[str, object], seed: int
) -> Iterator[tuple[State, tuple[object, ...]]]:
    """Every state of one whole deal played at random, one turn in five timed out (and
    some of their discard windows too), with the events that led to it."""
    rng = random.Random(seed)
    state = GAME.initial(GAME.options_from(preset, **overrides), 1)
    events = GAME.decide(state, 0, GAME.unit.commit(f"{seed:064x}"))
    for event in events:
        state = GAME.evolve(state, event)
    yield state, events
    while state.phase in ("seeded", "play"):
        timer = GAME.timer(state)
        if timer is not None and rng.random() < 0.2:
            events = GAME.decide(state, 0, timer.command)
        else:
            _, _, events = random_step(state, rng)
        for event in events:
            state = GAME.evolve(state, event)
        yield state, events


def _table(state: State) -> TableState:
    """The table around a game whose every seat a bot plays."""
    seats = tuple(SeatInfo(kind="bot") for _ in range(state.seats))
    return TableState(
        table_id="t", status="playing", host=state.host, seats=seats, game_state=state
    )


def test_the_decider_views_and_options_are_the_packages_own_functions() -> None:
    assert GAME.name == "banakil"
    assert (GAME.initial, GAME.decide, GAME.evolve) == (
        banakil.initial,
        banakil.decide,
        banakil.evolve,
    )
    assert (GAME.view, GAME.legal, GAME.redact) == (banakil.view, banakil.legal, redact.redact)
    assert GAME.options is banakil_options.BanakilOptions
    assert GAME.presets is banakil_options.PRESETS
    assert GAME.options_from is banakil_options.options_from
    assert GAME.check_options is banakil_options.validate
    assert GAME.command is messages.Command and GAME.event is messages.Event
    assert GAME.command_types == messages.COMMAND_TYPES
    assert GAME.event_types == messages.EVENT_TYPES
    assert GAME.hints is hints.hints


def test_the_deal_record_section_is_what_sahra_replay_and_verify_run() -> None:
    records = GAME.records
    assert (records.decode, records.replay, records.verify) == (
        replay.decode_record,
        replay.run_record,
        verify.verify_record,
    )
    for path in sorted(_EXAMPLES.glob("*-secret-*.json")):
        record = records.decode(path.read_bytes())
        assert records.verify(record).passed, path.name


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [
        *_TABLES,
        ("classic", {"turn_seconds": 33, "going_out_bonus": 50}),
        ("sahrat", {"hints": False}),
    ],
)
def test_a_records_options_are_those_the_verifier_writes(
    preset: str, overrides: dict[str, object]
) -> None:
    options = GAME.options_from(preset, **overrides)
    written = GAME.records.options_of(options)
    assert written == record_options_of(options)
    rest = {k: v for k, v in written.items() if k != "preset"}
    assert GAME.options_from(written["preset"], **rest) == options


@pytest.mark.parametrize(("preset", "overrides"), _TABLES)
def test_the_seats_and_teams_are_the_rules_bk_play_1(
    preset: str, overrides: dict[str, object]
) -> None:
    """BK-PLAY-1: partners sit opposite; in 1-v-1 each seat is a team."""
    options = GAME.options_from(preset, **overrides)
    n = GAME.seats(options)
    assert GAME.seat_counts == (2, 4) and n in GAME.seat_counts
    state = GAME.initial(options, 1)
    teams = GAME.teams(options)
    assert sorted(s for team in teams for s in team) == list(range(1, n + 1))
    for number, team in enumerate(teams, start=1):
        assert all(team_of(state, seat) == number for seat in team)


def test_the_unit_of_play_is_a_deal_with_the_draws_it_reads_pf_amb_12() -> None:
    unit = GAME.unit
    assert unit.name == "deal"
    assert unit.draws == ("deal", "reshuffle:k", "first", "autocut")
    state = GAME.initial(GAME.options_from("sahrat"), 1)
    assert unit.needs_secret(state)
    (committed,) = GAME.decide(state, 0, unit.commit("ab" * 32))
    assert isinstance(committed, SeedCommitted) and unit.begins(committed) == 1
    assert not unit.needs_secret(GAME.evolve(state, committed))


@pytest.mark.parametrize("seed", range(6))
def test_the_timer_agrees_with_the_clocks_deadline_on_every_state_of_whole_deals(
    seed: int,
) -> None:
    """PF-TIMER-1, PF-TIMER-3: the seat, the wait, its end and the automatic Timeout."""
    preset, overrides = _TABLES[seed % 3]
    waits = windows = 0
    for state, _ in _deal_states(preset, overrides, seed):
        timer = GAME.timer(state)
        tracked = Tracked(table_id="t", state=_table(state), since=_SINCE)
        deadline = deadlines.timer(tracked)
        if timer is None:
            assert deadline is None, state.phase
            continue
        assert deadline is not None
        assert (timer.seat, timer.command, timer.command_id, timer.kind) == (
            deadline.seat,
            deadline.command,
            deadline.command_id,
            deadline.kind,
        )
        assert _SINCE + timedelta(seconds=timer.seconds) == deadline.at
        assert timer.command == Timeout(deal=state.deal, turn=state.turn_no)
        assert GAME.decide(state, 0, timer.command)  # the automatic command is accepted
        waits += 1
        windows += timer.kind == "window"
        if timer.kind == "window":
            assert timer.seconds == DISCARD_SECONDS
        else:
            assert timer.seconds == state.options.turn_seconds
    assert waits > 20 and windows > 0  # whole deals, with discard windows among them


@pytest.mark.parametrize("seed", range(3))
def test_the_bot_and_the_awaited_seat_agree_with_the_bots_worker(seed: int) -> None:
    """PF-BOT-4: the bot's move on every state of a deal (a cut the bot's host owes is the
    system's, PF-CUT-3) is the one the bots worker sends, and the engine accepts it."""
    preset, overrides = _TABLES[seed % 3]
    moves = cuts = 0
    for version, (state, _) in enumerate(_deal_states(preset, overrides, 100 + seed)):
        table = _table(state)
        expected = bot_to_act(table)
        assert GAME.awaiting(state) == (() if expected is None else (expected,))
        move = bot_move(table, version)
        if expected is None:
            assert move is None
            continue
        assert move is not None
        sender, command = GAME.bot(state, expected)
        assert (sender, command) == (move.seat, move.command)
        assert GAME.decide(state, sender, command)
        moves += 1
        cuts += sender == 0
    assert moves > 20
    assert cuts == (preset == "classic")  # BK-DEAL-C1: only classic's first deal is cut


def test_a_deal_played_only_by_the_bot_and_the_timer_ends_with_its_summary() -> None:
    """PF-REVEAL-1/2: no summary while a deal is played; its end shows every hand."""
    state = GAME.initial(GAME.options_from("sahrat", mode="one_vs_one"), 1)
    begins: list[int] = []
    ends: list[int] = []
    scored: list[DealScored] = []
    steps = 0
    while not ends:
        awaited = GAME.awaiting(state)
        timer = GAME.timer(state)
        if GAME.unit.needs_secret(state):
            seat, command = 0, GAME.unit.commit("5a" * 32)
        elif not awaited:
            seat, command = 0, messages.Deal()
        elif timer is not None and steps % 7 == 6:
            seat, command = 0, timer.command
        else:
            seat, command = GAME.bot(state, awaited[0])
        assert GAME.summary(state) is None
        for event in GAME.decide(state, seat, command):
            state = GAME.evolve(state, event)
            begins += [n for n in [GAME.unit.begins(event)] if n is not None]
            ends += [n for n in [GAME.unit.ends(event)] if n is not None]
            scored += [event] if isinstance(event, DealScored) else []
        steps += 1
        assert steps < 2_000
    assert begins == ends == [1]
    summary = GAME.summary(state)
    assert summary is not None and summary.deal == 1
    assert [summary.scores] == scored and summary.scores == state.last_scores
    assert summary.hands == state.hands and sum(map(len, summary.hands)) > 0
