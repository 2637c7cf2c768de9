"""`sahra serve bots`: play the bots of the tables no player is at, until SIGINT/SIGTERM.

Several workers may run at once: they play the same moves under the same command ids,
and the store keeps each once.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from services.bots.worker import BotsWorker
from services.projections.in_play import TablesInPlay
from services.runtime.entry import module_main, run_until_signal
from services.runtime.workers import (
    WorkerStartupError,
    add_worker_arguments,
    check_worker_args,
    worker_options,
    worker_service,
)

__all__ = ["main", "register_serve", "run_bots"]

_PROG = "sahra serve bots"
_log = logging.getLogger(__name__)


def register_serve(serve_subparsers: Any) -> None:
    """Add `bots` to the sub-commands of `sahra serve`."""
    parser = serve_subparsers.add_parser(
        "bots", help="play the bot seats of tables no player is at"
    )
    add_worker_arguments(parser)
    parser.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    failed = check_worker_args(args, _PROG)
    if failed is not None:
        return failed

    def serve(stop: asyncio.Event) -> Awaitable[None]:
        return run_bots(
            args.database_url,
            args.nats_url,
            stop=stop,
            **worker_options(args),
        )

    return run_until_signal(_PROG, serve, (WorkerStartupError,))


async def run_bots(
    database_url: str,
    nats_url: str,
    *,
    stop: asyncio.Event,
    interval: float = 0.1,
    connect_timeout: float = 5.0,
    accept: Callable[[str], bool] | None = None,
    saved_as: str | None = None,
) -> None:
    """The bots worker until `stop`; with `saved_as`, the tables in play are read from and
    saved to that checkpoint (`services.projections.in_play`)."""
    async with worker_service(database_url, nats_url, "bots", connect_timeout) as (
        store,
        service,
    ):
        _log.info("bots: connected; reading the log")
        tables = TablesInPlay(store, accept=accept, saved_as=saved_as)
        try:
            await BotsWorker(tables, service).run(stop, interval)
        finally:
            await tables.save()


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m services.cli.bots bots …`, the same as `sahra serve bots …`."""
    return module_main(register_serve, argv)


if __name__ == "__main__":
    sys.exit(main())
