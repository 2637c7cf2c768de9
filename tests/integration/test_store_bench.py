"""`sahra bench store` on the real server: it measures every case and leaves nothing behind."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import asyncpg

from services.bench.store import bench_store

_ROOT = Path(__file__).resolve().parents[2]
# `sahra bench store` as the lead wires it: a `bench` command whose sub-commands get ours.
_SAHRA_BENCH = """
import argparse, sys
from services.bench.store import register_bench
parser = argparse.ArgumentParser(prog="sahra")
bench = parser.add_subparsers(dest="command").add_parser("bench")
register_bench(bench.add_subparsers(dest="bench", required=True))
args = parser.parse_args(sys.argv[1:])
sys.exit(args.run(args))
"""


async def _scratch_schemas(url: str) -> list[str]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'sahra\\_bench\\_%'"
        )
        return [r["nspname"] for r in rows]
    finally:
        await conn.close()


async def test_the_store_bench_measures_each_case_in_a_schema_it_drops(database_url: str) -> None:
    report = await bench_store(database_url, 24, writers=(1, 3), rounds=2)

    assert set(report["cases"]) == {
        f"{case}/{n}" for case in ("raw_insert", "store_1_event", "store_3_events") for n in (1, 3)
    }
    for figures in report["cases"].values():
        assert figures["appends"] >= 24
        assert figures["appends_per_s"] > 0
    assert set(report["ratio_to_raw"]) == {
        "store_1_event/1",
        "store_3_events/1",
        "store_1_event/3",
        "store_3_events/3",
    }
    assert await _scratch_schemas(database_url) == []


def test_sahra_bench_store_prints_a_json_line_per_case_and_the_ratios(database_url: str) -> None:
    args = ["bench", "store", "--count", "16", "--writers", "2", "--database-url", database_url]

    done = subprocess.run(
        [sys.executable, "-c", _SAHRA_BENCH, *args],
        cwd=_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line.get("case") for line in lines] == [
        "raw_insert/2",
        "store_1_event/2",
        "store_3_events/2",
        None,
    ]
    assert set(lines[-1]["ratio_to_raw"]) == {"store_1_event/2", "store_3_events/2"}
