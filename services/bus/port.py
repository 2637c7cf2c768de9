"""The broadcast port: a notice to every process that holds a table that its stream moved.

One subject per table, `sahra.table.<stream_id>`, one message per committed event, with the
JetStream de-duplication id `Nats-Msg-Id = <stream_id>:<version>`. A message is a NOTICE,
not the event: the stream id, the version, the global position and the event type, which
every listener may see. It carries no event data (no hands, no stock order, no secret, no
recorded command), because the bus is not trusted: whoever can publish on a subject could
otherwise hand a gateway an event the store never committed, and whoever can subscribe
would read every hidden card. The store is the only source of truth; a notice only says
"look". A forged notice costs one read of the store that finds nothing new.

Delivery is at-least-once: the writer publishes right after its commit and the relay
publishes whatever the store committed, so the same notice may arrive twice (JetStream
drops the second copy inside its duplicate window, but not after it).

The subscriber contract, therefore:
- keep the table's version `have` (folded from the store);
- subscribe FIRST, then load the table from the store, so no event falls between the
  two (a subscription only sees events published after `subscribe` returns);
- a notice with `version <= have` is a duplicate or already folded: ignore it;
- a notice with `version > have`: read the stream from the store after `have` and fold
  what the store returns (which may be less than the notice claims, or more).
While the bus is away (`status().connected` is False, or `outages` moved on since the
subscription was made) a subscription may have missed notices: read the store instead.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

import msgspec

from services.store.port import StoredEvent

__all__ = [
    "SUBJECT_PREFIX",
    "Bus",
    "BusError",
    "BusMessage",
    "BusStatus",
    "Handler",
    "PublishResult",
    "Subscription",
    "decode_message",
    "encode_event",
    "is_subject_token",
    "message_id",
    "notice_of",
    "subject_for",
]

SUBJECT_PREFIX = "sahra.table."

# A stream id becomes one subject token: no dots (they split tokens), no wildcards, no
# whitespace or control characters (they end the token on the wire).
_TOKEN = re.compile(r"[^.*>\s\x00-\x1f\x7f]+")


class BusError(Exception):
    """The bus could not be reached or did not confirm a publish; safe to retry."""


class BusMessage(msgspec.Struct, frozen=True, kw_only=True):
    """A notice that a stream reached `version`: what every listener may see, no event
    data. Unknown fields are ignored on decoding (a field added in a rolling deploy must
    not make older subscribers drop messages), and never read: a message in the old
    format, with the event inside, is taken for a notice like any other."""

    position: int  # global store position (informational: order by `version`)
    stream_id: str
    version: int
    type: str  # the event's type, e.g. "CardDrawn" (never its fields)


class BusStatus(msgspec.Struct, frozen=True, kw_only=True):
    """Whether the bus delivers now, and how many times the connection was lost since it
    was made: a subscription made before the last outage may have missed notices."""

    connected: bool
    outages: int = 0


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
        """Publish the notice of each committed event (`notice_of`: never its data), in
        the given order, and wait until each is stored (acknowledged).

        Raises BusError when that cannot be confirmed; publishing again is then safe."""
        ...

    async def subscribe(self, stream_id: str, handler: Handler) -> Subscription:
        """Call `handler` for each notice of the table published after this returns.

        Handlers of one subscription run one at a time in publication order. An
        exception from a handler is logged and delivery goes on. Duplicates and gaps
        are possible: see the module docstring for what a handler does about them.
        Raises BusError at once when the bus is not connected."""
        ...

    def status(self) -> BusStatus:
        """The connection now (no I/O)."""
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


def notice_of(event: StoredEvent) -> BusMessage:
    """The notice of a committed event: its place in the store and its type, nothing of
    what it says."""
    return BusMessage(
        position=event.position,
        stream_id=event.stream_id,
        version=event.version,
        type=event.type,
    )


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(BusMessage)


def encode_event(event: StoredEvent) -> bytes:
    """The wire form of a committed event: its notice, as JSON."""
    return _encoder.encode(notice_of(event))


def decode_message(body: bytes) -> BusMessage:
    """Raises msgspec.ValidationError / DecodeError on a malformed body."""
    return _decoder.decode(body)
