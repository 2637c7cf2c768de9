"""Disconnection, the 60 s grace, bots and returning players, through the service path
with the clock on a fake time source (PF-CONN-1..5, PF-BOT-1..3, PF-BOT-5, PF-EX-5).

A bot that takes a seat completes the match (seed 000); its player, back meanwhile,
watches, and takes the seat back as the next match of the series starts (PF-BOT-5)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest

from engine.banakil.messages import (
    CardDiscarded,
    CardDrawn,
    Discard,
    GroundTaken,
    MatchEnded,
    MeldLaid,
    MeldUpdated,
)
from engine.table import (
    Disconnect,
    Reconnect,
    SeatReplacedByBot,
    SeatReturned,
    TableState,
)
from services.store.port import EventStore
from services.tables.codec import decode_event
from services.tables.service import TableService
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


async def test_after_60_s_a_bot_completes_the_match_and_the_player_returns_at_the_next(
    rig: Rig,
) -> None:
    """PF-CONN-3, PF-BOT-2, PF-BOT-5: the bot keeps the hand and plays the seat to the end
    of the match, also after its player is back; he watches (his commands are refused),
    and the system gives him the seat as match 2 of the series starts, before its first
    commitment."""
    store = rig.adapters.store
    service = rig.service()
    seat = 1
    table_id = await rig.table(  # a series whose matches end after a deal or two
        service, seats=("human", "bot", "bot", "bot"), series=True, target_score=1
    )
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
    game, was = states[replaced].game_state, states[replaced - 1].game_state
    assert game is not None and was is not None
    assert game.hands[seat - 1] == was.hands[seat - 1]  # PF-BOT-2: the same hand
    rows = await store.read_stream(table_id, replaced - 1)
    assert decode_event(rows[0]) == SeatReplacedByBot(seat=seat, reason="timeout")
    hand = game.hands[seat - 1]

    # He is back at once: he watches; his own commands are refused while the bot plays.
    assert (await service.handle(table_id, 0, Reconnect(seat=seat), "back")).accepted
    back = await service.load(table_id)
    assert back.state.seats[seat - 1].presence == "returning"
    assert back.state.game_state is not None
    mine = await service.handle(
        table_id, seat, Discard(card=hand[0]), "mine", player=True
    )  # whatever the turn: the seat is the bot's
    assert mine.rejection is not None
    assert (mine.rejection.code, mine.rejection.rule_id) == ("bot_plays_seat", "PF-BOT-5")

    bots = rig.bots()
    for _ in range(200):
        await bots.tick()
        await bots.idle()
        loaded = await service.load(table_id)
        if loaded.state.seats[seat - 1].presence == "here":
            break
    states = await states_by_version(store, table_id)
    returned = _version_of(states, lambda s: s.seats[seat - 1].presence == "here", back.version)
    rows = await store.read_stream(table_id, returned - 1)
    assert decode_event(rows[0]) == SeatReturned(seat=seat)
    assert rows[1].type == "SeedCommitted"  # before match 2's first deal is committed
    before = states[returned - 1].game_state
    assert before is not None and (before.match, before.deals_in_match) == (2, 0)
    # The whole of match 1 after his return was the bot's: every move of his seat.
    assert await _played_by(store, table_id, seat, after=back.version)
    match_one = [decode_event(r) for r in await store.read_stream(table_id, back.version)][
        : returned - back.version - 1
    ]
    assert any(isinstance(e, MatchEnded) and e.match == 1 for e in match_one)
    assert not any(isinstance(e, SeatReturned) for e in match_one)


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
