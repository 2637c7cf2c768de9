"""The gateway is SIGKILLed in the middle of a deal and a new process takes over.

The gateway runs as a real process (`sahra serve gateway`) over the session's PostgreSQL
and NATS, with one token secret shared by every process. Four players play a stacked deal
from a golden example; the process is killed with no chance to clean up; a new process
starts; the players reconnect with the last version they saw (`since`) and finish. The
deal's events must be exactly those of `engine.replay.run_record` on the same record (so
the scores and the folded state are those of an uninterrupted run), the stream versions
must have no gap, and no command may have been appended twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest

from engine.replay import Record, run_record
from services.runtime.infra import free_port
from services.store.postgres import PostgresEventStore
from tests.e2e.conftest import Gateway
from tests.e2e.gateway_support import Client
from tests.e2e.process_support import GatewayProcess
from tests.e2e.test_full_deal import (
    _assert_nothing_leaked,
    _assert_same_end_as_the_replay,
    _deal_one,
    _next_deal_dealt,
    _record,
    _seated_table,
    _start,
    _wire,
)


@pytest.fixture(scope="module")
async def store(database_url: str) -> AsyncIterator[PostgresEventStore]:
    store = await PostgresEventStore.connect(database_url)
    try:
        yield store
    finally:
        await store.close()


class _Processes:
    """Gateway processes started by one test; whatever is left is killed at the end."""

    def __init__(self, database_url: str, nats_url: str, logs: Path) -> None:
        self._urls = (database_url, nats_url)
        self._logs = logs
        self.started: list[GatewayProcess] = []

    async def start(self, port: int | None = None) -> GatewayProcess:
        log = self._logs / f"gateway-{len(self.started) + 1}.log"
        process = GatewayProcess(*self._urls, port or free_port(), log)
        self.started.append(process)
        await process.ready()
        return process


@pytest.fixture
def processes(database_url: str, nats_url: str, tmp_path: Path) -> Iterator[_Processes]:
    started = _Processes(database_url, nats_url, tmp_path)
    try:
        yield started
    finally:
        for process in started.started:
            process.kill()


async def _play(clients: dict[int, Client], record: Record, start: int, stop: int) -> None:
    """Steps [start, stop) of deal 1, each under a command id of its own (`step-<i>`): a
    client that reconnects never reuses an id another command of its seat had."""
    steps = record.deals[0].commands
    for i in range(start, stop):
        reply = await clients[steps[i].seat].command(_wire(steps[i].command), f"step-{i}")
        assert reply["type"] == "accepted" and not reply["duplicate"], (i, reply)


def _seen(client: Client) -> int:
    return max(int(m["version"]) for m in client.messages if m["type"] in ("welcome", "view"))


async def _reconnect(
    base: str, table_id: str, tokens: dict[int, str], old: dict[int, Client]
) -> dict[int, Client]:
    """Every seat comes back with the last version it saw and is told what it missed:
    the welcome, then each version after `since` up to the welcome's, in order."""
    clients = {}
    for seat, token in tokens.items():
        since = _seen(old[seat])
        client = await Client.open(base, table_id, token, since=since)
        await client.wait_for(lambda m: m["type"] == "missed")
        welcome, missed = client.messages[:2]
        assert (welcome["type"], welcome["seat"], missed["type"]) == ("welcome", seat, "missed")
        versions = [e["version"] for e in missed["events"]]
        assert versions == list(range(since + 1, welcome["version"] + 1)), (seat, since)
        clients[seat] = client
    return clients


async def _close(clients: Sequence[Client]) -> None:
    for client in clients:
        await client.close()


async def _assert_deal_one_is_the_replays(gw: Gateway, table_id: str, record: Record) -> None:
    """The deal's events, one for one, are those of the uninterrupted replay."""
    await _assert_same_end_as_the_replay(gw, table_id, record)
    events, _ = await _deal_one(gw, table_id)
    assert events == list(run_record(record).events)


async def _assert_each_command_appended_once(store: PostgresEventStore, table_id: str) -> None:
    """Versions 1..n with no gap, and the events of one command id form one block."""
    rows = await store.read_stream(table_id)
    assert [r.version for r in rows] == list(range(1, len(rows) + 1))
    blocks: list[str] = []
    for row in rows:
        if not blocks or blocks[-1] != row.metadata.command_id:
            blocks.append(row.metadata.command_id)
    assert len(blocks) == len(set(blocks)), [b for b in blocks if blocks.count(b) > 1]


async def _wait_for_version(store: PostgresEventStore, table_id: str, version: int) -> None:
    async with asyncio.timeout(15):
        while await store.stream_version(table_id) < version:
            await asyncio.sleep(0.005)


