"""The bus on NATS JetStream: one stream `SAHRA` capturing `sahra.table.>`.

Publishing is `js.publish` with `Nats-Msg-Id = <stream_id>:<version>`, awaiting the
PubAck one event at a time so the stream holds a table's events in the order given
(a pipelined batch that failed half-way could store v3 without v2).

Subscriptions are JetStream ordered consumers (ephemeral, in-memory, flow-controlled,
`deliver_policy=new`) filtered on the one table's subject, rather than core NATS
subscriptions, because:
- they deliver only what the stream stored, so duplicate publishes dropped by the
  duplicate window never reach handlers (a core subscriber sees every raw publish);
- the client tracks the stream sequence and re-creates the consumer after a gap or a
  reconnect, so a gateway that loses its connection for a moment resumes where it was
  instead of silently missing events.
The price is one small server-side consumer per (gateway, table). At many thousand
tables per gateway, one consumer per gateway filtered on its shard's subjects, with
local dispatch, is the next step.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from urllib.parse import urlsplit, urlunsplit

import msgspec
import nats.errors
import nats.js.errors
from nats.aio.client import Client as NatsClient
from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.api import DeliverPolicy, DiscardPolicy, RetentionPolicy, StorageType, StreamConfig

from services.bus.port import (
    SUBJECT_PREFIX,
    BusError,
    Handler,
    PublishResult,
    decode_message,
    encode_event,
    message_id,
    subject_for,
)
from services.store.port import StoredEvent

__all__ = ["STREAM", "NatsBus", "NatsSubscription"]

STREAM = "SAHRA"

_log = logging.getLogger(__name__)
_MSG_ID = "Nats-Msg-Id"
_STREAM_NAME_IN_USE = 10058  # JetStream err_code: same name, different configuration


class NatsSubscription:
    def __init__(self, sub: JetStreamContext.PushSubscription) -> None:
        self._sub = sub

    async def unsubscribe(self) -> None:
        # Closed connection or a second call: nothing left to stop. The ephemeral
        # consumer is removed by the server once nobody listens on its inbox.
        gone = (nats.errors.ConnectionClosedError, nats.errors.BadSubscriptionError)
        with contextlib.suppress(*gone):
            await self._sub.unsubscribe()


class NatsBus:
    def __init__(
        self, nc: NatsClient, js: JetStreamContext, stream: str, state: _ConnectionState
    ) -> None:
        self._nc = nc
        self._js = js
        self._stream = stream
        self._state = state

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        timeout: float = 5.0,
        stream: str = STREAM,
        duplicate_window: float = 120.0,
        max_age: float = 24 * 3600.0,
        replicas: int = 1,
        name: str = "sahra",
    ) -> NatsBus:
        """Connect (giving up after `timeout` seconds) and make sure the stream exists.

        A stream that already exists is left as it is: operations may have tuned it."""
        state = _ConnectionState()
        nc = NatsClient()
        try:
            # nats-py retries the first connection forever with these options; the
            # deadline is ours. Once connected it reconnects forever, and publishes
            # meanwhile fail with BusError after `timeout`.
            await asyncio.wait_for(
                nc.connect(
                    url,
                    name=name,
                    connect_timeout=max(1, round(timeout)),
                    reconnect_time_wait=1,
                    max_reconnect_attempts=-1,
                    error_cb=state.on_error,
                    disconnected_cb=state.on_disconnected,
                    reconnected_cb=state.on_reconnected,
                ),
                timeout,
            )
        except (OSError, TimeoutError, nats.errors.Error, ValueError) as e:
            await nc.close()
            cause = state.last_error or e
            raise BusError(
                f"cannot reach NATS at {_redact(url)} within {timeout:g} s: {_describe(cause)}"
            ) from None
        js = nc.jetstream(timeout=timeout)
        config = StreamConfig(
            name=stream,
            subjects=[SUBJECT_PREFIX + ">"],
            retention=RetentionPolicy.LIMITS,
            discard=DiscardPolicy.OLD,
            storage=StorageType.FILE,
            duplicate_window=duplicate_window,
            max_age=max_age,
            num_replicas=replicas,
        )
        try:
            await js.add_stream(config)  # idempotent when the configuration matches
        except nats.js.errors.BadRequestError as e:
            if e.err_code != _STREAM_NAME_IN_USE:
                await nc.close()
                raise BusError(f"cannot create stream {stream}: {e.description}") from None
        except nats.js.errors.ServiceUnavailableError:
            await nc.close()
            raise BusError(f"JetStream is not enabled on the NATS at {_redact(url)}") from None
        except (nats.errors.Error, TimeoutError) as e:
            await nc.close()
            raise BusError(f"JetStream at {_redact(url)} failed: {_describe(e)}") from None
        state.connected = True  # from now on, connection trouble is worth a log line
        return cls(nc, js, stream, state)

    async def publish(self, events: Sequence[StoredEvent]) -> PublishResult:
        stored = duplicates = 0
        for event in events:
            key = message_id(event.stream_id, event.version)
            try:
                ack = await self._js.publish(
                    subject_for(event.stream_id),
                    encode_event(event),
                    stream=self._stream,  # fail loudly if another stream captured it
                    headers={_MSG_ID: key},
                )
            except (nats.errors.Error, OSError, TimeoutError) as e:
                raise BusError(f"publish of {key} not confirmed: {_describe(e)}") from e
            if ack.duplicate:
                duplicates += 1
            else:
                stored += 1
        return PublishResult(stored=stored, duplicates=duplicates)

    async def subscribe(self, stream_id: str, handler: Handler) -> NatsSubscription:
        subject = subject_for(stream_id)

        async def on_message(msg: Msg) -> None:
            try:
                message = decode_message(msg.data)
            except (msgspec.DecodeError, msgspec.ValidationError) as e:
                _log.warning("bus: undecodable message on %s dropped: %s", msg.subject, e)
                return
            try:
                await handler(message)
            except Exception:
                _log.exception("bus handler failed on %s", message_id(stream_id, message.version))

        try:
            sub = await self._js.subscribe(
                subject,
                stream=self._stream,
                cb=on_message,
                ordered_consumer=True,
                deliver_policy=DeliverPolicy.NEW,
            )
        except (nats.errors.Error, OSError, TimeoutError) as e:
            raise BusError(f"cannot subscribe to {subject}: {_describe(e)}") from e
        return NatsSubscription(sub)

    async def close(self) -> None:
        self._state.connected = False
        if not self._nc.is_closed:
            await self._nc.close()


class _ConnectionState:
    """Keeps nats-py's background errors out of the way until we are connected."""

    def __init__(self) -> None:
        self.connected = False
        self.last_error: BaseException | None = None

    async def on_error(self, error: Exception) -> None:
        self.last_error = error
        if self.connected:
            _log.warning("nats: %s", _describe(error))

    async def on_disconnected(self) -> None:
        if self.connected:
            _log.warning("nats: disconnected, reconnecting")

    async def on_reconnected(self) -> None:
        _log.info("nats: reconnected")


def _describe(error: BaseException) -> str:
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _redact(url: str) -> str:
    """The URL without a password, for messages."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<invalid url>"
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))
