"""One conformance suite over both bus adapters: MemoryBus and NatsBus on a real JetStream."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import msgspec
import pytest

from services.bus.memory import MemoryBus
from services.bus.nats import NatsBus
from services.bus.port import (
    Bus,
    BusError,
    BusMessage,
    BusStatus,
    PublishResult,
    decode_message,
    encode_event,
    subject_for,
)
from services.runtime.infra import embedded_nats, free_port, nats_binary
from tests.integration.bus_support import (
    Collector,
    event,
    jetstream_bodies,
    jetstream_versions,
    unique_table,
)


@dataclass
class BusUnderTest:
    bus: Bus
    stored_versions: Callable[[str], Awaitable[list[int]]]  # what the broker holds
    stored_bodies: Callable[[str], Awaitable[list[bytes]]]  # ... as the bytes it holds


@pytest.fixture(params=["memory", "nats"])
async def subject(request: pytest.FixtureRequest) -> AsyncIterator[BusUnderTest]:
    if request.param == "memory":
        memory = MemoryBus()

        async def memory_versions(stream_id: str) -> list[int]:
            return [m.version for m in memory.stored(stream_id)]

        async def memory_bodies(stream_id: str) -> list[bytes]:
            return [msgspec.json.encode(m) for m in memory.stored(stream_id)]

        yield BusUnderTest(memory, memory_versions, memory_bodies)
        await memory.close()
        return
    nats_url: str = request.getfixturevalue("nats_url")
    bus = await NatsBus.connect(nats_url)

    async def nats_versions(stream_id: str) -> list[int]:
        return await jetstream_versions(nats_url, stream_id)

    async def nats_bodies(stream_id: str) -> list[bytes]:
        return await jetstream_bodies(nats_url, stream_id)

    yield BusUnderTest(bus, nats_versions, nats_bodies)
    await bus.close()


async def test_a_subscriber_receives_published_events_in_version_order(
    subject: BusUnderTest,
) -> None:
    table = unique_table()
    got = Collector()
    await subject.bus.subscribe(table, got)

    result = await subject.bus.publish([event(table, v) for v in range(1, 6)])

    assert result == PublishResult(stored=5, duplicates=0)
    await got.wait_for_version(5)
    assert got.versions == [1, 2, 3, 4, 5]
    first = got.messages[0]
    assert (first.stream_id, first.version, first.type) == (table, 1, "CardDrawn")
    assert await subject.stored_versions(table) == [1, 2, 3, 4, 5]


async def test_a_message_is_a_notice_that_carries_none_of_the_event(
    subject: BusUnderTest,
) -> None:
    """Issue 10 item 2: the bus is not trusted, and not everyone on it may read every
    event, so a message names the stream, version, position and type, and nothing else."""
    table = unique_table()
    got = Collector()
    await subject.bus.subscribe(table, got)
    original = event(table, 1)

    await subject.bus.publish([original])

    await got.wait_for_version(1)
    assert got.messages == [
        BusMessage(position=original.position, stream_id=table, version=1, type=original.type)
    ]
    for body in await subject.stored_bodies(table):
        assert set(json.loads(body)) == {"position", "stream_id", "version", "type"}
        assert original.data not in body and b"command_id" not in body


def test_a_message_in_the_old_format_is_read_as_a_notice_only() -> None:
    """A body with the event inside (as publishers wrote before, or as a forger writes)
    gives the notice; the event it carries is never decoded."""
    body = json.dumps(
        {
            "position": 9,
            "stream_id": "t-1",
            "version": 4,
            "type": "SeatTaken",
            "data": {"type": "SeatTaken", "seat": 2, "player": "Mallory"},
            "metadata": {"command_id": "forged"},
        }
    ).encode()
    assert decode_message(body) == BusMessage(
        position=9, stream_id="t-1", version=4, type="SeatTaken"
    )
    assert encode_event(event("t-1", 4)).count(b"seat") == 0


async def test_republishing_the_same_stream_version_is_dropped_as_a_duplicate(
    subject: BusUnderTest,
) -> None:
    table = unique_table()
    got = Collector()
    await subject.bus.subscribe(table, got)
    batch = [event(table, 1), event(table, 2)]

    first = await subject.bus.publish(batch)
    again = await subject.bus.publish(batch)  # e.g. the relay after the writer
    await subject.bus.publish([event(table, 3)])  # a marker: everything before it arrived

    assert first == PublishResult(stored=2, duplicates=0)
    assert again == PublishResult(stored=0, duplicates=2)  # the PubAck duplicate flag
    await got.wait_for_version(3)
    assert got.versions == [1, 2, 3]
    assert await subject.stored_versions(table) == [1, 2, 3]


async def test_a_writer_and_the_relay_racing_store_each_event_once(subject: BusUnderTest) -> None:
    table = unique_table()
    batch = [event(table, v) for v in range(1, 11)]

    results = await asyncio.gather(*(subject.bus.publish(batch) for _ in range(3)))

    assert sum(r.stored for r in results) == 10
    assert sum(r.duplicates for r in results) == 20
    assert sorted(await subject.stored_versions(table)) == list(range(1, 11))


async def test_a_subscription_does_not_get_another_tables_messages(
    subject: BusUnderTest,
) -> None:
    table = unique_table()
    mine, theirs = Collector(), Collector()
    await subject.bus.subscribe(table, mine)
    await subject.bus.subscribe(table + "0", theirs)  # a longer id with the same prefix

    await subject.bus.publish([event(table + "0", 1), event(unique_table(), 1)])
    await subject.bus.publish([event(table, 1)])

    await mine.wait_for_version(1)
    await theirs.wait_for_version(1)
    assert [m.stream_id for m in mine.messages] == [table]
    assert [m.stream_id for m in theirs.messages] == [table + "0"]


async def test_a_subscription_starts_with_events_published_after_it(
    subject: BusUnderTest,
) -> None:
    table = unique_table()
    await subject.bus.publish([event(table, 1), event(table, 2)])
    got = Collector()

    await subject.bus.subscribe(table, got)
    await subject.bus.publish([event(table, 3)])

    await got.wait_for_version(3)
    assert got.versions == [3]


async def test_every_subscriber_of_a_table_gets_every_event(subject: BusUnderTest) -> None:
    table = unique_table()
    gateways = [Collector() for _ in range(3)]
    for g in gateways:
        await subject.bus.subscribe(table, g)

    await subject.bus.publish([event(table, 1), event(table, 2)])

    for g in gateways:
        await g.wait_for_version(2)
        assert g.versions == [1, 2]


async def test_a_failing_handler_does_not_stop_delivery(subject: BusUnderTest) -> None:
    table = unique_table()
    got = Collector()

    async def flaky(message: BusMessage) -> None:
        if message.version == 1:
            raise RuntimeError("handler bug")
        await got(message)

    await subject.bus.subscribe(table, flaky)
    await subject.bus.publish([event(table, 1), event(table, 2)])

    await got.wait_for_version(2)
    assert got.versions == [2]


async def test_after_unsubscribe_the_handler_is_not_called(subject: BusUnderTest) -> None:
    table = unique_table()
    stopped, still = Collector(), Collector()
    subscription = await subject.bus.subscribe(table, stopped)
    await subject.bus.subscribe(table, still)
    await subject.bus.publish([event(table, 1)])
    await stopped.wait_for_version(1)

    await subscription.unsubscribe()
    await subject.bus.publish([event(table, 2)])

    await still.wait_for_version(2)
    await asyncio.sleep(0.2)
    assert stopped.versions == [1]
    await subscription.unsubscribe()  # a second call is harmless


@pytest.mark.parametrize("bad", ["", "a.b", "a*", "a>", "a b", "a\nb"])
async def test_a_stream_id_that_is_not_one_subject_token_is_refused(
    subject: BusUnderTest, bad: str
) -> None:
    with pytest.raises(ValueError, match="subject token"):
        await subject.bus.publish([event(bad, 1)])
    with pytest.raises(ValueError, match="subject token"):
        await subject.bus.subscribe(bad, Collector())


def test_the_subject_and_message_id_follow_the_architecture() -> None:
    assert subject_for("t-42") == "sahra.table.t-42"


async def test_the_nats_message_id_is_stream_colon_version(nats_url: str) -> None:
    bus = await NatsBus.connect(nats_url)
    table = unique_table()
    try:
        await bus.publish([event(table, 7)])
    finally:
        await bus.close()
    assert await jetstream_versions(nats_url, table) == [7]  # header checked there


async def test_a_batch_the_stream_refuses_raises_and_stores_nothing(nats_url: str) -> None:
    bus = await NatsBus.connect(nats_url)
    table = unique_table()
    # The same connection, expecting another stream than the one that captures the subject:
    # JetStream refuses every message of the pipelined batch.
    wrong = NatsBus(bus._nc, bus._js, "NOT-SAHRA", bus._state, timeout=2.0)
    try:
        with pytest.raises(BusError, match=f"publish of {table}:1 not confirmed"):
            await wrong.publish([event(table, 1), event(table, 2)])
        assert wrong._acks is not None and not wrong._acks._waiting  # nothing left behind
        assert await jetstream_versions(nats_url, table) == []
        await bus.publish([event(table, 1), event(table, 2)])  # the connection still works
        assert await jetstream_versions(nats_url, table) == [1, 2]
    finally:
        await bus.close()


async def test_connecting_to_an_unreachable_nats_fails_fast_with_one_clear_error() -> None:
    url = f"nats://127.0.0.1:{free_port()}"
    started = time.monotonic()

    with pytest.raises(BusError, match=r"cannot reach NATS at nats://127\.0\.0\.1:\d+ within 1 s"):
        await NatsBus.connect(url, timeout=1.0)

    assert time.monotonic() - started < 3


async def test_a_closed_memory_bus_refuses_to_publish() -> None:
    bus = MemoryBus()
    await bus.close()
    with pytest.raises(BusError):
        await bus.publish([event(unique_table(), 1)])


async def test_a_nats_without_jetstream_is_refused_with_a_clear_error() -> None:
    port = free_port()
    server = subprocess.Popen(
        [nats_binary(), "-a", "127.0.0.1", "-p", str(port)],  # no -js
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "nats-server did not start"
                await asyncio.sleep(0.05)

        with pytest.raises(BusError, match="JetStream is not enabled on the NATS at nats://"):
            await NatsBus.connect(f"nats://127.0.0.1:{port}", timeout=2.0)
    finally:
        server.terminate()
        server.wait(10)


async def test_a_connected_bus_says_so(subject: BusUnderTest) -> None:
    assert subject.bus.status() == BusStatus(connected=True, outages=0)


async def test_while_nats_is_down_the_bus_fails_at_once_and_counts_the_outage(
    tmp_path: Path,
) -> None:
    """Issue 10 item 6: a gateway must know at once that it has to read the store, and
    that subscriptions made before the outage may have missed notices."""
    port = free_port()
    with embedded_nats(tmp_path / "nats", port) as server:
        bus = await NatsBus.connect(server.url, timeout=2.0)
    try:
        async with asyncio.timeout(10):
            while bus.status().connected:
                await asyncio.sleep(0.05)
        assert bus.status() == BusStatus(connected=False, outages=1)
        started = time.monotonic()
        with pytest.raises(BusError, match="not connected"):
            await bus.subscribe(unique_table(), Collector())
        with pytest.raises(BusError, match="not connected"):
            await bus.publish([event(unique_table(), 1)])
        assert time.monotonic() - started < 0.5

        with embedded_nats(tmp_path / "nats", port):
            async with asyncio.timeout(15):
                while not bus.status().connected:
                    await asyncio.sleep(0.05)
            assert bus.status() == BusStatus(connected=True, outages=1)
            table, got = unique_table(), Collector()
            await bus.subscribe(table, got)
            await bus.publish([event(table, 1)])
            await got.wait_for_version(1)
    finally:
        await bus.close()


async def test_a_memory_bus_plays_an_outage() -> None:
    bus = MemoryBus()
    table, got = unique_table(), Collector()
    await bus.subscribe(table, got)
    bus.disconnect()
    assert bus.status() == BusStatus(connected=False, outages=1)
    with pytest.raises(BusError, match="not connected"):
        await bus.publish([event(table, 1)])
    bus.reconnect()
    await bus.publish([event(table, 1)])  # the subscription was lost with the outage
    await asyncio.sleep(0.05)
    assert got.versions == []
    assert bus.status() == BusStatus(connected=True, outages=1)
    await bus.close()
