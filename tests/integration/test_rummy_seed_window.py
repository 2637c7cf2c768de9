"""A rummy round waits for the seats' client seeds (PF-AMB-12 h) through the table service:
committed first, then dealt once every human seat has sent its seed (a bot seat sends
none), or when the window's time is up; the seeds are mixed into the deal and written in
the round's record, which verifies (PF-FAIR-1, PF-FAIR-2, PF-FAIR-5). Over the in-memory
adapters: the write path is the gateway's own."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import msgspec
import pytest

from engine import protocol
from engine.rummy.bot import fallback
from engine.rummy.messages import SendClientSeed
from engine.table import SeatKind
from services.bus.memory import MemoryBus
from services.store.memory import MemoryEventStore
from services.tables.seeds import SeedTiming
from services.tables.service import TableService
from services.verifier.audit import audit
from services.verifier.records import deal_record
from tests.e2e.rummy_support import new_group

_WINDOW = 0.5  # seconds


@pytest.fixture
def store() -> MemoryEventStore:
    return MemoryEventStore()


@pytest.fixture
async def service(store: MemoryEventStore) -> AsyncIterator[TableService]:
    timing = SeedTiming(seed_window=_WINDOW, reveal_seconds=0.0)
    made = TableService(store, MemoryBus(), timing=timing)
    yield made
    await made.deadlines.close()
    await made.close()


async def _started(service: TableService, variant: str, seats: tuple[str, ...]) -> str:
    game = protocol.get("rummy")
    kinds: tuple[SeatKind, ...] = tuple("bot" if s == "bot" else "human" for s in seats)
    made = await service.create_table(
        game.options_from(variant, seats=len(seats)), kinds, host=seats[0]
    )
    table_id = made.state.table_id
    for seat, name in enumerate(seats[1:], start=2):
        if name != "bot":
            assert (await service.take_seat(table_id, seat, name)).accepted
    assert (await service.start(table_id, 1)).accepted
    return table_id


async def test_a_round_is_dealt_once_every_human_seat_has_sent_its_seed(
    service: TableService,
) -> None:
    """PF-AMB-12 h, PF-FAIR-2: after the commitment only client seeds are taken; the
    second human seed deals the round at once, the bot seat sending none."""
    table_id = await _started(service, "vatican", ("Hala", "Ilyas", "bot"))
    game = (await service.load(table_id)).state.game_state
    assert game.phase == "seeded" and game.commitment and game.seed_window
    assert protocol.get("rummy").legal(game, 1).commands == ("SendClientSeed",)
    assert (await service.handle(table_id, 1, SendClientSeed(seed="hello"), "s1")).accepted
    assert (await service.load(table_id)).state.game_state.phase == "seeded"
    assert (await service.handle(table_id, 2, SendClientSeed(seed="world"), "s2")).accepted
    dealt = (await service.load(table_id)).state.game_state
    assert dealt.phase == "play" and dealt.client_seeds == ("hello", "world", "")


async def test_a_round_whose_seeds_do_not_all_come_is_dealt_when_the_window_closes(
    service: TableService,
) -> None:
    """PF-AMB-12 h: a seat that sends nothing does not hold the round up past the window."""
    table_id = await _started(service, "tahiti", ("Hala", "Ilyas"))
    assert (await service.handle(table_id, 2, SendClientSeed(seed="only me"), "s2")).accepted
    assert (await service.load(table_id)).state.game_state.phase == "seeded"
    await asyncio.sleep(_WINDOW + 0.5)
    dealt = (await service.load(table_id)).state.game_state
    assert dealt.phase == "play" and dealt.client_seeds[1] == "only me"


async def test_the_seeds_are_in_the_rounds_record_which_verifies(
    service: TableService, store: MemoryEventStore
) -> None:
    """PF-FAIR-5, PF-EX-8: the game played to its end; its record holds the seeds the
    round was dealt with, and the audit verifies it."""
    table_id = await _started(service, "guadeloupe", ("Hala", "Ilyas"))
    for seat, seed in ((1, "a"), (2, "b")):
        assert (
            await service.handle(table_id, seat, SendClientSeed(seed=seed), f"s{seat}")
        ).accepted
    game = protocol.get("rummy")
    for step in range(2_000):
        loaded = await service.load(table_id)
        if loaded.state.status == "finished":
            break
        state = loaded.state.game_state
        view = game.view(state, state.turn)
        laid = new_group(msgspec.to_builtins(view))
        if laid is not None:
            command = msgspec.convert(laid, game.command)
            if (await service.handle(table_id, state.turn, command, f"p{step}")).accepted:
                continue
        assert (await service.handle(table_id, state.turn, fallback(view), f"c{step}")).accepted
    assert (await service.load(table_id)).state.status == "finished"
    record = await deal_record(store, f"{table_id}-1")
    assert record.rounds[0].client_seeds == ("a", "b")
    summary = await audit(store)
    assert (summary.deals, summary.verified) == (1, 1)
