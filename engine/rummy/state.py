"""The state of a rummy table as its events fold it (engine/rummy/evolve.py).

Phases: "seeding" (the round waits for its secret), "seeded" (committed; the seats may send
client seeds until the system deals), "play", "over". `round` counts the rounds dealt; the
platform reads it as the unit's number (`deal`, the name every game's unit has there).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.rummy.options import RummyOptions

__all__ = ["Phase", "RoundResult", "State"]

Phase = Literal["seeding", "seeded", "play", "over"]
Table = tuple[tuple[str, ...], ...]


class RoundResult(msgspec.Struct, frozen=True, kw_only=True):
    """The last round's end, shown until the next is dealt (and after the game ends)."""

    round: int
    how: str
    hands: tuple[tuple[str, ...], ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    game_over: bool
    game_winners: tuple[int, ...]
    final: tuple[int, ...]
    secret: str | None = None  # revealed right after the round's end (PF-FAIR-3)


class State(msgspec.Struct, frozen=True, kw_only=True):
    options: RummyOptions
    host: int = 1
    phase: Phase = "seeding"
    round: int = 0
    # the round's fairness lifecycle (engine/fairness.py folds into these)
    secret: str | None = None
    commitment: str | None = None
    client_seeds: tuple[str, ...] = ()
    seeds_sent: tuple[bool, ...] = ()
    seed_window: bool = False
    # the round
    first: int = 0  # the round's first player
    hands: tuple[tuple[str, ...], ...] = ()
    stock: tuple[str, ...] = ()
    table: Table = ()
    names: tuple[tuple[str, str], ...] = ()  # joker on the table -> the face it stands for
    opened: tuple[bool, ...] = ()  # Vatican: the seat has made its first play (RM-VAT-5)
    # the turn
    turn: int = 0  # the seat to play
    turn_no: int = 0  # counts the round's turns from 1
    drawn: int = 0  # cards drawn this turn (Manipulation draws on; Carousel counts to 3)
    reminded: bool = False  # RM-OPT-1a: the last press was answered with a reminder
    reminder: tuple[str, tuple[int, ...], bool] | None = None  # its hint, for the seat only
    locked: bool = False  # RM-OPT-3b: the seat changed its private table this turn
    passes: int = 0  # consecutive turns ended by a pass (RM-BLOCK-2)
    final_last: int = 0  # Carousel: the seat whose final turn ends the round (RM-CAR-18)
    # the game
    totals: tuple[int, ...] = ()
    rounds_won: tuple[int, ...] = ()  # Carousel's 25 a round won (RM-CAR-21)
    result: RoundResult | None = None

    @property
    def deal(self) -> int:
        """The unit's number, as the platform names it for every game."""
        return self.round

    @property
    def seats(self) -> int:
        return self.options.seats
