"""Whole rummy games for `sahra bench rummy`: random play's speed beside RLCard's, and the
bot's strength against the random player.

Random play: the game's random player (`engine.players`) plays rounds from a fresh table
per variant, every command through `Game.decide` and every event folded with
`Game.evolve`, as `sahra bench engine` does; a step is one accepted command, the system's
commit and deal included. Nothing is kept while it is timed. The same rounds are then
played again untimed for their commands, which are decided and folded once more without
the player (`rules_*`): what the rules cost, apart from the random player's choices.

RLCard's gin-rummy random play is timed in the same run by scripts/rlcard-bench.sh in its
own venv (RLCard is not a project dependency); without that venv the figure is missing
and the report says how to make it.

Bot strength: two-seat games of the bot (`Game.bot`) against the random player, the bot
in seat 1 in even games and seat 2 in odd ones (the first player of a round is drawn by
the deal). A game is played to its end by the rules (Manipulation to 200, Carousel to 150,
one round in the others); a game that goes on after `rounds` rounds — Shanghai, which
only its host ends (RM-AMB-22) — is ended by the host's StopGame between rounds, so the
rules' standings (the lower total) decide it. A draw is a game with no single winner.
Each variant's row also goes to stderr as soon as its games are played.

This module names no game: the game comes from the registry by the name it is given.
"""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine import players, protocol
from engine.errors import RuleViolation

__all__ = ["RLCARD_SCRIPT", "bot_strength", "random_play", "rlcard", "wilson"]

RLCARD_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "rlcard-bench.sh"
_NO_VENV = 3  # the script's exit code when its venv is not made
_ROUND_STEPS = 100_000  # a round longer than this is a bug, not a long round
_MAX_ROUNDS = 500  # a game not over after this many rounds is reported unfinished
_SYSTEM = 0


