"""PostgreSQL stopped under a running gateway (issue 10 item 5): HTTP answers 503 with a
Retry-After, not 500; /readyz names the part that is down; a socket gets a clear refusal.

The test starts a PostgreSQL of its own (pgserver, as the session does) so that it can stop
it without touching the session's server; NATS is the session's and stays up.
"""

from __future__ import annotations

import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from services.bus.nats import NatsBus
from services.gateway.app import create_app
from services.gateway.settings import Settings
from services.store.migrate import migrate
from services.store.postgres import PostgresEventStore
from tests.e2e.gateway_support import Client, running


class _Postgres:
    """A PostgreSQL server of this test's own, which the test may stop."""

    def __init__(self) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pgserver's platformdirs fallback warning
            import pgserver

            data = Path(tempfile.mkdtemp(prefix="sahra-down-pg-")) / "data"
            self._server = pgserver.get_server(data, cleanup_mode="delete")  # type: ignore[attr-defined]
        self.url = str(self._server.get_uri())
        self.running = True

    def stop(self) -> None:
        if self.running:
            self.running = False
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                self._server.cleanup()


@pytest.fixture
def postgres() -> Iterator[_Postgres]:
    server = _Postgres()
    try:
        yield server
    finally:
        server.stop()


def _unavailable(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code == 503, response.text
    assert int(response.headers["Retry-After"]) > 0
    body: dict[str, Any] = response.json()
    assert set(body) == {"code", "rule_id", "message"} and body["code"] == "unavailable", body
    assert "PostgreSQL" in body["message"], body
    return body


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _playing(http: httpx.AsyncClient) -> tuple[str, str]:
    """A started table of four players: its id and the token of the seat in turn."""
    created = (await http.post("/tables", json={"player": "P1"})).json()
    table_id, tokens = created["table_id"], {1: created["token"]}
    for seat in (2, 3, 4):
        joined = await http.post(f"/tables/{table_id}/seats/{seat}", json={"player": f"P{seat}"})
        assert joined.status_code == 201, joined.text
        tokens[seat] = joined.json()["token"]
    started = await http.post(f"/tables/{table_id}/start", headers=_bearer(tokens[1]))
    assert started.status_code == 200, started.text
    view = (await http.get(f"/tables/{table_id}")).json()["view"]
    assert view["phase"] == "play"
    return table_id, tokens[view["turn"]]


async def test_with_postgresql_stopped_http_answers_503_with_retry_after_and_readyz_says_so(
    postgres: _Postgres, nats_url: str
) -> None:
    await migrate(postgres.url)
    store = await PostgresEventStore.connect(postgres.url, timeout=2.0)
    bus = await NatsBus.connect(nats_url)
    app = create_app(store, bus, Settings(probe_timeout=1.0))
    try:
        async with running(app) as base, httpx.AsyncClient(base_url=base, timeout=15) as http:
            table_id, token = await _playing(http)
            seated = await Client.open(base, table_id, token)
            welcome = seated.messages[0]
            assert welcome["type"] == "welcome" and welcome["view"]["turn"] == welcome["seat"]
            discard = {"type": "Discard", "card": welcome["view"]["hand"][0]}  # a first turn

            postgres.stop()

            _unavailable(await http.post("/tables", json={"player": "Badr"}))
            _unavailable(await http.get("/tables"))
            _unavailable(await http.post(f"/tables/{table_id}/leave", headers=_bearer(token)))

            ready = await http.get("/readyz")
            assert ready.status_code == 503 and int(ready.headers["Retry-After"]) > 0
            body = ready.json()
            assert body["status"] == "not ready" and body["down"] == ["postgresql"], body
            assert body["checks"]["nats"] == "ok" and body["checks"]["postgresql"] != "ok"

            # An open socket: its command is refused as `unavailable`, naming PostgreSQL.
            reply = await seated.command(discard, "c1")
            assert reply["type"] == "rejected" and reply["code"] == "unavailable", reply
            assert "PostgreSQL" in reply["message"]
            await seated.close()

            # A new socket at a table this gateway does not hold: an error, then a close.
            fresh = await Client.open(base, "0123456789abcdef", None)
            error = fresh.messages[-1]
            assert error["type"] == "error" and error["code"] == "unavailable", error
            assert "PostgreSQL" in error["message"]
            await fresh.close()
            assert (await http.get("/healthz")).status_code == 200  # the process is alive
    finally:
        await bus.close()
        await store.close()
