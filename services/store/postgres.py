"""The PostgreSQL adapter of the event store port (asyncpg). All the store's SQL is here.

Tables come from migrations/001_events.sql and 002_quarantine.sql. An append is one
INSERT … SELECT statement (one round trip, its own transaction) that checks the expected
version itself; driver errors are mapped to ConcurrencyError or a duplicate
AppendResult here, at the port.
JSON (event data, metadata) crosses the wire through asyncpg's own jsonb codec, as text:
that C codec costs less CPU per append and per event read than a Python codec passing
our bytes through in jsonb's binary format, even with the bytes-to-str copies.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, TypeAlias

import asyncpg
import msgspec

from services.store.lender import Lender
from services.store.port import (
    AppendResult,
    Checkpoint,
    ConcurrencyError,
    Metadata,
    NewEvent,
    Quarantined,
    Snapshot,
    StoredEvent,
    reason_text,
)

__all__ = ["PostgresEventStore", "append_on"]

_VERSION_KEY = "events_stream_version_key"
_COMMAND_KEY = "events_stream_command_key"

# One statement, so one round trip and its own implicit transaction. The scalar subquery
# runs once, on the statement's snapshot: if the stream is not exactly at $2 (another
# writer got there first, or the caller expects a version the stream never reached) no
# row is inserted. Two writers that both saw version $2 both try to insert $2 + 1: the
# unique index (stream_id, version) makes the second wait for the first and then fail.
# The command id goes on the first event only, so the unique (stream_id, command_id)
# catches a repeated command without constraining the rest of the batch.
_APPEND = """
INSERT INTO events (stream_id, version, type, data, metadata, command_id)
SELECT $1, $2 + e.n, e.type, e.data, $5, CASE WHEN e.n = 1 THEN $6 END
FROM unnest($3::text[], $4::jsonb[]) WITH ORDINALITY AS e(type, data, n)
WHERE (SELECT coalesce(max(version), 0) FROM events WHERE stream_id = $1) = $2
RETURNING version, position
"""

# The same for the most frequent append, a single event: without the arrays (encoded on
# the client, scanned on the server) and with one value back it is 10-15 % faster at
# 8 writers.
_APPEND_ONE = """
INSERT INTO events (stream_id, version, type, data, metadata, command_id)
SELECT $1, $2 + 1, $3, $4, $5, $6
WHERE (SELECT coalesce(max(version), 0) FROM events WHERE stream_id = $1) = $2
RETURNING position
"""

# The events a command appended: from its first event (the one carrying the command id)
# up to, not including, the next event that starts another append.
_COMMAND_OUTCOME = """
WITH first AS (
    SELECT version FROM events WHERE stream_id = $1 AND command_id = $2
), next AS (
    SELECT min(n.version) AS version FROM events n, first
    WHERE n.stream_id = $1 AND n.version > first.version AND n.command_id IS NOT NULL
)
SELECT e.version, e.position FROM events e, first, next
WHERE e.stream_id = $1 AND e.version >= first.version
  AND (next.version IS NULL OR e.version < next.version)
