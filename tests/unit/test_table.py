"""The table aggregate: host, seats, start, and handing commands to the game (PF-ROOM,
PF-SEAT)."""

from __future__ import annotations

import pytest

from engine import table
from engine.banakil import options_from
from engine.banakil.messages import CommitSeed, Draw
from engine.errors import RuleViolation
from engine.table import CreateTable, StartTable, TableState, TakeSeat


def _fold(state: TableState, seat: int, command: object) -> TableState:
    for event in table.decide(state, seat, command):
        state = table.evolve(state, event)
    return state


def _open(seats: tuple[str, ...] = ("human",) * 4, preset: str = "classic") -> TableState:
    create = CreateTable(options=options_from(preset), seats=seats)  # type: ignore[arg-type]
    return _fold(table.new_table("t1"), 0, create)


def _reject(state: TableState, seat: int, command: object) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        table.decide(state, seat, command)
    return info.value


def test_the_creator_in_the_first_human_seat_is_the_host_pf_room_1() -> None:
    """PF-ROOM-1, PF-ROOM-2: the host chooses the game and its rules at creation."""
    state = _open(("bot", "human", "bot", "human"), "sahrat")
    assert state.host == 2
    assert state.status == "open"
    assert state.game_state is not None
    assert state.game_state.options.ruleset == "sahrat"


def test_a_table_needs_the_seats_of_its_mode_pf_room_5() -> None:
    """PF-ROOM-5: Banakil 4 seats, sahrat 1v1 2 seats."""
    err = _reject(
        table.new_table("t"), 0, CreateTable(options=options_from("classic"), seats=("human",) * 2)
    )
    assert (err.code, err.rule_id) == ("bad_seats", "PF-ROOM-5")
    one = options_from("sahrat", mode="one_vs_one")
    state = _fold(table.new_table("t"), 0, CreateTable(options=one, seats=("human", "bot")))
    assert len(state.seats) == 2


def test_bots_sit_only_at_free_tables_pf_bot_1() -> None:
    coin = options_from("sahrat", table_kind="coin")
    err = _reject(table.new_table("t"), 0, CreateTable(options=coin, seats=("human", "bot") * 2))
    assert (err.code, err.rule_id) == ("no_bots_here", "PF-BOT-1")


def test_a_seat_is_taken_once_and_only_before_play_pf_seat_1() -> None:
    """PF-SEAT-1: seats are numbered from 1; a taken seat cannot be taken again."""
    state = _fold(_open(), 0, TakeSeat(seat=1, player="Salma"))
    assert state.seats[0].player == "Salma"
    assert _reject(state, 0, TakeSeat(seat=1, player="Omar")).code == "seat_taken"
    assert _reject(state, 0, TakeSeat(seat=5, player="Omar")).code == "bad_seat"


def test_only_the_host_starts_and_only_when_every_human_seat_is_taken_pf_room_4() -> None:
    """PF-ROOM-4: options are fixed once play starts; nothing is dealt before."""
    state = _open()
    for seat, name in enumerate(["a", "b", "c"], start=1):
        state = _fold(state, 0, TakeSeat(seat=seat, player=name))
    assert _reject(state, 1, StartTable()).code == "seats_empty"
    state = _fold(state, 0, TakeSeat(seat=4, player="d"))
    assert _reject(state, 2, StartTable()).code == "not_host"
    state = _fold(state, 1, StartTable())
    assert state.status == "playing"
    assert _reject(state, 0, TakeSeat(seat=1, player="x")).code == "table_not_open"


def test_game_commands_wait_until_the_table_plays_and_then_go_to_the_game() -> None:
    state = _open()
    assert _reject(state, 0, CommitSeed(secret="00" * 32)).code == "not_playing"
    for seat in range(1, 5):
        state = _fold(state, 0, TakeSeat(seat=seat, player=f"p{seat}"))
    state = _fold(state, 1, StartTable())
    state = _fold(state, 0, CommitSeed(secret="00" * 32))
    assert state.game_state is not None and state.game_state.phase == "seeded"
    assert _reject(state, 1, Draw()).code == "wrong_phase"
