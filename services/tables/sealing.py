"""The deal secrets at rest: sealed in the store, open only inside the service.

A SeedCommitted event carries the deal's secret so that the service can shuffle and deal
from it (PF-FAIR-1); until SeedRevealed (PF-FAIR-3) nobody else may read it. In the event
store, on the bus and in snapshots the `secret` field is therefore written sealed:

    "enc:v2:" + fingerprint(key) + ":" + hex(S XOR K)
    K = HMAC-SHA256(key, "seed:" + stream_id + ":" + deal + ":" + commitment)

with `key` the 32-byte SAHRA_SEED_KEY. K is a PRF output under a secret key on a message
that is never used twice (one secret per (table, deal), and the commitment names the
secret itself), 32 bytes long like S: a one-time pad for S as long as HMAC-SHA256 is a
PRF. Opening checks SHA-256(S) against the commitment, so a wrong key is reported, never
dealt from. The key's public fingerprint in front tells a process with another key
(`KeyMismatch`: the process is misconfigured, every table alike) from a value that was
altered (`SealError`: that table's fault). Values of the first format, "enc:v1:" + hex,
written before the fingerprint, still open; for them the two cannot be told apart.
Standard library only; `docs/fairness.md` ("In the service") says why this is sound here
and what it does not protect against.

The codec seals on the way to the store and opens on the way back; one key per process
(`install_key`), read from the environment or a key file in the data directory
(`load_key`). Values without the prefix (revealed secrets, logs from before sealing)
pass through unchanged.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
from pathlib import Path

from services.tables import keyfiles

__all__ = [
    "KEY_ENV",
    "KEY_FILE",
    "PREFIX",
    "KeyMismatch",
    "SealError",
    "Sealer",
    "current",
    "existing_key",
    "fingerprint",
    "install_key",
    "is_sealed",
    "load_key",
    "parse_key",
]

_log = logging.getLogger(__name__)

PREFIX = "enc:v2:"
_V1 = "enc:v1:"  # the first format, without the key's fingerprint: read, never written
KEY_ENV = "SAHRA_SEED_KEY"
KEY_FILE = "seed.key"
_KEY_BYTES = 32


class SealError(ValueError):
    """A sealed secret that cannot be opened (another key), or a key that is not a key."""


class KeyMismatch(SealError):
    """The value was sealed with another seed key than this process's: the process's key
    is wrong (for every table alike), not the value."""


def parse_key(text: str) -> bytes:
    """A seed key written as 64 hex characters → its 32 bytes."""
    value = text.strip()
    try:
        key = bytes.fromhex(value)
    except ValueError:
        key = b""
    if len(key) != _KEY_BYTES:
        raise SealError(
            f"{KEY_ENV} must be {2 * _KEY_BYTES} hex characters (32 bytes), "
            f"got {len(value)} characters"
        )
    return key


def fingerprint(key: bytes) -> str:
    """A short public name of a key (for logs): the first 8 hex of SHA-256("sahra-seed-key:"
    + key). It says which key is in use without saying the key."""
    return hashlib.sha256(b"sahra-seed-key:" + key).hexdigest()[:8]


def is_sealed(value: str) -> bool:
    return value.startswith((PREFIX, _V1))


class Sealer:
    """Seals and opens deal secrets with one key."""

    __slots__ = ("_mac", "fingerprint")

    def __init__(self, key: bytes) -> None:
        if len(key) != _KEY_BYTES:
            raise SealError(f"a seed key is {_KEY_BYTES} bytes, got {len(key)}")
        self._mac = hmac.new(key, digestmod=hashlib.sha256)
        self.fingerprint = fingerprint(key)

    def derive(self, label: str) -> bytes:
        """A 32-byte key of its own for `label` (HMAC-SHA256 of it under the seed key), so
        other seals (hidden.py) never use the seed key itself. Labels never begin "seed:",
        the pads' domain below."""
        mac = self._mac.copy()
        mac.update(label.encode())
        return mac.digest()

    def _pad(self, stream_id: str, deal: int, commitment: str) -> int:
        mac = self._mac.copy()
        mac.update(f"seed:{stream_id}:{deal}:{commitment}".encode())
        return int.from_bytes(mac.digest(), "big")

    def seal(self, secret: str, stream_id: str, deal: int, commitment: str) -> str:
        """`secret` (64 hex, or already sealed) → "enc:v2:<fingerprint>:<64 hex>"."""
        if is_sealed(secret):
            return secret
        plain = int.from_bytes(bytes.fromhex(secret), "big")
        sealed = plain ^ self._pad(stream_id, deal, commitment)
        return f"{PREFIX}{self.fingerprint}:{sealed.to_bytes(_KEY_BYTES, 'big').hex()}"

    def open(self, value: str, stream_id: str, deal: int, commitment: str) -> str:
        """The secret as 64 hex characters; a value that is not sealed comes back as is."""
        if not is_sealed(value):
            return value
        if value.startswith(_V1):
            body = value[len(_V1) :]
        else:
            named, _, body = value[len(PREFIX) :].partition(":")
            if named != self.fingerprint:
                raise KeyMismatch(
                    f"deal {deal} of table {stream_id!r}: the secret was sealed with the seed "
                    f"key of fingerprint {named}, this process has {self.fingerprint}; "
                    f"{KEY_ENV} must be the key it was sealed with"
                )
        try:
            sealed = int.from_bytes(bytes.fromhex(body), "big")
        except ValueError:
            sealed = -1
        if len(body) != 2 * _KEY_BYTES or sealed < 0:
            raise SealError(f"deal {deal} of table {stream_id!r}: a malformed sealed secret")
        plain = (sealed ^ self._pad(stream_id, deal, commitment)).to_bytes(_KEY_BYTES, "big")
        if hashlib.sha256(plain).hexdigest() != commitment:
            raise SealError(
                f"deal {deal} of table {stream_id!r}: the sealed secret does not open to its "
                f"commitment with this key (fingerprint {self.fingerprint}); "
                f"{KEY_ENV} must be the key it was sealed with"
            )
        return plain.hex()


