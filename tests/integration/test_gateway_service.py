"""The table service's write path, over the in-memory adapters and the real ones
(PostgreSQL + NATS JetStream): two gateways on one store, repeated command ids,
snapshots, and following a table from the bus."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path

import msgspec

from engine.banakil.messages import Command, Timeout
from engine.replay import Record, decode_record, record_options
from engine.table import Disconnect, StartTable, TableState
from services.bots.worker import BotsWorker
from services.bus.port import Bus, BusMessage, PublishResult
from services.gateway.messages import view_message
from services.projections.in_play import TablesInPlay
from services.store.port import EventStore, StoredEvent
from services.tables.codec import ENGINE_VERSION, decode_state
from services.tables.followups import StackedDeal
from services.tables.service import TableService
from tests.e2e.gateway_support import states_by_version
from tests.service_support import Adapters, adapters, batch_time, real

_RECORD = Path(__file__).resolve().parents[2] / "examples" / "sahrat-stacked-deal.json"

__all__ = ["adapters", "real"]  # fixtures


class _LostPublishes:
    """A bus whose publishes never arrive: a writer that died between commit and publish."""

    def __init__(self, bus: Bus) -> None:
        self._bus = bus

    async def publish(self, events: Sequence[StoredEvent]) -> PublishResult:
        return PublishResult()

    async def subscribe(self, stream_id: str, handler: object) -> object:
        raise AssertionError("not used")

    async def close(self) -> None:
        pass


class _HeldPublishes:
    """A bus whose publishes wait until the test lets them through."""

    def __init__(self, bus: Bus) -> None:
        self._bus = bus
        self.open = asyncio.Event()
        self.batches: list[list[tuple[str, int]]] = []

    async def publish(self, events: Sequence[StoredEvent]) -> PublishResult:
        await self.open.wait()
        self.batches.append([(e.stream_id, e.version) for e in events])
        return await self._bus.publish(events)

    async def subscribe(self, stream_id: str, handler: object) -> object:
        raise AssertionError("not used")

    async def close(self) -> None:
        pass


def _record() -> Record:
    return decode_record(_RECORD.read_bytes())


async def _dealt_table(service: TableService) -> tuple[str, Record]:
    """The sahrat example's table, its four seats taken, dealt from its stacked deck."""
    record = _record()
    deal = record.deals[0]
    assert deal.deck is not None
    created = await service.create_table(
        record_options(record),
        ("human",) * 4,
        StackedDeal(cards=deal.deck, dealer=deal.dealer, cut=deal.cut),
    )
    table_id = created.state.table_id
    for seat, name in enumerate(record.seats, start=1):
        assert (await service.take_seat(table_id, seat, name)).accepted
    assert (await service.start(table_id, 1)).accepted
    loaded = await service.load(table_id)
    assert loaded.state.game_state is not None and loaded.state.game_state.phase == "play"
    return table_id, record


def _step(record: Record, index: int) -> tuple[int, Command]:
    step = record.deals[0].commands[index]
    return step.seat, step.command


async def _types_after(store: EventStore, table_id: str, version: int) -> list[str]:
    return [row.type for row in await store.read_stream(table_id, version)]


async def test_a_gateway_that_decided_on_old_state_decides_again(adapters: Adapters) -> None:
    first = TableService(adapters.store, adapters.bus)
    second = TableService(adapters.store, adapters.bus)
    table_id, record = await _dealt_table(first)
    await second.load(table_id)  # the second gateway's cache, about to go stale

    seat, meld = _step(record, 0)
    before = await adapters.store.stream_version(table_id)
    assert (await first.handle(table_id, seat, meld, "a-1")).accepted
    # Decided at the old version, refused by the store, decided again on the new state:
    # the cards are on the table now.
    again = await second.handle(table_id, seat, meld, "b-1")
    assert not again.accepted and again.rejection is not None
    assert again.rejection.code == "card_not_in_hand"
    assert await _types_after(adapters.store, table_id, before) == ["MeldLaid"]

    # ... and a command that still holds on the new state is appended after the other's.
    third = TableService(adapters.store, adapters.bus)
    await third.load(table_id)
    seat, meld = _step(record, 1)
    assert (await first.handle(table_id, seat, meld, "a-2")).accepted
    seat, meld = _step(record, 2)
    outcome = await third.handle(table_id, seat, meld, "c-3")
    assert outcome.accepted and outcome.version == before + 3


