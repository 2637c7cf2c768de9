"""What a bot plays now at a table, and when a replaced player gets his seat back.

A seat is played by a bot when it was made a bot seat, or when a bot took it over from a
player (`engine.table.played_by_bot`: away too long, or left). The move comes from the
Banakil bot (`engine.banakil.bot.choose`, which sees only the seat's view); a move the
engine would refuse (a disagreement between the bot's scratch copy of the rules and the
engine, or a meld in the discard-only window) is replaced by the bot's fallback, which is
always legal. So a bot only ever sends legal moves (PF-BOT-4).

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

import logging

import msgspec

from engine import banakil
from engine.banakil import bot
from engine.banakil.decide import needs_cut
from engine.banakil.messages import Command, Cut, Discard
from engine.banakil.state import State
from engine.errors import RuleViolation
from engine.table import AnyCommand, ReturnSeat, TableState, match_starts, played_by_bot

__all__ = [
    "SYSTEM",
    "Move",
    "bot_command",
    "bot_move",
    "bot_to_act",
    "cut_command_id",
    "return_move",
]

SYSTEM = 0
_log = logging.getLogger(__name__)


class Move(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    command: AnyCommand
    command_id: str


def bot_to_act(state: TableState) -> int | None:
    """The seat of the bot that must act now (a turn, or the cut its seat's player owed as
    host), if any."""
    game = state.game_state
    if state.status != "playing" or game is None:
        return None
    if (
        game.phase == "seeded"
        and needs_cut(game)
        and not game.seed_window  # PF-AMB-12 h: the seeds first, then the cut
        and played_by_bot(state, game.host)
    ):
        return game.host
    if game.phase == "play" and played_by_bot(state, game.turn):
        return game.turn
    return None


def bot_move(state: TableState, version: int) -> Move | None:
    """The move of the bot that must act now at this table, or None (no bot must act)."""
    seat = bot_to_act(state)
    game = state.game_state
    if seat is None or game is None:
        return None
    if game.phase == "seeded":  # PF-ROOM-6, PF-CUT-3: the system's cut, as the timer's
        return Move(seat=SYSTEM, command=Cut(), command_id=cut_command_id(game.deal))
    command_id = f"auto:{version}"
    return Move(seat=seat, command=bot_command(game, seat), command_id=command_id)


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


def bot_command(game: State, seat: int) -> Command:
    """The bot's command for `seat` on its turn: `bot.choose` on the seat's view, checked
    with the engine; the bot's always-legal fallback when the engine would refuse it."""
    view = banakil.view(game, seat)
    command = bot.choose(view, game.options)
    if game.window and not isinstance(command, Discard):
        command = bot.fallback(view)  # PF-TIMER-6: only a discard in the window
    try:
        banakil.decide(game, seat, command)
    except RuleViolation as exc:
        _log.warning("bot at seat %d: %s refused (%s); playing the fallback", seat, command, exc)
        command = bot.fallback(view)
    return command
