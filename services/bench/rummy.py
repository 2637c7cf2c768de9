"""`sahra bench rummy`: the figures of the rummy engine (issue 12), in one run.

- validation: the move check of a submitted table (`check_move` on a real, legal move)
  at 20, 40 and 80 table cards; goal p99 < 2 ms at 40 cards with jokers;
- hint and find_move (the move search) on a table of that size and a hand of 7 to 13
  cards; goal p99 < 30 ms at 40 cards with jokers; the slowest position is printed as JSON,
  to be timed again with `--rerun`;
- random play in steps/s per variant beside RLCard's gin-rummy random play; goal: at
  least RLCard's (services/bench/rummy_play.py);
- the bot against the random player, per variant; goal 90% of games won.

Run it on one core: `taskset -c 1 sahra bench rummy`. A readable table goes to stdout, or
one JSON document with `--json`. Each timing is one call, `perf_counter` around it, the
garbage collector on, as a server would run it; the search is first warmed on a few
positions of another seed (its imports and first caches), then every position is asked
once (the search caches per suit: asking the same position again would time the cache).

The positions are the game's own (engine/rummy/bench_positions.py, constructed: valid
random groups dealt from the deck, see there). This module names no game and imports no
game package (tests/unit/test_layout.py): the sub-command is named after this module, the
game is looked up in the registry under that name, and the positions module is the one
named `bench_positions` in the package of the game's rules — the hook a game offers to be
benched this way.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import math
import random
import signal
import time
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import msgspec

from engine import protocol
from services.bench import rummy_play, rummy_report

__all__ = [
    "GAME",
    "measure",
    "positions_of",
    "register_bench",
    "rerun",
    "run",
    "search",
    "summary",
    "validation",
]

GAME = __name__.rpartition(".")[2]  # the game this bench measures: the module's name
_SIZES = (20, 40, 80)
_GOALS = {"validate": 2.0, "hint": 30.0, "find_move": 30.0}  # p99 ms at 40 cards, jokers
_GOAL_CARDS = 40
_BOT_GOAL = 0.9
_WARM = 3


def register_bench(bench_subparsers: Any) -> None:
    """Add this game's bench to the sub-commands of `sahra bench`."""
    parser = bench_subparsers.add_parser(
        GAME, help=f"{GAME}: move check, hints, random play vs RLCard, bot strength"
    )
    parser.add_argument(
        "--parts",
        default="validate,search,play,bot",
        help="of validate,search,play,bot (default all)",
    )
    parser.add_argument("--variants", default="", help="comma-separated (default: all)")
    parser.add_argument(
        "--sizes", default=",".join(map(str, _SIZES)), help="table cards (default 20,40,80)"
    )
    parser.add_argument("--moves", type=int, default=200, help="moves per variant and size (200)")
    parser.add_argument("--repeat", type=int, default=3, help="timings of each move check (3)")
    parser.add_argument(
        "--positions", type=int, default=60, help="searches per variant and size (60)"
    )
    parser.add_argument("--rounds", type=int, default=100, help="random rounds per variant (100)")
    parser.add_argument("--seats", type=int, default=2, help="seats in random play (2)")
    parser.add_argument("--rlcard-games", type=int, default=200, help="RLCard games timed (200)")
    parser.add_argument("--games", type=int, default=200, help="bot games per variant (200)")
    parser.add_argument(
        "--stop-after",
        type=int,
        default=5,
        help="rounds before the host stops a game that goes on (5)",
    )
    parser.add_argument(
        "--cap-seconds", type=float, default=10.0, help="stop one search after this long (10)"
    )
    parser.add_argument(
        "--option",
        action="append",
        metavar="NAME=VALUE",
        help="a table option for random play and bot games (a JSON value or a word)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON document")
    parser.add_argument("--rerun", metavar="JSON", help="time the searches on this position")
    parser.set_defaults(run=run)


def positions_of(game: protocol.Game) -> ModuleType:
    """The game's bench positions: the `bench_positions` module beside its rules."""
    package = game.rules.__module__.rpartition(".")[0]
    return importlib.import_module(f"{package}.bench_positions")


