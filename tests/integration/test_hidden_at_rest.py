"""Hidden cards rest sealed: a deal dealt through the table service into real PostgreSQL
leaves no hand, no stock order and no drawn card in plain form in the events table or in
any snapshot (PF-FAIR-3: nothing private comes out before the deal's reveal); the table
still plays and folds back from the store; a process with another seed key refuses to
read it, and never deals from it (docs/fairness.md, "Who can learn what")."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import msgspec
import pytest
from msgspec.structs import replace

from engine.banakil.messages import CardDrawn, CardsDealt, Discard, Draw
from engine.banakil.redact import redact
from engine.table import TABLE_EVENTS, TableState
from services.projections.in_play import TablesInPlay
from services.store.port import EventStore
from services.tables import sealing
from services.tables.codec import decode_event, decode_event_sealed
from services.tables.seeds import SeedTiming
from services.tables.service import TableService
from tests.service_support import Adapters, Rig, real

__all__ = ["real"]  # fixtures

_TIMING = SeedTiming(seed_window=0.0, cut_seconds=3600.0, reveal_seconds=0.0)
_CARD = re.compile(r'"((?:[2-9]|10|[JQKA])[SHDC]#[12]|JK#[1-4])"')


@pytest.fixture
async def service(real: Adapters) -> AsyncIterator[TableService]:
    made = TableService(real.store, real.bus, timing=_TIMING, snapshot_every=2)
    yield made
    await made.deadlines.close()
    await made.close()


async def _raw(conn: asyncpg.Connection[Any], *streams: str) -> str:
    """Every byte the database holds for these streams: event rows and snapshots."""
    rows = await conn.fetch(
        "SELECT type, data::text FROM events WHERE stream_id = ANY($1::text[])", list(streams)
    )
    snaps = await conn.fetch(
        "SELECT state FROM snapshots WHERE stream_id = ANY($1::text[])", list(streams)
    )
    return json.dumps([list(r) for r in rows]) + "".join(bytes(s[0]).decode() for s in snaps)


async def _public_cards(store: EventStore, table_id: str) -> set[str]:
    """Every card a spectator may know from the log (a cut card, a discard …)."""
    public = []
    for row in await store.read_stream(table_id):
        event = decode_event(row)
        if not isinstance(event, TABLE_EVENTS):
            public.append(redact(event, None))
    return set(_CARD.findall(msgspec.json.encode(public).decode()))


def _sealed_secret(state: TableState) -> str:
    assert state.game_state is not None
    return state.game_state.secret if sealing.is_sealed(state.game_state.secret) else ""


def _without_secret(state: TableState) -> TableState:
    assert state.game_state is not None
    return replace(state, game_state=replace(state.game_state, secret=""))


async def _discard(service: TableService, table_id: str, command_id: str) -> None:
    game = (await service.load(table_id)).state.game_state
    assert game is not None
    card = game.hands[game.turn - 1][0]
    assert (await service.handle(table_id, game.turn, Discard(card=card), command_id)).accepted


async def test_no_hand_stock_or_drawn_card_rests_in_clear_pf_fair_3(
    real: Adapters, service: TableService, database_url: str
) -> None:
    rig = Rig(real)
    table_id = await rig.table(service)
    rows = await real.store.read_stream(table_id)
    dealt = next(decode_event(r) for r in rows if r.type == "CardsDealt")
    assert isinstance(dealt, CardsDealt)
    private = {c for hand in dealt.hands for c in hand} | set(dealt.stock)
    private -= await _public_cards(real.store, table_id)
    assert len(private) > 90  # every hand and the stock, less a cut card or an open card
    # The projection of the clock and the bots saves its tables in play, hands included.
    projection = f"projection:test-{secrets.token_hex(4)}"
    tables = TablesInPlay(real.store, accept={table_id}.__contains__, saved_as=projection)
    await tables.catch_up()
    await tables.save()

    conn = await asyncpg.connect(database_url)
    try:
        at_rest = await _raw(conn, table_id, projection)
        assert await conn.fetchval("SELECT count(*) FROM snapshots WHERE stream_id = $1", table_id)
        assert await conn.fetchval(
            "SELECT count(*) FROM snapshots WHERE stream_id = $1", projection
        )
        leaked = sorted(c for c in private if f'"{c}"' in at_rest)
        assert not leaked, f"in clear at rest: {leaked}"
        # A reader without the key still sees the public part of the deal.
        stored = await conn.fetchval(
            "SELECT data::text FROM events WHERE stream_id = $1 AND type = 'CardsDealt'", table_id
        )
        public = decode_event_sealed(stored.encode())
        assert public == redact(dealt, None)

        # A drawn card is private to its drawer (PF-FAIR-3): the starter discards without
        # drawing (BK-DEAL-5), and the next seat draws.
        await _discard(service, table_id, "discard-1")
        turn = (await service.load(table_id)).state.game_state.turn  # type: ignore[union-attr]
        assert (await service.handle(table_id, turn, Draw(), "draw-1")).accepted
        row = (await real.store.read_stream(table_id))[-1]
        drawn = decode_event(row)
        assert isinstance(drawn, CardDrawn) and drawn.seat == turn
        at_rest = await _raw(conn, table_id)
        assert f'"{drawn.card}"' not in at_rest
    finally:
        await conn.close()

    # The same table plays on, and folds back from the store alone (snapshot + tail).
    await _discard(service, table_id, "discard-2")
    played = await service.load(table_id)
    fresh = TableService(real.store, real.bus, timing=_TIMING)
    try:
        again = await fresh.load(table_id)
    finally:
        await fresh.close()
    assert again.version == played.version
    assert msgspec.json.encode(again.state) == msgspec.json.encode(played.state)
    restored = TablesInPlay(real.store, accept={table_id}.__contains__, saved_as=projection)
    await restored.catch_up()
    tracked = restored.get(table_id)
    assert restored.restored_from is not None and tracked is not None
    # Hands and stock opened; the secret left sealed, as this model never deals.
    assert _sealed_secret(tracked.state) != _sealed_secret(played.state) == ""
    assert msgspec.json.encode(_without_secret(tracked.state)) == msgspec.json.encode(
        _without_secret(played.state)
    )


async def test_another_seed_key_is_refused_and_never_dealt_from(
    real: Adapters, service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    rig = Rig(real)
    table_id = await rig.table(service)
    version = await real.store.stream_version(table_id)
    turn = (await service.load(table_id)).state.game_state.turn  # type: ignore[union-attr]
    # This process now holds another key (restored after the test).
    monkeypatch.setitem(sealing._installed, "key", sealing.Sealer(secrets.token_bytes(32)))
    other = TableService(real.store, real.bus, timing=_TIMING)
    try:
        with pytest.raises(sealing.SealError, match="sealed with the seed key of fingerprint"):
            await other.load(table_id)
        with pytest.raises(sealing.SealError, match="SAHRA_SEED_KEY must be the key"):
            await other.handle(table_id, turn, Draw(), "draw-other-key")
        tables = TablesInPlay(real.store, accept={table_id}.__contains__)
        with pytest.raises(sealing.SealError, match="sealed with the seed key"):
            await tables.catch_up()
    finally:
        await other.deadlines.close()
        await other.close()
    assert await real.store.stream_version(table_id) == version
