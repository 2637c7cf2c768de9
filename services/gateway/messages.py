"""The WebSocket seat protocol: decoding what a client sends, and what is sent back.

Client → server, one JSON object per message:
    {"type": "command", "command_id": "c-17", "command": {"type": "Draw"}}
    {"type": "hint", "request_id": "h-1"}                      (PF-HINT-1..3)
    {"type": "stage", "request_id": "s-1", "proposal": {...}}   (PF-STAGE-5, the game's)
    {"type": "hand_order", "request_id": "o-1", "order": "suit" | "rank" | "game" |
     "manual", "cards": [...]}                                  (PF-SORT-1..3)
Server → client:
    {"type": "welcome", "seat", "version", "table_id", "status", "host", "seats",
     "deadline", "deadlines", "view"}  ("deadline": when the running turn or discard
     window ends, RFC 3339 server time, or null; the clock's own, for a countdown from the
     turn's start: the seat's own wait when the table waits for it, else the first running
     wait. "deadlines": every running wait, [{"seat", "stage", "deadline"}] as the warning
     names them, [] when nothing is timed; a game that times several seats at once, as
     Bunco's play tables, has several)
    {"type": "view", ...the same fields as the welcome, without "seat"}
    {"type": "missed", "since", "version", "events": [{"version", "event"}]}
    {"type": "accepted", "command_id", "version", "duplicate"}
    {"type": "rejected", "command_id", "code", "rule_id", "message"}
    {"type": "error", "code", "rule_id", "message"}  (then the socket closes)
    {"type": "warning", "table_id", "deal", "turn", "seat", "stage", "deadline",
     "seconds_left"}  (to the acting seat: its turn's last 5 s, `turn_warnings.py`)
    {"type": "hint", "request_id", "version", "hint"}        (to the asking socket only)
    {"type": "staged", "request_id", "version", "staged"}    (to the asking socket only)
    {"type": "hand_order", "request_id", "order", "cards", "hand"}  (the answer; after the
     welcome too, request_id null, when the seat has chosen an order)
    {"type": "refused", "request_id", "code", "rule_id", "message"}  (a question refused)

Anything a client sends is decoded strictly (unknown fields and types refused); a refusal
is a "rejected" message and the socket stays open.

Views go forward only: each "view" is newer than the welcome and every view before it on
that socket, but there is not one per version. A view shows the table as of the newest
version the gateway knows when it is sent, so versions that came together (the events of
one command, a burst of news from another gateway, changes made while the socket was still
being written to) are shown once. A view is the whole truth for its seat, so only the
intermediate steps are skipped; the events themselves are in "missed" after a reconnect
with `since`. "accepted" may arrive before or after the view of its version.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec

from engine import protocol
from engine.errors import RuleViolation
from engine.hand_order import MANUAL_CARDS, HandOrder, OrderName
from engine.table import TABLE_EVENTS, AnyEvent, SeatInfo
from services.tables.seat_asks import Answer
from services.tables.service import Loaded, Outcome, Rejection
from services.tables.turns import Wait

__all__ = [
    "ASK_TYPES",
    "Ask",
    "ClientCommand",
    "HandOrderRequest",
    "HintRequest",
    "SharedView",
    "StageRequest",
    "accepted",
    "answer",
    "command_id_of",
    "decode_ask",
    "decode_client",
    "hand_order_message",
    "missed",
    "refused",
    "rejected",
    "request_id_of",
    "seat_event",
    "view_message",
    "welcome_message",
]

CommandId = Annotated[str, msgspec.Meta(min_length=1, max_length=128)]


class ClientCommand(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    type: Literal["command"]
    command_id: CommandId
    command: msgspec.Raw


# A question's id: as a command id, 1-128 visible ASCII characters (answers name it).
RequestId = Annotated[str, msgspec.Meta(pattern=r"^[!-~]{1,128}$")]


class HintRequest(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="hint"
):
    """PF-HINT-1..3: the game's hints for the asking seat."""

    request_id: RequestId


class StageRequest(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="stage"
):
    """PF-STAGE-5, PF-AMB-22: is this prepared group (or table) legal now; `proposal` in
    the game's own shape (`Game.staging.proposal`)."""

    request_id: RequestId
    proposal: msgspec.Raw


class HandOrderRequest(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="hand_order"
):
    """PF-SORT-1..3: the seat's order of its hand; `cards` (identities) with "manual"."""

    request_id: RequestId
    order: OrderName
    cards: Annotated[
        tuple[Annotated[str, msgspec.Meta(max_length=8)], ...],
        msgspec.Meta(max_length=MANUAL_CARDS),
    ] = ()


Ask = HintRequest | StageRequest | HandOrderRequest
ASK_TYPES = frozenset({"hint", "stage", "hand_order"})


class _Kind(msgspec.Struct, frozen=True):
    type: Any = None


class _Envelope(msgspec.Struct, frozen=True, kw_only=True):
    command_id: Any = None