def run(args: argparse.Namespace) -> int:
    if args.rerun:
        print(json.dumps(rerun(positions_of(protocol.get(GAME)), args.rerun, args.positions)))
        return 0
    report = measure(args)
    print(json.dumps(report) if args.json else rummy_report.readable(report))
    return 0


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """The parts asked for by `args` (the sub-command's arguments), as one report."""
    game = protocol.get(GAME)
    made = positions_of(game)
    variants = [v for v in args.variants.split(",") if v] or sorted(game.presets)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    parts = set(args.parts.split(","))
    overrides = dict(_option(text) for text in args.option or ())
    report: dict[str, Any] = {"game": GAME, "seed": args.seed, "variants": variants}
    if overrides:
        report["options"] = overrides
    started = time.perf_counter()
    if "validate" in parts:
        report["validate"] = validation(made, variants, sizes, args.moves, args.repeat, args.seed)
    if "search" in parts:
        report["search"] = search(
            made, variants, sizes, args.positions, args.seed, args.cap_seconds
        )
    if "play" in parts:
        report["random_play"] = rummy_play.random_play(
            GAME, variants, args.rounds, args.seats, args.seed, overrides
        )
        report["rlcard"] = rummy_play.rlcard(args.rlcard_games, args.seed)
    if "bot" in parts:
        report["bot"] = rummy_play.bot_strength(
            GAME, variants, args.games, args.stop_after, args.seed, overrides
        )
    report["summary"] = summary(report)
    report["seconds"] = round(time.perf_counter() - started, 1)
    public: dict[str, Any] = _public(report)
    return public


def validation(
    made: ModuleType,
    variants: Sequence[str],
    sizes: Sequence[int],
    count: int,
    repeat: int,
    seed: int,
) -> list[dict[str, Any]]:
    """The move check timed on `count` legal moves per variant and table size."""
    rows = []
    for variant in variants:
        for size in sizes:
            moves = [
                made.submitted(variant, size, random.Random(f"{seed}:move:{variant}:{size}:{i}"))
                for i in range(count)
            ]
            calls = [made.checking(m) for m in moves]
            samples = [_time(call) for _ in range(repeat) for call in calls]
            row = _row(variant, size, [m.before for m in moves], samples)
            row["refused_builds"] = sum(m.refused for m in moves)
            row["changes"] = _tally(c for m in moves for c in m.changes)
            rows.append(row)
    return rows


def search(
    made: ModuleType,
    variants: Sequence[str],
    sizes: Sequence[int],
    count: int,
    seed: int,
    cap: float = 10.0,
) -> dict[str, Any]:
    """hint and find_move timed on `count` positions per variant and table size, with the
    slowest position of each. A call still running after `cap` seconds is stopped and
    counted (`over_cap`): its sample is the cap, so the percentiles are then lower bounds."""
    out: dict[str, Any] = {}
    for name in ("hint", "find_move"):
        rows = []
        worst: dict[str, Any] = {"cpu_ms": -1.0}
        for variant in variants:
            for size in sizes:
                for i in range(_WARM):
                    _capped(made.searching(name, _position(made, variant, size, "warm", i)), cap)
                places = [_position(made, variant, size, seed, i) for i in range(count)]
                samples = []
                found = over = 0
                for at in places:
                    spent, cpu, answer = _capped(made.searching(name, at), cap)
                    samples.append((spent, cpu))
                    found += answer is not None and answer is not _OVER
                    over += answer is _OVER
                    if cpu * 1e3 > worst["cpu_ms"]:
                        worst = {
                            "ms": round(spent * 1e3, 3),
                            "cpu_ms": round(cpu * 1e3, 3),
                            "over_cap": answer is _OVER,
                            "position": _encoded(at),
                        }
                row = _row(variant, size, places, samples)
                row["found"] = found
                row["over_cap"] = over
                rows.append(row)
        out[name] = {"rows": rows, "worst": worst, "cap_s": cap}
    return out


def rerun(made: ModuleType, text: str, times: int) -> dict[str, Any]:
    """The searches timed `times` times on one position printed by an earlier run."""
    at = msgspec.json.decode(text, type=made.Position)
    out: dict[str, Any] = {}
    for name in ("hint", "find_move"):
        call = made.searching(name, at)
        samples = [_time(call) for _ in range(max(times, 1))]
        out[name] = _stats(samples)
    return out


def summary(report: dict[str, Any]) -> dict[str, Any]:
    """The goals: per table size, p50/p99 pooled over the positions with jokers on the
    table and over those without; random play against RLCard; the bot's wins."""
    out: dict[str, Any] = {}
    timed = {"validate": report.get("validate")}
    for name, part in (report.get("search") or {}).items():
        timed[name] = part["rows"]
    for name, rows in timed.items():
        if not rows:
            continue
        pooled: dict[str, Any] = {}
        for row in rows:
            key = f"{row['table_cards']} {'jokers' if row['with_jokers'] else 'no jokers'}"
            pooled.setdefault(key, []).extend(row["_samples"])
        part = {key: _stats(samples) for key, samples in sorted(pooled.items())}
        goal = part.get(f"{_GOAL_CARDS} jokers")
        if goal is not None and goal["n"]:
            part["goal_p99_ms"] = _GOALS[name]
            part["goal_met"] = goal["p99_ms"] < _GOALS[name]
            part["goal_met_cpu"] = goal["cpu_p99_ms"] < _GOALS[name]
        out[name] = part
    plays, rlcard = report.get("random_play"), report.get("rlcard") or {}
    if plays:
        steps = sum(r["steps"] for r in plays)
        ours = steps / sum(r["seconds"] for r in plays)
        ours_cpu = steps / sum(r["cpu_seconds"] for r in plays)
        theirs, theirs_cpu = rlcard.get("steps_per_s"), rlcard.get("cpu_steps_per_s")
        out["random_play"] = {
            "steps_per_s": round(ours),
            "rlcard_steps_per_s": theirs,
            "ratio": round(ours / theirs, 2) if theirs else None,
            "slowest_variant_ratio": (
                round(min(r["steps_per_s"] for r in plays) / theirs, 2) if theirs else None
            ),
            "cpu_steps_per_s": round(ours_cpu),
            "rlcard_cpu_steps_per_s": theirs_cpu,
            "cpu_ratio": round(ours_cpu / theirs_cpu, 2) if theirs_cpu else None,
        }
    bots = report.get("bot")
    if bots:
        out["bot"] = {
            r["variant"]: {"win_rate": r["win_rate"], "goal_met": r["win_rate"] >= _BOT_GOAL}
            for r in bots
        }
    return out


