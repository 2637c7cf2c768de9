"""The relay against a real PostgreSQL and a real JetStream: a writer that dies between
commit and publish loses nothing, and nothing arrives twice."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import msgspec
import pytest

from services.bus.nats import NatsBus
from services.bus.port import BusError, Handler, PublishResult, Subscription
from services.bus.relay import Relay
from services.runtime.infra import free_port
from services.store.port import Checkpoint, EventStore, Metadata, NewEvent, StoredEvent
from services.store.postgres import PostgresEventStore
from tests.integration.bus_support import Collector, jetstream_versions, unique_table

_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def bus(nats_url: str) -> AsyncIterator[NatsBus]:
    bus = await NatsBus.connect(nats_url)
    yield bus
    await bus.close()


@pytest.fixture
async def relay_name(store: PostgresEventStore) -> str:
    """A relay of this test's own that starts at the end of what the database holds
    (other tests share the database; their events are not this test's business)."""
    name = f"relay-{uuid.uuid4().hex[:12]}"
    await store.save_checkpoint(name, await _head(store))
    return name


async def _head(store: EventStore) -> Checkpoint:
    after = Checkpoint()
    while True:
        events, after = await store.read_all(after, limit=5000)
        if not events:
            return after


async def _append(store: EventStore, table: str, expected: int, count: int) -> None:
    events = [
        NewEvent(type="CardDrawn", data=msgspec.json.encode({"n": expected + i}))
        for i in range(1, count + 1)
    ]
    await store.append(table, expected, events, Metadata(command_id=uuid.uuid4().hex, seat=1))


async def _settle(collector: Collector, last: int) -> list[int]:
    """Wait for `last`, then a moment more for any copy that might still be coming."""
    await collector.wait_for_version(last)
    await asyncio.sleep(0.3)
    return collector.versions


# A writer (a gateway) in its own process: it commits two appends, publishes the first,
# and dies between the second commit and its publish.
_DYING_WRITER = textwrap.dedent(
    """
    import asyncio, os, sys
    import msgspec
    from services.bus.nats import NatsBus
    from services.store.port import Metadata, NewEvent
    from services.store.postgres import PostgresEventStore

    async def main(table, dsn, nats_url):
        store = await PostgresEventStore.connect(dsn)
        bus = await NatsBus.connect(nats_url)
        def new(n):
            return NewEvent(type="CardDrawn", data=msgspec.json.encode({"n": n}))
        await store.append(table, 0, [new(1), new(2)], Metadata(command_id="c1", seat=1))
        await bus.publish(await store.read_stream(table))
        await store.append(table, 2, [new(3)], Metadata(command_id="c2", seat=2))
        os._exit(17)  # committed, never published

    asyncio.run(main(*sys.argv[1:]))
    """
)


async def test_events_a_dead_writer_never_published_reach_subscribers_exactly_once(
    store: PostgresEventStore, bus: NatsBus, relay_name: str, database_url: str, nats_url: str
) -> None:
    table = unique_table()
    gateway = Collector()
    await bus.subscribe(table, gateway)

    writer = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _DYING_WRITER, table, database_url, nats_url, cwd=_ROOT
    )
    assert await asyncio.wait_for(writer.wait(), 60) == 17
    assert [e.version for e in await store.read_stream(table)] == [1, 2, 3]
    assert await _settle(gateway, 2) == [1, 2]  # version 3 is committed but lost

    result = await Relay(store, bus, relay_name).catch_up()

    assert result == PublishResult(stored=1, duplicates=2)  # JetStream dropped 1 and 2
    assert await _settle(gateway, 3) == [1, 2, 3]
    assert await jetstream_versions(nats_url, table) == [1, 2, 3]


