"""The gateway's warning of the last 5 seconds of a turn (PF-TIMER-2) at a table that moves
while the gateway first reads when its wait began: the turn that began meanwhile is the
one warned, counted from the server time of the batch that began it.

Over the in-memory adapters, with the gateway's reads of the log held by the test, so the
bots play exactly while the gateway reads."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import msgspec

from engine.banakil.messages import Discard
from engine.banakil.options import options_from
from services.bus.memory import MemoryBus
from services.gateway.hub import Session
from services.gateway.presence import Presence
from services.gateway.turn_warnings import TurnWarnings
from services.projections.in_play import server_time
from services.store.memory import MemoryEventStore
from services.store.port import StoredEvent
from services.tables.bot_policy import bot_move
from services.tables.seeds import SeedTiming
from services.tables.service import TableService
from tests.service_support import FakeTime

_STARTS = {"CardsDealt", "CardDiscarded"}


class _HeldReads:
    """The log as the warnings read it: each read waits until the test lets it go on."""

    def __init__(self, store: MemoryEventStore) -> None:
        self._store = store
        self.reading = asyncio.Event()
        self.go_on = asyncio.Event()

    async def read_stream(self, stream_id: str, after_version: int = 0) -> list[StoredEvent]:
        self.reading.set()
        await self.go_on.wait()
        return await self._store.read_stream(stream_id, after_version)


async def _play_bots(service: TableService, table_id: str) -> None:
    """The bots' moves, and the system's steps between them, until the player must act."""
    while True:
        loaded = await service.load(table_id)
        move = bot_move(loaded.state, loaded.version)
        if move is None:
            return
        assert (await service.handle(table_id, move.seat, move.command, move.command_id)).accepted


async def test_a_turn_begun_while_the_gateway_reads_the_table_is_the_one_warned_pf_timer_2() -> (
    None
):
    store = MemoryEventStore()
    # Dealt at once, the next deal too: the bots play on to his turn without a timer.
    timing = SeedTiming(seed_window=0.0, cut_seconds=3600.0, reveal_seconds=0.0)
    service = TableService(store, MemoryBus(), timing=timing)
    options = options_from("sahrat", table_kind="free", bots_allowed=True)
    table_id = (await service.create_table(options, ("human", "bot", "bot", "bot"))).state.table_id
    assert (await service.take_seat(table_id, 1, "Hala")).accepted
    assert (await service.start(table_id, 1)).accepted
    game = (await service.load(table_id)).state.game_state
    assert game is not None
    if game.turn == 1:  # he starts the deal: his turn first, so that a bot's turn is next
        first = Discard(card=game.hands[0][0])
        assert (await service.handle(table_id, 1, first, "first")).accepted

    reads = _HeldReads(store)
    time = FakeTime()
    presence = Presence(service)
    warnings = TurnWarnings(service, reads, presence, time)  # type: ignore[arg-type]
    sent: list[bytes] = []

    async def send(message: bytes) -> None:
        sent.append(message)

    try:
        await presence.arrived(Session(table_id, 1, send))  # he sits down: watch the table
        looking = asyncio.create_task(warnings.tick())
        await reads.reading.wait()  # the gateway reads when the bot's turn began ...
        await _play_bots(service, table_id)  # ... and the bots play meanwhile, to his turn
        reads.go_on.set()
        assert await looking == 0

        loaded = await service.load(table_id)
        game = loaded.state.game_state
        assert game is not None and game.phase == "play" and game.turn == 1
        rows = [r for r in await store.read_stream(table_id) if r.type in _STARTS]
        deadline = server_time(rows[-1]) + timedelta(seconds=20)  # sahrat (PF-TIMER-1)
        time.set(deadline - timedelta(seconds=4.9))
        assert await warnings.tick() == 1
        warning = msgspec.json.decode(sent[-1])
        assert warning["type"] == "warning" and warning["seat"] == 1
        assert (warning["deal"], warning["turn"]) == (game.deal, game.turn_no)
        assert datetime.fromisoformat(warning["deadline"]) == deadline
    finally:
        await service.deadlines.close()
        await service.close()


class _BrokenFor:
    """The log as the warnings read it, one table's reads failing (a poisoned stream)."""

    def __init__(self, store: MemoryEventStore, broken: str) -> None:
        self._store = store
        self._broken = broken
        self.failures = 0

    async def read_stream(self, stream_id: str, after_version: int = 0) -> list[StoredEvent]:
        if stream_id == self._broken:
            self.failures += 1
            raise RuntimeError("a row of this stream cannot be read")
        return await self._store.read_stream(stream_id, after_version)


async def _his_turn(service: TableService, player: str) -> str:
    options = options_from("sahrat", table_kind="free", bots_allowed=True)
    table_id = (await service.create_table(options, ("human", "bot", "bot", "bot"))).state.table_id
    assert (await service.take_seat(table_id, 1, player)).accepted
    assert (await service.start(table_id, 1)).accepted
    game = (await service.load(table_id)).state.game_state
    assert game is not None
    if game.turn != 1:
        await _play_bots(service, table_id)
    return table_id


async def test_a_table_whose_wait_cannot_be_read_does_not_stop_the_others_warnings() -> None:
    store = MemoryEventStore()
    timing = SeedTiming(seed_window=0.0, cut_seconds=3600.0, reveal_seconds=0.0)
    service = TableService(store, MemoryBus(), timing=timing)
    broken = await _his_turn(service, "Hala")
    healthy = await _his_turn(service, "Omar")
    reads = _BrokenFor(store, broken)
    time = FakeTime()
    presence = Presence(service)
    warnings = TurnWarnings(service, reads, presence, time)  # type: ignore[arg-type]
    sent: list[bytes] = []

    async def send(message: bytes) -> None:
        sent.append(message)

    try:
        await presence.arrived(Session(broken, 1, send))  # watched first: looked up first
        await presence.arrived(Session(healthy, 1, send))
        assert await warnings.tick() == 0
        rows = [r for r in await store.read_stream(healthy) if r.type in _STARTS]
        time.set(server_time(rows[-1]) + timedelta(seconds=20 - 4.9))
        assert await warnings.tick() == 1
        assert msgspec.json.decode(sent[-1])["table_id"] == healthy
        assert reads.failures == 1  # tried once, logged once, left out since
    finally:
        await service.deadlines.close()
        await service.close()
