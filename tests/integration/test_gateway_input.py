"""What the gateway accepts from outside, over real PostgreSQL and NATS (issue 10 items 4, 5).

Names and ids PostgreSQL would refuse (a NUL) or that would garble a view (control and
direction-override characters) are refused with one clear error and write nothing; a
table is created with its host seated in one append, so no refusal can leave an orphan
table; JSON nested deeper than the decoder goes is a 400 / a "rejected" message; a command
id reused for a different command is refused (`command_id_reused`).
"""

from __future__ import annotations

import json
import logging
from typing import Any

import httpx
import pytest

from engine.banakil.messages import Discard
from services.bus.nats import NatsBus
from services.store.port import Checkpoint
from services.store.postgres import PostgresEventStore
from services.tables.service import TableService
from tests.e2e.gateway_support import Client

_DEEP = b"[" * 10_000 + b"]" * 10_000


async def _end_of_log(store: PostgresEventStore) -> Checkpoint:
    checkpoint = Checkpoint()
    while True:
        rows, checkpoint = await store.read_all(checkpoint, 5000)
        if not rows:
            return checkpoint


async def _created_since(store: PostgresEventStore, checkpoint: Checkpoint) -> list[str]:
    """The tables created since `checkpoint` (other tests' sockets may still be recorded
    away meanwhile: only new tables count)."""
    rows, _ = await store.read_all(checkpoint, 1000)
    return [r.stream_id for r in rows if r.type == "TableCreated"]


async def _table_count(http: httpx.AsyncClient) -> int:
    listed = await http.get("/tables", params={"status": "any"})
    assert listed.status_code == 200, listed.text
    return len(listed.json())


