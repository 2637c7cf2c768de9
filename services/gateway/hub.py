"""Who sits where on this gateway, and pushing each of them its own view.

The gateway subscribes to the bus for every table one of its sockets sits at (subscribe
first, then catch up from the store, as the bus port asks) and unsubscribes when the last
one leaves. Every change the table service sees — its own commits and what it read from
the store on the bus's notices — is offered to the sessions of that table as a `Frame`:
the table at one version.

The bus is a convenience, never a condition (issue 10, item 6): while NATS is away a
socket is still accepted (its table read from the store), and `run` reads the store every
`poll_interval` seconds for each table that has sockets here and no working subscription,
so that other writers' moves are shown in order meanwhile. A subscription made before an
outage may have missed notices (a restarted server has lost its consumer): `run` drops it
once the bus reports the outage, and when the bus is back subscribes again, then catches
up from the store (subscribe first, as ever). Commands go on being appended meanwhile;
their notices are published by the relay when it can.

Each session has one sender task for its whole life, which shows the newest frame it was
offered. A view is the whole truth, so the versions that landed while a socket was still
being written to (the events of one command, a follow-up, a burst of news from another
gateway) are shown once, as of the newest: views only ever go forward, a slow socket
never builds a backlog, and nothing is lost but intermediate steps (a client that wants
the events themselves reconnects with `since`).

A frame asks the table's game for each view (`Game.view`, through the registry) once per
seat, however many sockets show it, and only when a session shows it; it encodes the
shared part of the views once (see `messages.SharedView`), and each seat's message once.
The table's running waits and each seat's countdown come with the version
(`Loaded.waits`, `Loaded.deadline_of`), worked out once by the table service.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from engine.table import TableState
from services.bus.port import Bus, BusError, Subscription
from services.gateway.messages import SharedView, welcome_message
from services.tables.codec import encode_json
from services.tables.games import game_of
from services.tables.service import Loaded, TableService

__all__ = ["Frame", "Hub", "Session", "Shown", "table_view"]

_log = logging.getLogger(__name__)

Sender = Callable[[bytes], Awaitable[None]]
# A seat's view as that seat is shown it: its hand in the order it chose (PF-SORT,
# services/tables/seat_asks.py); the view itself for a spectator or a seat without one.
Shown = Callable[[Loaded, int | None, Any], Any]


def _as_is(loaded: Loaded, seat: int | None, view: Any) -> Any:
    return view


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
        "deadline": loaded.deadline_of(seat),
        "deadlines": loaded.waits,
        "view": None if game is None else game_of(state).view(game, seat),
    }


class Frame:
    """The table at one version, as shown to the sessions of one gateway."""

    __slots__ = ("_messages", "_shared", "_shown", "_views", "loaded", "version")

    def __init__(self, loaded: Loaded, shown: Shown = _as_is) -> None:
        self.loaded = loaded
        self._shown = shown
        self.version = loaded.version
        # The game's views by seat (None: the spectator's), each built once. Any: a view is
        # the game's own Struct, which the gateway only encodes.
        self._views: dict[int | None, Any] = {}
        self._shared: SharedView | None = None
        self._messages: dict[int | None, bytes] = {}  # each seat's message, encoded once

    def view(self, seat: int | None) -> Any:
        state = self.loaded.state
        game = state.game_state
        if game is None:
            return None
        views = self._views
        if seat not in views:
            rules = game_of(state)
            if seat is not None and rules.seat_view is not None:  # from the one public view
                views[seat] = rules.seat_view(game, self.view(None), seat)
            else:
                views[seat] = rules.view(game, seat)
            if seat is not None:
                views[seat] = self._shown(self.loaded, seat, views[seat])
        return views[seat]

    def message(self, seat: int | None) -> bytes:
        """The "view" message for `seat`, encoded (once, however many sockets show it)."""
        found = self._messages.get(seat)
        if found is not None:
            return found
        view = self.view(seat)
        shared = self._shared
        if shared is None:
            shared = self._shared = SharedView(self.loaded, self.view(None))
        # A view the game derived from the spectator's differs from it in its own part
        # only, by the game's contract: spliced without comparing the two.
        derived = game_of(self.loaded.state).seat_view is not None
        found = self._messages[seat] = shared.message(view, seat=seat, derived=derived)
        return found


class Session:
    """One socket at one table. Sends are serialised: replies and pushes never interleave."""

    def __init__(
        self, table_id: str, seat: int | None, send: Sender, shown: Shown = _as_is
    ) -> None:
        self.table_id = table_id
        self.seat = seat
        self._shown = shown
        self.version = 0  # the newest version this socket was shown
        self._send = send
        self._lock = asyncio.Lock()
        self._pending: Frame | None = None  # the newest frame offered and not shown yet
        self._wakeup: asyncio.Future[None] | None = None  # the sender waits on it
        self._task: asyncio.Task[None] | None = None
        self.closed = False

    async def send(self, message: dict[str, Any]) -> None:
        async with self._lock:
            await self._raw(encode_json(message))

    async def greet(self, loaded: Loaded, then: list[dict[str, Any]]) -> None:
        """The welcome (the table as of `loaded`), then `then`, before any push."""
        async with self._lock:
            self.version = max(self.version, loaded.version)
            game = loaded.state.game_state
            view = None if game is None else game_of(loaded.state).view(game, self.seat)
            view = self._shown(loaded, self.seat, view)
            await self._raw(welcome_message(loaded, self.seat, view))
            for message in then:
                await self._raw(encode_json(message))
        # Nothing is pushed before the welcome: the sender starts only now.
        if not self.closed and self._task is None:
            self._task = asyncio.create_task(self._pushes(), name=f"push:{self.table_id}")

    def offer(self, frame: Frame) -> None:
        """Have `frame` shown, unless something as new was shown or is about to be."""
        if self.closed or frame.version <= self.version:
            return
        pending = self._pending
        if pending is None or frame.version > pending.version:
            self._pending = frame
        wakeup = self._wakeup
        if wakeup is not None:
            self._wakeup = None
            if not wakeup.done():
                wakeup.set_result(None)

    def stop(self) -> None:
        self.closed = True
        self._pending = None
        if self._task is not None:
            self._task.cancel()

    async def _pushes(self) -> None:
        loop = asyncio.get_running_loop()
        while not self.closed:
            frame = self._pending
            if frame is None:
                self._wakeup = loop.create_future()
                await self._wakeup
                continue
            self._pending = None
            async with self._lock:
                if frame.version <= self.version or self.closed:
                    continue
                self.version = frame.version
                try:
                    message = frame.message(self.seat)
                except Exception:  # a bug, not the peer: keep the socket, log it
                    _log.exception("view of %s at %s failed", self.table_id, frame.version)
                    continue
                await self._raw(message)

    async def _raw(self, message: bytes) -> None:
        if self.closed:
            return
        try:
            await self._send(message)
        except Exception:  # the peer went away; its handler cleans up
            self.closed = True


class Hub:
    def __init__(
        self,
        service: TableService,
        bus: Bus,
        *,
        poll_interval: float = 0.5,
        shown: Shown = _as_is,
    ) -> None:
        self._service = service
        self.shown = shown
        self._bus = bus
        self._poll_interval = poll_interval
        self._sessions: dict[str, set[Session]] = {}
        # Every table with sessions here; None: no working subscription, read the store.
        self._subscriptions: dict[str, Subscription | None] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._outages = bus.status().outages  # the bus's count when subscriptions were made
        self._trouble = ""  # the last failure of a round, logged once
        service.add_listener(self._changed)

    async def join(self, session: Session) -> Loaded:
        """Seat the session at its table; returns the table, current as of now. Changes
        from here on are offered to the session and shown once it has been greeted. The
        bus being away does not keep a session out (see the module docstring)."""
        table_id = session.table_id
        async with self._lock(table_id):
            sessions = self._sessions.setdefault(table_id, set())
            first = not sessions
            sessions.add(session)
            if not first:
                return await self._service.load(table_id)
            subscription = None
            try:
                subscription = await self._subscribe(table_id)
                loaded = await self._service.refresh(table_id)
            except BaseException:
                sessions.discard(session)
                if not sessions:
                    self._sessions.pop(table_id, None)
                if subscription is not None:
                    with contextlib.suppress(Exception):
                        await subscription.unsubscribe()
                raise
            self._subscriptions[table_id] = subscription
            self._service.follow(table_id)
            return loaded

    async def run(self, stop: asyncio.Event) -> None:
        """Keep the tables of this gateway's sessions current while the bus is away, and
        subscribe again when it is back: one round every `poll_interval` s until `stop`."""
        while not stop.is_set():
            try:
                await self.keep_current()
            except Exception as exc:  # the store is away too: try again next round
                trouble = f"{type(exc).__name__}: {exc}"
                if trouble != self._trouble:
                    _log.warning("hub: cannot read the followed tables: %s", trouble)
                self._trouble = trouble
            else:
                self._trouble = ""
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self._poll_interval)

    async def keep_current(self) -> None:
        """One round: drop the subscriptions an outage may have broken; for every table
        without one, subscribe when the bus is connected, then read the store."""
        status = self._bus.status()
        if status.outages != self._outages:
            self._outages = status.outages
            broken = [t for t, s in self._subscriptions.items() if s is not None]
            if broken:
                _log.warning(
                    "hub: the bus lost its connection; reading the store for %d table(s) "
                    "until it is back",
                    len(broken),
                )
            for table_id in broken:
                async with self._lock(table_id):
                    subscription = self._subscriptions.get(table_id)
                    if subscription is not None:
                        self._subscriptions[table_id] = None
                        with contextlib.suppress(Exception):
                            await subscription.unsubscribe()
        back = 0
        for table_id in [t for t, s in self._subscriptions.items() if s is None]:
            async with self._lock(table_id):
                if self._subscriptions.get(table_id, True) is not None:
                    continue  # left, or subscribed by now
                if status.connected:
                    subscription = await self._subscribe(table_id, quiet=True)
                    self._subscriptions[table_id] = subscription
                    back += subscription is not None
                await self._service.refresh(table_id)
        if back:
            _log.info("hub: %d table(s) followed from the bus again", back)

    async def _subscribe(self, table_id: str, *, quiet: bool = False) -> Subscription | None:
        """The table's subscription; None while the bus cannot give one."""
        try:
            return await self._bus.subscribe(table_id, self._service.on_published)
        except BusError as exc:
            if not quiet:
                _log.warning(
                    "hub: no bus for %s (%s); reading the store every %g s",
                    table_id,
                    exc,
                    self._poll_interval,
                )
            return None

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
        sessions = self._sessions.get(table_id)
        if sessions:
            frame = Frame(loaded, self.shown)
            for session in sessions:
                session.offer(frame)

    def _lock(self, table_id: str) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock
