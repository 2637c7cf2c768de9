"""Tables in play: a read model of every open or playing table, caught up from the log.

The clock and the bots worker read it. For each table it keeps the state folded from the
table's own events and the server times its timers count from: when the table began to
wait for what it waits for now (a turn, a discard window, the host's cut) and when each
away seat went away. A time is the `server_time` of the batch that made the change (the
metadata of the append), so every process that reads the log derives the same deadlines,
before a restart or after it. A finished table is dropped.

Without a name it reads the global log from the start (`Checkpoint()`): a restarted
process knows every table in play and every pending deadline without any state of its own.
With a name (`saved_as`, one per shard: the clock and the bots worker of a shard share it)
it also keeps a checkpoint with the tables in play at that point, as a snapshot in the
store (every `save_every` seconds while the log moves), and a new process starts from the
newest one and reads only the log after it. The snapshot is a cache, never the truth: one
written by another engine version is not read, one that cannot be read is ignored, and
with none the model is folded from the start as before.

Rows are opened with the process's seed key (`services/tables/codec.py`): the bots play
from the hands, which rest sealed, and the saved checkpoint holds them too, so it is
sealed whole like a table's snapshot. A row or a checkpoint sealed with another key is an
error of the process (KeyMismatch, raised), never a table's fault: no table is held for it.

A table the model cannot fold (a row it cannot decode, an event that makes the fold
raise) is quarantined (`services/tables/quarantine.py`) and left out; so is every table another
process quarantined. Once released it is folded again from its own stream.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Protocol

import msgspec

from engine.table import TableState, new_table
from engine.table import evolve as evolve_table
from services.store.port import Checkpoint, Snapshot, StoredEvent
from services.tables.codec import ENGINE_VERSION, decode_event, open_snapshot, seal_snapshot
from services.tables.hidden import KeyMismatch, Unreadable
from services.tables.quarantine import Quarantine, QuarantineStore
from services.tables.turns import Waiting, wait_starts, waiting_for

__all__ = [
    "LogReader",
    "TablesInPlay",
    "Tracked",
    "Waiting",
    "server_time",
    "snapshot_name",
    "waiting_for",
]

_log = logging.getLogger(__name__)
_PROCESS = "tables-in-play"  # the name this model quarantines a table under
_PAGE = 1_000
_SAVE_EVERY = 30.0  # seconds between saved checkpoints while the log moves
_MAX_VERSION = 2**31 - 1  # the snapshot's version is an SQL integer


class LogReader(QuarantineStore, Protocol):
    """The part of the event store this read model needs (every EventStore has it)."""

    async def read_stream(self, stream_id: str, after_version: int = 0) -> list[StoredEvent]: ...

    async def read_all(
        self, after: Checkpoint, limit: int = 500
    ) -> tuple[list[StoredEvent], Checkpoint]: ...

    async def save_snapshot(self, snapshot: Snapshot) -> None: ...

    async def load_snapshot(self, stream_id: str, engine_version: str) -> Snapshot | None: ...


class Tracked(msgspec.Struct, kw_only=True):
    """One table as the log has it up to `version` (mutable: updated in place)."""

    table_id: str
    version: int = 0
    state: TableState
    waiting: Waiting | None = None
    since: datetime | None = None  # when `waiting` began
    # a game with several waits at once (Game.timers): each one's command id -> its start
    started: dict[str, datetime] = msgspec.field(default_factory=dict)
    changed: datetime | None = None  # when the table last changed
    away: dict[int, tuple[datetime, int]] = msgspec.field(default_factory=dict)
    # seat -> (when it went away, the version of its SeatDisconnected)


class _Saved(msgspec.Struct, kw_only=True):
    """What a saved checkpoint holds: the model as it stood after `rows` rows of the log."""

    checkpoint: Checkpoint
    rows: int
    tables: list[Tracked]


def snapshot_name(shard: tuple[int, int] | None) -> str:
    """The name a shard's model is saved under (None: every table)."""
    part = "all" if shard is None else f"{shard[0]}-of-{shard[1]}"
    return f"projection:tables-in-play:{part}"


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
    may take one shard of the tables, and a test only its own). `quarantine` is the
    process's view of the held tables, shared with the loop reading this model."""

    def __init__(
        self,
        store: LogReader,
        page: int = _PAGE,
        accept: Callable[[str], bool] | None = None,
        *,
        saved_as: str | None = None,
        save_every: float = _SAVE_EVERY,
        engine_version: str = "",
        quarantine: Quarantine | None = None,
    ) -> None:
        self._store = store
        self.quarantine = quarantine or Quarantine(store)
        self._page = page
        self._accept = accept
        self._tables: dict[str, Tracked] = {}
        self._checkpoint = Checkpoint()
        self._saved_as = saved_as
        self._save_every = save_every
        self._engine_version = engine_version or ENGINE_VERSION
        self._restored = saved_as is None  # nothing to restore without a name
        self._rows = 0  # rows of the log read into the model, from the start of the log
        self._saved_rows = 0
        self._saved_at = time.monotonic()
        self.restored_from: int | None = None  # the rows of the checkpoint it started from

    def __iter__(self) -> Iterator[Tracked]:
        held = self.quarantine.holds
        return iter([t for t in self._tables.values() if not held(t.table_id)])

    def __len__(self) -> int:
        return len(self._tables)

    def get(self, table_id: str) -> Tracked | None:
        return None if self.quarantine.holds(table_id) else self._tables.get(table_id)

    async def catch_up(self) -> set[str]:
        """Read what was committed since the last call; the ids of the tables it changed
        (finished ones included: they are gone from the model now)."""
        if not self._restored:
            await self._restore()
        changed: set[str] = set()
        for table_id in await self.quarantine.refresh():
            if await self._refold(table_id):
                changed.add(table_id)
        for table_id in [t for t in self._tables if self.quarantine.holds(t)]:
            del self._tables[table_id]
        while True:
            rows, self._checkpoint = await self._store.read_all(self._checkpoint, self._page)
            self._rows += len(rows)
            for row in rows:
                if self._apply(row):
                    changed.add(row.stream_id)
            if len(rows) < self._page:
                break
        await self.quarantine.flush()
        for table_id in changed:
            tracked = self._tables.get(table_id)
            if tracked is not None and tracked.state.status == "finished":
                del self._tables[table_id]
        if self._rows != self._saved_rows and (
            time.monotonic() - self._saved_at >= self._save_every
        ):
            await self.save()
        return changed

    async def save(self) -> None:
        """Save the checkpoint and the tables in play now (a no-op without a name)."""
        if self._saved_as is None:
            return
        saved = _Saved(checkpoint=self._checkpoint, rows=self._rows, tables=list(self))
        snapshot = Snapshot(
            stream_id=self._saved_as,
            version=max(1, min(self._rows, _MAX_VERSION)),
            engine_version=self._engine_version,
            state=seal_snapshot(self._saved_as, msgspec.json.encode(saved)),
        )
        self._saved_at = time.monotonic()
        try:
            await self._store.save_snapshot(snapshot)
        except Exception:  # a cache: the next save tries again
            _log.warning("cannot save %s", self._saved_as, exc_info=True)
            return
        self._saved_rows = self._rows

    async def _restore(self) -> None:
        assert self._saved_as is not None
        snapshot = await self._store.load_snapshot(self._saved_as, self._engine_version)
        self._restored = True
        if snapshot is None:
            return
        try:
            saved = msgspec.json.decode(open_snapshot(self._saved_as, snapshot.state), type=_Saved)
        except (msgspec.DecodeError, Unreadable):
            _log.warning("%s cannot be read; folding the log from the start", self._saved_as)
            return
        self._checkpoint = saved.checkpoint
        self._rows = self._saved_rows = saved.rows
        self._tables = {t.table_id: t for t in saved.tables}
        self.restored_from = saved.rows
        _log.info("%s: %d table(s) in play after %d rows", self._saved_as, len(self), saved.rows)

    async def _refold(self, table_id: str) -> bool:
        """Fold a released table again from its stream; whether it is in the model now."""
        if self._accept is not None and not self._accept(table_id):
            return False
        self._tables.pop(table_id, None)
        for row in await self._store.read_stream(table_id):
            self._apply(row)  # rows after the checkpoint come again later: skipped then
        _log.info(
            "%s: %s released; %s",
            _PROCESS,
            table_id,
            "in play" if table_id in self._tables else "not in play",
        )
        return table_id in self._tables

    def _apply(self, row: StoredEvent) -> bool:
        if self.quarantine.holds(row.stream_id):
            return False
        try:
            return self._fold(row)
        except KeyMismatch:  # this process's key is wrong, for every table: not held
            raise
        except Exception as error:  # the table's fault: hold it, serve the others
            self.quarantine.hold(
                row.stream_id, _PROCESS, error, version=row.version, position=row.position
            )
            self._tables.pop(row.stream_id, None)
            return True

    def _fold(self, row: StoredEvent) -> bool:
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
        # Hidden cards opened, the deal's secret left sealed: this model never deals.
        event = decode_event(row, secret=False)  # raises for a row it cannot read: see _apply
        tracked.state = evolve_table(before, event)
        tracked.version = row.version
        at = tracked.changed = server_time(row)
        waiting = waiting_for(tracked.state)
        if waiting != tracked.waiting:
            tracked.waiting, tracked.since = waiting, at if waiting is not None else None
        tracked.started = wait_starts(tracked.state, tracked.started, at)
        old_seats = before.seats or tracked.state.seats  # none before TableCreated
        for seat, (old, new) in enumerate(zip(old_seats, tracked.state.seats, strict=True), 1):
            if new.presence == "away" and old.presence != "away":
                tracked.away[seat] = (at, row.version)
            elif new.presence != "away":
                tracked.away.pop(seat, None)
        return True
