"""A table: who sits where, and the game played there (PF-ROOM, PF-SEAT).

The table is the aggregate behind one event stream. Its own commands create the table,
seat players and start play; every other command goes to the game's decider. Folding a
table's stream from its first event rebuilds everything: seats, options and the game.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec
from msgspec.structs import replace

from engine import banakil
from engine.banakil.messages import Command as GameCommand
from engine.banakil.messages import Event as GameEvent
from engine.banakil.options import BanakilOptions
from engine.errors import RuleViolation

__all__ = [
    "AnyCommand",
    "AnyEvent",
    "CreateTable",
    "SeatInfo",
    "SeatTaken",
    "StartTable",
    "TableCreated",
    "TableStarted",
    "TableState",
    "TakeSeat",
    "decide",
    "evolve",
    "new_table",
]

SeatKind = Literal["human", "bot"]


class _Cmd(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class _Evt(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class CreateTable(_Cmd, frozen=True):
    """PF-ROOM-2: the host picks the game and its options; seats are human or bot."""

    options: BanakilOptions
    seats: tuple[SeatKind, ...]
    game: Literal["banakil"] = "banakil"


class TakeSeat(_Cmd, frozen=True):
    seat: int
    player: str


class StartTable(_Cmd, frozen=True):
    """The host starts play once every human seat is taken (PF-ROOM-4: options freeze)."""


class TableCreated(_Evt, frozen=True):
    table_id: str
    game: str
    options: BanakilOptions
    seats: tuple[SeatKind, ...]
    host: int = 1


class SeatTaken(_Evt, frozen=True):
    seat: int
    player: str


class TableStarted(_Evt, frozen=True):
    pass


class SeatInfo(msgspec.Struct, frozen=True, kw_only=True):
    kind: SeatKind
    player: str | None = None


class TableState(msgspec.Struct, frozen=True, kw_only=True):
    table_id: str
    status: Literal["new", "open", "playing", "finished"] = "new"
    game: str = "banakil"
    host: int = 1
    seats: tuple[SeatInfo, ...] = ()
    game_state: banakil.State | None = None


AnyCommand = CreateTable | TakeSeat | StartTable | GameCommand
AnyEvent = TableCreated | SeatTaken | TableStarted | GameEvent
_TABLE_EVENTS = (TableCreated, SeatTaken, TableStarted)


def new_table(table_id: str) -> TableState:
    return TableState(table_id=table_id)


def decide(state: TableState, seat: int, command: Any) -> tuple[AnyEvent, ...]:
    """Seat 0 is the system (and the lobby acting for a joining player)."""
    match command:
        case CreateTable(game=game, options=options, seats=seats):
            if state.status != "new":
                raise RuleViolation("table_exists", "PF-ROOM-1", "this table already exists")
            banakil.options.validate(options)
            if len(seats) != options.seats:
                raise RuleViolation(
                    "bad_seats",
                    "PF-ROOM-5",
                    f"this game and mode need {options.seats} seats, not {len(seats)}",
                )
            if "bot" in seats and not (options.bots_allowed and options.table_kind == "free"):
                raise RuleViolation("no_bots_here", "PF-BOT-1", "bots play only at free tables")
            if "human" not in seats:
                raise RuleViolation("no_humans", "PF-ROOM-1", "a table needs a human host")
            host = seats.index("human") + 1
            return (
                TableCreated(
                    table_id=state.table_id, game=game, options=options, seats=seats, host=host
                ),
            )
        case TakeSeat(seat=target, player=player):
            if state.status != "open":
                raise RuleViolation("table_not_open", "PF-ROOM-4", "seats are taken before play")
            if not 1 <= target <= len(state.seats):
                raise RuleViolation("bad_seat", "PF-ROOM-5", f"there is no seat {target}")
            info = state.seats[target - 1]
            if info.kind != "human" or info.player is not None:
                raise RuleViolation("seat_taken", "PF-ROOM-5", f"seat {target} is not free")
            if not player or len(player) > 64:
                raise RuleViolation("bad_player", "", "a player name has 1 to 64 characters")
            return (SeatTaken(seat=target, player=player),)
        case StartTable():
            if state.status != "open":
                raise RuleViolation("table_not_open", "PF-ROOM-4", "the table is not waiting")
            if seat not in (0, state.host):
                raise RuleViolation("not_host", "PF-ROOM-1", "only the host starts the table")
            empty = [i + 1 for i, s in enumerate(state.seats) if s.kind == "human" and not s.player]
            if empty:
                raise RuleViolation("seats_empty", "PF-ROOM-5", f"seats {empty} are still free")
            return (TableStarted(),)
    if state.status != "playing" or state.game_state is None:
        raise RuleViolation("not_playing", "PF-ROOM-4", "the table is not in play")
    return banakil.decide(state.game_state, seat, command)


def evolve(state: TableState, event: AnyEvent) -> TableState:
    if not isinstance(event, _TABLE_EVENTS):
        assert state.game_state is not None
        game_state = banakil.evolve(state.game_state, event)
        status = "finished" if game_state.phase == "over" else state.status
        return replace(state, game_state=game_state, status=status)
    match event:
        case TableCreated(game=game, options=options, seats=seats, host=host):
            return replace(
                state,
                status="open",
                game=game,
                host=host,
                seats=tuple(SeatInfo(kind=k) for k in seats),
                game_state=banakil.initial(options, host),
            )
        case SeatTaken(seat=seat, player=player):
            infos = list(state.seats)
            infos[seat - 1] = replace(infos[seat - 1], player=player)
            return replace(state, seats=tuple(infos))
        case TableStarted():
            return replace(state, status="playing")
    raise AssertionError(f"unknown event {event!r}")  # pragma: no cover