_installed: dict[str, Sealer] = {}  # "key": this process's sealer, once chosen


def install_key(key: bytes) -> Sealer:
    """Use `key` for every seal and open in this process from now on."""
    sealer = _installed["key"] = Sealer(key)
    return sealer


def current() -> Sealer:
    """This process's sealer: the installed key, else SAHRA_SEED_KEY, else a random key
    that lives as long as the process (tests, single-process runs without a data dir)."""
    sealer = _installed.get("key")
    if sealer is None:
        text = os.environ.get(KEY_ENV)
        if text:
            sealer = Sealer(parse_key(text))
        else:
            sealer = Sealer(secrets.token_bytes(_KEY_BYTES))
            _log.warning(
                "%s is not set and no key was loaded: deal secrets are sealed with a random "
                "key that dies with this process (fingerprint %s)",
                KEY_ENV,
                sealer.fingerprint,
            )
        sealer = _installed.setdefault("key", sealer)
    return sealer


def existing_key(data_dir: Path | None, environ: dict[str, str] | None = None) -> bytes | None:
    """The seed key when there is one: SAHRA_SEED_KEY, else the key file in `data_dir`;
    None when neither is there. Never makes a key: a reader (`sahra verify`) must open
    with the key that sealed, and a new one would open nothing."""
    env = os.environ if environ is None else environ
    if env.get(KEY_ENV) or (data_dir is not None and (data_dir / KEY_FILE).exists()):
        return load_key(data_dir, environ)
    return None


def load_key(data_dir: Path | None, environ: dict[str, str] | None = None) -> bytes:
    """The seed key: SAHRA_SEED_KEY when set; otherwise the key file in `data_dir`, made
    (owner-only) with a fresh random key the first time. SealError when neither can be
    had (a bad value, or no data dir and no variable)."""
    env = os.environ if environ is None else environ
    text = env.get(KEY_ENV)
    if text:
        return parse_key(text)
    if data_dir is None:
        raise SealError(f"{KEY_ENV} is not set and there is no data directory for a key file")
    path = data_dir / KEY_FILE
    try:
        key, made = keyfiles.load_or_make(path, lambda: secrets.token_hex(_KEY_BYTES), parse_key)
    except ValueError as exc:  # the file's text is not a key: named with its path
        raise SealError(str(exc)) from None
    if not made:
        return key
    _log.warning(
        "%s is not set: generated a new seed key in %s (fingerprint %s). Keep this file: "
        "without it the secrets of unfinished deals cannot be opened; every gateway of one "
        "database needs the same key (set %s to its contents)",
        KEY_ENV,
        path,
        fingerprint(key),
        KEY_ENV,
    )
    return key
