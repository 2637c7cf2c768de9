"""The clock over real PostgreSQL and NATS, with a fake time source: a turn's timeout fires
once when it is due and not before, a stale one changes nothing, a restarted clock fires
what the log says is pending, and two clocks at once make one effect (PF-TIMER-1..6)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import msgspec
import pytest

from engine.banakil.messages import CardDiscarded, Timeout
from engine.table import AnyCommand
from services.clock.clock import Clock
from services.projections.in_play import TablesInPlay
from services.store.port import EventStore
from services.tables.codec import decode_event
from services.tables.service import Outcome, Rejection
from tests.service_support import Adapters, Rig, batch_time, real, types_after

__all__ = ["real"]


@pytest.fixture
async def rig(real: Adapters) -> AsyncIterator[Rig]:
    made = Rig(real)
    yield made
    await made.close()


async def _version(store: EventStore, table_id: str) -> int:
    return await store.stream_version(table_id)


@pytest.mark.parametrize(("preset", "seconds"), [("sahrat", 20), ("classic", 40)])
async def test_a_turn_times_out_once_when_due_and_not_before_pf_timer_1_3_5(
    rig: Rig, preset: str, seconds: int
) -> None:
    store = rig.adapters.store
    service = rig.service()
    table_id = await rig.table(service, preset)
    clock = rig.clock()
    dealt = await batch_time(store, table_id, "CardsDealt")
    before = await _version(store, table_id)

    rig.time.at(dealt, seconds - 0.001)
    assert await clock.tick() == []
    assert await _version(store, table_id) == before

    rig.time.at(dealt, seconds)
    fired = await clock.tick()
    assert [(f.deadline.command_id, f.accepted) for f in fired] == [("timeout:1:1:draw", True)]
    # PF-TIMER-5: the starter's first turn has no draw, so only the discard window opens.
    assert await types_after(store, table_id, before) == ["TurnTimedOut"]

    window = await batch_time(store, table_id, "TurnTimedOut")
    middle = await _version(store, table_id)
    rig.time.at(window, 4.999)
    assert await clock.tick() == []
    rig.time.at(window, 5)  # PF-TIMER-3: 5 more seconds, then the automatic discard
    fired = await clock.tick()
    assert [f.deadline.command_id for f in fired] == ["timeout:1:1:discard"]
    rows = await store.read_stream(table_id, middle)
    discarded = decode_event(rows[0])
    assert isinstance(discarded, CardDiscarded) and discarded.automatic  # PF-AUTO
    for _ in range(3):
        assert await clock.tick() == []  # the next turn began just now: 20 s to go

    # The second turn draws first (PF-TIMER-3): a stock card, then the window.
    turn_two = await batch_time(store, table_id, "CardDiscarded")
    before = await _version(store, table_id)
    rig.time.at(turn_two, seconds)
    fired = await clock.tick()
    assert [f.deadline.command_id for f in fired] == ["timeout:1:2:draw"]
    assert await types_after(store, table_id, before) == ["CardDrawn", "TurnTimedOut"]


async def test_a_deadline_is_sent_once_while_the_table_stays_where_it_was(rig: Rig) -> None:
    """Whatever became of it (here: refused), the clock does not send it again until the
    table moves on; a failure to reach the store is retried."""
    store = rig.adapters.store
    table_id = await rig.table(rig.service())
    sent: list[str] = []
    fail = [True]

    async def fire(table: str, command: object, command_id: str) -> Outcome:
        sent.append(command_id)
        if fail[0]:
            fail[0] = False
            raise ConnectionError("the store is away")
        refused = Rejection(code="stale_timeout", rule_id="PF-TIMER-3", message="late")
        return Outcome(command_id=command_id, accepted=False, version=0, rejection=refused)

    clock = Clock(TablesInPlay(store, accept={table_id}.__contains__), fire, rig.time)
    rig.time.at(await batch_time(store, table_id, "CardsDealt"), 60)
    assert await clock.tick() == []  # the store was away: nothing came of it
    for _ in range(3):
        await clock.tick()
    assert sent == ["timeout:1:1:draw", "timeout:1:1:draw"]


async def test_a_stale_or_repeated_timeout_changes_nothing(rig: Rig) -> None:
    store = rig.adapters.store
    service = rig.service()
    table_id = await rig.table(service)
    game = (await service.load(table_id)).state.game_state
    assert game is not None
    starter = game.turn
    hand = game.hands[starter - 1]
    # The starter plays his turn in time: the turn's timeout is stale from now on.
    assert (await service.handle(table_id, starter, _discard(hand), "play")).accepted
    end = await _version(store, table_id)
    late = await service.handle(table_id, 0, Timeout(deal=1, turn=1), "timeout:1:1:draw")
    assert not late.accepted and late.rejection is not None
    assert late.rejection.code == "stale_timeout"
    assert await _version(store, table_id) == end

    # A timeout already taken is answered with its first outcome and appends nothing.
    dealt = await batch_time(store, table_id, "CardDiscarded")
    rig.time.at(dealt, 20)
    clock = rig.clock()
    assert [f.accepted for f in await clock.tick()] == [True]
    end = await _version(store, table_id)
    again = await rig.service().handle(table_id, 0, Timeout(deal=1, turn=2), "timeout:1:2:draw")
    assert again.accepted and again.duplicate
    assert await _version(store, table_id) == end


async def test_a_restarted_clock_fires_the_deadlines_the_log_holds(rig: Rig) -> None:
    store = rig.adapters.store
    table_id = await rig.table(rig.service())
    dealt = await batch_time(store, table_id, "CardsDealt")
    first = rig.clock()
    rig.time.at(dealt, 10)
    assert await first.tick() == []
    [pending] = [d for d in first.pending() if d.table_id == table_id]
    assert pending.at == rig.time.at(dealt, 20) and pending.command_id == "timeout:1:1:draw"
    del first  # the process dies with its deadline pending

    before = await _version(store, table_id)
    rig.time.at(dealt, 25)  # it stayed down past the deadline
    restarted = rig.clock()  # a new process: nothing but the log
    fired = await restarted.tick()
    assert [(f.deadline.command_id, f.accepted) for f in fired] == [("timeout:1:1:draw", True)]
    assert await types_after(store, table_id, before) == ["TurnTimedOut"]


async def test_two_clocks_at_once_make_one_effect(rig: Rig) -> None:
    store = rig.adapters.store
    table_id = await rig.table(rig.service())
    dealt = await batch_time(store, table_id, "CardsDealt")
    # Each with its own table service: two processes. The worst case is made certain: both
    # have read the log and chosen to fire the same deadline before either one's append.
    both = _Gate(2)
    one, other = _held_clock(rig, both), _held_clock(rig, both)
    await asyncio.gather(one.tick(), other.tick())
    before = await _version(store, table_id)
    rig.time.at(dealt, 20)
    fired = [f for batch in await asyncio.gather(one.tick(), other.tick()) for f in batch]
    assert sorted(f.deadline.command_id for f in fired) == ["timeout:1:1:draw"] * 2
    assert sum(f.accepted and not f.duplicate for f in fired) == 1
    assert await types_after(store, table_id, before) == ["TurnTimedOut"]
    both.hold = False  # from here on each fires as it finds the log
    rig.time.at(await batch_time(store, table_id, "TurnTimedOut"), 5)
    await asyncio.gather(one.tick(), other.tick())
    await asyncio.gather(one.tick(), other.tick())
    types = await types_after(store, table_id, before)
    assert types.count("TurnTimedOut") == 1 and types.count("CardDiscarded") == 1


def _discard(hand: tuple[str, ...]) -> msgspec.Struct:
    from engine.banakil.messages import Discard

    return Discard(card=hand[0])


class _Gate(asyncio.Barrier):
    hold = True


def _held_clock(rig: Rig, gate: _Gate) -> Clock:
    """A clock whose sends wait at `gate` for the other clock's while `gate.hold`."""
    writer = rig.service()

    async def fire(table_id: str, command: AnyCommand, command_id: str) -> Outcome:
        if gate.hold:
            async with asyncio.timeout(10):
                await gate.wait()
        return await writer.handle(table_id, 0, command, command_id)

    tables = TablesInPlay(rig.adapters.store, accept=rig.tables.__contains__)
    return Clock(tables, fire, rig.time)
