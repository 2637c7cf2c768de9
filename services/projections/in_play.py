"""Tables in play: a read model of every open or playing table, caught up from the log.

The clock and the bots worker read it. For each table it keeps the state folded from the
table's own events and the server times its timers count from: when the table began to
wait for what it waits for now (a turn, a discard window, the host's cut) and when each
away seat went away. A time is the `server_time` of the batch that made the change (the
metadata of the append), so every process that reads the log derives the same deadlines,
before a restart or after it. A finished table is dropped.

It reads the global log from the start (`Checkpoint()`): a restarted process knows every
table in play and every pending deadline without any state of its own. On a large log a
start therefore folds every table ever played; a saved checkpoint with snapshots of the
tables in play would shorten that (not done yet).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Protocol

import msgspec

from engine.table import AnyEvent, TableState, new_table
from engine.table import evolve as evolve_table
from services.store.port import Checkpoint, StoredEvent

__all__ = ["LogReader", "TablesInPlay", "Tracked", "Waiting", "server_time", "waiting_for"]

_log = logging.getLogger(__name__)
_PAGE = 1_000
# Events as stored: a deal's secret stays sealed (services/gateway/sealing.py). Timers do
# not need it, so this model needs no seed key and never fails for want of one.
_EVENT = msgspec.json.Decoder(AnyEvent)

# (phase, deal, turn number, discard window): what a playing table waits for now. A turn's
# timer runs from the moment this last changed; the same turn of another deal, or the
# window of the same turn, is another wait.
Waiting = tuple[str, int, int, bool]


class LogReader(Protocol):
    """The part of the event store this read model needs (every EventStore has it)."""

    async def read_all(
        self, after: Checkpoint, limit: int = 500
    ) -> tuple[list[StoredEvent], Checkpoint]: ...


class Tracked(msgspec.Struct, kw_only=True):
    """One table as the log has it up to `version` (mutable: updated in place)."""

    table_id: str
    version: int = 0
    state: TableState
    waiting: Waiting | None = None
    since: datetime | None = None  # when `waiting` began
    changed: datetime | None = None  # when the table last changed
    away: dict[int, tuple[datetime, int]] = msgspec.field(default_factory=dict)
    # seat -> (when it went away, the version of its SeatDisconnected)


def waiting_for(state: TableState) -> Waiting | None:
    game = state.game_state
    if state.status != "playing" or game is None or game.phase == "over":
        return None
    return (game.phase, game.deal, game.turn_no, game.window)


def server_time(row: StoredEvent) -> datetime:
    """When the service decided the command that appended `row` (else when it was stored)."""
    text = row.metadata.server_time
    if text:
        try:
            moment = datetime.fromisoformat(text)
        except ValueError:
            _log.warning("bad server_time %r at %s:%d", text, row.stream_id, row.version)
        else:
            return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return row.recorded_at


class TablesInPlay:
    """`accept(table_id)` chooses the tables this model keeps (all by default; a process
    may take one shard of the tables, and a test only its own)."""

    def __init__(
        self,
        store: LogReader,
        page: int = _PAGE,
        accept: Callable[[str], bool] | None = None,
    ) -> None:
        self._store = store
        self._page = page
        self._accept = accept
        self._tables: dict[str, Tracked] = {}
        self._checkpoint = Checkpoint()

    def __iter__(self) -> Iterator[Tracked]:
        return iter(list(self._tables.values()))

    def __len__(self) -> int:
        return len(self._tables)

    def get(self, table_id: str) -> Tracked | None:
        return self._tables.get(table_id)

    async def catch_up(self) -> set[str]:
        """Read what was committed since the last call; the ids of the tables it changed
        (finished ones included: they are gone from the model now)."""
        changed: set[str] = set()
        while True:
            rows, self._checkpoint = await self._store.read_all(self._checkpoint, self._page)
            for row in rows:
                if self._apply(row):
                    changed.add(row.stream_id)
            if len(rows) < self._page:
                break
        for table_id in changed:
            tracked = self._tables.get(table_id)
            if tracked is not None and tracked.state.status == "finished":
                del self._tables[table_id]
        return changed

    def _apply(self, row: StoredEvent) -> bool:
        tracked = self._tables.get(row.stream_id)
        if tracked is None:
            if row.type != "TableCreated" or row.version != 1:
                return False  # not a table, or one that finished before this process
            if self._accept is not None and not self._accept(row.stream_id):
                return False
            tracked = self._tables[row.stream_id] = Tracked(
                table_id=row.stream_id, state=new_table(row.stream_id)
            )
        elif row.version != tracked.version + 1:
            return False  # never happens: the log gives each stream in version order
        before = tracked.state
        try:
            event = _EVENT.decode(row.data)
        except msgspec.DecodeError:  # written by a newer version: skip the table, not all
            _log.exception("cannot read %s:%d; the table is left out", row.stream_id, row.version)
            del self._tables[row.stream_id]
            return True
        tracked.state = evolve_table(before, event)
        tracked.version = row.version
        at = tracked.changed = server_time(row)
        waiting = waiting_for(tracked.state)
        if waiting != tracked.waiting:
            tracked.waiting, tracked.since = waiting, at if waiting is not None else None
        old_seats = before.seats or tracked.state.seats  # none before TableCreated
        for seat, (old, new) in enumerate(zip(old_seats, tracked.state.seats, strict=True), 1):
            if new.presence == "away" and old.presence != "away":
                tracked.away[seat] = (at, row.version)
            elif new.presence != "away":
                tracked.away.pop(seat, None)
        return True
