"""The tables-in-play read model's saved checkpoint, over the in-memory store and the real
one: a new clock or bots worker starts from the newest saved checkpoint, reads only the
log after it and knows exactly what a fold from the start knows (deadlines, away seats);
a checkpoint of another engine version, or one that cannot be read, is not used."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from typing import Any

import msgspec
import pytest

from engine.banakil.autoplay import random_step
from engine.table import Disconnect
from services.bus.memory import MemoryBus
from services.projections.in_play import TablesInPlay, Tracked, snapshot_name
from services.store.memory import MemoryEventStore
from services.store.port import Checkpoint, EventStore, Snapshot, StoredEvent
from tests.service_support import Adapters, Rig, real

__all__ = ["real"]


class _Counting:
    """A store that counts the rows `read_all` hands out (the log a start has to read)."""

    def __init__(self, store: EventStore) -> None:
        self._store = store
        self.rows = 0
        self.first_after: Checkpoint | None = None

    async def read_all(
        self, after: Checkpoint, limit: int = 500
    ) -> tuple[list[StoredEvent], Checkpoint]:
        if self.first_after is None:
            self.first_after = after
        rows, checkpoint = await self._store.read_all(after, limit)
        self.rows += len(rows)
        return rows, checkpoint

    async def save_snapshot(self, snapshot: Snapshot) -> None:
        await self._store.save_snapshot(snapshot)

    async def load_snapshot(self, stream_id: str, engine_version: str) -> Snapshot | None:
        return await self._store.load_snapshot(stream_id, engine_version)

    def __getattr__(self, name: str) -> Any:  # the rest of the store (the quarantine)
        return getattr(self._store, name)


@pytest.fixture(params=["memory", "real"])
async def rig(request: pytest.FixtureRequest, real: Adapters) -> AsyncIterator[Rig]:
    adapters = real if request.param == "real" else Adapters(MemoryEventStore(), MemoryBus())
    made = Rig(adapters)
    yield made
    await made.close()


async def _play(rig: Rig, table_id: str, moves: int, seed: int) -> None:
    service = rig.service()
    rng = random.Random(seed)
    for step in range(moves):
        game = (await service.load(table_id)).state.game_state
        assert game is not None and game.phase == "play"
        seat, command, _ = random_step(game, rng)
        assert (await service.handle(table_id, seat, command, f"m{seed}-{step}")).accepted


def _model(rig: Rig, store: object, name: str, **kw: object) -> TablesInPlay:
    accept: Callable[[str], bool] = rig.tables.__contains__
    return TablesInPlay(store, accept=accept, saved_as=name, **kw)  # type: ignore[arg-type]


def _as_json(model: TablesInPlay) -> list[bytes]:
    tracked: list[Tracked] = sorted(model, key=lambda t: t.table_id)
    return [msgspec.json.encode(t) for t in tracked]


async def test_a_new_reader_starts_from_the_saved_checkpoint_and_knows_the_same(
    rig: Rig,
) -> None:
    store = rig.adapters.store
    name = f"{snapshot_name(None)}:test-{random.randrange(1 << 30)}"
    service = rig.service()
    first, second = await rig.table(service), await rig.table(service)
    await _play(rig, first, 7, seed=1)
    assert (await service.handle(second, 0, Disconnect(seat=3), "away")).accepted

    before = _model(rig, store, name, save_every=0.0)
    await before.catch_up()  # saves: the log moved and no time must pass between saves
    assert {t.table_id for t in before} == {first, second}

    await _play(rig, first, 5, seed=2)  # the log goes on after the checkpoint
    counting = _Counting(store)
    after = _model(rig, counting, name)
    await after.catch_up()
    assert after.restored_from is not None
    assert counting.first_after is not None and counting.first_after > Checkpoint()

    whole = _Counting(store)
    fresh = TablesInPlay(whole, accept=rig.tables.__contains__)
    await fresh.catch_up()
    assert 0 < counting.rows < whole.rows  # only what came after the checkpoint
    assert _as_json(after) == _as_json(fresh)  # deadlines, waits and away seats alike
    tracked = after.get(second)
    assert tracked is not None and 3 in tracked.away


async def test_a_checkpoint_of_another_engine_or_unreadable_is_not_used(rig: Rig) -> None:
    store = rig.adapters.store
    name = f"{snapshot_name((0, 1))}:test-{random.randrange(1 << 30)}"
    table_id = await rig.table(rig.service())
    await _play(rig, table_id, 3, seed=3)
    old = _model(rig, store, name, save_every=0.0, engine_version="engine-older")
    await old.catch_up()

    counting = _Counting(store)
    new = _model(rig, counting, name)
    await new.catch_up()
    assert new.restored_from is None and counting.first_after == Checkpoint()

    broken = Snapshot(stream_id=name, version=1 << 20, engine_version="engine-x", state=b"{")
    await store.save_snapshot(broken)
    counting = _Counting(store)
    reader = _model(rig, counting, name, engine_version="engine-x")
    await reader.catch_up()
    assert reader.restored_from is None and counting.first_after == Checkpoint()
    assert [t.table_id for t in reader] == [table_id]
