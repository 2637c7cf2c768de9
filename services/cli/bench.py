"""`sahra bench engine|store|service|verify|bots|rummy|bunco`: each bench is a module of
`services/bench/`, which adds its own sub-command here.

Only the engine bench is imported up front; the others are imported when the parser is
built, as they always were, so that a bench's heavier imports never slow the other commands.
"""

from __future__ import annotations

from typing import Any

from services.bench.engine import register_bench as register_engine

__all__ = ["register"]


def register(sub: Any) -> None:
    parser = sub.add_parser("bench", help="benchmarks (engine)")
    which = parser.add_subparsers(dest="bench", required=True)
    register_engine(which)
    from services.bench import service
    from services.bench.store import register_bench as register_store

    register_store(which)
    service.register_bench(which)
    from services.bench import bots
    from services.bench.verify import register_bench as register_verify

    register_verify(which)
    bots.register_bench(which)
    from services.bench import bunco, rummy

    rummy.register_bench(which)
    bunco.register_bench(which)
