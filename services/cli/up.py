"""`sahra up`: the whole service on one machine, in one process.

Starts embedded PostgreSQL and NATS (JetStream, with a password made on first start and
kept in the data directory: `services/runtime/infra.py`) under the data directory when no
URLs are given, applies the migrations, then runs the gateway, the relay, the turn clock
and the bots worker together. Ctrl-C stops the services and then the servers it started;
their data stays for the next start.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
from typing import Any

from services.cli.relay import RelayStartupError
from services.gateway.settings import Settings as GatewaySettings
from services.runtime import config
from services.runtime.infra import (
    NATS_KEY_FILE,
    NATS_USER,
    embedded_nats,
    embedded_postgres,
    nats_password,
)
from services.runtime.workers import WorkerStartupError

__all__ = ["register"]

_log = logging.getLogger("sahra")


def register(sub: Any) -> None:
    parser = sub.add_parser("up", help="run everything on this machine (embedded servers)")
    config.add_arguments(parser)
    parser.set_defaults(run=_up)


def _up(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    logging.getLogger("pgserver").setLevel(logging.WARNING)  # it logs every pg_ctl call
    try:
        settings = config.settings_from(args)
        config.load_seed_settings(settings.data_dir.resolve())
        gateway = config.gateway_settings(settings.data_dir.resolve())
        with contextlib.ExitStack() as servers:
            database_url, nats_url = _servers(settings, servers)
            try:
                asyncio.run(_run(settings, gateway, database_url, nats_url))
            except KeyboardInterrupt:
                _log.info("stopping")
    except config.ConfigError as error:
        return config.fail(str(error))
    except (
        RuntimeError,
        RelayStartupError,
        WorkerStartupError,
    ) as error:  # a server that would not start
        return config.fail(str(error))
    _log.info("stopped")
    return 0


def _servers(settings: config.Settings, stack: contextlib.ExitStack) -> tuple[str, str]:
    data = settings.data_dir.resolve()
    database_url = settings.database_url
    if database_url is None:
        database_url = stack.enter_context(embedded_postgres(data / "postgres", keep=True))
        _log.info(
            "PostgreSQL: embedded, data in %s, socket URL %s", data / "postgres", database_url
        )
    else:
        _log.info("PostgreSQL: %s", database_url)
    nats_url = settings.nats_url
    if nats_url is None:
        try:
            password = nats_password(data)  # made on first start, like seed.key
        except ValueError as exc:  # the file is there and is not a password
            raise config.ConfigError(str(exc)) from None
        except OSError as exc:
            raise config.ConfigError(f"cannot keep the NATS password in {data}: {exc}") from None
        nats_url = stack.enter_context(embedded_nats(data / "nats", password=password)).url
        _log.info(
            "NATS: embedded with JetStream at %s (user %s, password in %s), data in %s",
            config.redact_url(nats_url),
            NATS_USER,
            data / NATS_KEY_FILE,
            data / "nats",
        )
    else:
        _log.info("NATS: %s", config.redact_url(nats_url))
    return database_url, nats_url


async def _run(
    settings: config.Settings, gateway: GatewaySettings, database_url: str, nats_url: str
) -> None:
    from services.cli.bots import run_bots
    from services.cli.clock import run_clock
    from services.cli.relay import run_relay
    from services.gateway.serve import serve_gateway
    from services.projections.in_play import snapshot_name
    from services.store.migrate import migrate

    await config.check_postgres(database_url)
    await config.check_nats(nats_url)
    applied = await migrate(database_url)  # before the relay, which needs the schema
    _log.info("migrations: %s", ", ".join(applied) if applied else "up to date")
    stop = asyncio.Event()
    relay = asyncio.create_task(run_relay(database_url, nats_url, stop=stop))
    saved = snapshot_name(None)  # the clock and the bots worker build the same model
    clock = asyncio.create_task(run_clock(database_url, nats_url, stop=stop, saved_as=saved))
    bots = asyncio.create_task(run_bots(database_url, nats_url, stop=stop, saved_as=saved))
    _log.info(
        "gateway: http://%s:%d  (lobby: /tables, OpenAPI: /schema, health: /healthz /readyz)",
        settings.host,
        settings.port,
    )
    try:
        await serve_gateway(database_url, nats_url, settings.host, settings.port, gateway)
    finally:
        stop.set()
        await asyncio.gather(relay, clock, bots)
