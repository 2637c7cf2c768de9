"""`sahra serve relay`: run the store → JetStream relay until SIGINT or SIGTERM.

The relay's loop is `services/bus/relay.py`; here it gets its servers (`run_relay`, which
`sahra up` runs too) and its command line.

A server that cannot be reached, or a database without the schema, ends it at once
with one line on stderr and exit status 2; no traceback, no hang.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Awaitable, Sequence
from typing import Any

from services.bus.relay import Relay
from services.runtime.entry import (
    add_server_arguments,
    check_server_args,
    connect_servers,
    module_main,
    run_until_signal,
)

__all__ = ["RelayStartupError", "main", "register_serve", "run_relay"]

_PROG = "sahra serve relay"
_log = logging.getLogger(__name__)


class RelayStartupError(Exception):
    """A server could not be reached or is not ready; the message is one line for people."""


def register_serve(serve_subparsers: Any) -> None:
    """Add `relay` to the sub-commands of `sahra serve`."""
    parser = serve_subparsers.add_parser(
        "relay", help="publish every committed event to NATS JetStream (crash recovery)"
    )
    add_server_arguments(parser)
    parser.add_argument(
        "--poll-interval", type=float, default=0.5, help="seconds between idle polls"
    )
    parser.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    failed = check_server_args(args, _PROG)
    if failed is not None:
        return failed

    def serve(stop: asyncio.Event) -> Awaitable[None]:
        return run_relay(
            args.database_url,
            args.nats_url,
            stop=stop,
            poll_interval=args.poll_interval,
            connect_timeout=args.connect_timeout,
        )

    return run_until_signal(_PROG, serve, (RelayStartupError,))


async def run_relay(
    database_url: str,
    nats_url: str,
    *,
    stop: asyncio.Event | None = None,
    poll_interval: float = 0.5,
    connect_timeout: float = 5.0,
    name: str = "relay",
) -> None:
    """The entry of `sahra serve relay`: connect both servers, then relay until `stop`.

    Raises RelayStartupError (one line, no secrets) when a server cannot be reached
    within `connect_timeout` or the database has no schema yet."""
    async with connect_servers(
        database_url,
        nats_url,
        name,
        connect_timeout=connect_timeout,
        pool=2,
        error=RelayStartupError,
    ) as (store, bus):
        _log.info("relay %r: connected; publishing what the store commits", name)
        await Relay(store, bus, name).run_forever(stop or asyncio.Event(), poll_interval)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m services.cli.relay relay …`, the same as `sahra serve relay …`."""
    return module_main(register_serve, argv)


if __name__ == "__main__":
    sys.exit(main())
