"""The table application service: the write path, one function per use case.

A command is decided on the table's state (kept in memory per table, else a snapshot plus
the events after it), appended with the version it was decided on, then handed to the
publisher (`publisher.py`: the bus is told in the background, the command is answered once
its events are committed, and the relay publishes whatever a crash kept from the bus). The
seat sessions of this process (a gateway's) are told at once, not through the bus. When
another writer got there first the store says so, and the command is decided again on
fresh state. A command id already seen returns its first outcome and appends nothing.
After an accepted command the system's own follow-ups (seed, deal, bot moves) run through
the same path until a human must act.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import msgspec

from engine.errors import RuleViolation
from engine.table import (
    AnyEvent,
    CreateTable,
    SeatKind,
    StartTable,
    TableState,
    TakeSeat,
    new_table,
    played_by_bot,
)
from engine.table import decide as decide_table
from engine.table import evolve as evolve_table
from services.bus.port import Bus, BusMessage
from services.store.port import (
    ConcurrencyError,
    EventStore,
    Metadata,
    NewEvent,
    Snapshot,
    StoredEvent,
)
from services.tables import validation
from services.tables.codec import (
    ENGINE_VERSION,
    decode_event,
    decode_state,
    encode_command,
    encode_event,
    encode_json,
    encode_state,
)
from services.tables.followups import SYSTEM, StackedDeal, next_follow_up
from services.tables.games import game_of, system_command
from services.tables.hidden import Unreadable
from services.tables.publisher import Publisher
from services.tables.quarantine import Quarantine, table_at_fault
from services.tables.seeds import Deadlines, SeedTiming
from services.tables.turns import Wait, running_waits, wait_starts, waiting_for

__all__ = [
    "Loaded",
    "Outcome",
    "Rejection",
    "TableService",
    "setup_stream",
    "valid_table_id",
]

_log = logging.getLogger(__name__)
_RECENT_COMMANDS = 256  # command ids remembered per table to answer a repeat at once
_MAX_FOLLOW_UPS = 2_000  # a bound, not a rule: bots finish a deal in a few hundred moves
_BACKOFF = 0.002  # seconds: the most a retry after a lost race waits, times the attempt
_STACKED_TYPE = "StackedDealRequested"

ChangeListener = Callable[[str, "Loaded"], None]


class Rejection(msgspec.Struct, frozen=True, kw_only=True):
    code: str
    rule_id: str
    message: str


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """What became of one command. `version` is the stream version after it (accepted)
    or the version it was refused at."""

    command_id: str
    accepted: bool
    version: int
    duplicate: bool = False
    rejection: Rejection | None = None


class Loaded(msgspec.Struct, frozen=True, kw_only=True):
    version: int
    state: TableState
    # When the running turn or discard window ends (PF-TIMER-1/3, PF-TIMER-7), for clients'
    # countdowns: the clock's own deadline, derived from the same recorded server time. In
    # a game that times several seats at once, the first running wait's (Bunco's head table).
    deadline: datetime | None = None
    # Every running wait, as the clock fires them (`turns.running_waits`), in the game's
    # order: a game with one timer has at most one, whose deadline is `deadline`.
    waits: tuple[Wait, ...] = ()

    def deadline_of(self, seat: int | None) -> datetime | None:
        """The countdown `seat`'s view shows: its own wait when the table waits for it
        (the earliest, should it have several), else `deadline`, as a spectator's. Only a
        seat awaited beside the first one sees another moment than `deadline`: a table
        that times one seat, as Banakil and rummy do, shows every seat the same."""
        own = [w.deadline for w in self.waits if w.seat == seat]
        return min(own) if own else self.deadline


class _Entry:
    """The cached state of one table; changed only under its lock."""

    __slots__ = (
        "_shown",
        "commands",
        "recorded",
        "stacked",
        "started",
        "starts",
        "state",
        "version",
        "waiting",
    )

    def __init__(self, version: int, state: TableState) -> None:
        self.version = version
        self.state = state
        self.commands: OrderedDict[str, int] = OrderedDict()  # command id -> last version
        # command id -> the command recorded with it (JSON), when known, to tell a repeat
        # from another command sent under the same id
        self.recorded: dict[str, bytes] = {}
        self.stacked: StackedDeal | bool | None = False  # False: not looked up yet
        self.started: datetime | None = None  # server time of the batch that began the wait
        self.waiting = waiting_for(state)  # what the table waits for (the game's `wait`)
        # a game with several waits at once (`Game.timers`): each one's command id -> the
        # server time of the batch in which it first appeared (`wait_starts`)
        self.starts: dict[str, datetime] = {}
        self._shown: Loaded | None = None  # `loaded()` of this version, made once

    def loaded(self) -> Loaded:
        """The table as of now, its waits and deadlines worked out once per version (every
        listener, load and socket of the version shares them)."""
        shown = self._shown
        if shown is None or shown.version != self.version:
            waits = tuple(
                Wait(seat=timer.seat, stage=timer.kind, deadline=at)
                for timer, at in running_waits(self.state, self.started, self.starts)
            )
            # The first wait's: a game's one timer, or the first of several, each from its
            # own start as the clock counts it.
            deadline = waits[0].deadline if waits else None
            shown = self._shown = Loaded(
                version=self.version, state=self.state, deadline=deadline, waits=waits
            )
        return shown

    def remember(self, command_id: str, version: int, command: msgspec.Raw | None = None) -> None:
        self.commands[command_id] = version
        self.commands.move_to_end(command_id)
        if command is not None:
            self.recorded[command_id] = bytes(command)
        while len(self.commands) > _RECENT_COMMANDS:
            old, _ = self.commands.popitem(last=False)
            self.recorded.pop(old, None)

    def fold(self, rows: list[StoredEvent]) -> None:
        self._shown = None
        for row in rows:
            self.remember(row.metadata.command_id, row.version, row.metadata.command)
            if row.version == self.version + 1:
                # Named once the stream is created: its rows are its game's, never another's.
                game = self.state.game or None
                self.state = evolve_table(self.state, decode_event(row, game=game))
                self.version = row.version
                # A wait begins where the game's answer changes, as the clock counts it
                # (services/projections/in_play.py), for every game alike; each of several
                # at once where its id first appears.
                at = _batch_time(row.metadata)
                waiting = waiting_for(self.state)
                if waiting != self.waiting:
                    self.waiting = waiting
                    self.started = None if waiting is None else at
                if at is not None:
                    self.starts = wait_starts(self.state, self.starts, at)
            elif row.version == self.version:
                # A state from a snapshot: the batches before it are not folded here, so its
                # waits count from the snapshot's own batch, the latest they can have begun
                # (the clock, from its own model, may fire before the deadline shown then,
                # never after it).
                at = _batch_time(row.metadata)
                if self.started is None and self.waiting:
                    self.started = at
                if at is not None and not self.starts:
                    self.starts = wait_starts(self.state, {}, at)


def valid_table_id(table_id: str) -> bool:
    """Ids this service makes (hex) or any short name that can be a bus subject token."""
    return validation.valid_table_id(table_id)


def setup_stream(table_id: str) -> str:
    """The side stream holding a table's test-only set-up (a stacked first deal): kept out
    of the table's own stream so that no client ever reads the deck from its events."""
    return f"setup-{table_id}"


