"""Golden playthroughs: every deal record in examples/ is replayed (with --keep-going) and
its whole report — every command's outcome, every event, the tables and the scores — is
compared with the stored tests/golden/expected/<name>.json.

A difference means the engine now plays a recorded deal differently. That is a RULES
CHANGE (or a change of the report format): say so in the commit message, with the rule
IDs, and regenerate the expected files on purpose:

    SAHRA_REGOLD=1 .venv/bin/python -m pytest tests/golden

The example records themselves are written by `python -m tests.golden.make_examples`.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from engine.replay import decode_record, report_json, run_record

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
EXPECTED = Path(__file__).resolve().parent / "expected"
_REGOLD = os.environ.get("SAHRA_REGOLD") == "1"
_DIFF_LINES = 80


def test_there_are_examples_to_replay() -> None:
    names = {p.stem for p in EXAMPLES}
    assert {"classic-stacked-deal", "sahrat-stacked-deal", "sahrat-1v1-stacked-deal"} <= names


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_example_replays_exactly_as_recorded(example: Path) -> None:
    report = run_record(decode_record(example.read_bytes()), keep_going=True)
    actual = report_json(report).decode("utf-8") + "\n"
    golden = EXPECTED / example.name
    if _REGOLD:
        EXPECTED.mkdir(exist_ok=True)
        golden.write_text(actual, encoding="utf-8")
        return
    assert golden.exists(), f"no golden file for {example.name}: run with SAHRA_REGOLD=1"
    expected = golden.read_text(encoding="utf-8")
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(),
            actual.splitlines(),
            f"expected/{example.name}",
            "replayed now",
            lineterm="",
        )
        shown = "\n".join(list(diff)[:_DIFF_LINES])
        pytest.fail(
            f"{example.name} no longer replays as recorded: a rules change? If it is meant, "
            f"regenerate with SAHRA_REGOLD=1 and say so in the commit.\n{shown}"
        )


def test_every_golden_file_has_its_example() -> None:
    stale = sorted(p.name for p in EXPECTED.glob("*.json")) if EXPECTED.exists() else []
    assert [n for n in stale if not (ROOT / "examples" / n).exists()] == []
