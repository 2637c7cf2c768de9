"""Every refusal as JSON {code, rule_id, message} with a 4xx status.

RuleViolation from the engine is a 409 (the table's state refuses it) or a 422 (the
request names something that cannot work); Litestar's own errors (a malformed body, an
unknown route) keep their status and get the same shape.
"""

from __future__ import annotations

import logging
from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.types import ExceptionHandlersMap

from engine.errors import RuleViolation

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
    status = 422 if exc.code in _UNPROCESSABLE else 403 if exc.code in _FORBIDDEN else 409
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
    codes = {400: "bad_request", 404: "not_found", 405: "method_not_allowed"}
    code = codes.get(exc.status_code, "http_error")
    return Response(_body(code, "", str(exc.detail)), status_code=exc.status_code)


def _internal(request: Request[Any, Any, Any], exc: Exception) -> Response[dict[str, str]]:
    _log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return Response(_body("internal_error", "", "something went wrong here"), status_code=500)


EXCEPTION_HANDLERS: ExceptionHandlersMap = {
    ApiError: _api_error,
    RuleViolation: _rule_violation,
    ValidationException: _validation,
    HTTPException: _http,
    Exception: _internal,
}
