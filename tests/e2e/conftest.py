"""The running gateway for end-to-end tests: uvicorn in this process on a free port, over
real PostgreSQL and NATS JetStream, with stacked decks allowed (tests only)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import httpx
import pytest

from services.bus.nats import NatsBus
from services.gateway.app import create_app
from services.gateway.settings import Settings
from services.store.migrate import migrate
from services.store.postgres import PostgresEventStore
from tests.e2e.gateway_support import running


@dataclass
class Gateway:
    base: str
    http: httpx.AsyncClient
    store: PostgresEventStore


@pytest.fixture(scope="module")
async def gateway(database_url: str, nats_url: str) -> AsyncIterator[Gateway]:
    await migrate(database_url)
    store = await PostgresEventStore.connect(database_url)
    bus = await NatsBus.connect(nats_url)
    settings = Settings(token_secret=b"e2e-secret-0123456789abcdef", allow_stacked_decks=True)
    try:
        async with (
            running(create_app(store, bus, settings)) as base,
            httpx.AsyncClient(base_url=base, timeout=15) as http,
        ):
            yield Gateway(base=base, http=http, store=store)
    finally:
        await bus.close()
        await store.close()
