"""Apply the numbered SQL files of the top-level migrations/ folder, once each.

`001_events.sql`, `002_….sql` … run in number order, each in its own transaction together
with its row in `schema_migrations`, so a failed file leaves the earlier ones applied and
itself not at all. A session advisory lock serialises migrators: when several processes
start at once, the first applies the files and the others wait, then find nothing to do.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

__all__ = [
    "DatabaseUnreachable",
    "apply_migrations",
    "connect",
    "migrate",
    "migration_files",
    "migrations_dir",
    "redact",
]

_LOCK_KEY = 0x5A_48_52_41_4D_49_47  # any fixed bigint shared by every migrator ("ZHRAMIG")
_NAME = re.compile(r"^(\d+)_[\w.-]+\.sql$")
_CREATE_LEDGER = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    name       text        PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
)
"""


class DatabaseUnreachable(Exception):
    """The database URL is malformed or no server answered it in time."""


def migrations_dir() -> Path:
    """$SAHRA_MIGRATIONS_DIR, or migrations/ at the top of the checkout this package is in
    (an editable install imports services/ from the checkout, so this holds there too)."""
    override = os.environ.get("SAHRA_MIGRATIONS_DIR")
    return Path(override) if override else Path(__file__).resolve().parents[2] / "migrations"


def migration_files(directory: Path | None = None) -> list[tuple[str, Path]]:
    """(name, path) in number order; the name is the file name without `.sql`."""
    directory = directory or migrations_dir()
    if not directory.is_dir():
        raise FileNotFoundError(f"no migrations folder at {directory}")
    numbered: dict[int, Path] = {}
    for path in directory.iterdir():
        match = _NAME.match(path.name)
        if not match:
            continue
        number = int(match[1])
        if number in numbered:
            raise ValueError(
                f"two migrations numbered {number}: {numbered[number].name}, {path.name}"
            )
        numbered[number] = path
    return [(numbered[n].stem, numbered[n]) for n in sorted(numbered)]


async def connect(dsn: str, timeout: float = 10.0) -> asyncpg.Connection[Any]:
    """A connection, or DatabaseUnreachable with a one-line reason (never a hang)."""
    try:
        return await asyncpg.connect(dsn, timeout=timeout)
    except TimeoutError as error:
        raise DatabaseUnreachable(f"no answer from {redact(dsn)} within {timeout:g} s") from error
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
        reason = " ".join(str(error).split()) or type(error).__name__
        raise DatabaseUnreachable(f"cannot connect to {redact(dsn)}: {reason}") from error


async def apply_migrations(
    conn: asyncpg.Connection[Any], directory: Path | None = None
) -> list[str]:
    """Apply the files not yet recorded; returns the names applied now, in order."""
    files = migration_files(directory)
    # Session lock, not transaction lock: it spans one transaction per file. The ledger
    # is read after taking it, so a waiting migrator sees what the first one committed.
    await conn.execute("SELECT pg_advisory_lock($1)", _LOCK_KEY)
    try:
        await conn.execute(_CREATE_LEDGER)
        done = {r["name"] for r in await conn.fetch("SELECT name FROM schema_migrations")}
        applied: list[str] = []
        for name, path in files:
            if name in done:
                continue
            async with conn.transaction():
                await conn.execute(path.read_text(encoding="utf-8"))
                await conn.execute("INSERT INTO schema_migrations (name) VALUES ($1)", name)
            applied.append(name)
        return applied
    finally:
        if not conn.is_closed():
            await conn.execute("SELECT pg_advisory_unlock($1)", _LOCK_KEY)


async def migrate(dsn: str, *, timeout: float = 10.0, directory: Path | None = None) -> list[str]:
    """Bring the database at `dsn` up to date; returns the migrations applied now."""
    conn = await connect(dsn, timeout)
    try:
        return await apply_migrations(conn, directory)
    finally:
        await conn.close()


def redact(dsn: str) -> str:
    """The URL without its password, for messages."""
    try:
        parts = urlsplit(dsn)
        if not parts.password:
            return dsn
        host = parts.netloc.rpartition("@")[2]
        netloc = f"{parts.username or ''}:***@{host}"
        return urlunsplit(parts._replace(netloc=netloc))
    except ValueError:
        return "<unparsable URL>"
