"""Helpers for the bus and relay tests: events, a collecting handler, and a look into
what JetStream really stored for a table."""

from __future__ import annotations

import asyncio
import itertools
import json
import uuid
from datetime import UTC, datetime

import nats.errors
from nats.aio.client import Client as NatsClient
from nats.js.api import DeliverPolicy

from services.bus.nats import STREAM
from services.bus.port import BusMessage, decode_message, subject_for
from services.store.port import Metadata, StoredEvent

__all__ = ["Collector", "event", "jetstream_bodies", "jetstream_versions", "unique_table"]

_positions = itertools.count(1)


def unique_table(prefix: str = "t") -> str:
    """JetStream keeps its messages for the whole session: every test gets fresh tables."""
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def event(stream_id: str, version: int, type_: str = "CardDrawn") -> StoredEvent:
    return StoredEvent(
        position=next(_positions),
        stream_id=stream_id,
        version=version,
        type=type_,
        data=json.dumps({"seat": 1, "n": version}).encode(),
        metadata=Metadata(command_id=f"c-{stream_id}-{version}", seat=1),
        recorded_at=datetime.now(UTC),
    )


class Collector:
    """An async handler that remembers what it got and lets a test wait for it."""

    def __init__(self) -> None:
        self.messages: list[BusMessage] = []
        self._changed = asyncio.Condition()

    async def __call__(self, message: BusMessage) -> None:
        async with self._changed:
            self.messages.append(message)
            self._changed.notify_all()

    @property
    def versions(self) -> list[int]:
        return [m.version for m in self.messages]

    async def wait_for_version(self, version: int, timeout: float = 10.0) -> None:
        async with asyncio.timeout(timeout), self._changed:
            await self._changed.wait_for(lambda: version in self.versions)


async def jetstream_versions(nats_url: str, stream_id: str) -> list[int]:
    """Every message the SAHRA stream holds for the table, read back from the server."""
    return [decode_message(body).version for body in await jetstream_bodies(nats_url, stream_id)]


async def jetstream_bodies(nats_url: str, stream_id: str) -> list[bytes]:
    """The bodies of every message the SAHRA stream holds for the table, as stored; each
    one's Nats-Msg-Id is checked against the notice it carries."""
    nc = NatsClient()
    await nc.connect(nats_url, max_reconnect_attempts=1)
    try:
        js = nc.jetstream()
        subject = subject_for(stream_id)
        info = await js.stream_info(STREAM, subjects_filter=subject)
        count = (info.state.subjects or {}).get(subject, 0)
        sub = await js.subscribe(
            subject, stream=STREAM, ordered_consumer=True, deliver_policy=DeliverPolicy.ALL
        )
        bodies = []
        try:
            for _ in range(count):
                msg = await sub.next_msg(timeout=5)
                assert msg.headers is not None
                msg_id = msg.headers["Nats-Msg-Id"]
                name, _, version = msg_id.rpartition(":")
                body = decode_message(msg.data)
                assert name == body.stream_id == stream_id
                assert int(version) == body.version
                bodies.append(msg.data)
            try:
                extra = await sub.next_msg(timeout=0.2)
            except nats.errors.TimeoutError:
                pass
            else:
                raise AssertionError(f"stream_info said {count} messages, got {extra}")
        finally:
            await sub.unsubscribe()
        return bodies
    finally:
        await nc.close()
