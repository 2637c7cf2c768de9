"""`sahra migrate`: apply the SQL migrations in migrations/ to a PostgreSQL database.

Idempotent and safe to run from several processes at once. The database comes from
--database-url or $SAHRA_DATABASE_URL. Exit status: 0 done, 1 a migration failed,
2 no database given or none reachable (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from typing import Any

import asyncpg

from services.store.migrate import DatabaseUnreachable, migrate

__all__ = ["register"]


def register(sub: Any) -> None:
    parser = sub.add_parser("migrate", help="apply the SQL migrations (idempotent)")
    parser.add_argument("--database-url", help="PostgreSQL URL (default: $SAHRA_DATABASE_URL)")
    parser.add_argument(
        "--timeout", type=float, default=10.0, help="seconds to wait for the server"
    )
    parser.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    url = args.database_url or os.environ.get("SAHRA_DATABASE_URL")
    if not url:
        _fail("no database: pass --database-url or set SAHRA_DATABASE_URL")
        return 2
    try:
        applied = asyncio.run(migrate(url, timeout=args.timeout))
    except DatabaseUnreachable as error:
        _fail(str(error))
        return 2
    except (asyncpg.PostgresError, OSError, ValueError) as error:
        _fail("migration failed: " + " ".join(str(error).split()))
        return 1
    for name in applied:
        print(f"applied {name}")
    if not applied:
        print("already up to date")
    return 0


def _fail(message: str) -> None:
    print(f"sahra migrate: {message}", file=sys.stderr)
