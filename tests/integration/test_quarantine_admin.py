"""What a client and an operator see of option bounds and quarantine (issue 10 item 1), over
the gateway served by uvicorn on real PostgreSQL and NATS, and `sahra quarantine` as a
process: an unbounded option is a 422 naming it and its range and writes nothing; a
poisoned table answers 409 `table_quarantined` instead of 500 once a loop has held it;
the operator lists and releases it (GET/POST /admin/quarantine behind SAHRA_ADMIN_TOKEN,
or the CLI). In a database of this module's own: its poisoned table must not reach
another test's lobby or clock."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from engine.banakil.options import options_from
from engine.table import TableCreated
from services.bus.nats import NatsBus
from services.clock.clock import Clock
from services.projections.in_play import TablesInPlay
from services.store.port import Checkpoint, Metadata, NewEvent
from services.store.postgres import PostgresEventStore
from services.tables.codec import encode_event
from services.tables.quarantine import Quarantine
from services.tables.service import TableService
from tests.service_support import scratch_database

_ROOT = Path(__file__).resolve().parents[2]
_TOKEN = "operator-" + uuid.uuid4().hex


@pytest.fixture(scope="module")
async def own_database(database_url: str) -> AsyncIterator[str]:
    async with scratch_database(database_url, "sahra_quarantine_admin") as url:
        yield url


@pytest.fixture(scope="module")
async def store(own_database: str) -> AsyncIterator[PostgresEventStore]:
    store = await PostgresEventStore.connect(own_database)
    yield store
    await store.close()


async def _end_of_log(store: PostgresEventStore) -> Checkpoint:
    checkpoint = Checkpoint()
    while True:
        rows, checkpoint = await store.read_all(checkpoint, 5000)
        if not rows:
            return checkpoint


def _refused(response: httpx.Response, status: int, code: str) -> dict[str, str]:
    assert response.status_code == status, response.text
    body: dict[str, str] = response.json()
    assert set(body) == {"code", "rule_id", "message"} and body["code"] == code
    return body


@pytest.mark.parametrize(
    ("option", "value", "range_"),
    [
        ("turn_seconds", 10**12, "between 5 and 600 seconds"),
        ("target_score", 10**23, "between 1 and 1000000 points"),
        ("tie_margin", -1, "between 0 and 100 points"),
        ("max_reshuffles", 11, "between 0 and 10 reshuffles"),
    ],
)
async def test_an_option_out_of_its_range_is_a_422_naming_it_and_writes_nothing(
    http: httpx.AsyncClient, store: PostgresEventStore, option: str, value: int, range_: str
) -> None:
    """BK-RS-3: a value that cannot work is refused when the table is created."""
    before = await _end_of_log(store)

    response = await http.post("/tables", json={"options": {option: value}, "player": "Amal"})

    body = _refused(response, 422, "bad_option")
    assert body["rule_id"] == "BK-RS-3"
    assert option in body["message"] and range_ in body["message"]
    assert await _end_of_log(store) == before


async def _poisoned_table(store: PostgresEventStore, service: TableService) -> str:
    """A table in play whose TableCreated bypassed validation (written straight into the
    store with a turn of 10^12 s)."""
    table_id = f"poison-{uuid.uuid4().hex[:12]}"
    options = msgspec.structs.replace(options_from("sahrat"), turn_seconds=10**12)
    created = TableCreated(table_id=table_id, game="banakil", options=options, seats=("human",) * 4)
    meta = Metadata(command_id="create", seat=0, server_time=datetime.now(UTC).isoformat())
    await store.append(table_id, 0, [encode_event(created, table_id)], meta)
    for seat in range(1, 5):
        assert (await service.take_seat(table_id, seat, f"P{seat}")).accepted
    with pytest.raises(OverflowError):
        await service.start(table_id, 1)
    return table_id


async def _until(status: int, request: Any, seconds: float = 5.0) -> httpx.Response:
    """The gateway reads the held tables at most once a second: ask until it has."""
    deadline = time.monotonic() + seconds
    while True:
        response: httpx.Response = await request()
        if response.status_code == status or time.monotonic() > deadline:
            return response
        await asyncio.sleep(0.1)


def _admin(token: str | None = _TOKEN) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


async def test_a_held_table_answers_409_and_the_operator_lists_and_releases_it(
    http: httpx.AsyncClient,
    store: PostgresEventStore,
    bus: NatsBus,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    service = TableService(store, bus)
    poisoned = await _poisoned_table(store, service)

    held_now = Quarantine(store, refresh=0.0)  # reads the held tables at every tick
    tables = TablesInPlay(store, accept={poisoned}.__contains__, quarantine=held_now)
    clock = Clock(tables, lambda t, c, i: service.handle(t, 0, c, i))
    await clock.tick()  # the clock cannot compute its deadline: held

    shown = await _until(409, lambda: http.get(f"/tables/{poisoned}"))
    body = _refused(shown, 409, "table_quarantined")
    assert poisoned in body["message"] and "clock: OverflowError" in body["message"]
    seat = await http.post(f"/tables/{poisoned}/seats/2", json={"player": "Badr"})
    _refused(seat, 409, "table_quarantined")

    # The admin routes do not exist without an operator token, and want the right one.
    monkeypatch.delenv("SAHRA_ADMIN_TOKEN", raising=False)
    _refused(await http.get("/admin/quarantine", headers=_admin()), 404, "not_found")
    monkeypatch.setenv("SAHRA_ADMIN_TOKEN", _TOKEN)
    _refused(await http.get("/admin/quarantine", headers=_admin(None)), 401, "bad_admin_token")
    _refused(await http.get("/admin/quarantine", headers=_admin("guess")), 401, "bad_admin_token")
    release = f"/admin/quarantine/{poisoned}/release"
    _refused(await http.post(release, headers=_admin("guess")), 401, "bad_admin_token")

    listed = await http.get("/admin/quarantine", headers=_admin())
    assert listed.status_code == 200, listed.text
    [held] = [q for q in listed.json() if q["stream_id"] == poisoned]
    assert held["process"] == "clock" and held["reason"].startswith("OverflowError")
    assert held["version"] > 0 and held["since"]

    released = await http.post(release, headers=_admin())
    assert released.status_code == 200 and released.json() == {"table_id": poisoned, "released": 1}
    assert [q for q in await store.quarantined() if q.stream_id == poisoned] == []
    # Released, and still poisoned: the next tick holds it again, once.
    await clock.tick()
    assert [q.process for q in await store.quarantined() if q.stream_id == poisoned] == ["clock"]
    await service.deadlines.close()
    await service.close()


async def test_a_table_the_gateway_cannot_fold_is_a_409_and_held_not_a_500(
    http: httpx.AsyncClient, store: PostgresEventStore
) -> None:
    table_id = f"garbled-{uuid.uuid4().hex[:12]}"
    garbled = [NewEvent(type="TableCreated", data=b'{"type": "TableCreated", "seats": 7}')]
    await store.append(table_id, 0, garbled, Metadata(command_id="garbled"))
    shown = await http.get(f"/tables/{table_id}")
    body = _refused(shown, 409, "table_unreadable")
    assert table_id in body["message"]
    seat = await http.post(f"/tables/{table_id}/seats/1", json={"player": "Badr"})
    assert seat.status_code == 409, seat.text  # held now: every command is refused
    held = [q for q in await store.quarantined() if q.stream_id == table_id]
    assert [q.process for q in held] == ["gateway"]
    assert held[0].reason.startswith("ValidationError")


def _sahra(*args: str, database_url: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "SAHRA_DATABASE_URL"}
    return subprocess.run(
        [sys.executable, "-m", "services.cli", "quarantine", *args, "--database-url", database_url],
        cwd=_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


async def test_the_cli_lists_and_releases_a_held_table(
    store: PostgresEventStore, own_database: str
) -> None:
    database_url = own_database
    table_id = f"held-{uuid.uuid4().hex[:12]}"
    assert await store.quarantine(table_id, "relay", "BusError: maximum payload", position=42)

    listed = await asyncio.to_thread(_sahra, "list", database_url=database_url)
    assert listed.returncode == 0, listed.stderr
    [line] = [line for line in listed.stdout.splitlines() if line.startswith(table_id)]
    assert "relay" in line and "position 42" in line and "BusError: maximum payload" in line
    as_json = await asyncio.to_thread(_sahra, "list", "--json", database_url=database_url)
    rows = [r for r in msgspec.json.decode(as_json.stdout) if r["stream_id"] == table_id]
    assert [(r["process"], r["position"]) for r in rows] == [("relay", 42)]

    released = await asyncio.to_thread(_sahra, "release", table_id, database_url=database_url)
    assert (released.returncode, released.stderr) == (0, "")
    assert table_id in released.stdout
    again = await asyncio.to_thread(_sahra, "release", table_id, database_url=database_url)
    assert again.returncode == 1 and "not quarantined" in again.stderr
    assert [q for q in await store.quarantined() if q.stream_id == table_id] == []
