"""The commands and events of a Bunco evening (rules/bunco.md), tagged for strict decoding.

A player's only action is `Roll` (BU-ROLL-1): on his own turn, on the ghost's turn when
he is its partner (BU-SIZE-3), and in a roll-off (BU-END-5). The system starts each round
(`Deal`, the name every game's round start has for the services) and rolls for a player
whose time ran out (`Timeout`, PF-TIMER-8); the host may seat the players himself before
the first roll (`AssignSeats`, BU-SET-7). The fairness lifecycle's messages are the
table's own (engine/fairness.py).

Places: the players are the platform's seats 1..N; with 3, 7 or 11 players the ghost is
place N + 1 (BU-AMB-1), never a seat. A play table lists its places by table seat 1..4;
tables are numbered 1 (head), 2 (middle, or low with 8 players), 3 (low). Team 1 is table
seats 1 + 3, team 2 seats 2 + 4 (BU-SET-2, BU-AMB-3).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from engine.fairness import ClientSeedSent, CommitSeed, SeedCommitted, SeedRevealed, SendClientSeed

__all__ = [
    "AssignSeats",
    "BellRang",
    "ClientSeedSent",
    "Command",
    "CommitSeed",
    "Deal",
    "DiceRolled",
    "EveningEnded",
    "Event",
    "Kind",
    "Roll",
    "RollOffRolled",
    "RoundEnded",
    "RoundStarted",
    "SeatsAssigned",
    "SeedCommitted",
    "SeedRevealed",
    "SendClientSeed",
    "Timeout",
]

_Place = Annotated[int, msgspec.Meta(ge=1, le=12)]
_Seating = Annotated[
    tuple[Annotated[tuple[_Place, ...], msgspec.Meta(max_length=4)], ...],
    msgspec.Meta(max_length=3),
]
Seating = tuple[tuple[int, ...], ...]
# What a roll made: a Bunco (21), a triple of another number (5), target dice (0-2 points,
# "nothing" for none), or a wipeout (BU-OPT-1: the team's points back to 0).
Kind = Literal["bunco", "triple", "target", "nothing", "wipeout"]


class _Cmd(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class _Evt(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


# --- commands ---------------------------------------------------------------------------


class Deal(_Cmd, frozen=True):
    """System: the seats' client seeds are in; seat the players (round 1: the fair draw,
    BU-SET-7) and start the round."""


class Roll(_Cmd, frozen=True):
    """Roll the three dice of the table where it is the sender's turn (or his ghost's)."""


class AssignSeats(_Cmd, frozen=True):
    """The host seats every place himself, before the first roll (BU-SET-7, BU-AMB-2):
    `tables` lists each play table's places by table seat, head table first."""

    tables: _Seating


class Timeout(_Cmd, frozen=True):
    """System (the clock): roll `roll` of table `table` in round `round` was not made in
    time; the system rolls for the awaited player (PF-TIMER-8, BU-AMB-13)."""

    round: int
    table: int
    roll: int


Command = CommitSeed | SendClientSeed | Deal | Roll | AssignSeats | Timeout


# --- events -----------------------------------------------------------------------------


class SeatsAssigned(_Evt, frozen=True):
    """The host's seating of round 1 (BU-SET-7); it replaces the fair draw."""

    tables: Seating


class RoundStarted(_Evt, frozen=True):
    """Round `round` with target `target` starts at every play table, seated as `tables`
    (`drawn`: round 1's seating drawn from the secret under "first", PF-FAIR-6)."""

    round: int
    target: int
    tables: Seating
    drawn: bool = False


class DiceRolled(_Evt, frozen=True):
    """Roll `roll` of table `table`: `player` (a place: the ghost's number on its turn) was
    rolled for by seat `seat` (his partner, when `ghost`; the system's timeout, when
    `auto`). `points` for the team, `scores` the table's two team scores after it, `next`
    the table seat who rolls next (the same one after a scoring roll, BU-ROLL-3/4)."""

    round: int
    table: int
    roll: int
    player: int
    seat: int
    dice: tuple[int, int, int]
    kind: Kind
    points: int
    scores: tuple[int, int]
    next: int
    ghost: bool = False
    auto: bool = False


class BellRang(_Evt, frozen=True):
    """The head table's `team` reached 21 (BU-END-1): every table stops after this roll
    (BU-END-2). `scores` are every table's as the bell is logged; `ties` the tables that
    roll off (BU-END-5)."""

    round: int
    team: int
    scores: tuple[tuple[int, int], ...]
    ties: tuple[int, ...] = ()


class RollOffRolled(_Evt, frozen=True):
    """A roll-off roll at a tied table (BU-END-5, BU-AMB-6): `team`'s roll, scored but not
    added to the round's points, its Bunco not tallied. `winner` (1 or 2) once a pass
    decides the table, else 0."""

    round: int
    table: int
    roll: int
    player: int
    seat: int
    team: int
    dice: tuple[int, int, int]
    kind: Kind
    points: int
    next: int
    winner: int = 0
    ghost: bool = False
    auto: bool = False


class RoundEnded(_Evt, frozen=True):
    """Round `round` is over: `winners`, the winning team of each table; `scores`, the
    tables' final scores; the tallies of every place after it (BU-TALLY-1/2; the ghost's
    last); `tables`, the seating of the next round after the movement (BU-MOVE-1..5,
    BU-SIZE-1/2, BU-AMB-8/9); `last`: the evening's last round (BU-RND-3)."""

    round: int
    target: int
    scores: tuple[tuple[int, int], ...]
    winners: tuple[int, ...]
    wins: tuple[int, ...]
    losses: tuple[int, ...]
    buncos: tuple[int, ...]
    wipeouts: tuple[int, ...]
    tables: Seating
    last: bool = False


class EveningEnded(_Evt, frozen=True):
    """The evening's result (BU-EVE-1..3): the players (seats) with the most round wins,
    and those with the most Buncos (empty when nobody rolled one); the ghost is ranked in
    neither (BU-AMB-1)."""

    winners: tuple[int, ...]
    most_buncos: tuple[int, ...]
    wins: tuple[int, ...]
    buncos: tuple[int, ...]


Event = (
    SeedCommitted
    | ClientSeedSent
    | SeatsAssigned
    | RoundStarted
    | DiceRolled
    | BellRang
    | RollOffRolled
    | RoundEnded
    | EveningEnded
    | SeedRevealed
)
