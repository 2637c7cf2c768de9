"""WebSocket `/tables/{id}/ws?token=…&since=…`: one seat's session (no token: a spectator).

The seat comes from the token, never from a message: a client can only act for itself.
Message formats are in `services/gateway/messages.py`.

Whatever a client sends is answered, never met with a silent close: a malformed message, a
command id that is not one (validation.py), JSON nested too deeply (limits.py) is a
"rejected" message, logged when it is not an ordinary mistake. When the store cannot be
reached (outage.py) a command is rejected as `unavailable`, saying which part is down, and
a socket that cannot be seated gets an "error" and closes with 1013 (try again later).
"""

from __future__ import annotations

import contextlib
import logging
import re
from typing import Any

from litestar import WebSocket, websocket
from litestar.di import NamedDependency
from litestar.exceptions import WebSocketDisconnect
from litestar.params import FromPath

from engine import protocol
from engine.errors import RuleViolation
from services.gateway.asks import answer_ask
from services.gateway.hub import Session
from services.gateway.limits import too_deep
from services.gateway.messages import (
    accepted,
    command_id_of,
    decode_ask,
    decode_client,
    hand_order_message,
    missed,
    rejected,
)
from services.gateway.outage import UNAVAILABLE_CODE, down_part, unavailable_message
from services.gateway.tokens import refusal, seat_of
from services.gateway.wiring import Gateway
from services.tables import validation
from services.tables.games import game_of
from services.tables.service import Loaded

__all__ = ["table_socket"]

_BAD_REQUEST = 4400
_BAD_TOKEN = 4401
_NOT_FOUND = 4404
_CONFLICT = 4409
_TRY_AGAIN = 1013
_log = logging.getLogger(__name__)
_ID_PREFIX = re.compile(rb'"command_id"\s*:\s*"([!-~]{1,128}?)"')


@websocket("/tables/{table_id:str}/ws")
async def table_socket(
    socket: WebSocket[Any, Any, Any], table_id: FromPath[str], gw: NamedDependency[Gateway]
) -> None:
    await socket.accept()
    try:
        validation.table_id(table_id)
    except RuleViolation as malformed:
        return await _refuse(socket, malformed, _BAD_REQUEST)
    params = socket.query_params
    token, since_text = params.get("token"), params.get("since")
    seat = None
    if token is not None:
        seat = seat_of(gw.settings.token_secret, table_id, token)
        if seat is None:
            code, message = refusal(gw.settings.token_secret, token)
            error = RuleViolation(code, "PF-SEAT-1", message)
            return await _refuse(socket, error, _BAD_TOKEN)
    since: int | None = None
    if since_text is not None:
        if not since_text.isdigit() or len(since_text) > 12:
            error = RuleViolation("bad_since", "", "since is a stream version (0 or more)")
            return await _refuse(socket, error, _BAD_REQUEST)
        since = int(since_text)
    session = Session(table_id, seat, socket.send_text, gw.asks.shown)
    try:
        try:
            loaded = await gw.hub.join(session)
            if loaded.version == 0:
                error = RuleViolation("no_such_table", "", f"there is no table {table_id!r}")
                return await _refuse(socket, error, _NOT_FOUND)
            then = []
            if since is not None:
                events = await gw.service.events(table_id, since)
                events = [(v, e) for v, e in events if v <= loaded.version]
                then.append(missed(since, loaded.version, events, seat, game_of(loaded.state)))
        except RuleViolation as refused:  # a table that cannot be read (quarantined)
            return await _refuse(socket, refused, _CONFLICT)
        except Exception as exc:
            return await _refuse(
                socket, _unavailable(exc, f"seating a socket at {table_id}"), _TRY_AGAIN
            )
        if seat is not None:  # PF-SORT: the seat's hand order, kept across reconnects
            ordered = await _hand_order(gw, loaded, seat)
            if ordered is not None:
                then.insert(0, ordered)
        await session.greet(loaded, then)
        await gw.presence.arrived(session)  # PF-CONN-2: back within the grace, or later
        await _follow_up(gw, table_id)  # in case a gateway died before doing it
        await _serve(socket, session, gw, game_of(loaded.state))  # a table never changes game
    finally:
        await gw.hub.leave(session)
        await gw.presence.departed(session)  # PF-CONN-1: away once its last socket closed


