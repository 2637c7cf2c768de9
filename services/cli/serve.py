"""`sahra serve gateway|relay|clock|bots`: each service as its own process, for deployment.

`sahra up` runs the same services together in one process on a single machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
from typing import Any

from services.cli.bots import register_serve as register_bots
from services.cli.clock import register_serve as register_clock
from services.cli.relay import register_serve as register_relay
from services.runtime import config

__all__ = ["register"]


def register(sub: Any) -> None:
    parser = sub.add_parser("serve", help="run one service as its own process")
    which = parser.add_subparsers(dest="service", required=True)
    gateway = which.add_parser("gateway", help="HTTP + WebSocket gateway (Litestar)")
    config.add_arguments(gateway)
    gateway.set_defaults(run=_gateway)
    register_relay(which)
    register_clock(which)
    register_bots(which)


def _gateway(args: argparse.Namespace) -> int:
    try:
        settings = config.settings_from(args)
        if not settings.database_url or not settings.nats_url:
            raise config.ConfigError(
                "the gateway needs --database-url/SAHRA_DATABASE_URL and "
                "--nats-url/SAHRA_NATS_URL (`sahra up` starts embedded servers instead)"
            )
        asyncio.run(_check(settings))
    except config.ConfigError as error:
        return config.fail(str(error))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    try:
        config.load_seed_settings(settings.data_dir.resolve())
        gateway = config.gateway_settings(settings.data_dir.resolve())
    except config.ConfigError as error:
        return config.fail(str(error))
    from services.gateway.serve import serve_gateway

    logging.getLogger("sahra").info(
        "gateway on http://%s:%d (OpenAPI: /schema)", settings.host, settings.port
    )
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(
            serve_gateway(
                settings.database_url, settings.nats_url, settings.host, settings.port, gateway
            )
        )
    return 0


async def _check(settings: config.Settings) -> None:
    assert settings.database_url and settings.nats_url
    await config.check_postgres(settings.database_url)
    await config.check_nats(settings.nats_url)
