"""A player's connection cut mid-turn, with every part a real process: the gateway
(`sahra serve gateway`), the clock (`sahra serve clock`) and the bots worker
(`sahra serve bots`), four players on real WebSockets (PF-CONN-1..3, PF-BOT-2, PF-EX-5).

Seat 2 has drawn and not discarded when its TCP connection is reset (no close frame, as
when a phone loses its network). Back within the 60 s grace he has the same seat and hand
and finishes his turn; after it, a bot plays his seat with that hand and completes the match
(seed 000, PF-BOT-5): when he comes back he watches his seat, his commands are refused,
and the bot goes on playing it (he takes it back only as the next match of a series
starts, which the integration and unit tests cover).

No test waits for the grace: a clock started with --time-offset sees the time that much
later. Each clock looks once (its --interval is longer than the test) and stops, so what it
fires is what is due at one known moment, and nothing else runs a table's timers between
two looks. Each test has a database of its own: a clock fires every table's deadlines, and
the session's other tables are not this test's to move on. The players' moves are the
bot policy's choices (the game's bot, `engine.protocol.Game.bot`), sent by each seat's client once
its view shows the table as the move was chosen on, as a client would.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import signal
import socket
import struct
import subprocess
import time
from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from engine import fair, protocol
from engine.banakil.messages import (
    CardDiscarded,
    CardDrawn,
    GroundTaken,
    MeldLaid,
    MeldUpdated,
    TurnTimedOut,
)
from engine.cards import faces
from engine.table import SeatReplacedByBot, TableState, played_by_bot
from services.projections.deadlines import utc_now
from services.runtime.infra import free_port
from services.store.port import StoredEvent
from services.store.postgres import PostgresEventStore
from services.tables.codec import decode_event
from tests.e2e.gateway_support import Client, states_by_version
from tests.e2e.process_support import SAHRA, GatewayProcess
from tests.service_support import scratch_database

_SEAT = 2  # the player whose connection is cut
_GRACE = timedelta(seconds=60)  # PF-CONN-2
# A deck under which the bots' play lasts 29 turns whichever way seat 2's cut-off turn is
# finished (the player in the window, or the bot): every turn this test plays is in deal 1.
_DECK = faces(fair.deal_deck(hashlib.sha256(b"presence-9").digest(), fair.entropy([])))
_DEALER = 4  # so seat 1 starts
_MOVES = (CardDrawn, GroundTaken, MeldLaid, MeldUpdated, CardDiscarded)
_WAIT = 20.0  # seconds for anything a process does in milliseconds


@pytest.fixture
async def database(database_url: str) -> AsyncIterator[str]:
    async with scratch_database(database_url, "sahra_presence") as url:
        yield url


def _bot_command(game: Any, seat: int) -> Any:
    """The game's bot's move for `seat` (always one its rules accept)."""
    return protocol.get("banakil").bot(game, seat)[1]


class _Worker:
    """`sahra serve clock|bots` in its own process group, its output in a log file."""

    def __init__(
        self, service: str, database_url: str, nats_url: str, log: Path, *args: str
    ) -> None:
        self.log = log
        command = [str(SAHRA), "serve", service, "--database-url", database_url]
        command += ["--nats-url", nats_url, "--data-dir", str(log.parent / "data"), *args]
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                command,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    async def says(self, text: str) -> None:
        deadline = time.monotonic() + _WAIT
        while text not in self.log.read_text(errors="replace"):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"no {text!r} from the process:\n{self.log.read_text()}")
            await asyncio.sleep(0.02)

    def signal(self, sig: signal.Signals) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, sig)

    def stop(self) -> None:
        """SIGINT, as an operator stops it: what it appended is handed to the bus first."""
        self.signal(signal.SIGCONT)  # a paused process cannot act on SIGINT
        self.signal(signal.SIGINT)
        try:
            assert self.process.wait(timeout=15) == 0, self.log.read_text()
        finally:
            self.kill()

    def kill(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


class _Table:
    """One table at the gateway process: four seated clients and the test's view of the log."""

    def __init__(self, gateway: GatewayProcess, store: PostgresEventStore) -> None:
        self.gateway = gateway
        self.store = store
        self.table_id = ""
        self.tokens: dict[int, str] = {}
        self.clients: dict[int, Client] = {}

    async def start(self) -> None:
        async with httpx.AsyncClient(base_url=self.gateway.base, timeout=15) as http:
            created = await http.post(
                "/tables",
                json={"ruleset": "sahrat", "player": "P1", "deck": _DECK, "dealer": _DEALER},
            )
            assert created.status_code == 201, created.text
            self.table_id = created.json()["table_id"]
            self.tokens[1] = created.json()["token"]
            for seat in (2, 3, 4):
                joined = await http.post(
                    f"/tables/{self.table_id}/seats/{seat}", json={"player": f"P{seat}"}
                )
                assert joined.status_code == 201, joined.text
                self.tokens[seat] = joined.json()["token"]
            for seat in self.tokens:
                self.clients[seat] = await self.connect(seat)
            started = await http.post(
                f"/tables/{self.table_id}/start",
                headers={"Authorization": f"Bearer {self.tokens[1]}"},
            )
            assert started.status_code == 200, started.text

    async def connect(self, seat: int) -> Client:
        client = await Client.open(self.gateway.base, self.table_id, self.tokens[seat])
        assert client.seat == seat
        return client

    async def latest(self) -> tuple[int, TableState]:
        states = await states_by_version(self.store, self.table_id)
        return len(states) - 1, states[-1]

    async def rows(self, after: int = 0) -> list[StoredEvent]:
        return await self.store.read_stream(self.table_id, after)

    async def row(self, event_type: str, after: int = 0) -> StoredEvent:
        """The first `event_type` after version `after`, once some process appended it."""
        async with asyncio.timeout(_WAIT):
            while True:
                found = [r for r in await self.rows(after) if r.type == event_type]
                if found:
                    return found[0]
                await asyncio.sleep(0.02)

    async def play(self, until: Callable[[TableState], bool]) -> None:
        """The players play their turns (the bots worker the seats a bot plays) until
        `until` holds."""
        async with asyncio.timeout(_WAIT):
            while True:
                version, state = await self.latest()
                if until(state):
                    return
                game = state.game_state
                assert game is not None and game.phase == "play" and game.deal == 1, state
                if played_by_bot(state, game.turn):
                    await self._changed(version)
                    continue
                client = self.clients[game.turn]
                await client.view_at(version)  # as a client: it acts on what it was shown
                command = msgspec.to_builtins(_bot_command(game, game.turn))
                reply = await client.command(command, f"v{version}")
                assert reply["type"] == "accepted", (game.turn, command, reply)

    async def _changed(self, version: int) -> None:
        while await self.store.stream_version(self.table_id) == version:
            await asyncio.sleep(0.02)

    async def close(self) -> None:
        for client in self.clients.values():
            await client.close()