ORDER BY e.version
"""

_COLUMNS = "position, stream_id, version, type, data, metadata, recorded_at"

_READ_STREAM = f"""
SELECT {_COLUMNS} FROM events WHERE stream_id = $1 AND version > $2 ORDER BY version
"""

_STREAM_VERSION = "SELECT coalesce(max(version), 0) FROM events WHERE stream_id = $1"

# Catch-up reading. Ordering by position alone could skip an event: positions come from a
# sequence when a row is inserted, not when it commits. Writer A takes position 10 and is
# still open when writer B takes 11 and commits; a reader at that moment returns 11 and
# checkpoints past it, then A commits 10 behind the checkpoint and is never read. (And the
# other way round: a transaction that got its txid earlier may take a later position.)
#
# So a reader only takes rows whose transaction id is below the oldest transaction still
# running (the xmin of the statement's own snapshot): every such transaction has finished,
# committed (its rows are visible to this statement) or aborted (they never will be), so
# no row can appear later at or below the checkpoint. Rows are ordered and checkpointed by
# (txid, position): txids are unique per transaction, position orders inside one.
#
# This keeps each stream's order: version n+1 passed the expected-version check, so its
# statement's snapshot saw version n committed; its transaction id was assigned at that
# insert (an append is the first write of its transaction), after n's transaction had
# committed, and ids are handed out in increasing order — so txid(n+1) > txid(n).
#
# The price: an open write transaction anywhere in the database holds back every reader
# until it ends (latency, never loss), so keep write transactions short.
_READ_ALL = f"""
SELECT {_COLUMNS}, txid FROM events
WHERE (txid, position) > ($1::xid8, $2::bigint)
  AND txid < pg_snapshot_xmin(pg_current_snapshot())
