"""`sahra fair shuffle`, the command-line Verify tool (PF-FAIR-5, PF-EX-8, PF-AMB-12).

The vectors come from docs/fairness.md, like test_fair.py, so the command, the engine and
the page agree. The parser is built the way services/cli/main.py builds it; one test runs the
real `sahra` entry point once the sibling sub-command modules it imports exist.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from engine import fair
from engine.cards import canonical_deck, faces
from services.cli import fair as fair_cli

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"
ZERO = "00" * 32


def _vector(number: int) -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    for block in re.findall(r"^```kat\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            key, _, value = line.partition("=")
            fields[key.strip()] = value.strip()
        if fields["vector"] == str(number):
            return fields
    raise AssertionError(f"docs/fairness.md has no vector {number}")


def _main(argv: Sequence[str]) -> int:
    """What services.cli.main does, with only this module registered."""
    parser = argparse.ArgumentParser(prog="sahra")
    fair_cli.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code


def _seed_args(seeds: list[str]) -> list[str]:
    return [f"--client-seed={seed}" for seed in seeds]


@pytest.mark.parametrize("number", [1, 2, 4])
def test_shuffle_prints_the_commitment_then_the_deal_of_a_documented_vector(
    number: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """PF-FAIR-5, PF-EX-8: the Verify steps from the command line."""
    v = _vector(number)
    argv = ["fair", "shuffle", "--seed", v["secret"], *_seed_args(json.loads(v["client_seeds"]))]
    assert _main(argv) == 0
    out = capsys.readouterr()
    commitment, deck, *rest = out.out.split("\n")
    assert rest == [""]
    assert commitment == v["commitment"]
    assert deck.split()[:12] == v["deal_top_12"].split()
    assert len(deck.split()) == 106
    assert out.err == ""


def test_the_label_selects_the_stream(capsys: pytest.CaptureFixture[str]) -> None:
    """PF-AMB-12 g: the same secret under "reshuffle:1" gives another order."""
    assert _main(["fair", "shuffle", "--seed", ZERO, "--label", "reshuffle:1"]) == 0
    deck = capsys.readouterr().out.splitlines()[1]
    secret = bytes(32)
    assert deck.split() == faces(
        fair.shuffle(canonical_deck(), secret, "reshuffle:1", fair.entropy([]))
    )
    assert deck.split() != faces(fair.deal_deck(secret, fair.entropy([])))


def test_an_upper_case_secret_is_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    v = _vector(1)
    assert _main(["fair", "shuffle", "--seed", v["secret"].upper(), "--game", "banakil"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == v["commitment"]


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["--seed", "abc"], "bad_secret"),
        (["--seed", "zz" * 32], "bad_secret"),
        (["--seed", ZERO, "--client-seed", "x" * 65], "bad_client_seed"),
        (["--seed", ZERO, "--client-seed", "caf\u00e9"], "bad_client_seed"),
        (["--seed", ZERO, "--label", ""], "bad_label"),
        (["--seed", ZERO, "--game", "chess"], "unknown_game"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_status_2(
    argv: list[str], code: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """PF-AMB-12 b/h: a refused secret or seed is reported, never a traceback."""
    assert _main(["fair", "shuffle", *argv]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.count("\n") == 1
    assert out.err.startswith(f"sahra fair shuffle: {code}")
    assert "Traceback" not in out.err


def test_a_missing_seed_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        _main(["fair", "shuffle"])
    assert info.value.code == 2
    assert "--seed" in capsys.readouterr().err


def test_the_sahra_entry_point_runs_fair_shuffle(capsys: pytest.CaptureFixture[str]) -> None:
    """PF-FAIR-5: `sahra fair shuffle` is wired into the real command line."""
    from services.cli.main import main

    v = _vector(2)
    argv = ["fair", "shuffle", "--seed", v["secret"], *_seed_args(json.loads(v["client_seeds"]))]
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines()[0] == v["commitment"]
