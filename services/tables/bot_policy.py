"""What a bot plays now at a table, and when a replaced player gets his seat back.

A seat is played by a bot when it was made a bot seat, or when a bot took it over from a
player (`engine.table.played_by_bot`: away too long, or left). The move comes from the
table's game (`Game.bot`, reached through the registry): the game's bot sees only the
seat's view, and the game checks its choice with its own rules and replaces a move they
would refuse by one they accept. So a bot only ever sends legal moves (PF-BOT-4).

Pure and deterministic: a move depends only on the table and its version, never on which
worker asks or when, so two workers driving the same table send the same command under
the same id `auto:<version>` and the store keeps one. A host's seat that a bot plays does
not cut as a player: its player has left, so the system cuts at the position drawn from
the committed secret (PF-ROOM-6, PF-CUT-3), under the id the cut timer uses, once the
seats' client seed window has closed (PF-AMB-12 h).

A bot that took a player's seat completes the match; its player, if he is connected then,
gets the seat back as the next match of the series starts (PF-BOT-5).
"""

from __future__ import annotations

import msgspec

from engine.table import AnyCommand, ReturnSeat, TableState, match_starts, played_by_bot
from services.tables.games import game_of

__all__ = [
    "SYSTEM",
    "Move",
    "bot_move",
    "bot_to_act",
    "cut_command_id",
    "return_move",
]

SYSTEM = 0


class Move(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    command: AnyCommand
    command_id: str


def bot_to_act(state: TableState) -> int | None:
    """The seat of the bot that must act now (a turn, or the cut its seat's player owed as
    host), if any: a seat the game waits on that a bot plays."""
    game = state.game_state
    if state.status != "playing" or game is None:
        return None
    for seat in game_of(state).awaiting(game):
        if played_by_bot(state, seat):
            return seat
    return None


def bot_move(state: TableState, version: int) -> Move | None:
    """The move of the bot that must act now at this table, or None (no bot must act)."""
    seat = bot_to_act(state)
    game = state.game_state
    if seat is None or game is None:
        return None
    sender, command = game_of(state).bot(game, seat)
    if sender == SYSTEM:  # PF-ROOM-6, PF-CUT-3: the system acts for the seat, as its timer
        return Move(seat=SYSTEM, command=command, command_id=cut_command_id(game.deal))
    return Move(seat=sender, command=command, command_id=f"auto:{version}")


def cut_command_id(deal: int) -> str:
    """The id of the system's cut of `deal` (PF-CUT-3), whoever issues it: the host's timer
    in a gateway, or a bots worker for a host who left (PF-ROOM-6). It is appended once."""
    return f"auto:cut:{deal}"


def return_move(state: TableState, version: int) -> Move | None:
    """The system's ReturnSeat for a replaced player who is connected ("returning") as the
    next match of the series starts, before its first deal is committed (PF-BOT-5); else
    None: the bot completes the match it took the seat in."""
    if not match_starts(state):
        return None
    for seat, info in enumerate(state.seats, start=1):
        if info.presence == "returning":
            return Move(seat=SYSTEM, command=ReturnSeat(seat=seat), command_id=f"auto:{version}")
    return None