@pytest.mark.parametrize("example", ["sahrat-stacked-deal", "classic-stacked-deal"])
async def test_a_deal_survives_the_gateway_being_killed_in_the_middle(
    processes: _Processes, store: PostgresEventStore, example: str
) -> None:
    record = _record(example)
    first = await processes.start()
    async with httpx.AsyncClient(base_url=first.base, timeout=15) as http:
        gw = Gateway(base=first.base, http=http, store=store)
        table_id, tokens = await _seated_table(gw, record)
        before = {s: await Client.open(first.base, table_id, t) for s, t in tokens.items()}
        await _start(gw, table_id, tokens[1])
        # Seat 4's phone sleeps from the start (its first turn comes after the crash): it
        # must later be told, by a process that never saw them, what the first one wrote.
        middle = len(record.deals[0].commands) // 2
        assert all(step.seat != 4 for step in record.deals[0].commands[:middle])
        await before[4].close()
        await _play(before, record, 0, middle)

        first.kill()
        await _close(list(before.values()))  # each socket saw the server go
        second = await processes.start(first.port)  # the same address, a new process
        after = await _reconnect(second.base, table_id, tokens, before)
        missed = next(m for m in after[4].messages if m["type"] == "missed")
        assert len(missed["events"]) >= middle
        await _play(after, record, middle, len(record.deals[0].commands))

        final = await _next_deal_dealt(gw, table_id)
        for client in after.values():
            view = (await client.view_at(final))["view"]
            assert view["deal"] == 2 and view["last_scores"]["deal"] == 1
        await _assert_deal_one_is_the_replays(gw, table_id, record)
        await _assert_each_command_appended_once(store, table_id)
        await _assert_nothing_leaked(gw, table_id, [*before.values(), *after.values()])
        await _close(list(after.values()))


async def test_a_command_resent_after_a_crash_is_appended_once(
    processes: _Processes, store: PostgresEventStore
) -> None:
    record = _record("classic-stacked-deal")
    steps = record.deals[0].commands
    draw, discard = 6, 7
    assert (steps[draw].seat, type(steps[draw].command).__name__) == (2, "Draw")
    assert (steps[discard].seat, type(steps[discard].command).__name__) == (2, "Discard")
    first = await processes.start()
    async with httpx.AsyncClient(base_url=first.base, timeout=15) as http:
        gw = Gateway(base=first.base, http=http, store=store)
        table_id, tokens = await _seated_table(gw, record)
        one = {s: await Client.open(first.base, table_id, t) for s, t in tokens.items()}
        await _start(gw, table_id, tokens[1])
        await _play(one, record, 0, draw + 1)
        drawn_at = await store.stream_version(table_id)

        # Killed between seat 2's two commands. Its Draw was answered, but a client cannot
        # tell a lost answer from a lost command: it sends the Draw again, same id.
        first.kill()
        await _close(list(one.values()))
        second = await processes.start()  # on another port this time
        two = await _reconnect(second.base, table_id, tokens, one)
        again = await two[2].command(_wire(steps[draw].command), f"step-{draw}")
        assert again == _accepted(f"step-{draw}", drawn_at, duplicate=True)
        assert await store.stream_version(table_id) == drawn_at

        # Killed with the Discard committed and its answer maybe never sent: sent again,
        # it is the first outcome, not a second discard.
        await two[2].send(_wire(steps[discard].command), f"step-{discard}")
        await _wait_for_version(store, table_id, drawn_at + 1)
        second.kill()
        await _close(list(two.values()))
        third = await processes.start()
        three = await _reconnect(third.base, table_id, tokens, two)
        again = await three[2].command(_wire(steps[discard].command), f"step-{discard}")
        assert again == _accepted(f"step-{discard}", drawn_at + 1, duplicate=True)
        await _play(three, record, discard + 1, len(steps))

        http.base_url = httpx.URL(third.base)
        await _next_deal_dealt(gw, table_id)
        await _assert_deal_one_is_the_replays(gw, table_id, record)
        await _assert_each_command_appended_once(store, table_id)
        rows = await store.read_stream(table_id)
        for i, kind in ((draw, "CardDrawn"), (discard, "CardDiscarded")):
            mine = [r.type for r in rows if r.metadata.command_id == f"seat2:step-{i}"]
            assert mine == [kind]
        await _close(list(three.values()))


def _accepted(command_id: str, version: int, *, duplicate: bool) -> dict[str, Any]:
    return {
        "type": "accepted",
        "command_id": command_id,
        "version": version,
        "duplicate": duplicate,
    }