class _ViewMessage(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="view"):
    # The fields in the order of the protocol (msgspec writes the tag first).
    table_id: str
    status: str
    host: int
    seats: tuple[SeatInfo, ...]
    version: int
    deadline: datetime | None  # when the running turn or discard window ends (PF-TIMER-1/3)
    deadlines: tuple[Wait, ...] = ()  # every running wait (PF-TIMER-7), in the game's order
    view: Any  # the game's view of the seat (`Game.view`), or None before the game begins


class _WelcomeMessage(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="welcome"):
    seat: int | None
    table_id: str
    status: str
    host: int
    seats: tuple[SeatInfo, ...]
    version: int
    deadline: datetime | None  # when the running turn or discard window ends (PF-TIMER-1/3)
    deadlines: tuple[Wait, ...] = ()  # every running wait (PF-TIMER-7), in the game's order
    view: Any  # the game's view of the seat (`Game.view`), or None before the game begins


_ENCODER = msgspec.json.Encoder()
_CLIENT = msgspec.json.Decoder(ClientCommand)
_ENVELOPE = msgspec.json.Decoder(_Envelope)
_KIND = msgspec.json.Decoder(_Kind)
_ASK = msgspec.json.Decoder(Ask, strict=True)
# A strict decoder of each game's tagged command union, made on first use.
_COMMANDS: dict[str, msgspec.json.Decoder[Any]] = {}


def _command_decoder(game: protocol.Game) -> msgspec.json.Decoder[Any]:
    found = _COMMANDS.get(game.name)
    if found is None:
        found = _COMMANDS[game.name] = msgspec.json.Decoder(game.command)
    return found


def decode_client(raw: bytes, limit: int, game: protocol.Game) -> tuple[str, Any]:
    """(command id, command) from one client message to a table of `game` (decoded through
    the game's command union), or RuleViolation saying what is wrong."""
    if len(raw) > limit:
        raise RuleViolation("too_large", "", f"a message may hold at most {limit} bytes")
    try:
        message = _CLIENT.decode(raw)
    except msgspec.ValidationError as exc:
        raise RuleViolation("bad_message", "", f"not a command message: {exc}") from None
    except msgspec.DecodeError as exc:
        raise RuleViolation("bad_json", "", f"not valid JSON: {exc}") from None
    try:
        command = _command_decoder(game).decode(message.command)
    except msgspec.ValidationError as exc:
        text = str(exc)
        code = "unknown_command" if text.endswith("`$.type`") else "bad_command"
        raise RuleViolation(code, "", f"not a valid command: {text}") from None
    return message.command_id, command


def decode_ask(raw: bytes, limit: int) -> Ask | None:
    """A seat's question (a message of a type in ASK_TYPES), or None for any other message
    (a command, or something `decode_client` explains); RuleViolation `bad_message` for a
    question that is not well formed."""
    if len(raw) > limit:
        return None  # decode_client refuses it as too large
    try:
        kind = _KIND.decode(raw).type
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    if kind not in ASK_TYPES:
        return None
    try:
        return _ASK.decode(raw)
    except msgspec.ValidationError as exc:
        raise RuleViolation("bad_message", "", f"not a {kind} message: {exc}") from None


def request_id_of(raw: bytes) -> str | None:
    """The request id of a question that could not be decoded, if one can be read."""
    try:
        found = msgspec.json.decode(raw)
    except (msgspec.DecodeError, RecursionError):
        return None
    got = found.get("request_id") if isinstance(found, dict) else None
    return got if isinstance(got, str) and 0 < len(got) <= 128 else None


def answer(kind: Literal["hint", "staged"], request_id: str, found: Answer) -> dict[str, Any]:
    """The answer to a hint or a staging check: the game's own value, as of `version`."""
    return {"type": kind, "request_id": request_id, "version": found.version, kind: found.value}


def hand_order_message(
    request_id: str | None, chosen: HandOrder, hand: tuple[str, ...]
) -> dict[str, Any]:
    """The seat's hand order and its hand as now shown in it."""
    return {
        "type": "hand_order",
        "request_id": request_id,
        "order": chosen.order,
        "cards": chosen.cards,
        "hand": hand,
    }


def refused(request_id: str | None, why: RuleViolation) -> dict[str, Any]:
    return {"type": "refused", "request_id": request_id, **why.as_dict()}


def command_id_of(raw: bytes) -> str | None:
    """The command id of a message that could not be decoded, if one can be read."""
    try:
        found = _ENVELOPE.decode(raw).command_id
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    return found if isinstance(found, str) and len(found) <= 128 else None


def view_message(loaded: Loaded, view: Any, seat: int | None = None) -> bytes:
    """A "view" message, encoded: the table as of `loaded` with the `view` of `seat` (None:
    a spectator's), and the countdown that seat is shown (`Loaded.deadline_of`)."""
    state = loaded.state
    return _ENCODER.encode(
        _ViewMessage(
            table_id=state.table_id,
            status=state.status,
            host=state.host,
            seats=state.seats,
            version=loaded.version,
            deadline=loaded.deadline_of(seat),
            deadlines=loaded.waits,
            view=view,
        )
    )