async def test_a_gateway_that_finds_its_command_already_appended_shows_the_change(
    adapters: Adapters,
) -> None:
    """Two processes issue the same system command (the timer's Deal of the next deal, say):
    the one that loses the race learns the other's events from the store, not from the bus
    (whose news of versions it already holds is ignored), and must still show them to its
    sockets: its listeners hear of the new version."""
    first = TableService(adapters.store, adapters.bus)
    second = TableService(adapters.store, adapters.bus)
    table_id, _ = await _dealt_table(first)
    await second.load(table_id)  # the second's cache, about to go stale
    heard: list[int] = []
    second.add_listener(lambda changed, loaded: heard.append(loaded.version))

    assert (await first.handle(table_id, 0, Disconnect(seat=2), "system:1")).accepted
    version = await adapters.store.stream_version(table_id)
    outcome = await second.handle(table_id, 0, Disconnect(seat=2), "system:1")
    assert outcome.accepted and outcome.duplicate and outcome.version == version
    assert heard and heard[-1] == version
    assert await _types_after(adapters.store, table_id, version - 1) == ["SeatDisconnected"]


async def test_views_carry_the_deadline_of_the_running_turn_pf_timer_1_pf_timer_3(
    adapters: Adapters,
) -> None:
    """A client counts down from the deadline the clock will use: the turn's seconds (20 in
    sahrat) from the batch that began the turn, then 5 s from the timeout for the discard
    window; derived from the log, so a gateway that loads the table afresh agrees."""
    service = TableService(adapters.store, adapters.bus)
    table_id, _ = await _dealt_table(service)
    dealt = await batch_time(adapters.store, table_id, "CardsDealt")
    loaded = await service.load(table_id)
    assert loaded.deadline == dealt + timedelta(seconds=20)
    game = loaded.state.game_state
    assert game is not None
    message = msgspec.json.decode(view_message(loaded, None))
    assert datetime.fromisoformat(message["deadline"]) == loaded.deadline

    timeout = Timeout(deal=game.deal, turn=game.turn_no)
    assert (await service.handle(table_id, 0, timeout, "t-1")).accepted
    timed_out = await batch_time(adapters.store, table_id, "TurnTimedOut")
    assert (await service.load(table_id)).deadline == timed_out + timedelta(seconds=5)
    fresh = TableService(adapters.store, adapters.bus)
    assert (await fresh.load(table_id)).deadline == timed_out + timedelta(seconds=5)

    assert (await service.handle(table_id, 0, timeout, "t-2")).accepted  # PF-AUTO-1
    discarded = await batch_time(adapters.store, table_id, "CardDiscarded")
    assert (await service.load(table_id)).deadline == discarded + timedelta(seconds=20)


async def test_a_repeated_command_id_returns_the_first_outcome_and_appends_nothing(
    adapters: Adapters,
) -> None:
    service = TableService(adapters.store, adapters.bus)
    stale = TableService(adapters.store, adapters.bus)
    table_id, record = await _dealt_table(service)
    await stale.load(table_id)
    seat, meld = _step(record, 0)
    first = await service.handle(table_id, seat, meld, "once")
    assert first.accepted and not first.duplicate
    end = await adapters.store.stream_version(table_id)

    fresh = TableService(adapters.store, adapters.bus)
    for gateway in (service, fresh, stale):  # warm cache, cold cache, stale cache
        again = await gateway.handle(table_id, seat, meld, "once")
        assert again.accepted and again.duplicate and again.version == first.version
    assert await adapters.store.stream_version(table_id) == end


async def test_two_gateways_running_the_follow_ups_at_once_seed_and_deal_once(
    adapters: Adapters,
) -> None:
    one = TableService(adapters.store, adapters.bus)
    other = TableService(adapters.store, adapters.bus)
    created = await one.create_table(record_options(_record()), ("human", "bot", "bot", "bot"))
    table_id = created.state.table_id
    await one.take_seat(table_id, 1, "Hala")
    outcome = await one.handle(table_id, 1, StartTable(), "start", follow_up=False)
    assert outcome.accepted
    await asyncio.gather(one.follow_up(table_id), other.follow_up(table_id))
    types = await _types_after(adapters.store, table_id, outcome.version)
    assert types.count("SeedCommitted") == 1 and types.count("CardsDealt") == 1
    state = (await other.load(table_id)).state
    assert state.game_state is not None and state.game_state.phase == "play"
    # The bots worker plays the bots on, until the human must act.
    tables = TablesInPlay(adapters.store, accept={table_id}.__contains__)
    worker = BotsWorker(tables, other)
    await worker.tick()
    await worker.idle()
    state = (await other.load(table_id)).state
    assert state.game_state is not None and state.game_state.turn == 1


