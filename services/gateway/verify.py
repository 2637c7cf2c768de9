"""The verifier's HTTP API (PF-FAIR-5), served by the gateway next to the Verify page.

    GET  /verify/{deal_id}        {"deal_id", "record", "verdict"} for a finished deal
    POST /verify                  the same for a deal record in the body ("deal_id": null)
    GET  /deals/{deal_id}/record  the deal record alone (docs/deal-format.md)

A deal id is "<table id>-<deal number>". Refusals are {code, rule_id, message}: 400 for a
malformed deal id or record, 404 for an unknown table or deal, 409 for a deal still being
played (its secret is not revealed yet, PF-FAIR-3) or stored without its commands. The
verdict is the verifier's of the game the record names (`Game.records.verify`; Banakil's
is `engine.verify.verify_record`), the record the one it checked (for a posted record,
the body as it was sent).
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
from litestar import Response, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, RawBody

from engine.replay import RecordError
from services.gateway.errors import ApiError
from services.gateway.openapi import refusals
from services.gateway.wiring import Gateway
from services.verifier.reading import read_record, verify_any
from services.verifier.records import RecordProblem, deal_record

__all__ = ["VERIFY_ROUTES", "VerifyAnswer"]

_JSON = "application/json"


class VerifyAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """The record checked and the verdict of its game's verifier (Any: each game's own;
    Banakil's is `engine.verify.Verdict`)."""

    deal_id: str | None
    record: Any
    verdict: Any


_ENCODER = msgspec.json.Encoder()


async def _record(gw: Gateway, deal_id: str) -> Any:
    try:
        return await deal_record(gw.store, deal_id)
    except RecordProblem as problem:
        raise ApiError(problem.status, problem.code, problem.rule_id, problem.message) from None


def _answer(deal_id: str | None, record: Any, shown: Any) -> bytes:
    verdict = verify_any(record)
    return _ENCODER.encode(VerifyAnswer(deal_id=deal_id, record=shown, verdict=verdict))


@get("/verify/{deal_id:str}", responses=refusals(400, 404, 409, 503))
async def verify_deal(deal_id: FromPath[str], gw: NamedDependency[Gateway]) -> Response[bytes]:
    """Verify a finished deal of this server: its record from the store and the verdict."""
    record = await _record(gw, deal_id)
    # CPU work: off the event loop, so the sockets of this gateway keep being served.
    body = await asyncio.to_thread(_answer, deal_id, record, record)
    return Response(body, media_type=_JSON)


@post("/verify", status_code=200, responses=refusals(400))
async def verify_posted(body: RawBody) -> Response[bytes]:
    """Verify a deal record sent in the body (a file a player kept, or edited)."""
    try:
        _, record = read_record(body)
    except RecordError as exc:
        raise ApiError(400, "bad_record", "", str(exc)) from None
    answer = await asyncio.to_thread(_answer, None, record, msgspec.Raw(body))
    return Response(answer, media_type=_JSON)


@get("/deals/{deal_id:str}/record", responses=refusals(400, 404, 409, 503))
async def deal_record_json(deal_id: FromPath[str], gw: NamedDependency[Gateway]) -> Response[bytes]:
    """The deal record of a finished deal, to keep or to verify elsewhere."""
    record = await _record(gw, deal_id)
    return Response(_ENCODER.encode(record), media_type=_JSON)


VERIFY_ROUTES = [verify_deal, verify_posted, deal_record_json]
