"""The Verify page's own check of the dice tool (services/verifier/static/fair.js,
`rederiveDice`) against the engine: each roll's commitment, the phone's seed and E, and the
three dice of the roll's "dice" stream (docs/deal-format.md 10.4), the same as engine/dice
draws them, for rolls with and without a client seed, and a roll the phone left unrolled;
a die changed in the record is named by its roll, as the server's verifier names it.

Rules: PF-DICE-1, PF-DICE-2, PF-FAIR-3, PF-FAIR-5, PF-AMB-12.

The JavaScript runs in headless Chromium (as a player runs it) and under Node when it is
installed, through the runtimes of tests/unit/test_fair_js.py.
"""

from __future__ import annotations

import copy
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from engine import fair
from engine.dice import record as dice_record
from tests.unit.test_dice_record import _raw, _record
from tests.unit.test_fair_js import (
    RUNTIMES,
    Runtime,
    fair_page,
    runtime,
)

REDERIVE_JS = "async (F, record) => await F.rederiveDice(record)"
_ROLLS = 7  # rolled; roll 8 is committed and left unrolled by the phone's Stop


@pytest.fixture(scope="module")
async def browser_page(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Any]:
    async with fair_page(tmp_path_factory.mktemp("dice-fair-js"), "rederiveDice") as page:
        yield page


@pytest.fixture(params=RUNTIMES)
def js(request: pytest.FixtureRequest, tmp_path: Path) -> Runtime:
    return runtime(request, tmp_path)


@pytest.fixture(scope="module")
def session() -> dict[str, Any]:
    """A phone's session played by the engine (tests/unit/test_dice_record.py): odd rolls
    seeded, even ones not, every third roll's window closed by the system, and the last
    roll committed and stopped unrolled; written as its record, as the page reads it."""
    record = _record(_ROLLS)
    assert dice_record.verify(record).passed
    read: dict[str, Any] = json.loads(json.dumps(_raw(record)))
    return read


def _thrown(roll: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in roll["events"] if e["type"] == "DiceThrown"]


def _checks(roll: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {c["name"]: (c["status"], c["code"]) for c in roll["checks"]}


async def test_the_browser_rolls_each_roll_s_three_dice_as_the_engine_did(
    js: Runtime, session: dict[str, Any]
) -> None:
    """PF-DICE-1, PF-DICE-2, PF-AMB-12: for every roll, seeded or not, the browser's
    commitment, E (the hash of the phone's one seed, "" for none) and three dice are the
    engine's: `fair.dice(secret, E, 3)` and the recorded DiceThrown; the unrolled last roll
    has its commitment and seed checked and no dice to compare."""
    got = await js.call(REDERIVE_JS, session)
    assert got["game"] == "dice" and got["passed"] is True
    rolls = got["rolls"]
    assert [r["roll"] for r in rolls] == list(range(1, _ROLLS + 2))
    seeded = set()
    for browser, written in zip(rolls, session["rolls"], strict=True):
        n = browser["roll"]
        seed = written["client_seeds"][0]
        secret = bytes.fromhex(written["secret"])
        assert browser["seeds"] == [seed] and seed == (f"phone {n}" if n % 2 else "")
        assert browser["entropy"] == fair.entropy([seed])
        committed = next(e for e in written["events"] if e["type"] == "SeedCommitted")
        assert browser["commitmentComputed"] == committed["commitment"]
        assert browser["dice"] == list(fair.dice(secret, fair.entropy([seed]), 3))
        if n > _ROLLS:
            assert not _thrown(written) and browser["unrolled"] is True
            assert _checks(browser) == {
                "commitment": ("pass", "match"),
                "seeds": ("pass", "match"),
                "dice": ("unchecked", "unrolled"),
            }
            continue
        seeded.add(bool(seed))
        assert browser["recorded"] == _thrown(written)[0]["dice"] == browser["dice"]
        assert _checks(browser) == {
            "commitment": ("pass", "match"),
            "seeds": ("pass", "match"),
            "dice": ("pass", "match"),
        }
    assert seeded == {True, False}


@pytest.mark.parametrize(("roll", "die"), [(2, 0), (3, 2)], ids=["unseeded", "seeded"])
async def test_a_changed_die_is_named_by_its_roll_by_the_browser_and_the_server(
    js: Runtime, session: dict[str, Any], roll: int, die: int
) -> None:
    """PF-DICE-2, PF-FAIR-5: one die of one roll changed in the record: the browser fails
    that roll's dice check, naming the roll, the dice the secret gives and the recorded
    ones; every other roll still passes; the server fails the same roll."""
    changed = copy.deepcopy(session)
    thrown = _thrown(changed["rolls"][roll - 1])[0]
    real = list(thrown["dice"])
    thrown["dice"][die] = real[die] % 6 + 1
    got = await js.call(REDERIVE_JS, changed)
    assert got["passed"] is False
    browser = got["rolls"][roll - 1]
    failing = [c for c in browser["checks"] if c["status"] == "fail"]
    assert [(c["name"], c["code"]) for c in failing] == [("dice", "roll_mismatch")]
    assert failing[0]["params"] == {
        "roll": roll,
        "expected": "-".join(map(str, real)),
        "recorded": "-".join(map(str, thrown["dice"])),
    }
    assert browser["dice"] == real and browser["recorded"] == thrown["dice"]
    others = [r for r in got["rolls"] if r["roll"] != roll]
    assert all(c["status"] != "fail" for r in others for c in r["checks"])
    verdict = dice_record.verify(dice_record.decode(json.dumps(changed)))
    assert [(v.number, v.passed) for v in verdict.rolls][-2:] == [(roll - 1, True), (roll, False)]
    assert f"of roll {roll}, dice {thrown['dice']}" in (verdict.rolls[-1].detail or "")


async def test_a_changed_secret_or_seed_fails_its_roll_in_the_browser(
    js: Runtime, session: dict[str, Any]
) -> None:
    """PF-FAIR-3, PF-AMB-12 h: another secret in roll 1 does not hash to its commitment;
    another seed listed for roll 3 is not the one the phone sent: each roll fails its own
    check, and the server fails roll 1."""
    changed = copy.deepcopy(session)
    changed["rolls"][0]["secret"] = "ab" * 32
    changed["rolls"][2]["client_seeds"] = ["someone else's seed"]
    got = await js.call(REDERIVE_JS, changed)
    assert _checks(got["rolls"][0])["commitment"] == ("fail", "mismatch")
    assert _checks(got["rolls"][2])["seeds"] == ("fail", "listed_differs")
    verdict = dice_record.verify(dice_record.decode(json.dumps(changed)))
    assert [(v.number, v.passed, v.check) for v in verdict.rolls] == [(1, False, "commitment")]


async def test_a_record_of_another_game_is_refused(js: Runtime, session: dict[str, Any]) -> None:
    """The dice tool's check reads only a dice-tool record (its "rolls")."""
    other = {"game": "bunco", "rounds": session["rolls"]}
    message = await js.call(
        "async (F, r) => { try { await F.rederiveDice(r); return null; }"
        " catch (err) { return err.message; } }",
        other,
    )
    assert message == 'not a dice-tool record: it has no "rolls" list'
