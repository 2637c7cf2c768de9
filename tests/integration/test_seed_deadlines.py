"""The timers before a deal, over the in-memory adapters and the real ones: the client seed
window (PF-AMB-12 h; in `classic` it runs its course before the host may cut), the host's
15 seconds to cut counted from the window's close (PF-CUT-2, PF-CUT-3) and the 8 seconds
of the end-of-deal screen before the next deal (PF-REVEAL-1, PF-REVEAL-3).

The times are made short here; the defaults are 3 s, 15 s and 8 s
(SAHRA_SEED_WINDOW_SECONDS, SAHRA_CUT_SECONDS, SAHRA_REVEAL_SECONDS).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from engine import banakil, fair
from engine.banakil.autoplay import random_step
from engine.banakil.messages import CardsDealt, CloseSeedWindow, Cut, DeckCut, SendClientSeed
from engine.verify import verify_record
from services.projections.in_play import server_time
from services.store.port import EventStore, StoredEvent
from services.tables.codec import decode_event
from services.tables.seeds import SeedTiming
from services.tables.service import TableService
from services.verifier.records import deal_record
from tests.service_support import Adapters, adapters, real

__all__ = ["adapters", "real"]  # fixtures


@pytest.fixture
async def services(adapters: Adapters) -> AsyncIterator[list[TableService]]:
    """Table services made by a test; their timers are stopped at its end."""
    made: list[TableService] = []
    yield made
    for service in made:
        await service.deadlines.close()


def _service(
    adapters: Adapters,
    made: list[TableService],
    window: float = 0.0,
    cut: float = 15.0,
    reveal: float = 0.0,
) -> TableService:
    timing = SeedTiming(seed_window=window, cut_seconds=cut, reveal_seconds=reveal)
    service = TableService(adapters.store, adapters.bus, timing=timing)
    made.append(service)
    return service


async def _table(service: TableService, preset: str, seats: tuple[str, ...]) -> str:
    created = await service.create_table(banakil.options_from(preset), seats)  # type: ignore[arg-type]
    table_id = created.state.table_id
    for seat, kind in enumerate(seats, start=1):
        if kind == "human":
            assert (await service.take_seat(table_id, seat, f"P{seat}")).accepted
    assert (await service.start(table_id, 1)).accepted
    return table_id


async def _rows(store: EventStore, table_id: str, kind: str) -> list[StoredEvent]:
    return [r for r in await store.read_stream(table_id) if r.type == kind]


async def _until(store: EventStore, table_id: str, kind: str, seconds: float = 10) -> StoredEvent:
    async with asyncio.timeout(seconds):
        while not (found := await _rows(store, table_id, kind)):
            await asyncio.sleep(0.02)
    return found[0]


async def _phase(service: TableService, table_id: str) -> str:
    game = (await service.load(table_id)).state.game_state
    assert game is not None
    return game.phase


async def test_the_deal_waits_for_the_seed_window_then_the_system_deals(
    adapters: Adapters, services: list[TableService]
) -> None:
    """PF-AMB-12 h, PF-FAIR-2: the commitment is out, the seats have a window to add
    seeds, and when it closes the system deals with what was sent."""
    service = _service(adapters, services, window=0.4)
    table_id = await _table(service, "sahrat", ("human", "human", "bot", "bot"))
    loaded = await service.load(table_id)
    game = loaded.state.game_state
    assert game is not None and game.phase == "seeded" and game.commitment is not None
    assert service.deadlines.armed(table_id) is not None
    assert (await service.handle(table_id, 2, SendClientSeed(seed="only me"), "s2")).accepted
    assert await _phase(service, table_id) == "seeded"  # seat 1 has not sent one
    began = asyncio.get_running_loop().time()
    dealt = await _until(adapters.store, table_id, "CardsDealt")
    assert asyncio.get_running_loop().time() - began >= 0.1
    assert (dealt.metadata.command_id, dealt.metadata.seat) == ("auto:deal:1", 0)
    event = decode_event(dealt)
    assert isinstance(event, CardsDealt)
    assert event.entropy == fair.entropy(["", "only me", "", ""])


async def test_the_deal_is_dealt_at_once_when_every_human_seat_has_sent_its_seed(
    adapters: Adapters, services: list[TableService]
) -> None:
    service = _service(adapters, services, window=60)
    table_id = await _table(service, "sahrat", ("human", "bot", "human", "bot"))
    assert (await service.handle(table_id, 1, SendClientSeed(seed="a"), "s1")).accepted
    assert await _phase(service, table_id) == "seeded"
    assert (await service.handle(table_id, 3, SendClientSeed(seed="c"), "s3")).accepted
    assert await _phase(service, table_id) == "play"  # no 60 s wait
    (dealt,) = await _rows(adapters.store, table_id, "CardsDealt")
    assert dealt.metadata.command_id == "auto:deal:1"
    assert service.deadlines.armed(table_id) is None


async def test_a_gateway_that_loads_a_waiting_table_after_a_restart_deals_it(
    adapters: Adapters, services: list[TableService]
) -> None:
    """The timer dies with its process; the next gateway to load the table arms it again,
    counting from the commitment's time, and two gateways firing it deal once."""
    first = _service(adapters, services, window=0.6)
    table_id = await _table(first, "sahrat", ("human", "bot", "bot", "bot"))
    await first.deadlines.close()  # the process is gone
    await asyncio.sleep(0.3)
    second = _service(adapters, services, window=0.6)
    third = _service(adapters, services, window=0.6)
    await asyncio.gather(second.follow_up(table_id), third.follow_up(table_id))
    assert second.deadlines.armed(table_id) is not None
    assert third.deadlines.armed(table_id) is not None
    await _until(adapters.store, table_id, "CardsDealt")
    await asyncio.sleep(0.2)
    rows = await adapters.store.read_stream(table_id)
    assert [r.type for r in rows].count("CardsDealt") == 1
    ids = [r.metadata.command_id for r in rows]
    assert ids.count("auto:deal:1") == 1


