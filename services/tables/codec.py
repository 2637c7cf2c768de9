"""Events and states as stored bytes: msgspec JSON of the event Structs.

A stored event's `type` column is the event's tag (its class name), its data the whole
JSON object including that tag, so a row decodes on its own. Snapshots are keyed by a hash
of the engine's source: any change to the rules invalidates them (they are only a cache).

What a seat may not see rests sealed, and is opened only here, with the seed key:
- a deal's secret: the `secret` of SeedCommitted is sealed in place (`sealing.py`);
- hidden cards (dealt hands, the stock order, a drawn card, a stacked deck): an event
  that has any is stored as {"public": <the event as a spectator sees it>, "sealed":
  <the whole event, sealed for its stream and type>} (`hidden.py`). Readers without the
  key (a database reader, an outside tool) still see every public field;
- snapshots of states: sealed whole, for the stream they belong to.
Which fields are hidden is the engine's word (`redact(event, None)`), not a list kept
here. Rows written before sealing (plain events, plain snapshots) are read as they are.
See docs/fairness.md ("Who can learn what").
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import msgspec

import engine
from engine.banakil.messages import CommitSeed, SeedCommitted
from engine.banakil.redact import redact
from engine.table import TABLE_EVENTS, AnyEvent, TableState
from services.store.port import NewEvent, StoredEvent
from services.tables import hidden, sealing

__all__ = [
    "ENGINE_VERSION",
    "decode_event",
    "decode_event_sealed",
    "decode_state",
    "encode_command",
    "encode_event",
    "encode_json",
    "encode_state",
    "event_type",
    "open_snapshot",
    "seal_snapshot",
]

_EVENT = msgspec.json.Decoder(AnyEvent)
_STATE = msgspec.json.Decoder(TableState)
_ENCODER = msgspec.json.Encoder()


class _Envelope(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A stored event with hidden cards: its public form, and the whole event sealed."""

    public: msgspec.Raw
    sealed: str


class _Tag(msgspec.Struct, frozen=True):
    type: str


_ENVELOPE = msgspec.json.Decoder(_Envelope)
_TAG = msgspec.json.Decoder(_Tag)
# PostgreSQL's jsonb gives keys back sorted by length, then bytes ("public" first); the
# other order is what another store could keep. An event's own JSON has neither key.
_ENVELOPE_STARTS = (b'{"public"', b'{"sealed"')
# A sealed value is as long as what it seals: padded with JSON whitespace to a multiple of
# this, so that the length of a sealed CardDrawn does not tell a ten ("10H#1") from
# another card ("7H#1").
_PAD = 32
# Event types with nothing to hide: table events, and the game events `redact` returns as
# they are (for a type, always or never); most events, passed at once on the write path.
_PUBLIC_TYPES: set[type] = set()


