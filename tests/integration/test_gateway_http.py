"""The gateway's HTTP side over real PostgreSQL and NATS, served by uvicorn on a free port."""

from __future__ import annotations

from typing import Any

import httpx

from services.bots.worker import BotsWorker
from services.bus.nats import NatsBus
from services.gateway.app import create_app
from services.gateway.settings import Settings
from services.projections.in_play import TablesInPlay
from services.store.port import Checkpoint
from services.store.postgres import PostgresEventStore
from services.tables.service import TableService
from tests.e2e.gateway_support import Client, running


async def _table(http: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    response = await http.post("/tables", json={"ruleset": "sahrat", **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def _seated(http: httpx.AsyncClient, table_id: str, seat: int, player: str) -> str:
    response = await http.post(f"/tables/{table_id}/seats/{seat}", json={"player": player})
    assert response.status_code == 201, response.text
    token: str = response.json()["token"]
    return token


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _is_error(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"code", "rule_id", "message"}
    assert body["code"] == code
    assert body["message"]


async def _end_of_log(store: PostgresEventStore) -> Checkpoint:
    checkpoint = Checkpoint()
    while True:
        rows, checkpoint = await store.read_all(checkpoint, 5000)
        if not rows:
            return checkpoint


async def test_a_table_is_created_listed_joined_started_and_shown(http: httpx.AsyncClient) -> None:
    created = await _table(http, ruleset="classic", player="Amal")
    table_id, host = created["table_id"], created["host"]
    assert host == 1 and created["token"]
    assert [s["player"] for s in created["seats"]] == ["Amal", None, None, None]

    listed = (await http.get("/tables")).json()
    mine = next(t for t in listed if t["table_id"] == table_id)
    assert mine["status"] == "open" and mine["ruleset"] == "classic"
    assert mine["free_seats"] == [2, 3, 4]

    for seat, name in ((2, "Badr"), (3, "Chadi"), (4, "Dunya")):
        await _seated(http, table_id, seat, name)
    started = await http.post(f"/tables/{table_id}/start", headers=_bearer(created["token"]))
    assert started.status_code == 200, started.text

    listed = (await http.get("/tables")).json()
    assert table_id not in {t["table_id"] for t in listed}
    playing = (await http.get("/tables", params={"status": "playing"})).json()
    assert table_id in {t["table_id"] for t in playing}

    state = (await http.get(f"/tables/{table_id}")).json()
    assert state["status"] == "playing"
    assert state["version"] >= started.json()["version"]
    assert [s["player"] for s in state["seats"]] == ["Amal", "Badr", "Chadi", "Dunya"]
    # classic: the stacked-free deal is committed, and waits for the host's cut (BK-DEAL-C1)
    assert state["view"]["phase"] == "seeded" and state["view"]["commitment"]
    assert state["view"]["hand"] is None and state["view"]["seat"] is None


async def test_bots_take_their_seats_and_play_until_a_human_must_act(
    http: httpx.AsyncClient, store: PostgresEventStore, bus: NatsBus
) -> None:
    created = await _table(http, seats=["human", "bot", "bot", "bot"], player="Hala")
    table_id = created["table_id"]
    started = await http.post(f"/tables/{table_id}/start", headers=_bearer(created["token"]))
    assert started.status_code == 200, started.text
    # The bots worker plays the bot seats (services/bots), through the same write path.
    service = TableService(store, bus)
    worker = BotsWorker(TablesInPlay(store, accept={table_id}.__contains__), service)
    await worker.tick()
    await worker.idle()
    await service.deadlines.close()
    await service.close()
    view = (await http.get(f"/tables/{table_id}")).json()["view"]
    assert view["phase"] == "play" and view["turn"] == 1  # every bot turn is played
    assert (
        sum(view["hand_sizes"])
        + view["stock_size"]
        + len(view["ground"])
        + sum(len(m["cards"]) for m in view["melds"])
        == 106
    )


async def test_health_readiness_and_the_openapi_schema_answer(http: httpx.AsyncClient) -> None:
    assert (await http.get("/healthz")).json() == {"status": "alive"}
    ready = await http.get("/readyz")
    assert ready.status_code == 200, ready.text
    assert ready.json()["checks"] == {"postgresql": "ok", "nats": "ok"}
    schema = (await http.get("/schema/openapi.json")).json()
    for path in (
        "/tables",
        "/tables/{table_id}",
        "/tables/{table_id}/seats/{seat}",
        "/tables/{table_id}/start",
        "/tables/{table_id}/deals/{deal}/events",
        "/healthz",
        "/readyz",
    ):
        assert path in schema["paths"], path
    request = schema["components"]["schemas"]["CreateTableRequest"]["properties"]
    assert {"ruleset", "options", "seats", "player", "deck"} <= set(request)


async def test_readiness_names_the_dependency_that_does_not_answer(
    database_url: str, nats_url: str
) -> None:
    store = await PostgresEventStore.connect(database_url)
    bus = await NatsBus.connect(nats_url)
    await bus.close()  # NATS is gone for this gateway; PostgreSQL still answers
    app = create_app(store, bus, Settings(probe_timeout=1.0))
    try:
        async with running(app) as url, httpx.AsyncClient(base_url=url) as http:
            response = await http.get("/readyz")
            # Still serving from the store while the bus is away (issue 10 item 6).
            assert response.status_code == 200
            body = response.json()
            assert body["status"] == "degraded" and body["down"] == ["nats"]
            assert body["checks"]["postgresql"] == "ok" and body["checks"]["nats"] != "ok"
            await store.close()
            response = await http.get("/readyz")
            assert response.status_code == 503
            assert response.json()["checks"]["postgresql"] != "ok"
            assert (await http.get("/healthz")).status_code == 200
    finally:
        await store.close()


async def test_a_token_is_worthless_at_another_table(
    http: httpx.AsyncClient, store: PostgresEventStore, base: str
) -> None:
    first = await _table(http, seats=["human", "bot", "bot", "bot"], player="Amal")
    second = await _table(http, seats=["human", "bot", "bot", "bot"], player="Badr")
    before = await store.stream_version(second["table_id"])

    response = await http.post(
        f"/tables/{second['table_id']}/start", headers=_bearer(first["token"])
    )
    _is_error(response, 403, "bad_token")
    assert await store.stream_version(second["table_id"]) == before

    socket = await Client.open(base, second["table_id"], first["token"])
    assert socket.messages[-1]["type"] == "error" and socket.messages[-1]["code"] == "bad_token"
    await socket.close()
    assert await store.stream_version(second["table_id"]) == before


async def test_bad_requests_are_refused_and_append_nothing(
    http: httpx.AsyncClient, store: PostgresEventStore
) -> None:
    created = await _table(http, player="Amal")
    table_id = created["table_id"]
    guest = await _seated(http, table_id, 2, "Badr")
    before = await store.stream_version(table_id)
    log_end = await _end_of_log(store)

    refusals: list[tuple[httpx.Response, int, str]] = [
        (await http.post("/tables", json={"ruleset": "poker"}), 400, "bad_request"),
        (await http.post("/tables", json={"colour": "red"}), 400, "bad_request"),
        (await http.post("/tables", content=b"{not json"), 400, "bad_request"),
        (await http.post("/tables", json={"options": {"target": 9}}), 422, "bad_option"),
        (await http.post("/tables", json={"seats": ["human"] * 3}), 422, "bad_seats"),
        (await http.post("/tables", json={"seats": ["bot"] * 4}), 422, "no_humans"),
        (await http.post("/tables", json={"deck": ["AS"] * 106}), 403, "stacked_decks_off"),
        (await http.post("/tables", json={"player": ""}), 400, "invalid_name"),
        (
            await http.post(f"/tables/{table_id}/seats/2", json={"player": "Imposter"}),
            409,
            "seat_taken",
        ),
        (await http.post(f"/tables/{table_id}/seats/9", json={"player": "Z"}), 422, "bad_seat"),
        (await http.post(f"/tables/{table_id}/seats/3", json={}), 400, "bad_request"),
        (await http.post(f"/tables/{table_id}/seats/3", json={"player": 7}), 400, "bad_request"),
        (await http.post("/tables/nope/seats/3", json={"player": "Z"}), 404, "no_such_table"),
        (await http.post(f"/tables/{table_id}/start"), 401, "no_token"),
        (
            await http.post(f"/tables/{table_id}/start", headers=_bearer("v1.1.xx")),
            403,
            "bad_token",
        ),
        (await http.post(f"/tables/{table_id}/start", headers=_bearer(guest)), 403, "not_host"),
        (
            await http.post(f"/tables/{table_id}/start", headers=_bearer(created["token"])),
            409,
            "seats_empty",
        ),
        (await http.get("/tables/nope"), 404, "no_such_table"),
        (await http.get(f"/tables/{table_id}/deals/1/events"), 404, "no_such_deal"),
        (await http.get("/no/such/route"), 404, "not_found"),
    ]
    for response, status, code in refusals:
        _is_error(response, status, code)
    assert await store.stream_version(table_id) == before
    rows, _ = await store.read_all(log_end, 100)
    assert rows == []  # no table was created, nothing appended anywhere


async def test_the_log_of_a_deal_in_play_is_refused(
    http: httpx.AsyncClient, store: PostgresEventStore
) -> None:
    created = await _table(http, seats=["human", "bot", "bot", "bot"], player="Amal")
    table_id = created["table_id"]
    await http.post(f"/tables/{table_id}/start", headers=_bearer(created["token"]))
    response = await http.get(f"/tables/{table_id}/deals/1/events")
    _is_error(response, 409, "deal_not_finished")
    _is_error(await http.get(f"/tables/{table_id}/deals/2/events"), 404, "no_such_deal")
