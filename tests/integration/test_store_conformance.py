"""One behaviour for every event store adapter: in memory, and PostgreSQL (real server).

Each test works on fresh stream ids; catch-up reads start from the end of whatever the
database already holds and only look at the test's own streams.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Sequence
from datetime import datetime
from typing import Any

import asyncpg
import msgspec
import pytest

from services.store.memory import MemoryEventStore
from services.store.migrate import migrate
from services.store.port import (
    Checkpoint,
    ConcurrencyError,
    EventStore,
    Metadata,
    NewEvent,
    Snapshot,
    StoredEvent,
)
from services.store.postgres import PostgresEventStore, append_on


@pytest.fixture(scope="module")
async def migrated_url(database_url: str) -> str:
    await migrate(database_url)
    return database_url


@pytest.fixture(scope="module")
async def pg_store(migrated_url: str) -> AsyncIterator[PostgresEventStore]:
    store = await PostgresEventStore.connect(migrated_url, min_size=2, max_size=12)
    yield store
    await store.close()


@pytest.fixture(params=["memory", "postgres"])
def store(request: pytest.FixtureRequest, pg_store: PostgresEventStore) -> EventStore:
    return MemoryEventStore() if request.param == "memory" else pg_store


def new_id(prefix: str = "table") -> str:
    return f"{prefix}-{uuid.uuid4().hex}"


def event(type_: str, **data: Any) -> NewEvent:
    return NewEvent(type=type_, data=msgspec.json.encode(data))


def meta(command_id: str | None = None, seat: int | None = 1) -> Metadata:
    return Metadata(
        command_id=command_id or new_id("cmd"),
        seat=seat,
        player="layla",
        server_time="2024-05-01T20:15:00+03:00",
    )


def data_of(events: Sequence[StoredEvent]) -> list[tuple[str, Any]]:
    return [(e.type, msgspec.json.decode(e.data)) for e in events]


async def read_to_end(store: EventStore) -> Checkpoint:
    after = Checkpoint()
    while True:
        events, after = await store.read_all(after, limit=1000)
        if not events:
            return after


async def read_mine(
    store: EventStore, after: Checkpoint, streams: set[str], limit: int = 500
) -> tuple[list[StoredEvent], Checkpoint]:
    mine: list[StoredEvent] = []
    while True:
        events, after = await store.read_all(after, limit)
        if not events:
            return mine, after
        mine.extend(e for e in events if e.stream_id in streams)


async def test_appended_events_read_back_in_order_with_their_metadata(store: EventStore) -> None:
    table = new_id()
    m = meta("cmd-deal", seat=0)
    result = await store.append(
        table, 0, [event("DealStarted", n=1), event("CardDrawn", card="7H")], m
    )

    assert (result.first_version, result.last_version, result.duplicate) == (1, 2, False)
    stored = await store.read_stream(table)
    assert [e.version for e in stored] == [1, 2]
    assert data_of(stored) == [("DealStarted", {"n": 1}), ("CardDrawn", {"card": "7H"})]
    assert all(e.metadata == m and e.stream_id == table for e in stored)
    assert all(isinstance(e.recorded_at, datetime) and e.recorded_at.tzinfo for e in stored)
    assert result.positions == tuple(e.position for e in stored)
    assert stored[0].position < stored[1].position
    assert await store.stream_version(table) == 2

    later = await store.append(table, 2, [event("CardDiscarded", card="7H")], meta())
    assert (later.first_version, later.last_version) == (3, 3)
    assert [e.version for e in await store.read_stream(table, after_version=2)] == [3]
    assert await store.read_stream(new_id()) == []
    assert await store.stream_version(new_id()) == 0


async def test_events_of_named_types_are_read_in_position_order_after_a_position_and_time(
    store: EventStore,
) -> None:
    """How the audit finds finished units of every game: by the types that end one."""
    deal, round_ = new_id(), new_id()
    await store.append(deal, 0, [event("DealStarted", n=1), event("DealScored", deal=1)], meta())
    await store.append(round_, 0, [event("RoundWon", round=1), event("CardDrawn")], meta())
    await store.append(deal, 2, [event("DealScored", deal=2)], meta())

    def mine(found: list[StoredEvent]) -> list[StoredEvent]:
        return [e for e in found if e.stream_id in (deal, round_)]

    ended = mine(await store.read_types(("DealScored", "RoundWon")))
    assert [(e.stream_id, e.type) for e in ended] == [
        (deal, "DealScored"),
        (round_, "RoundWon"),
        (deal, "DealScored"),
    ]
    assert data_of(ended) == [
        ("DealScored", {"deal": 1}),
        ("RoundWon", {"round": 1}),
        ("DealScored", {"deal": 2}),
    ]
    assert [e.version for e in ended] == [2, 1, 3]
    assert ended == sorted(ended, key=lambda e: e.position)
    assert all(e.metadata.player == "layla" for e in ended)
    after = mine(await store.read_types(["DealScored", "RoundWon"], ended[0].position))
    assert after == ended[1:]
    since = mine(await store.read_types(("DealScored", "RoundWon"), since=ended[2].recorded_at))
    assert since == ended[2:]
    assert mine(await store.read_types(("RoundWon",))) == [ended[1]]
    assert mine(await store.read_types(())) == []


async def test_an_append_at_a_stale_version_raises_concurrency_error(store: EventStore) -> None:
    table = new_id()
    await store.append(table, 0, [event("DealStarted")], meta())

    with pytest.raises(ConcurrencyError) as raised:
        await store.append(table, 0, [event("DealStarted")], meta())

    assert (raised.value.stream_id, raised.value.expected) == (table, 0)
    assert await store.stream_version(table) == 1


async def test_an_append_expecting_a_version_never_reached_raises(store: EventStore) -> None:
    table = new_id()
    await store.append(table, 0, [event("DealStarted")], meta())

    with pytest.raises(ConcurrencyError):
        await store.append(table, 3, [event("CardDrawn")], meta())
    with pytest.raises(ConcurrencyError):
        await store.append(new_id(), 1, [event("CardDrawn")], meta())

    assert await store.stream_version(table) == 1


async def test_an_empty_append_is_refused(store: EventStore) -> None:
    with pytest.raises(ValueError, match="at least one event"):
        await store.append(new_id(), 0, [], meta())


async def test_concurrent_appends_at_one_version_have_exactly_one_winner(
    store: EventStore,
) -> None:
    table = new_id()

    outcomes = await asyncio.gather(
        *(store.append(table, 0, [event("Rolled", by=i)], meta()) for i in range(16)),
        return_exceptions=True,
    )

    winners = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(winners) == 1
    assert all(isinstance(o, ConcurrencyError) for o in outcomes if o not in winners)
    assert [e.version for e in await store.read_stream(table)] == [1]


async def test_writers_retrying_on_conflict_append_each_command_exactly_once(
    store: EventStore,
) -> None:
    table = new_id()
    commands = [new_id("cmd") for _ in range(12)]

    async def writer(command_id: str) -> int:
        conflicts = 0
        while True:
            version = await store.stream_version(table)
            try:
                await store.append(
                    table, version, [event("Played", cmd=command_id)], meta(command_id)
                )
                return conflicts
            except ConcurrencyError:
                conflicts += 1
                await asyncio.sleep(0)

    await asyncio.gather(*(writer(c) for c in commands))

    stored = await store.read_stream(table)
    assert [e.version for e in stored] == list(range(1, 13))
    assert sorted(e.metadata.command_id for e in stored) == sorted(commands)


async def test_a_repeated_command_appends_nothing_and_returns_its_first_outcome(
    store: EventStore,
) -> None:
    table = new_id()
    deal = meta("cmd-deal")
    first = await store.append(table, 0, [event("A"), event("B"), event("C")], deal)
    other = await store.append(table, 3, [event("D")], meta("cmd-draw"))

    again = await store.append(table, 4, [event("A"), event("B"), event("C")], deal)
    stale = await store.append(table, 0, [event("X")], deal)
    last = await store.append(table, 1, [event("D")], meta("cmd-draw"))

    assert (first.first_version, first.last_version, first.duplicate) == (1, 3, False)
    assert again == stale == msgspec.structs.replace(first, duplicate=True)
    assert last == msgspec.structs.replace(other, duplicate=True)
    assert data_of(await store.read_stream(table)) == [
        ("A", {}),
        ("B", {}),
        ("C", {}),
        ("D", {}),
    ]
    elsewhere = await store.append(new_id(), 0, [event("A")], deal)
    assert not elsewhere.duplicate


async def test_concurrent_repeats_of_one_command_append_it_once(store: EventStore) -> None:
    table = new_id()
    m = meta()

    outcomes = await asyncio.gather(
        *(store.append(table, 0, [event("A"), event("B")], m) for _ in range(10))
    )

    assert sorted(o.duplicate for o in outcomes) == [False] + [True] * 9
    assert {(o.first_version, o.last_version, o.positions) for o in outcomes} == {
        (1, 2, outcomes[0].positions)
    }
    assert await store.stream_version(table) == 2


async def test_read_all_pages_through_new_events_in_commit_order(store: EventStore) -> None:
    start = await read_to_end(store)
    x, y = new_id(), new_id()
    await store.append(x, 0, [event("X1"), event("X2")], meta())
    await store.append(y, 0, [event("Y1")], meta())
    await store.append(x, 2, [event("X3")], meta())
    await store.append(y, 1, [event("Y2"), event("Y3")], meta())

    seen, end = await read_mine(store, start, {x, y}, limit=2)

    assert [e.type for e in seen] == ["X1", "X2", "Y1", "X3", "Y2", "Y3"]
    assert [e.position for e in seen] == sorted(e.position for e in seen)
    assert start < end
    assert await store.read_all(end) == ([], end)
    again, _ = await read_mine(store, start, {x, y}, limit=1000)
    assert again == seen


async def test_checkpoints_are_saved_and_loaded_by_name(store: EventStore) -> None:
    relay, projection = new_id("relay"), new_id("standings")
    assert await store.load_checkpoint(relay) == Checkpoint()

    await store.save_checkpoint(relay, Checkpoint(7, 40))
    await store.save_checkpoint(projection, Checkpoint(3, 12))
    await store.save_checkpoint(relay, Checkpoint(9, 41))

    assert await store.load_checkpoint(relay) == Checkpoint(9, 41)
    assert await store.load_checkpoint(projection) == Checkpoint(3, 12)


async def test_snapshots_are_kept_per_engine_version_and_never_go_back(
    store: EventStore,
) -> None:
    table = new_id()
    assert await store.load_snapshot(table, "1") is None
    old = Snapshot(stream_id=table, version=3, engine_version="1", state=b'{"phase":"play"}')
    new_engine = Snapshot(stream_id=table, version=5, engine_version="2", state=b"\x00{}")

    await store.save_snapshot(old)
    await store.save_snapshot(new_engine)
    await store.save_snapshot(msgspec.structs.replace(old, version=2, state=b'{"stale":1}'))

    assert await store.load_snapshot(table, "1") == old
    assert await store.load_snapshot(table, "2") == new_engine
    newer = msgspec.structs.replace(old, version=8, state=b'{"phase":"scored"}')
    await store.save_snapshot(newer)
    assert await store.load_snapshot(table, "1") == newer
    assert await store.load_snapshot(new_id(), "1") is None


async def test_a_quarantined_table_is_listed_per_process_until_it_is_released(
    store: EventStore,
) -> None:
    """Issue 10 item 1: a background process holds a table it cannot handle; the first
    report of each process is kept; a release frees the table for every process."""
    poisoned, other = new_id(), new_id()
    mine = {poisoned, other}

    async def listed() -> list[tuple[str, str, str, int, int]]:
        return [
            (q.stream_id, q.process, q.reason, q.version, q.position)
            for q in await store.quarantined()
            if q.stream_id in mine
        ]

    assert await listed() == []
    assert await store.quarantine(
        poisoned, "clock", "OverflowError: date value out of range", version=4
    )
    assert not await store.quarantine(poisoned, "clock", "a later report", version=9)
    assert await store.quarantine(poisoned, "relay", "bad\x00 id\n  spread", position=17)
    assert await store.quarantine(other, "bots", "x" * 5_000)

    held = await listed()
    assert held[:2] == [
        (poisoned, "clock", "OverflowError: date value out of range", 4, 0),
        (poisoned, "relay", "bad\\x00 id spread", 0, 17),  # one line, no NUL
    ]
    assert held[2][:2] == (other, "bots") and len(held[2][2]) == 500
    since = [q.since for q in await store.quarantined() if q.stream_id in mine]
    assert all(s.tzinfo is not None for s in since) and since == sorted(since)

    assert await store.release(poisoned) == 2
    assert await store.release(poisoned) == 0
    assert [row[:2] for row in await listed()] == [(other, "bots")]
    assert await store.quarantine(poisoned, "clock", "again")  # held afresh after release


async def test_a_seats_preference_is_kept_per_table_seat_and_name_and_appends_no_event(
    store: EventStore,
) -> None:
    """PF-SORT-3: a seat's hand order is kept beside its table, never as an event; the
    latest choice replaces the one before, and every other seat, table and name is apart."""
    table, other = new_id(), new_id()
    before = await store.read_all(Checkpoint(), limit=1_000_000)
    assert await store.preference(table, 1, "hand_order") is None

    await store.save_preference(table, 1, "hand_order", b'{"order":"suit"}')
    await store.save_preference(table, 2, "hand_order", b'{"order":"rank"}')
    await store.save_preference(other, 1, "hand_order", b'{"order": "manual", "cards": ["7H#1"]}')
    await store.save_preference(table, 1, "hand_order", b'{"order":"manual","cards":["AS#2"]}')

    def value(raw: bytes | None) -> Any:
        assert raw is not None
        return msgspec.json.decode(raw)

    assert value(await store.preference(table, 1, "hand_order")) == {
        "order": "manual",
        "cards": ["AS#2"],
    }
    assert value(await store.preference(table, 2, "hand_order")) == {"order": "rank"}
    assert value(await store.preference(other, 1, "hand_order")) == {
        "order": "manual",
        "cards": ["7H#1"],
    }
    assert await store.preference(table, 3, "hand_order") is None
    assert await store.preference(table, 1, "colours") is None
    assert await store.stream_version(table) == 0  # no event, no stream
    after = await store.read_all(before[1], limit=1_000_000)
    assert not [e for e in after[0] if e.stream_id in (table, other)]


# --- PostgreSQL only: transactions that commit in another order than they took positions.


class _Reader:
    """A catch-up reader polling in the background, as the NATS relay does."""

    def __init__(self, store: EventStore, after: Checkpoint, streams: set[str]) -> None:
        self.seen: list[StoredEvent] = []
        self._store, self._after, self._streams = store, after, streams
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            events, self._after = await self._store.read_all(self._after, limit=3)
            self.seen.extend(e for e in events if e.stream_id in self._streams)
            await asyncio.sleep(0.005)

    async def wait_for(self, count: int, timeout: float = 10.0) -> None:
        async with asyncio.timeout(timeout):
            while len(self.seen) < count:
                await asyncio.sleep(0.01)

    async def stop(self) -> None:
        self._task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await self._task


@pytest.fixture
async def raw_conn(migrated_url: str) -> AsyncIterator[asyncpg.Connection[Any]]:
    conn: asyncpg.Connection[Any] = await asyncpg.connect(migrated_url)
    yield conn
    await conn.close()


@pytest.mark.parametrize("txid_first", [False, True], ids=["position-first", "txid-first"])
async def test_a_reader_waits_for_an_earlier_open_transaction_and_skips_nothing(
    pg_store: PostgresEventStore, raw_conn: asyncpg.Connection[Any], txid_first: bool
) -> None:
    a, b = new_id("a"), new_id("b")
    reader = _Reader(pg_store, await read_to_end(pg_store), {a, b})
    writer_a = raw_conn.transaction()
    await writer_a.start()
    try:
        if txid_first:
            # A gets its transaction id now and its positions only after B's.
            await raw_conn.fetchval("SELECT pg_current_xact_id()")
            b1 = await pg_store.append(b, 0, [event("B1")], meta())
            a1 = await append_on(raw_conn, a, 0, [event("A1"), event("A2")], meta())
            assert b1.positions[0] < a1.positions[0]
        else:
            # A takes the lower positions, B the higher ones and commits first: a reader
            # going by position alone would pass A's positions now and never return.
            a1 = await append_on(raw_conn, a, 0, [event("A1"), event("A2")], meta())
            b1 = await pg_store.append(b, 0, [event("B1")], meta())
            assert a1.positions[-1] < b1.positions[0]
        assert await pg_store.read_stream(a) == []  # A is not committed
        assert [e.type for e in await pg_store.read_stream(b)] == ["B1"]  # B is

        await asyncio.sleep(0.3)
        assert reader.seen == []  # B waits behind the still-open A
        await writer_a.commit()
    except BaseException:
        await writer_a.rollback()
        raise
    await pg_store.append(b, 1, [event("B2")], meta())

    await reader.wait_for(4)
    await asyncio.sleep(0.2)
    await reader.stop()

    assert sorted(e.type for e in reader.seen) == ["A1", "A2", "B1", "B2"]  # each once
    for stream in (a, b):
        assert [e.version for e in reader.seen if e.stream_id == stream] == [1, 2]


async def test_a_reader_under_concurrent_slow_writers_sees_every_event_once_in_stream_order(
    pg_store: PostgresEventStore, migrated_url: str
) -> None:
    streams = [new_id("s") for _ in range(4)]
    reader = _Reader(pg_store, await read_to_end(pg_store), set(streams))
    appended: list[tuple[str, int]] = []

    async def writer(n: int) -> None:
        conn: asyncpg.Connection[Any] = await asyncpg.connect(migrated_url)
        try:
            for i in range(12):
                stream = streams[(n + i) % len(streams)]
                while True:
                    version = await pg_store.stream_version(stream)
                    try:
                        async with conn.transaction():
                            result = await append_on(conn, stream, version, [event("E")], meta())
                            await asyncio.sleep(0.001 * ((n * 7 + i * 3) % 5))  # commit late
                        appended.append((stream, result.last_version))
                        break
                    except ConcurrencyError:
                        await asyncio.sleep(0)
        finally:
            await conn.close()

    await asyncio.gather(*(writer(n) for n in range(6)))
    await reader.wait_for(len(appended))
    await asyncio.sleep(0.2)
    await reader.stop()

    assert len(appended) == 72
    assert sorted((e.stream_id, e.version) for e in reader.seen) == sorted(appended)
    for stream in streams:
        versions = [e.version for e in reader.seen if e.stream_id == stream]
        assert versions == list(range(1, len(versions) + 1))


async def test_a_cancelled_append_leaves_the_store_with_all_its_connections(
    migrated_url: str, raw_conn: asyncpg.Connection[Any]
) -> None:
    store = await PostgresEventStore.connect(migrated_url, min_size=1, max_size=2)
    table = new_id()
    try:
        holder = raw_conn.transaction()
        await holder.start()
        await append_on(raw_conn, table, 0, [event("A")], meta())  # holds version 1, open
        stuck = asyncio.create_task(store.append(table, 0, [event("B")], meta()))
        await asyncio.sleep(0.2)
        assert not stuck.done()  # waiting on the unique index for A's transaction

        stuck.cancel()
        with pytest.raises(asyncio.CancelledError):
            await stuck
        await holder.rollback()

        async with asyncio.timeout(10):
            tables = [new_id() for _ in range(6)]
            done = await asyncio.gather(*(store.append(t, 0, [event("C")], meta()) for t in tables))
            again = await store.append(table, 0, [event("B")], meta())
        assert [r.first_version for r in done] == [1] * 6
        assert again.last_version == 1
    finally:
        await store.close()


async def test_callers_beyond_the_pool_size_queue_and_those_giving_up_cost_nothing(
    migrated_url: str,
) -> None:
    store = await PostgresEventStore.connect(migrated_url, min_size=1, max_size=2)
    try:
        calls = [
            asyncio.create_task(store.append(new_id(), 0, [event("E")], meta())) for _ in range(20)
        ]
        await asyncio.sleep(0)  # all started: two hold the connections, the rest wait
        for call in calls[6:12]:
            call.cancel()
        outcomes = await asyncio.gather(*calls, return_exceptions=True)

        served = [o for o in outcomes if not isinstance(o, BaseException)]
        assert all(isinstance(o, asyncio.CancelledError) for o in outcomes if o not in served)
        assert len(served) >= 14
        async with asyncio.timeout(10):
            more = await asyncio.gather(
                *(store.append(new_id(), 0, [event("E")], meta()) for _ in range(8))
            )
        assert len(more) == 8
    finally:
        await store.close()
