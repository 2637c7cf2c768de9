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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol

from services.bus.port import Bus, PublishResult, is_subject_token
from services.entry import connect_servers
from services.store.port import Checkpoint, StoredEvent

__all__ = ["Relay", "RelaySource", "RelayStartupError", "run_relay"]

_log = logging.getLogger(__name__)
_MAX_BACKOFF = 10.0


class RelaySource(Protocol):
    """The part of the event store the relay reads (every EventStore has it)."""

    async def read_all(
        self, after: Checkpoint, limit: int = 500
    ) -> tuple[list[StoredEvent], Checkpoint]: ...

    async def load_checkpoint(self, name: str) -> Checkpoint: ...

    async def save_checkpoint(self, name: str, checkpoint: Checkpoint) -> None: ...


class RelayStartupError(Exception):
    """A server could not be reached or is not ready; the message is one line for people."""


class Relay:
    def __init__(
        self, store: RelaySource, bus: Bus, name: str = "relay", batch_size: int = 500
    ) -> None:
        self._store = store
        self._bus = bus
        self.name = name
        self._batch_size = batch_size
        self._checkpoint: Checkpoint | None = None

    async def step(self) -> tuple[int, PublishResult]:
        """Publish the next batch after the checkpoint and save the new checkpoint.

        Returns how many events were read and what the bus did with them."""
        if self._checkpoint is None:
            self._checkpoint = await self._store.load_checkpoint(self.name)
        events, after = await self._store.read_all(self._checkpoint, self._batch_size)
        if not events:
            return 0, PublishResult()
        publishable = []
        for e in events:
            if is_subject_token(e.stream_id):
                publishable.append(e)
            else:  # never publishable: holding the checkpoint for it would stall every table
                _log.error("relay: stream id %r is not a subject token; skipped", e.stream_id)
        result = await self._bus.publish(publishable)
        await self._store.save_checkpoint(self.name, after)
        self._checkpoint = after
        if result.stored:
            _log.info(
                "relay: published %d event(s) their writers had not (%d already were)",
                result.stored,
                result.duplicates,
            )
        return len(events), result

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


async def run_relay(
    database_url: str,
    nats_url: str,
    *,
    stop: asyncio.Event | None = None,
    poll_interval: float = 0.5,
    connect_timeout: float = 5.0,
    name: str = "relay",
) -> None:
    """The entry of `sahra serve relay`: connect both servers, then relay until `stop`.

    Raises RelayStartupError (one line, no secrets) when a server cannot be reached
    within `connect_timeout` or the database has no schema yet."""
    async with connect_servers(
        database_url,
        nats_url,
        name,
        connect_timeout=connect_timeout,
        pool=2,
        error=RelayStartupError,
    ) as (store, bus):
        _log.info("relay %r: connected; publishing what the store commits", name)
        await Relay(store, bus, name).run_forever(stop or asyncio.Event(), poll_interval)


async def _wait(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
