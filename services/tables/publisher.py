"""Publishing committed events off the command's path.

A command is answered as soon as its events are committed: the store is the truth, and
the bus only tells the other gateways to look. So the writer hands the events to the
`Publisher` and replies at once. The publisher's task sends everything handed to it since
its last round in one go (the NATS adapter pipelines the messages, then waits for all the
acks), in the order given, so each table's versions reach the bus in order; a local
session never waits for the bus either (the table service tells the hub itself).

Nothing is lost when a publish never happens (the bus is away, or the process dies with
events still queued): the relay (`services/bus/relay.py`; `sahra serve relay`, or inside
`sahra up`) publishes every event the store committed, and JetStream drops the copies by
their `<stream>:<version>` id. What a lost publish costs is delay: other gateways see those
versions when the relay has published them, or as soon as the notice of a later event of
the table reaches them (a notice makes a subscriber read the store after the version it
holds, see `services/bus/port.py`). What goes on the bus is each event's notice (stream,
version, position, type), never its data.

A publisher that cannot keep up (the bus slow or away) keeps at most `limit` events and
gives the oldest up beyond that, with a warning, to the relay.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Sequence

from services.bus.port import Bus, BusError
from services.store.port import StoredEvent

__all__ = ["Publisher"]

_log = logging.getLogger(__name__)


class Publisher:
    def __init__(self, bus: Bus, *, limit: int = 20_000, batch: int = 1_000) -> None:
        self._bus = bus
        self._limit = limit
        self._batch = batch
        self._queue: deque[StoredEvent] = deque()
        self._task: asyncio.Task[None] | None = None  # running while there is work
        self._sending = 0  # events of the batch with the bus now
        self._closed = False

    def publish(self, events: Sequence[StoredEvent]) -> None:
        """Queue `events` (committed, in version order) to be published soon."""
        if self._closed:
            return  # shutting down: the relay publishes them
        self._queue.extend(events)
        excess = len(self._queue) - self._limit
        if excess > 0:
            for _ in range(excess):
                self._queue.popleft()
            _log.warning("publisher: %d event(s) over the limit left to the relay", excess)
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="publisher")

    @property
    def pending(self) -> int:
        """Events handed over and not yet published (or given up)."""
        return len(self._queue) + self._sending

    async def flush(self) -> None:
        """Until everything handed over so far has been published or given up."""
        while self._task is not None:
            await asyncio.shield(self._task)

    async def close(self, timeout: float = 5.0) -> None:
        """Publish what is queued (for at most `timeout` seconds), then stop."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.flush(), timeout)
        self._closed = True
        task = self._task
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._queue:
            _log.warning("publisher: %d event(s) left to the relay", len(self._queue))
            self._queue.clear()

    async def _run(self) -> None:
        try:
            while self._queue:
                count = min(len(self._queue), self._batch)
                batch = [self._queue.popleft() for _ in range(count)]
                self._sending = count
                try:
                    await self._bus.publish(batch)
                except BusError as exc:  # the relay publishes what the store committed
                    _log.warning("publish of %d event(s) failed, the relay will: %s", count, exc)
                except Exception:
                    _log.exception("publish of %d event(s) failed, the relay will", count)
        finally:
            self._sending = 0
            self._task = None
