"""The WebSocket seat protocol: decoding what a client sends, and what is sent back.

Client → server, one JSON object per message:
    {"type": "command", "command_id": "c-17", "command": {"type": "Draw"}}
Server → client:
    {"type": "welcome", "seat", "version", "table_id", "status", "host", "seats", "view"}
    {"type": "view", ...the same fields as the welcome, without "seat"}
    {"type": "missed", "since", "version", "events": [{"version", "event"}]}
    {"type": "accepted", "command_id", "version", "duplicate"}
    {"type": "rejected", "command_id", "code", "rule_id", "message"}
    {"type": "error", "code", "rule_id", "message"}  (then the socket closes)

Anything a client sends is decoded strictly (unknown fields and types refused); a refusal
is a "rejected" message and the socket stays open.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from engine.banakil.messages import Command
from engine.banakil.redact import redact
from engine.errors import RuleViolation
from engine.table import AnyEvent, SeatTaken, TableCreated, TableStarted
from services.gateway.tables import Outcome, Rejection

__all__ = [
    "ClientCommand",
    "accepted",
    "command_id_of",
    "decode_client",
    "missed",
    "rejected",
    "seat_event",
]

CommandId = Annotated[str, msgspec.Meta(min_length=1, max_length=128)]


class ClientCommand(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    type: Literal["command"]
    command_id: CommandId
    command: msgspec.Raw


class _Envelope(msgspec.Struct, frozen=True, kw_only=True):
    command_id: Any = None


_CLIENT = msgspec.json.Decoder(ClientCommand)
_ENVELOPE = msgspec.json.Decoder(_Envelope)
_COMMAND = msgspec.json.Decoder(Command)


def decode_client(raw: bytes, limit: int) -> tuple[str, Command]:
    """(command id, command) from one client message, or RuleViolation saying what is wrong."""
    if len(raw) > limit:
        raise RuleViolation("too_large", "", f"a message may hold at most {limit} bytes")
    try:
        message = _CLIENT.decode(raw)
    except msgspec.ValidationError as exc:
        raise RuleViolation("bad_message", "", f"not a command message: {exc}") from None
    except msgspec.DecodeError as exc:
        raise RuleViolation("bad_json", "", f"not valid JSON: {exc}") from None
    try:
        command = _COMMAND.decode(message.command)
    except msgspec.ValidationError as exc:
        text = str(exc)
        code = "unknown_command" if text.endswith("`$.type`") else "bad_command"
        raise RuleViolation(code, "", f"not a valid command: {text}") from None
    return message.command_id, command


def command_id_of(raw: bytes) -> str | None:
    """The command id of a message that could not be decoded, if one can be read."""
    try:
        found = _ENVELOPE.decode(raw).command_id
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    return found if isinstance(found, str) and len(found) <= 128 else None


def accepted(client_id: str, outcome: Outcome) -> dict[str, Any]:
    return {
        "type": "accepted",
        "command_id": client_id,
        "version": outcome.version,
        "duplicate": outcome.duplicate,
    }


def rejected(client_id: str | None, why: RuleViolation | Rejection) -> dict[str, Any]:
    return {
        "type": "rejected",
        "command_id": client_id,
        "code": why.code,
        "rule_id": why.rule_id,
        "message": why.message,
    }


def seat_event(event: AnyEvent, seat: int | None) -> AnyEvent:
    """An event as `seat` may learn it (the engine's `redact`; table events are public)."""
    if isinstance(event, (TableCreated, SeatTaken, TableStarted)):
        return event
    return redact(event, seat)


def missed(
    since: int, version: int, events: list[tuple[int, AnyEvent]], seat: int | None
) -> dict[str, Any]:
    return {
        "type": "missed",
        "since": since,
        "version": version,
        "events": [{"version": v, "event": seat_event(e, seat)} for v, e in events],
    }
