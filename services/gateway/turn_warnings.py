"""The last 5 seconds of a turn (PF-TIMER-2): a "warning" pushed to the acting seat.

The clock process decides when time is up (services/clock); this gateway only tells the
player that it is about to be. For each table one of its seated sockets is at, it knows
what the table waits for (a turn, or the discard window after a timeout) and since when,
and pushes to the sockets of the acting seat, once per wait:

    {"type": "warning", "table_id", "deal", "turn", "seat", "stage": "turn" | "window",
     "deadline": ISO 8601 server time, "seconds_left"}

The start of a wait is the `server_time` of the batch after which the game's answer to
"what does the table wait for" (`Game.wait`) changed, for every game alike: found by
folding the table's stream when a table is first watched here, and the moment this
gateway sees the change afterwards (its own commit, or the bus's news of another writer's,
a few milliseconds later; a lost publish makes it as late as the relay). The client shows
the warning and plays the countdown sound from it; the deadline is the clock's own.

The time source is injected (`now`), and `tick` sends what is due, so tests move time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import datetime

import msgspec

from engine.table import evolve, new_table
from services.gateway.presence import Presence
from services.projections.deadlines import Deadline, timers, warning_at
from services.projections.in_play import Tracked, server_time, waiting_for
from services.store.port import EventStore
from services.tables.codec import decode_event
from services.tables.service import Loaded, TableService
from services.tables.turns import wait_starts

__all__ = ["TurnWarnings"]

_log = logging.getLogger(__name__)
_LOOK_UPS = 5  # reads of a table that changes meanwhile before leaving it to the next tick


class _Watch(msgspec.Struct, kw_only=True):
    tracked: Tracked
    warned: set[str] = msgspec.field(default_factory=set)  # the waits warned of (their ids)


class TurnWarnings:
    def __init__(
        self,
        service: TableService,
        store: EventStore,
        presence: Presence,
        now: Callable[[], datetime],
    ) -> None:
        self._service = service
        self._store = store
        self._presence = presence
        self.now = now
        self._watched: dict[str, _Watch | None] = {}  # None: its wait's start is not known yet
        self._failed: set[str] = set()  # tables whose waits could not be timed
        service.add_listener(self._changed)
        presence.watch(self._seated)

    async def tick(self) -> int:
        """Look up the waits not known yet and push the warnings that are due; how many.

        A table whose wait cannot be read or timed (a stream the clock quarantines too) is
        logged once and left out until its last socket leaves: the others are still warned.
        """
        for table_id in [t for t, w in self._watched.items() if w is None]:
            if table_id not in self._failed:
                try:
                    await self._look_up(table_id)
                except Exception as exc:
                    self._fail(table_id, exc)
        sent = 0
        now = self.now()
        for table_id, watch in list(self._watched.items()):
            if watch is None or watch.tracked.waiting is None or table_id in self._failed:
                continue
            try:
                sent += await self._warn_if_due(watch, now)
            except Exception as exc:
                self._fail(table_id, exc)
        return sent

    async def _warn_if_due(self, watch: _Watch, now: datetime) -> int:
        """Warn of each running wait once (a game may time several seats at once)."""
        running = timers(watch.tracked)
        watch.warned &= {d.command_id for d in running}
        sent = 0
        for deadline in running:
            at = warning_at(deadline)
            if at is None or at > now or deadline.command_id in watch.warned:
                continue
            watch.warned.add(deadline.command_id)
            sent += await self._warn(deadline, now)
        return sent

    def _fail(self, table_id: str, exc: Exception) -> None:
        self._failed.add(table_id)
        _log.error("turn warnings: table %s left out: %s: %s", table_id, type(exc).__name__, exc)

    async def run(self, stop: asyncio.Event, interval: float = 0.25) -> None:
        while not stop.is_set():
            try:
                await self.tick()
            except Exception:
                _log.exception("turn warnings failed; trying again")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), interval)

    def _seated(self, table_id: str, seated: bool) -> None:
        if seated:
            self._watched.setdefault(table_id, None)
        else:
            self._watched.pop(table_id, None)
            self._failed.discard(table_id)

    def _changed(self, table_id: str, loaded: Loaded) -> None:
        watch = self._watched.get(table_id)
        if watch is None:
            return  # not watched here, or its start is being looked up
        tracked = watch.tracked
        if loaded.version <= tracked.version:
            return
        waiting = waiting_for(loaded.state)
        now = self.now()
        if waiting != tracked.waiting:
            tracked.waiting, tracked.since = waiting, now
        tracked.started = wait_starts(loaded.state, tracked.started, now)
        tracked.state, tracked.version = loaded.state, loaded.version

    async def _look_up(self, table_id: str) -> None:
        # Until the watch is set below, `_changed` passes the table over, so a change the
        # service saw while the stream was read here would be lost: a turn that began
        # meanwhile would be taken for the one before it and its seat never warned. Look
        # again until no change came in during the reads.
        for _ in range(_LOOK_UPS):
            loaded = await self._service.load(table_id)
            waiting = waiting_for(loaded.state)
            since, started = await self._began(table_id, loaded.version)
            if (await self._service.load(table_id)).version == loaded.version:
                break
        else:
            return  # it keeps changing: the next tick looks again
        if table_id in self._watched and self._watched[table_id] is None:
            tracked = Tracked(
                table_id=table_id,
                version=loaded.version,
                state=loaded.state,
                waiting=waiting,
                since=since if waiting is not None else None,
                started=started,
            )
            self._watched[table_id] = _Watch(tracked=tracked)

    async def _began(
        self, table_id: str, version: int
    ) -> tuple[datetime | None, dict[str, datetime]]:
        """The server time of the batch that began the table's wait as of `version`, and
        (a game with several waits at once) each running wait's: the stream folded to
        there (once per table watched here), a wait's start being where the game's answer
        last changed, or where its id first appeared, as the clock counts it."""
        state, waiting, since = new_table(table_id), None, None
        started: dict[str, datetime] = {}
        for row in await self._store.read_stream(table_id):
            if row.version > version:
                break
            state = evolve(state, decode_event(row, game=state.game or None))
            now = waiting_for(state)
            if now != waiting:
                waiting, since = now, None if now is None else server_time(row)
            started = wait_starts(state, started, server_time(row))
        return since, started

    async def _warn(self, deadline: Deadline, now: datetime) -> int:
        sessions = self._presence.sessions(deadline.table_id, deadline.seat)
        if not sessions:
            return 0
        message = {
            "type": "warning",
            "table_id": deadline.table_id,
            "deal": deadline.deal,
            "turn": deadline.turn,
            "seat": deadline.seat,
            "stage": deadline.kind,
            "deadline": deadline.at,  # encoded as the views' deadline is (RFC 3339, "Z")
            "seconds_left": max(0.0, round((deadline.at - now).total_seconds(), 3)),
        }
        for session in sessions:
            await session.send(message)
        return len(sessions)
