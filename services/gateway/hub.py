"""Who sits where on this gateway, and pushing each of them its own view.

The gateway subscribes to the bus for every table one of its sockets sits at (subscribe
first, then catch up from the store, as the bus port asks) and unsubscribes when the last
one leaves. Every change the table service sees — its own appends and the bus's news —
is offered to the sessions of that table; each sends one view per version, in order, and a
socket that cannot keep up skips its oldest queued views rather than growing a backlog.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from engine import banakil
from engine.table import TableState
from services.bus.port import Bus, Subscription
from services.gateway.codec import encode_json
from services.gateway.tables import Loaded, TableService

__all__ = ["Hub", "Session", "table_view"]

_BACKLOG = 64  # views queued per socket before the oldest are skipped

Sender = Callable[[bytes], Awaitable[None]]


def table_view(loaded: Loaded, seat: int | None) -> dict[str, Any]:
    """What `seat` (None: a spectator) sees of a table: its seats and the game's view."""
    state: TableState = loaded.state
    game = state.game_state
    return {
        "table_id": state.table_id,
        "status": state.status,
        "host": state.host,
        "seats": state.seats,
        "version": loaded.version,
        "view": None if game is None else banakil.view(game, seat),
    }


class Session:
    """One socket at one table. Sends are serialised: replies and pushes never interleave."""

    def __init__(self, table_id: str, seat: int | None, send: Sender) -> None:
        self.table_id = table_id
        self.seat = seat
        self.version = 0  # the newest version this socket was shown
        self._send = send
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._queue: deque[Loaded] = deque(maxlen=_BACKLOG)
        self._greeted = False
        self.closed = False

    async def send(self, message: dict[str, Any]) -> None:
        async with self._lock:
            await self._raw(message)

    async def greet(self, loaded: Loaded, then: list[dict[str, Any]]) -> None:
        """The welcome (the table as of `loaded`), then `then`, before any push."""
        async with self._lock:
            self.version = max(self.version, loaded.version)
            await self._raw({"type": "welcome", "seat": self.seat, **table_view(loaded, self.seat)})
            for message in then:
                await self._raw(message)
            self._greeted = True
        self._start()

    async def show(self, loaded: Loaded) -> None:
        """Send `loaded` as a view if it is newer than what this socket was shown."""
        async with self._lock:
            if loaded.version > self.version:
                self.version = loaded.version
                await self._raw({"type": "view", **table_view(loaded, self.seat)})

    def offer(self, loaded: Loaded) -> None:
        """Queue a change to be shown. A socket that falls far behind skips the oldest
        queued views (each view is the whole truth, so nothing is lost but the steps)."""
        if self.closed or loaded.version <= self.version:
            return
        self._queue.append(loaded)
        self._start()

    def _start(self) -> None:
        # Nothing is pushed before the welcome: it is the first message of every socket.
        if self._greeted and self._queue and (self._task is None or self._task.done()):
            self._task = asyncio.create_task(self._drain())

    def stop(self) -> None:
        self.closed = True
        if self._task is not None:
            self._task.cancel()

    async def _drain(self) -> None:
        while self._queue and not self.closed:
            await self.show(self._queue.popleft())

    async def _raw(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        try:
            await self._send(encode_json(message))
        except Exception:  # the peer went away; its handler cleans up
            self.closed = True


class Hub:
    def __init__(self, service: TableService, bus: Bus) -> None:
        self._service = service
        self._bus = bus
        self._sessions: dict[str, set[Session]] = {}
        self._subscriptions: dict[str, Subscription] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        service.add_listener(self._changed)

    async def join(self, session: Session) -> Loaded:
        """Seat the session at its table; returns the table, current as of now. Changes
        from here on are queued for the session and shown once it has been greeted."""
        table_id = session.table_id
        async with self._lock(table_id):
            sessions = self._sessions.setdefault(table_id, set())
            first = not sessions
            sessions.add(session)
            if not first:
                return await self._service.load(table_id)
            try:
                self._subscriptions[table_id] = await self._bus.subscribe(
                    table_id, self._service.on_published
                )
                loaded = await self._service.refresh(table_id)
            except BaseException:
                sessions.discard(session)
                raise
            self._service.follow(table_id)
            return loaded

    async def leave(self, session: Session) -> None:
        session.stop()
        table_id = session.table_id
        async with self._lock(table_id):
            sessions = self._sessions.get(table_id, set())
            sessions.discard(session)
            if sessions:
                return
            self._sessions.pop(table_id, None)
            self._service.unfollow(table_id)
            subscription = self._subscriptions.pop(table_id, None)
            if subscription is not None:
                with contextlib.suppress(Exception):
                    await subscription.unsubscribe()

    async def close(self) -> None:
        for sessions in list(self._sessions.values()):
            for session in list(sessions):
                await self.leave(session)

    def _changed(self, table_id: str, loaded: Loaded) -> None:
        for session in self._sessions.get(table_id, ()):
            session.offer(loaded)

    def _lock(self, table_id: str) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock
