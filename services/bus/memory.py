"""An in-process bus with the NATS adapter's behaviour, for unit tests and one-process runs.

Like JetStream it de-duplicates by `<stream_id>:<version>` (for the life of the bus,
where JetStream forgets after its window) and delivers asynchronously: `publish` returns
once the message is "stored", and each subscription's handler runs in its own task, one
message at a time, in publication order. `disconnect()` and `reconnect()` play an outage
for tests: meanwhile publishing and subscribing fail, and nothing is delivered.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence

from services.bus.port import (
    BusError,
    BusMessage,
    BusStatus,
    Handler,
    PublishResult,
    Subscription,
    decode_message,
    encode_event,
    message_id,
    subject_for,
)
from services.store.port import StoredEvent

__all__ = ["MemoryBus"]

_log = logging.getLogger(__name__)


class _MemorySubscription:
    def __init__(self, bus: MemoryBus, stream_id: str, handler: Handler) -> None:
        self._bus = bus
        self.stream_id = stream_id
        self._handler = handler
        self.lost = False  # made before an outage: delivers nothing more
        self.queue: asyncio.Queue[BusMessage] = asyncio.Queue()
        self._task = asyncio.create_task(self._deliver(), name=f"bus:{stream_id}")

    async def _deliver(self) -> None:
        while True:
            message = await self.queue.get()
            try:
                await self._handler(message)
            except Exception:
                key = message_id(message.stream_id, message.version)
                _log.exception("bus handler failed on %s", key)

    async def unsubscribe(self) -> None:
        self._bus._forget(self)
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


class MemoryBus:
    def __init__(self) -> None:
        self._seen: set[str] = set()
        self._log: dict[str, list[BusMessage]] = {}
        self._subscriptions: list[_MemorySubscription] = []
        self._closed = False
        self._connected = True
        self._outages = 0

    async def publish(self, events: Sequence[StoredEvent]) -> PublishResult:
        self._check()
        stored = duplicates = 0
        for event in events:
            subject_for(event.stream_id)  # same validation as the real subject
            key = message_id(event.stream_id, event.version)
            if key in self._seen:
                duplicates += 1
                continue
            self._seen.add(key)
            # Round-trip through the wire format so tests exercise the same encoding.
            message = decode_message(encode_event(event))
            self._log.setdefault(event.stream_id, []).append(message)
            for sub in self._subscriptions:
                if sub.stream_id == event.stream_id and not sub.lost:
                    sub.queue.put_nowait(message)
            stored += 1
        return PublishResult(stored=stored, duplicates=duplicates)

    async def subscribe(self, stream_id: str, handler: Handler) -> Subscription:
        self._check()
        subject_for(stream_id)
        sub = _MemorySubscription(self, stream_id, handler)
        self._subscriptions.append(sub)
        return sub

    def status(self) -> BusStatus:
        return BusStatus(connected=self._connected and not self._closed, outages=self._outages)

    def disconnect(self) -> None:
        """An outage: the subscriptions made so far never deliver again (as a NATS
        consumer lost with its server), and publishing and subscribing fail."""
        self._connected = False
        self._outages += 1
        for sub in self._subscriptions:
            sub.lost = True

    def reconnect(self) -> None:
        self._connected = True

    def stored(self, stream_id: str) -> list[BusMessage]:
        """Every message stored for the table, in order (what JetStream would hold)."""
        return list(self._log.get(stream_id, ()))

    async def close(self) -> None:
        self._closed = True
        for sub in list(self._subscriptions):
            await sub.unsubscribe()

    def _check(self) -> None:
        if self._closed:
            raise BusError("the bus is closed")
        if not self._connected:
            raise BusError("the bus is not connected")

    def _forget(self, sub: _MemorySubscription) -> None:
        with contextlib.suppress(ValueError):
            self._subscriptions.remove(sub)
