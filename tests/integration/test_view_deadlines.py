"""The deadlines a view tells, over real PostgreSQL and NATS: every running wait of the
table (`deadlines`, as the clock will fire them: `Game.running`), and in `deadline` the
countdown that concerns the seat. At a Bunco evening each play table's roller is timed on
his own (PF-TIMER-7/8, BU-AMB-13), so the low table's roller counts down from his own
wait, not the head table's; a game with one timer (Banakil) shows what it always did."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from typing import Any

import msgspec
import pytest

from engine import protocol
from engine.bunco.messages import Roll
from engine.bunco.options import BuncoOptions
from services.gateway.hub import Frame, table_view
from services.gateway.messages import welcome_message
from services.projections.deadlines import REPLACE
from services.tables.codec import ENGINE_VERSION, encode_json
from services.tables.seeds import SeedTiming
from services.tables.service import Loaded, TableService
from tests.integration.test_bunco_clock import evening_of_eight
from tests.service_support import Adapters, Rig, batch_time, real

__all__ = ["real"]

_NO_TIMERS = SeedTiming(seed_window=0.0, cut_seconds=3600.0, reveal_seconds=0.0)  # as Rig's


@pytest.fixture
async def rig(real: Adapters) -> AsyncIterator[Rig]:
    made = Rig(real)
    yield made
    await made.close()


def _at(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _pushed(loaded: Loaded, seat: int | None) -> dict[str, Any]:
    """The view message a socket of `seat` is pushed (the hub's frame), decoded."""
    message: dict[str, Any] = msgspec.json.decode(Frame(loaded).message(seat))
    return message


def _waits(message: dict[str, Any]) -> set[tuple[int, str, datetime | None]]:
    return {(w["seat"], w["stage"], _at(w["deadline"])) for w in message["deadlines"]}


async def test_a_low_table_roller_counts_down_from_his_own_wait_pf_timer_8(rig: Rig) -> None:
    """PF-TIMER-7/8, BU-AMB-13: an evening of 8 has two play tables. The head table rolls,
    so its next wait runs from that roll; the low table's roller still has until 10 s after
    the round began, and that is the deadline his view shows. Every view lists both waits
    as the clock will fire them, and a gateway that loads the table afresh says the same."""
    store = rig.adapters.store
    service, table_id, began = await evening_of_eight(rig)
    clock = rig.clock()
    await clock.tables.catch_up()
    first = {d.command_id: d for d in clock.pending()}
    head_roller, low_roller = first["timeout:1:1:1"].seat, first["timeout:1:2:1"].seat

    assert (await service.handle(table_id, head_roller, Roll(), "head-roll-1")).accepted
    head_rolled = await batch_time(store, table_id, "DiceRolled")
    await clock.tables.catch_up()
    fired = {(d.seat, d.kind, d.at) for d in clock.pending() if d.kind != REPLACE}
    head_next = next(d for d in clock.pending() if d.command_id.startswith("timeout:1:1:"))
    low_ends = began + timedelta(seconds=10)
    assert head_next.at == head_rolled + timedelta(seconds=10) > low_ends
    assert fired == {(head_next.seat, "roll", head_next.at), (low_roller, "roll", low_ends)}

    for loaded in (await service.load(table_id), await rig.service().load(table_id)):
        low = _pushed(loaded, low_roller)
        assert _at(low["deadline"]) == low_ends  # his own wait's, not the head table's
        assert _waits(low) == fired and len(low["deadlines"]) == 2
        running = protocol.get("bunco").running(loaded.state.game_state)  # head table first
        assert [w["seat"] for w in low["deadlines"]] == [t.seat for t in running]
        head = _pushed(loaded, head_next.seat)
        assert _at(head["deadline"]) == head_next.at
        spectator = _pushed(loaded, None)  # the first wait, as before: the head table's
        assert _at(spectator["deadline"]) == head_next.at and _waits(spectator) == fired
        waiting = {head_next.seat, low_roller}
        idle = next(s for s in range(1, 9) if s not in waiting)
        assert _pushed(loaded, idle)["deadline"] == spectator["deadline"]
        # The welcome and the HTTP table view say the same as the pushed views.
        welcome = msgspec.json.decode(welcome_message(loaded, low_roller, None))
        assert welcome["deadline"] == low["deadline"]
        assert welcome["deadlines"] == low["deadlines"]
        public = msgspec.json.decode(encode_json(table_view(loaded, None)))
        assert public["deadline"] == spectator["deadline"]
        assert public["deadlines"] == spectator["deadlines"]


async def test_a_banakil_view_keeps_its_one_deadline_and_lists_it_pf_timer_1(rig: Rig) -> None:
    """PF-TIMER-1: a game with one timer shows the turn's deadline to every seat and to
    spectators, as it always did, and `deadlines` holds that one wait."""
    service = rig.service()
    table_id = await rig.table(service)
    dealt = await batch_time(rig.adapters.store, table_id, "CardsDealt")
    loaded = await service.load(table_id)
    assert loaded.deadline == dealt + timedelta(seconds=20)
    game = loaded.state.game_state
    assert game is not None
    turn = {"seat": game.turn, "stage": "turn", "deadline": dealt + timedelta(seconds=20)}
    for seat in (None, 1, 2, 3, 4):
        message = _pushed(loaded, seat)
        assert _at(message["deadline"]) == loaded.deadline
        assert [{**w, "deadline": _at(w["deadline"])} for w in message["deadlines"]] == [turn]


async def test_waits_read_from_a_snapshot_count_from_its_batch_at_the_latest_pf_timer_8(
    rig: Rig,
) -> None:
    """PF-TIMER-8: a gateway that reads the evening from a snapshot has not folded the
    batches that began its waits, so each counts from the snapshot's own batch, the latest
    it can have begun: a view then never shows a deadline before the clock's."""
    store = rig.adapters.store
    service = TableService(store, rig.adapters.bus, snapshot_every=1, timing=_NO_TIMERS)
    rig.services.append(service)
    created = await service.create_table(BuncoOptions(players=8), ("human",) * 8)
    table_id = created.state.table_id
    rig.tables.add(table_id)
    for seat in range(1, 9):
        assert (await service.take_seat(table_id, seat, f"P{seat}")).accepted
    assert (await service.start(table_id, created.state.host)).accepted
    head_roller = (await service.load(table_id)).waits[0].seat
    assert (await service.handle(table_id, head_roller, Roll(), "head-roll-1")).accepted
    rolled = await batch_time(store, table_id, "DiceRolled")
    warm = await service.load(table_id)
    assert (await store.load_snapshot(table_id, ENGINE_VERSION)) is not None

    cold = await rig.service().load(table_id)  # from the snapshot of the roll's version
    assert cold.version == warm.version
    assert [w.seat for w in cold.waits] == [w.seat for w in warm.waits]
    assert {w.deadline for w in cold.waits} == {rolled + timedelta(seconds=10)}
    assert all(c.deadline >= w.deadline for c, w in zip(cold.waits, warm.waits, strict=True))
    assert cold.deadline == cold.waits[0].deadline