@pytest.fixture
async def store(database: str) -> AsyncIterator[PostgresEventStore]:
    store = await PostgresEventStore.connect(database)
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
async def gateway(database: str, nats_url: str, tmp_path: Path) -> AsyncIterator[GatewayProcess]:
    process = GatewayProcess(database, nats_url, free_port(), tmp_path / "gateway.log")
    try:
        await process.ready()
        yield process
    finally:
        process.kill()


@pytest.fixture
async def table(gateway: GatewayProcess, store: PostgresEventStore) -> AsyncIterator[_Table]:
    """A table at the gateway process, to be started by the test; its clients are closed
    at the end, whatever happened."""
    made = _Table(gateway, store)
    try:
        yield made
    finally:
        await made.close()


@pytest.fixture
async def workers() -> AsyncIterator[list[_Worker]]:
    """The clock and bots processes a test starts; whatever is left is killed at the end."""
    started: list[_Worker] = []
    try:
        yield started
    finally:
        for worker in started:
            worker.kill()


def _cut(client: Client) -> None:
    """The phone loses its network: the TCP connection is reset, no close frame is sent."""
    transport = client.ws.transport
    sock = transport.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()


def _mid_turn(state: TableState) -> bool:
    game = state.game_state
    return game is not None and game.turn == _SEAT and game.drawn and not game.window


async def _cut_mid_turn(table: _Table) -> tuple[StoredEvent, tuple[str, ...]]:
    """Seat 2 draws and loses its connection before discarding; the gateway records the
    seat away. That row, and the hand it had."""
    await table.play(until=_mid_turn)
    version, state = await table.latest()
    assert state.game_state is not None
    hand = state.game_state.hands[_SEAT - 1]
    cut = table.clients.pop(_SEAT)
    _cut(cut)
    away = await table.row("SeatDisconnected", after=version)
    await cut.close()  # its reader saw the connection go; nothing is left to release
    assert away.metadata.seat == 0  # recorded by the system, not sent by a client
    assert away.metadata.command_id == f"presence:{_SEAT}:away:{version}"
    return away, hand


