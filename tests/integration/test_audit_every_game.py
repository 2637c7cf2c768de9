"""`sahra verify --all` audits every hosted game's finished units, over real PostgreSQL:
a store holding Banakil deals and a round of the test-only high-card game (registered
here) is audited whole, each table by its own game (`Unit.ending` finds the units,
`RecordSection.units` splits the verdict), and a card changed in the stored round is
reported as that round's failure while the Banakil deals still verify (PF-FAIR-5)."""

from __future__ import annotations

import asyncio
import io
from contextlib import redirect_stdout

import asyncpg
import pytest
from msgspec.structs import replace

from engine import protocol
from services.bench.verify import store_deals
from services.bus.nats import NatsBus
from services.cli import verify as verify_cli
from services.store.postgres import PostgresEventStore
from services.tables.codec import decode_event, encode_event
from services.tables.seeds import SeedTiming
from services.tables.service import TableService
from services.verifier.audit import audit
from tests.games import high_card
from tests.service_support import scratch_database


@pytest.fixture(scope="module", autouse=True)
def _hosted() -> None:
    protocol.register(high_card.GAME)


async def _high_card_round(service: TableService) -> str:
    """A two-seat round played to its end through the table service; its table id."""
    game = protocol.get("high_card")
    created = await service.create_table(high_card.HighCardOptions(seats=2), ("human", "human"))
    table_id = created.state.table_id
    await service.take_seat(table_id, 1, "Salma")
    await service.take_seat(table_id, 2, "Omar")
    await service.start(table_id, 1)
    for step in range(10):
        state = (await service.load(table_id)).state
        if state.status == "finished":
            return table_id
        assert state.game_state is not None
        if game.unit.needs_secret(state.game_state):
            await service.follow_up(table_id)
            continue
        (seat,) = game.awaiting(state.game_state)
        outcome = await service.handle(table_id, seat, high_card.Draw(), f"draw:{step}")
        assert outcome.accepted, outcome
    raise AssertionError("the round did not end")


async def _count(url: str, kind: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        found: int = await conn.fetchval("SELECT count(*) FROM events WHERE type = $1", kind)
        return found
    finally:
        await conn.close()


def _verify_all(url: str) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out):
        code = verify_cli.main(["--all", "--database-url", url])
    return code, out.getvalue()


async def _change_a_drawn_card(url: str, table_id: str) -> None:
    """Put another card in the first stored draw, sealed again for the table (a tamperer
    holding the seed key)."""
    conn = await asyncpg.connect(url)
    try:
        row = await conn.fetchrow(
            "SELECT version, data::text FROM events WHERE stream_id = $1 AND type = 'CardDrawn' "
            "ORDER BY version LIMIT 1",
            table_id,
        )
        assert row is not None
        version, data = row
        drawn = decode_event(data.encode(), table_id, game="high_card")
        assert isinstance(drawn, high_card.CardDrawn)
        other = replace(drawn, card="KS" if drawn.card != "KS" else "QS")
        await conn.execute(
            "UPDATE events SET data = $3::jsonb WHERE stream_id = $1 AND version = $2",
            table_id,
            version,
            encode_event(other, table_id).data.decode(),
        )
    finally:
        await conn.close()


async def test_verify_all_audits_a_high_card_round_beside_banakil_deals_and_finds_a_changed_card(
    database_url: str, bus: NatsBus
) -> None:
    # A database of its own (dropped after): the audit counts every finished deal in it.
    async with scratch_database(database_url, "sahra_audit") as url:
        store = await PostgresEventStore.connect(url)
        service = TableService(store, bus, timing=SeedTiming(seed_window=0, reveal_seconds=0))
        try:
            reported = await store_deals(store, 2, seed=11)
            round_table = await _high_card_round(service)
            stored = await _count(url, "DealScored")
            assert stored == reported >= 2 and await _count(url, "RoundWon") == 1
            summary = await audit(store)
            assert (summary.deals, summary.verified, summary.passed) == (
                stored + 1,
                stored + 1,
                True,
            )
            assert summary.tables >= 2
        finally:
            await service.deadlines.close()
            await store.close()

        code, out = await asyncio.to_thread(_verify_all, url)
        assert code == 0, out
        assert f"audited {stored + 1} finished deals at {summary.tables} tables" in out

        await _change_a_drawn_card(url, round_table)
        code, out = await asyncio.to_thread(_verify_all, url)
        assert code == 1, out
        assert f"{stored} verified, 1 NOT verified" in out
        assert f"  {round_table}-1: FAILED: events: event " in out
        assert "differs from the re-derived one" in out
