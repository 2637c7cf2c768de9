"""`sahra bench store`: appends per second through the event store, against raw INSERTs.

Runs on --database-url, else $SAHRA_DATABASE_URL, else an embedded PostgreSQL started in
a temporary directory for the run. Everything happens in a scratch schema dropped at the
end. Figures go to stdout as JSON lines: one per case, then the ratios to raw inserts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from services.infra import embedded_postgres
from services.store.bench import bench_store
from services.store.migrate import DatabaseUnreachable

__all__ = ["register_bench"]

_GOAL = 0.8  # one-event appends at 8 writers, as a share of raw single-row inserts


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
