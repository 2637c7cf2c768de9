"""Deal records with their recorded events, genuine and tampered, for the Verify page tests.

A record from `examples/` carries only the commands; `record_with_events` replays it with
the real engine (`engine.replay.run_record`) and puts each deal's events into the deal as
`"events"`, which is what the server stores and `engine.verify.verify_record` checks.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import msgspec

from engine import banakil
from engine.banakil.autoplay import random_step
from engine.banakil.messages import DealEnded, GroundReshuffled
from engine.replay import DealRecord, Seed, decode_record, fold, opening, run_record

__all__ = [
    "event_of",
    "example",
    "record_with_events",
    "reshuffled_deal",
    "tamper_hand",
    "tamper_seed",
]

ROOT = Path(__file__).resolve().parents[1]


def example(name: str) -> dict[str, Any]:
    """A record of `examples/` (commands only) as parsed JSON."""
    data: dict[str, Any] = json.loads((ROOT / "examples" / f"{name}.json").read_text())
    return data


def record_with_events(raw: dict[str, Any]) -> dict[str, Any]:
    """The record with every deal's events as the engine produces them (a deal's log
    starts with its SeedCommitted or DeckStacked)."""
    report = run_record(decode_record(json.dumps(raw)))
    assert not report.rejected, "the record must replay cleanly"
    per_deal: list[list[Any]] = []
    for event in report.events:
        if type(event).__name__ in ("SeedCommitted", "DeckStacked"):
            per_deal.append([])
        per_deal[-1].append(json.loads(msgspec.json.encode(event)))  # JSON, as served
    assert len(per_deal) == len(raw["deals"])
    out = copy.deepcopy(raw)
    for deal, events in zip(out["deals"], per_deal, strict=True):
        deal["events"] = events
    return out


def reshuffled_deal() -> dict[str, Any]:
    """A `classic` deal from a secret, played by the random bot, with a host cut, ground
    takes and two reshuffles of the ground (PF-FAIR-4): commands only."""
    seed = Seed(secret=hashlib.sha256(b"p12").hexdigest(), client_seeds=("a", "", "c", ""))
    state = banakil.initial(banakil.options_from("classic"))
    for seat, command in opening(DealRecord(seed=seed), state):
        state = fold(banakil.decide(state, seat, command), state)
    rng = random.Random(12)
    commands: list[dict[str, Any]] = []
    reshuffles = 0
    ended = False
    while not ended:
        seat, command, events = random_step(state, rng)
        state = fold(events, state)
        commands.append({"seat": seat, "command": msgspec.to_builtins(command)})
        reshuffles += sum(isinstance(e, GroundReshuffled) for e in events)
        ended = any(isinstance(e, DealEnded) for e in events)
    assert reshuffles == 2, "the fixed bot game reshuffles the ground twice"
    return {
        "game": "banakil",
        "options": {"preset": "classic"},
        "seats": ["Amal", "Badr", "Chadi", "Dunya"],
        "deals": [{"seed": msgspec.to_builtins(seed), "commands": commands}],
    }


def event_of(record: dict[str, Any], kind: str, deal: int = 0) -> dict[str, Any]:
    """The first event of a type in a deal of a record with events."""
    found: dict[str, Any] = next(e for e in record["deals"][deal]["events"] if e["type"] == kind)
    return found


def tamper_hand(record: dict[str, Any]) -> dict[str, Any]:
    """Seat 2's first dealt card swapped with the top card of the stock in the log."""
    out = copy.deepcopy(record)
    dealt = event_of(out, "CardsDealt")
    hand = dealt["hands"][1]
    hand[0], dealt["stock"][0] = dealt["stock"][0], hand[0]
    return out


def tamper_seed(record: dict[str, Any]) -> dict[str, Any]:
    """A different revealed secret (its first byte changed) for the first deal."""
    out = copy.deepcopy(record)
    secret: str = out["deals"][0]["seed"]["secret"]
    out["deals"][0]["seed"]["secret"] = ("00" if secret[:2] != "00" else "ff") + secret[2:]
    return out
