"""A poisoned table stops no background loop (issue 10 item 1), over real PostgreSQL and
NATS: rows written straight into the store (options that bypassed validation, a row that
cannot be decoded, one that cannot be folded, a table the bus refuses) are
quarantined by the clock, the bots worker, the relay and the tables-in-play model, logged
once each, listed by the store; every other table keeps timing out, being played by the
bots and being relayed; a released table is served again.

The poisoned tables live in a database of this module's own: a lobby or a clock of another
test must not meet them (they are made to break what reads them)."""

from __future__ import annotations

import logging
import uuid
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec
import pytest

from engine.banakil.options import options_from
from engine.table import Leave, SeatKind, TableCreated
from services.bus.nats import NatsBus
from services.bus.port import Bus, BusError, PublishResult
from services.bus.relay import Relay
from services.clock.clock import Clock
from services.projections.in_play import TablesInPlay
from services.store.port import Checkpoint, EventStore, Metadata, NewEvent, StoredEvent
from services.store.postgres import PostgresEventStore
from services.tables.codec import encode_event
from services.tables.quarantine import Quarantine
from services.tables.service import TableService
from tests.integration.bus_support import jetstream_versions, unique_table
from tests.service_support import Adapters, Rig, batch_time, scratch_database, types_after

_QUARANTINE_LOG = "services.tables.quarantine"


@pytest.fixture(scope="module")
async def real(database_url: str, nats_url: str) -> AsyncIterator[Adapters]:
    """The real adapters over a scratch database (see the module docstring)."""
    async with scratch_database(database_url, "sahra_quarantine") as url:
        store = await PostgresEventStore.connect(url)
        bus = await NatsBus.connect(nats_url)
        yield Adapters(store, bus)
        await bus.close()
        await store.close()


@pytest.fixture
async def rig(real: Adapters) -> AsyncIterator[Rig]:
    made = Rig(real)
    yield made
    await made.close()


async def _poisoned(
    store: EventStore, service: TableService, seats: tuple[SeatKind, ...] = ("human",) * 4
) -> str:
    """A table in play whose TableCreated was written straight into the store with what
    POST /tables used to accept (a turn of 10^12 s, a target of 10^23); the rest through
    the service, whose own fold already fails on it once a turn runs (a 500, before)."""
    table_id = f"poison-{uuid.uuid4().hex[:12]}"
    options = msgspec.structs.replace(
        options_from("sahrat"), turn_seconds=10**12, target_score=10**23
    )
    created = TableCreated(table_id=table_id, game="banakil", options=options, seats=seats)
    now = datetime.now(UTC).isoformat()
    await store.append(
        table_id,
        0,
        [encode_event(created, table_id)],
        Metadata(command_id="create", seat=0, server_time=now),
    )
    for seat, kind in enumerate(seats, start=1):
        if kind == "human":
            assert (await service.take_seat(table_id, seat, f"P{seat}")).accepted
    with pytest.raises(OverflowError):
        await service.start(table_id, 1)  # dealt, then its deadline cannot be computed
    return table_id


async def _append_raw(store: EventStore, table_id: str, type_: str, data: bytes) -> None:
    version = await store.stream_version(table_id)
    await store.append(
        table_id, version, [NewEvent(type=type_, data=data)], Metadata(command_id="poison")
    )


async def _held(store: EventStore, table_id: str) -> list[tuple[str, str]]:
    return [(q.process, q.reason) for q in await store.quarantined() if q.stream_id == table_id]


def _logged(caplog: pytest.LogCaptureFixture, table_id: str) -> int:
    return sum(
        1
        for r in caplog.records
        if r.name == _QUARANTINE_LOG and r.levelno == logging.ERROR and table_id in r.getMessage()
    )


def _clock(rig: Rig, quarantine_refresh: float = 0.0) -> Clock:
    """A clock of the test's tables, reading the held tables at every tick."""
    writer = rig.service()
    store = rig.adapters.store
    tables = TablesInPlay(
        store,
        accept=rig.tables.__contains__,
        quarantine=Quarantine(store, refresh=quarantine_refresh),
    )
    return Clock(
        tables,
        lambda table_id, command, command_id: writer.handle(table_id, 0, command, command_id),
        rig.time,
    )


async def test_a_table_whose_turn_cannot_be_timed_is_held_and_the_others_still_time_out(
    rig: Rig, caplog: pytest.LogCaptureFixture
) -> None:
    """PF-TIMER-1/3 go on for every other table while one table's deadline cannot even be
    computed (a turn of 10^12 s); the clock logs that table once and holds it."""
    store = rig.adapters.store
    normal = await rig.table(rig.service())
    poisoned = await _poisoned(store, rig.service())
    rig.tables.add(poisoned)
    clock = _clock(rig)
    dealt = await batch_time(store, normal, "CardsDealt")
    before = await store.stream_version(normal)

    rig.time.at(dealt, 20)
    fired = await clock.tick()

    assert [(f.deadline.table_id, f.deadline.command_id) for f in fired] == [
        (normal, "timeout:1:1:draw")
    ]
    assert await types_after(store, normal, before) == ["TurnTimedOut"]
    [(process, reason)] = await _held(store, poisoned)
    assert process == "clock" and reason.startswith("OverflowError")
    # The discard window of the normal table still closes on time; the poisoned table is
    # never looked at again, so never logged again.
    rig.time.at(await batch_time(store, normal, "TurnTimedOut"), 5)
    for _ in range(5):
        await clock.tick()
    assert (await types_after(store, normal, before))[:2] == ["TurnTimedOut", "CardDiscarded"]
    assert _logged(caplog, poisoned) == 1
    assert poisoned not in {d.table_id for d in clock.pending()}