async def test_the_system_cuts_when_the_host_has_not_cut_in_time_pf_cut_2_pf_cut_3(
    adapters: Adapters, services: list[TableService]
) -> None:
    """PF-CUT-2/3, PF-AMB-2: no cut from the host in time → the system's cut at
    1 + uniform(105) of the secret's `autocut` stream, as seat 0; the verifier re-derives
    it once the deal is over."""
    service = _service(adapters, services, window=0, cut=0.3)
    table_id = await _table(service, "classic", ("human", "bot", "bot", "bot"))
    assert service.deadlines.armed(table_id) is not None
    state = (await service.load(table_id)).state.game_state
    assert state is not None and state.secret is not None
    secret = bytes.fromhex(state.secret)  # the service's own copy, for the check below
    row = await _until(adapters.store, table_id, "DeckCut")
    assert (row.metadata.command_id, row.metadata.seat) == ("auto:cut:1", 0)
    cut = decode_event(row)
    assert isinstance(cut, DeckCut) and cut.automatic
    assert cut.position == fair.auto_cut(secret, fair.entropy(["", "", "", ""]))
    rng = random.Random(5)
    for step in range(2_000):
        game = (await service.load(table_id)).state.game_state
        assert game is not None
        if game.deal > 1 or game.phase != "play":
            break
        seat, command, _ = random_step(game, rng)
        assert (await service.handle(table_id, seat, command, f"h{step}")).accepted
    record = await deal_record(adapters.store, f"{table_id}-1")
    opening = [(c.seat, c.command) for c in record.deals[0].commands[:2]]
    assert opening == [(0, CloseSeedWindow()), (0, Cut())]  # PF-AMB-12 h: the window first
    assert verify_record(record).passed


async def test_a_host_who_cuts_in_time_is_not_overruled_pf_cut_2(
    adapters: Adapters, services: list[TableService]
) -> None:
    service = _service(adapters, services, window=0, cut=0.3)
    table_id = await _table(service, "classic", ("human", "bot", "bot", "bot"))
    assert (await service.handle(table_id, 1, Cut(position=42), "cut")).accepted
    assert service.deadlines.armed(table_id) is None
    await asyncio.sleep(0.5)
    (row,) = await _rows(adapters.store, table_id, "DeckCut")
    cut = decode_event(row)
    assert isinstance(cut, DeckCut) and not cut.automatic and cut.position == 42


async def test_in_classic_the_seed_window_runs_its_course_before_the_host_cuts_pf_amb_12(
    adapters: Adapters, services: list[TableService]
) -> None:
    """The host's cut used to close the window at once, so no other seat's seed was ever
    mixed in. Now the cut is refused while the window is open; the system closes it when
    its time is up (SAHRA_SEED_WINDOW_SECONDS), and the deal is shuffled with every seed."""
    service = _service(adapters, services, window=0.5, cut=60)
    table_id = await _table(service, "classic", ("human", "human", "bot", "bot"))
    early = await service.handle(table_id, 1, Cut(position=40), "cut-early")
    assert early.rejection is not None
    assert (early.rejection.code, early.rejection.rule_id) == ("seed_window_open", "PF-AMB-12")
    armed = service.deadlines.armed(table_id)
    assert armed is not None and armed.kind == "close"
    assert (await service.handle(table_id, 2, SendClientSeed(seed="two"), "s2")).accepted
    again = await service.handle(table_id, 2, SendClientSeed(seed="two again"), "s2b")
    assert again.rejection is not None and again.rejection.code == "seed_already_sent"
    closed = await _until(adapters.store, table_id, "SeedWindowClosed")
    assert (closed.metadata.command_id, closed.metadata.seat) == ("auto:close:1", 0)
    (committed,) = await _rows(adapters.store, table_id, "SeedCommitted")
    assert server_time(closed) - server_time(committed) >= timedelta(seconds=0.5)
    late = await service.handle(table_id, 1, SendClientSeed(seed="one"), "s1")
    assert late.rejection is not None and late.rejection.code == "seed_window_closed"
    armed = service.deadlines.armed(table_id)
    assert armed is not None and armed.kind == "cut"
    assert (await service.handle(table_id, 1, Cut(position=40), "cut")).accepted
    dealt = decode_event((await _rows(adapters.store, table_id, "CardsDealt"))[0])
    assert isinstance(dealt, CardsDealt)
    assert dealt.entropy == fair.entropy(["", "two", "", ""])
    kinds = [r.type for r in await adapters.store.read_stream(table_id)]
    assert kinds.count("ClientSeedSent") == 1  # the refused ones were never stored