ORDER BY txid, position
LIMIT $3
"""

# A stream's snapshot only moves forward: a slow writer cannot replace a newer one.
_SAVE_SNAPSHOT = """
INSERT INTO snapshots (stream_id, engine_version, version, state) VALUES ($1, $2, $3, $4)
ON CONFLICT (stream_id, engine_version) DO UPDATE
SET version = excluded.version, state = excluded.state, saved_at = now()
WHERE snapshots.version <= excluded.version
"""

_LOAD_SNAPSHOT = """
SELECT version, state FROM snapshots WHERE stream_id = $1 AND engine_version = $2
"""

_SAVE_CHECKPOINT = """
INSERT INTO checkpoints (name, txid, position) VALUES ($1, $2::xid8, $3)
ON CONFLICT (name) DO UPDATE
SET txid = excluded.txid, position = excluded.position, updated_at = now()
"""

_LOAD_CHECKPOINT = "SELECT txid, position FROM checkpoints WHERE name = $1"

# For the verifier's audit: the events that end a unit of play (a game's Unit.ending),
# without reading the whole log. Ordered by position alone: an audit reads what has
# committed when it runs, and is not a catch-up reader that must never skip (_READ_ALL).
_READ_TYPES = f"""
SELECT {_COLUMNS} FROM events
WHERE type = ANY($1::text[]) AND position > $2 AND recorded_at >= $3
ORDER BY position
"""

# The first report of a (table, process) is kept: a loop that meets the table again, or a
# second copy of the same loop, reports nothing new (and learns so from the row count).
_QUARANTINE = """
INSERT INTO quarantine (stream_id, process, reason, version, position)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (stream_id, process) DO NOTHING
"""

_QUARANTINED = """
SELECT stream_id, process, reason, version, position, since FROM quarantine
ORDER BY since, stream_id, process
"""

_RELEASE = "DELETE FROM quarantine WHERE stream_id = $1"

# The seat's latest choice wins: a later save overwrites, two saves at once leave one.
_SAVE_PREFERENCE = """
INSERT INTO seat_preferences (stream_id, seat, name, value) VALUES ($1, $2, $3, $4::jsonb)
ON CONFLICT (stream_id, seat, name) DO UPDATE SET value = EXCLUDED.value, updated_at = now()
"""
_PREFERENCE = "SELECT value FROM seat_preferences WHERE stream_id = $1 AND seat = $2 AND name = $3"

_metadata_decoder = msgspec.json.Decoder(Metadata)

Connection: TypeAlias = "asyncpg.Connection[Any] | asyncpg.pool.PoolConnectionProxy[Any]"


async def append_on(
    conn: Connection,
    stream_id: str,
    expected_version: int,
    events: Sequence[NewEvent],
    metadata: Metadata,
) -> AppendResult:
    """Append on a given connection (any asyncpg connection to a migrated database).

    Outside a transaction this is the store's one-round-trip append. Inside the caller's
    transaction it runs in a savepoint, so that a conflict can still be looked up; the
    append must then be the transaction's first write (see _READ_ALL on stream order) and
    the rows stay invisible to readers until the caller commits."""
    savepoint = conn.is_in_transaction()
    return await _append(conn, stream_id, expected_version, events, metadata, savepoint)


async def _append(
    conn: Connection,
    stream_id: str,
    expected_version: int,
    events: Sequence[NewEvent],
    metadata: Metadata,
    savepoint: bool,
) -> AppendResult:
    if not events:
        raise ValueError("an append needs at least one event")
    try:
        if savepoint:
            async with conn.transaction():
                positions = await _insert(conn, stream_id, expected_version, events, metadata)
        else:
            positions = await _insert(conn, stream_id, expected_version, events, metadata)
    except asyncpg.UniqueViolationError as error:
        if error.constraint_name not in (_VERSION_KEY, _COMMAND_KEY):
            raise
        positions = ()
    if positions:
        last = expected_version + len(positions)
        return AppendResult(
            first_version=expected_version + 1, last_version=last, positions=positions
        )
    # Nothing appended. The unique indexes only fail after the other writer committed, so
    # a first outcome of this command, if any, is visible now.
    first = await conn.fetch(_COMMAND_OUTCOME, stream_id, metadata.command_id)
    if first:
        return AppendResult(
            first_version=first[0][0],
            last_version=first[-1][0],
            duplicate=True,
            positions=tuple(r[1] for r in first),
        )
    raise ConcurrencyError(stream_id, expected_version)


async def _insert(
    conn: Connection,
    stream_id: str,
    expected_version: int,
    events: Sequence[NewEvent],
    metadata: Metadata,
) -> tuple[int, ...]:
    """The positions of the events appended, in version order; () if the stream was not
    at `expected_version`."""
    meta = msgspec.json.encode(metadata).decode()
    if len(events) == 1:
        one = events[0]
        position: int | None = await conn.fetchval(
            _APPEND_ONE,
            stream_id,
            expected_version,
            one.type,
            one.data.decode(),
            meta,
            metadata.command_id,
        )
        return () if position is None else (position,)
    types, data = [e.type for e in events], [e.data.decode() for e in events]
    rows = await conn.fetch(
        _APPEND, stream_id, expected_version, types, data, meta, metadata.command_id
    )
    return tuple(position for _, position in sorted(rows))


class PostgresEventStore:
    """The event store over an asyncpg pool; create it with `await connect(dsn)`."""

    def __init__(self, pool: asyncpg.Pool[Any], size: int) -> None:
        """`size`: how many of the pool's connections the store may keep lent."""
        self._pool = pool
        # A ConcurrencyError or a ValueError leaves the connection as healthy as a
        # server error does (append_on runs no transaction of its own outside a caller's).
        self._lender = Lender(pool, size, keeps=(ConcurrencyError, ValueError))

    @classmethod
    async def connect(
        cls,
        dsn: str,
        min_size: int = 1,
        max_size: int = 10,
        *,
        timeout: float = 10.0,
        **pool_options: Any,
    ) -> PostgresEventStore:
        """A store over a new pool; `pool_options` go to asyncpg.create_pool (for example
        server_settings={"search_path": …})."""
        pool = await asyncpg.create_pool(
            dsn,
            min_size=min_size,
            max_size=max_size,
            timeout=timeout,
            **pool_options,
        )
        return cls(pool, max_size)

    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        metadata: Metadata,
    ) -> AppendResult:
        # The lender's connections are never inside a transaction: no savepoint needed.
        return await self._lender.run(
            lambda conn: _append(conn, stream_id, expected_version, events, metadata, False)
        )

    async def read_stream(self, stream_id: str, after_version: int = 0) -> list[StoredEvent]:
        rows = await self._lender.run(lambda c: c.fetch(_READ_STREAM, stream_id, after_version))
        return [_event(r) for r in rows]

    async def stream_version(self, stream_id: str) -> int:
        version: int = await self._lender.run(lambda c: c.fetchval(_STREAM_VERSION, stream_id))
        return version

    async def read_all(
        self, after: Checkpoint, limit: int = 500
    ) -> tuple[list[StoredEvent], Checkpoint]:
        rows = await self._lender.run(
            lambda c: c.fetch(_READ_ALL, after.txid, after.position, limit)
        )
        if not rows:
            return [], after
        last = rows[-1]
        return [_event(r) for r in rows], Checkpoint(last["txid"], last["position"])

    async def load_checkpoint(self, name: str) -> Checkpoint:
        row = await self._lender.run(lambda c: c.fetchrow(_LOAD_CHECKPOINT, name))
        return Checkpoint() if row is None else Checkpoint(row["txid"], row["position"])

    async def save_checkpoint(self, name: str, checkpoint: Checkpoint) -> None:
        await self._lender.run(
            lambda c: c.execute(_SAVE_CHECKPOINT, name, checkpoint.txid, checkpoint.position)
        )

    async def save_snapshot(self, snapshot: Snapshot) -> None:
        s = snapshot
        await self._lender.run(
            lambda c: c.execute(_SAVE_SNAPSHOT, s.stream_id, s.engine_version, s.version, s.state)
        )

    async def load_snapshot(self, stream_id: str, engine_version: str) -> Snapshot | None:
        row = await self._lender.run(
            lambda c: c.fetchrow(_LOAD_SNAPSHOT, stream_id, engine_version)
        )
        if row is None:
            return None
        return Snapshot(
            stream_id=stream_id,
            version=row["version"],
            engine_version=engine_version,
            state=bytes(row["state"]),
        )

    async def quarantine(
        self, stream_id: str, process: str, reason: str, *, version: int = 0, position: int = 0
    ) -> bool:
        text = reason_text(reason)
        status: str = await self._lender.run(
            lambda c: c.execute(_QUARANTINE, stream_id, process, text, version, position)
        )
        return status.endswith(" 1")  # "INSERT 0 1": a new hold; "INSERT 0 0": held already

    async def quarantined(self) -> list[Quarantined]:
        rows = await self._lender.run(lambda c: c.fetch(_QUARANTINED))
        return [
            Quarantined(
                stream_id=r[0], process=r[1], reason=r[2], version=r[3], position=r[4], since=r[5]
            )
            for r in rows
        ]

    async def release(self, stream_id: str) -> int:
        status: str = await self._lender.run(lambda c: c.execute(_RELEASE, stream_id))
        return int(status.rpartition(" ")[2])  # "DELETE n"

    async def save_preference(self, stream_id: str, seat: int, name: str, value: bytes) -> None:
        text = value.decode()
        await self._lender.run(lambda c: c.execute(_SAVE_PREFERENCE, stream_id, seat, name, text))

    async def preference(self, stream_id: str, seat: int, name: str) -> bytes | None:
        found = await self._lender.run(lambda c: c.fetchval(_PREFERENCE, stream_id, seat, name))
        return None if found is None else str(found).encode()

    async def read_types(
        self, types: Sequence[str], after_position: int = 0, since: datetime | None = None
    ) -> list[StoredEvent]:
        floor = since or datetime(1970, 1, 1, tzinfo=UTC)
        kinds = list(types)
        rows = await self._lender.run(lambda c: c.fetch(_READ_TYPES, kinds, after_position, floor))
        return [_event(r) for r in rows]

    async def close(self) -> None:
        await self._lender.close()
        await self._pool.close()


def _event(row: asyncpg.Record) -> StoredEvent:
    return StoredEvent(
        position=row[0],
        stream_id=row[1],
        version=row[2],
        type=row[3],
        data=row[4].encode(),
        metadata=_metadata_decoder.decode(row[5]),
        recorded_at=row[6],
    )
