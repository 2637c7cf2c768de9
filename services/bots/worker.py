"""The bots worker: plays every seat a bot holds, through the same path as a player.

It follows the tables in play through the log (`services/projections/in_play.py`) and
drives each table where a bot must act (a made bot seat, or a player's seat a bot took
over: PF-CONN-3/4), until a player must act again. A drive plays one move at a time
through `TableService.handle`, the write path of every command, under the id
`auto:<version>`, and runs the system's follow-ups between moves (the next deal is
seeded and dealt, a returning player gets his seat back). The bots' thinking (several
milliseconds a move) is done here and never in a gateway, which only moves bytes.

Several workers may run: each may take one shard of the tables (`accept` of the model),
and two workers driving the same table send the same moves under the same ids (the store
keeps one). The system's own steps are the follow-ups of whoever wrote last; the worker
takes one only when it has waited `stale` seconds (the process that should have made it
died).

A table whose drive fails in any other way than the servers being away, or never
settles, is quarantined (`services/tables/quarantine.py`): logged once and left alone until
released, instead of a traceback at every look at the log while the others wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from services.projections.deadlines import utc_now
from services.projections.in_play import TablesInPlay, Tracked
from services.tables.bot_policy import bot_move, bot_to_act, return_move
from services.tables.quarantine import table_at_fault
from services.tables.service import TableService

__all__ = ["BotsWorker"]

_log = logging.getLogger(__name__)
_MAX_BACKOFF = 10.0
_PROCESS = "bots"  # the name this worker quarantines a table under


class BotsWorker:
    def __init__(
        self,
        tables: TablesInPlay,
        service: TableService,
        *,
        concurrency: int = 32,
        max_moves: int = 20_000,
        stale: float = 2.0,
        now: Callable[[], datetime] = utc_now,
    ) -> None:
        self._tables = tables
        self._service = service
        self._stale = timedelta(seconds=stale)
        self._now = now
        self._limit = asyncio.Semaphore(concurrency)
        self._max_moves = max_moves
        self._driving: dict[str, asyncio.Task[None]] = {}
        self._settled: dict[str, int] = {}  # table id -> the version its last drive ended at
        self.moves = 0  # bot moves this worker appended (for reports)

    async def tick(self) -> int:
        """Catch up with the log and start a drive for each table that needs one; how many
        were started."""
        await self._tables.catch_up()
        started = 0
        stale = self._now() - self._stale
        quarantine = self._tables.quarantine
        for tracked in self._tables:
            table_id = tracked.table_id
            if table_id in self._driving or tracked.version <= self._settled.get(table_id, -1):
                continue  # being driven, or already driven as far as the log shows
            try:
                needed = _needs_drive(tracked, stale)
            except Exception as error:
                quarantine.hold(table_id, _PROCESS, error, version=tracked.version)
                continue
            if not needed:
                continue
            self._driving[table_id] = asyncio.create_task(
                self._drive(table_id), name=f"bots:{table_id}"
            )
            started += 1
        for table_id in [t for t in self._settled if self._tables.get(t) is None]:
            del self._settled[table_id]
        await quarantine.flush()  # what the drives held since the last look
        return started

    async def idle(self) -> None:
        """Until every drive started so far has ended."""
        while self._driving:
            await asyncio.gather(*self._driving.values(), return_exceptions=True)

    async def run(self, stop: asyncio.Event, interval: float = 0.1) -> None:
        pause = interval
        try:
            while not stop.is_set():
                try:
                    await self.tick()
                except Exception as error:
                    name = type(error).__name__
                    _log.warning("bots: %s: %s; retrying in %.1f s", name, error, pause)
                    pause = min(pause * 2, _MAX_BACKOFF)
                else:
                    pause = interval
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), pause)
        finally:
            tasks = list(self._driving.values())
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _drive(self, table_id: str) -> None:
        version = -1
        try:
            async with self._limit:
                version = await self._play(table_id)
        except Exception as error:
            if table_at_fault(error):
                tracked = self._tables.get(table_id)
                at = tracked.version if tracked is not None else 0
                self._tables.quarantine.hold(table_id, _PROCESS, error, version=at)
            else:  # the servers or this process, not the table: the next look retries
                name = type(error).__name__
                _log.warning("bots: driving %s: %s: %s", table_id, name, error)
        finally:
            self._settled[table_id] = version
            self._driving.pop(table_id, None)

    async def _play(self, table_id: str) -> int:
        """Play the table's bots until none must act; the version it was left at."""
        service = self._service
        for _ in range(self._max_moves):
            loaded = await service.load(table_id)
            game = loaded.state.game_state
            if game is not None and (
                game.phase in ("seeding", "seeded")
                or return_move(loaded.state, loaded.version) is not None
            ):
                await service.follow_up(table_id)  # the system's steps first
                loaded = await service.load(table_id)
            move = bot_move(loaded.state, loaded.version)
            if move is None:
                return loaded.version
            outcome = await service.handle(
                table_id, move.seat, move.command, move.command_id, follow_up=False
            )
            if not outcome.accepted:
                assert outcome.rejection is not None
                if outcome.version != loaded.version:
                    # Decided on a version the table has moved past (a game that awaits
                    # several seats at once: another table's roll, the bell; or "busy"):
                    # decide again on the new one. Settling here would leave a bot that
                    # must still act waiting for a change nobody else makes.
                    continue
                _log.warning("bots: %s at %s refused: %s", move, table_id, outcome.rejection)
                return outcome.version
            if not outcome.duplicate:
                self.moves += 1
        at = (await service.load(table_id)).version
        reason = f"the bots did not settle in {self._max_moves} moves"
        self._tables.quarantine.hold(table_id, _PROCESS, reason, version=at)
        return at


def _needs_drive(tracked: Tracked, stale: datetime) -> bool:
    """A bot must act; or the system's next step (seed, seat back) has waited since before
    `stale`."""
    state = tracked.state
    game = state.game_state
    if state.status != "playing" or game is None:
        return False
    if bot_to_act(state) is not None:
        return True
    due = game.phase == "seeding" or return_move(state, tracked.version) is not None
    return due and tracked.changed is not None and tracked.changed < stale
