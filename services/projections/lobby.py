"""The lobby: a read model of the tables, caught up from the store's global log.

Each gateway keeps its own copy in memory and reads only what was committed since its last
look, so every replica lists tables created through any other. Only the table events are
decoded; the game's events are skipped by their type, except the ones that end a match.

A row that cannot be read (written by another engine version, or straight into the store)
takes its own table out of the list, logged once; every other table is listed as before. It
once made `GET /tables` a 500 for every player, and lost the rest of the page it was on.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Literal

import msgspec

from engine.table import SeatInfo, SeatKind, SeatTaken, TableCreated, TableStarted
from services.store.port import Checkpoint, EventStore, StoredEvent
from services.tables.codec import decode_event

__all__ = ["Lobby", "TableSummary"]

_log = logging.getLogger(__name__)
_WATCHED = {"TableCreated", "SeatTaken", "TableStarted", "MatchEnded", "SeriesEnded"}
_PAGE = 500


class TableSummary(msgspec.Struct, frozen=True, kw_only=True):
    table_id: str
    game: str
    ruleset: str
    mode: str
    host: int
    status: Literal["open", "playing", "finished"]
    seats: tuple[SeatInfo, ...]
    free_seats: tuple[int, ...]


class _Table(msgspec.Struct, kw_only=True):
    created: TableCreated
    players: dict[int, str] = msgspec.field(default_factory=dict)
    status: Literal["open", "playing", "finished"] = "open"
    series: bool = False

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
        )


class Lobby:
    def __init__(self, store: EventStore) -> None:
        self._store = store
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
                for row in rows:
                    if row.type in _WATCHED and row.stream_id not in self._unreadable:
                        self._apply_or_drop(row)
                if len(rows) < _PAGE:
                    return

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
        if row.type in ("MatchEnded", "SeriesEnded"):
            table = self._tables.get(row.stream_id)
            # A match ends the table unless a series goes on; SeriesEnded always does.
            if table is not None and (row.type == "SeriesEnded" or not table.series):
                table.status = "finished"
            return
        event = decode_event(row)
        match event:
            case TableCreated():
                series = bool(_option(event.options, "series", False))
                self._tables[row.stream_id] = _Table(created=event, series=series)
            case SeatTaken(seat=seat, player=player) if row.stream_id in self._tables:
                self._tables[row.stream_id].players[seat] = player
            case TableStarted() if row.stream_id in self._tables:
                self._tables[row.stream_id].status = "playing"


def _option(options: object, name: str, default: str | bool) -> Any:
    """An option the lobby lists, read from any game's options Struct: a game without rule
    sets, modes or series (the test game in tests/games/) lists the default."""
    return getattr(options, name, default)
