"""What a worker process (the clock, the bots) runs on: the store, the bus, the service.

A worker writes through the same table service as a gateway, so it needs what a gateway
needs: PostgreSQL, NATS JetStream (to publish what it appends) and the seed key that
opens the deals' sealed secrets (SAHRA_SEED_KEY, shared by every process of one database;
`services/tables/sealing.py`). A server that cannot be reached, or a database without
the schema, ends the start with one line for people (WorkerStartupError).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import zlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TypedDict

from services.projections.in_play import snapshot_name
from services.runtime import config
from services.runtime.entry import add_server_arguments, check_server_args, connect_servers
from services.store.postgres import PostgresEventStore
from services.tables.service import TableService

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
    async with connect_servers(
        database_url,
        nats_url,
        name,
        connect_timeout=connect_timeout,
        pool=_POOL,
        error=WorkerStartupError,
    ) as (store, bus):
        service = TableService(store, bus)
        try:
            yield store, service
        finally:
            await service.deadlines.close()
            await service.close()


def add_worker_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags every worker process takes (servers, seed key, look interval)."""
    add_server_arguments(parser)
    parser.add_argument(
        "--data-dir",
        default=os.environ.get("SAHRA_DATA_DIR") or ".sahra",
        help="where the seed key file is kept when SAHRA_SEED_KEY is not set",
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
    failed = check_server_args(args, prog)
    if failed is not None:
        return failed
    try:
        config.load_seed_settings(Path(args.data_dir).resolve())
    except config.ConfigError as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 2
    return None


class WorkerOptions(TypedDict):
    """The keyword arguments every worker's run function takes from its flags."""

    interval: float
    connect_timeout: float
    accept: Callable[[str], bool] | None
    saved_as: str


def worker_options(args: argparse.Namespace) -> WorkerOptions:
    """The worker flags of `add_worker_arguments`, as the run functions take them: the
    shard's filter of tables and the name its tables-in-play snapshot is saved under."""
    return WorkerOptions(
        interval=args.interval,
        connect_timeout=args.connect_timeout,
        accept=None if args.shard is None else shard(*args.shard),
        saved_as=snapshot_name(args.shard),
    )


def shard(index: int, count: int) -> Callable[[str], bool]:
    """Whether a table belongs to shard `index` of `count` (a stable hash of its id)."""
    return lambda table_id: zlib.crc32(table_id.encode()) % count == index


def _shard_arg(text: str) -> tuple[int, int]:
    index, _, count = text.partition("/")
    if not (index.isdigit() and count.isdigit() and 0 <= int(index) < int(count)):
        raise argparse.ArgumentTypeError(f"a shard is I/N with 0 ≤ I < N, not {text!r}")
    return int(index), int(count)
