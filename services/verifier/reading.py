"""A deal record of any hosted game, read and verified by that game's record section.

Every record names its game (docs/deal-format.md, `"game"`): the name picks the section
(`Game.records`) that decodes it strictly and audits it. A body that names no hosted game
(or is not a JSON object at all) is read as the default game's record, so that its
refusal is the one it always was ("game" must be "banakil"), byte for byte.
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine import protocol
from engine.replay import RecordError
from services.tables.games import DEFAULT_GAME

__all__ = ["read_record", "verify_any"]


class _Named(msgspec.Struct, frozen=True):
    """The one field every record has; the rest is its game's (unknown fields allowed)."""

    game: Any = None


def read_record(data: bytes | str) -> tuple[protocol.Game, Any]:
    """The game a record names and the record as its section decodes it; RecordError
    naming what is wrong otherwise."""
    try:
        named = msgspec.json.decode(data, type=_Named).game
    except msgspec.DecodeError:  # the game's own reader says why, as it always did
        named = None
    name = named if isinstance(named, str) and named in protocol.hosted() else DEFAULT_GAME
    game = protocol.get(name)
    try:
        return game, game.records.decode(data)
    except msgspec.ValidationError as exc:  # a subclass of DecodeError: caught first
        raise RecordError(f"not a deal record: {exc}") from None
    except msgspec.DecodeError as exc:
        raise RecordError(f"not valid JSON: {exc}") from None


def verify_any(record: Any) -> Any:
    """The verdict of the game the record names (a record built from the store, or read
    by `read_record`) on it."""
    return protocol.get(record.game).records.verify(record)
