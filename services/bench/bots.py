"""`sahra bench bots` / `python -m services.bench.bots`: how well a game's bot plays.

A team of bots (the game's bot, its choice and fallback from `engine.players`) plays
complete matches (Banakil: to 202 in `classic`, 222 in `sahrat`) against a team of random
legal players (the game's random player), or with `--vs-old PATH` against an older copy
of the bot module loaded from that file (it must define `choose(view, options)` and
`fallback(view)`). The bots' team alternates between team 1 (Banakil: seats 1+3) and team
2 (seats 2+4) from match to match. Every deal is committed from a seeded generator, so a
run is reproducible. `--game` names the game (default banakil): this module names none.

Each bot command goes through `decide` like any client's; a refused one is counted and
replaced by the bot's fallback (which must be accepted). The deal's scores and who went
out are read from the game's end-of-unit summary (`Game.summary`). `--minutes` caps the time per
rule set: the run then stops after the match in progress and says how many it played.
Human-readable lines go to stdout, then one JSON line per rule set.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from engine import players, protocol
from engine.errors import RuleViolation

__all__ = ["MatchResult", "load_bot", "main", "play_match", "register_bench"]

_GOAL = 0.95
_MAX_STEPS = 200_000  # a match longer than this is a bug, not a long match

_GAME = protocol.DEFAULT_GAME  # the default of --game

Chooser = Callable[[Any, Any], Any]  # (a seat's view, the options) -> a command
Fallback = Callable[[Any], Any]  # a seat's view -> a command the rules always accept


@dataclass
class MatchResult:
    winner: int
    bot_team: int
    deals: int = 0
    bot_commands: int = 0
    refused: int = 0
    refusals: list[str] = field(default_factory=list)
    deal_points: list[tuple[int, int]] = field(default_factory=list)  # (bots, others) half-pts
    went_out: list[int] = field(default_factory=list)  # per deal: 1 bots, 2 others, 0 nobody


def load_bot(path: str) -> ModuleType:
    """An older bot.py loaded from a file path (it must define `choose` and `fallback`)."""
    spec = importlib.util.spec_from_file_location("sahra_old_bot", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load a module from {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def play_match(
    options: Any,
    rng: random.Random,
    bot_team: int,
    choose: Chooser | None = None,
    fallback: Fallback | None = None,
    other: tuple[Chooser, Fallback] | None = None,
    game_name: str = _GAME,
) -> MatchResult:
    """One whole match: the bots (the game's, unless `choose` and `fallback` are given)
    hold `bot_team`'s seats, the others are random players (or the `other` bot)."""
    game = protocol.get(game_name)
    found = players.get(game_name)
    mine = (choose or found.bot_choose, fallback or found.bot_fallback)
    state = game.initial(options, 1)
    result = MatchResult(winner=0, bot_team=bot_team)
    team_of = _teams(game, options)
    bots = {seat for seat, team in team_of.items() if team == bot_team}
    for _ in range(_MAX_STEPS):
        if game.over(state):
            break
        wait = game.timer(state)  # a seat's turn is running (None: the system's steps)
        if game.unit.needs_secret(state):
            events = game.decide(state, 0, game.unit.commit(rng.randbytes(32).hex()))
        elif wait is None or (wait.seat not in bots and other is None):
            _, _, events = found.step(state, rng)
        elif wait.seat in bots:
            events = _bot_step(game, state, wait.seat, mine, result, counted=True)
        else:
            assert other is not None
            events = _bot_step(game, state, wait.seat, other, result, counted=False)
        state = _fold(game, state, events, result, team_of)
    else:  # pragma: no cover - a runaway match
        raise RuntimeError("a match did not end")
    # The match's winning team, where the game's state names it (Banakil's does).
    winner = state.match_winner
    assert winner is not None
    result.winner = winner
    return result


def _teams(game: protocol.Game, options: Any) -> dict[int, int]:
    """Each seat's team (1 = the game's first team)."""
    return {seat: k for k, team in enumerate(game.teams(options), 1) for seat in team}


def _bot_step(
    game: protocol.Game,
    state: Any,
    seat: int,
    bot: tuple[Chooser, Fallback],
    result: MatchResult,
    counted: bool,
) -> tuple[Any, ...]:
    choose, fallback = bot
    seen = game.view(state, seat)
    command = choose(seen, state.options)
    if counted:
        result.bot_commands += 1
    try:
        return game.decide(state, seat, command)
    except RuleViolation as exc:
        if counted:
            result.refused += 1
            result.refusals.append(f"{exc}: {command!r}")
        return game.decide(state, seat, fallback(seen))  # must be accepted


def _fold(
    game: protocol.Game,
    state: Any,
    events: Sequence[Any],
    result: MatchResult,
    team_of: dict[int, int],
) -> Any:
    evolve, ends = game.evolve, game.unit.ends
    for event in events:
        state = evolve(state, event)
        if ends(event) is not None:
            # The summary of the deal that ended: its scores by team and who went out.
            summary = game.summary(state)
            result.deals += 1
            teams = summary.scores.teams
            mine = next(t.score for t in teams if t.team == result.bot_team)
            theirs = next(t.score for t in teams if t.team != result.bot_team)
            result.deal_points.append((mine, theirs))
            finisher = summary.finisher
            result.went_out.append(
                0 if finisher is None else 1 if team_of[finisher] == result.bot_team else 2
            )
    return state


def run(args: argparse.Namespace) -> int:
    other: tuple[Chooser, Fallback] | None = None
    if args.vs_old:
        old = load_bot(args.vs_old)
        other = (old.choose, old.fallback)
    failed = False
    for preset in args.rules.split(","):
        summary = _run_rules(preset, args, other)
        print(json.dumps(summary))
        failed |= summary["refused"] > 0 or summary["fallback_refused"] > 0
    return 1 if failed else 0


def _run_rules(
    preset: str, args: argparse.Namespace, other: tuple[Chooser, Fallback] | None
) -> dict[str, Any]:
    options = protocol.get(args.game).options_from(preset)
    rng = random.Random(f"{args.seed}:{preset}")
    results: list[MatchResult] = []
    fallback_refused = 0
    t0, c0 = time.perf_counter(), time.process_time()
    deadline = t0 + args.minutes * 60 if args.minutes else None
    for k in range(args.matches):
        if deadline is not None and time.perf_counter() > deadline:
            break
        try:
            match = play_match(options, rng, bot_team=1 + k % 2, other=other, game_name=args.game)
            results.append(match)
        except RuleViolation:
            fallback_refused += 1
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    played = len(results)
    wins = sum(r.winner == r.bot_team for r in results)
    deals = sum(r.deals for r in results)
    commands = sum(r.bot_commands for r in results)
    refused = sum(r.refused for r in results)
    points = [p for r in results for p in r.deal_points]
    outs = [w for r in results for w in r.went_out]
    opponent = f"old bot {args.vs_old}" if args.vs_old else "random players"
    rate = wins / played if played else 0.0
    low, high = _wilson(wins, played)
    goal = None if args.vs_old else _GOAL  # the goal is against random players only
    print(
        f"{preset}: bots won {wins}/{played} matches ({rate:.1%}, 95% interval "
        f"{low:.1%}–{high:.1%}) against {opponent}; "
        f"{deals} deals in {wall:.0f} s ({deals / wall:.2f} deals/s, "
        f"{played / wall * 60:.1f} matches/min); refused {refused}/{commands} bot commands"
    )
    if played < args.matches:
        print(f"{preset}: stopped after {played} of {args.matches} matches (--minutes)")
    for line in {r for res in results for r in res.refusals[:3]}:
        print(f"  refused: {line}")
    return {
        "ruleset": preset,
        "opponent": opponent,
        "matches": played,
        "matches_asked": args.matches,
        "bot_wins": wins,
        "win_rate": round(rate, 4),
        "win_rate_95": [round(low, 4), round(high, 4)],
        "goal": goal,
        "goal_met": None if goal is None else rate >= goal,
        "deals": deals,
        "deals_per_match": round(deals / played, 2) if played else None,
        "bot_points_per_deal": _mean([a / 2 for a, _ in points]),
        "other_points_per_deal": _mean([b / 2 for _, b in points]),
        "bots_went_out": _share(outs, 1),
        "others_went_out": _share(outs, 2),
        "bot_commands": commands,
        "refused": refused,
        "fallback_refused": fallback_refused,
        "seconds": round(wall, 1),
        "cpu_seconds": round(cpu, 1),
        "deals_per_s": round(deals / wall, 2) if wall else None,
        "seed": args.seed,
    }


def _wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate: the matches are a sample, and at a few
    hundred of them a rate near 95% is only known to a few points either way."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


def _share(values: Sequence[int], which: int) -> float | None:
    return round(sum(v == which for v in values) / len(values), 3) if values else None


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default=_GAME, help=f"the game (default {_GAME})")
    parser.add_argument("--matches", type=int, default=200, help="matches per rule set")
    parser.add_argument("--rules", default="classic,sahrat", help="rule sets, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--minutes", type=float, default=0, help="stop a rule set after this long (0: no cap)"
    )
    parser.add_argument(
        "--vs-old", metavar="PATH", help="play against this older bot module (e.g. bot.py)"
    )
    parser.set_defaults(run=run)


def register_bench(bench_subparsers: Any) -> None:
    """Add `bots` to `sahra bench`."""
    parser = bench_subparsers.add_parser("bots", help="bot win rate against random players")
    _add_arguments(parser)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m services.bench.bots", description=__doc__)
    _add_arguments(parser)
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    raise SystemExit(main())