def _engine_version() -> str:
    root = Path(engine.__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return "engine-" + digest.hexdigest()[:16]


ENGINE_VERSION = _engine_version()


def event_type(event: AnyEvent) -> str:
    return type(event).__name__


def encode_event(event: AnyEvent, stream_id: str | None = None) -> NewEvent:
    """The event as stored; a SeedCommitted's secret, or an event's hidden cards, sealed
    for `stream_id` (required then: neither is ever written in plain form)."""
    kind = event_type(event)
    if type(event) is SeedCommitted:
        if event.secret and not sealing.is_sealed(event.secret):
            if stream_id is None:
                raise ValueError("a SeedCommitted is encoded for its stream: pass stream_id")
            secret = sealing.current().seal(event.secret, stream_id, event.deal, event.commitment)
            event = msgspec.structs.replace(event, secret=secret)
    elif type(event) not in _PUBLIC_TYPES:
        public = event if isinstance(event, TABLE_EVENTS) else redact(event, None)
        if public is event:
            _PUBLIC_TYPES.add(type(event))
        else:
            if stream_id is None:
                raise ValueError(f"a {kind} hides cards: it is encoded for its stream (stream_id)")
            envelope = _Envelope(
                public=msgspec.Raw(_ENCODER.encode(public)),
                sealed=hidden.seal_text(stream_id, kind, _padded(_ENCODER.encode(event))),
            )
            return NewEvent(type=kind, data=_ENCODER.encode(envelope))
    return NewEvent(type=kind, data=_ENCODER.encode(event))


def decode_event(
    stored: StoredEvent | bytes, stream_id: str | None = None, *, secret: bool = True
) -> AnyEvent:
    """The event of a stored row (or of its JSON, for `stream_id`), opened: its secret and
    its hidden cards. `secret=False` leaves a deal's secret sealed (readers that never
    deal: the tables in play, the verifier). Raw JSON without a stream id keeps its
    secret sealed, and cannot be opened when it hides cards (ValueError). SealError:
    sealed with another key, or altered."""
    kind = None
    if isinstance(stored, StoredEvent):
        data, stream_id, kind = stored.data, stored.stream_id, stored.type
    else:
        data = stored
    if data.startswith(_ENVELOPE_STARTS):
        envelope = _ENVELOPE.decode(data)
        if kind is None:
            kind = _TAG.decode(envelope.public).type
        if stream_id is None:
            raise ValueError(f"a {kind} hides cards: it is opened for its stream (stream_id)")
        event = _EVENT.decode(hidden.open_text(stream_id, kind, envelope.sealed))
        if event_type(event) != kind:  # the seal covers the type: a bug, not an attack
            raise hidden.Unreadable(f"a sealed {kind} of {stream_id!r} holds a {event_type(event)}")
    else:
        event = _EVENT.decode(data)
    if (
        type(event) is SeedCommitted
        and secret
        and stream_id is not None
        and sealing.is_sealed(event.secret)
    ):
        opened = sealing.current().open(event.secret, stream_id, event.deal, event.commitment)
        event = msgspec.structs.replace(event, secret=opened)
    return event


def decode_event_sealed(data: bytes) -> AnyEvent:
    """The event as a reader without the key sees it: its secret sealed, hidden cards
    shown as "??" (its public form)."""
    if data.startswith(_ENVELOPE_STARTS):
        return _EVENT.decode(_ENVELOPE.decode(data).public)
    return _EVENT.decode(data)


def encode_state(state: TableState) -> bytes:
    """A snapshot of the table, sealed whole for its stream (hands, stock, secret)."""
    return hidden.seal_snapshot(state.table_id, _ENCODER.encode(state))


def decode_state(data: bytes, stream_id: str | None = None) -> TableState:
    """A snapshot's state (for `stream_id`, when named). Snapshots from before sealing
    whole are plain JSON with only the secret sealed: read as they are."""
    if hidden.is_sealed_snapshot(data):
        state = _STATE.decode(hidden.open_snapshot(data, stream_id))
        if state.table_id != hidden.snapshot_stream(data):
            raise hidden.Unreadable(f"the snapshot of {state.table_id!r} names another table")
        return state
    state = _STATE.decode(data)
    game = state.game_state
    if game is not None and game.secret and sealing.is_sealed(game.secret):
        assert game.commitment is not None
        secret = sealing.current().open(game.secret, state.table_id, game.deal, game.commitment)
        state = msgspec.structs.replace(
            state, game_state=msgspec.structs.replace(game, secret=secret)
        )
    return state


def seal_snapshot(name: str, data: bytes) -> bytes:
    """Any other snapshot (a read model's checkpoint), sealed whole under its name."""
    return hidden.seal_snapshot(name, data)


def open_snapshot(name: str, data: bytes) -> bytes:
    """The bytes `seal_snapshot` sealed under `name`; a plain (older) snapshot as it is."""
    return hidden.open_snapshot(data, name) if hidden.is_sealed_snapshot(data) else data


def _padded(data: bytes) -> bytes:
    return data + b" " * (-len(data) % _PAD)


def encode_command(command: object) -> msgspec.Raw:
    """A command as recorded in the metadata of its append (msgspec JSON with its "type"),
    for an auditor to decide it again. CommitSeed is recorded without its secret: the
    secret is in the sealed SeedCommitted until it is revealed."""
    if type(command) is CommitSeed:
        command = CommitSeed(secret="")
    return msgspec.Raw(_ENCODER.encode(command))


def encode_json(value: object) -> bytes:
    return _ENCODER.encode(value)
