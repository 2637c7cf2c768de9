"""Gateway settings, read from the environment in one place.

`SAHRA_TOKEN_SECRET` signs the seat tokens. When it is unset, a process given a data
directory (`sahra up`, `sahra serve gateway`) keeps the secret in `token.key` there, made on
first start like `seed.key`, so tokens survive a restart; a process with neither draws a
random secret that dies with it (tests). Replicas behind one load balancer must share one
secret or a token issued by one is refused by the others ("signed by another server key").

`SAHRA_WS_DEFLATE` (off unless 1/true/yes/on) lets WebSocket clients negotiate
permessage-deflate. It is off by default: a view is about 1-3 KB of JSON, and compressing
every push cost the gateway about 5% of its CPU per command (zlib plus a larger frame
path) for bandwidth that only matters on slow links. Turn it on where it does.
"""

from __future__ import annotations

import logging
import os
import secrets
from collections.abc import Mapping
from pathlib import Path

import msgspec

from services.gateway.tokens import key_id
from services.tables import keyfiles

__all__ = ["TOKEN_FILE", "Settings", "load_token_secret"]

_log = logging.getLogger(__name__)
TOKEN_FILE = "token.key"
_MIN_SECRET = 16  # bytes: a shorter HMAC key is guessable

_TRUE = {"1", "true", "yes", "on"}


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    token_secret: bytes = msgspec.field(default_factory=lambda: secrets.token_bytes(32))
    allow_stacked_decks: bool = False  # tests and tutorials only: a table may name its deck
    snapshot_every: int = 50  # events between snapshots of a table's state
    max_message_bytes: int = 64 * 1024  # a larger WebSocket message is refused, not read
    append_retries: int = 10  # re-decide this often when another writer got there first
    cache_tables: int = 10_000  # table states kept in memory (least recently used go)
    probe_timeout: float = 2.0  # seconds for each dependency check of /readyz
    ws_deflate: bool = False  # offer WebSocket permessage-deflate (see the module doc)
    # A seat's questions (services/tables/seat_asks.py): a hint is given up after this long,
    # and at most this many run at once; each seat's rate, per second with a burst
    hint_seconds: float = 2.0
    hint_slots: int = 2
    hints_per_second: float = 2.0
    hints_burst: int = 4
    stages_per_second: float = 10.0
    stages_burst: int = 20
    orders_per_second: float = 4.0
    orders_burst: int = 8

    @classmethod
    def from_env(
        cls, environ: dict[str, str] | None = None, data_dir: Path | None = None
    ) -> Settings:
        """ValueError when SAHRA_TOKEN_SECRET or the data dir's token file is unusable."""
        env = os.environ if environ is None else environ
        stacked = env.get("SAHRA_ALLOW_STACKED_DECKS", "").lower() in _TRUE
        deflate = env.get("SAHRA_WS_DEFLATE", "").lower() in _TRUE
        return cls(
            token_secret=load_token_secret(data_dir, env),
            allow_stacked_decks=stacked,
            ws_deflate=deflate,
        )


def load_token_secret(data_dir: Path | None, environ: Mapping[str, str] | None = None) -> bytes:
    """SAHRA_TOKEN_SECRET when set; else `token.key` in `data_dir` (made on first start);
    else, with no data dir, a random secret for this process alone (logged)."""
    env = os.environ if environ is None else environ
    text = env.get("SAHRA_TOKEN_SECRET")
    if text:
        return _parse_secret(text)
    if data_dir is None:
        secret = secrets.token_bytes(32)
        _log.warning(
            "SAHRA_TOKEN_SECRET is not set and there is no data dir: seat tokens are signed "
            "with a random secret (key id %s) that dies with this process",
            key_id(secret),
        )
        return secret
    path = data_dir / TOKEN_FILE
    secret, made = keyfiles.load_or_make(path, lambda: secrets.token_hex(32), _parse_secret)
    if made:
        _log.warning("generated the seat token secret in %s (key id %s)", path, key_id(secret))
    return secret


def _parse_secret(text: str) -> bytes:
    secret = text.strip().encode()
    if len(secret) < _MIN_SECRET:
        raise ValueError(
            f"the token secret must be at least {_MIN_SECRET} characters, got {len(secret)}"
        )
    return secret
