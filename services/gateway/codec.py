"""Events and states as stored bytes: msgspec JSON of the event Structs.

A stored event's `type` column is the event's tag (its class name), its data the whole
JSON object including that tag, so a row decodes on its own. Snapshots are keyed by a hash
of the engine's source: any change to the rules invalidates them (they are only a cache).

A deal's secret never leaves the service in plain form before it is revealed: the
`secret` of SeedCommitted (and of a snapshot's state) is sealed on the way out and opened
on the way in, with the table's stream id (`sealing.py`, docs/fairness.md).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import msgspec

import engine
from engine.banakil.messages import CommitSeed, SeedCommitted
from engine.table import AnyEvent, TableState
from services.gateway import sealing
from services.store.port import NewEvent, StoredEvent

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
]

_EVENT = msgspec.json.Decoder(AnyEvent)
_STATE = msgspec.json.Decoder(TableState)
_ENCODER = msgspec.json.Encoder()


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
    """The event as stored; a SeedCommitted's secret is sealed for `stream_id` (required
    for that event: a secret is never written in plain form)."""
    if type(event) is SeedCommitted and event.secret and not sealing.is_sealed(event.secret):
        if stream_id is None:
            raise ValueError("a SeedCommitted is encoded for its stream: pass stream_id")
        secret = sealing.current().seal(event.secret, stream_id, event.deal, event.commitment)
        event = msgspec.structs.replace(event, secret=secret)
    return NewEvent(type=event_type(event), data=_ENCODER.encode(event))


def decode_event(stored: StoredEvent | bytes, stream_id: str | None = None) -> AnyEvent:
    """The event of a stored row (or of its JSON, for `stream_id`); a sealed secret is
    opened. Raw JSON without a stream id keeps its secret sealed."""
    if isinstance(stored, StoredEvent):
        data, stream_id = stored.data, stored.stream_id
    else:
        data = stored
    event = _EVENT.decode(data)
    if type(event) is SeedCommitted and stream_id is not None and sealing.is_sealed(event.secret):
        secret = sealing.current().open(event.secret, stream_id, event.deal, event.commitment)
        event = msgspec.structs.replace(event, secret=secret)
    return event


def decode_event_sealed(data: bytes) -> AnyEvent:
    """The event as stored, its secret left sealed (readers outside the service)."""
    return _EVENT.decode(data)


def encode_state(state: TableState) -> bytes:
    """A snapshot of the table; an unrevealed secret in it is sealed like an event's."""
    game = state.game_state
    if game is not None and game.secret and not sealing.is_sealed(game.secret):
        assert game.commitment is not None  # a secret always comes with its commitment
        secret = sealing.current().seal(game.secret, state.table_id, game.deal, game.commitment)
        state = msgspec.structs.replace(
            state, game_state=msgspec.structs.replace(game, secret=secret)
        )
    return _ENCODER.encode(state)


def decode_state(data: bytes) -> TableState:
    state = _STATE.decode(data)
    game = state.game_state
    if game is not None and game.secret and sealing.is_sealed(game.secret):
        assert game.commitment is not None
        secret = sealing.current().open(game.secret, state.table_id, game.deal, game.commitment)
        state = msgspec.structs.replace(
            state, game_state=msgspec.structs.replace(game, secret=secret)
        )
    return state


def encode_command(command: object) -> msgspec.Raw:
    """A command as recorded in the metadata of its append (msgspec JSON with its "type"),
    for an auditor to decide it again. CommitSeed is recorded without its secret: the
    secret is in the sealed SeedCommitted until it is revealed."""
    if type(command) is CommitSeed:
        command = CommitSeed(secret="")
    return msgspec.Raw(_ENCODER.encode(command))


def encode_json(value: object) -> bytes:
    return _ENCODER.encode(value)
