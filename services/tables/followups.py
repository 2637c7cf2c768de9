"""What the system does next at a table on its own: seed, close the seed window, deal, give
a seat back.

Pure apart from the secret, which the caller draws. A returned command goes through the
same write path as a player's; its command id is tied to the stream version it was
decided at, so two gateways racing to issue the same follow-up append it only once.

The bots do not move here: the bots worker plays them (`services/bots/`), through the
same write path, so that their thinking (several milliseconds a move) never holds up a
gateway's sockets. A replaced player who is connected gets his seat back here, as the
next match of a series starts (PF-BOT-5).

Before a deal the seats have a window for their client seeds (PF-AMB-12 h). It closes when
every human seat has sent one, or when its time runs out (the timer of `seeds.py`): then
the deal is dealt or, when the host cuts it (BK-DEAL-C1), the window is closed by its own
event and only then may the host cut (his 15 s count from there, PF-CUT-2).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from engine.fairness import CloseSeedWindow
from engine.table import AnyCommand, TableState, played_by_bot
from services.tables.bot_policy import cut_command_id, return_move
from services.tables.games import awaits_cut, game_of, system_command

__all__ = [
    "SYSTEM",
    "FollowUp",
    "StackedDeal",
    "close_command_id",
    "cut_command_id",
    "deal_command_id",
    "next_follow_up",
    "seeds_complete",
    "window_may_close",
]

SYSTEM = 0


class StackedDeal(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A table's first deal from an explicit deck (tests and tutorials only)."""

    cards: tuple[str, ...]
    dealer: int | None = None
    cut: int | None = None


class FollowUp(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    command: AnyCommand
    command_id: str


def deal_command_id(deal: int) -> str:
    """The id of the system's Deal of `deal`, whoever issues it (a follow-up once every
    seed is in, or the timer when the seed window closes): it is appended once."""
    return f"auto:deal:{deal}"


def close_command_id(deal: int) -> str:
    """The id of the system's CloseSeedWindow of `deal` (a follow-up once every seed is in,
    or the timer when the window's time is up): it is appended once."""
    return f"auto:close:{deal}"


def seeds_complete(state: TableState) -> bool:
    """Every human seat has sent its client seed for the seeded deal (PF-AMB-12 h; one per
    seat, an empty one too: the seat has nothing more to send). A player's seat that a bot
    plays now sends none, like a bot seat (no wait for it)."""
    game = state.game_state
    assert game is not None
    sent = game_of(state).unit.lifecycle(game).seeds_sent or (False,) * len(state.seats)
    return all(
        sent[seat - 1] for seat in range(1, len(state.seats) + 1) if not played_by_bot(state, seat)
    )


def window_may_close(state: TableState, seed_window: float) -> bool:
    """The seeded deal's client seed window has nothing more to wait for: no window at all
    (0 s), no secret to mix seeds into, or every human seat's seed is in."""
    game = state.game_state
    assert game is not None
    secret = game_of(state).unit.lifecycle(game).secret
    return seed_window <= 0 or secret is None or seeds_complete(state)


def next_follow_up(
    state: TableState,
    version: int,
    stacked: StackedDeal | None,
    secret: Callable[[], bytes],
    seed_window: float = 0.0,
    reveal: float = 0.0,
) -> FollowUp | None:
    """The system's command now, or None when a seat (a player, or a bot) must act.

    With a `seed_window` (seconds) a seeded deal is dealt here only once every human seat
    has sent its client seed; until then None, and the caller's timer deals when the
    window closes. A stacked deck is dealt at once: client seeds do not change it. With a
    `reveal` pause (PF-REVEAL-3), a deal that follows another is always dealt by the timer,
    once the table has shown the hands of the deal before for that long."""
    game = state.game_state
    if state.status != "playing" or game is None or game.phase == "over":
        return None
    command_id = f"auto:{version}"
    back = return_move(state, version)
    if back is not None:
        return FollowUp(seat=back.seat, command=back.command, command_id=back.command_id)
    rules = game_of(state)
    life = rules.unit.lifecycle(game)  # the table's fairness lifecycle (engine/fairness.py)
    if rules.unit.needs_secret(game):
        if stacked is not None and life.unit == 0:  # only a game that stacks has one
            command: Any = system_command(
                rules, "StackDeck", cards=stacked.cards, dealer=stacked.dealer, cut=stacked.cut
            )
        else:
            command = rules.unit.commit(secret().hex())
        return FollowUp(seat=SYSTEM, command=command, command_id=command_id)
    if life.committed:
        if awaits_cut(rules, game):
            if life.window and window_may_close(state, seed_window):
                close = CloseSeedWindow()
                return FollowUp(seat=SYSTEM, command=close, command_id=close_command_id(life.unit))
            return None  # BK-DEAL-C1: the window's timer, then the host cuts (or PF-CUT-3)
        if reveal > 0 and life.unit > 1:
            return None  # PF-REVEAL-1/3: the end-of-deal screen is up; the timer deals
        if window_may_close(state, seed_window):
            deal = system_command(rules, "Deal")
            return FollowUp(seat=SYSTEM, command=deal, command_id=deal_command_id(life.unit))
        return None  # the client seed window is open
    return None  # a seat must act: a player, or a bot (the bots worker)
