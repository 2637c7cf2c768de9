"""Bunco on the platform: its `Game` object, the table, views, the record and the codec.

Rules: PF-ROOM-5, PF-FAIR-1, PF-FAIR-3, PF-FAIR-6, PF-AMB-12, PF-AMB-13, PF-TIMER-7,
PF-TIMER-8, PF-BOT-4, PF-AMB-17, BU-SET-5, BU-SIZE-3, BU-AMB-1, BU-AMB-13.
"""

from __future__ import annotations

import random

import msgspec
import pytest
from msgspec.structs import replace

from engine import players, protocol, table
from engine.bunco.game import GAME, redact
from engine.bunco.messages import (
    CommitSeed,
    Deal,
    DiceRolled,
    Roll,
    RoundEnded,
    SeedCommitted,
    SendClientSeed,
)
from engine.bunco.options import options_from
from engine.bunco.rules import decide
from engine.bunco.view import View, view
from engine.table import CreateTable, StartTable, TakeSeat
from services.tables.codec import decode_command, decode_event, decode_state, encode_event
from tests.unit.bunco_support import (
    SECRET,
    evening,
    fold,
    fresh_caches,  # noqa: F401 - autouse, see its docstring
    playing,
    step,
    table_log,
)

_SYSTEM = 0


# --- the Game object --------------------------------------------------------------------


def test_bunco_is_hosted_with_its_round_and_its_draws_pf_amb_12() -> None:
    """PF-FAIR-1, PF-AMB-12 g: a round is the unit; it draws "first" and "dice"."""
    game = protocol.get("bunco")
    assert game is GAME and "bunco" in protocol.hosted()
    assert (game.unit.name, game.unit.draws, game.unit.ending) == (
        "round",
        ("first", "dice"),
        ("RoundEnded",),
    )
    assert game.teams(options_from(players=3)) == ((1,), (2,), (3,))


def test_a_bunco_table_is_created_seated_and_played_through_the_table_pf_room_5() -> None:
    """PF-ROOM-5: 8 seats for 8 players; the table routes the game's commands."""
    state = table.new_table("bu")
    create = CreateTable(game="bunco", options=options_from(players=8), seats=("human",) * 8)
    with pytest.raises(Exception, match="bad_seats"):
        table.decide(state, _SYSTEM, replace(create, seats=("human",) * 7))
    for event in table.decide(state, _SYSTEM, create):
        state = table.evolve(state, event)
    for seat in range(1, 9):
        (taken,) = table.decide(state, _SYSTEM, TakeSeat(seat=seat, player=f"P{seat}"))
        state = table.evolve(state, taken)
    for command, seat in ((StartTable(), 1), (CommitSeed(secret=SECRET), 0)):
        for event in table.decide(state, seat, command):
            state = table.evolve(state, event)
    for event in table.decide(state, 3, SendClientSeed(seed="hello")):
        state = table.evolve(state, event)
    for event in table.decide(state, _SYSTEM, Deal()):
        state = table.evolve(state, event)
    game_state = state.game_state
    assert game_state is not None and game_state.phase == "play"
    first = GAME.awaiting(game_state)
    assert len(first) == 2
    (rolled, *_) = table.decide(state, first[0], Roll())
    assert isinstance(rolled, DiceRolled) and rolled.table == 1


def test_the_bot_and_the_timeout_send_the_players_own_roll_pf_bot_4_pf_timer_8() -> None:
    """PF-BOT-4, PF-AMB-17, BU-AMB-13: the bot's command is the Roll a player sends, and
    the timer's command rolls for the awaited seat."""
    state = playing(11)
    state = replace(state, tables=(*state.tables[:2], replace(state.tables[2], roller=4)))
    assert GAME.awaiting(state) == (1, 5, 10)  # table 3: the ghost's turn, its partner
    for seat in GAME.awaiting(state):
        sender, command = GAME.bot(state, seat)
        assert (sender, command) == (seat, Roll())
        decide(state, sender, command)
    assert players.get("bunco").bot_fallback(view(state, 1)) == Roll()
    assert players.get("bunco").bot_choose(view(state, 1), state.options) == Roll()
    timers = [GAME.timer(state)]
    assert timers[0] is not None and timers[0].seat == 1 and timers[0].kind == "roll"


def test_the_wait_changes_with_the_first_timers_roll_only() -> None:
    state = playing(8)
    wait = GAME.wait(state)
    _, after_low = step(state, 5, Roll())
    assert GAME.wait(after_low) == wait  # the head table's timer runs on
    _, after_head = step(state, 1, Roll())
    assert GAME.wait(after_head) != wait


# --- views ------------------------------------------------------------------------------


def test_a_seat_sees_its_table_in_full_and_the_others_scores_a_spectator_all() -> None:
    state = playing(12, scores=[(1, 2), (3, 4), (5, 6)])
    mine = view(state, 6)
    assert mine.table == 2
    assert [t.full for t in mine.tables] == [False, True, False]
    assert mine.tables[1].seats == (5, 6, 7, 8) and mine.tables[1].rolls_by == 5
    assert mine.tables[0].seats == () and mine.tables[0].scores == (1, 2)
    watcher = view(state, None)
    assert all(t.full for t in watcher.tables) and watcher.legal.commands == ()
    assert watcher.awaiting == (1, 5, 9)


