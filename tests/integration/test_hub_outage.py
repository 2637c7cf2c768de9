"""The hub without its bus (issue 10, item 6), in one process over the in-memory adapters:
a session is seated while the bus is away, sees another writer's moves read from the
store, and the table is followed from the bus again once it is back.
(tests/e2e/test_nats_outage_processes.py does the same with real processes and NATS.)"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from engine.banakil.options import options_from
from services.bus.memory import MemoryBus
from services.gateway.hub import Hub, Session
from services.store.memory import MemoryEventStore
from services.tables.service import TableService

_ROUND = 0.02  # the hub's poll interval here


class _Socket:
    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    async def send(self, raw: bytes) -> None:
        self.messages.append(json.loads(raw))

    @property
    def versions(self) -> list[int]:
        return [m["version"] for m in self.messages if m["type"] in ("welcome", "view")]

    async def shown(self, version: int) -> None:
        async with asyncio.timeout(2):
            while version not in self.versions:
                await asyncio.sleep(0.005)


async def test_a_session_is_served_from_the_store_while_the_bus_is_away() -> None:
    store, bus = MemoryEventStore(), MemoryBus()
    here, elsewhere = TableService(store, bus), TableService(store, bus)
    hub = Hub(here, bus, poll_interval=_ROUND)
    stop = asyncio.Event()
    keeper = asyncio.create_task(hub.run(stop))
    created = await elsewhere.create_table(options_from("sahrat"), ("human",) * 4)
    table_id = created.state.table_id
    socket = _Socket()
    session = Session(table_id, None, socket.send)
    try:
        bus.disconnect()
        loaded = await asyncio.wait_for(hub.join(session), 1)  # not refused, at once
        await session.greet(loaded, [])
        assert socket.versions == [created.version]

        outcome = await elsewhere.take_seat(table_id, 2, "Badr")  # its notice is lost
        await socket.shown(outcome.version)  # read from the store

        bus.reconnect()
        async with asyncio.timeout(2):  # subscribed again by the next round
            while not [s for s in bus._subscriptions if s.stream_id == table_id]:
                await asyncio.sleep(0.005)
        later = await elsewhere.take_seat(table_id, 3, "Chadi")
        await socket.shown(later.version)  # from its notice: the table is not read each round
        assert socket.versions == sorted(set(socket.versions))
    finally:
        stop.set()
        await keeper
        await hub.leave(session)
        await bus.close()
