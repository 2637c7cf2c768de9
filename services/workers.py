"""What a worker process (the clock, the bots) runs on: the store, the bus, the service.

A worker writes through the same table service as a gateway, so it needs what a gateway
needs: PostgreSQL, NATS JetStream (to publish what it appends) and the seed key that
opens the deals' sealed secrets (SAHRA_SEED_KEY, shared by every process of one database;
`services/gateway/sealing.py`). A server that cannot be reached, or a database without
the schema, ends the start with one line for people (WorkerStartupError).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import zlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import asyncpg

from services import config
from services.bus.nats import NatsBus
from services.bus.port import BusError
from services.gateway.tables import TableService
from services.store.migrate import redact
from services.store.postgres import PostgresEventStore

__all__ = [
    "WorkerStartupError",
    "add_worker_arguments",
    "check_worker_args",
    "shard",
    "worker_service",
]

_POOL = 4


class WorkerStartupError(Exception):
    """A server could not be reached or is not ready; the message is one line for people."""


@contextlib.asynccontextmanager
async def worker_service(
    database_url: str, nats_url: str, name: str, connect_timeout: float = 5.0
) -> AsyncIterator[tuple[PostgresEventStore, TableService]]:
    """The store and a table service over it (publishing to NATS), closed on the way out."""
    try:
        store = await asyncio.wait_for(
            PostgresEventStore.connect(
                database_url, min_size=1, max_size=_POOL, timeout=connect_timeout
            ),
            connect_timeout,
        )
    except TimeoutError:
        raise WorkerStartupError(
            f"no answer from PostgreSQL at {redact(database_url)} within {connect_timeout:g} s"
        ) from None
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
        reason = " ".join(str(error).split()) or type(error).__name__
        raise WorkerStartupError(
            f"cannot connect to PostgreSQL at {redact(database_url)}: {reason}"
        ) from None
    try:
        try:
            await store.load_checkpoint(name)
        except asyncpg.UndefinedTableError:
            raise WorkerStartupError(
                "the database has no Sahra schema yet: run `sahra migrate` first"
            ) from None
        try:
            bus = await NatsBus.connect(nats_url, timeout=connect_timeout, name=f"sahra-{name}")
        except BusError as error:
            raise WorkerStartupError(str(error)) from None
        service = TableService(store, bus)
        try:
            yield store, service
        finally:
            await service.deadlines.close()
            await service.close()
            await bus.close()
    finally:
        await store.close()


def add_worker_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags every worker process takes (servers, seed key, look interval)."""
    parser.add_argument(
        "--database-url",
        default=os.environ.get("SAHRA_DATABASE_URL"),
        help="PostgreSQL URL (default: $SAHRA_DATABASE_URL)",
    )
    parser.add_argument(
        "--nats-url",
        default=os.environ.get("SAHRA_NATS_URL"),
        help="NATS URL (default: $SAHRA_NATS_URL)",
    )
    parser.add_argument(
        "--data-dir",
        default=os.environ.get("SAHRA_DATA_DIR") or ".sahra",
        help="where the seed key file is kept when SAHRA_SEED_KEY is not set",
    )
    parser.add_argument(
        "--connect-timeout", type=float, default=5.0, help="seconds per server (default 5)"
    )
    parser.add_argument(
        "--interval", type=float, default=0.1, help="seconds between looks at the log"
    )
    parser.add_argument(
        "--shard",
        type=_shard_arg,
        default=None,
        metavar="I/N",
        help="take only shard I of N of the tables (0 ≤ I < N; default: every table)",
    )


def check_worker_args(args: argparse.Namespace, prog: str) -> int | None:
    """Exit status 2 with one line when a server URL or the seed key is missing."""
    for value, what, flag, env in (
        (args.database_url, "database", "--database-url", "SAHRA_DATABASE_URL"),
        (args.nats_url, "NATS", "--nats-url", "SAHRA_NATS_URL"),
    ):
        if not value:
            print(f"{prog}: no {what}: pass {flag} or set {env}", file=sys.stderr)
            return 2
    try:
        config.load_seed_settings(Path(args.data_dir).resolve())
    except config.ConfigError as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 2
    return None


def shard(index: int, count: int) -> Callable[[str], bool]:
    """Whether a table belongs to shard `index` of `count` (a stable hash of its id)."""
    return lambda table_id: zlib.crc32(table_id.encode()) % count == index


def _shard_arg(text: str) -> tuple[int, int]:
    index, _, count = text.partition("/")
    if not (index.isdigit() and count.isdigit() and 0 <= int(index) < int(count)):
        raise argparse.ArgumentTypeError(f"a shard is I/N with 0 ≤ I < N, not {text!r}")
    return int(index), int(count)
