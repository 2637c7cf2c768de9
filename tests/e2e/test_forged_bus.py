"""A message published straight onto NATS is never taken for an event (issue 10, item 2).

Anyone who can publish on `sahra.table.<id>` used to inject events: the gateway folded the
event JSON the message carried, showed it to the table's sockets, and decided the next
command on it (which the store then took, leaving a gap the clock and bots could not fold).
Now a bus message is only a notice that the stream moved; the gateway reads the store.

The forged messages here are in the old wire format, with the event in `data`, so the very
same test showed the forgery before the change.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from nats.aio.client import Client as NatsClient

from services.bus.port import message_id, subject_for
from tests.e2e.conftest import Gateway
from tests.e2e.gateway_support import Client, states_by_version

_FORGED = "Mallory"


async def _forge(nats_url: str, table_id: str, version: int, event: dict[str, Any]) -> None:
    """Publish `event` as the table's event at `version`, as a writer would have."""
    body = {
        "position": 10**9,
        "stream_id": table_id,
        "version": version,
        "type": event["type"],
        "data": event,
        "metadata": {"command_id": "forged", "seat": 0, "player": None, "server_time": ""},
    }
    nc = NatsClient()
    await nc.connect(nats_url, max_reconnect_attempts=1)
    try:
        js = nc.jetstream()
        await js.publish(
            subject_for(table_id),
            json.dumps(body).encode(),
            headers={"Nats-Msg-Id": message_id(table_id, version)},
        )
    finally:
        await nc.close()


async def test_a_forged_bus_message_is_never_folded_nor_shown_and_the_store_decides(
    gateway: Gateway, nats_url: str
) -> None:
    created = await gateway.http.post(
        "/tables", json={"ruleset": "sahrat", "player": "Amal", "seats": ["human"] * 4}
    )
    assert created.status_code == 201, created.text
    table_id = created.json()["table_id"]
    host = await Client.open(gateway.base, table_id, created.json()["token"])
    try:
        version = await gateway.store.stream_version(table_id)
        assert host.newest_view() is not None

        # A forged SeatTaken at the next version: seat 2 "taken" by Mallory.
        forged = {"type": "SeatTaken", "seat": 2, "player": _FORGED}
        await _forge(nats_url, table_id, version + 1, forged)
        await asyncio.sleep(1.0)  # JetStream delivers in milliseconds
        await host.round_trip()
        assert not any(_FORGED in raw for raw in host.raw), host.raw[-1]
        cached = await gateway.http.get(f"/tables/{table_id}")
        assert _FORGED not in cached.text

        # The next real command is decided on the store's table, where seat 2 is free.
        joined = await gateway.http.post(f"/tables/{table_id}/seats/2", json={"player": "Nadia"})
        assert joined.status_code == 201, joined.text
        view = await host.view_at(version + 1)
        assert view["seats"][1]["player"] == "Nadia"
        assert not any(_FORGED in raw for raw in host.raw)

        # The store holds versions 1..n without a gap, and folds (as the clock and the bots
        # worker fold it) to the table the sockets were shown.
        states = await states_by_version(gateway.store, table_id)
        assert len(states) - 1 == version + 1
        assert states[-1].seats[1].player == "Nadia"
    finally:
        await host.close()
