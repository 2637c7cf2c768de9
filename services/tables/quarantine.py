"""Quarantine: how a background loop leaves alone the one table it cannot handle.

The clock, the bots worker, the relay and the tables-in-play model each serve every table
in one loop. A table that makes the loop raise (options no timer can hold, a row that
cannot be decoded or folded, a rule that fails, a publish that always fails) must not
stop it for all the others, nor flood the log with one traceback per tick. So the loop
holds the table: it logs it once, with its id and the error, records it in the store
(`EventStore.quarantine`, a visible state an operator lists with `sahra quarantine list`
or GET /admin/quarantine), and goes on without it. Every loop, and the gateway's write
path, leaves a held table alone, whichever process held it, until an operator releases it
(`sahra quarantine release TABLE`); a loop then takes it up again from its stream.

The table's fault or the process's? An error reaching PostgreSQL or NATS (a lost
connection, a server shutting down, a timeout), a database without the schema or the
rights, or hidden cards sealed with another seed key than this process's, says nothing
about the table: the loop retries as before, and holding every table for it would turn one
misconfigured process into a quarantine of them all (`table_at_fault`). Any other error
met while handling one table is that table's: folding the same events again fails the
same way.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Protocol

import asyncpg
import msgspec

from services.bus.port import BusError
from services.store.port import Quarantined
from services.tables.hidden import KeyMismatch

__all__ = ["Quarantine", "QuarantineStore", "table_at_fault"]

_log = logging.getLogger(__name__)
_REFRESH = 1.0  # seconds between reads of the held tables: a release shows within this

# Errors about the servers, the connection or this process, never about one table.
_NOT_THE_TABLES = (
    OSError,  # ConnectionError and the socket errors
    TimeoutError,
    BusError,
    KeyMismatch,  # hidden cards sealed with another seed key: this process's key is wrong
    asyncpg.InterfaceError,  # the connection is closed or was taken away
    asyncpg.PostgresConnectionError,  # SQLSTATE class 08
    asyncpg.InvalidAuthorizationSpecificationError,  # class 28: refused credentials
    asyncpg.InvalidTransactionStateError,  # class 25: a read-only standby after failover
    asyncpg.SyntaxOrAccessError,  # class 42: no such table (not migrated), no privilege
    asyncpg.InsufficientResourcesError,  # class 53: too many connections, disk full
    asyncpg.OperatorInterventionError,  # class 57: shutting down, cannot connect now
)


class QuarantineStore(Protocol):
    """The part of the event store a quarantine needs (every EventStore has it)."""

    async def quarantine(
        self, stream_id: str, process: str, reason: str, *, version: int = 0, position: int = 0
    ) -> bool: ...

    async def quarantined(self) -> list[Quarantined]: ...


def table_at_fault(error: BaseException) -> bool:
    """Whether an error met while handling one table is that table's (hold it), rather
    than the servers' or this process's (retry later)."""
    return not isinstance(error, _NOT_THE_TABLES)


class _Hold(msgspec.Struct, frozen=True, kw_only=True):
    table_id: str
    process: str
    reason: str
    version: int
    position: int


class Quarantine:
    """The held tables as one process sees them: those in the store (read again at most
    every `refresh` seconds) and those it held itself since (at once, even before the
    store has them: a hold it could not record yet is recorded on the next refresh)."""

    def __init__(
        self,
        store: QuarantineStore,
        *,
        refresh: float = _REFRESH,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._store = store
        self._refresh = refresh
        self._clock = clock
        self._read_at: float | None = None
        self._held: dict[str, str] = {}  # table id -> "process: reason" of its first hold
        self._unrecorded: list[_Hold] = []

    def holds(self, table_id: str) -> bool:
        return table_id in self._held

    def reason(self, table_id: str) -> str | None:
        """Who held the table and why ("clock: OverflowError: …"); None: not held."""
        return self._held.get(table_id)

    def hold(
        self,
        table_id: str,
        process: str,
        error: BaseException | str,
        *,
        version: int = 0,
        position: int = 0,
    ) -> None:
        """Hold a table from now on: logged once (with the traceback of `error`), recorded
        in the store on the next `flush` or `refresh`. A table held already is left as is."""
        if table_id in self._held:
            return
        reason = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
        self._held[table_id] = f"{process}: {reason}"
        self._unrecorded.append(
            _Hold(
                table_id=table_id,
                process=process,
                reason=reason,
                version=version,
                position=position,
            )
        )
        _log.error(
            "%s: table %s quarantined at version %d (position %d): %s",
            process,
            table_id,
            version,
            position,
            reason,
            exc_info=error if isinstance(error, BaseException) else None,
        )

    async def flush(self) -> None:
        """Record the holds made since the last flush (a store away: kept for the next)."""
        while self._unrecorded:
            h = self._unrecorded[0]
            await self._store.quarantine(
                h.table_id, h.process, h.reason, version=h.version, position=h.position
            )
            self._unrecorded.pop(0)

    async def refresh(self, *, force: bool = False) -> set[str]:
        """Record this process's holds and, when due (or forced), read the held tables
        again; the ids released since the last read (to be taken up again)."""
        await self.flush()
        now = self._clock()
        if not force and self._read_at is not None and now - self._read_at < self._refresh:
            return set()
        rows = await self._store.quarantined()
        self._read_at = now
        held: dict[str, str] = {}
        for row in rows:
            held.setdefault(row.stream_id, f"{row.process}: {row.reason}")
        released = set(self._held) - set(held)
        self._held = held
        return released
