"""Seat tokens: an HMAC-SHA256 over the table id and the seat, so a token names one seat
at one table and is worthless anywhere else. Tokens carry no expiry yet.

A token is `v2.<seat>.<key id>.<mac>`. The key id is a public fingerprint of the secret
that signed it, so a token the server cannot check is told apart from a forged one: after
a restart with another secret (an operator who dropped the data dir, a replica with its own
SAHRA_TOKEN_SECRET) the player reads "signed by another server key", not the misleading
"not for this table". Tokens of the first format (`v1.<seat>.<mac>`, no key id) are still
accepted while the secret that signed them is in use.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

__all__ = ["key_id", "refusal", "seat_of", "sign"]

_PREFIX = "v2"
_LEGACY = "v1"
_MAX_TOKEN = 200  # a token is ~60 characters: longer is not one of ours


def key_id(secret: bytes) -> str:
    """A public name of a token secret (8 hex): says which secret, never the secret."""
    return hashlib.sha256(b"sahra-token-key:" + secret).hexdigest()[:8]


def _mac(secret: bytes, table_id: str, seat: int) -> str:
    digest = hmac.new(secret, f"{table_id}\x00{seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def sign(secret: bytes, table_id: str, seat: int) -> str:
    return f"{_PREFIX}.{seat}.{key_id(secret)}.{_mac(secret, table_id, seat)}"


def seat_of(secret: bytes, table_id: str, token: str) -> int | None:
    """The seat a token gives at `table_id`, or None when it is not a valid token there
    (`refusal` says why)."""
    parts = _parts(token)
    if parts is None:
        return None
    seat, kid, mac = parts
    if kid is not None and kid != key_id(secret):
        return None
    if not hmac.compare_digest(mac, _mac(secret, table_id, seat)):
        return None
    return seat


def refusal(secret: bytes, token: str) -> tuple[str, str]:
    """(code, sentence) for a token `seat_of` refused."""
    parts = _parts(token)
    if parts is None:
        return "bad_token", "this is not a seat token (send the token the server gave you)"
    _, kid, _ = parts
    if kid is not None and kid != key_id(secret):
        return (
            "token_from_another_key",
            "this token was signed by another server key (the server's token secret changed "
            "since it was issued): take your seat again for a new token",
        )
    return "bad_token", "this token is not for this table"


def _parts(token: str) -> tuple[int, str | None, str] | None:
    """(seat, key id or None for a v1 token, mac), or None when it is no token at all."""
    if len(token) > _MAX_TOKEN:
        return None
    parts = token.split(".")
    if len(parts) == 4 and parts[0] == _PREFIX:
        seat_text, kid, mac = parts[1], parts[2], parts[3]
    elif len(parts) == 3 and parts[0] == _LEGACY:
        seat_text, kid, mac = parts[1], None, parts[2]
    else:
        return None
    if not (seat_text.isascii() and seat_text.isdigit()) or len(seat_text) > 3:
        return None  # isascii: "²" is a digit to isdigit, not to int
    if int(seat_text) < 1:
        return None
    return int(seat_text), kid, mac
