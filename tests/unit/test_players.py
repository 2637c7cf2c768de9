"""The players a game offers its tests and benches (engine/players.py), and the engine
bench that plays with them (`sahra bench engine --game`)."""

from __future__ import annotations

import argparse
import json
import random

import pytest

from engine import banakil, players
from engine.banakil import bot
from engine.banakil.autoplay import random_step
from engine.banakil.client import ClientView, choose
from engine.banakil.messages import CommitSeed
from engine.errors import RuleViolation
from services.bench import engine as engine_bench


def test_banakils_players_are_found_by_its_name() -> None:
    found = players.get("banakil")
    assert found.step is random_step
    assert (found.client_view, found.client) == (ClientView, choose)
    assert (found.bot_choose, found.bot_fallback) == (bot.choose, bot.fallback)


def test_the_players_of_an_unhosted_game_are_an_unknown_game() -> None:
    with pytest.raises(RuleViolation) as refused:
        players.get("chess")
    assert refused.value.code == "unknown_game"
    assert "banakil" in refused.value.message


def test_other_players_under_a_registered_name_are_refused_the_same_ones_are_kept() -> None:
    found = players.get("banakil")
    assert players.register("banakil", found) is found
    other = players.Players(
        step=random_step,
        client_view=ClientView,
        client=choose,
        bot_choose=bot.choose,
        bot_fallback=bot.fallback,
    )
    with pytest.raises(ValueError, match="banakil"):
        players.register("banakil", other)
    assert players.get("banakil") is found


def test_the_random_player_plays_a_whole_deal_with_accepted_commands() -> None:
    rng = random.Random(4)
    step = players.get("banakil").step
    state = banakil.initial(banakil.options_from("sahrat"))
    for event in banakil.decide(state, 0, CommitSeed(secret="ab" * 32)):
        state = banakil.evolve(state, event)
    while state.phase in ("seeded", "play"):
        seat, command, events = step(state, rng)
        assert events == banakil.decide(state, seat, command)
        for event in events:
            state = banakil.evolve(state, event)
    assert state.deal == 1 and state.last_scores is not None


def _bench(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    engine_bench.register_bench(parser.add_subparsers(dest="bench", required=True))
    return parser.parse_args(argv)


def test_the_engine_bench_plays_each_preset_of_the_game_it_is_given(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = _bench(["engine", "--game", "banakil", "--deals", "2", "--seed", "3"])
    assert args.run(args) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(x["game"], x["ruleset"], x["deals"]) for x in lines] == [
        ("banakil", "classic", 2),
        ("banakil", "sahrat", 2),
    ]
    assert all(x["random_play"]["steps_per_deal"] > 10 for x in lines)
    assert all(x["replay"]["events_per_deal"] > x["random_play"]["steps_per_deal"] for x in lines)
    assert _bench(["engine"]).game == "banakil"


def test_the_engine_bench_refuses_a_game_not_hosted() -> None:
    args = _bench(["engine", "--game", "chess", "--deals", "1"])
    with pytest.raises(RuleViolation) as refused:
        args.run(args)
    assert refused.value.code == "unknown_game"
