"""Gateway settings, read from the environment in one place.

`SAHRA_TOKEN_SECRET` signs the seat tokens. When it is unset each process draws a random
secret at start: tokens then do not survive a restart, and replicas behind one load
balancer must share one secret or a token issued by one is refused by the others.

`SAHRA_WS_DEFLATE` (off unless 1/true/yes/on) lets WebSocket clients negotiate
permessage-deflate. It is off by default: a view is about 1-3 KB of JSON, and compressing
every push cost the gateway about 5% of its CPU per command (zlib plus a larger frame
path) for bandwidth that only matters on slow links. Turn it on where it does.
"""

from __future__ import annotations

import os
import secrets

import msgspec

__all__ = ["Settings"]

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

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        secret = env.get("SAHRA_TOKEN_SECRET")
        stacked = env.get("SAHRA_ALLOW_STACKED_DECKS", "").lower() in _TRUE
        deflate = env.get("SAHRA_WS_DEFLATE", "").lower() in _TRUE
        if secret:
            return cls(
                token_secret=secret.encode(), allow_stacked_decks=stacked, ws_deflate=deflate
            )
        return cls(allow_stacked_decks=stacked, ws_deflate=deflate)
