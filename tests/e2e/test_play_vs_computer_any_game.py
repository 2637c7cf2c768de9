"""`POST /play-vs-computer` takes any hosted game (PF-MODE-1): with the test-only high-card
game registered, one call starts a table of it with the player in seat 1 and a bot in
every other seat its options make; he draws over his socket, the bots worker draws for
the rest and the round ends. A preset the game does not have is a 400; a game not hosted
is the 409 `POST /tables` answers, naming the hosted ones; a table where bots may not sit
is a 422 (`no_bots`, PF-BOT-1). Banakil's requests and answers are those of
tests/e2e/test_play_vs_computer.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from engine import protocol
from services.bots.worker import BotsWorker
from services.bus.nats import NatsBus
from services.gateway.app import create_app
from services.gateway.settings import Settings
from services.projections.in_play import TablesInPlay
from services.store.migrate import migrate
from services.store.postgres import PostgresEventStore
from services.tables.service import TableService
from tests.e2e.gateway_support import Client, running
from tests.games import high_card


@pytest.fixture(scope="module", autouse=True)
def _hosted() -> None:
    protocol.register(high_card.GAME)


@pytest.fixture
async def served(
    database_url: str, nats_url: str
) -> AsyncIterator[tuple[str, httpx.AsyncClient, PostgresEventStore, NatsBus]]:
    await migrate(database_url)
    store = await PostgresEventStore.connect(database_url)
    bus = await NatsBus.connect(nats_url)
    app = create_app(store, bus, Settings(token_secret=b"vs-any-game-secret-0123456789"))
    try:
        async with running(app) as base, httpx.AsyncClient(base_url=base, timeout=15) as http:
            yield base, http, store, bus
    finally:
        await bus.close()
        await store.close()


async def _bots_until_done(
    store: PostgresEventStore, bus: NatsBus, table_id: str, done: asyncio.Event
) -> None:
    """A bots worker for the one table, as `sahra serve bots` runs one, until `done`."""
    service = TableService(store, bus)
    worker = BotsWorker(TablesInPlay(store, accept={table_id}.__contains__), service)
    try:
        await worker.run(done, interval=0.05)
    finally:
        await service.deadlines.close()
        await service.close()


def _over(message: dict[str, Any]) -> bool:
    return message["view"] is not None and message["view"]["phase"] == "over"


async def test_a_high_card_table_against_the_computer_is_started_and_played_to_its_end(
    served: tuple[str, httpx.AsyncClient, PostgresEventStore, NatsBus],
) -> None:
    base, http, store, bus = served
    response = await http.post(
        "/play-vs-computer",
        json={"player": "Hala", "game": "high_card", "options": {"seats": 3}},
    )
    assert response.status_code == 201, response.text
    created = response.json()
    table_id = created["table_id"]
    assert (created["seat"], created["player"]) == (1, "Hala") and created["token"]
    table = (await http.get(f"/tables/{table_id}")).json()
    assert table["status"] == "playing"
    assert [s["kind"] for s in table["seats"]] == ["human", "bot", "bot"]
    assert table["seats"][0]["player"] == "Hala"

    done = asyncio.Event()
    bots = asyncio.create_task(_bots_until_done(store, bus, table_id, done))
    client = await Client.open(base, table_id, created["token"])
    try:
        mine = await client.wait_for_view(
            lambda m: m["view"] is not None and m["view"]["turn"] == 1 and m["view"]["legal"]
        )
        assert mine["view"]["legal"] == ["Draw"]
        drew = await client.command({"type": "Draw"})
        assert drew["type"] == "accepted", drew
        ended = (await client.wait_for_view(_over))["view"]
        assert len(ended["cards"]) == 3 and high_card.HIDDEN not in ended["cards"]
    finally:
        done.set()
        await bots
        await client.close()
    drawn = [r for r in await store.read_stream(table_id) if r.type == "CardDrawn"]
    assert [r.metadata.seat for r in drawn] == [1, 2, 3]  # the bots drew as their seats


async def test_a_game_or_preset_not_hosted_and_a_table_without_bots_are_refused(
    served: tuple[str, httpx.AsyncClient, PostgresEventStore, NatsBus],
) -> None:
    _, http, _, _ = served

    async def refused(body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        response = await http.post("/play-vs-computer", json={"player": "Hala", **body})
        answer: dict[str, Any] = response.json()
        return response.status_code, answer

    status, answer = await refused({"game": "high_card", "ruleset": "sahrat"})
    assert (status, answer["code"]) == (400, "bad_request")
    assert "high_card has the rule sets standard" in answer["message"]
    status, answer = await refused({"game": "snap"})
    assert (status, answer["code"]) == (409, "unknown_game") and "high_card" in answer["message"]
    status, answer = await refused({"game": "high_card", "options": {"seats": 6}})
    assert (status, answer["code"]) == (422, "bad_option")
    status, answer = await refused({"options": {"bots_allowed": False}})
    assert (status, answer["code"], answer["rule_id"]) == (422, "no_bots", "PF-BOT-1")
    assert "played against the computer" in answer["message"]
