"""The table aggregate is generic: "high card", a game that lives only in tests/games/ and is
registered here, is created, seated, started and played to its end through engine/table.py
(its options, seat count and bots asked of its registered object), stored and read back
through the codec, and kept apart from Banakil's commands and options (PF-ROOM-2)."""

from __future__ import annotations

import msgspec
import pytest

from engine import protocol, table
from engine.banakil import options_from as banakil_options
from engine.banakil.messages import Discard
from engine.errors import RuleViolation
from engine.table import CreateTable, Leave, ReturnSeat, StartTable, TableState, TakeSeat
from services.tables.codec import decode_event, decode_state, encode_event, encode_state
from tests.games import high_card

_SECRET = "ab" * 32
_SYSTEM = 0


@pytest.fixture(scope="module", autouse=True)
def _hosted() -> None:
    protocol.register(high_card.GAME)


def _send(state: TableState, seat: int, command: object, log: list[object]) -> TableState:
    for event in table.decide(state, seat, command):
        log.append(event)
        state = table.evolve(state, event)
    return state


def _reject(state: TableState, seat: int, command: object) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        table.decide(state, seat, command)
    return info.value


def _started(log: list[object], seats: int = 3) -> TableState:
    kinds = ("human", "human", *("bot",) * (seats - 2))
    create = CreateTable(options=high_card.HighCardOptions(seats=seats), seats=kinds)  # type: ignore[arg-type]
    state = _send(table.new_table("hc"), _SYSTEM, create, log)
    state = _send(state, _SYSTEM, TakeSeat(seat=1, player="Salma"), log)
    state = _send(state, _SYSTEM, TakeSeat(seat=2, player="Omar"), log)
    return _send(state, 1, StartTable(), log)


def test_a_table_of_a_test_game_is_created_for_it_and_plays_to_the_end() -> None:
    log: list[object] = []
    state = _started(log)
    assert (state.game, state.status, len(state.seats)) == ("high_card", "playing", 3)
    assert isinstance(state.game_state, high_card.State)
    state = _send(state, _SYSTEM, high_card.CommitSeed(secret=_SECRET), log)
    state = _send(state, 1, high_card.Draw(), log)
    state = _send(state, _SYSTEM, high_card.Timeout(turn=2), log)  # seat 2's time ran out
    state = _send(state, 3, high_card.Draw(), log)  # the bot's seat
    assert state.status == "finished"  # the game's `over`, asked by the table
    summary = high_card.GAME.summary(state.game_state)
    assert summary is not None and summary.secret == _SECRET and len(summary.cards) == 3
    assert type(log[0]).__name__ == "TableCreated" and log[0].game == "high_card"  # type: ignore[attr-defined]
    assert [type(e).__name__ for e in log[-4:]] == [
        "CardDrawn",
        "CardDrawn",
        "RoundWon",
        "SeedRevealed",
    ]


def test_the_seats_come_from_the_games_options() -> None:
    err = _reject(
        table.new_table("hc"),
        _SYSTEM,
        CreateTable(options=high_card.HighCardOptions(seats=4), seats=("human", "bot")),
    )
    assert (err.code, err.rule_id) == ("bad_seats", "PF-ROOM-5")
    assert "need 4 seats" in err.message


def test_options_of_another_game_and_a_game_not_hosted_are_refused_pf_room_2() -> None:
    new = table.new_table("t")
    hc = high_card.HighCardOptions()
    wrong = _reject(new, _SYSTEM, CreateTable(game="banakil", options=hc, seats=("human",) * 2))
    assert wrong.code == "bad_option" and "HighCardOptions" in wrong.message
    other = banakil_options("classic")
    wrong = _reject(
        new, _SYSTEM, CreateTable(game="high_card", options=other, seats=("human",) * 4)
    )
    assert wrong.code == "bad_option"
    unknown = _reject(new, _SYSTEM, CreateTable(game="chess", options=hc, seats=("human",) * 2))
    assert unknown.code == "unknown_game"
    assert "banakil" in unknown.message and "high_card" in unknown.message
    created = table.decide(new, _SYSTEM, CreateTable(options=other, seats=("human",) * 4))
    assert created[0].game == "banakil"  # named by the options' Struct when not given


def test_a_table_takes_only_its_own_games_commands() -> None:
    state = _started([])
    err = _reject(state, 1, Discard(card="7H"))
    assert (err.code, err.rule_id) == ("wrong_game", "PF-ROOM-2")
    assert "high_card" in err.message


def test_presence_at_a_test_game_asks_it_about_bots_and_series_pf_bot_5() -> None:
    """The game allows bots (a player who leaves is replaced) and has no series (his seat
    never comes back before the end)."""
    log: list[object] = []
    state = _send(_started(log), 2, Leave(), log)
    assert state.seats[1].presence == "bot" and table.played_by_bot(state, 2)
    assert not table.match_starts(state)
    state = _send(state, _SYSTEM, table.Reconnect(seat=2), log)
    assert state.seats[1].presence == "returning"
    assert _reject(state, _SYSTEM, ReturnSeat(seat=2)).code == "match_in_progress"


def test_a_test_games_stream_is_stored_and_read_back_through_the_registry() -> None:
    """Its SeedCommitted and CardDrawn share their tags with Banakil's: read with the
    table's game, or without it by the one game whose Structs accept the row."""
    log: list[object] = []
    state = _send(_started(log), _SYSTEM, high_card.CommitSeed(secret=_SECRET), log)
    state = _send(state, 1, high_card.Draw(), log)
    rows = [encode_event(e, "hc") for e in log]
    committed = next(r for r in rows if r.type == "SeedCommitted")
    assert _SECRET not in committed.data.decode()  # the round's secret rests sealed
    drawn = next(r for r in rows if r.type == "CardDrawn")
    assert drawn.data.startswith(b'{"public"')  # the card rests sealed too
    assert [decode_event(r.data, "hc", game="high_card") for r in rows] == log
    assert [decode_event(r.data, "hc") for r in rows] == log
    with pytest.raises(msgspec.ValidationError):
        decode_event(drawn.data, "hc", game="banakil")
    assert decode_state(encode_state(state), "hc") == state
