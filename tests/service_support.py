"""The service path with a hand on time: table services over real adapters, a clock and a
bots worker that watch only the test's own tables, and a fake time source.

The store's `server_time` is the real time of each append; the fake time is set relative
to it (`at(since, seconds)`), so a test says "40 s after the turn began" and never waits.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from engine.banakil.messages import Cut
from engine.banakil.options import options_from
from engine.table import SeatKind
from services.bots.worker import BotsWorker
from services.bus.memory import MemoryBus
from services.bus.nats import NatsBus
from services.bus.port import Bus
from services.clock.clock import Clock
from services.projections.deadlines import utc_now
from services.projections.in_play import TablesInPlay
from services.store.memory import MemoryEventStore
from services.store.migrate import migrate
from services.store.port import EventStore, StoredEvent
from services.store.postgres import PostgresEventStore
from services.tables.seeds import SeedTiming
from services.tables.service import TableService

__all__ = [
    "Adapters",
    "FakeTime",
    "Rig",
    "adapters",
    "batch_time",
    "real",
    "scratch_database",
    "types_after",
]

# Deal at once, the next deal too; the host cuts by hand.
_NO_TIMERS = SeedTiming(seed_window=0.0, cut_seconds=3600.0, reveal_seconds=0.0)


@dataclass
class Adapters:
    store: EventStore
    bus: Bus


@pytest.fixture(scope="module")
async def real(database_url: str, nats_url: str) -> AsyncIterator[Adapters]:
    await migrate(database_url)
    store = await PostgresEventStore.connect(database_url)
    bus = await NatsBus.connect(nats_url)
    yield Adapters(store, bus)
    await bus.close()
    await store.close()


@pytest.fixture(params=["memory", "real"])
def adapters(request: pytest.FixtureRequest, real: Adapters) -> Adapters:
    """The in-memory adapters and the real ones, for a suite that must hold over both."""
    return real if request.param == "real" else Adapters(MemoryEventStore(), MemoryBus())


class FakeTime:
    """A time source that moves only when told to."""

    def __init__(self, start: datetime | None = None) -> None:
        self.value = start or utc_now()

    def __call__(self) -> datetime:
        return self.value

    def set(self, moment: datetime) -> None:
        self.value = moment

    def at(self, since: datetime, seconds: float) -> datetime:
        self.value = since + timedelta(seconds=seconds)
        return self.value


@dataclass
class Rig:
    """Table services, clocks and bots workers over one store, for the test's tables."""

    adapters: Adapters
    time: FakeTime = field(default_factory=FakeTime)
    tables: set[str] = field(default_factory=set)
    services: list[TableService] = field(default_factory=list)

    def service(self) -> TableService:
        made = TableService(self.adapters.store, self.adapters.bus, timing=_NO_TIMERS)
        self.services.append(made)
        return made

    def clock(self, service: TableService | None = None) -> Clock:
        writer = service or self.service()
        return Clock(
            TablesInPlay(self.adapters.store, accept=self.tables.__contains__),
            lambda table_id, command, command_id: writer.handle(table_id, 0, command, command_id),
            self.time,
        )

    def bots(self, service: TableService | None = None) -> BotsWorker:
        tables = TablesInPlay(self.adapters.store, accept=self.tables.__contains__)
        return BotsWorker(tables, service or self.service())

    async def table(
        self,
        service: TableService,
        preset: str = "sahrat",
        seats: Sequence[SeatKind] = ("human",) * 4,
        *,
        cut: bool = True,
        **options: object,
    ) -> str:
        """A started table: every human seat taken (P1, P2 …), the first deal dealt
        (in `classic`, once the host has cut)."""
        created = await service.create_table(options_from(preset, **options), tuple(seats))
        table_id = created.state.table_id
        self.tables.add(table_id)
        for seat, kind in enumerate(seats, start=1):
            if kind == "human":
                assert (await service.take_seat(table_id, seat, f"P{seat}")).accepted
        host = created.state.host
        assert (await service.start(table_id, host)).accepted
        game = (await service.load(table_id)).state.game_state
        if game is not None and game.phase == "seeded" and cut:  # classic: the host cuts
            assert (await service.handle(table_id, host, Cut(position=37), "cut")).accepted
        return table_id

    async def close(self) -> None:
        for service in self.services:
            await service.deadlines.close()
            await service.close()


async def types_after(store: EventStore, table_id: str, version: int) -> list[str]:
    return [row.type for row in await store.read_stream(table_id, version)]


async def batch_time(store: EventStore, table_id: str, event_type: str, nth: int = -1) -> datetime:
    """The server time of the batch holding the `nth` event of a type (default: the last)."""
    rows: list[StoredEvent] = [r for r in await store.read_stream(table_id) if r.type == event_type]
    return datetime.fromisoformat(rows[nth].metadata.server_time)


@contextlib.asynccontextmanager
async def scratch_database(
    database_url: str, prefix: str, *, migrated: bool = True
) -> AsyncIterator[str]:
    """A database of its own on the session's server, dropped at the end: for a test whose
    processes (a clock fires every table's deadlines) must not see the session's tables,
    or that migrates an empty database. Dropped WITH (FORCE): a process the test killed may
    have left its connections."""
    name = f"{prefix}_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(database_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        try:
            url = urlunsplit(urlsplit(database_url)._replace(path=f"/{name}"))
            if migrated:
                await migrate(url)
            yield url
        finally:
            await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    finally:
        await admin.close()
