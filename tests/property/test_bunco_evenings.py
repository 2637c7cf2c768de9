"""Whole random Bunco evenings for 3, 4, 7, 8, 11 and 12 players, played to the end.

The rolls come at random from any waiting table (not only in BU-AMB-4's turn of the
tables), with the clock's timeouts, the seats' client seeds and refused rolls mixed in.
Over every evening: every player plays every round at exactly one table; partners
change as the movement or the 4-player rotation says; the tallies add up; every die is
the round's secret's in log order; `decide` never changes its state and a refused
command changes nothing; the events replayed give the same state; no view shows a
round's secret before its reveal; the evening's record verifies.

The evenings are seeded (random.Random), so a failure replays; each is played once and
shared by the tests.

Rules: BU-SET-7, BU-RND-1..4, BU-ROLL-2..4, BU-END-1..5, BU-MOVE-1..5, BU-SIZE-1..3,
BU-TALLY-1/2, BU-EVE-1..3, BU-AMB-1/4/6/9/10, PF-FAIR-3, PF-FAIR-6, PF-DICE-2, PF-TIMER-8.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

import msgspec
import pytest

from engine import fair
from engine.bunco.evolve import evolve
from engine.bunco.game import GAME, initial
from engine.bunco.messages import (
    BellRang,
    Command,
    Deal,
    DiceRolled,
    EveningEnded,
    Event,
    Roll,
    RollOffRolled,
    RoundEnded,
    RoundStarted,
    SeedCommitted,
    SendClientSeed,
    Timeout,
)
from engine.bunco.movement import moved, rotation
from engine.bunco.options import options_from
from engine.bunco.rules import awaited, decide, roller_seat
from engine.bunco.scoring import score
from engine.bunco.state import State
from engine.bunco.view import view
from engine.errors import RuleViolation
from tests.unit.bunco_support import table_log

_PLAYERS = (3, 4, 7, 8, 11, 12)
_SEEDS = (1, 2)
_SYSTEM = 0
_ENCODE = msgspec.json.Encoder()
_EVENTS = msgspec.json.Decoder(tuple[Event, ...])


@dataclass(frozen=True)
class _Step:
    seat: int
    command: Command
    before: State
    events: tuple[Event, ...]
    after: State


def _command(state: State, rng: random.Random) -> tuple[int, Any]:
    """Whoever acts now: the system's steps, a seat's seed, a roll at a random waiting
    table (or the clock's timeout there)."""
    if state.phase == "seeding":
        return _SYSTEM, GAME.unit.commit("".join(f"{rng.randrange(256):02x}" for _ in range(32)))
    if state.phase == "seeded":
        unsent = [s for s, sent in enumerate(state.seeds_sent, 1) if not sent]
        if unsent and rng.random() < 0.5:
            return rng.choice(unsent), SendClientSeed(seed=f"s{rng.randrange(1000)}")
        return _SYSTEM, Deal()
    number = rng.choice(awaited(state))
    table = state.tables[number - 1]
    if rng.random() < 0.05:
        return _SYSTEM, Timeout(round=state.round, table=number, roll=table.rolls + 1)
    return roller_seat(state, table), Roll()


@functools.cache
def _evening(players: int, seed: int) -> tuple[State, tuple[_Step, ...]]:
    rng = random.Random(f"bunco:{players}:{seed}")
    start = initial(options_from(players=players, wipeout=seed == 2))
    state = start
    steps: list[_Step] = []
    while state.phase != "over":
        if state.phase == "play" and rng.random() < 0.05:  # a roll out of turn: refused
            waiting = set(GAME.awaiting(state))
            idle = [s for s in range(1, players + 1) if s not in waiting]
            if idle:
                before = _ENCODE.encode(state)
                with pytest.raises(RuleViolation):
                    decide(state, rng.choice(idle), Roll())
                assert _ENCODE.encode(state) == before
        seat, command = _command(state, rng)
        before = _ENCODE.encode(state)
        events = decide(state, seat, command)
        assert _ENCODE.encode(state) == before, "decide changed its state"
        after = state
        for event in events:
            after = evolve(after, event)
        steps.append(_Step(seat, command, state, events, after))
        state = after
        assert len(steps) < 100_000
    return start, tuple(steps)


def _evenings() -> list[tuple[int, State, tuple[_Step, ...]]]:
    return [(p, *_evening(p, seed)) for p in _PLAYERS for seed in _SEEDS]


def _events(steps: tuple[_Step, ...]) -> list[Event]:
    return [e for step in steps for e in step.events]


@pytest.mark.parametrize("players", _PLAYERS)
def test_every_player_plays_every_round_at_one_table(players: int) -> None:
    """BU-SET-7, BU-RND-1..3, BU-SIZE-3: 24 rounds, targets 1..6 four times; each round
    seats every place (the ghost's too) exactly once, four a table."""
    for seed in _SEEDS:
        start, steps = _evening(players, seed)
        started = [e for e in _events(steps) if isinstance(e, RoundStarted)]
        assert [e.target for e in started] == [1, 2, 3, 4, 5, 6] * 4
        for e in started:
            assert sorted(p for t in e.tables for p in t) == list(
                range(1, start.options.places + 1)
            )
            assert all(len(t) == 4 for t in e.tables)


@pytest.mark.parametrize("players", _PLAYERS)
def test_partners_change_as_the_movement_or_rotation_says(players: int) -> None:
    """BU-MOVE-1..5, BU-SIZE-1/2, BU-AMB-8/9: each round's seating is the last round's
    moved by its winners (one table: the rotation of round 1's seats)."""
    for seed in _SEEDS:
        _, steps = _evening(players, seed)
        last: RoundStarted | None = None
        order: tuple[int, ...] = ()
        for e in _events(steps):
            if isinstance(e, RoundStarted):
                order = order or e.tables[0]
                if len(e.tables) == 1:
                    assert e.tables == rotation(order, e.round)
                last = e
            elif isinstance(e, RoundEnded) and not e.last:
                assert last is not None
                if len(last.tables) > 1:
                    assert e.tables == moved(last.tables, e.winners)


@pytest.mark.parametrize("players", _PLAYERS)
def test_the_tallies_add_up(players: int) -> None:
    """BU-TALLY-1/2, BU-EVE-1..3, BU-AMB-1/6/10: one win or loss a place a round, half the
    places win each round; Buncos are the ones rolled outside roll-offs; the ranking leaves
    the ghost out."""
    for seed in _SEEDS:
        start, steps = _evening(players, seed)
        events = _events(steps)
        places = start.options.places
        buncos = [0] * places
        wins_before = [0] * places
        for e in events:
            if isinstance(e, DiceRolled) and e.kind == "bunco":
                buncos[e.player - 1] += 1
            if isinstance(e, RoundEnded):
                assert sum(e.wins) - sum(wins_before) == places // 2
                wins_before = list(e.wins)
                assert list(e.buncos) == buncos
        final = steps[-1].after
        assert all(w + lost == 24 for w, lost in zip(final.wins, final.losses, strict=True))
        (evening,) = [e for e in events if isinstance(e, EveningEnded)]
        best = max(final.wins[:players])
        assert evening.winners == tuple(
            s for s in range(1, players + 1) if final.wins[s - 1] == best
        )
        assert all(1 <= s <= players for s in evening.winners + evening.most_buncos)


@pytest.mark.parametrize("players", _PLAYERS)
def test_every_roll_is_scored_from_the_rounds_dice_in_log_order(players: int) -> None:
    """PF-DICE-2, PF-FAIR-6, BU-ROLL-2..4, BU-END-1/2: roll k of a round is dice 3k..3k+2 of
    its secret's stream; each roll's score is its dice's; seat 1 starts every table; a
    scoring roll keeps the dice, a miss passes them left; the bell follows the head
    table's roll that reached 21 and no normal roll follows it in the round."""
    for seed in _SEEDS:
        _, steps = _evening(players, seed)
        for step in steps:
            state = step.before
            k = state.rolls
            for e in step.events:
                if isinstance(e, DiceRolled | RollOffRolled):
                    assert state.secret is not None
                    dice = fair.dice(bytes.fromhex(state.secret), state.entropy, 3 * (k + 1))
                    assert e.dice == dice[3 * k :]
                    assert (e.kind, e.points) == score(e.dice, state.target, state.options.wipeout)
                    k += 1
                if isinstance(e, DiceRolled):
                    assert not state.bell
                    table = state.tables[e.table - 1]
                    assert e.next == (table.roller if e.points else table.roller % 4 + 1)
                    if table.rolls == 0:
                        assert table.roller == 1
                if isinstance(e, BellRang):
                    assert state.tables[0].scores[e.team - 1] >= 21
                state = evolve(state, e)


def test_the_evenings_have_roll_offs_wipeouts_timeouts_and_ghost_turns() -> None:
    """What the other tests check over is there: BU-END-5 roll-offs, BU-OPT-1 wipeouts,
    PF-TIMER-8 rolls, BU-SIZE-3 ghost turns."""
    events = [e for _, _, steps in _evenings() for e in _events(steps)]
    rolls = [e for e in events if isinstance(e, DiceRolled)]
    assert any(isinstance(e, RollOffRolled) for e in events)
    assert any(e.kind == "wipeout" for e in rolls)
    assert any(e.auto for e in rolls) and any(e.ghost for e in rolls)


@pytest.mark.parametrize("players", _PLAYERS)
def test_the_events_replayed_give_the_same_state(players: int) -> None:
    """The log is the truth: the events through JSON, folded again, give the same state,
    and so do the commands decided again."""
    for seed in _SEEDS:
        start, steps = _evening(players, seed)
        events = tuple(_events(steps))
        decoded = _EVENTS.decode(_ENCODE.encode(events))
        assert decoded == events
        state = start
        for event in decoded:
            state = evolve(state, event)
        assert state == steps[-1].after
        state = start
        for step in steps[:500]:
            assert decide(state, step.seat, step.command) == step.events
            state = step.after


@pytest.mark.parametrize("players", _PLAYERS)
def test_no_view_shows_the_rounds_secret_before_its_reveal(players: int) -> None:
    """PF-FAIR-3: while a round is played, no seat's view and no redacted event holds its
    secret."""
    _, steps = _evening(players, 1)
    for step in steps[::7]:
        state = step.after
        if state.secret is None:
            continue
        for seat in (None, *range(1, players + 1)):
            assert state.secret not in _ENCODE.encode(view(state, seat)).decode()
        for event in step.events:
            if isinstance(event, SeedCommitted):
                assert GAME.redact(event, None).secret == ""  # type: ignore[union-attr]


@pytest.mark.parametrize("players", _PLAYERS)
def test_the_evenings_record_verifies(players: int) -> None:
    """PF-FAIR-6: every round of the evening verifies from its revealed secret."""
    for seed in _SEEDS:
        start, steps = _evening(players, seed)
        triples = [(s.seat, s.command, s.events) for s in steps]
        options = {"wipeout": start.options.wipeout}
        built = GAME.records.build(table_log(players, triples, **options))
        verdict = GAME.records.verify(GAME.records.decode(_ENCODE.encode(built)))
        assert verdict.passed and len(verdict.rounds) == 24
