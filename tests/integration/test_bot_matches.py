"""Whole matches played by bots through the service path: the bots worker plays the seats,
the clock (fake time) replaces the player who dropped, and the stored log verifies deal by
deal (PF-BOT-4: bot moves are ordinary events; replaying never re-runs bot logic)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from engine.table import Disconnect, Leave
from engine.verify import verify_record
from services.verifier.records import deal_id, deal_record
from tests.service_support import Adapters, Rig, batch_time, real

__all__ = ["real"]

_ROUNDS = 500  # worker + clock rounds before a match counts as stuck


@pytest.fixture
async def rig(real: Adapters) -> AsyncIterator[Rig]:
    made = Rig(real)
    yield made
    await made.close()


@pytest.mark.parametrize(("preset", "target"), [("classic", 202), ("sahrat", 222)])
async def test_a_bot_match_plays_to_its_target_and_its_log_verifies(
    rig: Rig, preset: str, target: int
) -> None:
    store = rig.adapters.store
    service = rig.service()
    table_id = await rig.table(service, preset, ("human", "bot", "bot", "bot"), cut=False)
    if preset == "classic":
        # The host drops before his cut; 60 s later a bot has his seat and cuts.
        assert (await service.handle(table_id, 0, Disconnect(seat=1), "drop")).accepted
        rig.time.at(await batch_time(store, table_id, "SeatDisconnected"), 60)
    else:
        assert (await service.handle(table_id, 1, Leave(), "leave")).accepted  # PF-CONN-4
    clock, bots = rig.clock(), rig.bots()
    for _ in range(_ROUNDS):
        fired = await clock.tick()
        await bots.tick()
        await bots.idle()
        loaded = await service.load(table_id)
        if loaded.state.status == "finished":
            break
        if not fired and bots.moves == 0:
            rig.time.at(rig.time(), 30)
    state = loaded.state
    game = state.game_state
    assert state.status == "finished" and game is not None and game.match_winner is not None
    assert max(game.totals) >= 2 * target  # half-points
    assert state.seats[0].presence == "bot"
    # Every seat's command in the log but the host's start and leave was the bots worker's
    # (it also sends the system's steps it needs, such as a departed host's cut: seat 0).
    # Compared with the log, not with a count of moves a short random match may not reach
    # (it once failed as 90 moves for "more than 100").
    rows = await store.read_stream(table_id)
    by_seats = {r.metadata.command_id for r in rows if r.metadata.seat} - {"start", "leave"}
    assert bots.moves >= len(by_seats) >= game.deal

    deals = game.deal
    verdict = verify_record(await deal_record(store, deal_id(table_id, deals)))
    assert verdict.passed, "\n".join(verdict.sentences())
    assert len(verdict.deals) == deals
