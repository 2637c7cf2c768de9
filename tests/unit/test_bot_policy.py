"""Who a bot plays for and what it sends (PF-BOT-2, PF-BOT-4, PF-TIMER-6), when a player's
seat is given back, and that a bot-played seat is not waited for with its client seed."""

from __future__ import annotations

from engine import table
from engine.banakil import options_from
from engine.banakil.messages import CommitSeed, Deal, Discard, SendClientSeed, Timeout
from engine.table import (
    CreateTable,
    Leave,
    Reconnect,
    ReturnSeat,
    StartTable,
    TableState,
    TakeSeat,
)
from services.tables.bot_policy import bot_move, bot_to_act, return_move
from services.tables.followups import next_follow_up, seeds_complete
from tests.unit.series_support import fold, next_match, series_table

_SECRET = "2a" * 32


def _fold(state: TableState, seat: int, command: object) -> TableState:
    for event in table.decide(state, seat, command):
        state = table.evolve(state, event)
    return state


def _table(seats: tuple[str, ...] = ("human", "bot", "human", "bot")) -> TableState:
    options = options_from("sahrat")
    state = _fold(table.new_table("p"), 0, CreateTable(options=options, seats=seats))  # type: ignore[arg-type]
    for seat, kind in enumerate(seats, start=1):
        if kind == "human":
            state = _fold(state, 0, TakeSeat(seat=seat, player=f"P{seat}"))
    state = _fold(state, 0, StartTable())
    return _fold(state, 0, CommitSeed(secret=_SECRET))


def _dealt(seats: tuple[str, ...] = ("human", "bot", "human", "bot")) -> TableState:
    return _fold(_table(seats), 0, Deal())


def test_a_bot_plays_a_bot_seat_and_a_replaced_seat_never_a_players_pf_bot_2() -> None:
    state = _dealt(("human",) * 4)
    game = state.game_state
    assert game is not None
    mover = game.turn
    assert bot_to_act(state) is None and bot_move(state, 9) is None
    state = _fold(state, mover, Leave())
    assert bot_to_act(state) == mover
    move = bot_move(state, 9)
    assert move is not None and move.seat == mover and move.command_id == "auto:9"
    assert game == state.game_state
    table.decide(state, mover, move.command)  # PF-BOT-4: legal (raises otherwise)
    assert bot_move(state, 9) == move  # the same table and version: the same move


def test_in_the_discard_window_a_bot_only_discards_pf_timer_6() -> None:
    state = _dealt(("human",) * 4)
    game = state.game_state
    assert game is not None
    mover = game.turn
    state = _fold(state, 0, Timeout(deal=game.deal, turn=game.turn_no))
    state = _fold(state, mover, Leave())
    assert state.game_state is not None and state.game_state.window
    move = bot_move(state, 12)
    assert move is not None and isinstance(move.command, Discard)


def test_a_replaced_player_gets_his_seat_back_only_as_the_next_match_starts_pf_bot_5() -> None:
    """PF-BOT-5: no ReturnSeat during the match, between its turns or its deals; the system
    issues it (before the next match's first commitment) for a player who is connected."""
    state = series_table()
    game = state.game_state
    assert game is not None
    other = game.turn % 4 + 1  # not the seat in turn: no boundary makes a difference now
    state = fold(fold(state, other, Leave()), 0, Reconnect(seat=other))
    assert return_move(state, 7) is None

    def none_between_deals(now: TableState) -> None:
        assert return_move(now, 8) is None
        follow = next_follow_up(now, 8, None, lambda: bytes(32))
        assert follow is not None and isinstance(follow.command, CommitSeed)

    state = next_match(state, each=none_between_deals)
    back = return_move(state, 9)
    assert back is not None and back.seat == 0 and back.command == ReturnSeat(seat=other)
    follow = next_follow_up(state, 9, None, lambda: bytes(32))
    assert follow is not None and follow.command == ReturnSeat(seat=other)  # before the seed
    assert return_move(fold(state, 0, ReturnSeat(seat=other)), 10) is None


def test_a_seat_a_bot_plays_is_not_waited_for_with_a_client_seed_pf_amb_12() -> None:
    """PF-AMB-12 h: bots send no client seed, so a deal waits only for the players."""
    state = _table()
    assert not seeds_complete(state)  # seats 1 and 3 may still send theirs
    state = _fold(state, 1, SendClientSeed(seed="one"))
    assert not seeds_complete(state)
    state = _fold(state, 3, Leave())  # a bot has seat 3 now: nothing more to wait for
    assert seeds_complete(state)
