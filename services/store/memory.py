"""The in-memory adapter of the event store port, for tests and single-process runs.

It behaves like the PostgreSQL adapter (the conformance suite runs over both): an append
is atomic under one lock and commits at once, so commit order is position order and each
event's txid is simply its position.
"""

from __future__ import annotations

import asyncio
import bisect
from collections.abc import Sequence
from datetime import UTC, datetime

import msgspec

from services.store.port import (
    AppendResult,
    Checkpoint,
    ConcurrencyError,
    Metadata,
    NewEvent,
    Quarantined,
    Snapshot,
    StoredEvent,
    reason_text,
)

__all__ = ["MemoryEventStore"]


class MemoryEventStore:
    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._all: list[StoredEvent] = []  # in position order; position = index + 1
        self._streams: dict[str, list[StoredEvent]] = {}
        self._commands: dict[tuple[str, str], AppendResult] = {}
        self._snapshots: dict[tuple[str, str], Snapshot] = {}
        self._checkpoints: dict[str, Checkpoint] = {}
        self._quarantine: dict[tuple[str, str], Quarantined] = {}
        self._preferences: dict[tuple[str, int, str], bytes] = {}

    async def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        metadata: Metadata,
    ) -> AppendResult:
        if not events:
            raise ValueError("an append needs at least one event")
        async with self._lock:
            first = self._commands.get((stream_id, metadata.command_id))
            if first is not None:
                return msgspec.structs.replace(first, duplicate=True)
            stream = self._streams.setdefault(stream_id, [])
            if len(stream) != expected_version:
                raise ConcurrencyError(stream_id, expected_version)
            # A JSON round trip, as the database does, so both adapters hand back the same
            # shapes and a caller cannot mutate what was stored.
            meta = msgspec.json.decode(msgspec.json.encode(metadata), type=Metadata)
            now = datetime.now(UTC)
            for i, new in enumerate(events, start=1):
                stored = StoredEvent(
                    position=len(self._all) + 1,
                    stream_id=stream_id,
                    version=expected_version + i,
                    type=new.type,
                    data=bytes(new.data),
                    metadata=meta,
                    recorded_at=now,
                )
                self._all.append(stored)
                stream.append(stored)
            result = AppendResult(
                first_version=expected_version + 1,
                last_version=expected_version + len(events),
                positions=tuple(e.position for e in stream[expected_version:]),
            )
            self._commands[stream_id, metadata.command_id] = result
            return result

    async def read_stream(self, stream_id: str, after_version: int = 0) -> list[StoredEvent]:
        return self._streams.get(stream_id, [])[max(after_version, 0) :]

    async def stream_version(self, stream_id: str) -> int:
        return len(self._streams.get(stream_id, []))

    async def read_all(
        self, after: Checkpoint, limit: int = 500
    ) -> tuple[list[StoredEvent], Checkpoint]:
        # txid = position here, so the (txid, position) order is the position order.
        start = bisect.bisect_right(self._all, after, key=_checkpoint_of)
        events = self._all[start : start + limit]
        return events, _checkpoint_of(events[-1]) if events else after

    async def read_types(
        self, types: Sequence[str], after_position: int = 0, since: datetime | None = None
    ) -> list[StoredEvent]:
        kinds = set(types)
        return [
            e
            for e in self._all[max(after_position, 0) :]  # position = index + 1
            if e.type in kinds and (since is None or e.recorded_at >= since)
        ]

    async def load_checkpoint(self, name: str) -> Checkpoint:
        return self._checkpoints.get(name, Checkpoint())

    async def save_checkpoint(self, name: str, checkpoint: Checkpoint) -> None:
        self._checkpoints[name] = checkpoint

    async def save_snapshot(self, snapshot: Snapshot) -> None:
        key = (snapshot.stream_id, snapshot.engine_version)
        kept = self._snapshots.get(key)
        if kept is None or kept.version <= snapshot.version:
            self._snapshots[key] = snapshot

    async def load_snapshot(self, stream_id: str, engine_version: str) -> Snapshot | None:
        return self._snapshots.get((stream_id, engine_version))

    async def quarantine(
        self, stream_id: str, process: str, reason: str, *, version: int = 0, position: int = 0
    ) -> bool:
        key = (stream_id, process)
        if key in self._quarantine:
            return False
        self._quarantine[key] = Quarantined(
            stream_id=stream_id,
            process=process,
            reason=reason_text(reason),
            version=version,
            position=position,
            since=datetime.now(UTC),
        )
        return True

    async def quarantined(self) -> list[Quarantined]:
        return sorted(self._quarantine.values(), key=lambda q: (q.since, q.stream_id, q.process))

    async def release(self, stream_id: str) -> int:
        keys = [key for key in self._quarantine if key[0] == stream_id]
        for key in keys:
            del self._quarantine[key]
        return len(keys)

    async def save_preference(self, stream_id: str, seat: int, name: str, value: bytes) -> None:
        # A JSON round trip, as the database's jsonb does: the same value, its own bytes.
        self._preferences[(stream_id, seat, name)] = msgspec.json.encode(msgspec.json.decode(value))

    async def preference(self, stream_id: str, seat: int, name: str) -> bytes | None:
        return self._preferences.get((stream_id, seat, name))

    async def close(self) -> None:
        pass


def _checkpoint_of(event: StoredEvent) -> Checkpoint:
    return Checkpoint(event.position, event.position)