class SharedView:
    """The "view" messages of one table version for every seat, from one encoding.

    When a game's view of a seat differs from the spectator's only in its `seat`, `hand`
    and `legal` (Banakil's do), the spectator's message is encoded once and a seat's is
    spliced from it: its seat number, its hand and its legal moves put in their places.
    Byte for byte what encoding the seat's own message gives (a test holds it to that on
    every state of whole deals). A view of another shape, one that differs in anything
    else, or an encoding not as expected, is encoded whole instead; so is the message of a
    seat shown another countdown than the spectator's (one awaited beside the first seat
    of a game that times several at once: a few seats a version at most)."""

    __slots__ = ("_hand", "_head", "_loaded", "_public", "_public_view", "_rest")

    def __init__(self, loaded: Loaded, public: Any) -> None:
        self._loaded = loaded
        self._public = view_message(loaded, public)
        self._public_view = public
        self._head = self._hand = self._rest = b""
        if not _spliceable(public) or public.seat is not None or public.hand is not None:
            return
        message = self._public
        # Found by the bytes around them: a string never holds an unescaped quote, and only
        # the view's own keys are looked for (each exactly once, or no splicing).
        start = message.find(_NO_SEAT)
        hand = message.find(_NO_HAND, start)
        end = _LEGAL + _ENCODER.encode(public.legal) + b"}}"
        once = message.count(_NO_SEAT) == 1 and message.count(_NO_HAND) == 1
        if start < 0 or hand < 0 or not once or not message.endswith(end):
            return
        self._head = message[: start + len(_SEAT)]  # ... "view":{"seat":
        self._hand = message[start + len(_NO_SEAT) : hand] + _HAND  # ,"ruleset": ... ,"hand":
        self._rest = message[hand + len(_NO_HAND) : -len(end)] + _LEGAL  # ,"hand_sizes": ...

    def message(self, view: Any, *, seat: int | None = None, derived: bool = False) -> bytes:
        """The message for `seat` (None: a spectator), whose view (from the same state) is
        `view`; `derived`: the game made it from the spectator's (`Game.seat_view`), so it
        differs in its seat, hand and legal moves only and is spliced without comparing."""
        loaded = self._loaded
        if seat is not None and loaded.deadline_of(seat) != loaded.deadline:
            return view_message(loaded, view, seat)
        if view is None or getattr(view, "seat", None) is None:
            if view is None or view == self._public_view:
                return self._public
            return view_message(loaded, view, seat)
        if not self._head or not (derived or self._differs_in_seat_only(view)):
            return view_message(loaded, view, seat)
        return b"".join(
            (
                self._head,
                _ENCODER.encode(view.seat),
                self._hand,
                _ENCODER.encode(view.hand),
                self._rest,
                _ENCODER.encode(view.legal),
                b"}}",
            )
        )

    def _differs_in_seat_only(self, view: Any) -> bool:
        """`view` is the spectator's with its own seat, hand and legal moves put in."""
        seats = {"seat": view.seat, "hand": view.hand, "legal": view.legal}
        return type(view) is type(self._public_view) and (
            msgspec.structs.replace(self._public_view, **seats) == view
        )


def _spliceable(view: Any) -> bool:
    """A view Struct with a seat, a hand and legal moves, in the order the splice reads."""
    fields = getattr(view, "__struct_fields__", ())
    return "seat" in fields and "hand" in fields and fields[-1:] == ("legal",)


_SEAT = b'"view":{"seat":'
_NO_SEAT = _SEAT + b"null"
_HAND = b',"hand":'
_NO_HAND = _HAND + b"null"
_LEGAL = b',"legal":'


def welcome_message(loaded: Loaded, seat: int | None, view: Any) -> bytes:
    """The "welcome" message, encoded: like a view of `seat`, and the seat the socket holds."""
    state = loaded.state
    return _ENCODER.encode(
        _WelcomeMessage(
            seat=seat,
            table_id=state.table_id,
            status=state.status,
            host=state.host,
            seats=state.seats,
            version=loaded.version,
            deadline=loaded.deadline_of(seat),
            deadlines=loaded.waits,
            view=view,
        )
    )


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


def seat_event(event: AnyEvent, seat: int | None, game: protocol.Game) -> AnyEvent:
    """An event as `seat` may learn it (the game's `redact`; table events are public)."""
    if isinstance(event, TABLE_EVENTS):
        return event
    redacted: AnyEvent = game.redact(event, seat)
    return redacted


def missed(
    since: int,
    version: int,
    events: list[tuple[int, AnyEvent]],
    seat: int | None,
    game: protocol.Game,
) -> dict[str, Any]:
    return {
        "type": "missed",
        "since": since,
        "version": version,
        "events": [{"version": v, "event": seat_event(e, seat, game)} for v, e in events],
    }
