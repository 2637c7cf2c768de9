"""Seat presence at a table: away, back, replaced by a bot, leaving, and a replaced player
watching until the next match of the series gives him his seat back (PF-CONN-1..5,
PF-BOT-1..3, PF-BOT-5), and the host role passing when the host leaves (PF-ROOM-6)."""

from __future__ import annotations

import pytest

from engine import fair, table
from engine.banakil import options_from
from engine.banakil.messages import CloseSeedWindow, CommitSeed, Cut, Deal, DeckCut
from engine.errors import RuleViolation
from engine.table import (
    CreateTable,
    Disconnect,
    HostPassed,
    Leave,
    Reconnect,
    ReplaceWithBot,
    ReturnSeat,
    SeatDisconnected,
    SeatReconnected,
    SeatReplacedByBot,
    SeatReturned,
    StartTable,
    TableState,
    TakeSeat,
    humans_present,
    played_by_bot,
)
from services.tables.bot_policy import Move, bot_move
from tests.unit.series_support import next_match, series_table

_SECRET = "11" * 32


def _fold(state: TableState, seat: int, command: object) -> TableState:
    for event in table.decide(state, seat, command):
        state = table.evolve(state, event)
    return state


def _reject(state: TableState, seat: int, command: object) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        table.decide(state, seat, command)
    return info.value


def _dealt(
    kind: str = "free", seats: tuple[str, ...] = ("human", "human", "bot", "bot")
) -> TableState:
    options = options_from("sahrat", table_kind=kind)
    state = _fold(table.new_table("t"), 0, CreateTable(options=options, seats=seats))  # type: ignore[arg-type]
    for seat, kind_of in enumerate(seats, start=1):
        if kind_of == "human":
            state = _fold(state, 0, TakeSeat(seat=seat, player=f"P{seat}"))
    state = _fold(state, 0, StartTable())
    state = _fold(state, 0, CommitSeed(secret=_SECRET))
    return _fold(state, 0, Deal())


def _presence(state: TableState) -> list[str]:
    return [s.presence for s in state.seats]


def test_a_dropped_player_is_away_and_back_with_the_same_hand_pf_conn_2() -> None:
    state = _dealt()
    hand = state.game_state.hands[1] if state.game_state else ()
    away = table.decide(state, 0, Disconnect(seat=2))
    assert away == (SeatDisconnected(seat=2),)
    state = _fold(state, 0, Disconnect(seat=2))
    assert _presence(state)[:2] == ["here", "away"]
    assert (_reject(state, 0, Disconnect(seat=2)).code) == "already_away"
    state = _fold(state, 0, Reconnect(seat=2))
    assert _presence(state)[:2] == ["here", "here"]
    assert state.game_state is not None and state.game_state.hands[1] == hand
    assert _reject(state, 0, Reconnect(seat=2)).code == "not_away"


def test_presence_is_recorded_by_the_system_only() -> None:
    state = _dealt()
    for command in (
        Disconnect(seat=2),
        Reconnect(seat=2),
        ReplaceWithBot(seat=2),
        ReturnSeat(seat=2),
    ):
        assert _reject(state, 2, command).code == "system_only"
    assert _reject(state, 0, Leave()).code == "not_a_seat"
    assert _reject(state, 0, Disconnect(seat=3)).code == "not_a_player_seat"  # a bot seat


def test_after_the_grace_a_bot_plays_the_seat_with_its_hand_pf_conn_3_pf_bot_2() -> None:
    state = _dealt()
    game = state.game_state
    assert game is not None
    assert _reject(state, 0, ReplaceWithBot(seat=2)).code == "not_away"
    state = _fold(state, 0, Disconnect(seat=2))
    events = table.decide(state, 0, ReplaceWithBot(seat=2))
    assert events == (SeatReplacedByBot(seat=2, reason="timeout"),)
    state = _fold(state, 0, ReplaceWithBot(seat=2))
    assert played_by_bot(state, 2) and not played_by_bot(state, 1)
    assert state.game_state == game  # PF-CONN-5: the game is untouched


def test_at_a_coin_table_no_bot_takes_the_seat_pf_bot_3() -> None:
    state = _dealt("coin", ("human",) * 4)
    state = _fold(state, 0, Disconnect(seat=3))
    err = _reject(state, 0, ReplaceWithBot(seat=3))
    assert (err.code, err.rule_id) == ("no_bots_here", "PF-BOT-3")
    state = _fold(state, 0, Reconnect(seat=3))  # back at any time
    assert _presence(state)[2] == "here"
    # Leaving a coin table: the seat is away and the clock's automatic actions play it.
    assert table.decide(state, 4, Leave()) == (SeatDisconnected(seat=4),)


def test_leaving_hands_the_seat_to_a_bot_at_once_and_changes_nothing_else_pf_conn_4() -> None:
    state = _dealt()
    game = state.game_state
    left = SeatReplacedByBot(seat=1, reason="left")
    assert table.decide(state, 1, Leave()) == (left, HostPassed(seat=2))  # PF-ROOM-6
    state = _fold(state, 1, Leave())
    assert played_by_bot(state, 1) and state.game_state == game
    assert _reject(state, 1, Leave()).code == "already_replaced"
    assert humans_present(state)  # seat 2 is still here
    state = _fold(state, 2, Leave())
    assert not humans_present(state)


