"""What the system does next at a table on its own: seed, deal, and play the bot seats.

Pure apart from the secret, which the caller draws. A returned command goes through the
same write path as a player's; its command id is tied to the stream version it was
decided at, so two gateways racing to issue the same follow-up append it only once.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import msgspec

from engine.banakil.autoplay import random_step
from engine.banakil.decide import needs_cut
from engine.banakil.messages import Command, CommitSeed, Deal, StackDeck
from engine.table import TableState

__all__ = ["SYSTEM", "FollowUp", "StackedDeal", "next_follow_up"]

SYSTEM = 0


class StackedDeal(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A table's first deal from an explicit deck (tests and tutorials only)."""

    cards: tuple[str, ...]
    dealer: int | None = None
    cut: int | None = None


class FollowUp(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    command: Command
    command_id: str


def next_follow_up(
    state: TableState,
    version: int,
    stacked: StackedDeal | None,
    secret: Callable[[], bytes],
) -> FollowUp | None:
    """The system's or a bot's command now, or None when a human must act (or nobody)."""
    game = state.game_state
    if state.status != "playing" or game is None or game.phase == "over":
        return None
    command_id = f"auto:{version}"
    if game.phase == "seeding":
        if game.deal == 0 and stacked is not None:
            command: Command = StackDeck(
                cards=stacked.cards, dealer=stacked.dealer, cut=stacked.cut
            )
        else:
            command = CommitSeed(secret=secret().hex())
        return FollowUp(seat=SYSTEM, command=command, command_id=command_id)
    if game.phase == "seeded":
        if needs_cut(game) and state.seats[game.host - 1].kind == "human":
            return None  # BK-DEAL-C1: the host cuts
        if not needs_cut(game):
            return FollowUp(seat=SYSTEM, command=Deal(), command_id=command_id)
    turn = game.turn if game.phase == "play" else game.host
    if not 1 <= turn <= len(state.seats) or state.seats[turn - 1].kind != "bot":
        return None
    # A fresh generator per step, seeded by table and version: a bot's move does not depend
    # on which gateway made it, or on a restart in between.
    rng = random.Random(f"{state.table_id}:{version}")
    seat, command, _ = random_step(game, rng)
    return FollowUp(seat=seat, command=command, command_id=command_id)
