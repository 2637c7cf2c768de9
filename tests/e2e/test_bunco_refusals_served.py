"""Bunco requests the rules refuse, through the running gateway: each is answered with its
code, rule ID and sentence and appends nothing (PF-ROOM-5, BU-SIZE-4, BU-OPT-2,
PF-TIMER-7, BU-ROLL-1, BU-END-2, BU-SET-7, PF-FAIR-1, PF-TIMER-8).

An 8-player table (head and low, BU-SIZE-1) whose host seats everybody before the first
roll (BU-SET-7); only the head table rolls, one roll at a time, until its bell, so the low
table stands at 0 to 0 and rolls off (BU-END-5): a roll out of turn before the bell, and a
roll after it from a seat not rolling off, are refused. Over the module's own PostgreSQL
database and real NATS.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest

from tests.e2e.bunco_support import create
from tests.e2e.gateway_support import Client
from tests.e2e.rummy_support import Served, served_gateway

_SEATING = [[1, 2, 3, 4], [5, 6, 7, 8]]  # head table, low table (table seats 1..4)


@pytest.fixture(scope="module")
async def served(database_url: str, nats_url: str) -> AsyncIterator[Served]:
    async with served_gateway(database_url, nats_url, "bunco_refusals") as it:
        yield it


async def _events_stored(served: Served) -> int:
    conn = await asyncpg.connect(served.url)
    try:
        count: int = await conn.fetchval("SELECT count(*) FROM events")
        return count
    finally:
        await conn.close()


@pytest.mark.parametrize(
    ("options", "rule_id", "sentence"),
    [
        ({"players": 5}, "BU-SIZE-4", "players must be one of 3, 4, 7, 8, 11, 12"),
        ({"players": 13}, "BU-SIZE-4", "players must be one of 3, 4, 7, 8, 11, 12"),
        ({"players": 12, "sets": 0}, "BU-OPT-2", "sets must be between 1 and 20"),
        ({"turn_seconds": 5}, "PF-TIMER-7", "turn_seconds must be between 10 and 600 seconds"),
    ],
)
async def test_a_bunco_table_the_rules_refuse_is_answered_with_the_rule_and_appends_nothing(
    served: Served, options: dict[str, Any], rule_id: str, sentence: str
) -> None:
    """PF-ROOM-5, BU-SIZE-4, BU-OPT-2, PF-TIMER-7: a table of a size Bunco has no tables for,
    or options out of range, is a 422 `bad_option` naming the rule, from `POST /tables` and
    `POST /play-vs-computer` alike; nothing is stored."""
    before = await _events_stored(served)
    for path in ("/tables", "/play-vs-computer"):
        body = {"game": "bunco", "options": options, "player": "Salma"}
        answer = await served.http.post(path, json=body)
        assert answer.status_code == 422, answer.text
        refusal = answer.json()
        assert (refusal["code"], refusal["rule_id"], refusal["message"]) == (
            "bad_option",
            rule_id,
            sentence,
        )
    assert await _events_stored(served) == before


async def _refused(
    served: Served, client: Client, table_id: str, command: dict[str, Any]
) -> dict[str, Any]:
    """The refusal of `command` from the client's seat; the table's stream is unchanged."""
    before = await served.store.stream_version(table_id)
    reply = await client.command(command)
    assert reply["type"] == "rejected", reply
    await client.round_trip()
    assert await served.store.stream_version(table_id) == before
    return reply


async def test_a_roll_out_of_turn_or_after_the_bell_is_refused_and_appends_nothing(
    served: Served,
) -> None:
    """BU-ROLL-1, BU-ROLL-2, BU-END-2, BU-END-5, BU-SET-7, PF-FAIR-1, PF-TIMER-8: before the
    first roll a seat that does not roll first is refused `not_your_turn`, naming the
    seat that does; a seat's Deal and Timeout are the system's (`system_only`); a guest's
    seating is the host's (`host_only`); once the head table's bell has rung, a seat of the
    head table, or of the low table that does not roll off, is refused `bell_rang`; each
    refusal leaves the stream as it was."""
    table_id, tokens = await create(served, 8, ["human"] * 8, {"sets": 1})
    sockets = {seat: await Client.open(served.base, table_id, t) for seat, t in tokens.items()}
    spectator = await Client.open(served.base, table_id)
    try:
        started = await served.http.post(
            f"/tables/{table_id}/start", headers={"Authorization": f"Bearer {tokens[1]}"}
        )
        assert started.status_code == 200, started.text
        await spectator.wait_for_view(lambda m: m["view"]["phase"] == "play")
        guest = await _refused(
            served, sockets[2], table_id, {"type": "AssignSeats", "tables": _SEATING}
        )
        assert (guest["code"], guest["rule_id"]) == ("host_only", "BU-SET-7")
        seated = await sockets[1].command({"type": "AssignSeats", "tables": _SEATING})
        assert seated["type"] == "accepted", seated
        seen = await spectator.view_at(seated["version"])
        assert seen["view"]["awaiting"] == [1, 5]  # seat 1 of each table rolls first

        early = await _refused(served, sockets[2], table_id, {"type": "Roll"})
        assert (early["code"], early["rule_id"], early["message"]) == (
            "not_your_turn",
            "BU-ROLL-1",
            "it is seat 1's roll at your table",
        )
        deal = await _refused(served, sockets[3], table_id, {"type": "Deal"})
        assert (deal["code"], deal["rule_id"]) == ("system_only", "PF-FAIR-1")
        timeout = {"type": "Timeout", "round": 1, "table": 1, "roll": 1}
        timed = await _refused(served, sockets[1], table_id, timeout)
        assert (timed["code"], timed["rule_id"]) == ("system_only", "PF-TIMER-8")

        # only the head table rolls, one roll at a time, until the bell (BU-END-1)
        while True:
            view = spectator.newest_view()
            assert view is not None
            if view["view"]["bell"]:
                break
            roller = view["view"]["tables"][0]["rolls_by"]
            reply = await sockets[roller].command({"type": "Roll"})
            assert reply["type"] == "accepted", reply
            await spectator.view_at(reply["version"])
        shown = spectator.newest_view()
        assert shown is not None
        low = shown["view"]["tables"][1]
        assert low["scores"] == [0, 0] and low["rolloff"] is True  # BU-END-5
        assert shown["view"]["awaiting"] == [5]  # the low table's seat 1 rolls off first
        for seat in (2, 6):  # the head table's, and the low table's not rolling off
            late = await _refused(served, sockets[seat], table_id, {"type": "Roll"})
            assert (late["code"], late["rule_id"], late["message"]) == (
                "bell_rang",
                "BU-END-2",
                "the bell has rung: no further rolls at your table in this round",
            )
        rolled_off = await sockets[5].command({"type": "Roll"})  # the roll-off is his
        assert rolled_off["type"] == "accepted", rolled_off
    finally:
        for socket in sockets.values():
            await socket.close()
        await spectator.close()
