"""Seat presence from this gateway's sockets, recorded as table events (PF-CONN-1/2).

When the last socket of a seat closes, the seat is recorded away (Disconnect) once it has
stayed away for a settle delay (SETTLE_SECONDS); when a socket of an away seat, or of a
seat a bot took over, opens again, it is recorded back at once (Reconnect: the same seat,
hand and match within the 60 s grace, PF-CONN-2; a replaced player takes the seat back at
the next turn boundary). Both are system commands through the table service's write path,
under ids tied to the table's version so that a repeat appends nothing. The clock derives
the 60 s grace from the recorded time (services/clock).

Why the delay: a connect/close loop of one seat appended 99 presence events in 4 s, each
one stored, published and pushed to every seat. A socket of the seat opened within the
delay cancels the pending record, so a flapping connection appends nothing while it flaps
and one Disconnect once it stays closed: at most one away and one back per delay. The
grace therefore starts up to SETTLE_SECONDS after the close, so a player has at least the
60 s of PF-CONN-2, never less; his turns are timed by the clock meanwhile as always
(PF-CONN-1). A seat's records are made one at a time (a lock per seat), so a return never
reads the seat's state while its Disconnect is being appended.

Limits: presence is counted per gateway. A player with sockets on two gateways who closes
one of them is recorded away although the other is still open (he is recorded back when
he next connects). Sockets closed because this gateway shuts down are not recorded: the
server left, not the player (he reconnects to another gateway); nor is a close still
within its settle delay when the shutdown begins.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from engine.table import Disconnect, Reconnect
from services.gateway.hub import Session
from services.tables.service import TableService

__all__ = ["SETTLE_SECONDS", "Presence"]

SETTLE_SECONDS = 2.0  # a closed seat is recorded away once it has stayed closed this long
_log = logging.getLogger(__name__)
_SYSTEM = 0

Watcher = Callable[[str, bool], None]  # (table id, True: first seated socket here / False: last)


class Presence:
    def __init__(self, service: TableService, settle: float = SETTLE_SECONDS) -> None:
        self._service = service
        self._settle = settle
        self._sockets: dict[tuple[str, int], set[Session]] = {}
        self._tables: dict[str, int] = {}  # table id -> seated sockets here
        self._watchers: list[Watcher] = []
        self._pending: dict[tuple[str, int], asyncio.Task[None]] = {}  # away, not recorded
        self._records: dict[tuple[str, int], asyncio.Lock] = {}  # one record at a time
        self._tasks: set[asyncio.Task[None]] = set()  # held until done (asyncio's advice)
        self._closing = False

    @property
    def closing(self) -> bool:
        """Set when the gateway shuts down: no close is recorded from then on, and the
        pending ones are dropped."""
        return self._closing

    @closing.setter
    def closing(self, value: bool) -> None:
        self._closing = value
        if value:
            for task in self._pending.values():
                task.cancel()
            self._pending.clear()

    def sessions(self, table_id: str, seat: int) -> frozenset[Session]:
        """This gateway's open sockets of `seat` at the table."""
        return frozenset(self._sockets.get((table_id, seat), ()))

    def watch(self, watcher: Watcher) -> None:
        self._watchers.append(watcher)

    async def arrived(self, session: Session) -> None:
        """A seat's socket was greeted: record the seat back if it was away or replaced."""
        seat = session.seat
        if seat is None:
            return
        key = (session.table_id, seat)
        sockets = self._sockets.setdefault(key, set())
        first = not sockets
        sockets.add(session)
        self._count(session.table_id, +1)
        if first:
            pending = self._pending.pop(key, None)
            if pending is not None:  # back within the settle delay: never recorded away
                pending.cancel()
            async with self._record_lock(key):
                await self._record(session.table_id, seat, back=True)

    async def departed(self, session: Session) -> None:
        """A seat's socket closed: record the seat away if it was its last one here."""
        seat = session.seat
        if seat is None:
            return
        key = (session.table_id, seat)
        sockets = self._sockets.get(key)
        if sockets is None or session not in sockets:
            return
        sockets.discard(session)
        self._count(session.table_id, -1)
        if sockets:
            return
        del self._sockets[key]
        if not self.closing:
            task = asyncio.create_task(self._away_after_delay(key))
            self._pending[key] = task
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _away_after_delay(self, key: tuple[str, int]) -> None:
        await asyncio.sleep(self._settle)  # cancelled by a socket of the seat meanwhile
        if self._pending.get(key) is not asyncio.current_task():
            return
        del self._pending[key]  # from here on a return waits for this record, not cancels it
        async with self._record_lock(key):
            await self._record(key[0], key[1], back=False)
        if key not in self._sockets and key not in self._pending:
            self._records.pop(key, None)

    def _record_lock(self, key: tuple[str, int]) -> asyncio.Lock:
        lock = self._records.get(key)
        if lock is None:
            lock = self._records[key] = asyncio.Lock()
        return lock

    def _count(self, table_id: str, change: int) -> None:
        before = self._tables.get(table_id, 0)
        after = before + change
        if after:
            self._tables[table_id] = after
        else:
            del self._tables[table_id]
        if (before == 0) != (after == 0):
            for watcher in self._watchers:
                watcher(table_id, after > 0)

    async def _record(self, table_id: str, seat: int, *, back: bool) -> None:
        try:
            loaded = await self._service.load(table_id)
            state = loaded.state
            if state.status not in ("open", "playing") or not 1 <= seat <= len(state.seats):
                return
            info = state.seats[seat - 1]
            if info.kind != "human" or info.player is None:
                return
            if back and info.presence in ("away", "bot"):
                command: Disconnect | Reconnect = Reconnect(seat=seat)
            elif not back and info.presence in ("here", "returning"):
                command = Disconnect(seat=seat)
            else:
                return
            kind = "back" if back else "away"
            command_id = f"presence:{seat}:{kind}:{loaded.version}"
            outcome = await self._service.handle(table_id, _SYSTEM, command, command_id)
            if outcome.rejection is not None:  # changed meanwhile: nothing to record
                _log.info("presence %s at %s: %s", command_id, table_id, outcome.rejection.code)
        except Exception:  # the store is away: the seat's state stays as it was
            _log.exception("recording seat %d %s at %s failed", seat, back, table_id)
