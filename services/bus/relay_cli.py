"""`sahra serve relay`: run the store → JetStream relay until SIGINT or SIGTERM.

A server that cannot be reached, or a database without the schema, ends it at once
with one line on stderr and exit status 2; no traceback, no hang.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Sequence
from typing import Any

from services.bus.relay import RelayStartupError, run_relay
from services.entry import (
    add_server_arguments,
    check_server_args,
    module_main,
    run_until_signal,
)

__all__ = ["main", "register_serve"]

_PROG = "sahra serve relay"


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


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m services.bus.relay_cli relay …`, the same as `sahra serve relay …`."""
    return module_main(register_serve, argv)


if __name__ == "__main__":
    sys.exit(main())
