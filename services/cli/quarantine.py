"""`sahra quarantine list | release TABLE`: the tables the background processes hold.

A table the clock, the bots worker, the relay or the tables-in-play model could not handle
is quarantined (services/tables/quarantine.py): left alone by every loop and refused by the
gateway. `list` shows each hold (table, process, since, version, reason); `release`
removes every hold of a table, and the loops take it up again within a second.

The store is --database-url, else $SAHRA_DATABASE_URL, else the embedded PostgreSQL of
`sahra up` in the data dir (--data-dir, $SAHRA_DATA_DIR, default .sahra). Exit status: 0
done, 1 `release` of a table that was not held, 2 no database to be had.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import msgspec

from services.runtime.infra import embedded_postgres
from services.store.migrate import redact
from services.store.port import Quarantined
from services.store.postgres import PostgresEventStore

__all__ = ["register"]

_PROG = "sahra quarantine"
_T = TypeVar("_T")


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "quarantine", help="list or release the tables the background processes hold"
    )
    servers = argparse.ArgumentParser(add_help=False)  # after the action: `list --json …`
    servers.add_argument("--database-url", help="PostgreSQL URL (env SAHRA_DATABASE_URL)")
    servers.add_argument(
        "--data-dir",
        default=os.environ.get("SAHRA_DATA_DIR") or ".sahra",
        help="the data dir of `sahra up`, whose database is used when no URL is given",
    )
    actions = parser.add_subparsers(dest="action", required=True)
    listing = actions.add_parser(
        "list", parents=[servers], help="every quarantined table, the oldest first"
    )
    listing.add_argument("--json", action="store_true", help="one JSON array, for machines")
    listing.set_defaults(run=_list)
    release = actions.add_parser(
        "release", parents=[servers], help="release a table for every process"
    )
    release.add_argument("table", help="the table id")
    release.set_defaults(run=_release)


def _list(args: argparse.Namespace) -> int:
    rows = _with_store(args, lambda store: store.quarantined())
    if rows is None:
        return 2
    if args.json:
        print(msgspec.json.encode(rows).decode())
    elif not rows:
        print("no table is quarantined")
    else:
        for row in rows:
            print(_line(row))
    return 0


def _release(args: argparse.Namespace) -> int:
    released = _with_store(args, lambda store: store.release(args.table))
    if released is None:
        return 2
    if released == 0:
        print(f"{_PROG}: table {args.table} is not quarantined", file=sys.stderr)
        return 1
    print(f"released {args.table} ({released} hold(s)); the loops take it up again")
    return 0


def _line(row: Quarantined) -> str:
    since = row.since.isoformat(timespec="seconds")
    where = f"version {row.version}" + (f", position {row.position}" if row.position else "")
    return f"{row.stream_id}  {row.process}  since {since}  at {where}: {row.reason}"


def _with_store(
    args: argparse.Namespace, use: Callable[[PostgresEventStore], Awaitable[_T]]
) -> _T | None:
    """What `use` returns on the store; None (after one line on stderr) when there is no
    database to be had."""
    with contextlib.ExitStack() as servers:
        url = args.database_url or os.environ.get("SAHRA_DATABASE_URL")
        if not url:
            data = Path(args.data_dir)
            if not (data / "postgres" / "PG_VERSION").exists():
                _fail(
                    "no database: pass --database-url, set SAHRA_DATABASE_URL, or give the "
                    f"data dir of `sahra up` (--data-dir; {str(data)!r} holds no database)"
                )
                return None
            try:
                url = servers.enter_context(embedded_postgres(data.resolve() / "postgres"))
            except Exception as exc:  # pgserver's errors name no common type
                _fail(f"cannot open the embedded PostgreSQL in {data}: {exc}")
                return None

        async def run(dsn: str) -> _T:
            store = await PostgresEventStore.connect(dsn, min_size=1, max_size=1, timeout=5)
            try:
                return await use(store)
            finally:
                await store.close()

        try:
            return asyncio.run(run(url))
        except asyncpg.UndefinedTableError:
            _fail("the database has no quarantine table yet: run `sahra migrate` first")
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            reason = " ".join(str(exc).split()) or type(exc).__name__
            _fail(f"cannot reach PostgreSQL at {redact(url)}: {reason}")
        return None


def _fail(message: str) -> None:
    print(f"{_PROG}: {message}", file=sys.stderr)
