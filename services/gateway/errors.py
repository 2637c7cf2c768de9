"""Every refusal as JSON {code, rule_id, message} with a 4xx status.

RuleViolation from the engine is a 409 (the table's state refuses it) or a 422 (the
request names something that cannot work); a malformed name, id or body is a 400
(`validation.py`, `too_deep`); Litestar's own errors (a malformed body, an unknown route,
a body over the size bound) keep their status and get the same shape. A dependency that
cannot be reached (PostgreSQL, NATS: `outage.py`) is a 503 with Retry-After, not a 500:
the same request may simply be sent again.
"""

from __future__ import annotations

import logging
from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.types import ExceptionHandlersMap

from engine.errors import RuleViolation
from services.gateway.outage import RETRY_AFTER, UNAVAILABLE_CODE, down_part, unavailable_message

__all__ = ["EXCEPTION_HANDLERS", "ApiError"]

_log = logging.getLogger(__name__)

# Refusals that are about the request itself rather than the table's current state.
_UNPROCESSABLE = {
    "bad_option",
    "bad_seats",
    "no_bots_here",
    "no_humans",
    "bad_player",
    "bad_seat",
    "bad_deck",
    "bad_stack",
    "bad_card",
}
_FORBIDDEN = {"not_host"}
# Malformed input: a name, an id or a body no request may hold (see validation.py).
_BAD_REQUEST = {"invalid_name", "invalid_command_id", "invalid_table_id", "too_deep"}


class ApiError(Exception):
    def __init__(self, status: int, code: str, rule_id: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.rule_id = rule_id
        self.message = message


def _body(code: str, rule_id: str, message: str) -> dict[str, str]:
    return {"code": code, "rule_id": rule_id, "message": message}


def _api_error(_: Request[Any, Any, Any], exc: ApiError) -> Response[dict[str, str]]:
    return Response(_body(exc.code, exc.rule_id, exc.message), status_code=exc.status)


def _rule_violation(_: Request[Any, Any, Any], exc: RuleViolation) -> Response[dict[str, str]]:
    if exc.code in _BAD_REQUEST:
        status = 400
    elif exc.code in _UNPROCESSABLE:
        status = 422
    else:
        status = 403 if exc.code in _FORBIDDEN else 409
    return Response(exc.as_dict(), status_code=status)


def _validation(_: Request[Any, Any, Any], exc: ValidationException) -> Response[dict[str, str]]:
    details = exc.extra if isinstance(exc.extra, list) else []
    where = "; ".join(
        f"{d.get('key') or d.get('source', '')}: {d.get('message', '')}"
        for d in details
        if isinstance(d, dict)
    )
    message = f"{exc.detail}: {where}" if where else str(exc.detail)
    return Response(_body("bad_request", "", message), status_code=400)


def _http(_: Request[Any, Any, Any], exc: HTTPException) -> Response[dict[str, str]]:
    codes = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "too_large"}
    code = codes.get(exc.status_code, "http_error")
    return Response(_body(code, "", str(exc.detail)), status_code=exc.status_code)


def _unavailable_response(part: str | None) -> Response[dict[str, str]]:
    """503: `part` ("postgresql", "nats"; None: unknown) cannot be reached; try again."""
    return Response(
        _body(UNAVAILABLE_CODE, "", unavailable_message(part)),
        status_code=503,
        headers={"Retry-After": str(RETRY_AFTER)},
    )


def _internal(request: Request[Any, Any, Any], exc: Exception) -> Response[dict[str, str]]:
    part = down_part(exc)
    if part is not None:  # an outage, not a bug: one line, no traceback per request
        _log.warning("%s %s: %s is down (%r)", request.method, request.url.path, part, exc)
        return _unavailable_response(part)
    _log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return Response(_body("internal_error", "", "something went wrong here"), status_code=500)


EXCEPTION_HANDLERS: ExceptionHandlersMap = {
    ApiError: _api_error,
    RuleViolation: _rule_violation,
    ValidationException: _validation,
    HTTPException: _http,
    Exception: _internal,
}
