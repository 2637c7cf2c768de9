"""The state of a Bunco evening as its events fold it (engine/bunco/evolve.py).

Phases: "seeding" (the round waits for its secret), "seeded" (committed; the seats may send
client seeds until the system starts the round), "play" (the tables roll; after the bell,
only the tied tables' roll-offs), "over" (the last round ended). `round` counts the rounds
started; the platform reads it as the unit's number (`deal`). Tallies are kept per place:
the players' seats 1..N, then the ghost's place (BU-AMB-1).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.bunco.options import BuncoOptions

__all__ = ["Evening", "Phase", "PlayTable", "RoundResult", "State"]

Phase = Literal["seeding", "seeded", "play", "over"]
Seating = tuple[tuple[int, ...], ...]


class PlayTable(msgspec.Struct, frozen=True, kw_only=True):
    """One play table in the round: its places by table seat 1..4, the two teams' points
    (team 1: seats 1 + 3), the table seat who rolls next, its rolls so far, the last dice,
    and after the bell its roll-off (this pass's (team, points) in order) and winner."""

    seats: tuple[int, ...]
    scores: tuple[int, int] = (0, 0)
    roller: int = 1  # BU-ROLL-2: seat 1 rolls first
    rolls: int = 0
    last: tuple[int, ...] = ()
    rolloff: bool = False
    passes: tuple[tuple[int, int], ...] = ()
    winner: int = 0


class RoundResult(msgspec.Struct, frozen=True, kw_only=True):
    """The last round's end, shown until the next round starts (and after the evening)."""

    round: int
    target: int
    scores: tuple[tuple[int, int], ...]
    winners: tuple[int, ...]
    tables: Seating  # the seating the round was played in
    secret: str | None = None  # revealed right after the round's end (PF-FAIR-3)


class Evening(msgspec.Struct, frozen=True, kw_only=True):
    winners: tuple[int, ...]
    most_buncos: tuple[int, ...]


class State(msgspec.Struct, frozen=True, kw_only=True):
    options: BuncoOptions
    host: int = 1
    phase: Phase = "seeding"
    round: int = 0
    # the round's fairness lifecycle (engine/fairness.py folds into these)
    secret: str | None = None
    commitment: str | None = None
    client_seeds: tuple[str, ...] = ()
    seeds_sent: tuple[bool, ...] = ()
    seed_window: bool = False
    entropy: str = ""  # E of the round being played (PF-AMB-12 h), fixed at its start
    # the seating
    seating: Seating = ()  # the next round's: the host's (round 1) or the movement's
    assigned: bool = False  # BU-SET-7: the host seated round 1
    order: tuple[int, ...] = ()  # BU-AMB-9: P1..P4, the head table's first-round seats
    # the round
    target: int = 0
    tables: tuple[PlayTable, ...] = ()
    rolls: int = 0  # the round's rolls in log order: roll k reads dice 3k..3k+2
    last_table: int = 0  # the table that rolled last (BU-AMB-4's turn of the tables)
    bell: int = 0  # the head table's team that rang the bell (0: not yet)
    rolled: bool = False  # a roll was made this evening (BU-OPT-3, BU-SET-7)
    # the tally sheets, per place (BU-TALLY-1/2)
    wins: tuple[int, ...] = ()
    losses: tuple[int, ...] = ()
    buncos: tuple[int, ...] = ()
    wipeouts: tuple[int, ...] = ()
    result: RoundResult | None = None
    evening: Evening | None = None

    @property
    def deal(self) -> int:
        """The unit's number, as the platform names it for every game."""
        return self.round

    @property
    def seats(self) -> int:
        return self.options.players
