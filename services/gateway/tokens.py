"""Seat tokens: an HMAC-SHA256 over the table id and the seat, so a token names one seat
at one table and is worthless anywhere else. Tokens carry no expiry yet."""

from __future__ import annotations

import base64
import hashlib
import hmac

__all__ = ["seat_of", "sign"]

_PREFIX = "v1"


def _mac(secret: bytes, table_id: str, seat: int) -> str:
    digest = hmac.new(secret, f"{table_id}\x00{seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def sign(secret: bytes, table_id: str, seat: int) -> str:
    return f"{_PREFIX}.{seat}.{_mac(secret, table_id, seat)}"


def seat_of(secret: bytes, table_id: str, token: str) -> int | None:
    """The seat a token gives at `table_id`, or None when it is not a valid token there."""
    parts = token.split(".")
    if len(parts) != 3 or parts[0] != _PREFIX or not parts[1].isdigit() or len(parts[1]) > 3:
        return None
    seat = int(parts[1])
    if seat < 1 or not hmac.compare_digest(parts[2], _mac(secret, table_id, seat)):
        return None
    return seat
