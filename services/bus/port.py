"""The broadcast port: committed events out to every process that holds a table.

One subject per table, `sahra.table.<stream_id>`, one message per event, with the
JetStream de-duplication id `Nats-Msg-Id = <stream_id>:<version>`. Delivery is
at-least-once: the writer publishes right after its commit and the relay publishes
whatever the store committed, so the same event may be published twice (JetStream drops
the second copy inside its duplicate window, but not after it).

The subscriber contract, therefore:
- keep the table's version `have` (folded from the store);
- subscribe FIRST, then load the table from the store, so no event falls between the
  two (a subscription only sees events published after `subscribe` returns);
- a message with `version <= have` is a duplicate or already folded: ignore it;
- `version == have + 1` is the next event: fold it;
- `version > have + 1` means one was missed or is still on its way (a writer died
  between commit and publish, and the relay is behind): read the stream from the store
  after `have` instead of waiting.
The store stays the source of truth; the bus only says "look, something happened".
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

import msgspec

from services.store.port import Metadata, StoredEvent

__all__ = [
    "SUBJECT_PREFIX",
    "Bus",
    "BusError",
    "BusMessage",
    "Handler",
    "PublishResult",
    "Subscription",
    "decode_message",
    "encode_event",
    "is_subject_token",
    "message_id",
    "subject_for",
]

SUBJECT_PREFIX = "sahra.table."

# A stream id becomes one subject token: no dots (they split tokens), no wildcards, no
# whitespace or control characters (they end the token on the wire).
_TOKEN = re.compile(r"[^.*>\s\x00-\x1f\x7f]+")


class BusError(Exception):
    """The bus could not be reached or did not confirm a publish; safe to retry."""


class BusMessage(msgspec.Struct, frozen=True, kw_only=True):
    """One committed event, as a subscriber receives it."""

    position: int  # global store position (informational: order by `version`)
    stream_id: str
    version: int
    type: str
    data: bytes  # the event's JSON, as stored
    metadata: Metadata


class PublishResult(msgspec.Struct, frozen=True, kw_only=True):
    stored: int = 0  # newly stored and delivered
    duplicates: int = 0  # already published inside the duplicate window: dropped


Handler = Callable[[BusMessage], Awaitable[None]]


class Subscription(Protocol):
    async def unsubscribe(self) -> None:
        """Stop delivery; the handler is not called again once this returns."""
        ...


class Bus(Protocol):
    async def publish(self, events: Sequence[StoredEvent]) -> PublishResult:
        """Publish in the given order and wait until each is stored (acknowledged).

        Raises BusError when that cannot be confirmed; publishing again is then safe."""
        ...

    async def subscribe(self, stream_id: str, handler: Handler) -> Subscription:
        """Call `handler` for each event of the table published after this returns.

        Handlers of one subscription run one at a time in publication order. An
        exception from a handler is logged and delivery goes on. Duplicates and gaps
        are possible: see the module docstring for what a handler does about them."""
        ...

    async def close(self) -> None: ...


def is_subject_token(stream_id: str) -> bool:
    return _TOKEN.fullmatch(stream_id) is not None


def subject_for(stream_id: str) -> str:
    if not is_subject_token(stream_id):
        raise ValueError(f"stream id {stream_id!r} cannot be a NATS subject token")
    return SUBJECT_PREFIX + stream_id


def message_id(stream_id: str, version: int) -> str:
    return f"{stream_id}:{version}"


class _Wire(msgspec.Struct, frozen=True, kw_only=True):
    # Unknown fields are tolerated on purpose: publishers are our own services, and a
    # field added in a rolling deploy must not make older subscribers drop messages.
    position: int
    stream_id: str
    version: int
    type: str
    data: msgspec.Raw  # embedded as JSON, not as a base64 string
    metadata: Metadata


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(_Wire)


def encode_event(event: StoredEvent) -> bytes:
    return _encoder.encode(
        _Wire(
            position=event.position,
            stream_id=event.stream_id,
            version=event.version,
            type=event.type,
            data=msgspec.Raw(event.data),
            metadata=event.metadata,
        )
    )


def decode_message(body: bytes) -> BusMessage:
    """Raises msgspec.ValidationError / DecodeError on a malformed body."""
    wire = _decoder.decode(body)
    return BusMessage(
        position=wire.position,
        stream_id=wire.stream_id,
        version=wire.version,
        type=wire.type,
        data=bytes(wire.data),
        metadata=wire.metadata,
    )
