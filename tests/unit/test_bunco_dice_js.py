"""The Verify page's own Bunco check (services/verifier/static/fair.js, `rederiveBunco`)
against the engine: round 1's seating drawn under "first" and every roll's three dice in
log order (docs/deal-format.md 10.3), the same as engine/bunco draws them, on evenings of
7 (with the ghost) and 12 players played by the rules; a die or a seat changed in the
record is found at its round, table and roll, as the server's verifier finds it.

Rules: PF-FAIR-5, PF-FAIR-6, PF-DICE-2, BU-SET-7, BU-AMB-1, PF-AMB-12.

The JavaScript runs in headless Chromium (as a player runs it) and under Node when it is
installed, through the runtimes of tests/unit/test_fair_js.py.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from engine.bunco import record as bunco_record
from engine.bunco.autoplay import random_step
from engine.bunco.evolve import evolve
from engine.bunco.game import initial
from engine.bunco.messages import CommitSeed, RoundStarted, SeedCommitted, SendClientSeed
from engine.bunco.options import options_from
from engine.bunco.rules import decide
from tests.unit.test_fair_js import (
    RUNTIMES,
    Runtime,
    fair_page,
    runtime,
)

REDERIVE_JS = "async (F, record) => await F.rederiveBunco(record)"


@pytest.fixture(scope="module")
async def browser_page(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Any]:
    async with fair_page(tmp_path_factory.mktemp("bunco-dice-js"), "rederiveBunco") as page:
        yield page


@pytest.fixture(params=RUNTIMES)
def js(request: pytest.FixtureRequest, tmp_path: Path) -> Runtime:
    return runtime(request, tmp_path)


def played_record(players: int, seed: int) -> dict[str, Any]:
    """A one-set evening played by the rules (engine/bunco/autoplay.py), seat 1 sending a
    client seed each round, written as its record (docs/deal-format.md 10.3)."""
    state = initial(options_from(None, players=players, sets=1))
    rng = random.Random(seed)
    rounds: list[dict[str, Any]] = []
    while state.phase != "over":
        if state.phase == "seeded" and not state.seeds_sent[0]:
            seat, command = 1, SendClientSeed(seed=f"seat one, round {state.round}")
            events = decide(state, seat, command)
        else:
            seat, command, events = random_step(state, rng)
        if isinstance(command, CommitSeed):
            rounds.append({"secret": command.secret, "commands": [], "events": []})
        else:
            rounds[-1]["commands"].append([seat, msgspec.to_builtins(command)])
        for event in events:
            if isinstance(event, RoundStarted):  # the seeds the round was drawn with
                rounds[-1]["client_seeds"] = list(state.client_seeds)
            state = evolve(state, event)
            stored = event
            if isinstance(event, SeedCommitted):  # the record keeps the secret apart
                rounds[-1]["number"] = event.deal
                stored = replace(event, secret="")
            rounds[-1]["events"].append(msgspec.to_builtins(stored))
    names = [f"Player {s}" for s in range(1, players + 1)]
    written = {
        "game": "bunco",
        "options": {"players": players, "sets": 1},
        "seats": names,
        "host": 1,
        "rounds": rounds,
    }
    read: dict[str, Any] = json.loads(json.dumps(written))  # as the page reads it
    return read


def _server(record: dict[str, Any]) -> bunco_record.Verdict:
    return bunco_record.verify(bunco_record.decode(json.dumps(record)))


def _checks(browser_round: dict[str, Any]) -> dict[str, str]:
    return {c["name"]: c["status"] for c in browser_round["checks"]}


@pytest.fixture(scope="module")
def evenings() -> dict[int, dict[str, Any]]:
    made = {players: played_record(players, players) for players in (7, 12)}
    assert all(_server(r).passed for r in made.values())
    return made


@pytest.mark.parametrize("players", [7, 12])
async def test_the_browser_draws_every_die_and_the_first_seating_as_the_engine_did(
    js: Runtime, evenings: dict[int, dict[str, Any]], players: int
) -> None:
    """PF-FAIR-6, PF-DICE-2, BU-SET-7, BU-AMB-1: each round's commitment and seeds, round
    1's seating (the places, the ghost's included, shuffled under "first") and every
    roll's dice, roll-offs included, in log order, are what the engine recorded."""
    record = evenings[players]
    got = await js.call(REDERIVE_JS, record)
    assert got["game"] == "bunco" and got["passed"] is True
    assert [r["round"] for r in got["rounds"]] == list(range(1, 7))
    for n, (browser, written) in enumerate(zip(got["rounds"], record["rounds"], strict=True), 1):
        expected = (
            ["commitment", "seeds", "seating", "dice"]
            if n == 1
            else ["commitment", "seeds", "dice"]
        )
        assert _checks(browser) == dict.fromkeys(expected, "pass"), (n, browser["checks"])
        rolls = [e for e in written["events"] if e["type"] in ("DiceRolled", "RollOffRolled")]
        assert browser["dice"] == [e["dice"] for e in rolls] and rolls
        assert browser["seeds"][0] == f"seat one, round {n}"
    started = next(e for e in record["rounds"][0]["events"] if e["type"] == "RoundStarted")
    assert got["rounds"][0]["seating"] == started["tables"]
    assert len({p for t in started["tables"] for p in t}) == players + (players % 4 and 1)


async def test_a_changed_die_is_found_at_its_round_table_and_roll_by_the_browser_and_the_server(
    js: Runtime, evenings: dict[int, dict[str, Any]]
) -> None:
    """PF-FAIR-5, PF-DICE-2: one die of a middle-table roll of round 2 changed: the browser
    fails that round's dice check naming the table, the roll and both dice; every other
    round still passes; the server fails the same round."""
    record = copy.deepcopy(evenings[12])
    events = record["rounds"][1]["events"]
    target = next(
        e for e in events if e["type"] == "DiceRolled" and e["table"] == 2 and e["roll"] == 3
    )
    real = list(target["dice"])
    target["dice"][0] = real[0] % 6 + 1
    got = await js.call(REDERIVE_JS, record)
    assert got["passed"] is False
    failing = [c for c in got["rounds"][1]["checks"] if c["status"] == "fail"]
    assert [(c["name"], c["code"]) for c in failing] == [("dice", "roll_mismatch")]
    assert failing[0]["params"] == {
        "table": 2,
        "roll": 3,
        "expected": "-".join(map(str, real)),
        "recorded": "-".join(map(str, target["dice"])),
    }
    assert all(
        _checks(r) == dict.fromkeys(_checks(r), "pass")
        for i, r in enumerate(got["rounds"])
        if i != 1
    )
    verdict = _server(record)
    assert [(r.number, r.passed) for r in verdict.rounds][:2] == [(1, True), (2, False)]


async def test_a_changed_first_seating_is_found_by_the_browser(
    js: Runtime, evenings: dict[int, dict[str, Any]]
) -> None:
    """BU-SET-7, PF-FAIR-6: two places swapped between tables in round 1's drawn seating:
    the browser's seating check fails at the first table that differs."""
    record = copy.deepcopy(evenings[7])
    started = next(e for e in record["rounds"][0]["events"] if e["type"] == "RoundStarted")
    head, middle = started["tables"][0], started["tables"][1]
    head[0], middle[0] = middle[0], head[0]
    got = await js.call(REDERIVE_JS, record)
    failing = [c for c in got["rounds"][0]["checks"] if c["status"] == "fail"]
    assert [(c["name"], c["code"], c["params"]["table"]) for c in failing] == [
        ("seating", "draw_mismatch", 1)
    ]
    assert _server(record).passed is False
