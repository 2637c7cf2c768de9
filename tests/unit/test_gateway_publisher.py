"""The gateway's publisher: committed events go to the bus in the background, in order, in
batches; a bus that fails or falls behind never fails or slows a command (the relay
publishes what the publisher could not)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from services.bus.port import BusError, PublishResult
from services.store.port import Metadata, StoredEvent
from services.tables.publisher import Publisher


def _event(version: int, stream_id: str = "t1") -> StoredEvent:
    return StoredEvent(
        position=version,
        stream_id=stream_id,
        version=version,
        type="CardDrawn",
        data=b"{}",
        metadata=Metadata(command_id=f"c{version}"),
        recorded_at=datetime.now(UTC),
    )


class _Bus:
    def __init__(self) -> None:
        self.batches: list[list[int]] = []
        self.open = asyncio.Event()
        self.open.set()
        self.fail = False

    async def publish(self, events: Sequence[StoredEvent]) -> PublishResult:
        await self.open.wait()
        if self.fail:
            raise BusError("NATS is away")
        self.batches.append([e.version for e in events])
        return PublishResult(stored=len(events))


async def test_events_go_out_in_order_batched_while_the_bus_is_busy() -> None:
    bus = _Bus()
    publisher = Publisher(bus)  # type: ignore[arg-type]
    bus.open.clear()
    publisher.publish([_event(1), _event(2)])  # taken at once, then held by the bus
    await asyncio.sleep(0)
    for version in (3, 4, 5):
        publisher.publish([_event(version)])
    assert publisher.pending > 0
    bus.open.set()
    await publisher.flush()
    assert bus.batches == [[1, 2], [3, 4, 5]]
    assert publisher.pending == 0


async def test_a_failing_bus_is_logged_and_later_events_still_go(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bus = _Bus()
    publisher = Publisher(bus)  # type: ignore[arg-type]
    bus.fail = True
    with caplog.at_level(logging.WARNING, "services.tables.publisher"):
        publisher.publish([_event(1)])
        await publisher.flush()
    assert "the relay will" in caplog.text
    bus.fail = False
    publisher.publish([_event(2)])
    await publisher.flush()
    assert bus.batches == [[2]]


async def test_a_bus_that_falls_behind_leaves_the_oldest_beyond_the_limit_to_the_relay(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bus = _Bus()
    publisher = Publisher(bus, limit=3)  # type: ignore[arg-type]
    bus.open.clear()
    publisher.publish([_event(1)])
    await asyncio.sleep(0)  # version 1 is with the bus
    with caplog.at_level(logging.WARNING, "services.tables.publisher"):
        publisher.publish([_event(v) for v in (2, 3, 4, 5, 6)])
    assert "left to the relay" in caplog.text
    bus.open.set()
    await publisher.flush()
    assert bus.batches == [[1], [4, 5, 6]]


async def test_close_publishes_what_is_queued_then_takes_no_more() -> None:
    bus = _Bus()
    publisher = Publisher(bus)  # type: ignore[arg-type]
    publisher.publish([_event(1), _event(2)])
    await publisher.close()
    assert bus.batches == [[1, 2]]
    publisher.publish([_event(3)])  # after close: the relay's
    await asyncio.sleep(0.01)
    assert bus.batches == [[1, 2]] and publisher.pending == 0


async def test_close_gives_up_on_a_bus_that_does_not_answer(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bus = _Bus()
    bus.open.clear()
    publisher = Publisher(bus)  # type: ignore[arg-type]
    publisher.publish([_event(1)])
    await asyncio.sleep(0)
    publisher.publish([_event(2)])
    with caplog.at_level(logging.WARNING, "services.tables.publisher"):
        await publisher.close(timeout=0.05)
    assert "left to the relay" in caplog.text
    assert bus.batches == [] and publisher.pending == 0
