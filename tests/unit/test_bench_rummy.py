"""`sahra bench rummy` with tiny counts: its positions, its report's shape, and that the
report's numbers agree with each other (no timing is asserted: a shared machine's clock
decides those).

The positions (engine/rummy/bench_positions.py) are checked against the engine itself:
every constructed table is valid group by group, and every constructed move passes the
move check, so the bench times real, legal moves, jokers freed and moved included.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import msgspec
import pytest

from engine.rummy import bench_positions
from engine.rummy.groups import check_group
from engine.rummy.variants import VARIANTS
from services.bench import rummy, rummy_play
from services.cli.main import main

_JOKER_VARIANTS = ("carousel", "vatican", "tahiti")


def _args(**given: Any) -> argparse.Namespace:
    """The sub-command's arguments, its defaults under `given`."""
    parser = argparse.ArgumentParser()
    rummy.register_bench(parser.add_subparsers())
    args = parser.parse_args([rummy.GAME])
    for key, value in given.items():
        setattr(args, key, value)
    return args


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_constructed_table_holds_the_cards_asked_in_valid_groups(variant: str) -> None:
    """RM-GRP-1..4 and the variant's ace (RM-ACE-1..4) and jokers (RM-CAR-4, RM-VAT-3,
    RM-TAH-7: one a Tahiti group): every group of a bench table is one the rules accept;
    Tahiti's singletons stand alone (RM-TAH-2, RM-TAH-3)."""
    rules = VARIANTS[variant]
    for size in (20, 40, 80):
        for i in range(8):
            at = bench_positions.position(variant, size, random.Random(f"t:{variant}:{size}:{i}"))
            cards = [c for g in at.table for c in g]
            assert len(cards) == size
            assert len(set(cards) | set(at.hand)) == size + len(at.hand)  # no card twice
            assert 7 <= len(at.hand) <= 13
            names = dict(at.names)
            assert set(names) == {c for c in cards if c.startswith("JK")}
            if variant in _JOKER_VARIANTS:
                assert names, "a joker variant's table holds a joker"
            for group in at.table:
                if len(group) == 1:
                    assert rules.singletons and not group[0].startswith("JK")
                    continue
                check_group(group, rules, names)  # raises if the rules refuse it
                assert sum(c.startswith("JK") for c in group) <= max(1, rules.jokers_per_group)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_constructed_move_passes_the_move_check(variant: str) -> None:
    """RM-MOVE-1/3/5 (every table card stays, hand cards join), RM-JOKER-4/5, RM-CAR-6 and
    RM-TAH-9/10 (a joker freed by its real card from the hand moves on, named anew),
    RM-TAH-8 (Tahiti's joker groups only take hand cards): each bench move is legal as
    built, none had to be built again, and the joker variants' moves free jokers."""
    kinds: Counter[str] = Counter()
    for size in (20, 40, 80):
        for i in range(20):
            move = bench_positions.submitted(
                variant, size, random.Random(f"m:{variant}:{size}:{i}")
            )
            assert move.refused == 0
            checked = bench_positions.validate(move)
            before = {c for g in move.before.table for c in g}
            after = {c for g in move.table for c in g}
            assert before <= after
            assert checked.added and set(checked.added) == after - before
            assert set(checked.added) <= set(move.before.hand)
            kinds.update(move.changes)
    assert {"lay_off", "new_from_hand", "split_run", "end_to_set"} <= set(kinds)
    if variant in _JOKER_VARIANTS:
        assert kinds["free_joker"] > 0


def test_a_seed_names_a_position_and_no_jokers_means_none_dealt() -> None:
    """RM-CORE-2: without jokers asked, a joker variant's table and hand hold none."""
    one = bench_positions.position("vatican", 40, random.Random("same"))
    assert one == bench_positions.position("vatican", 40, random.Random("same"))
    bare = bench_positions.position("vatican", 40, random.Random("same"), jokers=False)
    assert not bare.names
    assert not [c for c in (*bare.hand, *(c for g in bare.table for c in g)) if "JK" in c]


def test_the_wilson_interval_brackets_the_win_rate() -> None:
    low, high = rummy_play.wilson(180, 200)
    assert (round(low, 4), round(high, 4)) == (0.8506, 0.9343)
    assert rummy_play.wilson(0, 0) == (0.0, 1.0)
    assert rummy_play.wilson(20, 20)[1] == 1.0
    assert rummy_play.wilson(0, 20)[0] == 0.0


