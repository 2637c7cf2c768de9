"""Proof that the game seam holds (issue 11): "high card", a game that lives only in
tests/games/ and is registered by this test, is played end to end through the real
services, with not one line of it under services/ or engine/.

The gateway over HTTP and WebSocket creates the table with the game's own options, seats
a player and starts it; the store is PostgreSQL (a database of this test's own, so that
the relay and the clock see no other table), the bus NATS. Seat 1 draws over its socket,
the bots worker plays seat 2, and seat 3 never acts: the clock (a fake time, PF-TIMER)
draws for it when its 10 seconds are up. The round ends, the secret is revealed, the
relay finds every event already published, and the verifier re-derives the round from
its record, and finds a card that was tampered with.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from engine import protocol
from services.bus.nats import NatsBus
from services.bus.relay import Relay
from services.gateway.app import create_app
from services.gateway.settings import Settings
from services.store.postgres import PostgresEventStore
from tests.e2e.gateway_support import Client, running
from tests.games import high_card
from tests.service_support import Adapters, Rig, batch_time, scratch_database

_ROOT = Path(__file__).resolve().parents[2]
_HIDDEN = high_card.HIDDEN


@pytest.fixture(scope="module", autouse=True)
def _hosted() -> None:
    protocol.register(high_card.GAME)  # the test session hosts the game, nothing else does


@pytest.fixture
async def adapters(database_url: str, nats_url: str) -> AsyncIterator[Adapters]:
    async with scratch_database(database_url, "high_card") as url:
        store = await PostgresEventStore.connect(url)
        bus = await NatsBus.connect(nats_url)
        try:
            yield Adapters(store, bus)
        finally:
            await bus.close()
            await store.close()


def test_no_module_under_services_or_engine_names_the_test_game() -> None:
    found = subprocess.run(
        ["grep", "-rli", "high.card", "services", "engine", "--include=*.py"],
        cwd=_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert found.returncode == 1 and found.stdout == ""  # 1: grep found nothing


async def test_a_test_only_game_is_played_timed_botted_revealed_and_verified_end_to_end(
    adapters: Adapters,
) -> None:
    store = adapters.store
    rig = Rig(adapters)
    settings = Settings(token_secret=b"high-card-e2e-secret-0123456789")
    try:
        async with (
            running(create_app(store, adapters.bus, settings)) as base,
            httpx.AsyncClient(base_url=base, timeout=15) as http,
        ):
            await _play(rig, base, http)
    finally:
        await rig.close()


async def _play(rig: Rig, base: str, http: httpx.AsyncClient) -> None:
    store = rig.adapters.store
    # --- created: the game and its own options, one seat a bot; the host seated at once
    created = await http.post(
        "/tables",
        json={
            "game": "high_card",
            "options": {"seats": 3, "turn_seconds": 10},
            "seats": ["human", "bot", "human"],
            "player": "Salma",
        },
    )
    assert created.status_code == 201, created.text
    table_id, host_token = created.json()["table_id"], created.json()["token"]
    rig.tables.add(table_id)
    lobby = (await http.get(f"/tables/{table_id}")).json()
    assert [s["kind"] for s in lobby["seats"]] == ["human", "bot", "human"]
    refused = await http.post("/tables", json={"game": "high_card", "options": {"seats": 6}})
    assert refused.status_code == 422 and refused.json()["code"] == "bad_option"
    unknown = await http.post("/tables", json={"game": "snap"})
    assert unknown.json()["code"] == "unknown_game" and "high_card" in unknown.json()["message"]

    # --- seated, and started by the host
    joined = await http.post(f"/tables/{table_id}/seats/3", json={"player": "Omar"})
    assert joined.status_code == 201, joined.text
    salma = await Client.open(base, table_id, host_token)
    omar = await Client.open(base, table_id, joined.json()["token"])
    spectator = await Client.open(base, table_id)
    try:
        started = await http.post(
            f"/tables/{table_id}/start", headers={"Authorization": f"Bearer {host_token}"}
        )
        assert started.status_code == 200, started.text

        # Seat 1's turn: the game's view, its own legal draw; it draws over the socket.
        mine = await salma.wait_for_view(_playing(turn=1))
        assert mine["view"]["legal"] == ["Draw"] and mine["view"]["commitment"]
        reply = await salma.command({"type": "Draw"})
        assert reply["type"] == "accepted", reply
        drawn = await omar.wait_for_view(_playing(turn=2))
        assert drawn["view"]["cards"] == [_HIDDEN]  # another seat's card stays hidden
        own = await salma.wait_for_view(_playing(turn=2))
        assert own["view"]["cards"][0] != _HIDDEN

        # --- bot-played: the bots worker draws for seat 2
        bots = rig.bots()
        await bots.tick()
        await bots.idle()
        assert bots.moves == 1
        await omar.wait_for_view(_playing(turn=3))

        # --- timed out: seat 3 does not act; the clock draws for it after 10 s, not before
        clock = rig.clock()
        began = await batch_time(store, table_id, "CardDrawn")
        rig.time.at(began, 9.999)
        assert await clock.tick() == []
        rig.time.at(began, 10)
        fired = await clock.tick()
        assert [(f.deadline.command_id, f.accepted) for f in fired] == [("timeout:1:3", True)]

        # --- finished: every socket is shown the same end, every card face up
        end = await spectator.wait_for_view(lambda m: m["status"] == "finished")
        cards = end["view"]["cards"]
        assert end["view"]["phase"] == "over" and _HIDDEN not in cards and len(cards) == 3
        assert (await omar.wait_for_view(lambda m: m["status"] == "finished"))["view"] == {
            **end["view"],
            "seat": 3,
        }
    finally:
        for client in (salma, omar, spectator):
            await client.close()

    # --- revealed: the round's log is published with its secret, which hashes to the
    # commitment every seat was shown before its first card
    log = await http.get(f"/tables/{table_id}/deals/1/events")
    assert log.status_code == 200, log.text
    events = [e["event"] for e in log.json()["events"]]
    assert [e["type"] for e in events] == [
        "SeedCommitted",
        "CardDrawn",
        "CardDrawn",
        "CardDrawn",
        "RoundWon",
        "SeedRevealed",
    ]
    secret = events[-1]["secret"]
    assert hashlib.sha256(bytes.fromhex(secret)).hexdigest() == mine["view"]["commitment"]
    assert [e["automatic"] for e in events[1:4]] == [False, False, True]
    assert events[4]["cards"] == cards

    # --- the relay: every event the services wrote had been published by its writer
    relay = Relay(store, rig.adapters.bus, name="high-card-relay")  # type: ignore[arg-type]
    published = await relay.catch_up()
    assert published.stored == 0 and published.duplicates == len(await store.read_stream(table_id))

    # --- verified: the round's record names its game and is re-derived from its secret
    verified = await http.get(f"/verify/{table_id}-1")
    assert verified.status_code == 200, verified.text
    answer = verified.json()
    record = answer["record"]
    assert record["game"] == "high_card" and record["secret"] == secret
    assert answer["verdict"]["passed"] is True, answer["verdict"]

    # --- a tampered card is found: seat 2's card swapped for one it was not dealt
    tampered = _tampered(record)
    checked = await http.post("/verify", content=json.dumps(tampered))
    assert checked.status_code == 200, checked.text
    assert checked.json()["verdict"] == {
        "passed": False,
        "detail": "event 2 differs from the re-derived one",
    }


def _playing(turn: int) -> Any:
    def match(message: dict[str, Any]) -> bool:
        view = message["view"]
        return view is not None and view["phase"] == "play" and view["turn"] == turn

    return match


def _tampered(record: dict[str, Any]) -> dict[str, Any]:
    events = [dict(e) for e in record["events"]]
    dealt = {e["card"] for e in events if e["type"] == "CardDrawn"}
    events[2]["card"] = next(c for c in ("AS", "KS", "2C", "3D") if c not in dealt)
    return {**record, "events": events}