async def test_a_table_loads_from_its_snapshot_and_tail_like_a_full_fold(
    adapters: Adapters,
) -> None:
    service = TableService(adapters.store, adapters.bus, snapshot_every=4)
    created = await service.create_table(record_options(_record()), ("human", "bot", "bot", "bot"))
    table_id = created.state.table_id
    await service.take_seat(table_id, 1, "Hala")
    await service.start(table_id, 1)
    version = await adapters.store.stream_version(table_id)
    snapshot = await adapters.store.load_snapshot(table_id, ENGINE_VERSION)
    assert snapshot is not None and 4 <= snapshot.version <= version

    folded: list[TableState] = await states_by_version(adapters.store, table_id)
    # Sealed whole with a fresh nonce (issue 10 item 3): compared opened, not as bytes.
    assert decode_state(snapshot.state, table_id) == folded[snapshot.version]
    loaded = await TableService(adapters.store, adapters.bus).load(table_id)
    assert loaded.version == version
    assert msgspec.json.encode(loaded.state) == msgspec.json.encode(folded[-1])


async def test_a_followed_table_folds_bus_news_and_refolds_on_a_gap(adapters: Adapters) -> None:
    writer = TableService(adapters.store, adapters.bus)
    reader = TableService(adapters.store, adapters.bus)
    table_id, record = await _dealt_table(writer)
    seen: list[int] = []
    reader.add_listener(lambda _, loaded: seen.append(loaded.version))
    subscription = await adapters.bus.subscribe(table_id, reader.on_published)
    await reader.refresh(table_id)
    reader.follow(table_id)
    try:
        seat, meld = _step(record, 0)
        outcome = await writer.handle(table_id, seat, meld, "w-1")
        async with asyncio.timeout(10):
            while (reader.cached(table_id) or outcome).version < outcome.version:
                await asyncio.sleep(0.01)
        assert seen[-1] == outcome.version

        # Two commands whose publishes are lost; then news of a later event arrives.
        lossy = TableService(adapters.store, _LostPublishes(adapters.bus))  # type: ignore[arg-type]
        for index in (1, 2):
            seat, meld = _step(record, index)
            assert (await lossy.handle(table_id, seat, meld, f"l-{index}")).accepted
        latest = (await adapters.store.read_stream(table_id))[-1]
        await reader.on_published(
            BusMessage(
                position=latest.position,
                stream_id=table_id,
                version=latest.version,
                type=latest.type,
            )
        )
        cached = reader.cached(table_id)
        assert cached is not None and cached.version == latest.version
        folded = await states_by_version(adapters.store, table_id)
        assert msgspec.json.encode(cached.state) == msgspec.json.encode(folded[-1])
    finally:
        reader.unfollow(table_id)
        await subscription.unsubscribe()


async def test_commands_are_answered_without_waiting_for_the_bus_which_gets_them_in_order(
    adapters: Adapters,
) -> None:
    held = _HeldPublishes(adapters.bus)
    service = TableService(adapters.store, held)  # type: ignore[arg-type]
    got: list[int] = []

    async def collect(message: BusMessage) -> None:
        got.append(message.version)

    try:
        async with asyncio.timeout(10):  # nothing below waits for a publish
            table_id, record = await _dealt_table(service)
            subscription = await adapters.bus.subscribe(table_id, collect)
            for index in (0, 1, 2):
                seat, meld = _step(record, index)
                assert (await service.handle(table_id, seat, meld, f"h-{index}")).accepted
        assert held.batches == []
        end = await adapters.store.stream_version(table_id)

        held.open.set()
        await service.published()
        published = [v for batch in held.batches for t, v in batch if t == table_id]
        assert published == list(range(1, end + 1))  # each version once, in order
        async with asyncio.timeout(10):  # subscribed before they went out: it gets them all
            while len(got) < end:
                await asyncio.sleep(0.01)
        assert got == list(range(1, end + 1))
        await subscription.unsubscribe()
    finally:
        held.open.set()
        await service.close()