def test_a_bot_completes_the_match_and_its_player_watches_until_the_next_pf_bot_5() -> None:
    """Seed 000 «يحلّ بوت محله ليكمل المباراة», PF-BOT-5, PF-CONN-4: a player who left (or
    was replaced after the grace) may connect again and watch; the bot keeps the seat for
    every turn and deal left in the match, and the seat is his again as the next match of
    the series starts, before its first deal is committed."""
    state = series_table()
    player = 2
    state = _fold(state, player, Leave())
    assert table.decide(state, 0, Reconnect(seat=player)) == (SeatReconnected(seat=player),)
    state = _fold(state, 0, Reconnect(seat=player))
    assert _presence(state)[player - 1] == "returning" and played_by_bot(state, player)
    err = _reject(state, 0, ReturnSeat(seat=player))
    assert (err.code, err.rule_id) == ("match_in_progress", "PF-BOT-5")

    def refused_between_deals(now: TableState) -> None:
        assert _reject(now, 0, ReturnSeat(seat=player)).code == "match_in_progress"
        assert played_by_bot(now, player)

    state = next_match(state, each=refused_between_deals)
    assert state.game_state is not None and state.game_state.match == 2
    assert played_by_bot(state, player)  # until the system gives it back
    assert table.decide(state, 0, ReturnSeat(seat=player)) == (SeatReturned(seat=player),)
    state = _fold(state, 0, ReturnSeat(seat=player))
    assert _presence(state)[player - 1] == "here" and not played_by_bot(state, player)
    assert _reject(state, 0, ReturnSeat(seat=player)).code == "not_returning"


def test_a_replaced_player_who_is_not_connected_as_the_next_match_starts_stays_out() -> None:
    """PF-BOT-5: the seat goes back only to a connected player, and only before the new
    match's first deal is committed; one who connects later waits for the match after."""
    state = _fold(series_table(), 0, Disconnect(seat=3))
    state = _fold(state, 0, ReplaceWithBot(seat=3))
    state = next_match(state)
    err = _reject(state, 0, ReturnSeat(seat=3))
    assert (err.code, err.rule_id) == ("not_returning", "PF-BOT-5")
    state = _fold(state, 0, CommitSeed(secret=_SECRET))
    state = _fold(state, 0, Reconnect(seat=3))
    assert _reject(state, 0, ReturnSeat(seat=3)).code == "match_in_progress"
    # A watcher who drops is the bot's alone again.
    state = _fold(state, 0, Disconnect(seat=3))
    assert _presence(state)[2] == "bot"


def test_presence_never_outlives_the_table() -> None:
    state = _dealt()
    state = _fold(state, 0, Disconnect(seat=1))
    open_table = _fold(
        table.new_table("o"),
        0,
        CreateTable(options=options_from("sahrat"), seats=("human",) * 4),
    )
    assert _reject(open_table, 0, Disconnect(seat=1)).code == "not_a_player_seat"
    seated = _fold(open_table, 0, TakeSeat(seat=1, player="A"))
    assert _presence(_fold(seated, 0, Disconnect(seat=1)))[0] == "away"  # before the start
    assert _reject(seated, 1, Leave()).code == "not_playing"
    assert _reject(seated, 0, ReplaceWithBot(seat=1)).code == "not_playing"


def _seeded_classic() -> TableState:
    """A `classic` table of four players waiting for the host's cut (BK-DEAL-C1)."""
    seats = ("human",) * 4
    options = options_from("classic")
    state = _fold(table.new_table("c"), 0, CreateTable(options=options, seats=seats))  # type: ignore[arg-type]
    for seat in range(1, 5):
        state = _fold(state, 0, TakeSeat(seat=seat, player=f"P{seat}"))
    state = _fold(state, 0, StartTable())
    return _fold(state, 0, CommitSeed(secret=_SECRET))


def test_the_host_role_passes_to_the_lowest_remaining_human_pf_room_6() -> None:
    state = _seeded_classic()
    assert state.host == 1
    assert table.decide(state, 1, Leave()) == (
        SeatReplacedByBot(seat=1, reason="left"),
        HostPassed(seat=2),
    )
    state = _fold(state, 1, Leave())
    assert state.host == 2
    assert table.decide(state, 4, Leave()) == (SeatReplacedByBot(seat=4, reason="left"),)
    state = _fold(state, 4, Leave())
    state = _fold(state, 0, Disconnect(seat=3))  # away, not gone: he may still come back
    state = _fold(state, 2, Leave())
    assert state.host == 3
    state = _fold(state, 0, ReplaceWithBot(seat=3))  # the last player is gone: none to pass to
    assert state.host == 3
    assert state.game_state is not None and state.game_state.host == 1  # the cut's count


def test_a_host_who_leaves_a_coin_table_passes_the_role_too_pf_room_6() -> None:
    state = _dealt("coin", ("human", "human", "human", "human"))
    assert table.decide(state, 1, Leave()) == (SeatDisconnected(seat=1), HostPassed(seat=2))


def test_the_cut_a_departed_host_owed_is_made_by_the_system_pf_room_6_pf_cut_3() -> None:
    state = _fold(_seeded_classic(), 1, Leave())
    assert bot_move(state, 9) is None  # PF-AMB-12 h: the seats' seed window runs first
    state = _fold(state, 0, CloseSeedWindow())
    move = bot_move(state, 9)
    assert move == Move(seat=0, command=Cut(), command_id="auto:cut:1")
    events = table.decide(state, move.seat, move.command)
    cut = events[0]
    assert isinstance(cut, DeckCut) and cut.automatic
    game = state.game_state
    assert game is not None and game.secret is not None
    assert cut.position == fair.auto_cut(bytes.fromhex(game.secret), fair.entropy([""] * 4))
    # PF-CUT-5: counted from the seat that was host when the deal was committed.
    assert cut.starter == fair.cut_starter(1, fair.cut_count(cut.cut_card), 4)