class TableService:
    def __init__(
        self,
        store: EventStore,
        bus: Bus,
        secrets_source: Callable[[], bytes] = lambda: secrets.token_bytes(32),
        *,
        snapshot_every: int = 50,
        retries: int = 10,
        cache_size: int = 10_000,
        timing: SeedTiming | None = None,
    ) -> None:
        self._store = store
        self._bus = bus
        self._publisher = Publisher(bus)
        # Where each unit's secret comes from (PF-AMB-12 b: 32 bytes of a CSPRNG). Public so
        # that a test can replay a game of its choice through the running gateway.
        self.secrets_source = secrets_source
        self._snapshot_every = snapshot_every
        self._retries = retries
        self._cache_size = cache_size
        self._cache: OrderedDict[str, _Entry] = OrderedDict()
        self._locks: dict[str, asyncio.Lock] = {}
        # Tables the hub keeps current (bus notices, or the store while the bus is away).
        self._followed: dict[str, int] = {}
        self._noticed: dict[str, int] = {}  # tables being read on a notice -> newest noticed
        self._listeners: list[ChangeListener] = []
        # The seed window and the host's cut: timers that issue the system's command.
        self.deadlines = Deadlines(self.handle, timing or SeedTiming.from_env(), store)
        self._listeners.append(self.deadlines.consider)
        # Tables a background process quarantined: they take no command until released.
        self.quarantine = Quarantine(store)

    # --- use cases ---------------------------------------------------------------------

    async def create_table(
        self,
        options: Any,  # the options Struct of the game (`Game.options`), validated by it
        seats: tuple[SeatKind, ...],
        stacked: StackedDeal | None = None,
        host: str | None = None,
    ) -> Loaded:
        """A new table (PF-ROOM-2), with the player named `host` in the host's seat if one
        is given; RuleViolation when the options, seats or name cannot work.

        The table and its host are decided together and appended as ONE batch: a name or
        a seat that is refused, or a store that fails, can never leave behind an open
        table that nobody sits at."""
        table_id = secrets.token_hex(8)
        command: Any = CreateTable(options=options, seats=seats)
        state = _fold(new_table(table_id), decide_table(new_table(table_id), SYSTEM, command))
        if host is not None:
            sit = TakeSeat(seat=state.host, player=validation.player_name(host))
            decide_table(state, SYSTEM, sit)  # refused here, before anything is written
            command = (command, sit)  # decided in turn by _execute, appended together
        if stacked is not None:
            assert state.game_state is not None
            # Checked now, so that a bad deck is refused before anything is written.
            game = game_of(state)
            game.decide(
                state.game_state,
                SYSTEM,
                system_command(
                    game, "StackDeck", cards=stacked.cards, dealer=stacked.dealer, cut=stacked.cut
                ),
            )
            await self._store.append(
                setup_stream(table_id),
                0,
                [NewEvent(type=_STACKED_TYPE, data=encode_json(stacked))],
                Metadata(command_id="setup", seat=SYSTEM, server_time=_now()),
            )
        outcome = await self.handle(table_id, SYSTEM, command, "create")
        if outcome.rejection is not None:  # pragma: no cover - decided above already
            raise RuleViolation(**msgspec.structs.asdict(outcome.rejection))
        return await self.load(table_id)

    async def take_seat(self, table_id: str, seat: int, player: str) -> Outcome:
        """Seat the player named `player` (trimmed; refused as `invalid_name` when it is not
        a name, see validation.py)."""
        # A fresh command id: a second claim of the same seat must be refused, never be
        # taken for a repeat of the first (that would hand out the first player's seat).
        command_id = f"seat:{secrets.token_hex(8)}"
        try:
            command = TakeSeat(seat=seat, player=validation.player_name(player))
        except RuleViolation as exc:  # refused before the table is even read
            cached = self._cache.get(table_id)
            return _rejected(command_id, cached.version if cached else 0, exc)
        return await self.handle(table_id, SYSTEM, command, command_id)

    async def start(self, table_id: str, seat: int) -> Outcome:
        return await self.handle(table_id, seat, StartTable(), "start")

    async def handle(
        self,
        table_id: str,
        seat: int,
        command: Any,
        command_id: str,
        *,
        follow_up: bool = True,
        player: bool = False,
    ) -> Outcome:
        """Decide and append one command for `seat` (0 = the system), then, unless told
        otherwise, run the system's follow-ups. `player`: the seat's own player sent it
        (a bot's moves are sent as its seat too, so only the caller can tell them apart)."""
        if not valid_table_id(table_id):
            missing = RuleViolation("no_such_table", "", f"there is no table {table_id!r}")
            return _rejected(command_id, 0, missing)
        held = await self.quarantined(table_id)
        if held is not None:
            cached = self._cache.get(table_id)
            return _rejected(command_id, cached.version if cached else 0, held)
        outcome = await self._execute(table_id, seat, command, command_id, player=player)
        if follow_up and outcome.accepted:
            await self.follow_up(table_id)
        return outcome

    async def quarantined(self, table_id: str) -> RuleViolation | None:
        """The refusal of every command at a quarantined table (services/tables/quarantine.py:
        a background process could not handle it), or None when it is not held."""
        await self.quarantine.refresh()
        reason = self.quarantine.reason(table_id)
        if reason is None:
            return None
        return RuleViolation(
            "table_quarantined",
            "",
            f"table {table_id} is quarantined ({reason}): it takes no commands until an "
            "operator releases it",
        )

    async def follow_up(self, table_id: str) -> None:
        """Issue the system's and the bots' commands until a human must act."""
        for _ in range(_MAX_FOLLOW_UPS):
            loaded = await self.load(table_id)
            stacked = await self._stacked(table_id, loaded.state)
            timing = self.deadlines.timing
            step = next_follow_up(
                loaded.state,
                loaded.version,
                stacked,
                self.secrets_source,
                timing.seed_window,
                timing.reveal_seconds,
            )
            if step is None:
                self.deadlines.consider(table_id, loaded)  # e.g. loaded after a restart
                return
            outcome = await self._execute(table_id, step.seat, step.command, step.command_id)
            if not outcome.accepted:
                assert outcome.rejection is not None
                _log.error("follow-up %s refused at %s: %s", step, table_id, outcome.rejection)
                return
        _log.error("follow-ups at %s did not settle", table_id)  # pragma: no cover

    async def published(self) -> None:
        """Until every event this service committed so far was handed to the bus (or given
        up to the relay)."""
        await self._publisher.flush()

    async def close(self) -> None:
        """Publish what is still queued (for a few seconds at most), then stop publishing."""
        await self._publisher.close()

    # --- reading -----------------------------------------------------------------------

    async def load(self, table_id: str) -> Loaded:
        """The table as the store has it now (version 0: no such table)."""
        if not valid_table_id(table_id):
            return Loaded(version=0, state=new_table(table_id))
        entry = await self._entry(table_id)
        if table_id not in self._followed:
            async with self._lock(table_id):
                await self._catch_up(table_id, entry)
        return entry.loaded()

    def cached(self, table_id: str) -> Loaded | None:
        entry = self._cache.get(table_id)
        return None if entry is None else entry.loaded()

    async def events(self, table_id: str, after_version: int = 0) -> list[tuple[int, AnyEvent]]:
        rows = await self._store.read_stream(table_id, after_version)
        return [(row.version, decode_event(row)) for row in rows]

    # --- keeping followed tables current from the bus ------------------------------------

    def add_listener(self, listener: ChangeListener) -> None:
        """`listener(table_id, loaded)` is called after every change the service sees."""
        self._listeners.append(listener)

    def follow(self, table_id: str) -> None:
        self._followed[table_id] = self._followed.get(table_id, 0) + 1

    def unfollow(self, table_id: str) -> None:
        left = self._followed.get(table_id, 0) - 1
        if left > 0:
            self._followed[table_id] = left
        else:
            self._followed.pop(table_id, None)

    async def refresh(self, table_id: str) -> Loaded:
        """Catch up with the store (after subscribing, and whenever a gap shows)."""
        entry = await self._entry(table_id)
        async with self._lock(table_id):
            before = entry.version
            await self._catch_up(table_id, entry)
        if entry.version != before:
            self._changed(table_id, entry)
        return entry.loaded()

    async def on_published(self, message: BusMessage) -> None:
        """A bus handler. A notice is not an event (the bus is not trusted, see
        services/bus/port.py): on news of a version past the one held, the table is read
        from the store and what the store returned is folded. Notices that come while a
        read of the table is in flight are covered by one more read, not one read each."""
        table_id = message.stream_id
        entry = self._cache.get(table_id)
        if entry is None:  # dropped from the cache: load it again if someone is watching
            if table_id in self._followed:
                self._notify(table_id, await self.refresh(table_id))
            return
        if message.version <= entry.version:
            return
        noticed = self._noticed.get(table_id)
        if noticed is not None:  # the read in flight may have started before that commit
            self._noticed[table_id] = max(noticed, message.version)
            return
        self._noticed[table_id] = message.version
        try:
            while True:
                asked = self._noticed[table_id]
                have = (await self.refresh(table_id)).version
                # Once more only for news that came during the read and that it missed: a
                # notice of a version the store does not hold (forged) costs one read.
                if self._noticed[table_id] == asked or have >= self._noticed[table_id]:
                    return
        finally:
            del self._noticed[table_id]

    # --- the write path ----------------------------------------------------------------

    async def _execute(
        self, table_id: str, seat: int, command: Any, command_id: str, *, player: bool = False
    ) -> Outcome:
        for attempt in range(self._retries):
            if attempt:
                # Another writer won the last round, and may be one that moves back to back
                # (a bots worker): a jittered pause lands the next try in another phase of
                # its rhythm, instead of losing to it the same way every time.
                await asyncio.sleep(random.uniform(0, _BACKOFF * attempt))
            entry = await self._entry(table_id)
            async with self._lock(table_id):
                known = entry.commands.get(command_id)
                if known is not None:
                    return await self._repeat(table_id, entry, command_id, known, command, player)
                try:
                    if player:  # on the state the command is decided on: no race with it
                        _check_player(entry.state, seat)
                    events = _decide(entry.state, seat, command)
                except RuleViolation as exc:
                    return _rejected(command_id, entry.version, exc)
                expected = entry.version
                metadata = Metadata(
                    command_id=command_id,
                    seat=seat,
                    player=_player(entry.state, seat),
                    server_time=_now(),
                    command=encode_command(command),
                )
                new = [encode_event(e, table_id) for e in events]
                try:
                    result = await self._store.append(table_id, expected, new, metadata)
                except ConcurrencyError:
                    await self._catch_up_and_tell(table_id, entry)
                    continue  # decide again on what the other writer left
                if result.duplicate:
                    await self._catch_up_and_tell(table_id, entry)
                    last = result.last_version
                    return await self._repeat(table_id, entry, command_id, last, command, player)
                stored = _stored(table_id, expected, new, metadata, result.positions)
                entry.fold(stored)
                state, version = entry.state, entry.version
                self._changed(table_id, entry)
            self._publisher.publish(stored)  # not awaited: see publisher.py
            if version // self._snapshot_every > expected // self._snapshot_every:
                await self._snapshot(table_id, version, state)
            return Outcome(command_id=command_id, accepted=True, version=version)
        busy = RuleViolation("busy", "", "the table kept changing; send the command again")
        return _rejected(command_id, (await self.load(table_id)).version, busy)

    async def _repeat(
        self,
        table_id: str,
        entry: _Entry,
        command_id: str,
        version: int,
        command: Any,
        player: bool,
    ) -> Outcome:
        """The answer to a command id already used: its first outcome, appending nothing.

        A player's id that names ANOTHER command than the one recorded under it is refused
        (`command_id_reused`): answering "accepted, duplicate" would tell the client that a
        move it never made was made. The system's ids are derived from the state they were
        decided on (`auto:<version>`, `timeout:<deal>:<turn>:...`), so one id always names
        one decision and is not compared. A command recorded without its JSON (before the
        service kept it) cannot be compared and counts as the same."""
        if player:
            recorded = entry.recorded.get(command_id)
            if recorded is None:
                recorded = await self._recorded_command(table_id, version)
            if recorded is not None and not _same_command(recorded, encode_command(command)):
                reused = RuleViolation(
                    "command_id_reused",
                    "",
                    f"the command id {command_id!r} was already used for another command; "
                    "send a new command under a new id",
                )
                return _rejected(command_id, entry.version, reused)
        return Outcome(command_id=command_id, accepted=True, version=version, duplicate=True)

    async def _recorded_command(self, table_id: str, version: int) -> bytes | None:
        """The command recorded with the append that ends at `version` (JSON), if any."""
        rows = await self._store.read_stream(table_id, version - 1)
        found = next((r for r in rows if r.version == version), None)
        return None if found is None else bytes(found.metadata.command)

    async def _entry(self, table_id: str) -> _Entry:
        entry = self._cache.get(table_id)
        if entry is not None:
            self._cache.move_to_end(table_id)
            return entry
        try:
            entry = await self._from_store(table_id)
        except Exception as exc:
            if not table_at_fault(exc):
                raise  # the store is away, or this process's key is wrong: not the table's
            # Its stream cannot be folded (an event of another engine version, or written
            # around the service): held like a background loop holds it, and every reader
            # is told so in one sentence instead of a 500.
            self.quarantine.hold(table_id, "gateway", exc)
            await self.quarantine.flush()
            raise RuleViolation(
                "table_unreadable",
                "",
                f"table {table_id} cannot be read: its log holds an event this server cannot "
                "fold; it is quarantined until an operator releases it",
            ) from None
        kept = self._cache.get(table_id)  # another task may have loaded it meanwhile
        if kept is not None and kept.version >= entry.version:
            return kept
        self._cache[table_id] = entry
        while len(self._cache) > self._cache_size:
            old, _ = self._cache.popitem(last=False)
            lock = self._locks.get(old)
            if lock is not None and not lock.locked():
                del self._locks[old]
        return entry

    async def _from_store(self, table_id: str) -> _Entry:
        entry = _Entry(0, new_table(table_id))
        snapshot = await self._store.load_snapshot(table_id, ENGINE_VERSION)
        if snapshot is not None:
            # Only a cache: one that is not this table's (sealed for another, or holding
            # another's state) or cannot be read is passed over and the log folded instead.
            # A wrong seed key (KeyMismatch) is this process's fault and is raised.
            try:
                state = decode_state(snapshot.state, table_id)
            except (msgspec.DecodeError, Unreadable):
                _log.warning("unreadable snapshot of %s at %s", table_id, snapshot.version)
            else:
                if state.table_id == table_id:
                    entry = _Entry(snapshot.version, state)
                else:
                    _log.warning("the snapshot row of %s holds %s", table_id, state.table_id)
        # A little before the snapshot too, to know the recent command ids.
        start = max(0, entry.version - _RECENT_COMMANDS)
        entry.fold(await self._store.read_stream(table_id, start))
        return entry

    async def _catch_up(self, table_id: str, entry: _Entry) -> None:
        entry.fold(await self._store.read_stream(table_id, entry.version))

    async def _catch_up_and_tell(self, table_id: str, entry: _Entry) -> None:
        """Catch up after another writer's append, and tell the listeners what it changed:
        the bus's news of those versions is ignored once the cache holds them, so without
        this a socket here would never be shown them (seen in the soak: a deal dealt by
        the bots worker's timer and by this gateway's, then no view of it for 20 s)."""
        before = entry.version
        await self._catch_up(table_id, entry)
        if entry.version != before:
            self._changed(table_id, entry)

    def _lock(self, table_id: str) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    def _changed(self, table_id: str, entry: _Entry) -> None:
        self._notify(table_id, entry.loaded())

    def _notify(self, table_id: str, loaded: Loaded) -> None:
        for listener in self._listeners:
            listener(table_id, loaded)

    async def _snapshot(self, table_id: str, version: int, state: TableState) -> None:
        snapshot = Snapshot(
            stream_id=table_id,
            version=version,
            engine_version=ENGINE_VERSION,
            state=encode_state(state),
        )
        try:
            await self._store.save_snapshot(snapshot)
        except Exception:  # a cache: never fail a command over it
            _log.exception("snapshot of %s at %s failed", table_id, version)

    async def _stacked(self, table_id: str, state: TableState) -> StackedDeal | None:
        entry = await self._entry(table_id)
        if entry.stacked is False:
            rows = await self._store.read_stream(setup_stream(table_id))
            found = [r for r in rows if r.type == _STACKED_TYPE]
            entry.stacked = msgspec.json.decode(found[0].data, type=StackedDeal) if found else None
        if not isinstance(entry.stacked, StackedDeal):
            return None
        # Asked of the game's state only where a deck was stacked (a game that stacks one:
        # any other table has none, whatever its state looks like): the first deal only.
        game = state.game_state
        if game is None or game.deal != 0 or game.phase != "seeding":
            return None
        return entry.stacked


