"""A snapshot is only a cache of its own table: one that is not its table's is ignored.

A sealed snapshot names the table it was sealed for; a snapshot row holding another
table's state (copied by a database writer, or by a bug) must never become this table's
state, and an unreadable one only costs a fold from the start."""

from __future__ import annotations

from engine.banakil.options import options_from
from engine.table import SeatKind
from services.bus.memory import MemoryBus
from services.store.memory import MemoryEventStore
from services.store.port import Snapshot
from services.tables.codec import ENGINE_VERSION, encode_state
from services.tables.seeds import SeedTiming
from services.tables.service import TableService


async def _two_tables(store: MemoryEventStore) -> tuple[str, str]:
    service = TableService(store, MemoryBus(), timing=SeedTiming(seed_window=0.0))
    seats: tuple[SeatKind, ...] = ("human", "bot", "bot", "bot")
    first = await service.create_table(options_from("sahrat"), seats, host="Amal")
    second = await service.create_table(options_from("classic"), seats, host="Badr")
    await service.deadlines.close()
    await service.close()
    return first.state.table_id, second.state.table_id


async def test_a_snapshot_sealed_for_another_table_is_ignored_and_the_log_folded() -> None:
    store = MemoryEventStore()
    mine, other = await _two_tables(store)
    theirs = await TableService(store, MemoryBus()).load(other)
    forged = Snapshot(
        stream_id=mine,
        version=2,
        engine_version=ENGINE_VERSION,
        state=encode_state(theirs.state),
    )
    await store.save_snapshot(forged)
    loaded = await TableService(store, MemoryBus()).load(mine)
    assert loaded.state.table_id == mine
    assert loaded.state.seats[0].player == "Amal"


async def test_an_unreadable_snapshot_costs_a_fold_not_the_table() -> None:
    store = MemoryEventStore()
    mine, _ = await _two_tables(store)
    broken = Snapshot(stream_id=mine, version=2, engine_version=ENGINE_VERSION, state=b"{")
    await store.save_snapshot(broken)
    loaded = await TableService(store, MemoryBus()).load(mine)
    assert loaded.state.seats[0].player == "Amal" and loaded.version == 2
