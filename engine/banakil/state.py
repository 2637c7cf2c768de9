"""The state of a Banakil table: the match (and series) with its current deal.

One flat frozen Struct so that `evolve` is a single `replace`. Hands are tuples by seat
(index 0 = seat 1); the stock is top first; the ground is bottom first, so its top is
`ground[-1]` and a discard is an append.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.banakil.messages import DealScored, Placed
from engine.banakil.options import BanakilOptions

__all__ = ["Phase", "State", "TableMeld", "team_of", "teams"]

Phase = Literal["seeding", "seeded", "play", "over"]


class TableMeld(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    team: int
    creator: int
    kind: Literal["run", "set"]
    cards: tuple[Placed, ...]  # a run low to high


class State(msgspec.Struct, frozen=True, kw_only=True):
    options: BanakilOptions
    seats: int
    host: int = 1
    # series and match
    match: int = 1
    series_wins: tuple[int, ...] = ()
    series_winner: int | None = None
    totals: tuple[int, ...] = ()  # half-points by team
    tie_break: bool = False  # BK-WIN-C4/C5, BK-WIN-S4
    match_winner: int | None = None
    next_match_starter: int | None = None  # BK-DEAL-C2, BK-DEAL-S4
    deals_in_match: int = 0
    deal: int = 0  # deal counter over the whole table
    prev_starter: int | None = None
    prev_dealer: int | None = None
    # the current deal
    phase: Phase = "seeding"
    secret: str | None = None  # private until SeedRevealed
    commitment: str | None = None
    stacked: tuple[str, ...] | None = None
    stacked_dealer: int | None = None
    stacked_cut: int | None = None
    client_seeds: tuple[str, ...] = ()
    seeds_sent: tuple[bool, ...] = ()  # by seat: its one client seed of the deal is in
    seed_window: bool = False  # client seeds are taken now (PF-AMB-12 h)
    entropy: str = ""
    dealer: int | None = None
    starter: int = 0
    cut_card: str | None = None
    hands: tuple[tuple[str, ...], ...] = ()
    stock: tuple[str, ...] = ()
    ground: tuple[str, ...] = ()
    melds: tuple[TableMeld, ...] = ()
    turn: int = 0
    drawn: bool = False  # the draw step is done (or skipped: BK-DEAL-5)
    first_turn: bool = False  # the starter's first turn of the deal (BK-DEAL-5)
    turn_no: int = 0  # counts the turns of a deal, so a timeout names the turn it is for
    window: bool = False  # the discard-only window after a timeout (PF-TIMER-3..6)
    reshuffles: int = 0
    opened: tuple[bool, ...] = ()  # BK-SCORE-C1
    laid: tuple[bool, ...] = ()  # laid a new meld this deal (BK-TEAM-S1)
    acted: tuple[bool, ...] = ()  # laid or added anything this deal (BK-SCORE-S4)
    turn_clean: bool = False  # the player to act had done nothing on the table before
    turn_partner_touch: bool = False  # ...and has not changed a partner's meld this turn
    end_reason: str | None = None
    finisher: int | None = None
    last_scores: DealScored | None = None


def team_of(state: State, seat: int) -> int:
    """BK-PLAY-1: seats 1+3 are team 1, 2+4 team 2; in 1v1 each seat is its own team."""
    return seat if state.seats == 2 else (seat - 1) % 2 + 1


def teams(state: State) -> int:
    return 2
