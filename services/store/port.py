"""The event store port: what the application needs from storage, and nothing more.

One stream per table. `append` is optimistic: it names the version it expects the stream
to be at and fails with ConcurrencyError when another writer got there first. A command
id is unique per stream, so a repeated command appends nothing and gets its first
outcome back. Reading "all" is by a checkpoint that never skips an event committed out of
order by concurrent writers (see the PostgreSQL adapter for how).

A seat's preferences (its hand order, PF-SORT) are kept beside its table, one value per
(table, seat, name): presentation, never an event.

A table a background process cannot handle is quarantined: a row per (table, process)
that every loop reads to leave the table alone, and an operator lists and releases.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

import msgspec

__all__ = [
    "NO_COMMAND",
    "AppendResult",
    "Checkpoint",
    "ConcurrencyError",
    "EventStore",
    "Metadata",
    "NewEvent",
    "Quarantined",
    "Snapshot",
    "StoredEvent",
    "reason_text",
]

_REASON_CHARS = 500  # a reason is a line for an operator, not a dump


class ConcurrencyError(Exception):
    """The stream was not at the expected version: re-decide on fresh state."""

    def __init__(self, stream_id: str, expected: int) -> None:
        super().__init__(f"stream {stream_id!r} is no longer at version {expected}")
        self.stream_id = stream_id
        self.expected = expected


NO_COMMAND = msgspec.Raw(b"null")


class Metadata(msgspec.Struct, frozen=True, kw_only=True):
    command_id: str
    seat: int | None = None  # 0 = the system
    player: str | None = None
    server_time: str = ""  # ISO 8601, set by the service that decided the command
    # The command itself as JSON (its "type" tag and fields), so that an auditor can decide
    # it again (`sahra verify`). A system command that holds a secret is recorded without
    # it (CommitSeed). JSON null: appended by code that records no command (or before it
    # did). Raw: kept as the JSON it is, read only by the auditor.
    command: msgspec.Raw = msgspec.field(default_factory=lambda: NO_COMMAND)


class NewEvent(msgspec.Struct, frozen=True, kw_only=True):
    type: str
    data: bytes  # JSON


class StoredEvent(msgspec.Struct, frozen=True, kw_only=True):
    position: int  # global and unique; read_all goes by Checkpoint, not by position alone
    stream_id: str
    version: int  # 1, 2, 3 … within the stream
    type: str
    data: bytes  # the appended JSON: the same value, not necessarily the same bytes
    metadata: Metadata
    recorded_at: datetime


class AppendResult(msgspec.Struct, frozen=True, kw_only=True):
    first_version: int
    last_version: int
    duplicate: bool = False  # True: this command id was seen before; nothing appended
    positions: tuple[int, ...] = ()  # global positions of the appended (or first) events


class Checkpoint(msgspec.Struct, frozen=True, order=True):
    """Where a catch-up reader stands. Adapters define the order; (0, 0) is the start."""

    txid: int = 0
    position: int = 0


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    stream_id: str
    version: int
    engine_version: str
    state: bytes  # JSON of the folded state


class Quarantined(msgspec.Struct, frozen=True, kw_only=True):
    """A table one background process left alone, and why."""

    stream_id: str
    process: str  # the loop that found it: "clock", "bots", "relay", "tables-in-play"
    reason: str
    version: int = 0  # the table's version when it failed
    position: int = 0  # the global position of the event it failed on (0: none)
    since: datetime


def reason_text(reason: str) -> str:
    """A reason as stored: one bounded line, without the NUL that PostgreSQL refuses."""
    line = " ".join(reason.replace("\x00", "\\x00").split())
    return line if len(line) <= _REASON_CHARS else line[: _REASON_CHARS - 1] + "…"


class EventStore(Protocol):
    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        metadata: Metadata,
    ) -> AppendResult:
        """Append in one round trip; ConcurrencyError when the stream is not at
        `expected_version` (0 = a new stream). A command id this stream has seen appends
        nothing and returns its first outcome, duplicate=True, whatever the expected
        version. ValueError when there are no events."""
        ...

    async def read_stream(self, stream_id: str, after_version: int = 0) -> list[StoredEvent]: ...

    async def stream_version(self, stream_id: str) -> int: ...

    async def read_all(
        self, after: Checkpoint, limit: int = 500
    ) -> tuple[list[StoredEvent], Checkpoint]:
        """Committed events after `after`, each stream in version order, and the
        checkpoint to read from next (`after` itself when there is nothing new)."""
        ...

    async def read_types(
        self, types: Sequence[str], after_position: int = 0, since: datetime | None = None
    ) -> list[StoredEvent]:
        """Every event of one of `types` after the global position and recorded at or after
        `since`, in position order: how `sahra verify --all` finds each finished unit of
        play by the events that end one (protocol.Unit.ending), without reading the log."""
        ...

    async def load_checkpoint(self, name: str) -> Checkpoint:
        """The checkpoint saved under `name` by a catch-up reader; Checkpoint() if none."""
        ...

    async def save_checkpoint(self, name: str, checkpoint: Checkpoint) -> None: ...

    async def save_snapshot(self, snapshot: Snapshot) -> None:
        """Keep the snapshot unless one of a later version is already stored for the same
        stream and engine version."""
        ...

    async def load_snapshot(self, stream_id: str, engine_version: str) -> Snapshot | None: ...

    async def quarantine(
        self, stream_id: str, process: str, reason: str, *, version: int = 0, position: int = 0
    ) -> bool:
        """Hold the table for `process`; False when that process already holds it (the
        first report is kept)."""
        ...

    async def quarantined(self) -> list[Quarantined]:
        """Every held table, per process, the oldest first."""
        ...

    async def release(self, stream_id: str) -> int:
        """Release the table for every process; how many holds were removed."""
        ...

    async def save_preference(self, stream_id: str, seat: int, name: str, value: bytes) -> None:
        """Keep `value` (JSON) as the seat's preference `name` at that table, replacing the
        one before; appends no event."""
        ...

    async def preference(self, stream_id: str, seat: int, name: str) -> bytes | None:
        """The seat's preference `name` at that table (the same JSON value, not necessarily
        the same bytes), or None when it chose none."""
        ...

    async def close(self) -> None: ...
