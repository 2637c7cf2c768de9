"""Events and states as stored bytes: msgspec JSON of the event Structs.

A stored event's `type` column is the event's tag (its class name), its data the whole
JSON object including that tag, so a row decodes on its own. Snapshots are keyed by a hash
of the engine's source: any change to the rules invalidates them (they are only a cache).

What a seat may not see rests sealed, and is opened only here, with the seed key:
- a unit's secret: the `secret` of its commitment event (a deal's SeedCommitted) is
  sealed in place (`sealing.py`);
- hidden cards (dealt hands, the stock order, a drawn card, a stacked deck): an event
  that has any is stored as {"public": <the event as a spectator sees it>, "sealed":
  <the whole event, sealed for its stream and type>} (`hidden.py`). Readers without the
  key (a database reader, an outside tool) still see every public field;
- snapshots of states: sealed whole, for the stream they belong to.
Which fields are hidden is the game's word (its `redact(event, None)`), not a list kept
here. Rows written before sealing (plain events, plain snapshots) are read as they are.
See docs/fairness.md ("Who can learn what").

No game is named here: a row is decoded strictly in two steps, through the registry
(`engine.protocol`). Its tag (the row's type) says whether it is a table event, decoded as
one, or a game event, decoded with the union of the table's game — named by the caller, or
else the hosted game with an event of that tag. TableCreated's options are decoded with the
game's options Struct, a snapshot's game state with its State Struct (by TableState
itself), found by the game name they carry. A unit's commitment event (the one
`unit.begins` numbers, with `secret` and `commitment` fields) has its secret sealed under
its stream and unit number. How a stream of an older engine is read: docs/deal-format.md,
section 9.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any, Union

import msgspec

import engine
from engine import protocol
from engine.table import (
    TABLE_COMMANDS,
    TABLE_EVENTS,
    AnyCommand,
    AnyEvent,
    CreateTable,
    Disconnect,
    Leave,
    Reconnect,
    ReplaceWithBot,
    ReturnSeat,
    SeatKind,
    StartTable,
    TableCreated,
    TableEvent,
    TableState,
    TakeSeat,
)
from services.store.port import NewEvent, StoredEvent
from services.tables import hidden, sealing

__all__ = [
    "ENGINE_VERSION",
    "decode_command",
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

_ENCODER = msgspec.json.Encoder()


# The table's own messages. TableCreated and TableState type their game's part themselves
# (by the game they name); a recorded CreateTable may name none (the game of its options'
# Struct), so its options wait raw for the table's game.


class _Create(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    tag_field="type",
    tag="CreateTable",
):
    options: msgspec.Raw
    seats: tuple[SeatKind, ...]
    game: str = ""


# TableCreated types its options itself, by the game it names.
_TABLE_EVENT = msgspec.json.Decoder(TableEvent)
_TABLE_COMMAND = msgspec.json.Decoder(
    _Create | TakeSeat | StartTable | Disconnect | Reconnect | ReplaceWithBot | Leave | ReturnSeat
)
_TABLE_EVENT_TAGS = frozenset(t.__name__ for t in TABLE_EVENTS)
_TABLE_COMMAND_TAGS = frozenset(t.__name__ for t in TABLE_COMMANDS)
_STATE = msgspec.json.Decoder(TableState)  # its game state typed by TableState itself


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
# they are (for a type, always or never) that commit no unit; most events, passed at once
# on the write path and on the read path.
_PUBLIC_TYPES: set[type] = set(TABLE_EVENTS)


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
    """The event as stored; a unit's secret, or an event's hidden cards, sealed for
    `stream_id` (required then: neither is ever written in plain form)."""
    kind = event_type(event)
    if type(event) in _PUBLIC_TYPES:
        return NewEvent(type=kind, data=_ENCODER.encode(event))
    unit = _unit_of(event)
    if unit is not None and event.secret and not sealing.is_sealed(event.secret):
        if stream_id is None:
            raise ValueError(f"a {kind} is encoded for its stream: pass stream_id")
        secret = sealing.current().seal(event.secret, stream_id, unit, event.commitment)
        event = msgspec.structs.replace(event, secret=secret)
    elif unit is None:
        public = _redacted(event)
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
    stored: StoredEvent | bytes,
    stream_id: str | None = None,
    *,
    secret: bool = True,
    game: str | None = None,
) -> AnyEvent:
    """The event of a stored row (or of its JSON, for `stream_id`), opened: its secret and
    its hidden cards. `game` is the table's game when the caller knows it (a game event of
    another game is then refused); without it, the one hosted game with an event of that
    type. `secret=False` leaves a unit's secret sealed (readers that never deal: the tables
    in play, the verifier). Raw JSON without a stream id keeps its secret sealed, and
    cannot be opened when it hides cards (ValueError). SealError: sealed with another key,
    or altered. msgspec.ValidationError: not an event of this table's game (or of any
    hosted game)."""
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
        event = _decode(hidden.open_text(stream_id, kind, envelope.sealed), kind, game)
        if event_type(event) != kind:  # the seal covers the type: a bug, not an attack
            raise hidden.Unreadable(f"a sealed {kind} of {stream_id!r} holds a {event_type(event)}")
    else:
        # The common row, inline: its type, one decoder for it (the store's hot read path).
        one = _tags().get(kind) if game is None and kind is not None else None
        event = one[0].decode(data) if one is not None and len(one) == 1 else None
        if event is None:
            event = _decode(data, kind, game)
    if secret and stream_id is not None and type(event) not in _PUBLIC_TYPES:
        unit = _unit_of(event)
        if unit is not None and sealing.is_sealed(event.secret):
            opened = sealing.current().open(event.secret, stream_id, unit, event.commitment)
            event = msgspec.structs.replace(event, secret=opened)
    return event


def decode_event_sealed(data: bytes, *, game: str | None = None) -> AnyEvent:
    """The event as a reader without the key sees it: its secret sealed, hidden cards
    shown as "??" (its public form)."""
    if data.startswith(_ENVELOPE_STARTS):
        return _decode(_ENVELOPE.decode(data).public, None, game)
    return _decode(data, None, game)


def decode_command(data: bytes, game: str) -> AnyCommand:
    """A command recorded in an append's metadata (`encode_command`), for a table of
    `game`: a table command, or one of that game's commands (strictly)."""
    kind = _TAG.decode(data).type
    if kind not in _TABLE_COMMAND_TAGS:
        return _command_decoder(game).decode(data)
    command = _TABLE_COMMAND.decode(data)
    if isinstance(command, _Create):
        found = protocol.get(command.game or game)
        options: Any = msgspec.json.decode(command.options, type=found.options)
        return CreateTable(options=options, seats=command.seats, game=command.game)
    return command


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
    secret = getattr(game, "secret", None)
    if secret and sealing.is_sealed(secret):
        # A unit's number is the state's field of the unit's name (Banakil: `deal`).
        unit = getattr(game, protocol.get(state.game).unit.name)
        secret = sealing.current().open(secret, state.table_id, unit, game.commitment)
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


