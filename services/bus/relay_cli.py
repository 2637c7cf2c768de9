"""`sahra serve relay`: run the store → JetStream relay until SIGINT or SIGTERM.

A server that cannot be reached, or a database without the schema, ends it at once
with one line on stderr and exit status 2; no traceback, no hang.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

from services.bus.relay import RelayStartupError, run_relay

__all__ = ["main", "register_serve"]

_PROG = "sahra serve relay"


def register_serve(serve_subparsers: Any) -> None:
    """Add `relay` to the sub-commands of `sahra serve`."""
    parser = serve_subparsers.add_parser(
        "relay", help="publish every committed event to NATS JetStream (crash recovery)"
    )
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
    parser.add_argument(
        "--poll-interval", type=float, default=0.5, help="seconds between idle polls"
    )
    parser.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    for value, what, flag, env in (
        (args.database_url, "database", "--database-url", "SAHRA_DATABASE_URL"),
        (args.nats_url, "NATS", "--nats-url", "SAHRA_NATS_URL"),
    ):
        if not value:
            print(f"{_PROG}: no {what}: pass {flag} or set {env}", file=sys.stderr)
            return 2
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        asyncio.run(_serve(args))
    except RelayStartupError as error:
        print(f"{_PROG}: {error}", file=sys.stderr)
        return 2
    return 0


async def _serve(args: argparse.Namespace) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await run_relay(
        args.database_url,
        args.nats_url,
        stop=stop,
        poll_interval=args.poll_interval,
        connect_timeout=args.connect_timeout,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m services.bus.relay_cli relay …`, until `sahra serve` is wired."""
    parser = argparse.ArgumentParser(prog="sahra serve")
    register_serve(parser.add_subparsers(dest="serve", required=True))
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
