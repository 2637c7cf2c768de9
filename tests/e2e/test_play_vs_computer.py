"""The running gateway: playing against the computer in one call (PF-MODE-1), leaving a
seat (PF-CONN-4), presence recorded from the sockets (PF-CONN-1/2) and the warning of the
last 5 seconds of a turn (PF-TIMER-2), with the gateway's time source moved by the test.

A test acts only on the newest view it was sent (`Client.wait_for_view`): an older one may
show a bot's turn or a deal a bot has since gone out of. Each test's bots workers stop
when it ends, so none plays on beside the next test, and no test waits for a turn's real
time: the gateway's warnings read the time the test sets."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest

from services.bots.worker import BotsWorker
from services.bus.nats import NatsBus
from services.gateway.app import create_app
from services.gateway.settings import Settings
from services.gateway.wiring import Gateway
from services.projections.deadlines import utc_now
from services.projections.in_play import TablesInPlay, server_time
from services.store.migrate import migrate
from services.store.postgres import PostgresEventStore
from services.tables.service import TableService
from tests.e2e.gateway_support import Client, running

_STARTS = {"CardsDealt", "CardDiscarded"}


@dataclass
class Served:
    base: str
    http: httpx.AsyncClient
    store: PostgresEventStore
    bus: NatsBus
    gateway: Gateway
    workers: list[tuple[asyncio.Event, asyncio.Task[None]]] = field(default_factory=list)

    def bots(self, table_id: str) -> None:
        """A bots worker for the table, as `sahra serve bots` runs one, until the test ends."""
        service = TableService(self.store, self.bus)
        tables = TablesInPlay(self.store, accept={table_id}.__contains__)
        worker = BotsWorker(tables, service)
        stop = asyncio.Event()

        async def run() -> None:
            try:
                await worker.run(stop, interval=0.05)
            finally:
                await service.deadlines.close()
                await service.close()

        self.workers.append((stop, asyncio.create_task(run())))

    async def stop_bots(self) -> None:
        workers, self.workers = self.workers, []
        for stop, _ in workers:
            stop.set()
        await asyncio.gather(*(task for _, task in workers))


@pytest.fixture(scope="module")
async def served(database_url: str, nats_url: str) -> AsyncIterator[Served]:
    await migrate(database_url)
    store = await PostgresEventStore.connect(database_url)
    bus = await NatsBus.connect(nats_url)
    app = create_app(store, bus, Settings(token_secret=b"vs-computer-secret-0123456789"))
    try:
        async with (
            running(app) as base,
            httpx.AsyncClient(base_url=base, timeout=15) as http,
        ):
            served = Served(base=base, http=http, store=store, bus=bus, gateway=app.state.gateway)
            try:
                yield served
            finally:
                await served.stop_bots()
    finally:
        await bus.close()
        await store.close()


@pytest.fixture(autouse=True)
async def bots_stop_with_their_test(served: Served) -> AsyncIterator[None]:
    # A table whose seats are all bots plays a whole match: its worker, left running, would
    # share the event loop (and the gateway) with the tests after it.
    yield
    await served.stop_bots()


async def _vs(served: Served, **body: Any) -> dict[str, Any]:
    response = await served.http.post("/play-vs-computer", json={"player": "Hala", **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    served.bots(created["table_id"])
    return created


async def _my_turn(client: Client, after: int = 0) -> dict[str, Any]:
    """The newest view, once it is the player's turn at a version after `after` (the bots
    have played theirs). Nothing moves the table then until he acts."""
    return await client.wait_for_view(
        lambda m: (
            m["version"] > after
            and m["view"] is not None
            and m["view"]["phase"] == "play"
            and m["view"]["turn"] == client.seat
        )
    )


async def _rows(served: Served, table_id: str) -> list[str]:
    return [row.type for row in await served.store.read_stream(table_id)]


async def test_one_call_starts_a_table_against_the_computer_pf_mode_1(served: Served) -> None:
    created = await _vs(served)
    assert created["seat"] == 1 and created["token"]
    state = (await served.http.get(f"/tables/{created['table_id']}")).json()
    assert state["status"] == "playing"
    assert [s["kind"] for s in state["seats"]] == ["human", "bot", "bot", "bot"]
    assert state["seats"][0]["player"] == "Hala"

    client = await Client.open(served.base, created["table_id"], created["token"])
    try:
        view = (await _my_turn(client))["view"]
        # The player plays his turn; the three bots answer and it is his turn again.
        if not view["drawn"]:
            drew = await client.command({"type": "Draw"})
            assert drew["type"] == "accepted", drew
            view = (await client.wait_for_view(lambda m: m["version"] >= drew["version"]))["view"]
            assert view["drawn"] and view["turn"] == client.seat
        discarded = await client.command({"type": "Discard", "card": view["hand"][0]})
        assert discarded["type"] == "accepted", discarded
        again = (await _my_turn(client, after=discarded["version"]))["view"]
        assert (again["deal"], again["turn_no"]) > (view["deal"], view["turn_no"])
    finally:
        await client.close()

    one = await _vs(served, mode="one_vs_one")
    seats = (await served.http.get(f"/tables/{one['table_id']}")).json()["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot"]
    refused = await served.http.post(
        "/play-vs-computer", json={"player": "Hala", "ruleset": "classic", "mode": "one_vs_one"}
    )
    assert refused.status_code == 422 and refused.json()["code"] == "bad_option"


async def test_a_socket_that_drops_and_comes_back_is_recorded_pf_conn_1_2(served: Served) -> None:
    created = await _vs(served)
    table_id = created["table_id"]
    client = await Client.open(served.base, table_id, created["token"])
    hand = (await _my_turn(client))["view"]["hand"]
    await client.close()
    async with asyncio.timeout(10):
        while "SeatDisconnected" not in await _rows(served, table_id):
            await asyncio.sleep(0.02)
    state = (await served.http.get(f"/tables/{table_id}")).json()
    assert state["seats"][0]["presence"] == "away"

    again = await Client.open(served.base, table_id, created["token"])
    try:
        welcome = again.messages[0]
        assert welcome["type"] == "welcome" and welcome["seat"] == 1
        assert welcome["view"]["hand"] == hand  # the same seat and hand: nobody played it
        async with asyncio.timeout(10):
            while "SeatReconnected" not in await _rows(served, table_id):
                await asyncio.sleep(0.02)
        await again.wait_for_view(lambda m: m["seats"][0]["presence"] == "here")
    finally:
        await again.close()


async def test_leaving_hands_the_seat_to_a_bot_and_the_match_goes_on_pf_conn_4(
    served: Served,
) -> None:
    created = await _vs(served)
    table_id, token = created["table_id"], created["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    assert (await served.http.post(f"/tables/{table_id}/leave")).status_code == 401
    wrong = await served.http.post(
        f"/tables/{table_id}/leave", headers={"Authorization": "Bearer v1.1.xx"}
    )
    assert wrong.status_code == 403
    left = await served.http.post(f"/tables/{table_id}/leave", headers=bearer)
    assert left.status_code == 200, left.text
    assert left.json()["presence"] == "bot"
    again = await served.http.post(f"/tables/{table_id}/leave", headers=bearer)
    assert again.status_code == 409 and again.json()["code"] == "already_replaced"

    # Nobody is at the table now: the bots worker plays it on, the left seat too.
    version = left.json()["version"]
    async with asyncio.timeout(15):
        while not await _moved_by(served, table_id, 1, version):
            await asyncio.sleep(0.05)


async def test_the_player_is_warned_in_the_last_5_seconds_of_his_turn_pf_timer_2(
    served: Served,
) -> None:
    created = await _vs(served)
    table_id = created["table_id"]
    # He sits down once his turn has begun: the gateway reads when it began from the
    # stream, the server time of the batch that began it.
    spectator = await Client.open(served.base, table_id)
    try:
        await spectator.wait_for_view(
            lambda m: (
                m["view"] is not None and m["view"]["phase"] == "play" and m["view"]["turn"] == 1
            )
        )
    finally:
        await spectator.close()
    client = await Client.open(served.base, table_id, created["token"])
    try:
        view = (await _my_turn(client))["view"]
        began = await _turn_began(served, table_id)
        warning = await _warned_at(served, client, began + timedelta(seconds=20))  # PF-TIMER-1
        assert warning["seat"] == 1 and warning["stage"] == "turn"
        assert (warning["deal"], warning["turn"]) == (view["deal"], view["turn_no"])
    finally:
        await client.close()


async def test_a_turn_that_begins_at_the_table_counts_from_when_the_gateway_saw_it_pf_timer_2(
    served: Served,
) -> None:
    created = await _vs(served)
    client = await Client.open(served.base, created["table_id"], created["token"])
    warnings = served.gateway.warnings
    try:
        view = (await _my_turn(client))["view"]
        await warnings.tick()  # the gateway watches the table from here on
        # Its time stands still while he plays his turn and the bots theirs: his next turn
        # begins, as the gateway sees it, at this moment.
        seen = utc_now()
        warnings.now = lambda: seen
        if not view["drawn"]:
            drew = await client.command({"type": "Draw"})
            assert drew["type"] == "accepted", drew
            view = (await client.wait_for_view(lambda m: m["version"] >= drew["version"]))["view"]
        discarded = await client.command({"type": "Discard", "card": view["hand"][0]})
        assert discarded["type"] == "accepted", discarded
        view = (await _my_turn(client, after=discarded["version"]))["view"]
        warning = await _warned_at(served, client, seen + timedelta(seconds=20))
        assert warning["seat"] == 1 and warning["stage"] == "turn"
        assert (warning["deal"], warning["turn"]) == (view["deal"], view["turn_no"])
    finally:
        warnings.now = utc_now
        await client.close()


async def _warned_at(served: Served, client: Client, deadline: datetime) -> dict[str, Any]:
    """Move the gateway's time to 5.1 s before `deadline` (no warning), then 4.9 s before
    it: the player's one warning, which names that deadline."""
    warnings = served.gateway.warnings
    before, start = len(_warnings(client)), len(client.messages)
    try:
        # The gateway's own loop ticks too, on the same time source: whichever tick sends
        # the warning, it is sent once, and not before the last 5 seconds.
        warnings.now = lambda: deadline - timedelta(seconds=5.1)
        assert await warnings.tick() == 0
        await client.round_trip()
        assert len(_warnings(client)) == before
        warnings.now = lambda: deadline - timedelta(seconds=4.9)
        await warnings.tick()
        warning = await client.wait_for(lambda m: m["type"] == "warning", start=start)
        assert datetime.fromisoformat(warning["deadline"]) == deadline  # as views write it
        assert warning["seconds_left"] == pytest.approx(4.9)
        assert await warnings.tick() == 0
        await client.round_trip()
        assert len(_warnings(client)) == before + 1  # once a turn
    finally:
        warnings.now = utc_now
    return warning


def _warnings(client: Client) -> list[dict[str, Any]]:
    return [m for m in client.messages if m["type"] == "warning"]


async def _moved_by(served: Served, table_id: str, seat: int, after: int) -> bool:
    rows = await served.store.read_stream(table_id, after)
    return any(r.metadata.seat == seat and r.type != "SeatReplacedByBot" for r in rows)


async def _turn_began(served: Served, table_id: str) -> datetime:
    rows = [r for r in await served.store.read_stream(table_id) if r.type in _STARTS]
    return server_time(rows[-1])
