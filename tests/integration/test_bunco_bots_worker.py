"""The bots worker at a table that awaits several seats at once (Bunco, PF-BOT-4).

A bot's roll decided on one version can be refused on the next: another writer landed in
between (a player's roll at another play table, the bell, the same table's roll made by
another worker). The worker then decides again on the table as it is now instead of
settling: were it to settle, a bot that must still act would wait for a change nobody else
makes (every other seat waiting on it, the clock's 10 s away or not running).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from engine.bunco.messages import AssignSeats, DiceRolled, Roll
from services.bots.worker import BotsWorker
from services.bus.memory import MemoryBus
from services.projections.in_play import TablesInPlay
from services.store.memory import MemoryEventStore
from services.tables.codec import decode_event
from services.tables.games import game_named
from services.tables.service import Outcome, TableService


class _Racing(TableService):
    """A table service whose next command is preceded by another writer's (`before`)."""

    before: Callable[[], Awaitable[None]] | None = None

    async def handle(self, *args: Any, **kwargs: Any) -> Outcome:
        hook, self.before = self.before, None
        if hook is not None:
            await hook()
        return await super().handle(*args, **kwargs)


def _roller(state: Any) -> int:
    game = state.game_state
    table = game.tables[0]
    return int(table.seats[table.roller - 1])


async def test_a_bot_roll_refused_after_another_writer_landed_is_decided_again() -> None:
    """PF-BOT-4, BU-ROLL-3, BU-ROLL-4: the worker reads the table with bot seat 2 to roll;
    before its roll lands, another writer rolls seat 2 until the dice pass to seat 3 (a
    bot), so seat 2's roll is refused at a newer version; the worker decides again and
    seat 3 and seat 4 roll, until the human in seat 1 must."""
    store, bus = MemoryEventStore(), MemoryBus()
    other = TableService(store, bus)
    options = game_named("bunco").options_from(None, players=4, sets=1)
    created = await other.create_table(options, ("human", "bot", "bot", "bot"), host="Hala")
    table_id = created.state.table_id
    assert (await other.start(table_id, 1)).accepted
    await other.follow_up(table_id)  # round 1 committed and started (no seed window)
    seated = AssignSeats(tables=((2, 3, 4, 1),))  # BU-SET-7: bots in table seats 1..3
    assert (await other.handle(table_id, 1, seated, "seats")).accepted
    before = (await other.load(table_id)).version

    async def roll_seat_2_until_the_dice_pass() -> None:
        n = 0
        while _roller((await other.load(table_id)).state) == 2:
            n += 1
            assert (await other.handle(table_id, 2, Roll(), f"other:{n}")).accepted

    worker_service = _Racing(store, bus)
    worker_service.before = roll_seat_2_until_the_dice_pass
    worker = BotsWorker(TablesInPlay(store, accept={table_id}.__contains__), worker_service)
    for _ in range(2):
        await worker.tick()
        await worker.idle()

    rows = await store.read_stream(table_id, before)
    rolls = [e for e in map(decode_event, rows) if isinstance(e, DiceRolled)]
    by = [e.seat for e in rolls]
    assert 3 in by and 4 in by, by  # the worker went on after its refused roll
    state = (await other.load(table_id)).state
    game = game_named("bunco")
    assert state.game_state is not None
    assert game.awaiting(state.game_state) == (1,)  # the human's roll now
    await worker_service.close()
    await other.close()
