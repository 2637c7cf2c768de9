"""The deadlines before a deal: the client seed window, the host's cut and the end-of-deal
screen (PF-AMB-12 h, PF-CUT-2, PF-CUT-3, PF-REVEAL-1/3).

Once a deal's secret is committed, each human seat may send a client seed (one). The deal
is dealt as soon as every human seat has sent one (a follow-up, `followups.py`), or when
the seed window closes (SAHRA_SEED_WINDOW_SECONDS, default 3). In `classic` the first deal
is cut by the host, and the window runs its course first too: when it closes (its time, or
every seed in) the system records it (SeedWindowClosed), and only then may the host cut;
when he has not cut within SAHRA_CUT_SECONDS (default 15) from that moment, the system cuts
at the position drawn from the secret (PF-CUT-3, PF-AMB-2). A deal that follows another is
dealt no sooner than SAHRA_REVEAL_SECONDS (default 8) after the deal before it ended, so
every seat sees the hands and the scores of that deal for that long (PF-REVEAL-3); this
timer deals it.

The clock is an asyncio timer in the gateway process, armed whenever the service sees a
table waiting in that phase: after its own append, on news from the bus, and when a table
is loaded again after a restart. The deadline counts from the server time of the event that
began the wait (the SeedCommitted, or the SeedWindowClosed for the cut), so a restart does
not give the seats a new window. When it fires, the system's command goes through the
normal write path under a fixed command id (`auto:deal:<deal>`, `auto:close:<deal>`,
`auto:cut:<deal>`): every gateway that follows the table may fire it, and the store
appends it once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, Literal

import msgspec

from services.store.port import EventStore
from services.tables.followups import (
    SYSTEM,
    close_command_id,
    cut_command_id,
    deal_command_id,
    window_may_close,
)
from services.tables.games import awaits_cut, game_named, game_of, system_command

__all__ = ["CUT_ENV", "REVEAL_ENV", "WINDOW_ENV", "Deadlines", "SeedTiming", "due"]

_log = logging.getLogger(__name__)

WINDOW_ENV = "SAHRA_SEED_WINDOW_SECONDS"
CUT_ENV = "SAHRA_CUT_SECONDS"
REVEAL_ENV = "SAHRA_REVEAL_SECONDS"
_TAIL = 64  # events read back to find when the deal was committed (a seeded deal is short)

Kind = Literal["deal", "close", "cut"]
# The events a wait counts from, by kind: the cut's 15 s run from the window's close (a
# stacked deck has no window: from the deck).
_BEGAN: dict[str, tuple[str, ...]] = {
    "deal": ("SeedCommitted", "DeckStacked"),
    "close": ("SeedCommitted",),
    "cut": ("SeedWindowClosed", "DeckStacked"),
}
# The system's command when a wait of each kind is over (PF-AMB-12 h, PF-CUT-3).
_COMMAND: dict[str, str] = {"deal": "Deal", "close": "CloseSeedWindow", "cut": "Cut"}
Issue = Callable[[str, int, Any, str], Awaitable[object]]  # (table, seat, command, id)


_WINDOW = 3.0
_CUT = 15.0
_REVEAL = 8.0


class SeedTiming(msgspec.Struct, frozen=True, kw_only=True):
    seed_window: float = _WINDOW  # seconds for the client seeds before a deal (0: at once)
    cut_seconds: float = _CUT  # PF-CUT-2: the host's time to cut
    reveal_seconds: float = _REVEAL  # PF-REVEAL-3: the end-of-deal screen before the next

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> SeedTiming:
        """From SAHRA_SEED_WINDOW_SECONDS, SAHRA_CUT_SECONDS and SAHRA_REVEAL_SECONDS;
        ValueError for a value that is not a number of seconds (0 or more)."""
        env = os.environ if environ is None else environ
        return cls(
            seed_window=_seconds(env, WINDOW_ENV, _WINDOW),
            cut_seconds=_seconds(env, CUT_ENV, _CUT),
            reveal_seconds=_seconds(env, REVEAL_ENV, _REVEAL),
        )


def _seconds(env: Any, name: str, default: float) -> float:
    text = env.get(name)
    if text in (None, ""):
        return default
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < 86_400:
        raise ValueError(f"{name} must be a number of seconds from 0, not {text!r}")
    return value


class Due(msgspec.Struct, frozen=True, kw_only=True):
    """What a table waits for, and how long it may wait at most."""

    kind: Kind
    deal: int
    seconds: float
    game: str  # the table's game, whose command ends the wait


def due(state: Any, timing: SeedTiming) -> Due | None:
    """The deadline a table (`engine.table.TableState`) is under now, if any; never one
    for a unit that a seat draws itself (`Unit.timed_deal` False: the dice tool's roll)."""
    game = state.game_state
    if state.status != "playing" or game is None:
        return None
    rules = game_of(state)
    life = rules.unit.lifecycle(game)  # the table's fairness lifecycle (engine/fairness.py)
    if not life.committed or not rules.unit.timed_deal:
        return None  # nothing to time: no unit waits, or a seat's own command draws it
    if awaits_cut(rules, game):
        if life.window:  # PF-AMB-12 h: the seeds first, before the host may cut
            if window_may_close(state, timing.seed_window):
                return None  # closed by the follow-ups at once
            return Due(kind="close", deal=life.unit, seconds=timing.seed_window, game=rules.name)
        if state.seats[game.host - 1].kind != "human":
            return None  # a bot host cuts as its move
        return Due(kind="cut", deal=life.unit, seconds=timing.cut_seconds, game=rules.name)
    # PF-REVEAL-1/3: after a deal the hands stay shown this long before the next is dealt.
    # The next deal's seed is committed as the last one ends, so both count from then.
    pause = timing.reveal_seconds if life.unit > 1 else 0.0
    window = timing.seed_window
    if window_may_close(state, window):
        window = 0.0  # dealt as soon as the pause allows: no seed to wait for
    seconds = max(window, pause)
    if seconds <= 0:
        return None  # dealt by the follow-ups at once
    return Due(kind="deal", deal=life.unit, seconds=seconds, game=rules.name)


class _Armed:
    __slots__ = ("due", "task")

    def __init__(self, due: Due, task: asyncio.Task[None]) -> None:
        self.due = due
        self.task = task


class Deadlines:
    """One timer per waiting table; `consider` it after every change of the table."""

    def __init__(self, issue: Issue, timing: SeedTiming, store: EventStore) -> None:
        self._issue = issue
        self.timing = timing
        self._store = store
        self._armed: dict[str, _Armed] = {}
        self._closed = False

    def armed(self, table_id: str) -> Due | None:
        found = self._armed.get(table_id)
        return None if found is None else found.due

    def consider(self, table_id: str, loaded: Any) -> None:
        """Arm, keep or drop the table's timer for its state now (`tables.Loaded`). Called
        from the service's change listener, so it never waits: the timer does the I/O."""
        now_due = due(loaded.state, self.timing)
        current = self._armed.get(table_id)
        if current is not None and current.due == now_due:
            return
        if current is not None:
            current.task.cancel()
            del self._armed[table_id]
        if now_due is None or self._closed:
            return
        task = asyncio.create_task(
            self._run(table_id, now_due, loaded.version), name=f"deadline:{table_id}"
        )
        self._armed[table_id] = _Armed(now_due, task)

    async def close(self) -> None:
        self._closed = True
        armed = list(self._armed.values())
        self._armed.clear()
        for entry in armed:
            entry.task.cancel()
        for entry in armed:
            with contextlib.suppress(asyncio.CancelledError):
                await entry.task

    async def _run(self, table_id: str, due: Due, version: int) -> None:
        started = await self._began_at(table_id, version, _BEGAN[due.kind])
        elapsed = (datetime.now(UTC) - started).total_seconds()
        await asyncio.sleep(max(0.0, due.seconds - max(0.0, elapsed)))
        # Off the books before issuing: the append's own change notice must not cancel us.
        entry = self._armed.get(table_id)
        if entry is not None and entry.task is asyncio.current_task():
            del self._armed[table_id]
        command: Any = system_command(game_named(due.game), _COMMAND[due.kind])
        if due.kind == "deal":
            command_id = deal_command_id(due.deal)
        elif due.kind == "close":
            command_id = close_command_id(due.deal)
        else:
            command_id = cut_command_id(due.deal)  # PF-CUT-3: the system's cut, no position
        try:
            outcome = await self._issue(table_id, SYSTEM, command, command_id)
        except Exception:  # the next change of the table arms the timer again
            _log.exception("the timed %s of deal %s at %s failed", due.kind, due.deal, table_id)
            return
        _log.debug("timed %s of deal %s at %s: %s", due.kind, due.deal, table_id, outcome)

    async def _began_at(self, table_id: str, version: int, kinds: tuple[str, ...]) -> datetime:
        """When the newest event of `kinds` was appended: the wait began then (now, if it
        cannot be read)."""
        now = datetime.now(UTC)
        try:
            rows = await self._store.read_stream(table_id, max(0, version - _TAIL))
        except Exception:
            _log.warning("cannot read when deal seeding began at %s", table_id, exc_info=True)
            return now
        for row in reversed(rows):
            if row.type in kinds and row.version <= version:
                try:
                    when = datetime.fromisoformat(row.metadata.server_time)
                except ValueError:
                    return now
                return when if when.tzinfo else when.replace(tzinfo=UTC)
        return now
