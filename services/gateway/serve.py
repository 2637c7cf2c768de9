"""Running the gateway as a process: `serve_gateway(database_url, nats_url, host, port)`.

Connects the PostgreSQL store and the NATS bus, applies the migrations (idempotent, under
an advisory lock), serves HTTP and WebSocket with uvicorn until stopped, then closes both.
Settings come from the environment and the data dir (`Settings.from_env`): the token
secret is SAHRA_TOKEN_SECRET, else the data dir's `token.key`; replicas must share it. WebSocket
permessage-deflate is off unless SAHRA_WS_DEFLATE is set (see `settings.py`). `run`
runs the whole on uvloop when that is installed: the gateway then spends about a tenth less
CPU per command (its event loop, sockets and timers in C).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import signal
from collections.abc import Coroutine, Iterator
from typing import Any

import uvicorn

from services.bus.nats import NatsBus
from services.gateway.app import create_app
from services.gateway.settings import Settings
from services.store.migrate import migrate
from services.store.postgres import PostgresEventStore

__all__ = ["run", "serve_gateway"]

_log = logging.getLogger(__name__)

# The transport's own frame limit: larger frames close the socket (1009). Frames under it
# but over Settings.max_message_bytes are refused by the gateway with the socket kept open.
_WS_MAX_FRAME = 1024 * 1024


async def serve_gateway(
    database_url: str,
    nats_url: str,
    host: str = "127.0.0.1",
    port: int = 8000,
    settings: Settings | None = None,
) -> None:
    if settings is None:  # no data dir: SAHRA_TOKEN_SECRET, else a per-process secret
        settings = Settings.from_env()
    await migrate(database_url)
    store = await PostgresEventStore.connect(database_url)
    try:
        bus = await NatsBus.connect(nats_url)
        try:
            app = create_app(store, bus, settings)
            config = uvicorn.Config(
                app,
                host=host,
                port=port,
                ws_max_size=_WS_MAX_FRAME,
                ws_per_message_deflate=settings.ws_deflate,
                log_level="warning",
                lifespan="on",
            )
            await _Server(config).serve()
        finally:
            await bus.close()
    finally:
        await store.close()


class _Server(uvicorn.Server):
    """uvicorn's server, stopped by SIGINT or SIGTERM like uvicorn's own, but returning
    normally afterwards: uvicorn raises the signal again once it has shut down, which would
    interrupt the closing of the bus and the store (and of `sahra up`'s other services)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        loop = asyncio.get_running_loop()
        signals = (signal.SIGINT, signal.SIGTERM)
        for sig in signals:
            loop.add_signal_handler(sig, self.handle_exit, sig, None)
        try:
            yield
        finally:
            for sig in signals:
                loop.remove_signal_handler(sig)


def main(argv: list[str] | None = None) -> None:
    """`python -m services.gateway.serve --database-url … --nats-url … [--host] [--port]`"""
    import argparse

    parser = argparse.ArgumentParser(prog="services.gateway.serve", description=__doc__)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--nats-url", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    run(serve_gateway(args.database_url, args.nats_url, args.host, args.port))


def run(main: Coroutine[Any, Any, None]) -> None:
    """Run `main` on uvloop when it is installed (the gateway's event loop, transports and
    timers in C), else on asyncio's own loop."""
    try:
        uvloop = importlib.import_module("uvloop")
    except ImportError:
        uvloop = None
    if uvloop is None:
        asyncio.run(main)
    else:
        uvloop.run(main)


if __name__ == "__main__":
    main()