async def _clock_looks(
    workers: list[_Worker], database: str, nats_url: str, log: Path, moment: datetime
) -> float:
    """A clock that takes the time for `moment` now looks once, then is stopped. Its
    offset: it looks a little after `moment`, by the time the process takes to start."""
    offset = (moment - utc_now()).total_seconds()
    args = ("--interval", "600", "--time-offset", f"{offset:.3f}")
    clock = _Worker("clock", database, nats_url, log, *args)
    workers.append(clock)
    await clock.says("clock: caught up")  # logged after its first look, and what it fired
    clock.stop()
    return offset


def _at(row: StoredEvent) -> datetime:
    return datetime.fromisoformat(row.metadata.server_time)


def _hand(state: TableState, seat: int = _SEAT) -> tuple[str, ...]:
    assert state.game_state is not None
    return state.game_state.hands[seat - 1]


def _moves_of(rows: list[StoredEvent], seat: int = _SEAT) -> list[tuple[str, str]]:
    """The moves a seat made itself, as (event type, command id): a bot's and a player's
    are both sent as the seat; the clock's automatic ones are the system's (seat 0)."""
    return [
        (r.type, r.metadata.command_id)
        for r in rows
        if isinstance(e := decode_event(r), _MOVES) and e.seat == seat and r.metadata.seat == seat
    ]


def _view_hand(welcome: dict[str, Any]) -> tuple[str, ...]:
    return tuple(welcome["view"]["hand"])


def _turn(state: TableState) -> tuple[int, int]:
    """(the turn's number in the deal, the seat in turn)."""
    assert state.game_state is not None
    return state.game_state.turn_no, state.game_state.turn


async def test_a_player_cut_off_mid_turn_back_within_60_s_resumes_his_turn_pf_conn_2(
    database: str,
    nats_url: str,
    store: PostgresEventStore,
    table: _Table,
    workers: list[_Worker],
    tmp_path: Path,
) -> None:
    """PF-CONN-1, PF-CONN-2, PF-EX-5: back after 45 s."""
    await table.start()
    away, hand = await _cut_mid_turn(table)
    turn, _ = _turn((await table.latest())[1])

    moment = _at(away) + timedelta(seconds=45)
    offset = await _clock_looks(workers, database, nats_url, tmp_path / "clock-1.log", moment)
    assert utc_now() + timedelta(seconds=offset) < _at(away) + _GRACE  # it looked in time
    rows = await table.rows(away.version)
    # PF-CONN-1: the turn's 20 s were up, so the system acted for him: he had drawn, so a
    # discard window opened (PF-TIMER-5), and nothing else.
    assert [r.type for r in rows] == ["TurnTimedOut"]
    assert decode_event(rows[0]) == TurnTimedOut(seat=_SEAT, turn=turn)
    _, state = await table.latest()
    assert state.seats[_SEAT - 1].presence == "away" and _hand(state) == hand

    back = await table.connect(_SEAT)
    table.clients[_SEAT] = back
    welcome = back.messages[0]
    assert welcome["type"] == "welcome" and _view_hand(welcome) == hand
    assert (welcome["view"]["turn"], welcome["view"]["window"]) == (_SEAT, True)
    reconnected = await table.row("SeatReconnected", after=away.version)
    assert reconnected.metadata.seat == 0
    assert reconnected.metadata.command_id.startswith(f"presence:{_SEAT}:back:")
    _, state = await table.latest()
    assert state.seats[_SEAT - 1].presence == "here" and _hand(state) == hand

    # He finishes his turn himself: in the window, a discard (PF-TIMER-6).
    await table.play(until=lambda s: _turn(s)[0] > turn)
    moves = _moves_of(await table.rows(reconnected.version))
    assert [kind for kind, _ in moves] == ["CardDiscarded"]
    assert moves[0][1].startswith(f"seat{_SEAT}:")  # sent on his socket

    # Past the 60 s the grace is over and nothing comes of it: he is back. The clock was
    # live: the next turn, begun a moment ago, had its 20 s up at that time.
    before = await store.stream_version(table.table_id)
    moment = _at(away) + _GRACE + timedelta(seconds=1)
    await _clock_looks(workers, database, nats_url, tmp_path / "clock-2.log", moment)
    rows = await table.rows(before)
    assert [r.metadata.command_id for r in rows][:1] == [f"timeout:1:{turn + 1}:draw"]
    assert "SeatReplacedByBot" not in [r.type for r in await table.rows()]
    _, state = await table.latest()
    assert state.seats[_SEAT - 1].presence == "here"


