"""Events and states as stored bytes: msgspec JSON of the event Structs.

A stored event's `type` column is the event's tag (its class name), its data the whole
JSON object including that tag, so a row decodes on its own. Snapshots are keyed by a hash
of the engine's source: any change to the rules invalidates them (they are only a cache).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import msgspec

import engine
from engine.table import AnyEvent, TableState
from services.store.port import NewEvent, StoredEvent

__all__ = [
    "ENGINE_VERSION",
    "decode_event",
    "decode_state",
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


def encode_event(event: AnyEvent) -> NewEvent:
    return NewEvent(type=event_type(event), data=_ENCODER.encode(event))


def decode_event(stored: StoredEvent | bytes) -> AnyEvent:
    data = stored.data if isinstance(stored, StoredEvent) else stored
    return _EVENT.decode(data)


def encode_state(state: TableState) -> bytes:
    return _ENCODER.encode(state)


def decode_state(data: bytes) -> TableState:
    return _STATE.decode(data)


def encode_json(value: object) -> bytes:
    return _ENCODER.encode(value)
