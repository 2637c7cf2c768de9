"""engine.replay and `sahra replay`: folding a log, running deal records, the report, and
the command line's exit codes (docs/deal-format.md)."""

from __future__ import annotations

import argparse
import itertools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine import banakil, fair
from engine.banakil.messages import CardsDealt, Event, SeedCommitted
from engine.banakil.state import State
from engine.errors import RuleViolation
from engine.replay import (
    Record,
    RecordError,
    decode_record,
    fold,
    opening,
    record_options,
    report_json,
    run_record,
)
from services.cli import replay as replay_cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def _example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return data


def _record(data: dict[str, Any]) -> Record:
    return decode_record(json.dumps(data))


def _step_by_step(record: Record) -> tuple[State, list[Event]]:
    """decide + evolve command by command, the way a table plays (no replay module)."""
    state = banakil.initial(record_options(record), record.host)
    events: list[Event] = []
    for deal in record.deals:
        commands = [*opening(deal, state), *((s.seat, s.command) for s in deal.commands)]
        for seat, command in commands:
            for event in banakil.decide(state, seat, command):
                state = banakil.evolve(state, event)
                events.append(event)
    return state, events


# --- fold -------------------------------------------------------------------------------------


def test_folding_no_events_gives_the_initial_state() -> None:
    state = banakil.initial(banakil.options_from("classic"))
    assert fold([], state) == state


@pytest.mark.parametrize(
    "name", ["sahrat-secret-deal", "classic-stacked-deal", "sahrat-1v1-secret-match"]
)
def test_fold_of_the_log_equals_the_state_played_step_by_step(name: str) -> None:
    record = _record(_example(name))
    played, events = _step_by_step(record)
    initial = banakil.initial(record_options(record), record.host)
    assert fold(events, initial) == played
    report = run_record(record)
    assert list(report.events) == events
    # every prefix too: the state after each event is the fold of the events so far
    state = initial
    for i, event in enumerate(events[:60]):
        state = banakil.evolve(state, event)
        assert fold(events[: i + 1], initial) == state


# --- seeds and decks ----------------------------------------------------------------------------


