"""What every `sahra serve …` background process does around its own work: log lines with
times, run until SIGINT or SIGTERM, and end a failed start with one line on stderr and
exit status 2 (no traceback, no hang). The gateway has its own (uvicorn's loop).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import asyncpg

from services.bus.nats import NatsBus
from services.bus.port import BusError
from services.store.migrate import redact
from services.store.postgres import PostgresEventStore

__all__ = [
    "add_server_arguments",
    "check_server_args",
    "connect_servers",
    "module_main",
    "run_until_signal",
]


def add_server_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of a process that talks to PostgreSQL and NATS."""
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
        "--connect-timeout", type=float, default=5.0, help="seconds per server (default 5)"
    )


def check_server_args(args: argparse.Namespace, prog: str) -> int | None:
    """Exit status 2 with one line when a server URL is missing."""
    for value, what, flag, env in (
        (args.database_url, "database", "--database-url", "SAHRA_DATABASE_URL"),
        (args.nats_url, "NATS", "--nats-url", "SAHRA_NATS_URL"),
    ):
        if not value:
            print(f"{prog}: no {what}: pass {flag} or set {env}", file=sys.stderr)
            return 2
    return None


def run_until_signal(
    prog: str,
    serve: Callable[[asyncio.Event], Awaitable[None]],
    startup_errors: tuple[type[Exception], ...],
) -> int:
    """Run `serve(stop)`, with `stop` set by SIGINT or SIGTERM; 2 after a failed start."""
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await serve(stop)

    try:
        asyncio.run(main())
    except startup_errors as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 2
    return 0


def module_main(register_serve: Callable[[Any], None], argv: Sequence[str] | None) -> int:
    """`python -m <module> <service> …`: the module's `sahra serve` sub-command alone."""
    parser = argparse.ArgumentParser(prog="sahra serve")
    register_serve(parser.add_subparsers(dest="serve", required=True))
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code


@contextlib.asynccontextmanager
async def connect_servers(
    database_url: str,
    nats_url: str,
    name: str,
    *,
    connect_timeout: float,
    pool: int,
    error: type[Exception],
) -> AsyncIterator[tuple[PostgresEventStore, NatsBus]]:
    """The store and the bus of a process called `name`, closed on the way out. A server
    that does not answer within `connect_timeout`, or a database without the schema,
    raises `error` with one line for people (no password in it)."""
    try:
        store = await asyncio.wait_for(
            PostgresEventStore.connect(
                database_url, min_size=1, max_size=pool, timeout=connect_timeout
            ),
            connect_timeout,
        )
    except TimeoutError:
        raise error(
            f"no answer from PostgreSQL at {redact(database_url)} within {connect_timeout:g} s"
        ) from None
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as failure:
        reason = " ".join(str(failure).split()) or type(failure).__name__
        raise error(f"cannot connect to PostgreSQL at {redact(database_url)}: {reason}") from None
    try:
        try:
            await store.load_checkpoint(name)
        except asyncpg.UndefinedTableError:
            raise error("the database has no Sahra schema yet: run `sahra migrate` first") from None
        try:
            bus = await NatsBus.connect(nats_url, timeout=connect_timeout, name=f"sahra-{name}")
        except BusError as failure:
            raise error(str(failure)) from None
        try:
            yield store, bus
        finally:
            await bus.close()
    finally:
        await store.close()
