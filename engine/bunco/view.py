"""What one seat (or a spectator) of a Bunco evening sees, and the commands it may send.

Nothing in Bunco is hidden but the round's secret before its reveal (PF-FAIR-3). A seat
sees its own play table in full (who sits where, who rolls, the last dice, the roll-off)
and only the scores of the other tables; a spectator sees every table in full. Every seat
sees the bell at once (BU-SET-5), the tally sheets and the last round's end.
"""

from __future__ import annotations

import msgspec

from engine.bunco.movement import TABLE_NAMES
from engine.bunco.rules import awaited, roller_seat
from engine.bunco.state import Evening, PlayTable, RoundResult, State

__all__ = ["Legal", "TableView", "View", "legal", "view"]

_SYSTEM = 0


class Legal(msgspec.Struct, frozen=True, kw_only=True):
    """The command kinds a seat may send now."""

    commands: tuple[str, ...]


class TableView(msgspec.Struct, frozen=True, kw_only=True):
    """A play table: its number and name and the two teams' points; in full (the seat's
    own table, or every table for a spectator) also its places by table seat, the table
    seat who rolls next and the seat that rolls for him, its rolls and the last dice."""

    number: int
    name: str
    scores: tuple[int, int]
    full: bool
    seats: tuple[int, ...] = ()
    roller: int = 0
    rolls_by: int = 0
    rolls: int = 0
    last: tuple[int, ...] = ()
    rolloff: bool = False
    winner: int = 0


class View(msgspec.Struct, frozen=True, kw_only=True):
    seat: int | None
    phase: str
    round: int
    rounds: int
    target: int
    players: int
    ghost: int  # the ghost's place number, 0 without one (BU-AMB-1)
    wipeout: bool
    table: int  # the seat's own table in the round (0: a spectator, or before round 1)
    tables: tuple[TableView, ...]
    awaiting: tuple[int, ...]  # the seats that roll now, head table first
    bell: int  # the head table's team that rang the bell this round (0: not yet)
    wins: tuple[int, ...]
    losses: tuple[int, ...]
    buncos: tuple[int, ...]
    wipeouts: tuple[int, ...]
    commitment: str | None
    seeds_sent: tuple[bool, ...]
    result: RoundResult | None
    evening: Evening | None
    legal: Legal


def view(state: State, seat: int | None) -> View:
    own = _own_table(state, seat)
    return View(
        seat=seat,
        phase=state.phase,
        round=state.round,
        rounds=state.options.rounds,
        target=state.target,
        players=state.options.players,
        ghost=state.options.ghost,
        wipeout=state.options.wipeout,
        table=own,
        tables=tuple(
            _table(state, i, t, full=seat is None or i == own)
            for i, t in enumerate(state.tables, 1)
        ),
        awaiting=_awaiting(state),
        bell=state.bell,
        wins=state.wins,
        losses=state.losses,
        buncos=state.buncos,
        wipeouts=state.wipeouts,
        commitment=state.commitment,
        seeds_sent=state.seeds_sent,
        result=state.result,
        evening=state.evening,
        legal=legal(state, seat),
    )


def _own_table(state: State, seat: int | None) -> int:
    if not seat:
        return 0
    return next((i for i, t in enumerate(state.tables, 1) if seat in t.seats), 0)


def _table(state: State, number: int, table: PlayTable, *, full: bool) -> TableView:
    name = TABLE_NAMES[len(state.tables)][number - 1]
    if not full:
        return TableView(number=number, name=name, scores=table.scores, full=False)
    return TableView(
        number=number,
        name=name,
        scores=table.scores,
        full=True,
        seats=table.seats,
        roller=table.roller,
        rolls_by=roller_seat(state, table),
        rolls=table.rolls,
        last=table.last,
        rolloff=table.rolloff,
        winner=table.winner,
    )


def _awaiting(state: State) -> tuple[int, ...]:
    return tuple(roller_seat(state, state.tables[n - 1]) for n in awaited(state))


def legal(state: State, seat: int | None) -> Legal:
    """The command kinds `seat` may send now (seat 0: the system's)."""
    if seat is None:
        return Legal(commands=())
    if seat == _SYSTEM:
        system = {"seeding": ("CommitSeed",), "seeded": ("Deal",), "play": ("Timeout",)}
        return Legal(commands=system.get(state.phase, ()))
    out: list[str] = []
    if state.phase == "seeded" and state.seed_window and not state.seeds_sent[seat - 1]:
        out.append("SendClientSeed")
    if seat in _awaiting(state):
        out.append("Roll")
    if (
        seat == state.host
        and state.round == 1
        and not state.rolled
        and state.phase in ("seeded", "play")
    ):
        out.append("AssignSeats")  # BU-SET-7
    return Legal(commands=tuple(out))