def test_a_secret_record_reproduces_the_fair_shuffle() -> None:
    """PF-FAIR-5: the deal is the committed deck shuffled with the client seeds (BK-DEAL-6)."""
    data = _example("sahrat-secret-deal")
    seed = data["deals"][0]["seed"]
    report = run_record(_record(data))
    secret = fair.parse_secret(seed["secret"])
    seeds = seed["client_seeds"]
    committed = next(e for e in report.events if isinstance(e, SeedCommitted))
    assert committed.commitment == fair.commitment(secret)
    assert report.deals[0].commitment == fair.commitment(secret)
    dealt = next(e for e in report.events if isinstance(e, CardsDealt))
    assert dealt.entropy == fair.entropy(seeds)
    deck = fair.deal_deck(secret, fair.entropy(seeds))
    order = [(dealt.starter - 1 + k) % 4 for k in range(4)]
    for k in range(72):
        assert dealt.hands[order[k % 4]][k // 4] == deck[k]
    assert dealt.hands[dealt.starter - 1][18] == deck[72]
    assert dealt.stock == deck[73:]
    assert dealt.dealer == fair.first_draw(secret, fair.entropy(seeds), 4)  # BK-DEAL-S1


def test_client_seeds_are_sent_by_their_seats_before_the_deal() -> None:
    report = run_record(_record(_example("sahrat-secret-deal")))
    system = [(c.seat, c.command) for c in report.commands if c.at is None]
    assert system == [(0, "CommitSeed"), (2, "SendClientSeed"), (4, "SendClientSeed"), (0, "Deal")]


def test_a_stacked_deck_is_dealt_one_card_at_a_time_from_the_starter() -> None:
    """BK-DEAL-6; a stacked deck without "dealer" lets the last seat deal, so seat 1 starts."""
    data = _example("sahrat-stacked-deal")
    deck = data["deals"][0]["deck"]
    report = run_record(_record(data))
    dealt = next(e for e in report.events if isinstance(e, CardsDealt))
    assert (dealt.dealer, dealt.starter) == (4, 1)
    assert [c.split("#")[0] for c in dealt.hands[0][:3]] == [deck[0], deck[4], deck[8]]
    assert [c.split("#")[0] for c in dealt.hands[1][:2]] == [deck[1], deck[5]]
    assert len(dealt.hands[0]) == 19 and len(dealt.stock) == 33


def test_the_dealer_of_a_stacked_deck_sets_the_starter() -> None:
    data = _example("sahrat-stacked-deal")
    data["deals"][0]["dealer"] = 2
    data["deals"][0]["commands"] = []
    report = run_record(_record(data))
    assert (report.deals[0].dealer, report.deals[0].starter) == (2, 3)
    assert report.deals[0].table.ended == "in_progress"


def test_a_classic_first_deal_waits_for_the_hosts_cut() -> None:
    """BK-DEAL-C1: the runner does not deal; the record's commands hold the Cut."""
    data = _example("classic-stacked-deal")
    report = run_record(_record(data))
    assert [c.command for c in report.commands[:2]] == ["StackDeck", "Cut"]
    assert report.deals[0].cut_position == 30 and report.deals[0].cut_card == "KD"
    data["deals"][0]["commands"] = []
    waiting = run_record(_record(data))
    assert waiting.deals[0].table.ended == "not_dealt"
    assert waiting.deals[0].starter is None


def test_the_system_cuts_a_stacked_deck_at_its_cut_field() -> None:
    """PF-CUT-3 with a stacked deck: seat 0 cuts without a position, at the record's "cut"."""
    data = _example("classic-stacked-deal")
    deal = data["deals"][0]
    deal["cut"] = deal["commands"][0]["command"]["position"]
    deal["commands"][0] = {"seat": 0, "command": {"type": "Cut"}}
    report = run_record(_record(data))
    assert report.rejected == 0
    assert report.deals[0].cut_position == deal["cut"]
    assert report.deals[0].table.ended == "went_out"


# --- the report ---------------------------------------------------------------------------------


def test_the_report_shows_each_command_and_the_end_of_the_deal() -> None:
    report = run_record(_record(_example("classic-stacked-deal")))
    assert report.rejected == 0 and not report.stopped
    assert [c.index for c in report.commands] == list(range(len(report.commands)))
    take = next(c for c in report.commands if c.command == "TakeGround")
    assert take.accepted and take.events == ("GroundTaken",)
    table = report.deals[0].table
    assert (table.ended, table.finisher) == ("went_out", 1)
    run = table.melds[0]
    assert [(c.card, c.stands_for, c.placed_by) for c in run.cards] == [
        ("7H", "7H", 1),
        ("8H", "8H", 1),
        ("9H", "9H", 3),
        ("10H", "10H", 1),
        ("2C", "JH", 1),  # BK-WILD-C2: the two moved up when its 9H came
    ]
    assert table.hands[0].cards == () and table.ground == ("9S", "4D")
    # BK-SCORE-C1..C5: only seat 1 opened; his partner's lay-off does not open
    assert [(p.opened, p.score) for p in table.players] == [
        (True, 38),
        (False, -20),
        (False, -20),
        (False, -20),
    ]
    assert [t.score for t in table.teams] == [18, -40]
    assert report.end.totals == (18, -40) and report.end.match_winner is None


def test_points_are_written_as_numbers_with_halves() -> None:
    """BK-DECK-5: half-points become 27.5, whole points stay whole numbers."""
    report = run_record(_record(_example("sahrat-stacked-deal")))
    teams = json.loads(report_json(report))["deals"][0]["table"]["teams"]
    assert teams[0]["score"] == 27.5
    assert isinstance(teams[0]["bonus"], int) and teams[0]["bonus"] == 20


def test_a_single_meld_in_1v1_scores_51_and_the_opponent_0() -> None:
    """BK-SCORE-S4, BK-SCORE-S7: the opponent has a meld, so 51 and not 102."""
    table = run_record(_record(_example("sahrat-1v1-stacked-deal"))).deals[0].table
    assert [(t.single_meld, t.bonus, t.score) for t in table.teams] == [
        (True, 51, 67),
        (False, 0, 0),
    ]


def test_a_whole_match_is_replayed_to_its_winner() -> None:
    report = run_record(_record(_example("sahrat-1v1-secret-match")))
    assert len(report.deals) > 1 and report.rejected == 0
    starters = [d.starter for d in report.deals]
    assert all(b == a % 2 + 1 for a, b in itertools.pairwise(starters))  # S3
    assert report.end.match_winner is not None
    (match,) = report.end.matches
    assert match.winner == report.end.match_winner and max(match.totals) >= 150
    assert report.end.phase == "over"


# --- rejected commands --------------------------------------------------------------------------


def test_keep_going_reports_each_rejection_and_it_changes_nothing() -> None:
    """The illegal commands are reported with their rules; without them the very same
    events happen, so they changed nothing (BK-TEAM-4)."""
    report = run_record(_record(_example("sahrat-rejected-commands")), keep_going=True)
    clean = run_record(_record(_example("sahrat-stacked-deal")))
    rejected = [c for c in report.commands if not c.accepted]
    assert report.rejected == len(rejected) == 6 and not report.stopped
    assert [c.rejection.rule_id for c in rejected if c.rejection] == [
        "BK-DEAL-5",
        "BK-TURN-6",
        "BK-WILD-S1",
        "BK-DRAW-S2",
        "BK-TEAM-S1",
        "BK-TURN-1",
    ]
    assert all(c.events == () for c in rejected)
    assert report.events == clean.events
    assert report.deals == clean.deals


def test_a_rejected_command_leaves_the_state_as_it_was() -> None:
    record = _record(_example("sahrat-rejected-commands"))
    state = banakil.initial(record_options(record))
    deal = record.deals[0]
    for seat, command in opening(deal, state):
        state = fold(banakil.decide(state, seat, command), state)
    report = run_record(record, keep_going=True)
    for step, result in zip(
        deal.commands, [c for c in report.commands if c.at is not None], strict=True
    ):
        before = state
        if result.accepted:
            state = fold(banakil.decide(state, step.seat, step.command), state)
        else:
            with pytest.raises(RuleViolation) as info:
                banakil.decide(state, step.seat, step.command)
            assert result.rejection is not None
            assert info.value.code == result.rejection.code
            assert state == before


def test_without_keep_going_the_run_stops_at_the_first_rejection() -> None:
    report = run_record(_record(_example("sahrat-rejected-commands")))
    assert report.stopped and report.rejected == 1
    last = report.commands[-1]
    assert not last.accepted and last.at == 0 and last.seat == 1
    assert last.rejection is not None
    assert (last.rejection.code, last.rejection.rule_id) == ("first_turn_no_draw", "BK-DEAL-5")
    assert report.deals[0].table.ended == "in_progress"
    assert report.end.table == report.deals[0].table


def test_commands_after_the_end_of_a_deal_are_rejected() -> None:
    data = _example("sahrat-1v1-stacked-deal")
    data["deals"][0]["commands"].append({"seat": 2, "command": {"type": "Draw"}})
    report = run_record(_record(data))
    assert report.stopped and report.commands[-1].rejection is not None
    assert report.commands[-1].rejection.code == "wrong_phase"
    assert report.deals[0].table.ended == "went_out"


def test_a_second_deal_cannot_start_while_the_first_is_still_played() -> None:
    data = _example("sahrat-1v1-stacked-deal")
    first = data["deals"][0]
    data["deals"] = [{**first, "commands": first["commands"][:3]}, first]
    report = run_record(_record(data))
    assert report.stopped and len(report.deals) == 2
    assert report.commands[-1].command == "StackDeck" and report.commands[-1].deal == 2


# --- bad records --------------------------------------------------------------------------------


def _minimal() -> dict[str, Any]:
    return {
        "game": "banakil",
        "options": {"preset": "sahrat"},
        "seats": ["a", "b", "c", "d"],
        "deals": [{"seed": {"secret": "ab" * 32}, "commands": []}],
    }


def _with(path: Sequence[Any], value: Any) -> dict[str, Any]:
    data = _minimal()
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


BAD_RECORDS = [
    ("missing game", {k: v for k, v in _minimal().items() if k != "game"}, "game"),
    ("other game", _with(["game"], "bunco"), "$.game"),
    ("unknown field", _with(["colour"], "red"), "unknown field `colour`"),
    ("deal field", _with(["deals", 0, "sed"], {}), "unknown field `sed`"),
    ("seat type", _with(["deals", 0, "commands"], [{"seat": "1", "command": {"type": "Draw"}}]),
     "Expected `int`, got `str`"),
    ("command type", _with(["deals", 0, "commands"], [{"seat": 1, "command": {"type": "Fly"}}]),
     "Invalid value 'Fly'"),
    ("command field", _with(["deals", 0, "commands"],
                            [{"seat": 1, "command": {"type": "Draw", "n": 2}}]),
     "unknown field `n`"),
    ("seed and deck", _with(["deals", 0, "deck"], ["AS"] * 106), "not both"),
    ("neither", _with(["deals", 0], {"commands": []}), "not both and not neither"),
    ("short secret", _with(["deals", 0, "seed", "secret"], "abc"), "64 hex"),
    ("bad client seed", _with(["deals", 0, "seed", "client_seeds"], ["a\nb"]), "printable"),
    ("too many seeds", _with(["deals", 0, "seed", "client_seeds"], ["", "", "", "", ""]),
     "one seed per seat"),
    ("bad deck", _with(["deals", 0], {"deck": ["AS"] * 106}), "106 cards"),
    ("not a card", _with(["deals", 0], {"deck": ["XX"] * 106}), "is not a card"),
    ("dealer with seed", _with(["deals", 0, "dealer"], 2), "stacked deck"),
    ("seats", _with(["seats"], ["a", "b"]), "4 players"),
    ("1v1 seats", _with(["options"], {"preset": "sahrat", "mode": "one_vs_one"}), "2 players"),
    ("classic 1v1", _with(["options"], {"preset": "classic", "mode": "one_vs_one"}),
     "partnership"),
    ("preset", _with(["options"], {"preset": "house"}), "unknown rule set"),
    ("option", _with(["options"], {"jokers": 4}), "unknown table option"),
    ("option value", _with(["options"], {"target_score": 0}), "target_score must be between"),
    ("host", _with(["host"], 5), '"host"'),
    ("no deals", _with(["deals"], []), "at least one deal"),
    ("seat number", _with(["deals", 0, "commands"], [{"seat": 9, "command": {"type": "Draw"}}]),
     "commands[0].seat"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("data", "words"), [b[1:] for b in BAD_RECORDS], ids=[b[0] for b in BAD_RECORDS]
)
def test_a_bad_record_is_one_clear_error(data: dict[str, Any], words: str) -> None:
    with pytest.raises(RecordError) as info:
        decode_record(json.dumps(data))
    assert words in str(info.value)


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", "null", '{"game": "banakil",}'])
def test_text_that_is_not_a_record_is_a_record_error(text: str) -> None:
    with pytest.raises(RecordError):
        decode_record(text)


def test_a_minimal_record_decodes() -> None:
    record = decode_record(json.dumps(_minimal()))
    assert record.host == 1 and record_options(record).ruleset == "sahrat"
    report = run_record(record)
    assert report.deals[0].table.ended == "in_progress"
    assert msgspec.json.decode(report_json(report))["end"]["phase"] == "play"


# --- the command line ---------------------------------------------------------------------------


def _main(argv: Sequence[str]) -> int:
    """What services.cli.main does, with only this module registered."""
    parser = argparse.ArgumentParser(prog="sahra")
    replay_cli.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code


def test_replay_prints_the_report_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert _main(["replay", str(EXAMPLES / "classic-stacked-deal.json")]) == 0
    out = capsys.readouterr()
    report = json.loads(out.out)
    assert report["deals"][0]["table"]["ended"] == "went_out"
    assert out.out.startswith("{\n  ")  # indented
    assert out.err == ""


def test_replay_exits_1_at_a_rejected_command(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "sahrat-rejected-commands.json")
    assert _main(["replay", path]) == 1
    assert json.loads(capsys.readouterr().out)["stopped"] is True
    assert _main(["replay", path, "--keep-going"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rejected"] == 6 and report["stopped"] is False


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "cannot read"),
        ("{not json", "not valid JSON"),
        ('{"game": "banakil", "seats": [], "deals": [], "extra": 1}', "unknown field `extra`"),
        ('{"game": "banakil", "seats": "abcd", "deals": []}', "Expected `array`, got `str`"),
    ],
    ids=["missing", "bad-json", "unknown-field", "wrong-type"],
)
def test_a_bad_file_is_one_message_and_exit_2(
    content: str | None, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deal.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert _main(["replay", str(path)]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert words in out.err and out.err.count("\n") == 1
    assert "Traceback" not in out.err


def test_the_sahra_entry_point_has_the_replay_command(capsys: pytest.CaptureFixture[str]) -> None:
    from services.cli.main import main

    assert main(["replay", str(EXAMPLES / "sahrat-1v1-stacked-deal.json")]) == 0
    assert json.loads(capsys.readouterr().out)["end"]["totals"] == [67, 0]
