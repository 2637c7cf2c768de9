"""A seat's questions over its WebSocket: hints, staging checks, its hand order (issue 14).

Each is answered on the socket that asked, and nowhere else: no other seat, no spectator,
no other gateway hears of it; nothing is appended or published (PF-HINT-3, PF-STAGE-8,
PF-SORT-3). A spectator has nothing to ask about (`spectator`). Each kind of question is
counted per seat (rates.py) before anything is loaded; a refusal is a "refused" message
naming the request, and the socket stays open. The answers themselves come from the table
application service (services/tables/seat_asks.py), which asks the game.
"""

from __future__ import annotations

import logging

from engine.errors import RuleViolation
from services.gateway.hub import Session
from services.gateway.messages import (
    Ask,
    HandOrderRequest,
    HintRequest,
    StageRequest,
    answer,
    hand_order_message,
    refused,
)
from services.gateway.outage import UNAVAILABLE_CODE, down_part, unavailable_message
from services.gateway.wiring import Gateway

__all__ = ["answer_ask"]

_log = logging.getLogger(__name__)


async def answer_ask(session: Session, gw: Gateway, ask: Ask) -> None:
    seat, table_id = session.seat, session.table_id
    try:
        if seat is None:
            raise RuleViolation("spectator", "PF-HINT-3", "a spectator has no hand to ask about")
        match ask:
            case HintRequest():
                gw.hint_rates.take(table_id, seat)
                found = await gw.asks.hint(table_id, seat)
                message = answer("hint", ask.request_id, found)
            case StageRequest():
                gw.stage_rates.take(table_id, seat)
                found = await gw.asks.stage(table_id, seat, bytes(ask.proposal))
                message = answer("staged", ask.request_id, found)
            case HandOrderRequest():
                gw.order_rates.take(table_id, seat)
                chosen, hand = await gw.asks.set_hand_order(table_id, seat, ask.order, ask.cards)
                message = hand_order_message(ask.request_id, chosen, hand)
    except RuleViolation as why:
        await session.send(refused(ask.request_id, why))
        return
    except Exception as exc:  # the store is away (a load, a saved order): ask again
        part = down_part(exc)
        if part is None:
            _log.exception("%s at %s failed", type(ask).__name__, table_id)
        trouble = RuleViolation(UNAVAILABLE_CODE, "", unavailable_message(part))
        await session.send(refused(ask.request_id, trouble))
        return
    await session.send(message)
