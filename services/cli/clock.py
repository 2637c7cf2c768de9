"""`sahra serve clock`: fire the turn deadlines of every table until SIGINT or SIGTERM.

Several clocks may run at once (each fires what is due; the store keeps each command
once). `--time-offset` makes this clock believe the time is that many seconds later: for
drills and fault tests, never in production.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from services.clock.clock import Clock
from services.projections.deadlines import utc_now
from services.projections.in_play import TablesInPlay
from services.runtime.entry import module_main, run_until_signal
from services.runtime.workers import (
    WorkerStartupError,
    add_worker_arguments,
    check_worker_args,
    worker_options,
    worker_service,
)

__all__ = ["main", "register_serve", "run_clock"]

_PROG = "sahra serve clock"
_SYSTEM = 0
_log = logging.getLogger(__name__)


def register_serve(serve_subparsers: Any) -> None:
    """Add `clock` to the sub-commands of `sahra serve`."""
    parser = serve_subparsers.add_parser(
        "clock", help="fire turn timeouts and seat replacements when their time is up"
    )
    add_worker_arguments(parser)
    parser.add_argument(
        "--time-offset",
        type=float,
        default=0.0,
        help="act as if the time were this many seconds later (drills and tests only)",
    )
    parser.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    failed = check_worker_args(args, _PROG)
    if failed is not None:
        return failed

    def serve(stop: asyncio.Event) -> Awaitable[None]:
        return run_clock(
            args.database_url,
            args.nats_url,
            stop=stop,
            time_offset=timedelta(seconds=args.time_offset),
            **worker_options(args),
        )

    return run_until_signal(_PROG, serve, (WorkerStartupError,))


async def run_clock(
    database_url: str,
    nats_url: str,
    *,
    stop: asyncio.Event,
    interval: float = 0.1,
    connect_timeout: float = 5.0,
    accept: Callable[[str], bool] | None = None,
    saved_as: str | None = None,
    time_offset: timedelta = timedelta(),
) -> None:
    """The clock until `stop`: connect, then fire what is due every `interval` seconds.
    With `saved_as`, the tables in play are read from and saved to that checkpoint."""
    async with worker_service(database_url, nats_url, "clock", connect_timeout) as (
        store,
        service,
    ):

        def now() -> datetime:
            return utc_now() + time_offset

        tables = TablesInPlay(store, accept=accept, saved_as=saved_as)
        clock = Clock(
            tables,
            lambda table_id, command, command_id: service.handle(
                table_id, _SYSTEM, command, command_id
            ),
            now,
        )
        if time_offset:
            _log.warning("clock: the time is taken %s s ahead", time_offset.total_seconds())
        _log.info("clock: connected; reading the log")
        try:
            await clock.run(stop, interval)
        finally:
            await tables.save()


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m services.cli.clock clock …`, the same as `sahra serve clock …`."""
    return module_main(register_serve, argv)


if __name__ == "__main__":
    sys.exit(main())
