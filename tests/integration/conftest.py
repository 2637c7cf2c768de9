"""The real adapters most integration modules share: one PostgreSQL store (migrated) and
one NATS bus per module, on the session's servers (tests/conftest.py). A module that needs
its own (a scratch database, a bus per test) defines a fixture of the same name."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from services.bus.nats import NatsBus
from services.store.migrate import migrate
from services.store.postgres import PostgresEventStore


@pytest.fixture(scope="module")
async def store(database_url: str) -> AsyncIterator[PostgresEventStore]:
    await migrate(database_url)
    store = await PostgresEventStore.connect(database_url)
    yield store
    await store.close()


@pytest.fixture(scope="module")
async def bus(nats_url: str) -> AsyncIterator[NatsBus]:
    bus = await NatsBus.connect(nats_url)
    yield bus
    await bus.close()
