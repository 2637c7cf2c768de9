"""A flapping connection appends a bounded number of presence events (issue 10 item 5).

A connect/close loop of one seat appended 99 presence events in 4 s: each close recorded
the seat away, each open recorded it back. Now a close is recorded only after a short
settle delay, and a socket of the same seat opened within it cancels the record; a seat
that stays away is still recorded away (PF-CONN-1), and back when it returns (PF-CONN-2).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest

from engine.banakil.options import options_from
from services.bus.memory import MemoryBus
from services.bus.nats import NatsBus
from services.gateway.app import create_app
from services.gateway.hub import Session
from services.gateway.presence import Presence
from services.gateway.settings import Settings
from services.store.memory import MemoryEventStore
from services.store.port import EventStore
from services.store.postgres import PostgresEventStore
from services.tables.seeds import SeedTiming
from services.tables.service import TableService
from tests.e2e.gateway_support import Client, running

_PRESENCE = {"SeatDisconnected", "SeatReconnected"}
_TIMING = SeedTiming(seed_window=0.0, cut_seconds=3600.0, reveal_seconds=0.0)


async def _presence_types(store: EventStore, table_id: str, after: int) -> list[str]:
    return [r.type for r in await store.read_stream(table_id, after) if r.type in _PRESENCE]


async def _started(service: TableService) -> str:
    options = options_from("sahrat")
    table_id = (await service.create_table(options, ("human",) * 4, host="P1")).state.table_id
    for seat in (2, 3, 4):
        assert (await service.take_seat(table_id, seat, f"P{seat}")).accepted
    assert (await service.start(table_id, 1)).accepted
    return table_id


async def _ignore(_: bytes) -> None:
    return None


@pytest.fixture
def memory() -> MemoryEventStore:
    return MemoryEventStore()


@pytest.fixture
async def service(memory: MemoryEventStore) -> AsyncIterator[TableService]:
    made = TableService(memory, MemoryBus(), timing=_TIMING)
    yield made
    await made.deadlines.close()
    await made.close()


async def _wait_for(store: EventStore, table_id: str, after: int, kind: str) -> None:
    async with asyncio.timeout(10):
        while kind not in await _presence_types(store, table_id, after):
            await asyncio.sleep(0.02)


async def test_a_seat_flapping_within_the_settle_delay_is_never_recorded_away(
    service: TableService, memory: MemoryEventStore
) -> None:
    table_id = await _started(service)
    presence = Presence(service, settle=0.3)
    store = memory
    before = (await service.load(table_id)).version
    for _ in range(50):
        session = Session(table_id, 2, _ignore)
        await presence.arrived(session)
        await presence.departed(session)
    assert await _presence_types(store, table_id, before) == []
    await _wait_for(store, table_id, before, "SeatDisconnected")  # PF-CONN-1: it stayed away
    assert await _presence_types(store, table_id, before) == ["SeatDisconnected"]
    assert (await service.load(table_id)).state.seats[1].presence == "away"

    back = Session(table_id, 2, _ignore)
    await presence.arrived(back)  # PF-CONN-2: back, recorded at once
    assert await _presence_types(store, table_id, before) == ["SeatDisconnected", "SeatReconnected"]
    assert (await service.load(table_id)).state.seats[1].presence == "here"


async def test_a_seat_away_longer_than_the_delay_is_recorded_away_then_back(
    service: TableService, memory: MemoryEventStore
) -> None:
    table_id = await _started(service)
    presence = Presence(service, settle=0.05)
    store = memory
    before = (await service.load(table_id)).version
    for _ in range(3):
        session = Session(table_id, 3, _ignore)
        await presence.arrived(session)
        await presence.departed(session)
        await _wait_for(store, table_id, before, "SeatDisconnected")
        before = (await service.load(table_id)).version
    # Each stay away outlived the delay: recorded away each time, back on each return.
    rows = await _presence_types(store, table_id, 0)
    assert rows == ["SeatDisconnected", "SeatReconnected"] * 2 + ["SeatDisconnected"]


async def test_a_close_while_the_gateway_shuts_down_is_not_recorded(
    service: TableService, memory: MemoryEventStore
) -> None:
    table_id = await _started(service)
    presence = Presence(service, settle=0.05)
    before = (await service.load(table_id)).version
    session = Session(table_id, 4, _ignore)
    await presence.arrived(session)
    await presence.departed(session)
    presence.closing = True  # the gateway shuts down: the server left, not the player
    await asyncio.sleep(0.2)
    assert await _presence_types(memory, table_id, before) == []


async def test_fifty_connect_close_cycles_of_one_seat_append_a_bounded_number_of_events(
    store: PostgresEventStore, nats_url: str
) -> None:
    """Real sockets on a served gateway, the gateway's own settle delay."""
    bus = await NatsBus.connect(nats_url)
    try:
        app = create_app(store, bus, Settings(token_secret=b"flapping-secret-0123456789abcdef"))
        async with running(app) as base, httpx.AsyncClient(base_url=base, timeout=15) as http:
            created = (await http.post("/tables", json={"player": "P1"})).json()
            table_id = created["table_id"]
            tokens = {1: created["token"]}
            for seat in (2, 3, 4):
                joined = await http.post(f"/tables/{table_id}/seats/{seat}", json={"player": "P"})
                tokens[seat] = joined.json()["token"]
            auth = {"Authorization": f"Bearer {tokens[1]}"}
            assert (await http.post(f"/tables/{table_id}/start", headers=auth)).status_code == 200
            before = await store.stream_version(table_id)

            loop = asyncio.get_running_loop()
            began = loop.time()
            for _ in range(50):
                client = await Client.open(base, table_id, tokens[2])
                assert client.messages[0]["type"] == "welcome"
                await client.close()
            took = loop.time() - began
            during = await _presence_types(store, table_id, before)
            await _wait_for(store, table_id, before, "SeatDisconnected")
            after = await _presence_types(store, table_id, before)
    finally:
        await bus.close()
    print(f"50 cycles in {took:.2f} s: {len(during)} presence events then, {len(after)} in all")
    assert len(during) <= 2, during
    assert after[-1] == "SeatDisconnected" and len(after) <= 3, after
