"""`sahra bench engine`: the speed of the pure engine.

Random play counts accepted commands (steps) including the search for a legal move;
replay folds the recorded events of those same deals (units of play: a Banakil deal).
Both run in this one process, on one core. Figures go to stdout as JSON lines, one per
rule set (the game's presets): rates over wall-clock time, and (`cpu_*`) over this
process's CPU time, which a busy shared machine disturbs less.

`--game` names the game (default banakil); its rules come from the registry and its
random player from `engine.players`, so this module names no game.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from engine import players, protocol

__all__ = ["register_bench"]

_GAME = protocol.DEFAULT_GAME  # the default of --game


def register_bench(bench_subparsers: Any) -> None:
    """Add `engine` to the sub-commands of `sahra bench`."""
    engine = bench_subparsers.add_parser(
        "engine", help="random play and replay speed of the engine"
    )
    engine.add_argument("--game", default=_GAME, help=f"the game (default {_GAME})")
    engine.add_argument("--deals", type=int, default=300, help="deals per rule set")
    engine.add_argument("--seed", type=int, default=1)
    engine.set_defaults(run=_engine)


def _play_unit(
    game: protocol.Game, step: Any, preset: str, rng: random.Random
) -> tuple[list[Any], int]:
    """One unit of play from a new table, committed from `rng` and played by the random
    player until an event ends it: its events and the steps taken."""
    evolve, ends = game.evolve, game.unit.ends
    state = game.initial(game.options_from(preset), 1)
    events = list(game.decide(state, 0, game.unit.commit(rng.randbytes(32).hex())))
    for e in events:
        state = evolve(state, e)
    steps = 0
    ended = False
    while not ended:
        _, _, new = step(state, rng)
        for e in new:
            state = evolve(state, e)
            ended = ended or ends(e) is not None
        events.extend(new)
        steps += 1
    return events, steps


def _engine(args: argparse.Namespace) -> int:
    game = protocol.get(args.game)
    step = players.get(args.game).step
    evolve = game.evolve
    for preset in sorted(game.presets):  # in name order (Banakil: classic, sahrat)
        rng = random.Random(args.seed)
        logs: list[list[Any]] = []
        steps = 0
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(args.deals):
            events, n = _play_unit(game, step, preset, rng)
            logs.append(events)
            steps += n
        play, play_cpu = time.perf_counter() - t0, time.process_time() - c0
        fresh = game.initial(game.options_from(preset), 1)
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
                    "game": game.name,
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