def _refused(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert set(body) == {"code", "rule_id", "message"} and body["code"] == code, body
    assert body["message"]
    return body


async def _playing(http: httpx.AsyncClient) -> tuple[str, dict[int, str], int]:
    """A started table of four players: its id, each seat's token, and the seat in turn."""
    created = (await http.post("/tables", json={"player": "P1"})).json()
    table_id = created["table_id"]
    tokens = {1: created["token"]}
    for seat in (2, 3, 4):
        joined = await http.post(f"/tables/{table_id}/seats/{seat}", json={"player": f"P{seat}"})
        assert joined.status_code == 201, joined.text
        tokens[seat] = joined.json()["token"]
    started = await http.post(
        f"/tables/{table_id}/start", headers={"Authorization": f"Bearer {tokens[1]}"}
    )
    assert started.status_code == 200, started.text
    view = (await http.get(f"/tables/{table_id}")).json()["view"]
    assert view["phase"] == "play"
    return table_id, tokens, view["turn"]


async def _answer(client: Client, command: dict[str, Any], command_id: str) -> dict[str, Any]:
    """The answer to this sending, not to an earlier one under the same id."""
    start = len(client.messages)
    await client.send(command, command_id)
    return await client.wait_for(
        lambda m: m["type"] in ("accepted", "rejected") and m["command_id"] == command_id,
        start=start,
    )


_BAD_NAMES = [
    "Am\u0000al",  # a NUL: PostgreSQL refuses it in a JSON value
    "Am\nal",
    "Am\tal",
    "\u001b[31mred",
    "Am\u007fal",
    "Am\u0085al",  # a C1 control
    "\u202eevil",  # a right-to-left override
    "   ",
    "\u200d",  # a joiner alone shows nothing
    "x" * 65,
]


@pytest.mark.parametrize("name", _BAD_NAMES)
async def test_a_bad_host_name_is_refused_and_no_table_is_created(
    http: httpx.AsyncClient, store: PostgresEventStore, name: str
) -> None:
    tables = await _table_count(http)
    log_end = await _end_of_log(store)
    body = _refused(await http.post("/tables", json={"player": name}), 400, "invalid_name")
    assert '"player"' in body["message"] and "\u0000" not in body["message"]
    assert await _table_count(http) == tables
    assert await _created_since(store, log_end) == []  # no orphan open table


@pytest.mark.parametrize("name", _BAD_NAMES)
async def test_a_bad_name_for_a_seat_is_refused_and_appends_nothing(
    http: httpx.AsyncClient, store: PostgresEventStore, name: str
) -> None:
    table_id = (await http.post("/tables", json={"player": "Amal"})).json()["table_id"]
    before = await store.stream_version(table_id)
    response = await http.post(f"/tables/{table_id}/seats/2", json={"player": name})
    _refused(response, 400, "invalid_name")
    assert await store.stream_version(table_id) == before
    seats = (await http.get(f"/tables/{table_id}")).json()["seats"]
    assert seats[1]["player"] is None


async def test_a_bad_name_at_play_vs_computer_leaves_no_table(
    http: httpx.AsyncClient, store: PostgresEventStore
) -> None:
    tables = await _table_count(http)
    log_end = await _end_of_log(store)
    response = await http.post("/play-vs-computer", json={"player": "Hala\u0000"})
    _refused(response, 400, "invalid_name")
    assert await _table_count(http) == tables
    assert await _created_since(store, log_end) == []


async def test_arabic_and_emoji_names_are_kept_and_white_space_around_is_trimmed(
    http: httpx.AsyncClient,
) -> None:
    created = await http.post("/tables", json={"player": "  أمل الصحراء  "})
    assert created.status_code == 201, created.text
    table_id = created.json()["table_id"]
    for seat, name in ((2, "👩🏽‍💻 Salma"), (3, "Zeynep 🇹🇷"), (4, "محمد‌علي")):
        joined = await http.post(f"/tables/{table_id}/seats/{seat}", json={"player": name})
        assert joined.status_code == 201, joined.text
        assert joined.json()["player"] == name
    seats = (await http.get(f"/tables/{table_id}")).json()["seats"]
    assert [s["player"] for s in seats] == ["أمل الصحراء", "👩🏽‍💻 Salma", "Zeynep 🇹🇷", "محمد‌علي"]


async def test_a_table_and_its_host_are_one_append(
    http: httpx.AsyncClient, store: PostgresEventStore
) -> None:
    created = (await http.post("/tables", json={"player": "Amal"})).json()
    rows = await store.read_stream(created["table_id"])
    assert [r.type for r in rows] == ["TableCreated", "SeatTaken"]
    assert {r.metadata.command_id for r in rows} == {"create"}  # one command, one append
    assert created["version"] == 2 and created["seats"][0]["player"] == "Amal"


async def test_a_malformed_table_id_is_a_400_and_an_unknown_one_a_404(
    http: httpx.AsyncClient, base: str
) -> None:
    _refused(await http.get("/tables/bad%00id"), 400, "invalid_table_id")
    _refused(await http.get("/tables/" + "a" * 65), 400, "invalid_table_id")
    response = await http.post("/tables/bad%0Aid/seats/2", json={"player": "Z"})
    _refused(response, 400, "invalid_table_id")
    _refused(await http.get("/tables/abcdef0123456789"), 404, "no_such_table")
    socket = await Client.open(base, "bad%00id")
    assert socket.messages[-1]["type"] == "error"
    assert socket.messages[-1]["code"] == "invalid_table_id"
    await socket.close()


@pytest.mark.parametrize("bad_id", ["c\u00001", "c\n1", "c 1", "ç1", ""])
async def test_a_bad_command_id_is_rejected_and_appends_nothing(
    http: httpx.AsyncClient, store: PostgresEventStore, base: str, bad_id: str
) -> None:
    table_id, tokens, turn = await _playing(http)
    before = await store.stream_version(table_id)
    client = await Client.open(base, table_id, tokens[turn])
    try:
        await client.ws.send(
            json.dumps({"type": "command", "command_id": bad_id, "command": {"type": "Draw"}})
        )
        reply = await client.wait_for(lambda m: m["type"] == "rejected")
        assert reply["code"] in ("invalid_command_id", "bad_message"), reply
        assert "command_id" in reply["message"]
        assert await store.stream_version(table_id) == before
        await client.round_trip()  # the socket is still served
    finally:
        await client.close()


async def test_an_overlong_command_id_is_rejected(
    http: httpx.AsyncClient, store: PostgresEventStore, base: str
) -> None:
    table_id, tokens, turn = await _playing(http)
    before = await store.stream_version(table_id)
    client = await Client.open(base, table_id, tokens[turn])
    try:
        await client.ws.send(
            json.dumps({"type": "command", "command_id": "c" * 129, "command": {"type": "Draw"}})
        )
        reply = await client.wait_for(lambda m: m["type"] == "rejected")
        assert "command_id" in reply["message"]
        assert await store.stream_version(table_id) == before
    finally:
        await client.close()


async def test_deeply_nested_json_over_http_is_a_400(
    http: httpx.AsyncClient, store: PostgresEventStore
) -> None:
    log_end = await _end_of_log(store)
    headers = {"Content-Type": "application/json"}
    for path in ("/tables", "/play-vs-computer", "/verify"):
        _refused(await http.post(path, content=_DEEP, headers=headers), 400, "too_deep")
    nested = b'{"player": "Amal", "options": {"x": ' + _DEEP + b"}}"
    _refused(await http.post("/tables", content=nested, headers=headers), 400, "too_deep")
    assert await _created_since(store, log_end) == []


async def test_a_body_over_the_size_bound_is_refused(http: httpx.AsyncClient) -> None:
    body = b'{"player": "' + b"a" * (5 * 1024 * 1024) + b'"}'
    response = await http.post(
        "/tables", content=body, headers={"Content-Type": "application/json"}
    )
    _refused(response, 413, "too_large")


async def test_deeply_nested_json_over_the_socket_is_rejected_and_logged(
    http: httpx.AsyncClient,
    store: PostgresEventStore,
    base: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    table_id, tokens, turn = await _playing(http)
    before = await store.stream_version(table_id)
    client = await Client.open(base, table_id, tokens[turn])
    try:
        with caplog.at_level(logging.WARNING, logger="services.gateway.ws"):
            await client.ws.send(b'{"command": '.decode() + _DEEP.decode() + "}")
            reply = await client.wait_for(lambda m: m["type"] == "rejected")
            assert reply["code"] == "too_deep" and reply["command_id"] is None, reply
            envelope = b'{"type": "command", "command_id": "c9", "command": ' + _DEEP + b"}"
            await client.ws.send(envelope.decode())
            reply = await client.reply("c9")
            assert reply["code"] == "too_deep", reply
        assert any("nested" in r.getMessage() for r in caplog.records), caplog.records
        await client.round_trip()  # the socket is still served
        assert await store.stream_version(table_id) == before
    finally:
        await client.close()


async def test_a_command_id_reused_for_another_command_is_refused(
    http: httpx.AsyncClient, store: PostgresEventStore, base: str
) -> None:
    table_id, tokens, turn = await _playing(http)
    client = await Client.open(base, table_id, tokens[turn])
    try:
        hand = client.messages[0]["view"]["hand"]  # the deal's first turn: a discard
        first = {"type": "Discard", "card": hand[0]}
        discarded = await client.command(first, "mine-1")
        assert discarded["type"] == "accepted" and not discarded["duplicate"], discarded
        after = await store.stream_version(table_id)

        again = await _answer(client, first, "mine-1")  # the same command again
        assert again["type"] == "accepted" and again["duplicate"], again
        assert again["version"] == discarded["version"]

        other = await _answer(client, {"type": "Discard", "card": hand[1]}, "mine-1")
        assert other["type"] == "rejected" and other["code"] == "command_id_reused", other
        assert "mine-1" in other["message"]
        assert await store.stream_version(table_id) == after  # nothing appended
    finally:
        await client.close()


async def test_a_reused_command_id_is_refused_by_a_gateway_that_never_saw_it(
    http: httpx.AsyncClient, store: PostgresEventStore, bus: NatsBus
) -> None:
    """The first outcome comes from the store's duplicate detection, not a cache."""
    table_id, _, turn = await _playing(http)
    first = TableService(store, bus)
    second = TableService(store, bus)
    try:
        second.follow(table_id)  # kept current by the bus alone: no catch-up on load
        await second.load(table_id)  # cached before the draw: it does not know the id
        game = (await first.load(table_id)).state.game_state
        assert game is not None
        hand = game.hands[turn - 1]  # the deal's first turn: a discard
        command_id = f"seat{turn}:x1"
        discarded = await first.handle(
            table_id, turn, Discard(card=hand[0]), command_id, player=True
        )
        assert discarded.accepted and not discarded.duplicate
        after = await store.stream_version(table_id)
        # Another discard is legal on the state the second service holds: only the store
        # can tell that the id was used, for the first card.
        other = await second.handle(table_id, turn, Discard(card=hand[1]), command_id, player=True)
        assert other.rejection is not None, other
        assert other.rejection.code == "command_id_reused", other
        same = await second.handle(table_id, turn, Discard(card=hand[0]), command_id, player=True)
        assert same.accepted and same.duplicate and same.version == discarded.version
        assert await store.stream_version(table_id) == after
    finally:
        for service in (first, second):
            await service.deadlines.close()
            await service.close()


@pytest.mark.parametrize("game", ["banakil", "rummy", "bunco", "dice"])
@pytest.mark.parametrize("path", ["/tables", "/play-vs-computer"])
async def test_an_option_named_preset_is_a_bad_option_and_leaves_no_table(
    http: httpx.AsyncClient, store: PostgresEventStore, game: str, path: str
) -> None:
    """PF-ROOM-2, BK-RS-3: "preset" is no option of any game (the rule set is its own
    field), so an option of that name is refused as an unknown option with a 422, not a
    500 from the options' own `preset` argument, and nothing is appended."""
    tables = await _table_count(http)
    log_end = await _end_of_log(store)
    response = await http.post(
        path, json={"game": game, "player": "Amal", "options": {"preset": "classic"}}
    )
    body = _refused(response, 422, "bad_option")
    assert "preset" in body["message"]
    assert await _table_count(http) == tables
    assert await _created_since(store, log_end) == []
