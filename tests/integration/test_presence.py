"""Disconnection, the 60 s grace, bots and returning players, through the service path
with the clock on a fake time source (PF-CONN-1..5, PF-BOT-1..3, PF-EX-5).

The return at the next turn boundary follows the issue that asked for it; PF-BOT-5 says a
replaced player may not retake his seat during the match."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest

from engine.banakil.messages import CardDiscarded, CardDrawn, GroundTaken, MeldLaid, MeldUpdated
from engine.table import (
    Disconnect,
    Reconnect,
    SeatReplacedByBot,
    SeatReturned,
    TableState,
)
from services.gateway.codec import decode_event
from services.gateway.tables import TableService
from services.store.port import EventStore
from tests.e2e.gateway_support import states_by_version
from tests.service_support import Adapters, Rig, batch_time, real, types_after

__all__ = ["real"]


@pytest.fixture
async def rig(real: Adapters) -> AsyncIterator[Rig]:
    made = Rig(real)
    yield made
    await made.close()


async def _away_seat(service: TableService, table_id: str) -> tuple[int, tuple[str, ...]]:
    """A seat whose turn it is not, and its hand."""
    game = (await service.load(table_id)).state.game_state
    assert game is not None
    seat = (game.turn + 1) % 4 + 1  # two seats on: neither this turn nor the next
    return seat, game.hands[seat - 1]


async def test_a_player_back_within_60_s_resumes_his_seat_and_hand_pf_conn_2(rig: Rig) -> None:
    store = rig.adapters.store
    service = rig.service()
    table_id = await rig.table(service)
    seat, hand = await _away_seat(service, table_id)
    assert (await service.handle(table_id, 0, Disconnect(seat=seat), "d1")).accepted
    away = await batch_time(store, table_id, "SeatDisconnected")
    clock = rig.clock()
    before = await store.stream_version(table_id)
    rig.time.at(away, 45)  # PF-EX-5: back after 45 s
    await clock.tick()  # the turn in play times out meanwhile; the seat is not replaced
    assert "SeatReplacedByBot" not in await types_after(store, table_id, before)
    assert (await service.handle(table_id, 0, Reconnect(seat=seat), "r1")).accepted
    loaded = await service.load(table_id)
    assert loaded.state.seats[seat - 1].presence == "here"
    assert loaded.state.game_state is not None
    assert loaded.state.game_state.hands[seat - 1] == hand
    rig.time.at(away, 61)
    await clock.tick()
    assert "SeatReplacedByBot" not in await types_after(store, table_id, before)


async def test_after_60_s_a_bot_plays_the_seat_and_the_player_returns_at_a_boundary(
    rig: Rig,
) -> None:
    """PF-CONN-3, PF-BOT-2: the bot keeps the hand; the match goes on; the player who comes
    back takes the seat at the next turn boundary (the issue's rule)."""
    store = rig.adapters.store
    service = rig.service()
    table_id = await rig.table(service)
    seat, hand = await _away_seat(service, table_id)
    assert (await service.handle(table_id, 0, Disconnect(seat=seat), "d1")).accepted
    away = await batch_time(store, table_id, "SeatDisconnected")
    clock = rig.clock()
    rig.time.at(away, 59.999)
    await clock.tick()
    assert (await service.load(table_id)).state.seats[seat - 1].presence == "away"
    rig.time.at(away, 60)
    fired = await clock.tick()
    assert f"replace:{seat}:" in " ".join(f.deadline.command_id for f in fired)
    states = await states_by_version(store, table_id)
    replaced = _version_of(states, lambda s: s.seats[seat - 1].presence == "bot")
    game = states[replaced].game_state
    assert game is not None and game.hands[seat - 1] == hand  # PF-BOT-2: the same hand
    rows = await store.read_stream(table_id, replaced - 1)
    assert decode_event(rows[0]) == SeatReplacedByBot(seat=seat, reason="timeout")

    # The match goes on: the other seats' turns time out, the bot plays its own at once.
    bots = rig.bots()
    for _ in range(40):
        rig.time.at(rig.time(), 30)
        await clock.tick()
        await bots.tick()
        await bots.idle()
        if await _played_by(store, table_id, seat, after=replaced):
            break
    assert await _played_by(store, table_id, seat, after=replaced)

    # The player comes back: "returning" until a turn boundary, then his seat again.
    assert (await service.handle(table_id, 0, Reconnect(seat=seat), "back")).accepted
    for _ in range(40):
        loaded = await service.load(table_id)
        if loaded.state.seats[seat - 1].presence == "here":
            break
        rig.time.at(rig.time(), 30)
        await clock.tick()
        await bots.tick()
        await bots.idle()
    states = await states_by_version(store, table_id)
    returned = _version_of(states, lambda s: s.seats[seat - 1].presence == "here", replaced)
    rows = await store.read_stream(table_id, returned - 1)
    assert decode_event(rows[0]) == SeatReturned(seat=seat)
    before = states[returned - 1].game_state
    assert before is not None and not (before.phase == "play" and before.turn == seat)


async def test_at_a_coin_table_the_clock_plays_an_absent_seat_and_no_bot_sits_pf_bot_3(
    rig: Rig,
) -> None:
    store = rig.adapters.store
    service = rig.service()
    table_id = await rig.table(service, table_kind="coin")
    game = (await service.load(table_id)).state.game_state
    assert game is not None
    seat = game.turn  # the seat in turn drops
    assert (await service.handle(table_id, 0, Disconnect(seat=seat), "d1")).accepted
    clock = rig.clock()
    away = await batch_time(store, table_id, "SeatDisconnected")
    before = await store.stream_version(table_id)
    rig.time.at(away, 120)
    for _ in range(2):
        await clock.tick()
    types = await types_after(store, table_id, before)
    assert "SeatReplacedByBot" not in types
    assert types[:2] == ["TurnTimedOut", "CardDiscarded"]  # PF-CONN-1: the system acts
    assert (await service.load(table_id)).state.seats[seat - 1].presence == "away"
    assert (await service.handle(table_id, 0, Reconnect(seat=seat), "r1")).accepted


def _version_of(
    states: list[TableState], match: Callable[[TableState], bool], after: int = 0
) -> int:
    for version, state in enumerate(states):
        if version > after and match(state):
            return version
    raise AssertionError("never")


async def _played_by(store: EventStore, table_id: str, seat: int, after: int) -> bool:
    rows = await store.read_stream(table_id, after)
    for row in rows:
        event = decode_event(row)
        if (
            isinstance(event, CardDrawn | GroundTaken | MeldLaid | MeldUpdated | CardDiscarded)
            and event.seat == seat
            and row.metadata.seat == seat  # the bot's own move, not the clock's
        ):
            return True
    return False