async def test_the_relay_resumes_from_its_saved_checkpoint_after_a_restart(
    store: PostgresEventStore, bus: NatsBus, relay_name: str, nats_url: str
) -> None:
    table = unique_table()
    await _append(store, table, 0, 3)  # nobody published these
    first = await Relay(store, bus, relay_name).catch_up()
    saved = await store.load_checkpoint(relay_name)
    await _append(store, table, 3, 2)

    second = await Relay(store, bus, relay_name).catch_up()  # a new process, same name

    assert first == PublishResult(stored=3, duplicates=0)
    assert second == PublishResult(stored=2, duplicates=0)  # nothing republished
    assert await store.load_checkpoint(relay_name) > saved
    assert await jetstream_versions(nats_url, table) == [1, 2, 3, 4, 5]


class _DiesBeforeSavingCheckpoint:
    """The store as a relay sees it, for a relay killed right after its publish."""

    def __init__(self, store: EventStore) -> None:
        self._store = store

    async def read_all(
        self, after: Checkpoint, limit: int = 500
    ) -> tuple[list[StoredEvent], Checkpoint]:
        return await self._store.read_all(after, limit)

    async def load_checkpoint(self, name: str) -> Checkpoint:
        return await self._store.load_checkpoint(name)

    def __getattr__(self, name: str) -> Any:  # the rest of the store (the quarantine)
        return getattr(self._store, name)

    async def save_checkpoint(self, name: str, checkpoint: Checkpoint) -> None:
        raise RuntimeError("killed")


async def test_a_batch_published_but_not_checkpointed_is_deduplicated_on_restart(
    store: PostgresEventStore, bus: NatsBus, relay_name: str, nats_url: str
) -> None:
    table = unique_table()
    gateway = Collector()
    await bus.subscribe(table, gateway)
    await _append(store, table, 0, 4)
    with pytest.raises(RuntimeError, match="killed"):
        await Relay(_DiesBeforeSavingCheckpoint(store), bus, relay_name).step()

    again = await Relay(store, bus, relay_name).catch_up()

    assert again == PublishResult(stored=0, duplicates=4)
    assert await _settle(gateway, 4) == [1, 2, 3, 4]
    assert await jetstream_versions(nats_url, table) == [1, 2, 3, 4]


async def test_a_relay_and_a_live_writer_never_store_an_event_twice(
    store: PostgresEventStore, bus: NatsBus, relay_name: str, nats_url: str
) -> None:
    table = unique_table()
    stop = asyncio.Event()
    relay = asyncio.create_task(Relay(store, bus, relay_name).run_forever(stop, 0.01))
    try:
        for version in range(0, 20, 2):  # the writer publishes each append itself
            await _append(store, table, version, 2)
            await bus.publish(await store.read_stream(table, after_version=version))
        await asyncio.sleep(0.3)
    finally:
        stop.set()
        await asyncio.wait_for(relay, 5)

    assert await jetstream_versions(nats_url, table) == list(range(1, 21))


class _FlakyBus:
    """A bus that is away for its first `failures` publishes."""

    def __init__(self, bus: NatsBus, failures: int) -> None:
        self._bus = bus
        self.failures = failures

    async def publish(self, events: Sequence[StoredEvent]) -> PublishResult:
        if self.failures:
            self.failures -= 1
            raise BusError("publish of x:1 not confirmed: TimeoutError")
        return await self._bus.publish(events)

    async def subscribe(self, stream_id: str, handler: Handler) -> Subscription:
        return await self._bus.subscribe(stream_id, handler)

    async def close(self) -> None:
        pass


async def test_run_forever_rides_out_a_bus_outage_and_stops_when_asked(
    store: PostgresEventStore, bus: NatsBus, relay_name: str, nats_url: str
) -> None:
    table = unique_table()
    gateway = Collector()
    await bus.subscribe(table, gateway)
    flaky = _FlakyBus(bus, failures=2)
    stop = asyncio.Event()
    relay = asyncio.create_task(Relay(store, flaky, relay_name).run_forever(stop, 0.01))

    await _append(store, table, 0, 3)
    await gateway.wait_for_version(3)
    stop.set()
    await asyncio.wait_for(relay, 5)

    assert flaky.failures == 0
    assert gateway.versions == [1, 2, 3]
    assert await jetstream_versions(nats_url, table) == [1, 2, 3]