async def _serve(
    socket: WebSocket[Any, Any, Any], session: Session, gw: Gateway, game: protocol.Game
) -> None:
    limit = gw.settings.max_message_bytes
    while not session.closed:
        try:
            message = await socket.receive()
        except WebSocketDisconnect:
            return
        if message["type"] != "websocket.receive":
            return
        text, data = message.get("text"), message.get("bytes")
        raw = text.encode() if text is not None else data or b""
        try:
            ask = decode_ask(raw, limit)
        except RuleViolation as exc:
            await session.send(rejected(None, exc))
            continue
        except RecursionError:
            ask = None  # decode_client below says so
        if ask is not None:
            await answer_ask(session, gw, ask)
            continue
        try:
            client_id, command = decode_client(raw, limit, game)
            validation.command_id(client_id)
        except RuleViolation as exc:
            await session.send(rejected(None if len(raw) > limit else command_id_of(raw), exc))
            continue
        except RecursionError:  # msgspec's answer to nesting deeper than it follows
            _log.warning("socket at %s sent JSON nested too deeply", session.table_id)
            # The id is read without decoding the rest; absent or nested, it is null.
            await session.send(rejected(_shallow_id(raw), too_deep()))
            continue
        if session.seat is None:
            refusal = RuleViolation("spectator", "PF-SEAT-1", "a spectator cannot send commands")
            await session.send(rejected(client_id, refusal))
            continue
        # The stored id is scoped to the seat, so one seat can never collide with (or
        # replay) another seat's or the system's command ids.
        command_id = f"seat{session.seat}:{client_id}"
        try:
            outcome = await gw.service.handle(
                session.table_id, session.seat, command, command_id, follow_up=False, player=True
            )
        except Exception as exc:  # the store is unreachable: the command may be sent again
            why = _unavailable(exc, f"command {command_id} at {session.table_id}")
            await session.send(rejected(client_id, why))
            continue
        if outcome.rejection is not None:
            await session.send(rejected(client_id, outcome.rejection))
            continue
        await session.send(accepted(client_id, outcome))
        await _follow_up(gw, session.table_id)


async def _hand_order(gw: Gateway, loaded: Loaded, seat: int) -> dict[str, Any] | None:
    """The "hand_order" message that follows the welcome of a seat that chose an order."""
    chosen = await gw.asks.load_hand_order(loaded.state.table_id, seat)
    shown = gw.asks.hand_order(loaded, seat)
    if chosen.order == "game" or shown is None:
        return None
    return hand_order_message(None, *shown)


async def _follow_up(gw: Gateway, table_id: str) -> None:
    try:
        await gw.service.follow_up(table_id)
    except Exception:  # the next command or connection at this table tries again
        _log.exception("follow-ups at %s failed", table_id)


def _unavailable(exc: Exception, doing: str) -> RuleViolation:
    """The refusal for a failure while `doing` something: `unavailable`, naming the part
    that is down when it is known (logged in one line), else logged with its traceback."""
    part = down_part(exc)
    if part is not None:
        _log.warning("%s: %s is down (%r)", doing, part, exc)
    else:
        _log.exception("%s failed", doing, exc_info=exc)
    return RuleViolation(UNAVAILABLE_CODE, "", unavailable_message(part))


def _shallow_id(raw: bytes) -> str | None:
    """The command id of a message too deep to decode, if it is written before the depth."""
    found = _ID_PREFIX.search(raw[:512])
    return found.group(1).decode() if found is not None else None


async def _refuse(socket: WebSocket[Any, Any, Any], error: RuleViolation, code: int) -> None:
    with contextlib.suppress(Exception):
        await socket.send_json({"type": "error", **error.as_dict()})
        await socket.close(code=code, reason=error.code)