async def test_the_seed_window_closes_early_once_every_human_seat_has_sent_one(
    adapters: Adapters, services: list[TableService]
) -> None:
    service = _service(adapters, services, window=60, cut=60)
    table_id = await _table(service, "classic", ("human", "bot", "human", "bot"))
    assert (await service.handle(table_id, 3, SendClientSeed(seed="c"), "s3")).accepted
    assert not await _rows(adapters.store, table_id, "SeedWindowClosed")
    assert (await service.handle(table_id, 1, SendClientSeed(seed="a"), "s1")).accepted
    (closed,) = await _rows(adapters.store, table_id, "SeedWindowClosed")  # no 60 s wait
    assert closed.metadata.command_id == "auto:close:1"
    assert (await service.handle(table_id, 1, Cut(position=7), "cut")).accepted
    dealt = decode_event((await _rows(adapters.store, table_id, "CardsDealt"))[0])
    assert isinstance(dealt, CardsDealt) and dealt.entropy == fair.entropy(["a", "", "c", ""])


async def test_the_hosts_time_to_cut_counts_from_the_seed_windows_close_pf_cut_2(
    adapters: Adapters, services: list[TableService]
) -> None:
    service = _service(adapters, services, window=0.3, cut=0.3)
    table_id = await _table(service, "classic", ("human", "bot", "bot", "bot"))
    row = await _until(adapters.store, table_id, "DeckCut")
    (committed,) = await _rows(adapters.store, table_id, "SeedCommitted")
    (closed,) = await _rows(adapters.store, table_id, "SeedWindowClosed")
    assert server_time(closed) - server_time(committed) >= timedelta(seconds=0.3)
    assert server_time(row) - server_time(closed) >= timedelta(seconds=0.3)
    cut = decode_event(row)
    assert isinstance(cut, DeckCut) and cut.automatic


async def test_the_next_deal_waits_while_the_last_one_is_shown_pf_reveal_1_pf_reveal_3(
    adapters: Adapters, services: list[TableService]
) -> None:
    """PF-REVEAL-1/3: when a deal ends its hands and scores stay on screen for the pause
    (8 s; 0.4 s here), then the next deal starts by itself, dealt by the system. The first
    deal has no deal before it to show, and is dealt at once."""
    service = _service(adapters, services, reveal=0.4)
    table_id = await _table(service, "sahrat", ("human", "human", "human", "human"))
    assert await _phase(service, table_id) == "play"  # deal 1: no pause
    rng = random.Random(11)
    for step in range(2_000):
        game = (await service.load(table_id)).state.game_state
        assert game is not None
        if game.deal > 1:
            break
        seat, command, _ = random_step(game, rng)
        assert (await service.handle(table_id, seat, command, f"h{step}")).accepted
    ended = server_time((await _rows(adapters.store, table_id, "DealEnded"))[0])
    assert await _phase(service, table_id) == "seeded"  # the next seed is committed...
    assert service.deadlines.armed(table_id) is not None  # ...and the screen is up
    await service.follow_up(table_id)  # a follow-up does not deal over the pause either
    assert await _phase(service, table_id) == "seeded"
    async with asyncio.timeout(10):
        while len(rows := await _rows(adapters.store, table_id, "CardsDealt")) < 2:
            await asyncio.sleep(0.02)
    second = rows[1]
    assert (second.metadata.command_id, second.metadata.seat) == ("auto:deal:2", 0)
    assert server_time(second) - ended >= timedelta(seconds=0.4)


def test_the_timing_comes_from_the_environment() -> None:
    default = SeedTiming(seed_window=3.0, cut_seconds=15.0, reveal_seconds=8.0)
    assert SeedTiming.from_env({}) == default
    timing = SeedTiming.from_env(
        {
            "SAHRA_SEED_WINDOW_SECONDS": "0.5",
            "SAHRA_CUT_SECONDS": "20",
            "SAHRA_REVEAL_SECONDS": "0",
        }
    )
    assert timing == SeedTiming(seed_window=0.5, cut_seconds=20.0, reveal_seconds=0.0)
    with pytest.raises(ValueError, match="SAHRA_CUT_SECONDS"):
        SeedTiming.from_env({"SAHRA_CUT_SECONDS": "soon"})
    with pytest.raises(ValueError, match="SAHRA_SEED_WINDOW_SECONDS"):
        SeedTiming.from_env({"SAHRA_SEED_WINDOW_SECONDS": "-1"})
    with pytest.raises(ValueError, match="SAHRA_REVEAL_SECONDS"):
        SeedTiming.from_env({"SAHRA_REVEAL_SECONDS": "later"})