def test_the_report_has_a_row_per_variant_and_size_and_its_numbers_agree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bench's timed parts on tiny counts: validation, searches, and random play beside
    a stand-in RLCard figure (the bot's games: the next test)."""
    theirs = {"steps_per_s": 1000, "cpu_steps_per_s": 2000, "game": "gin-rummy", "games": 1}
    theirs["steps_per_game"] = 1.0
    monkeypatch.setattr(rummy_play, "rlcard", lambda games, seed: dict(theirs))
    report = rummy.measure(
        _args(
            parts="validate,search,play",
            variants="vatican,guadeloupe",
            sizes="20,40",
            moves=3,
            repeat=2,
            positions=2,
            rounds=2,
            cap_seconds=0.2,  # the search's speed is not this test's business
        )
    )
    json.dumps(report)  # the --json document
    assert "_samples" not in json.dumps(report)
    rows = report["validate"]
    assert [(r["variant"], r["table_cards"]) for r in rows] == [
        ("vatican", 20),
        ("vatican", 40),
        ("guadeloupe", 20),
        ("guadeloupe", 40),
    ]
    for row in rows:
        assert row["n"] == 6 and row["refused_builds"] == 0
        assert row["with_jokers"] == (row["variant"] == "vatican")
        assert row["p50_ms"] <= row["p99_ms"] <= row["max_ms"]
        assert row["cpu_p50_ms"] <= row["cpu_p99_ms"] <= row["cpu_max_ms"]
    pooled = report["summary"]["validate"]
    assert pooled["40 jokers"]["n"] == 6 and pooled["20 no jokers"]["n"] == 6
    assert pooled["goal_met"] == (pooled["40 jokers"]["p99_ms"] < 2.0)
    for name in ("hint", "find_move"):
        part = report["search"][name]
        assert len(part["rows"]) == 4
        for row in part["rows"]:
            assert row["n"] == 2 and row["found"] + row["over_cap"] <= 2
        assert part["worst"]["cpu_ms"] == max(r["cpu_max_ms"] for r in part["rows"])
        msgspec.json.decode(part["worst"]["position"], type=bench_positions.Position)
    plays = report["random_play"]
    assert [r["variant"] for r in plays] == ["vatican", "guadeloupe"]
    for row in plays:
        assert row["rounds"] == 2 and row["steps"] >= 2 * 3  # commit, deal, a turn at least
    ours = sum(r["steps"] for r in plays) / sum(r["seconds"] for r in plays)
    assert report["summary"]["random_play"]["ratio"] == round(ours / 1000, 2)
    ours_cpu = sum(r["steps"] for r in plays) / sum(r["cpu_seconds"] for r in plays)
    assert report["summary"]["random_play"]["cpu_ratio"] == round(ours_cpu / 2000, 2)
    assert "bot" not in report and set(report["summary"]) == {
        "validate",
        "hint",
        "find_move",
        "random_play",
    }


def test_bot_games_are_counted_won_drawn_or_lost_with_their_interval() -> None:
    """Carousel plays to 150 over several rounds (RM-CAR-21), Vatican one round
    (RM-VAT-6): every game is won, drawn or lost, and the interval holds the rate.
    (Guadeloupe's tables grow to 90 cards, where one search takes seconds: its two games
    took minutes in the suite.)"""
    report = rummy.measure(_args(parts="bot", variants="carousel,vatican", games=2))
    rounds = {}
    for row in report["bot"]:
        assert row["games"] == 2
        assert row["won"] + row["drawn"] + row["lost"] + row["unfinished"] == 2
        assert row["unfinished"] == 0 and row["stopped_games"] == 0
        low, high = row["win_rate_95"]
        assert low <= row["win_rate"] <= high
        rounds[row["variant"]] = row["rounds_per_game"]
    assert rounds["vatican"] == 1 and rounds["carousel"] >= 1
    assert set(report["summary"]["bot"]) == {"carousel", "vatican"}


def test_a_shanghai_game_is_ended_by_its_host_after_the_rounds_asked() -> None:
    """RM-AMB-22, RM-SHA-5: Shanghai goes on until the host stops it, and the lower total
    then wins; the bench stops it between rounds. (RM-OPT-1 trust_player: no reminder's
    hint on each draw, which costs seconds a draw with today's search.)"""
    (row,) = rummy_play.bot_strength(
        rummy.GAME,
        ["shanghai"],
        games=1,
        rounds=1,
        seed=3,
        overrides={"compulsory_play": "trust_player"},
    )
    assert row["stopped_games"] == 1 and row["stopped_by_host_after"] == 1
    assert row["rounds_per_game"] == 1
    assert row["won"] + row["drawn"] + row["lost"] == 1 and row["unfinished"] == 0


def test_a_search_past_its_cap_is_stopped_and_counted() -> None:
    made = SimpleNamespace(
        position=bench_positions.position,
        searching=lambda name, at: lambda: time.sleep(5),
    )
    started = time.perf_counter()
    found = rummy.search(made, ["carousel"], [20], 2, seed=1, cap=0.05)  # type: ignore[arg-type]
    assert time.perf_counter() - started < 4  # 2 x (3 warm-ups + 2 positions) x 0.05 s
    for part in found.values():
        (row,) = part["rows"]
        assert row["over_cap"] == 2 and row["found"] == 0
        assert row["p50_ms"] >= 50
        assert part["worst"]["over_cap"] is True


def test_a_printed_position_is_timed_again() -> None:
    at = bench_positions.position("tahiti", 20, random.Random(5))
    again = rummy.rerun(bench_positions, msgspec.json.encode(at).decode(), 3)
    assert again["hint"]["n"] == 3 and again["find_move"]["n"] == 3


def test_without_its_venv_the_rlcard_figure_says_how_to_get_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAHRA_RLCARD_VENV", str(tmp_path / "none"))
    found = rummy_play.rlcard(1, 1)
    assert found["steps_per_s"] is None
    assert "setup" in found["missing"]


def test_sahra_bench_rummy_prints_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    common = ["bench", rummy.GAME, "--parts", "validate", "--variants", "tahiti"]
    common += ["--sizes", "20", "--moves", "2", "--repeat", "1"]
    assert main([*common, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == rummy.GAME and len(report["validate"]) == 1
    assert main(common) == 0
    shown = capsys.readouterr().out
    assert "move check" in shown and "goals" in shown
