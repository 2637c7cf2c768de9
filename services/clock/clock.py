"""The clock: fires every deadline that has passed, through the table service.

Each tick catches the tables-in-play model up with the log, then sends the due commands
(seat 0, the deadline's command id) with `TableService.handle`, the write path every
command takes; the follow-ups run after an accepted one (the next deal is seeded, bots play
on). Nothing is kept between ticks but which deadlines this process already sent, so that
it sends each once while its effect is on its way back through the log:

- a restarted clock derives the same deadlines from the same events and fires whatever
  is due (a deadline that passed while no clock ran fires at once);
- two clocks fire the same command under the same id: the store appends it once, and
  a timeout for a turn that is over is refused by the engine and changes nothing.

A table whose deadlines cannot be computed, or whose command fails in any other way
than the servers being away, is quarantined (`services/tables/quarantine.py`): logged once and
left alone until released, while every other table's deadlines keep firing.

The time source is injected (`now`), so tests move time instead of waiting for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime

import msgspec

from engine.table import AnyCommand
from services.projections.deadlines import Deadline, deadlines, utc_now
from services.projections.in_play import TablesInPlay, Tracked
from services.tables.quarantine import table_at_fault
from services.tables.service import Outcome

__all__ = ["Clock", "Fire", "Fired"]

_log = logging.getLogger(__name__)
_MAX_BACKOFF = 10.0
_PROCESS = "clock"  # the name this loop quarantines a table under

Fire = Callable[[str, AnyCommand, str], Awaitable[Outcome]]  # (table, command, command id)


class Fired(msgspec.Struct, frozen=True, kw_only=True):
    deadline: Deadline
    accepted: bool
    duplicate: bool = False
    code: str | None = None  # why the engine refused it (a stale turn, say)


class Clock:
    def __init__(
        self,
        tables: TablesInPlay,
        fire: Fire,
        now: Callable[[], datetime] = utc_now,
        *,
        concurrency: int = 64,
    ) -> None:
        self._tables = tables
        self._fire = fire
        self._now = now
        self._limit = asyncio.Semaphore(concurrency)
        # table id -> (the version it was at, the command ids sent at that version)
        self._sent: dict[str, tuple[int, set[str]]] = {}

    @property
    def tables(self) -> TablesInPlay:
        return self._tables

    def pending(self) -> list[Deadline]:
        """Every deadline known now, soonest first (after the last catch-up)."""
        return sorted((d for t in self._tables for d in self._deadlines(t)), key=lambda d: d.at)

    async def tick(self) -> list[Fired]:
        """Catch up with the log and fire what is due; what was fired and what became of it."""
        await self._tables.catch_up()
        now = self._now()
        due: list[Deadline] = []
        for tracked in self._tables:
            version, sent = self._sent.get(tracked.table_id, (-1, set()))
            if version != tracked.version:
                version, sent = tracked.version, set()
                self._sent[tracked.table_id] = (version, sent)
            for deadline in self._deadlines(tracked):
                if deadline.at <= now and deadline.command_id not in sent:
                    sent.add(deadline.command_id)
                    due.append(deadline)
        for table_id in [t for t in self._sent if self._tables.get(t) is None]:
            del self._sent[table_id]
        results = await asyncio.gather(*(self._send(d) for d in due)) if due else []
        await self._tables.quarantine.flush()
        return [r for r in results if r is not None]

    def _deadlines(self, tracked: Tracked) -> list[Deadline]:
        """The table's deadlines; none, and the table held, when they cannot be computed."""
        try:
            return deadlines(tracked)
        except Exception as error:
            self._tables.quarantine.hold(tracked.table_id, _PROCESS, error, version=tracked.version)
            return []

    async def _send(self, deadline: Deadline) -> Fired | None:
        async with self._limit:
            try:
                outcome = await self._fire(deadline.table_id, deadline.command, deadline.command_id)
            except Exception as error:
                table_id = deadline.table_id
                if table_at_fault(error):  # the table's own failure: hold it
                    version = self._sent.get(table_id, (0, set()))[0]
                    self._tables.quarantine.hold(table_id, _PROCESS, error, version=version)
                    return None
                name = type(error).__name__
                _log.warning("clock: %s at %s: %s: %s", deadline.command_id, table_id, name, error)
                kept = self._sent.get(table_id)
                if kept is not None:
                    kept[1].discard(deadline.command_id)  # try again next tick
                return None
        code = outcome.rejection.code if outcome.rejection is not None else None
        what = code or ("already taken" if outcome.duplicate else "taken")
        _log.info("clock: %s at %s: %s", deadline.command_id, deadline.table_id, what)
        return Fired(
            deadline=deadline, accepted=outcome.accepted, duplicate=outcome.duplicate, code=code
        )

    async def run(self, stop: asyncio.Event, interval: float = 0.2) -> None:
        """Tick until `stop` is set. Failures (the database away) are logged and retried
        with a growing pause: deadlines are derived again from the log when it is back."""
        pause = interval
        first = True
        while not stop.is_set():
            try:
                await self.tick()
            except Exception as error:
                name = type(error).__name__
                _log.warning("clock: %s: %s; retrying in %.1f s", name, error, pause)
                await _wait(stop, pause)
                pause = min(pause * 2, _MAX_BACKOFF)
                continue
            if first:
                first = False
                pending = self.pending()
                _log.info(
                    "clock: caught up: %d table(s) in play, %d deadline(s) pending",
                    len(self._tables),
                    len(pending),
                )
            pause = interval
            await _wait(stop, interval)


async def _wait(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
