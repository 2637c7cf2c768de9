"""The relay: whatever the store committed gets published, even if its writer died.

A writer publishes right after its commit; if it crashes in between, nobody else would.
The relay tails the store by its catch-up checkpoint (which never skips an event
committed out of order) and publishes every event, published before or not: the
`<stream_id>:<version>` message id lets JetStream drop the copies. The checkpoint is
saved after each batch is acknowledged, so a crash re-publishes at most one batch.

Limits worth knowing:
- JetStream only remembers message ids for its duplicate window (2 minutes by
  default). After a relay outage longer than that, events the writers already
  published are stored a second time; subscribers ignore versions they have (see
  services/bus/port.py), so this costs bandwidth, not correctness.
- A relay without a saved checkpoint starts from the beginning of the store.
- Several relays under one name are safe (same de-duplication) but wasteful: run one.

One table must never hold back the others (the checkpoint only moves past a whole batch),
so a table the relay can never publish is quarantined (`services/tables/quarantine.py`): a
stream id that cannot be a subject at once; a table whose publish fails while the other
tables of the batch go through, after `_STRIKES` batches in a row (one failure alone
cannot be told from the bus being away, which is retried for ever). Held tables, whoever
held them, are skipped: their events are not published while they are held, and after a
release the relay does not go back for them (subscribers read the store on a gap).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol

from services.bus.port import Bus, BusError, PublishResult, is_subject_token
from services.store.port import Checkpoint, StoredEvent
from services.tables.quarantine import Quarantine, QuarantineStore

__all__ = ["Relay", "RelaySource"]

_log = logging.getLogger(__name__)
_MAX_BACKOFF = 10.0
_PROCESS = "relay"  # the name this loop quarantines a table under
_STRIKES = 3  # batches in a row in which one table failed while others went through


class RelaySource(QuarantineStore, Protocol):
    """The part of the event store the relay reads (every EventStore has it)."""

    async def read_all(
        self, after: Checkpoint, limit: int = 500
    ) -> tuple[list[StoredEvent], Checkpoint]: ...

    async def load_checkpoint(self, name: str) -> Checkpoint: ...

    async def save_checkpoint(self, name: str, checkpoint: Checkpoint) -> None: ...


class Relay:
    def __init__(
        self,
        store: RelaySource,
        bus: Bus,
        name: str = "relay",
        batch_size: int = 500,
        *,
        quarantine: Quarantine | None = None,
    ) -> None:
        self._store = store
        self._bus = bus
        self.name = name
        self._batch_size = batch_size
        self._checkpoint: Checkpoint | None = None
        self.quarantine = quarantine or Quarantine(store)
        self._strikes: dict[str, int] = {}  # table id -> failed batches in a row

    async def step(self) -> tuple[int, PublishResult]:
        """Publish the next batch after the checkpoint and save the new checkpoint.

        Returns how many events were read and what the bus did with them."""
        if self._checkpoint is None:
            self._checkpoint = await self._store.load_checkpoint(self.name)
        await self.quarantine.refresh()
        events, after = await self._store.read_all(self._checkpoint, self._batch_size)
        if not events:
            return 0, PublishResult()
        publishable = []
        for e in events:
            if not is_subject_token(e.stream_id):  # never publishable: hold it, once
                reason = f"stream id {e.stream_id!r} cannot be a NATS subject token"
                self.quarantine.hold(
                    e.stream_id, _PROCESS, reason, version=e.version, position=e.position
                )
            if not self.quarantine.holds(e.stream_id):
                publishable.append(e)
        result = await self._publish(publishable)
        await self.quarantine.flush()  # before the checkpoint passes the held events
        await self._store.save_checkpoint(self.name, after)
        self._checkpoint = after
        if result.stored:
            _log.info(
                "relay: published %d event(s) their writers had not (%d already were)",
                result.stored,
                result.duplicates,
            )
        return len(events), result

    async def _publish(self, events: list[StoredEvent]) -> PublishResult:
        """The batch at once; when that fails, table by table, to find a table that fails
        while the others go through (see the module docstring)."""
        try:
            result = await self._bus.publish(events)
        except BusError:
            tables: dict[str, list[StoredEvent]] = {}
            for e in events:
                tables.setdefault(e.stream_id, []).append(e)
            if len(tables) < 2:
                raise
            return await self._publish_each(tables)
        self._strikes.clear()
        return result

    async def _publish_each(self, tables: dict[str, list[StoredEvent]]) -> PublishResult:
        stored = duplicates = 0
        failed: dict[str, tuple[StoredEvent, BusError]] = {}
        for table_id, events in tables.items():
            try:
                result = await self._bus.publish(events)
            except BusError as error:
                failed[table_id] = (events[0], error)
                continue
            self._strikes.pop(table_id, None)
            stored += result.stored
            duplicates += result.duplicates
        if len(failed) == len(tables):  # nothing went through: the bus, not the tables
            raise next(iter(failed.values()))[1]
        for table_id, (first, failure) in failed.items():
            strikes = self._strikes[table_id] = self._strikes.get(table_id, 0) + 1
            if strikes >= _STRIKES:
                self.quarantine.hold(
                    table_id, _PROCESS, failure, version=first.version, position=first.position
                )
                del self._strikes[table_id]
        if any(not self.quarantine.holds(table_id) for table_id in failed):
            raise BusError(f"publish failed for table(s) {sorted(failed)}; the batch is retried")
        return PublishResult(stored=stored, duplicates=duplicates)

    async def catch_up(self) -> PublishResult:
        """Step until the store has nothing more; the totals of what was published."""
        stored = duplicates = 0
        while True:
            read, result = await self.step()
            stored += result.stored
            duplicates += result.duplicates
            if read == 0:
                return PublishResult(stored=stored, duplicates=duplicates)

    async def run_forever(self, stop: asyncio.Event, poll_interval: float = 0.5) -> None:
        """Step until `stop` is set: at once while there is a backlog, else every
        `poll_interval` seconds. Failures (bus or database away) are logged and retried
        with a growing pause: a relay that gives up would leave events unpublished."""
        pause = poll_interval
        while not stop.is_set():
            try:
                read, _ = await self.step()
            except Exception as error:
                _log.warning(
                    "relay: %s: %s; retrying in %.1f s", type(error).__name__, error, pause
                )
                self._checkpoint = None  # re-read what was really saved
                await _wait(stop, pause)
                pause = min(pause * 2, _MAX_BACKOFF)
                continue
            pause = poll_interval
            if read < self._batch_size:
                await _wait(stop, poll_interval)


async def _wait(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
