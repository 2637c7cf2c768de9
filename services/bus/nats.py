"""The bus on NATS JetStream: one stream `SAHRA` capturing `sahra.table.>`.

Publishing sends every event of a batch with `Nats-Msg-Id = <stream_id>:<version>` first
and then waits for all their PubAcks (one round trip per batch, not one per event). One
connection delivers its messages to the server in the order sent, so the stream holds a
table's events in the order given. Only a failure half-way (an ack lost in a leader change,
say) can leave v3 stored without v2; then `publish` raises BusError, publishing the batch
again is safe (JetStream drops the copies), and subscribers cope meanwhile: a version past
the next one makes them read the store (see services/bus/port.py).

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

While the connection is down, publishing and subscribing fail at once (BusError) instead
of filling nats-py's reconnect buffer and waiting for a timeout: the relay publishes later,
and a gateway reads the store meanwhile. `status()` counts the outages, because an ordered
consumer can come back from one only by itself after missing two heartbeats (10 s), and
not at all when the server lost it (a restart): a subscriber resubscribes instead.

Credentials travel in the URL (`nats://user:password@host:4222`), which nats-py reads;
every message about the URL hides the password.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import Any
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
    BusStatus,
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
_EXPECTED_STREAM = "Nats-Expected-Stream"
_STATUS = "Status"
_NO_RESPONDERS = "503"
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
        self,
        nc: NatsClient,
        js: JetStreamContext,
        stream: str,
        state: _ConnectionState,
        timeout: float = 5.0,
    ) -> None:
        self._nc = nc
        self._js = js
        self._stream = stream
        self._state = state
        self._timeout = timeout
        self._acks: _Acks | None = None  # made on the first publish
        self._acks_lock = asyncio.Lock()

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
        return cls(nc, js, stream, state, timeout)

    async def publish(self, events: Sequence[StoredEvent]) -> PublishResult:
        # Validated before anything is sent: a bad stream id publishes nothing.
        subjects = [subject_for(event.stream_id) for event in events]
        if not events:
            return PublishResult()
        self._check_connected()
        acks = self._acks or await self._start_acks()
        keys = [message_id(event.stream_id, event.version) for event in events]
        waiting: list[tuple[str, asyncio.Future[bool]]] = []
        try:
            for event, subject, key in zip(events, subjects, keys, strict=True):
                waiting.append(await acks.publish(subject, encode_event(event), key, self._stream))
        except (nats.errors.Error, OSError, TimeoutError) as e:
            acks.forget(waiting)
            raise BusError(f"publish of {keys[len(waiting)]} not confirmed: {_describe(e)}") from e
        try:
            await asyncio.wait([ack for _, ack in waiting], timeout=self._timeout)
        finally:
            acks.forget(waiting)  # the ones still unanswered: never awaited again
        stored = duplicates = 0
        failed: tuple[str, BaseException] | None = None
        for key, (_, ack) in zip(keys, waiting, strict=True):
            error = TimeoutError("no ack in time") if ack.cancelled() else ack.exception()
            if error is not None:
                failed = failed or (key, error)
            elif ack.result():
                duplicates += 1
            else:
                stored += 1
        if failed is not None:
            key, error = failed
            raise BusError(f"publish of {key} not confirmed: {_describe(error)}") from error
        return PublishResult(stored=stored, duplicates=duplicates)

    async def _start_acks(self) -> _Acks:
        async with self._acks_lock:  # one inbox subscription, however many publish at once
            if self._acks is None:
                try:
                    self._acks = await _Acks.start(self._nc)
                except (nats.errors.Error, OSError, TimeoutError) as e:
                    raise BusError(f"cannot wait for publish acks: {_describe(e)}") from e
            return self._acks

    async def subscribe(self, stream_id: str, handler: Handler) -> NatsSubscription:
        subject = subject_for(stream_id)
        self._check_connected()

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

    def status(self) -> BusStatus:
        return BusStatus(connected=self._nc.is_connected, outages=self._state.outages)

    async def close(self) -> None:
        self._state.connected = False
        if not self._nc.is_closed:
            await self._nc.close()

    def _check_connected(self) -> None:
        if not self._nc.is_connected:
            raise BusError("NATS is not connected (reconnecting)")


class _Ack(msgspec.Struct):
    """The parts of a JetStream PubAck (or its error) that matter here."""

    duplicate: bool = False
    error: dict[str, Any] | None = None


_ack_decoder = msgspec.json.Decoder(_Ack)


class _Acks:
    """Pipelined JetStream publishes: each message carries a reply subject under one inbox
    of ours, and the PubAcks that come back resolve a future per message (True: a
    duplicate). Unlike one request per message, no timer or task per message; unlike
    nats-py's `publish_async`, a message that could not be sent leaves nothing behind."""

    def __init__(self, nc: NatsClient, prefix: str) -> None:
        self._nc = nc
        self._prefix = prefix
        self._next = 0
        self._waiting: dict[str, asyncio.Future[bool]] = {}

    @classmethod
    async def start(cls, nc: NatsClient) -> _Acks:
        prefix = nc.new_inbox() + "."
        acks = cls(nc, prefix)
        await nc.subscribe(prefix + "*", cb=acks._on_reply)
        return acks

    async def publish(
        self, subject: str, payload: bytes, key: str, stream: str
    ) -> tuple[str, asyncio.Future[bool]]:
        """Send one message; returns its reply token and the future of its ack."""
        self._next += 1
        token = str(self._next)
        ack: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting[token] = ack
        headers = {_MSG_ID: key, _EXPECTED_STREAM: stream}  # fail loudly if another captured it
        try:
            await self._nc.publish(subject, payload, reply=self._prefix + token, headers=headers)
        except BaseException:
            del self._waiting[token]
            raise
        return token, ack

    def forget(self, acks: list[tuple[str, asyncio.Future[bool]]]) -> None:
        """Stop waiting for these acks (those not in yet are cancelled)."""
        for token, ack in acks:
            if not ack.done():
                ack.cancel()
            elif not ack.cancelled():
                ack.exception()  # looked at: no "exception never retrieved" later
            self._waiting.pop(token, None)

    async def _on_reply(self, msg: Msg) -> None:
        ack = self._waiting.pop(msg.subject[len(self._prefix) :], None)
        if ack is None or ack.done():
            return
        if msg.headers and msg.headers.get(_STATUS) == _NO_RESPONDERS:
            ack.set_exception(nats.js.errors.NoStreamResponseError())
            return
        try:
            answer = _ack_decoder.decode(msg.data)
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            ack.set_exception(BusError(f"unreadable PubAck: {e}"))
            return
        if answer.error is not None:
            ack.set_exception(nats.js.errors.APIError.from_error(answer.error))
        else:
            ack.set_result(answer.duplicate)


class _ConnectionState:
    """Keeps nats-py's background errors out of the way until we are connected."""

    def __init__(self) -> None:
        self.connected = False
        self.outages = 0  # connections lost since connecting
        self.last_error: BaseException | None = None

    async def on_error(self, error: Exception) -> None:
        self.last_error = error
        if self.connected:
            _log.warning("nats: %s", _describe(error))

    async def on_disconnected(self) -> None:
        if self.connected:
            self.outages += 1
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
