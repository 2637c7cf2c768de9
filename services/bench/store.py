"""`sahra bench store`: append throughput of PostgresEventStore against raw single-row
INSERTs, same server.

Runs on --database-url, else $SAHRA_DATABASE_URL, else an embedded PostgreSQL started in
a temporary directory for the run. Figures go to stdout as JSON lines: one per case, then
the ratios to raw inserts.

Everything runs in a scratch schema created for the run and dropped after it, so a bench
never leaves rows in a real `events` table. Each writer appends to a stream of its own
(no conflicts): this measures the cost of the store's append path (the expected-version
check, the batch, lending connections, building results) over the cheapest insert of the
same row, on a connection of its own, into a table of the same shape (columns, defaults,
unique keys, indexes).
Every append and every raw insert is its own transaction, so both pay one commit each.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import asyncpg
import msgspec

from services.runtime.infra import embedded_postgres
from services.store.migrate import DatabaseUnreachable, apply_migrations, connect
from services.store.port import Metadata, NewEvent
from services.store.postgres import PostgresEventStore

__all__ = ["bench_store", "register_bench"]

_GOAL = 0.8  # one-event appends at 8 writers, as a share of raw single-row inserts

_WARMUP = 20  # appends per writer before timing: prepared statements, pool, caches
_RAW_INSERT = """
INSERT INTO raw_events (stream_id, version, type, data, metadata, command_id)
VALUES ($1, $2, $3, $4, $5, $6)
"""
_DATA = msgspec.json.encode({"seat": 2, "card": "7H", "from": "stock", "left": 41})

Step = Callable[[], Awaitable[None]]  # one writer's next append


async def bench_store(
    dsn: str, seconds_or_count: float = 4.0, writers: Sequence[int] = (1, 8), rounds: int = 10
) -> dict[str, Any]:
    """Appends per second for each case and writer count, and the ratios to raw inserts.

    A float is the time each case runs, in seconds; an int the number of appends each
    case makes (shared among its writers). The cases of one writer count take turns in
    `rounds` short slices, so that a busy machine slows them alike."""
    schema = f"sahra_bench_{uuid.uuid4().hex[:10]}"
    settings = {"search_path": schema}
    admin = await connect(dsn)
    report: dict[str, Any] = {"cases": {}}
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        await admin.execute(f"SET search_path TO {schema}")
        await apply_migrations(admin)
        # Same shape as `events`: columns, defaults, identity, unique keys and indexes.
        await admin.execute("CREATE TABLE raw_events (LIKE events INCLUDING ALL)")
        report["server"] = "PostgreSQL " + str(await admin.fetchval("SHOW server_version"))
        report["settings"] = {
            name: await admin.fetchval(f"SHOW {name}")
            for name in ("fsync", "synchronous_commit", "shared_buffers")
        }
        report["client_cpus"] = os.cpu_count()
        for n in writers:
            report["cases"].update(await _compare(dsn, settings, n, seconds_or_count, rounds))
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()
    cases = report["cases"]
    report["ratio_to_raw"] = {
        f"{case}/{n}": round(
            cases[f"{case}/{n}"]["appends_per_s"] / cases[f"raw_insert/{n}"]["appends_per_s"], 3
        )
        for n in writers
        for case in ("store_1_event", "store_3_events")
    }
    return report


async def _compare(
    dsn: str, settings: dict[str, str], n: int, budget: float, rounds: int
) -> dict[str, dict[str, Any]]:
    conns = [await asyncpg.connect(dsn, server_settings=settings) for _ in range(n)]
    store = await PostgresEventStore.connect(dsn, n, n, server_settings=settings)
    try:
        cases = {
            f"raw_insert/{n}": ([_raw_writer(c, f"raw-{n}-{w}") for w, c in enumerate(conns)], 1),
            f"store_1_event/{n}": ([_store_writer(store, f"s1-{n}-{w}", 1) for w in range(n)], 1),
            f"store_3_events/{n}": ([_store_writer(store, f"s3-{n}-{w}", 3) for w in range(n)], 3),
        }
        totals = dict.fromkeys(cases, (0, 0.0))
        for steps, _ in cases.values():
            await asyncio.gather(*(_warm(step) for step in steps))
        for _ in range(rounds):
            for name, (steps, _) in cases.items():
                appends, seconds = await _slice(steps, budget, rounds)
                totals[name] = (totals[name][0] + appends, totals[name][1] + seconds)
        return {
            name: _figures(n, cases[name][1], appends, seconds)
            for name, (appends, seconds) in totals.items()
        }
    finally:
        await store.close()
        for conn in conns:
            await conn.close()


def _raw_writer(conn: asyncpg.Connection[Any], stream: str) -> Step:
    data, meta = _DATA.decode(), msgspec.json.encode(_metadata("raw")).decode()
    version = 0

    async def step() -> None:
        nonlocal version
        version += 1
        await conn.execute(_RAW_INSERT, stream, version, "CardDrawn", data, meta, f"c{version}")

    return step


def _store_writer(store: PostgresEventStore, stream: str, batch: int) -> Step:
    events = [NewEvent(type="CardDrawn", data=_DATA)] * batch
    version = 0

    async def step() -> None:
        nonlocal version
        await store.append(stream, version, events, _metadata(f"c{version}"))
        version += batch

    return step


async def _warm(step: Step) -> None:
    for _ in range(_WARMUP):
        await step()


async def _slice(steps: list[Step], budget: float, rounds: int) -> tuple[int, float]:
    """One turn of every writer: budget/rounds seconds, or as many appends if an int."""
    quota = -(-budget // (rounds * len(steps))) if isinstance(budget, int) else None
    started = time.perf_counter()
    deadline = started + budget / rounds

    async def loop(step: Step) -> int:
        done = 0
        while (done < quota) if quota is not None else (time.perf_counter() < deadline):
            await step()
            done += 1
        return done

    done = await asyncio.gather(*(loop(step) for step in steps))
    return sum(done), time.perf_counter() - started


def _figures(n: int, batch: int, appends: int, seconds: float) -> dict[str, Any]:
    return {
        "writers": n,
        "events_per_append": batch,
        "appends": appends,
        "seconds": round(seconds, 3),
        "appends_per_s": round(appends / seconds, 1),
        "events_per_s": round(appends * batch / seconds, 1),
    }


def _metadata(command_id: str) -> Metadata:
    return Metadata(command_id=command_id, seat=2, player="bench", server_time="")


def register_bench(bench_subparsers: Any) -> None:
    """Add `store` to the sub-commands of `sahra bench`."""
    parser = bench_subparsers.add_parser(
        "store", help="append throughput of the PostgreSQL event store vs raw INSERTs"
    )
    parser.add_argument(
        "--database-url",
        help="PostgreSQL URL (default: $SAHRA_DATABASE_URL, else an embedded server)",
    )
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=4.0, help="time per case")
    budget.add_argument("--count", type=int, help="appends per case, instead of a time")
    parser.add_argument(
        "--writers", type=int, nargs="+", default=[1, 8], help="concurrent writer counts"
    )
    parser.set_defaults(run=_store)


def _store(args: argparse.Namespace) -> int:
    budget: float = args.count if args.count is not None else args.seconds
    url = args.database_url or os.environ.get("SAHRA_DATABASE_URL")
    try:
        if url:
            report = asyncio.run(bench_store(url, budget, args.writers))
        else:
            with (
                tempfile.TemporaryDirectory(prefix="sahra-bench-") as tmp,
                embedded_postgres(Path(tmp) / "pg", keep=False) as embedded,
            ):
                report = asyncio.run(bench_store(embedded, budget, args.writers))
                report["server"] += " (embedded)"
    except DatabaseUnreachable as error:
        print(f"sahra bench store: {error}", file=sys.stderr)
        return 2
    for case, figures in report["cases"].items():
        print(json.dumps({"bench": "store", "server": report["server"], "case": case, **figures}))
    ratios = report["ratio_to_raw"]
    summary: dict[str, Any] = {
        "bench": "store",
        "settings": report["settings"],
        "client_cpus": report["client_cpus"],
        "ratio_to_raw": ratios,
    }
    if "store_1_event/8" in ratios:
        summary["goal"] = f"store_1_event/8 >= {_GOAL}"
        summary["goal_met"] = ratios["store_1_event/8"] >= _GOAL
    print(json.dumps(summary))
    return 0