async def test_a_seat_cut_off_for_60_s_goes_to_a_bot_and_back_to_its_player_pf_conn_3(
    database: str,
    nats_url: str,
    store: PostgresEventStore,
    table: _Table,
    workers: list[_Worker],
    tmp_path: Path,
) -> None:
    """PF-CONN-3, PF-BOT-2, PF-BOT-5, PF-EX-5: the bot completes the match; its player,
    back, watches."""
    bots = _Worker("bots", database, nats_url, tmp_path / "bots.log", "--interval", "0.05")
    workers.append(bots)
    await table.start()
    await bots.says("bots: connected")
    away, hand = await _cut_mid_turn(table)
    turn, _ = _turn((await table.latest())[1])

    moment = _at(away) + _GRACE + timedelta(seconds=1)
    await _clock_looks(workers, database, nats_url, tmp_path / "clock.log", moment)
    replaced = await table.row("SeatReplacedByBot", after=away.version)
    assert decode_event(replaced) == SeatReplacedByBot(seat=_SEAT, reason="timeout")
    assert replaced.metadata.command_id == f"replace:{_SEAT}:{away.version}"
    states = await states_by_version(store, table.table_id)
    assert states[replaced.version].seats[_SEAT - 1].presence == "bot"
    assert _hand(states[replaced.version]) == hand  # PF-BOT-2: the same hand

    # The bot finishes the turn he was cut off in, and plays the seat's next turn whole,
    # while the players play theirs: the match goes on (PF-CONN-1).
    await table.play(until=lambda s: _turn(s)[0] > turn + 4)
    bot_moves = _moves_of(await table.rows(replaced.version))
    assert all(command_id.startswith("auto:") for _, command_id in bot_moves), bot_moves
    kinds = [kind for kind, _ in bot_moves]
    assert kinds.count("CardDiscarded") == 2, kinds  # each of the two turns ends with one
    assert {"CardDrawn", "GroundTaken"} & set(kinds[kinds.index("CardDiscarded") + 1 :]), kinds

    # He comes back as his seat's next turn begins. The bots worker is paused (SIGSTOP)
    # before that turn, so that the table stands still while he is refused.
    await table.play(until=lambda s: _turn(s)[1] == 1)
    bots.signal(signal.SIGSTOP)
    await table.play(until=lambda s: _turn(s)[1] == _SEAT)
    back = await table.connect(_SEAT)
    table.clients[_SEAT] = back
    reconnected = await table.row("SeatReconnected", after=replaced.version)
    assert reconnected.metadata.command_id.startswith(f"presence:{_SEAT}:back:")
    version, state = await table.latest()
    assert _view_hand(back.messages[0]) == _hand(state)  # his seat, with the bot's hand
    assert state.seats[_SEAT - 1].presence == "returning"  # watching
    assert state.game_state is not None
    early = await back.command(msgspec.to_builtins(_bot_command(state.game_state, _SEAT)))
    assert (early["type"], early["code"], early["rule_id"]) == (
        "rejected",
        "bot_plays_seat",
        "PF-BOT-5",
    ), early
    assert await store.stream_version(table.table_id) == version

    # The bot plays this turn of his seat and the next one too: no seat back in the match.
    bots.signal(signal.SIGCONT)
    back_turn = _turn(state)[0]
    await table.play(until=lambda s: _turn(s)[0] > back_turn + 4)
    rows = await table.rows(reconnected.version)
    assert "SeatReturned" not in [r.type for r in rows]
    watched = _moves_of(rows)
    assert watched and all(command_id.startswith("auto:") for _, command_id in watched)
    assert [kind for kind, _ in watched].count("CardDiscarded") == 2, watched
    _, state = await table.latest()
    assert state.seats[_SEAT - 1].presence == "returning" and played_by_bot(state, _SEAT)
