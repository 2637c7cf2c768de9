"""The lobby lists every readable table; a row it cannot read leaves out only its table."""

from __future__ import annotations

from engine.banakil.options import options_from
from engine.table import SeatTaken, TableCreated
from services.projections.lobby import Lobby
from services.store.memory import MemoryEventStore
from services.store.port import Metadata, NewEvent
from services.tables.codec import encode_event


async def _create(store: MemoryEventStore, table_id: str, host: str) -> None:
    created = TableCreated(
        table_id=table_id,
        game="banakil",
        options=options_from("sahrat"),
        seats=("human",) * 4,
    )
    events = [encode_event(created), encode_event(SeatTaken(seat=1, player=host))]
    await store.append(table_id, 0, events, Metadata(command_id=f"create:{table_id}"))


async def test_a_row_the_lobby_cannot_read_leaves_out_its_table_only() -> None:
    store = MemoryEventStore()
    await _create(store, "good-1", "Salma")
    poisoned = [NewEvent(type="TableCreated", data=b'{"type": "TableCreated", "garbled": ')]
    await store.append("bad", 0, poisoned, Metadata(command_id="poison"))
    await _create(store, "good-2", "Omar")  # after the bad row, on the same page
    lobby = Lobby(store)
    listed = {t.table_id: t for t in await lobby.tables()}
    assert set(listed) == {"good-1", "good-2"}
    assert listed["good-2"].seats[0].player == "Omar"
    await _create(store, "good-3", "Huda")  # and the lobby keeps catching up
    assert {t.table_id for t in await lobby.tables()} == {"good-1", "good-2", "good-3"}