# --- helpers ------------------------------------------------------------------------------


def _option(text: str) -> tuple[str, Any]:
    """NAME=VALUE: the value read as JSON (a number, true), else as the word written."""
    name, _, value = text.partition("=")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def _position(made: ModuleType, variant: str, size: int, seed: object, i: int) -> Any:
    return made.position(variant, size, random.Random(f"{seed}:search:{variant}:{size}:{i}"))


def _encoded(at: Any) -> str:
    return msgspec.json.encode(at).decode()


class _OverCap(Exception):
    """Raised in a search that ran past its cap (by SIGALRM)."""


_OVER = object()  # the answer of a call stopped at its cap


def _capped(call: Callable[[], Any], cap: float) -> tuple[float, float, Any]:
    """One call's wall-clock and CPU seconds and its answer (`_OVER` if it was stopped
    after `cap` seconds: a timer signal interrupts it, the only way to stop pure Python)."""

    def stop(signum: int, frame: Any) -> None:
        raise _OverCap

    previous = signal.signal(signal.SIGALRM, stop)
    # The collector's callbacks are set aside while the timer runs (the collector itself
    # still runs, and is timed): a signal that lands in one (hypothesis installs one)
    # raises where nothing can catch it, and is only printed ("Exception ignored in ...").
    callbacks = gc.callbacks[:]
    gc.callbacks.clear()
    t0, c0 = time.perf_counter(), time.thread_time()
    try:
        signal.setitimer(signal.ITIMER_REAL, cap)
        answer = call()
    except _OverCap:
        answer = _OVER
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        gc.callbacks[:] = callbacks
    cpu = time.thread_time() - c0
    return time.perf_counter() - t0, cpu, answer


def _time(call: Callable[[], Any]) -> tuple[float, float]:
    """One call's wall-clock and CPU seconds (this thread's: a process preempted by
    others on a shared core loses wall time, not CPU time)."""
    t0, c0 = time.perf_counter(), time.thread_time()
    call()
    cpu = time.thread_time() - c0
    return time.perf_counter() - t0, cpu


def _row(
    variant: str, size: int, places: Sequence[Any], samples: list[tuple[float, float]]
) -> dict[str, Any]:
    on_table = [len(p.names) for p in places]
    hands = [len(p.hand) for p in places]
    return {
        "variant": variant,
        "table_cards": size,
        "positions": len(places),
        "with_jokers": any(on_table),
        "jokers_on_table": round(sum(on_table) / len(places), 2) if places else 0,
        "hand_cards": round(sum(hands) / len(places), 1) if places else 0,
        **_stats(samples),
        "_samples": samples,
    }


def _stats(samples: Sequence[tuple[float, float]]) -> dict[str, Any]:
    """p50, p99 (nearest rank) and the maximum in milliseconds, of wall-clock time and
    (`cpu_*`) of the thread's CPU time."""
    out: dict[str, Any] = {"n": len(samples)}
    for prefix, k in (("", 0), ("cpu_", 1)):
        ordered = sorted(s[k] for s in samples)
        for name, p in (("p50", 0.5), ("p99", 0.99), ("max", 1.0)):
            at = ordered[max(math.ceil(p * len(ordered)) - 1, 0)] if ordered else None
            out[f"{prefix}{name}_ms"] = None if at is None else round(at * 1e3, 3)
    return out


def _tally(items: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        out[item] = out.get(item, 0) + 1
    return dict(sorted(out.items()))


def _public(value: Any) -> Any:
    """The report without the raw samples (keys starting with "_")."""
    if isinstance(value, dict):
        return {k: _public(v) for k, v in value.items() if not k.startswith("_")}
    if isinstance(value, list):
        return [_public(v) for v in value]
    return value
