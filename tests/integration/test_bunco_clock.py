"""The clock at a Bunco evening over real PostgreSQL and NATS, with a fake time source:
every play table's roller is timed on his own (PF-TIMER-7/8, BU-AMB-13): a roll at one
table never restarts another table's wait, and when a wait runs out the system rolls for
that table's roller under the wait's own id (the seam's `Game.timers`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime, timedelta

import pytest

from engine import protocol
from engine.bunco.messages import DiceRolled, Roll
from engine.bunco.options import BuncoOptions
from services.tables.codec import decode_event
from services.tables.service import TableService
from tests.service_support import Adapters, Rig, batch_time, real

__all__ = ["real"]


@pytest.fixture
async def rig(real: Adapters) -> AsyncIterator[Rig]:
    made = Rig(real)
    yield made
    await made.close()


async def evening_of_eight(rig: Rig) -> tuple[TableService, str, datetime]:
    """An evening of 8 seated and started (two play tables, PF-ROOM-5): the service, the
    table and the server time of the batch that started round 1."""
    service = rig.service()
    created = await service.create_table(BuncoOptions(players=8), ("human",) * 8)
    table_id = created.state.table_id
    rig.tables.add(table_id)
    for seat in range(1, 9):
        assert (await service.take_seat(table_id, seat, f"P{seat}")).accepted
    assert (await service.start(table_id, created.state.host)).accepted
    return service, table_id, await batch_time(rig.adapters.store, table_id, "RoundStarted")


async def test_each_play_table_s_roller_runs_on_his_own_clock_pf_timer_8(rig: Rig) -> None:
    """PF-TIMER-7/8, BU-AMB-13: an evening of 8 has two play tables, each waiting for its
    seat 1 (BU-ROLL-2) with 10 s to roll. The head table rolls; the low table's wait still
    runs from the start of the round, and when it is over the clock rolls for the low
    table's roller alone."""
    store = rig.adapters.store
    service, table_id, began = await evening_of_eight(rig)
    clock = rig.clock()
    await clock.tables.catch_up()

    first = {d.command_id: d for d in clock.pending()}
    assert set(first) == {"timeout:1:1:1", "timeout:1:2:1"}  # one a play table
    assert {d.at for d in first.values()} == {began + timedelta(seconds=10)}

    head_roller = first["timeout:1:1:1"].seat
    rolled = await service.handle(table_id, head_roller, Roll(), "head-roll-1")
    assert rolled.accepted, rolled.rejection
    await clock.tables.catch_up()
    after = {d.command_id: d for d in clock.pending()}
    assert after["timeout:1:2:1"].at == began + timedelta(seconds=10)  # not restarted
    assert "timeout:1:1:1" not in after and "timeout:1:1:2" in after  # the head's next roll
    head_rolled = await batch_time(store, table_id, "DiceRolled")
    assert after["timeout:1:1:2"].at == head_rolled + timedelta(seconds=10)

    before = await store.stream_version(table_id)
    rig.time.at(began, 9.999)
    assert await clock.tick() == []
    rig.time.at(began, 10)
    fired = await clock.tick()
    # The head table's new wait began later (its roll), so only the low table's is due.
    assert [(f.deadline.command_id, f.accepted) for f in fired] == [("timeout:1:2:1", True)]
    rolls = [
        e
        for e in (decode_event(r, game="bunco") for r in await store.read_stream(table_id, before))
        if isinstance(e, DiceRolled)
    ]
    low_roller = first["timeout:1:2:1"].seat
    assert [(e.table, e.seat, e.auto) for e in rolls] == [(2, low_roller, True)]  # never skipped
    state = (await service.load(table_id)).state.game_state
    assert "timeout:1:1:2" in {t.command_id for t in protocol.get("bunco").running(state)}
