"""Service configuration: environment variables, overridden by flags, checked at start.

| variable | default | meaning |
|---|---|---|
| SAHRA_DATABASE_URL | (embedded PostgreSQL under `sahra up`) | PostgreSQL URL |
| SAHRA_NATS_URL | (embedded NATS under `sahra up`) | NATS URL (JetStream on), with its user |
| SAHRA_HOST | 127.0.0.1 | address the gateway listens on |
| SAHRA_PORT | 8000 | port the gateway listens on |
| SAHRA_DATA_DIR | .sahra | where `sahra up` keeps the embedded servers' data |
| SAHRA_TOKEN_SECRET | data dir `token.key` | HMAC key of seat tokens; replicas must share it |
| SAHRA_ALLOW_STACKED_DECKS | off | tests and tutorials only: a new table may name its first deck |
| SAHRA_WS_DEFLATE | off | let WebSocket clients negotiate permessage-deflate (costs gateway CPU) |
| SAHRA_MIGRATIONS_DIR | migrations/ of the checkout | the SQL files `sahra migrate` applies |
| SAHRA_SEED_KEY | `seed.key` in the data dir | 64 hex: seals deal secrets at rest (see below) |
| SAHRA_SEED_WINDOW_SECONDS | 3 | the seats' time for client seeds before a deal (0: none) |
| SAHRA_CUT_SECONDS | 15 | the `classic` host's time to cut after the seed window (PF-CUT-2/3) |
| SAHRA_REVEAL_SECONDS | 8 | the end-of-deal screen before the next deal (PF-REVEAL-3) |
| SAHRA_ADMIN_TOKEN | unset: no admin routes | the operator's bearer token for /admin/quarantine |

SAHRA_SEED_KEY seals each deal's secret in the store until the deal reveals it
(docs/fairness.md, "In the service"). Without it, `sahra up` and `sahra serve gateway`
make a key file in the data dir on first start and log its fingerprint; every gateway of
one database needs the same key for as long as the database lives.

SAHRA_NATS_URL carries the process's NATS user and password when the server asks for
them: `nats://gateway:<password>@nats:4222` (deploy/nats.conf gives each service a user
of its own). `sahra up` makes a password for its embedded NATS on first start
(`nats.key` in the data dir) and hands every service of its process the URL with it.
Passwords never appear in logs or messages (shown as `***`).

A bad value is reported in one sentence and the process exits with status 2; reaching a
server has a short timeout, so a wrong URL fails fast instead of hanging.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlparse

import msgspec

if TYPE_CHECKING:
    from services.gateway.settings import Settings as GatewaySettings

__all__ = [
    "ConfigError",
    "Settings",
    "add_arguments",
    "check_nats",
    "check_postgres",
    "gateway_settings",
    "load_seed_settings",
    "redact_url",
    "settings_from",
]

_CONNECT_TIMEOUT = 5.0


class ConfigError(Exception):
    """A configuration problem, told to the operator in one sentence."""


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    database_url: str | None
    nats_url: str | None
    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = Path(".sahra")


def add_arguments(parser: argparse.ArgumentParser, *, listen: bool = True) -> None:
    parser.add_argument("--database-url", help="PostgreSQL URL (env SAHRA_DATABASE_URL)")
    parser.add_argument("--nats-url", help="NATS URL (env SAHRA_NATS_URL)")
    if listen:
        parser.add_argument("--host", help="listen address (env SAHRA_HOST, default 127.0.0.1)")
        parser.add_argument("--port", help="listen port (env SAHRA_PORT, default 8000)")
        parser.add_argument("--data-dir", help="embedded servers' data (env SAHRA_DATA_DIR)")


def settings_from(args: argparse.Namespace) -> Settings:
    def pick(flag: str, env: str) -> str | None:
        value = getattr(args, flag, None)
        return str(value) if value not in (None, "") else os.environ.get(env) or None

    port_text = pick("port", "SAHRA_PORT") or "8000"
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ConfigError(f"the port must be a number from 1 to 65535, not {port_text!r}")
    database_url = pick("database_url", "SAHRA_DATABASE_URL")
    if database_url and urlparse(database_url).scheme not in ("postgres", "postgresql"):
        raise ConfigError(f"the database URL must start with postgresql://, not {database_url!r}")
    nats_url = pick("nats_url", "SAHRA_NATS_URL")
    if nats_url and urlparse(nats_url).scheme not in ("nats", "tls", "ws", "wss"):
        raise ConfigError(f"the NATS URL must start with nats://, not {_safe(nats_url)!r}")
    return Settings(
        database_url=database_url,
        nats_url=nats_url,
        host=pick("host", "SAHRA_HOST") or "127.0.0.1",
        port=int(port_text),
        data_dir=Path(pick("data_dir", "SAHRA_DATA_DIR") or ".sahra"),
    )


async def check_postgres(url: str) -> None:
    import asyncpg

    try:
        conn = await asyncpg.connect(url, timeout=_CONNECT_TIMEOUT)
    except Exception as exc:
        raise ConfigError(f"cannot reach PostgreSQL at {_safe(url)}: {_reason(exc)}") from None
    await conn.close()


async def check_nats(url: str) -> None:
    import nats

    async def _quiet(_exc: Exception) -> None:
        return None

    try:
        nc = await nats.connect(
            url,
            connect_timeout=_CONNECT_TIMEOUT,
            allow_reconnect=False,
            max_reconnect_attempts=0,
            error_cb=_quiet,
        )
    except Exception as exc:
        raise ConfigError(f"cannot reach NATS at {_safe(url)}: {_reason(exc)}") from None
    try:
        await nc.jetstream().account_info()
    except Exception as exc:
        raise ConfigError(f"NATS at {_safe(url)} has no JetStream: {_reason(exc)}") from None
    finally:
        await nc.close()


def load_seed_settings(data_dir: Path) -> None:
    """Check the seed window and cut times, and install this process's seed key (from
    SAHRA_SEED_KEY, else the data directory's key file, made on first use)."""
    from services.tables import sealing
    from services.tables.seeds import SeedTiming

    try:
        SeedTiming.from_env()
        sealing.install_key(sealing.load_key(data_dir))
    except ValueError as exc:  # SealError is one
        raise ConfigError(str(exc)) from None
    except OSError as exc:
        raise ConfigError(f"cannot keep the seed key in {data_dir}: {exc}") from None


def gateway_settings(data_dir: Path) -> GatewaySettings:
    """The gateway's settings; its token secret from SAHRA_TOKEN_SECRET, else the data
    directory's `token.key` (made on first start), so seat tokens survive a restart."""
    from services.gateway.settings import Settings as GatewaySettings

    try:
        return GatewaySettings.from_env(data_dir=data_dir)
    except ValueError as exc:
        raise ConfigError(f"SAHRA_TOKEN_SECRET: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"cannot keep the token secret in {data_dir}: {exc}") from None


def fail(message: str) -> int:
    print(f"sahra: {message}", file=sys.stderr)
    return 2


def redact_url(url: str) -> str:
    """The URL with its password (if any) shown as ***, for logs and messages."""
    return _safe(url)


def _safe(url: str) -> str:
    parsed = urlparse(url)
    if parsed.password:
        return url.replace(f":{parsed.password}@", ":***@")
    return url


def _reason(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]
