"""The Verify page's own rummy deal (services/verifier/static/fair.js, `rederiveRummy`)
against engine/rummy/deal.py: the same canonical deck, the same first player and the same
hands, singletons and stock for every variant and every number of seats, and the same
verdict on a record played by the rummy rules, genuine or with its deal changed.

Rules: PF-AMB-12, PF-FAIR-3, PF-FAIR-6, RM-AMB-4, RM-CORE-2, RM-CORE-6, RM-CORE-7,
RM-CAR-1, RM-SHA-1, RM-TAH-2.

The JavaScript runs in headless Chromium (as a player runs it) and under Node when it is
installed, through the runtimes of tests/unit/test_fair_js.py.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from engine import fair
from engine.fairness import SeedCommitted, SendClientSeed
from engine.rummy import record as rummy_record
from engine.rummy.autoplay import random_step
from engine.rummy.deal import deal, first_player
from engine.rummy.evolve import evolve
from engine.rummy.game import initial
from engine.rummy.messages import CommitSeed, RoundDealt
from engine.rummy.options import options_from
from engine.rummy.rules import decide
from engine.rummy.variants import VARIANTS, deck
from tests.unit.test_fair_js import (
    RUNTIMES,
    Runtime,
    fair_page,
    runtime,
)

# Every variant's deal with 2 to 5 seats, computed by fair.js alone.
DEALS_JS = """
async (F, cases) => {
  const out = [];
  for (const c of cases) {
    const secret = F.parseSecret(c.secret);
    const e = await F.entropy(c.seeds);
    const first = await F.rummyFirst(secret, e, c.seats, 0);
    const next = await F.rummyFirst(secret, e, c.seats, first);
    const dealt = await F.rummyDeal(c.variant, c.seats, secret, e, first);
    out.push({
      deck: F.rummyDeck(c.variant, c.seats),
      first: first,
      next: next,
      hands: dealt.hands,
      singletons: dealt.singletons,
      stock: dealt.stock,
    });
  }
  return out;
}
"""

REDERIVE_JS = "async (F, record) => await F.rederiveRummy(record)"


@pytest.fixture(scope="module")
async def browser_page(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Any]:
    async with fair_page(tmp_path_factory.mktemp("rummy-deal-js"), "rederiveRummy") as page:
        yield page


@pytest.fixture(params=RUNTIMES)
def js(request: pytest.FixtureRequest, tmp_path: Path) -> Runtime:
    return runtime(request, tmp_path)


def _cases() -> list[dict[str, Any]]:
    cases = []
    for name in VARIANTS:
        for seats in range(2, 6):
            seeds = [f"seat {s}" if s % 2 else "" for s in range(1, seats + 1)]
            text = f"rummy-deal-js:{name}:{seats}".encode()
            cases.append(
                {
                    "variant": name,
                    "seats": seats,
                    "secret": hashlib.sha256(text).hexdigest(),
                    "seeds": seeds,
                }
            )
    return cases


async def test_the_browser_deals_every_variant_and_seat_count_as_the_engine_does(
    js: Runtime,
) -> None:
    """RM-AMB-4, RM-CORE-2, RM-CORE-6, RM-CORE-7, RM-CAR-1, RM-SHA-1, RM-TAH-2, PF-FAIR-6,
    PF-AMB-12: the canonical deck (Carousel for two: one deck, one joker), round 1's first
    player drawn under "first" and the next round's one seat on, then every hand, Tahiti's
    singletons and the stock, card for card."""
    cases = _cases()
    got = await js.call(DEALS_JS, cases)
    assert len(got) == len(cases) == 28
    for case, browser in zip(cases, got, strict=True):
        variant, seats = VARIANTS[case["variant"]], case["seats"]
        secret = bytes.fromhex(case["secret"])
        entropy = fair.entropy(tuple(case["seeds"]))
        first = first_player(secret, entropy, seats, 1, 0)
        hands, singles, stock = deal(variant, seats, secret, entropy, first)
        where = f"{case['variant']} with {seats} seats"
        assert browser["deck"] == list(deck(variant, seats)), where
        assert browser["first"] == first, where
        assert browser["next"] == first_player(secret, entropy, seats, 2, first), where
        assert browser["hands"] == [list(h) for h in hands], where
        assert browser["singletons"] == list(singles), where
        assert browser["stock"] == list(stock), where
    sizes = {(c["variant"], c["seats"]): len(g["deck"]) for c, g in zip(cases, got, strict=True)}
    assert sizes[("carousel", 2)] == 53 and sizes[("carousel", 3)] == 106
    assert sizes[("tahiti", 2)] == 108 and sizes[("manipulation", 5)] == 104


# --- a whole record --------------------------------------------------------------------------


def played_record(variant: str, seats: int, seed: int) -> dict[str, Any]:
    """A game played to its end by random legal players (engine/rummy/autoplay.py), seat 1
    sending a client seed each round, written as its deal record (docs/deal-format.md 10.2)."""
    state = initial(options_from(variant, seats=seats))
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
            if isinstance(event, RoundDealt):  # the seeds the round was dealt with
                rounds[-1]["client_seeds"] = list(state.client_seeds)
            state = evolve(state, event)
            stored = event
            if isinstance(event, SeedCommitted):  # the record keeps the secret apart
                rounds[-1]["number"] = event.deal
                stored = replace(event, secret="")
            rounds[-1]["events"].append(msgspec.to_builtins(stored))
    names = [f"Player {s}" for s in range(1, seats + 1)]
    options = {"variant": variant, "seats": seats}
    written = {"game": "rummy", "options": options, "seats": names, "host": 1, "rounds": rounds}
    read: dict[str, Any] = json.loads(json.dumps(written))  # as the page reads it
    return read


def _server(record: dict[str, Any]) -> rummy_record.Verdict:
    return rummy_record.verify(rummy_record.decode(json.dumps(record)))


def _dealt(record: dict[str, Any], round_no: int) -> dict[str, Any]:
    found: dict[str, Any] = next(
        e for e in record["rounds"][round_no - 1]["events"] if e["type"] == "RoundDealt"
    )
    return found


def _checks(browser_round: dict[str, Any]) -> dict[str, str]:
    return {c["name"]: c["status"] for c in browser_round["checks"]}


@pytest.fixture(scope="module")
def carousel() -> dict[str, Any]:
    record = played_record("carousel", 2, 1)
    assert len(record["rounds"]) >= 3
    assert _server(record).passed
    return record


async def test_a_played_record_is_re_derived_round_by_round_as_the_server_verifies_it(
    js: Runtime, carousel: dict[str, Any]
) -> None:
    """PF-FAIR-3, PF-FAIR-6, RM-CORE-7, RM-AMB-4: each round's commitment, its first player
    (drawn, then one seat on) and its deal follow from its revealed secret and seeds."""
    got = await js.call(REDERIVE_JS, carousel)
    assert got["passed"] is True and got["game"] == "rummy"
    assert [r["round"] for r in got["rounds"]] == list(range(1, len(carousel["rounds"]) + 1))
    for n, browser in enumerate(got["rounds"], 1):
        assert _checks(browser) == dict.fromkeys(["commitment", "seeds", "first", "deal"], "pass")
        dealt = _dealt(carousel, n)
        assert browser["first"] == dealt["first"]
        assert browser["hands"] == dealt["hands"] and browser["stock"] == dealt["stock"]
        assert browser["seeds"][0] == f"seat one, round {n}"
    firsts = [r["first"] for r in got["rounds"]]
    assert all(b == a % 2 + 1 for a, b in itertools.pairwise(firsts))


async def test_a_card_moved_between_hands_fails_that_round_naming_the_seat(
    js: Runtime, carousel: dict[str, Any]
) -> None:
    """RM-AMB-4, PF-FAIR-3: round 2's first cards of the two hands swapped: the browser
    names seat 1's card 1 (what the secret gives, what the record has); the server fails
    the same round at its RoundDealt."""
    changed = copy.deepcopy(carousel)
    hands = _dealt(changed, 2)["hands"]
    given = hands[0][0]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    got = await js.call(REDERIVE_JS, changed)
    assert got["passed"] is False
    failed = [(r["round"], c) for r in got["rounds"] for c in r["checks"] if c["status"] == "fail"]
    assert len(failed) == 1
    number, check = failed[0]
    assert number == 2 and (check["name"], check["code"]) == ("deal", "hand_mismatch")
    assert check["params"] == {
        "seat": 1,
        "index": 1,
        "expected": given,
        "recorded": hands[0][0],
    }
    server = _server(changed)
    assert [(r.number, r.passed) for r in server.rounds] == [(1, True), (2, False)]
    assert server.rounds[1].check == "events" and "RoundDealt" in (server.rounds[1].detail or "")


async def test_a_changed_secret_fails_the_commitment_and_the_deal(
    js: Runtime, carousel: dict[str, Any]
) -> None:
    """PF-FAIR-3, PF-AMB-12 b: another secret does not hash to the commitment, and its
    shuffle is not the recorded deal."""
    changed = copy.deepcopy(carousel)
    changed["rounds"][0]["secret"] = hashlib.sha256(b"another").hexdigest()
    got = await js.call(REDERIVE_JS, changed)
    first = got["rounds"][0]
    assert _checks(first)["commitment"] == "fail" and _checks(first)["deal"] == "fail"
    commitment = next(c for c in first["checks"] if c["name"] == "commitment")
    assert commitment["code"] == "mismatch"
    assert commitment["params"]["recorded"] == carousel["rounds"][0]["events"][0]["commitment"]
    assert not _server(changed).passed


async def test_a_changed_first_player_fails_the_first_player_check(
    js: Runtime, carousel: dict[str, Any]
) -> None:
    """RM-CORE-7, PF-FAIR-6: round 3's first player is one seat on from round 2's, whatever
    the record says."""
    changed = copy.deepcopy(carousel)
    dealt = _dealt(changed, 3)
    dealt["first"] = dealt["first"] % 2 + 1
    got = await js.call(REDERIVE_JS, changed)
    third = next(c for c in got["rounds"][2]["checks"] if c["name"] == "first")
    assert (third["status"], third["code"]) == ("fail", "next_mismatch")
    assert (
        third["params"]["recorded"] == dealt["first"] and third["params"]["first"] != dealt["first"]
    )


async def test_a_changed_tahiti_singleton_fails_the_deal(js: Runtime) -> None:
    """RM-TAH-2: the 4 face-up singletons are the 4 cards after the hands."""
    record = played_record("tahiti", 3, 2)
    assert _server(record).passed
    assert (await js.call(REDERIVE_JS, record))["passed"] is True
    singles = _dealt(record, 1)["singletons"]
    assert len(singles) == 4
    singles[1], singles[2] = singles[2], singles[1]
    got = await js.call(REDERIVE_JS, record)
    check = next(c for c in got["rounds"][0]["checks"] if c["name"] == "deal")
    assert (check["status"], check["code"], check["params"]["index"]) == (
        "fail",
        "singleton_mismatch",
        2,
    )


async def test_a_record_of_another_game_is_refused(js: Runtime) -> None:
    """PF-FAIR-5: the rummy re-derivation reads a rummy record only, and an unknown
    variant is said, not dealt."""
    refused = """async (F, records) => {
      const out = [];
      for (const r of records) {
        try { await F.rederiveRummy(r); out.push(null); } catch (err) { out.push(err.message); }
      }
      return out;
    }"""
    got = await js.call(
        refused,
        [
            {"game": "banakil", "deals": []},
            {"game": "rummy", "options": {"variant": "x"}, "rounds": []},
        ],
    )
    assert got == ['not a rummy record: it has no "rounds" list', 'not a rummy variant: "x"']
