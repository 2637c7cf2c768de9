"""The lobby: a read model of the tables, caught up from the store's global log.

Each gateway keeps its own copy in memory and reads only what was committed since its last
look, so every replica lists tables created through any other. Only the table events are
decoded; the game's events are skipped by their type. Whether a game is over is the game's
word (`Game.over`, folded into the table's status), and a game can only end where one of
its units does: after a row of a type that ends a unit in some hosted game
(`Unit.ending`), the table is loaded once (the gateway's table service, else its stream
folded) and listed as it stands, finished or still playing.

A row that cannot be read (written by another engine version, or straight into the store)
takes its own table out of the list, logged once; every other table is listed as before. It
once made `GET /tables` a 500 for every player, and lost the rest of the page it was on.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import msgspec

from engine import protocol
from engine.table import (
    SeatInfo,
    SeatKind,
    SeatTaken,
    TableCreated,
    TableStarted,
    TableState,
    evolve,
    new_table,
)
from services.store.port import Checkpoint, EventStore, StoredEvent
from services.tables.codec import decode_event

__all__ = ["Load", "Lobby", "TableSummary"]

_log = logging.getLogger(__name__)
_WATCHED = {"TableCreated", "SeatTaken", "TableStarted"}
_PAGE = 500

Load = Callable[[str], Awaitable[TableState]]  # a table's state as the store has it now


class TableSummary(msgspec.Struct, frozen=True, kw_only=True):
    table_id: str
    game: str
    ruleset: str
    mode: str
    host: int
    status: Literal["open", "playing", "finished"]
    seats: tuple[SeatInfo, ...]
    free_seats: tuple[int, ...]
    # the table's options as its game writes them in a deal record (its preset, e.g. a
    # Banakil rule set or a rummy variant, then every option that differs from it)
    options: dict[str, Any] = msgspec.field(default_factory=dict)


class _Table(msgspec.Struct, kw_only=True):
    created: TableCreated
    players: dict[int, str] = msgspec.field(default_factory=dict)
    status: Literal["open", "playing", "finished"] = "open"
    options: dict[str, Any] = msgspec.field(default_factory=dict)  # as a record writes them

    def summary(self) -> TableSummary:
        kinds: tuple[SeatKind, ...] = self.created.seats
        seats = tuple(
            SeatInfo(kind=kind, player=self.players.get(i)) for i, kind in enumerate(kinds, 1)
        )
        free = tuple(i for i, s in enumerate(seats, 1) if s.kind == "human" and s.player is None)
        options = self.created.options
        return TableSummary(
            table_id=self.created.table_id,
            game=self.created.game,
            ruleset=_option(options, "ruleset", ""),
            mode=_option(options, "mode", ""),
            host=self.created.host,
            status=self.status,
            seats=seats,
            free_seats=free,
            options=self.options,
        )


class Lobby:
    """`load(table_id)`: the table as it stands (the gateway's table service, which keeps
    the tables it serves in memory); without it, the lobby folds the table's stream."""

    def __init__(self, store: EventStore, load: Load | None = None) -> None:
        self._store = store
        self._load = load or self._fold
        self._tables: dict[str, _Table] = {}
        self._unreadable: set[str] = set()  # tables with a row that could not be read
        self._checkpoint = Checkpoint()
        self._lock = asyncio.Lock()

    async def tables(self, status: str | None = "open") -> list[TableSummary]:
        await self._catch_up()
        out = [t.summary() for t in self._tables.values()]
        return [t for t in out if status is None or t.status == status]

    async def _catch_up(self) -> None:
        async with self._lock:
            while True:
                rows, self._checkpoint = await self._store.read_all(self._checkpoint, _PAGE)
                ended: set[str] = set()  # tables where a unit ended: is the game over?
                endings = _ending_tags()
                for row in rows:
                    if row.stream_id in self._unreadable:
                        continue
                    if row.type in _WATCHED:
                        self._apply_or_drop(row)
                    elif row.type in endings:
                        ended.add(row.stream_id)
                for table_id in ended:
                    await self._finish_if_over(table_id)
                if len(rows) < _PAGE:
                    return

    async def _finish_if_over(self, table_id: str) -> None:
        table = self._tables.get(table_id)
        if table is None or table.status == "finished":
            return
        try:
            state = await self._load(table_id)
        except Exception as exc:  # listed as it was; a quarantined table says why itself
            _log.warning("lobby: cannot tell whether table %s is over: %s", table_id, exc)
            return
        if state.status == "finished":
            table.status = "finished"

    async def _fold(self, table_id: str) -> TableState:
        state = new_table(table_id)
        for row in await self._store.read_stream(table_id):
            state = evolve(state, decode_event(row, game=state.game or None))
        return state

    def _apply_or_drop(self, row: StoredEvent) -> None:
        try:
            self._apply(row)
        except Exception as exc:  # one table's bad row never hides the others
            self._unreadable.add(row.stream_id)
            self._tables.pop(row.stream_id, None)
            _log.error(
                "lobby: table %s left out: its row at version %s (%s) cannot be read: %s",
                row.stream_id,
                row.version,
                row.type,
                exc,
            )

    def _apply(self, row: StoredEvent) -> None:
        event = decode_event(row)
        match event:
            case TableCreated(game=game, options=options):
                written = protocol.get(game).records.options_of(options)
                self._tables[row.stream_id] = _Table(created=event, options=written)
            case SeatTaken(seat=seat, player=player) if row.stream_id in self._tables:
                self._tables[row.stream_id].players[seat] = player
            case TableStarted() if row.stream_id in self._tables:
                self._tables[row.stream_id].status = "playing"


def _ending_tags() -> frozenset[str]:
    """The type tags of the events that end a unit in some hosted game."""
    return _endings_of(protocol.in_order())


@functools.cache
def _endings_of(games: tuple[str, ...]) -> frozenset[str]:
    return frozenset(tag for name in games for tag in protocol.get(name).unit.ending)


def _option(options: object, name: str, default: str | bool) -> Any:
    """An option the lobby lists, read from any game's options Struct: a game without rule
    sets, modes or series (the test game in tests/games/) lists the default."""
    return getattr(options, name, default)