async def test_rows_that_cannot_be_decoded_or_folded_hold_only_their_own_tables(
    rig: Rig, caplog: pytest.LogCaptureFixture
) -> None:
    """The tables-in-play model holds a table with a row it cannot decode, and one with a
    row it cannot fold (a seat that does not exist), and the clock fires the rest."""
    store = rig.adapters.store
    normal = await rig.table(rig.service())
    garbled, unfoldable = await rig.table(rig.service()), await rig.table(rig.service())
    await _append_raw(store, garbled, "SeatTaken", b'{"type": "SeatTaken"}')
    seat_99 = b'{"type": "SeatTaken", "seat": 99, "player": "x"}'
    await _append_raw(store, unfoldable, "SeatTaken", seat_99)
    clock = _clock(rig)
    rig.time.at(await batch_time(store, normal, "CardsDealt"), 20)

    fired = await clock.tick()
    for _ in range(3):
        await clock.tick()

    assert [f.deadline.table_id for f in fired] == [normal]
    assert [p for p, _ in await _held(store, garbled)] == ["tables-in-play"]
    [(process, reason)] = await _held(store, unfoldable)
    assert process == "tables-in-play" and reason.startswith("IndexError")
    assert _logged(caplog, garbled) == _logged(caplog, unfoldable) == 1
    assert {t.table_id for t in clock.tables} == {normal}


async def test_a_held_table_is_skipped_until_released_and_then_served_again(
    rig: Rig,
) -> None:
    store = rig.adapters.store
    table_id = await rig.table(rig.service())
    clock = _clock(rig)
    rig.time.at(await batch_time(store, table_id, "CardsDealt"), 20)
    await clock.tables.catch_up()
    assert await store.quarantine(table_id, "clock", "held by an operator's test")

    assert await clock.tick() == []  # due, but held
    held = await rig.service().handle(table_id, 0, Leave(), "leave-while-held")
    assert held.rejection is not None and held.rejection.code == "table_quarantined"
    assert "held by an operator's test" in held.rejection.message

    assert await store.release(table_id) == 1
    fired = await clock.tick()
    assert [(f.deadline.table_id, f.accepted) for f in fired] == [(table_id, True)]


async def test_a_table_whose_drive_fails_is_held_once_and_the_bots_play_the_others(
    rig: Rig, caplog: pytest.LogCaptureFixture
) -> None:
    """PF-CONN-4 / PF-BOT-4: after the human leaves, the bots play the normal table on; its
    copy with a turn of 10^12 s fails in every drive: held at the first, not retried."""
    store = rig.adapters.store
    service = rig.service()
    normal = await rig.table(service, "sahrat", ("human", "bot", "bot", "bot"))
    assert (await service.handle(normal, 1, Leave(), "leave")).accepted
    poisoned = await _poisoned(store, rig.service(), ("human", "bot", "bot", "bot"))
    with pytest.raises(OverflowError):  # appended, then the service's fold fails on it
        await rig.service().handle(poisoned, 1, Leave(), "leave")
    rig.tables.add(poisoned)
    bots = rig.bots()
    before = await store.stream_version(normal)

    for _ in range(10):
        await bots.tick()
        await bots.idle()

    assert await store.stream_version(normal) > before + 10
    assert bots.moves > 10
    assert [p for p, _ in await _held(store, poisoned)] == ["bots"]
    assert _logged(caplog, poisoned) == 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR and normal in r.message]


class _RefusesOneTable:
    """The bus, except that every publish holding an event of `table` fails: a table the
    bus will never take (too big for it, say), while it takes every other."""

    def __init__(self, bus: Bus, table: str) -> None:
        self._bus, self._table = bus, table

    async def publish(self, events: Sequence[StoredEvent]) -> PublishResult:
        if any(e.stream_id == self._table for e in events):
            raise BusError(f"publish of {self._table}:1 not confirmed: maximum payload exceeded")
        return await self._bus.publish(events)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._bus, name)


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


async def test_a_table_the_bus_always_refuses_is_held_and_the_relay_moves_on(
    real: Adapters, nats_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    store = real.store
    name = f"relay-{uuid.uuid4().hex[:12]}"
    await store.save_checkpoint(name, await _head(store))
    normal, refused = unique_table(), unique_table()
    unsubjectable = "not a subject." + uuid.uuid4().hex
    await _append(store, refused, 0, 2)
    await _append(store, unsubjectable, 0, 2)
    await _append(store, normal, 0, 2)
    relay = Relay(
        store,
        _RefusesOneTable(real.bus, refused),
        name,
        quarantine=Quarantine(store, refresh=0.0),
    )

    failures = 0
    for _ in range(6):
        try:
            read, _ = await relay.step()
        except BusError:
            failures += 1
            continue
        if read == 0:
            break

    assert failures == 2  # the third batch in a row with only that table failing holds it
    assert await jetstream_versions(nats_url, normal) == [1, 2]
    assert await store.load_checkpoint(name) == await _head(store)
    assert [p for p, _ in await _held(store, refused)] == ["relay"]
    [(process, reason)] = await _held(store, unsubjectable)
    assert process == "relay" and "subject" in reason
    assert _logged(caplog, refused) == 1 and _logged(caplog, unsubjectable) == 1
    # Both stay skipped; the normal table's later events are published at once.
    await _append(store, refused, 2, 1)
    await _append(store, normal, 2, 1)
    await relay.catch_up()
    assert await jetstream_versions(nats_url, normal) == [1, 2, 3]
    assert _logged(caplog, refused) == 1