def random_play(
    game_name: str,
    variants: Sequence[str],
    rounds: int,
    seats: int,
    seed: int,
    overrides: Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Steps/s of random play, one row per variant: `rounds` rounds, each from a new
    table of `seats` seats (and the options `overrides`) committed from a generator
    seeded with `seed`."""
    game = protocol.get(game_name)
    step = players.get(game_name).step
    evolve, ends = game.evolve, game.unit.ends
    rows = []
    for variant in variants:
        options = game.options_from(variant, **{**(overrides or {}), "seats": seats})
        rng = random.Random(f"{seed}:play:{variant}")
        steps = events = 0
        # Nothing is kept while timed (RLCard's loop keeps nothing either): a list of
        # every state would cost the garbage collector 15-20% of the time measured.
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(rounds):
            state = game.initial(options, 1)
            for n in range(_ROUND_STEPS):
                _, _, new = step(state, rng)
                for event in new:
                    state = evolve(state, event)
                events += len(new)
                if any(ends(e) is not None for e in new):
                    steps += n + 1
                    break
            else:  # pragma: no cover - a runaway round
                raise RuntimeError(f"a {variant} round did not end")
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        rows.append(
            {
                "variant": variant,
                "seats": seats,
                "rounds": rounds,
                "steps": steps,
                "events": events,
                "steps_per_round": round(steps / rounds, 1),
                "steps_per_s": round(steps / wall),
                "cpu_steps_per_s": round(steps / cpu) if cpu else None,
                "seconds": round(wall, 2),
                "cpu_seconds": round(cpu, 2),
                **_rules_only(game, options, _commands(game, step, options, rounds, seed, variant)),
            }
        )
    return rows


def rlcard(games: int, seed: int, script: Path = RLCARD_SCRIPT) -> dict[str, Any]:
    """RLCard's gin-rummy random play as scripts/rlcard-bench.sh times it, or a row
    saying why there is no figure (`steps_per_s` None) and how to get one."""
    try:
        done = subprocess.run(
            [str(script), str(games), str(seed)], capture_output=True, text=True, check=False
        )
    except OSError as exc:
        return {"steps_per_s": None, "missing": f"cannot run {script}: {exc}"}
    if done.returncode == _NO_VENV:
        return {"steps_per_s": None, "missing": f"no RLCard venv: run '{script} setup'"}
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"steps_per_s": None, "missing": f"{script.name} failed: {tail}"}
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def bot_strength(
    game_name: str,
    variants: Sequence[str],
    games: int,
    rounds: int,
    seed: int,
    overrides: Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """The bot against the random player, one row per variant of `games` games (with the
    options `overrides`)."""
    game = protocol.get(game_name)
    rows = []
    for variant in variants:
        options = game.options_from(variant, **{**(overrides or {}), "seats": 2})
        won = drawn = lost = unfinished = stopped = played_rounds = 0
        t0 = time.perf_counter()
        for k in range(games):
            bot_seat = 1 + k % 2
            rng = random.Random(f"{seed}:bot:{variant}:{k}")
            winners, n, by_host = _bot_game(game, game_name, options, bot_seat, rounds, rng)
            played_rounds += n
            stopped += by_host
            if winners is None:
                unfinished += 1
            elif winners == (bot_seat,):
                won += 1
            elif bot_seat in winners or not winners:
                drawn += 1
            else:
                lost += 1
        wall = time.perf_counter() - t0
        low, high = wilson(won, games)
        rows.append(
            {
                "variant": variant,
                "games": games,
                "won": won,
                "drawn": drawn,
                "lost": lost,
                "unfinished": unfinished,
                "win_rate": round(won / games, 4) if games else None,
                "win_rate_95": [round(low, 4), round(high, 4)],
                "rounds_per_game": round(played_rounds / games, 2) if games else None,
                "stopped_by_host_after": rounds if stopped else None,
                "stopped_games": stopped,
                "seconds": round(wall, 1),
            }
        )
        # a long run's finished variants survive its interruption
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    return rows


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate of `wins` in `n` games."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _commands(
    game: protocol.Game, step: Any, options: Any, rounds: int, seed: int, variant: str
) -> list[list[tuple[int, Any]]]:
    """The (seat, command) of every step of the same rounds, played again untimed from
    the same seed (the random player is deterministic)."""
    rng = random.Random(f"{seed}:play:{variant}")
    out = []
    for _ in range(rounds):
        state = game.initial(options, 1)
        taken: list[tuple[int, Any]] = []
        while True:
            seat, command, new = step(state, rng)
            taken.append((seat, command))
            for event in new:
                state = game.evolve(state, event)
            if any(game.unit.ends(e) is not None for e in new):
                break
        out.append(taken)
    return out


def _rules_only(
    game: protocol.Game, options: Any, rounds: Sequence[Sequence[tuple[int, Any]]]
) -> dict[str, Any]:
    """The same steps again, each command decided and its events folded, without the
    random player's choice of it: what the rules cost of a step."""
    decide, evolve = game.decide, game.evolve
    steps = sum(map(len, rounds))
    t0, c0 = time.perf_counter(), time.process_time()
    for commands in rounds:
        state = game.initial(options, 1)
        for seat, command in commands:
            for event in decide(state, seat, command):
                state = evolve(state, event)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {
        "rules_steps_per_s": round(steps / wall) if wall else None,
        "rules_cpu_steps_per_s": round(steps / cpu) if cpu else None,
    }


def _bot_game(
    game: protocol.Game,
    game_name: str,
    options: Any,
    bot_seat: int,
    rounds: int,
    rng: random.Random,
) -> tuple[tuple[int, ...] | None, int, bool]:
    """One game: the winners (None if it never ended), the rounds played, and whether the
    host stopped it after `rounds` rounds."""
    step = players.get(game_name).step
    evolve, ends = game.evolve, game.unit.ends
    stop = _command(game, "StopGame")
    state = game.initial(options, 1)
    played = 0
    by_host = False
    steps = 0
    while not game.over(state) and played < _MAX_ROUNDS:
        steps += 1
        if steps > _ROUND_STEPS * _MAX_ROUNDS:  # pragma: no cover - a runaway game
            break
        if played >= rounds and game.unit.needs_secret(state) and stop is not None:
            try:
                new = game.decide(state, 1, stop)  # the host, between rounds
                by_host = True
            except RuleViolation:
                stop = None  # this variant ends by itself: play on
                continue
        elif bot_seat in game.awaiting(state):
            sender, command = game.bot(state, bot_seat)
            new = game.decide(state, sender, command)
        else:
            _, _, new = step(state, rng)
        for event in new:
            state = evolve(state, event)
            played += ends(event) is not None and not by_host
    if not game.over(state):
        return None, played, by_host
    summary = game.summary(state)
    return tuple(summary.game_winners), played, by_host


def _command(game: protocol.Game, name: str) -> Any | None:
    """The game's command of that type name, made with no fields, if it has one."""
    for kind in game.command_types:
        if kind.__name__ == name:
            return kind()
    return None
