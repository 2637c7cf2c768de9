"""The seat a request speaks for: its `Authorization: Bearer <seat token>` header.

One place for the HTTP routes that act for a seat (start, leave, ...), so each refusal
says the same thing: 401 without a token, 403 with one that is not for this table, or
one signed by another server key (`tokens.refusal`).
"""

from __future__ import annotations

from services.gateway.errors import ApiError
from services.gateway.tokens import refusal, seat_of

__all__ = ["bearer_seat"]


def bearer_seat(secret: bytes, table_id: str, authorization: str | None) -> int:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "no_token", "PF-SEAT-1", "send the seat token: Bearer <token>")
    token = token.strip()
    seat = seat_of(secret, table_id, token)
    if seat is None:
        code, message = refusal(secret, token)
        raise ApiError(403, code, "PF-SEAT-1", message)
    return seat