def encode_command(command: object) -> msgspec.Raw:
    """A command as recorded in the metadata of its append (msgspec JSON with its "type"),
    for an auditor to decide it again. A unit's commit command is recorded without its
    secret: the secret is in the sealed commitment event until it is revealed."""
    game = _commit_types().get(type(command))
    if game is not None:
        command = game.unit.commit("")
    return msgspec.Raw(_ENCODER.encode(command))


def encode_json(value: object) -> bytes:
    return _ENCODER.encode(value)


# --- the second step: the game's part, through the registry -------------------------------


_EVENT_DECODERS: dict[str, msgspec.json.Decoder[Any]] = {}
_COMMAND_DECODERS: dict[str, msgspec.json.Decoder[Any]] = {}
# Per event type: the game whose unit it commits (a game event with `secret` and
# `commitment` fields), else None. A type belongs to one game for good, so this is kept.
_COMMITS: dict[type, protocol.Game | None] = {}


def _event_decoder(name: str) -> msgspec.json.Decoder[Any]:
    found = _EVENT_DECODERS.get(name)
    if found is None:
        found = _EVENT_DECODERS[name] = msgspec.json.Decoder(protocol.get(name).event)
    return found


def _command_decoder(name: str) -> msgspec.json.Decoder[Any]:
    found = _COMMAND_DECODERS.get(name)
    if found is None:
        found = _COMMAND_DECODERS[name] = msgspec.json.Decoder(protocol.get(name).command)
    return found


