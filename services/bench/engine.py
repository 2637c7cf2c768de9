"""`sahra bench engine`: the speed of the pure engine.

Random play counts accepted commands (steps) including the search for a legal move;
replay folds the recorded events of those same deals. Both run in this one process, on
one core. Figures go to stdout as JSON lines, one per rule set: rates over wall-clock
time, and (`cpu_*`) over this process's CPU time, which a busy shared machine disturbs
less.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from engine import banakil
from engine.banakil.autoplay import random_step
from engine.banakil.evolve import evolve
from engine.banakil.messages import CommitSeed, Event
from engine.banakil.state import State

__all__ = ["register_bench"]


def register_bench(bench_subparsers: Any) -> None:
    """Add `engine` to the sub-commands of `sahra bench`."""
    engine = bench_subparsers.add_parser(
        "engine", help="random play and replay speed of the engine"
    )
    engine.add_argument("--deals", type=int, default=300, help="deals per rule set")
    engine.add_argument("--seed", type=int, default=1)
    engine.set_defaults(run=_engine)


def _play_deal(preset: str, rng: random.Random) -> tuple[State, list[Event], int]:
    state = banakil.initial(banakil.options_from(preset))
    events = list(banakil.decide(state, 0, CommitSeed(secret=rng.randbytes(32).hex())))
    for e in events:
        state = evolve(state, e)
    steps = 0
    while state.phase in {"seeded", "play"}:
        _, _, new = random_step(state, rng)
        for e in new:
            state = evolve(state, e)
        events.extend(new)
        steps += 1
    return state, events, steps


def _engine(args: argparse.Namespace) -> int:
    for preset in ("classic", "sahrat"):
        rng = random.Random(args.seed)
        logs: list[list[Event]] = []
        steps = 0
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(args.deals):
            _, events, n = _play_deal(preset, rng)
            logs.append(events)
            steps += n
        play, play_cpu = time.perf_counter() - t0, time.process_time() - c0
        fresh = banakil.initial(banakil.options_from(preset))
        t0, c0 = time.perf_counter(), time.process_time()
        for events in logs:
            state = fresh
            for e in events:
                state = evolve(state, e)
        fold, fold_cpu = time.perf_counter() - t0, time.process_time() - c0
        total_events = sum(len(e) for e in logs)
        print(
            json.dumps(
                {
                    "ruleset": preset,
                    "deals": args.deals,
                    "random_play": {
                        "steps_per_s": round(steps / play),
                        "deals_per_s": round(args.deals / play, 1),
                        "steps_per_deal": round(steps / args.deals, 1),
                        "cpu_steps_per_s": round(steps / play_cpu),
                        "cpu_deals_per_s": round(args.deals / play_cpu, 1),
                    },
                    "replay": {
                        "events_per_s": round(total_events / fold),
                        "deals_per_s": round(args.deals / fold, 1),
                        "events_per_deal": round(total_events / args.deals, 1),
                        "cpu_events_per_s": round(total_events / fold_cpu),
                    },
                }
            )
        )
    return 0
