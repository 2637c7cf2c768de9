"""The deal record names its game (docs/deal-format.md, section 10): the `"game"` field
picks the record section that reads, replays and verifies it. A `"game": "banakil"`
record and every file in examples/ read, replay and verify exactly as before, through the
command line too (`sahra replay` prints the golden bytes); a record of the test-only
high-card game is read and verified by that game; a record naming no hosted game is
refused as it always was."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

import msgspec
import pytest

from engine import protocol
from engine.replay import RecordError, decode_record, report_json, run_record
from engine.verify import verify_record
from services.cli import replay as replay_cli
from services.cli import verify as verify_cli
from services.verifier.reading import read_record, verify_any
from tests.games import high_card

_ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((_ROOT / "examples").glob("*.json"))
GOLDEN = _ROOT / "tests" / "golden" / "expected"
_SECRET = "5e" * 32


@pytest.fixture(scope="module", autouse=True)
def _hosted() -> None:
    protocol.register(high_card.GAME)


def _main(module: object, argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="sahra")
    module.register(parser.add_subparsers(dest="command", required=True))  # type: ignore[attr-defined]
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code


def _round() -> bytes:
    """The record of a high-card round of three seats, the last seat's card drawn by the
    clock, as the game's own record section writes it."""
    game = high_card.GAME
    options = high_card.HighCardOptions(seats=3)
    state = game.initial(options, 1)
    commands = ((1, high_card.Draw()), (2, high_card.Draw()), (0, high_card.Timeout(turn=3)))
    events = []
    for seat, command in ((0, high_card.CommitSeed(secret=_SECRET)), *commands):
        for event in game.decide(state, seat, command):
            state = game.evolve(state, event)
            events.append(event)
    events[0] = msgspec.structs.replace(events[0], secret="")
    log = protocol.TableLog(
        options=game.records.options_of(options),
        seats=("A", "B", "C"),
        host=1,
        units=(
            protocol.UnitLog(
                number=1,
                secret=_SECRET,
                client_seeds=(),
                commands=commands,
                events=tuple(events),
            ),
        ),
    )
    return msgspec.json.encode(game.records.build(log))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_is_read_as_the_banakil_record_it_was_and_verifies_the_same(
    example: Path,
) -> None:
    data = example.read_bytes()
    game, record = read_record(data)
    assert game.name == "banakil" and record == decode_record(data)
    assert verify_any(record) == verify_record(record)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_sahra_replay_prints_every_example_as_its_golden_file(
    example: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _main(replay_cli, ["replay", str(example), "--keep-going"])
    printed = capsys.readouterr().out
    assert printed == (GOLDEN / example.name).read_text(encoding="utf-8")
    assert (
        printed
        == report_json(run_record(decode_record(example.read_bytes()), True)).decode() + "\n"
    )


def test_a_record_of_another_hosted_game_is_read_and_verified_by_that_game() -> None:
    game, record = read_record(_round())
    assert game is high_card.GAME and isinstance(record, high_card.Record)
    assert verify_any(record) == high_card.Verdict(passed=True, detail="6 events re-derived")


def test_a_tampered_card_in_another_games_record_is_found(tmp_path: Path) -> None:
    raw = json.loads(_round())
    raw["events"][1]["card"] = "KS" if raw["events"][1]["card"] != "KS" else "QS"
    path = tmp_path / "round.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    _, record = read_record(path.read_bytes())
    assert verify_any(record).passed is False
    assert _main(verify_cli, ["verify", "--file", str(path)]) == 1


def test_sahra_replay_and_verify_take_another_games_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "round.json"
    path.write_bytes(_round())
    assert _main(replay_cli, ["replay", str(path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["secret"] == _SECRET and len(summary["cards"]) == 3
    assert _main(verify_cli, ["verify", "--file", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"record {path}: verified\n")


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b'{"game": "snap", "seats": ["A"], "deals": []}', "Invalid enum value 'snap'"),
        (b'{"game": 7}', "Expected `str`, got `int` - at `$.game`"),
        (b"[1, 2]", "not a deal record"),
        (b"{not json", "not valid JSON"),
        (b'{"game": "high_card", "options": {}, "secret": "", "extra": 1}', "unknown field"),
    ],
    ids=["unhosted-game", "game-not-a-name", "not-an-object", "bad-json", "strict-section"],
)
def test_a_record_naming_no_hosted_game_is_refused_as_before(data: bytes, words: str) -> None:
    with pytest.raises(RecordError) as info:
        read_record(data)
    assert words in str(info.value)
    if not data.startswith(b'{"game": "high_card"'):  # Banakil's reader, word for word
        with pytest.raises(RecordError) as before:
            decode_record(data)
        assert str(info.value) == str(before.value)
