"""Hidden cards and whole snapshots at rest: sealed with AES-256-GCM, open only in the service.

A dealt hand, the stock order, a drawn card and a stacked deck are private while a deal
is played (`engine/banakil/redact.py` says which fields: what `redact(event, None)`
hides). The codec stores such an event as its public form next to this module's seal of
the whole event, and seals snapshots (a table's state, the tables-in-play checkpoint)
whole; docs/fairness.md ("Who can learn what") says whom this protects from.

    K_s   = HMAC-SHA256(seed key, "sahra-hidden:v1:" + s)          one key per stream s
    nonce = 12 fresh random bytes
    body  = fingerprint(4) ‖ nonce(12) ‖ AES-256-GCM(K_s, nonce, plain, aad) (tag: 16)
    aad   = "sahra-hidden:v1" ‖ 0x00 ‖ s ‖ 0x00 ‖ label      label: event type, "snapshot"

Why random nonces are safe: AES-GCM must never see one nonce twice under one key, and
96-bit random nonces keep that chance below 2^-32 only up to ~2^32 seals per key. One key
per stream puts every key far below that (a table's stream holds at most some 10^5 sealed
values: a repeat has probability < 2^-60), while the seed key itself is used only to
derive. The tag covers the stream and the label: a value altered, moved to another
table or to another kind of event, or opened with another key is an error, never a wrong
card. `fingerprint` is the seed key's public name (`sealing.fingerprint`): a process
holding another key says so, rather than "altered".

Text form (an event's `sealed` field): "hidden:v1:" + base64(body). Snapshots: the ASCII
line "sahra-sealed:v1:" + stream + ":" + base64(body), so that a snapshot names the
stream it was sealed for (its key) and stays printable like the JSON it replaces.
"""

from __future__ import annotations

import base64
import binascii
import functools
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from services.tables import sealing

__all__ = [
    "PREFIX",
    "SNAPSHOT_PREFIX",
    "KeyMismatch",
    "Unreadable",
    "is_sealed_snapshot",
    "open_snapshot",
    "open_text",
    "seal_snapshot",
    "seal_text",
    "snapshot_stream",
]

PREFIX = "hidden:v1:"
SNAPSHOT_PREFIX = b"sahra-sealed:v1:"
_DOMAIN = "sahra-hidden:v1"
_NONCE = 12
_FINGERPRINT = 4  # bytes: sealing.fingerprint is 8 hex characters
_TAG = 16


KeyMismatch = sealing.KeyMismatch  # one error for a wrong key, secrets and cards alike


class Unreadable(sealing.SealError):
    """The value is malformed or was altered (its tag does not verify)."""


def seal_text(stream_id: str, label: str, plain: bytes) -> str:
    return PREFIX + base64.b64encode(_seal(stream_id, label, plain)).decode("ascii")


def open_text(stream_id: str, label: str, text: str) -> bytes:
    if not text.startswith(PREFIX):
        raise Unreadable(f"{_what(stream_id, label)}: not a sealed value")
    try:
        body = base64.b64decode(text[len(PREFIX) :], validate=True)
    except (binascii.Error, ValueError):
        raise Unreadable(f"{_what(stream_id, label)}: a malformed sealed value") from None
    return _open(stream_id, label, body)


def is_sealed_snapshot(data: bytes) -> bool:
    return data.startswith(SNAPSHOT_PREFIX)


def seal_snapshot(stream_id: str, plain: bytes) -> bytes:
    body = base64.b64encode(_seal(stream_id, "snapshot", plain))
    return SNAPSHOT_PREFIX + stream_id.encode() + b":" + body


def snapshot_stream(data: bytes) -> str:
    """The stream a sealed snapshot was sealed for (as it says: `open_snapshot` checks)."""
    named, sep, _ = data[len(SNAPSHOT_PREFIX) :].rpartition(b":")
    if not sep or not is_sealed_snapshot(data):
        raise Unreadable("a snapshot: not a sealed snapshot")
    return named.decode(errors="replace")


def open_snapshot(data: bytes, stream_id: str | None = None) -> bytes:
    """The plain bytes of a sealed snapshot; with `stream_id`, only if sealed for it."""
    sealed_for = snapshot_stream(data)
    body = data.rpartition(b":")[2]
    if stream_id is not None and sealed_for != stream_id:
        raise Unreadable(f"the snapshot of {stream_id!r} was sealed for {sealed_for!r}")
    try:
        raw = base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError):
        raise Unreadable(f"the snapshot of {sealed_for!r}: malformed") from None
    return _open(sealed_for, "snapshot", raw)


def _seal(stream_id: str, label: str, plain: bytes) -> bytes:
    sealer = sealing.current()
    nonce = os.urandom(_NONCE)
    box = _box(sealer, stream_id).encrypt(nonce, plain, _aad(stream_id, label))
    return _fingerprint(sealer) + nonce + box


def _open(stream_id: str, label: str, body: bytes) -> bytes:
    sealer = sealing.current()
    if len(body) < _FINGERPRINT + _NONCE + _TAG:
        raise Unreadable(f"{_what(stream_id, label)}: a malformed sealed value")
    if body[:_FINGERPRINT] != _fingerprint(sealer):
        sealed_with = body[:_FINGERPRINT].hex()
        raise KeyMismatch(
            f"{_what(stream_id, label)} was sealed with the seed key of fingerprint "
            f"{sealed_with}; this process holds {sealer.fingerprint}: "
            f"{sealing.KEY_ENV} must be the key it was sealed with"
        )
    nonce, box = body[_FINGERPRINT : _FINGERPRINT + _NONCE], body[_FINGERPRINT + _NONCE :]
    try:
        return _box(sealer, stream_id).decrypt(nonce, box, _aad(stream_id, label))
    except InvalidTag:
        raise Unreadable(
            f"{_what(stream_id, label)} does not open: it was altered, or sealed for "
            "another table or another kind of value"
        ) from None


def _what(stream_id: str, label: str) -> str:
    return f"a sealed {label} of {stream_id!r}"


def _aad(stream_id: str, label: str) -> bytes:
    return f"{_DOMAIN}\x00{stream_id}\x00{label}".encode()


@functools.lru_cache(maxsize=8)
def _fingerprint(sealer: sealing.Sealer) -> bytes:
    return bytes.fromhex(sealer.fingerprint)


@functools.lru_cache(maxsize=4096)
def _box(sealer: sealing.Sealer, stream_id: str) -> AESGCM:
    """The stream's cipher (a key derivation and a key schedule: cached per stream)."""
    return AESGCM(sealer.derive(f"{_DOMAIN}:{stream_id}"))