def test_the_rounds_secret_is_hidden_until_its_reveal_pf_fair_3_pf_amb_13() -> None:
    state = GAME.initial(options_from(players=4), 1)
    (committed,), state = step(state, _SYSTEM, CommitSeed(secret=SECRET))
    assert isinstance(committed, SeedCommitted) and committed.secret == SECRET
    for seat in (None, 1, 2):
        assert redact(committed, seat).secret == ""  # type: ignore[union-attr]
        assert SECRET not in msgspec.json.encode(view(state, seat)).decode()
    assert GAME.summary(state) is None


def test_the_round_end_is_summarised_with_its_revealed_secret() -> None:
    steps = evening(4, sets=1)
    state = GAME.initial(options_from(players=4, sets=1), 1)
    for _, _, events in steps[:200]:
        state = fold(state, events)
        if any(isinstance(e, RoundEnded) for e in events):
            summary = GAME.summary(state)
            assert summary is not None and summary.secret is not None
            break
    else:
        pytest.fail("no round ended in 200 steps")


def test_a_scripted_client_rolls_only_when_awaited() -> None:
    client = players.get("bunco")
    state = playing(8)
    seen = msgspec.json.decode(msgspec.json.encode(view(state, 1)), type=client.client_view)
    assert isinstance(seen, View)
    assert client.client(seen, state.options, random.Random(1), False) == Roll()
    other = msgspec.json.decode(msgspec.json.encode(view(state, 2)), type=View)
    assert client.client(other, state.options, random.Random(1), False) is None


# --- the record -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 11])
def test_a_whole_evenings_record_verifies_round_by_round_pf_fair_6(players: int) -> None:
    built = GAME.records.build(table_log(players, sets=1))
    data = msgspec.json.encode(built)
    read = GAME.records.decode(data)
    verdict = GAME.records.verify(read)
    assert verdict.passed and len(verdict.rounds) == 6
    assert all(u.passed for u in GAME.records.units(verdict))
    report = GAME.records.replay(read)
    result = report.last_round
    assert result is not None and result.round == 6 and result.secret is not None
    assert report.evening is not None and sum(report.wins) == 6 * len(report.wins) // 2


def test_a_tampered_die_is_found_at_its_roll() -> None:
    """PF-FAIR-6, PF-DICE-2: one die of round 3 changed: round 3 fails, naming the table
    and the roll; rounds 1 and 2 pass and the rounds after 3 are not checked."""
    built = GAME.records.build(table_log(8, sets=1))
    third = built.rounds[2]
    at, rolled = next(
        (i, e) for i, e in enumerate(third.events) if isinstance(e, DiceRolled) and e.roll == 5
    )
    faked = replace(rolled, dice=(rolled.dice[0] % 6 + 1, *rolled.dice[1:]))
    events = (*third.events[:at], faked, *third.events[at + 1 :])
    tampered = replace(
        built, rounds=(*built.rounds[:2], replace(third, events=events), *built.rounds[3:])
    )
    verdict = GAME.records.verify(tampered)
    assert not verdict.passed
    assert [v.passed for v in verdict.rounds] == [True, True, False]
    bad = verdict.rounds[2]
    assert bad.check == "events" and bad.detail is not None
    assert f"table {rolled.table}, roll 5" in bad.detail
    assert f"the secret gives {list(rolled.dice)}" in bad.detail


def test_a_changed_secret_or_refused_command_fails_its_round() -> None:
    built = GAME.records.build(table_log(4, sets=1))
    first = built.rounds[0]
    wrong = replace(built, rounds=(replace(first, secret="00" * 32),))
    assert GAME.records.verify(wrong).rounds[0].check == "commitment"
    extra = replace(first, commands=(*first.commands, (1, Roll())))
    assert GAME.records.verify(replace(built, rounds=(extra,))).rounds[0].check == "commands"
    bad = replace(built, options={"players": 5})
    assert GAME.records.verify(bad).rounds[0].check == "options"


# --- the codec --------------------------------------------------------------------------


def test_an_evenings_events_and_commands_are_stored_and_read_back() -> None:
    """Events shared by tag with another game are read with the table's game named."""
    steps = evening(7, sets=1)
    events = [e for _, _, evs in steps[:300] for e in evs]
    rows = [encode_event(e, "bu") for e in events]
    assert SECRET not in rows[0].data.decode()
    assert [decode_event(r.data, "bu", game="bunco") for r in rows] == events
    for _, command, _ in steps[:50]:
        raw = msgspec.json.encode(command)
        assert decode_command(raw, "bunco") == command
    state = table.new_table("bu")
    create = CreateTable(game="bunco", options=options_from(players=7), seats=("human",) * 7)
    for event in table.decide(state, _SYSTEM, create):
        state = table.evolve(state, event)
    assert decode_state(msgspec.json.encode(state), "bu") == state
