"""NATS stops for 30 s in the middle of a deal, and the players never notice (issue 10,
item 6).

Two `sahra serve gateway` processes share the session's PostgreSQL and a NATS server of
this test's own; seats 1 and 2 play through the first gateway, seats 3 and 4 through the
second. With NATS stopped: seats 3 and 4 open their sockets (the second gateway's first
at that table) and are accepted and greeted; every move made through one gateway is
shown to the other's sockets (each gateway reads the store for its tables while the bus
is away); commands are appended as ever. With NATS back: both
gateways follow their tables from the bus again, the deal ends and the next one is dealt,
every socket was shown only newer versions, and the deal is exactly the replay's.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from services.runtime.infra import EmbeddedNats, embedded_nats, free_port
from services.store.postgres import PostgresEventStore
from tests.e2e.conftest import Gateway
from tests.e2e.gateway_support import Client
from tests.e2e.process_support import GatewayProcess
from tests.e2e.test_crash_recovery import (
    _assert_deal_one_is_the_replays,
    _assert_each_command_appended_once,
    _close,
    _play,
    store,
)
from tests.e2e.test_full_deal import _next_deal_dealt, _record, _seated_table, _start

__all__ = ["store"]  # fixture

_OUTAGE = 30.0  # seconds NATS stays stopped
_BACK = "table(s) followed from the bus again"


class _Nats:
    """nats-server with JetStream on a fixed port and store dir: stopped and started again
    like a server restarted by its operator."""

    def __init__(self, store_dir: Path) -> None:
        self._store_dir = store_dir
        self.port = free_port()
        self.url = f"nats://127.0.0.1:{self.port}"
        self._stack = contextlib.ExitStack()
        self._server: EmbeddedNats | None = None

    def start(self) -> None:
        self._server = self._stack.enter_context(embedded_nats(self._store_dir, self.port))

    def stop(self) -> None:
        assert self._server is not None
        self._server.stop()

    def close(self) -> None:
        self._stack.close()


@pytest.fixture
def nats(tmp_path: Path) -> Iterator[_Nats]:
    server = _Nats(tmp_path / "nats")
    server.start()
    try:
        yield server
    finally:
        server.close()


def _versions(client: Client) -> list[int]:
    return [int(m["version"]) for m in client.messages if m["type"] in ("welcome", "view")]


async def _all_see(clients: list[Client], version: int, timeout: float = 5) -> float:
    """Until every socket was shown `version`; the seconds that took."""
    began = time.monotonic()
    await asyncio.gather(*(c.view_at(version, timeout) for c in clients))
    return time.monotonic() - began


async def _wait_for_log(gateway: GatewayProcess, text: str, timeout: float = 20) -> None:
    async with asyncio.timeout(timeout):
        while text not in gateway.log.read_text(errors="replace"):
            await asyncio.sleep(0.1)


async def test_two_gateways_keep_serving_a_deal_while_nats_is_down_for_30_s(
    nats: _Nats, database_url: str, store: PostgresEventStore, tmp_path: Path
) -> None:
    began = time.monotonic()
    record = _record("sahrat-stacked-deal")
    steps = record.deals[0].commands
    one = GatewayProcess(database_url, nats.url, free_port(), tmp_path / "gateway-1.log")
    two = GatewayProcess(database_url, nats.url, free_port(), tmp_path / "gateway-2.log")
    sockets: list[Client] = []
    try:
        await asyncio.gather(one.ready(), two.ready())
        async with httpx.AsyncClient(base_url=one.base, timeout=15) as http:
            gw = Gateway(base=one.base, http=http, store=store)
            table_id, tokens = await _seated_table(gw, record)
            clients = {s: await Client.open(one.base, table_id, tokens[s]) for s in (1, 2)}
            sockets.extend(clients.values())
            await _start(gw, table_id, tokens[1])
            await _play(clients, record, 0, 4)  # seat 1's first turn, NATS up
            await _all_see(sockets, await store.stream_version(table_id))

            nats.stop()
            stopped = time.monotonic()
            # Seats 3 and 4 open their sockets now, the first ones of the table at the
            # second gateway: accepted and greeted from the store, without the bus.
            for seat in (3, 4):
                opened = Client.open(two.base, table_id, tokens[seat])
                clients[seat] = await asyncio.wait_for(opened, 3)
                sockets.append(clients[seat])
                assert clients[seat].messages[0]["type"] == "welcome", clients[seat].messages
            greeted = time.monotonic() - stopped
            assert _versions(clients[4])[0] == await store.stream_version(table_id)
            # Seat 2 plays through the first gateway, seats 3 and 4 through the second:
            # every socket on either side is shown each move, in order.
            lags = []
            for i in range(4, 10):
                await _play(clients, record, i, i + 1)
                lags.append(await _all_see(sockets, await store.stream_version(table_id)))
            assert time.monotonic() - stopped < _OUTAGE, "the outage must last the moves"
            await asyncio.sleep(_OUTAGE - (time.monotonic() - stopped))
            nats.start()
            restarted = time.monotonic()
            await asyncio.gather(_wait_for_log(one, _BACK), _wait_for_log(two, _BACK))
            resubscribed = time.monotonic() - restarted

            await _play(clients, record, 10, len(steps))  # seat 1 ends the deal
            final = await _next_deal_dealt(gw, table_id)
            await _all_see(sockets, final, timeout=15)
            for client in sockets:
                versions = _versions(client)
                assert versions == sorted(set(versions)), versions  # only ever forward
                view = client.newest_view()
                assert view is not None and view["version"] == final
            await _assert_deal_one_is_the_replays(gw, table_id, record)
            await _assert_each_command_appended_once(store, table_id)
        print(  # the figures for the note (pytest -s)
            f"\nNATS down {_OUTAGE:g} s: two new sockets greeted in {greeted:.2f} s; moves "
            f"shown across gateways in {min(lags):.2f}-{max(lags):.2f} s; both gateways back "
            f"on the bus {resubscribed:.2f} s after NATS restarted; "
            f"test {time.monotonic() - began:.1f} s"
        )
    finally:
        await _close(sockets)
        one.stop()
        two.stop()
