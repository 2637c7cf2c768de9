"""`sahra migrate` against a real PostgreSQL: each test gets a database of its own."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from services.store.migrate import migrate, migration_files
from tests.service_support import scratch_database

_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def fresh_database(database_url: str) -> AsyncIterator[str]:
    async with scratch_database(database_url, "sahra_migrate", migrated=False) as url:
        yield url


def sahra_migrate(
    *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "services.cli", "migrate", *args],
        cwd=_ROOT,
        env=env if env is not None else os.environ.copy(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


async def test_migrating_twice_applies_each_file_once(fresh_database: str) -> None:
    names = [name for name, _ in migration_files()]
    assert names[0] == "001_events"

    assert await migrate(fresh_database) == names
    assert await migrate(fresh_database) == []

    conn = await asyncpg.connect(fresh_database)
    try:
        ledger = [r["name"] for r in await conn.fetch("SELECT name FROM schema_migrations")]
        tables = {
            r["tablename"]
            for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        }
    finally:
        await conn.close()
    assert sorted(ledger) == names
    assert {"events", "snapshots", "checkpoints", "schema_migrations"} <= tables


async def test_migrators_starting_at_once_apply_the_files_once(fresh_database: str) -> None:
    names = [name for name, _ in migration_files()]

    outcomes = await asyncio.gather(*(migrate(fresh_database) for _ in range(4)))

    assert sorted(outcomes) == [[], [], [], names]


async def test_the_cli_migrates_and_then_reports_nothing_to_do(fresh_database: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "SAHRA_DATABASE_URL"}
    applied = "".join(f"applied {name}\n" for name, _ in migration_files())

    first = await asyncio.to_thread(sahra_migrate, "--database-url", fresh_database, env=env)
    second = await asyncio.to_thread(
        sahra_migrate, env={**env, "SAHRA_DATABASE_URL": fresh_database}
    )

    assert (first.returncode, first.stdout, first.stderr) == (0, applied, "")
    assert (second.returncode, second.stdout) == (0, "already up to date\n")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        (f"postgresql://sahra:secret@127.0.0.1:{_closed_port()}/sahra", "cannot connect to"),
        ("mysql://sahra@localhost/sahra", "invalid DSN"),
    ],
    ids=["nothing-listening", "not-postgres"],
)
def test_a_wrong_database_url_exits_2_with_one_clear_line(url: str, reason: str) -> None:
    done = sahra_migrate("--database-url", url, "--timeout", "5")

    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("sahra migrate: ")
    assert reason in done.stderr
    assert "secret" not in done.stderr


def test_a_server_that_never_answers_exits_2_after_the_timeout() -> None:
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        started = time.monotonic()
        done = sahra_migrate(
            "--database-url", f"postgresql://sahra@127.0.0.1:{port}/x", "--timeout", "1"
        )
        elapsed = time.monotonic() - started

    assert done.returncode == 2
    assert (
        done.stderr
        == f"sahra migrate: no answer from postgresql://sahra@127.0.0.1:{port}/x within 1 s\n"
    )
    assert elapsed < 15


def test_no_database_given_exits_2_and_says_how_to_give_one() -> None:
    env = {k: v for k, v in os.environ.items() if k != "SAHRA_DATABASE_URL"}

    done = sahra_migrate(env=env)

    assert done.returncode == 2
    assert done.stderr == (
        "sahra migrate: no database: pass --database-url or set SAHRA_DATABASE_URL\n"
    )
