"""A gateway folds what it reads from the store, on a bus notice (issue 10, item 2): a
burst of notices costs one read in flight and one more, a notice of a version the store
does not hold costs one read and changes nothing."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from engine.banakil.options import options_from
from services.bus.memory import MemoryBus
from services.bus.port import BusMessage
from services.store.memory import MemoryEventStore
from services.store.port import EventStore, StoredEvent
from services.tables.service import TableService


class _HeldReads:
    """The reader's view of a store: its reads of one table take their rows, then wait
    until let go (the writer's reads do not wait)."""

    def __init__(self, inner: MemoryEventStore) -> None:
        self._inner = inner
        self.table = ""
        self.reads = 0
        self.reading = asyncio.Event()
        self.go = asyncio.Event()
        self.go.set()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def read_stream(self, stream_id: str, after_version: int = 0) -> list[StoredEvent]:
        rows = await self._inner.read_stream(stream_id, after_version)
        if stream_id == self.table:
            self.reads += 1
            self.reading.set()
            await self.go.wait()
        return rows


def _services() -> tuple[_HeldReads, TableService, TableService]:
    inner, bus = MemoryEventStore(), MemoryBus()
    held = _HeldReads(inner)
    return held, TableService(inner, bus), TableService(cast(EventStore, held), bus)


def _notice(table_id: str, version: int) -> BusMessage:
    return BusMessage(position=0, stream_id=table_id, version=version, type="SeatTaken")


async def _table(writer: TableService, reader: TableService) -> str:
    created = await writer.create_table(options_from("sahrat"), ("human",) * 4)
    table_id = created.state.table_id
    await reader.load(table_id)
    reader.follow(table_id)  # kept current by notices from now on
    return table_id


async def test_notices_during_a_read_are_covered_by_one_more_read() -> None:
    store, writer, reader = _services()
    table_id = await _table(writer, reader)
    store.table = table_id
    version = await store.stream_version(table_id)
    seen: list[int] = []
    reader.add_listener(lambda _, loaded: seen.append(loaded.version))

    assert (await writer.take_seat(table_id, 2, "Badr")).accepted
    store.go.clear()
    first = asyncio.create_task(reader.on_published(_notice(table_id, version + 1)))
    await store.reading.wait()  # it read version + 1 and waits
    assert (await writer.take_seat(table_id, 3, "Chadi")).accepted
    assert (await writer.take_seat(table_id, 4, "Dima")).accepted
    for later in (version + 2, version + 3):
        await asyncio.wait_for(reader.on_published(_notice(table_id, later)), 1)  # at once
    store.go.set()
    await first

    assert store.reads == 2
    loaded = reader.cached(table_id)
    assert loaded is not None and loaded.version == version + 3
    assert [s.player for s in loaded.state.seats] == [None, "Badr", "Chadi", "Dima"]
    assert seen == [version + 1, version + 3]


async def test_a_notice_of_a_version_the_store_lacks_costs_one_read_and_changes_nothing() -> None:
    store, writer, reader = _services()
    table_id = await _table(writer, reader)
    store.table = table_id
    version = await store.stream_version(table_id)
    seen: list[int] = []
    reader.add_listener(lambda _, loaded: seen.append(loaded.version))

    await reader.on_published(_notice(table_id, version + 1))
    await reader.on_published(_notice(table_id, version + 1000))

    assert store.reads == 2
    loaded = reader.cached(table_id)
    assert loaded is not None and loaded.version == version
    assert seen == []
