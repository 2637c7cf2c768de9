"""The readable table of `sahra bench rummy` (services/bench/rummy.py builds the report;
`--json` prints the same report whole)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["readable"]


def readable(report: dict[str, Any]) -> str:
    """Each part of `report` as a plain fixed-width table, then the goals."""
    out: list[str] = [f"{report['game']} bench, seed {report['seed']}, {report['seconds']} s"]
    if "validate" in report:
        out += _timed(
            "move check (check_move on a legal move)", report["validate"], "refused_builds"
        )
    for name, part in (report.get("search") or {}).items():
        out += _timed(f"{name} (hand of 7-13 cards)", part["rows"], "found", "over_cap")
        worst = part["worst"]
        out.append(
            f"  slowest {name} (CPU): {worst.get('cpu_ms')} ms CPU, {worst.get('ms')} ms wall; "
            f"time it again with --rerun '{worst.get('position')}'"
        )
    if "random_play" in report:
        out += ["", "random play (steps/s, one step = one accepted command)"]
        rows = [
            [
                r["variant"],
                r["seats"],
                r["rounds"],
                r["steps_per_round"],
                r["steps_per_s"],
                r["cpu_steps_per_s"],
                r["rules_cpu_steps_per_s"],
            ]
            for r in report["random_play"]
        ]
        theirs = report.get("rlcard") or {}
        if theirs.get("steps_per_s"):
            rows.append(
                [
                    f"RLCard {theirs['game']}",
                    2,
                    theirs["games"],
                    theirs["steps_per_game"],
                    theirs["steps_per_s"],
                    theirs.get("cpu_steps_per_s"),
                    "",
                ]
            )
        else:
            rows.append(["RLCard gin-rummy", "", "", "", theirs.get("missing", "not run"), "", ""])
        heads = ["variant", "seats", "rounds", "steps/round", "steps/s", "CPU steps/s"]
        out += _table([*heads, "rules only CPU steps/s"], rows)
    if "bot" in report:
        out += ["", "bot vs random player (2 seats, bot seat alternating)"]
        rows = [
            [
                r["variant"],
                r["games"],
                r["won"],
                r["drawn"],
                r["lost"],
                r["unfinished"],
                f"{r['win_rate']:.1%}",
                f"{r['win_rate_95'][0]:.1%}-{r['win_rate_95'][1]:.1%}",
                r["rounds_per_game"],
                r["seconds"],
            ]
            for r in report["bot"]
        ]
        heads = ["variant", "games", "won", "drawn", "lost", "unfinished", "won %", "95% Wilson"]
        out += _table([*heads, "rounds/game", "s"], rows)
        stopped = [r for r in report["bot"] if r["stopped_games"]]
        for r in stopped:
            out.append(
                f"  {r['variant']}: {r['stopped_games']} games stopped by the host after "
                f"{r['stopped_by_host_after']} rounds (the lower total wins)"
            )
    out += ["", "goals"]
    for name, part in report.get("summary", {}).items():
        out += _goal(name, part)
    return "\n".join(out)


def _timed(title: str, rows: Sequence[dict[str, Any]], *extra: str) -> list[str]:
    heads = ["variant", "cards", "jokers", "hand", "n", "p50 ms", "p99 ms", "max ms"]
    heads += ["cpu p50", "cpu p99", "cpu max", *extra]
    body = [
        [
            r["variant"],
            r["table_cards"],
            r["jokers_on_table"],
            r["hand_cards"],
            r["n"],
            r["p50_ms"],
            r["p99_ms"],
            r["max_ms"],
            r["cpu_p50_ms"],
            r["cpu_p99_ms"],
            r["cpu_max_ms"],
            *(r[e] for e in extra),
        ]
        for r in rows
    ]
    return ["", title, *_table(heads, body)]


def _table(heads: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    cells = [[str(c) for c in row] for row in [heads, *rows]]
    widths = [max(len(row[k]) for row in cells) for k in range(len(heads))]
    return ["  " + "  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) for row in cells]


def _goal(name: str, part: dict[str, Any]) -> list[str]:
    if name == "random_play":
        return [
            f"  random play: {part['steps_per_s']} steps/s over all variants, RLCard "
            f"{part['rlcard_steps_per_s']}: ratio {part['ratio']} (slowest variant "
            f"{part['slowest_variant_ratio']}); CPU time: {part['cpu_steps_per_s']} vs "
            f"{part['rlcard_cpu_steps_per_s']}, ratio {part['cpu_ratio']}; goal >= 1"
        ]
    if name == "bot":
        won = ", ".join(f"{v} {r['win_rate']:.1%}" for v, r in part.items())
        return [f"  bot: won {won}; goal >= 90%"]
    lines = []
    for key, value in part.items():
        if isinstance(value, dict):
            lines.append(
                f"  {name} {key}: p50 {value['p50_ms']} / p99 {value['p99_ms']} ms wall, "
                f"CPU p99 {value['cpu_p99_ms']} ms, n={value['n']}"
            )
    if "goal_p99_ms" in part:
        lines.append(
            f"  {name} goal p99 < {part['goal_p99_ms']} ms at 40 cards with jokers: "
            f"{'met' if part['goal_met'] else 'NOT met'} (wall), "
            f"{'met' if part['goal_met_cpu'] else 'NOT met'} (CPU)"
        )
    return lines