async def test_a_stream_id_that_cannot_be_a_subject_is_skipped_not_blocking(
    store: PostgresEventStore, bus: NatsBus, relay_name: str, nats_url: str
) -> None:
    table = unique_table()
    await _append(store, "not a subject." + uuid.uuid4().hex, 0, 1)
    await _append(store, table, 0, 1)

    result = await Relay(store, bus, relay_name).catch_up()

    assert result == PublishResult(stored=1, duplicates=0)
    assert await jetstream_versions(nats_url, table) == [1]
    assert await store.load_checkpoint(relay_name) == await _head(store)


# `sahra serve relay` as a process (through services.cli.relay.main until the lead wires `serve`).


def _serve_relay(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "services.cli.relay", "relay", *args],
        cwd=_ROOT,
        env=env if env is not None else os.environ.copy(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finish(process: subprocess.Popen[str], timeout: float = 30) -> tuple[int, str, str]:
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise
    return process.returncode, out, err


@contextlib.contextmanager
def _silent_server() -> Iterator[int]:
    """A port that accepts connections and never says a word."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        yield silent.getsockname()[1]


async def test_the_relay_process_publishes_and_exits_cleanly_on_sigterm(
    store: PostgresEventStore, bus: NatsBus, relay_name: str, database_url: str, nats_url: str
) -> None:
    table = unique_table()
    gateway = Collector()
    await bus.subscribe(table, gateway)
    await store.save_checkpoint("relay", await _head(store))  # the CLI relay's own name
    env = {**os.environ, "SAHRA_DATABASE_URL": database_url, "SAHRA_NATS_URL": nats_url}
    process = _serve_relay("--poll-interval", "0.05", env=env)
    try:
        await _append(store, table, 0, 2)
        await gateway.wait_for_version(2, timeout=30)
    finally:
        process.send_signal(signal.SIGTERM)
        code, _, err = await asyncio.to_thread(_finish, process)

    assert code == 0, err
    assert "Traceback" not in err
    assert gateway.versions == [1, 2]


@pytest.mark.parametrize("down", ["nats-closed", "nats-silent", "pg-closed", "pg-silent"])
def test_an_unreachable_server_ends_the_relay_with_one_line_and_status_2(
    down: str, database_url: str, nats_url: str
) -> None:
    with _silent_server() as silent:
        port = silent if down.endswith("silent") else free_port()
        urls = {
            "--database-url": database_url,
            "--nats-url": nats_url,
        }
        if down.startswith("nats"):
            urls["--nats-url"] = f"nats://127.0.0.1:{port}"
        else:
            urls["--database-url"] = f"postgresql://sahra:secret@127.0.0.1:{port}/sahra"
        started = time.monotonic()
        code, out, err = _finish(
            _serve_relay(*(x for kv in urls.items() for x in kv), "--connect-timeout", "1")
        )
        elapsed = time.monotonic() - started

    assert code == 2
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith("sahra serve relay: ")
    assert ("NATS" if down.startswith("nats") else "PostgreSQL") in err
    assert "secret" not in err
    assert elapsed < 10


def test_no_urls_given_exits_2_and_says_how_to_give_them() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SAHRA_")}

    code, _, err = _finish(_serve_relay(env=env))

    assert code == 2
    assert err == "sahra serve relay: no database: pass --database-url or set SAHRA_DATABASE_URL\n"


async def test_a_database_without_the_schema_says_to_migrate_first(
    database_url: str, nats_url: str
) -> None:
    name = f"sahra_relay_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(database_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        empty = urlunsplit(urlsplit(database_url)._replace(path=f"/{name}"))
        process = _serve_relay("--database-url", empty, "--nats-url", nats_url)
        code, _, err = await asyncio.to_thread(_finish, process)
        await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    finally:
        await admin.close()

    assert code == 2
    assert (
        err
        == "sahra serve relay: the database has no Sahra schema yet: run `sahra migrate` first\n"
    )