def _decide(state: TableState, seat: int, command: Any) -> tuple[AnyEvent, ...]:
    """The events of one command, or of a tuple of commands each decided on the state the
    ones before it leave (a table and its host: one append, see create_table)."""
    if not isinstance(command, tuple):
        return decide_table(state, seat, command)
    events: list[AnyEvent] = []
    for one in command:
        decided = decide_table(state, seat, one)
        state = _fold(state, decided)
        events.extend(decided)
    return tuple(events)


def _same_command(recorded: bytes, sent: msgspec.Raw) -> bool:
    """The same command, as JSON values: the store may give back other bytes (PostgreSQL's
    jsonb orders keys its own way). Unknown (JSON null) counts as the same."""
    before = msgspec.json.decode(recorded)
    return before is None or bool(before == msgspec.json.decode(bytes(sent)))


def _fold(state: TableState, events: tuple[AnyEvent, ...]) -> TableState:
    for event in events:
        state = evolve_table(state, event)
    return state


def _stored(
    table_id: str,
    expected: int,
    new: list[NewEvent],
    metadata: Metadata,
    positions: tuple[int, ...],
) -> list[StoredEvent]:
    now = datetime.now(UTC)
    return [
        StoredEvent(
            position=positions[i] if i < len(positions) else 0,
            stream_id=table_id,
            version=expected + i + 1,
            type=event.type,
            data=event.data,
            metadata=metadata,
            recorded_at=now,
        )
        for i, event in enumerate(new)
    ]


def _player(state: TableState, seat: int) -> str | None:
    return state.seats[seat - 1].player if 1 <= seat <= len(state.seats) else None


def _check_player(state: TableState, seat: int) -> None:
    """A seat a bot plays takes no command from its player: the bot completes the match
    (PF-CONN-3/4, PF-BOT-5); a player back meanwhile watches his seat. Else the player
    and the bot would both play it."""
    if played_by_bot(state, seat):
        raise RuleViolation(
            "bot_plays_seat",
            "PF-BOT-5",
            "a bot plays this seat until this match ends; you may watch it, and you take it "
            "back as the next match of the series starts",
        )


def _rejected(command_id: str, version: int, exc: RuleViolation) -> Outcome:
    rejection = Rejection(code=exc.code, rule_id=exc.rule_id, message=exc.message)
    return Outcome(command_id=command_id, accepted=False, version=version, rejection=rejection)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _batch_time(metadata: Metadata) -> datetime | None:
    """The server time of the command that appended an event (None: not recorded)."""
    try:
        moment = datetime.fromisoformat(metadata.server_time)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