def _decode(data: bytes, kind: str | None, game: str | None) -> AnyEvent:
    """Step one: the tag says table or game; step two decodes the game's part."""
    if kind is None:
        _tags()  # keeps _EVERY in step with the registry
        every = _EVERY[0]
        if game is None and every is not None:  # no tag is two games': one pass
            return every.decode(data)
        kind = _TAG.decode(data).type
    if game is None:
        decoders = _tags().get(kind)
        if decoders is not None and len(decoders) == 1:  # every row with one game hosted
            return decoders[0].decode(data)
        return _decode_by_tag(data, kind, decoders)
    if kind not in _TABLE_EVENT_TAGS:
        return _event_decoder(game).decode(data)
    event = _TABLE_EVENT.decode(data)
    if isinstance(event, TableCreated) and event.game != game:
        raise msgspec.ValidationError(f"a table of {game} cannot be created for {event.game}")
    return event


def _decode_by_tag(
    data: bytes, kind: str, decoders: tuple[msgspec.json.Decoder[Any], ...] | None
) -> AnyEvent:
    """A game event read without its table's game, of a tag several hosted games have (two
    games' CardDrawn): the first game in registration order whose Struct accepts the data
    strictly reads it. With one game hosted, as in production, there is no choice; a
    reader of a store of several games names the game."""
    if not decoders:
        raise msgspec.ValidationError(f"{kind!r} is an event of no hosted game")
    for decoder in decoders[:-1]:
        try:
            return decoder.decode(data)
        except msgspec.ValidationError:
            continue
    return decoders[-1].decode(data)


def _tags() -> dict[str, tuple[msgspec.json.Decoder[Any], ...]]:
    """Per event tag, its decoders: the table's own, or those of the games that have an
    event of that tag, in registration order (rebuilt when a game is registered)."""
    order = protocol.in_order()
    if order is not _TAGS_OF[0]:
        tags: dict[str, tuple[msgspec.json.Decoder[Any], ...]] = dict.fromkeys(
            _TABLE_EVENT_TAGS, (_TABLE_EVENT,)
        )
        for name in order:
            for member in protocol.get(name).event_types:
                tags[member.__name__] = (*tags.get(member.__name__, ()), _event_decoder(name))
        _TAGS_OF[0], _TAGS[:] = order, [tags]
        # While no two hosted games share a tag (one game, as in production), one union of
        # every event reads an untyped row in one pass, as strictly.
        members = [*TABLE_EVENTS, *(t for n in order for t in protocol.get(n).event_types)]
        unique = all(len(decoders) == 1 for decoders in tags.values())
        _EVERY[0] = msgspec.json.Decoder(Union[tuple(members)]) if unique else None  # noqa: UP007
    return _TAGS[0]


_TAGS_OF: list[tuple[str, ...] | None] = [None]
_TAGS: list[dict[str, tuple[msgspec.json.Decoder[Any], ...]]] = [{}]
_EVERY: list[msgspec.json.Decoder[Any] | None] = [None]


def _unit_of(event: Any) -> int | None:
    """The number of the unit a commitment event commits; None for any other event."""
    kind = type(event)
    if kind in _COMMITS:
        game = _COMMITS[kind]
    else:
        game = _COMMITS[kind] = _committing_game(kind)
    return None if game is None else game.unit.begins(event)


def _redacted(event: Any) -> Any:
    """The event as a spectator reads it: its game's word on what it hides."""
    for name in protocol.hosted():
        game = protocol.get(name)
        if type(event) in game.event_types:
            return game.redact(event, None)
    raise TypeError(f"{type(event).__name__} is an event of no hosted game")


def _committing_game(kind: type) -> protocol.Game | None:
    fields = getattr(kind, "__struct_fields__", ())
    if kind in _TABLE_EVENT_TYPES or "secret" not in fields or "commitment" not in fields:
        return None
    for name in protocol.hosted():
        game = protocol.get(name)
        if kind in game.event_types:
            return game
    return None


def _commit_types() -> dict[type, protocol.Game]:
    return _commit_types_of(protocol.hosted())


@cache
def _commit_types_of(hosted: tuple[str, ...]) -> dict[type, protocol.Game]:
    games = [protocol.get(name) for name in hosted]
    return {type(game.unit.commit("")): game for game in games}


def _padded(data: bytes) -> bytes:
    return data + b" " * (-len(data) % _PAD)


_TABLE_EVENT_TYPES = frozenset(TABLE_EVENTS)
