"""The real adapters most integration modules share: one PostgreSQL store (migrated) and
one NATS bus per module, on the session's servers (tests/conftest.py), and a gateway served
over them by uvicorn (`base`, its URL) with a client of it (`http`). A module that needs
its own (a scratch database, a bus per test) defines a fixture of the same name; the
gateway is then served over that one."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from services.bus.nats import NatsBus
from services.gateway.app import create_app
from services.gateway.settings import Settings
from services.store.migrate import migrate
from services.store.postgres import PostgresEventStore
from tests.e2e.gateway_support import running


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


@pytest.fixture(scope="module")
async def base(store: PostgresEventStore, bus: NatsBus) -> AsyncIterator[str]:
    app = create_app(store, bus, Settings(token_secret=b"integration-test-secret-0123456789"))
    async with running(app) as url:
        yield url


@pytest.fixture
async def http(base: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=base, timeout=15) as client:
        yield client
