"""Write the deal records in examples/ (run: python -m tests.golden.make_examples).

The stacked decks are built from the hands each example needs: the wanted hands and the
top of the stock are laid out in dealing order (BK-DEAL-6), the rest of the 106 cards
fill the stock in a fixed scrambled order, and in `classic` the order is turned back by
the host's cut (PF-CUT-5) so that the cut deals exactly these hands. The records from a
secret get their commands from `random_step` with a fixed `random.Random` seed.

Each example is replayed here and checked to end the way it is meant to; the golden
files in tests/golden/expected/ are then rewritten with SAHRA_REGOLD=1 (see
test_playthroughs.py).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from engine import banakil
from engine.banakil.autoplay import random_step
from engine.banakil.messages import DealEnded, MatchEnded
from engine.cards import BANAKIL_DECK, faces
from engine.replay import DealRecord, Record, Seed, fold, opening, run_record

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

_CLASSIC_SEATS = ["Amal", "Badr", "Chadi", "Dunya"]
_SAHRAT_SEATS = ["Hala", "Ilyas", "Jana", "Karim"]


# --- building a stacked deck ------------------------------------------------------------------


def dealing_order(
    hands: Sequence[str], stock_top: str = "", bottom: str = "", starter: int = 1, fill: int = 0
) -> list[str]:
    """The 106 faces in the order they are dealt: `hands` per seat (seat 1 first, written
    as in the rules file; the starter's has 19 cards, the others 18), then the stock:
    `stock_top` first, the other cards scrambled by `fill`, and `bottom` last."""
    n = len(hands)
    wanted = [h.split() for h in hands]
    for seat, hand in enumerate(wanted, start=1):
        size = 19 if seat == starter else 18
        assert len(hand) == size, f"seat {seat} needs {size} cards, has {len(hand)}"
    order = [(starter - 1 + k) % n for k in range(n)]
    dealt = [wanted[order[k % n]][k // n] for k in range(18 * n)]
    dealt.append(wanted[starter - 1][18])
    top, last = stock_top.split(), bottom.split()
    rest = Counter(faces(BANAKIL_DECK))
    rest.subtract(Counter([*dealt, *top, *last]))
    assert not -rest, f"cards used more than twice: {sorted((-rest).elements())}"
    filler = sorted(rest.elements())
    random.Random(fill).shuffle(filler)
    return [*dealt, *top, *filler, *last]


def before_cut(order: Sequence[str], k: int) -> list[str]:
    """The deck that a cut at k (top k cards under the rest, PF-CUT-5) turns into `order`."""
    return [*order[len(order) - k :], *order[: len(order) - k]]


def cmd(seat: int, type_: str, **fields: Any) -> dict[str, Any]:
    return {"seat": seat, "command": {"type": type_, **fields}}


# --- the examples -------------------------------------------------------------------------------


def classic_stacked_deal() -> dict[str, Any]:
    """`classic`: the host cuts, seat 1 starts and opens with four melds (one with a wild
    two), his partner lays a 9H off on it (the two moves up to stand for JH), the ground
    gets four cards, seat 1 takes three of them, melds and lays off, and goes out."""
    order = dealing_order(
        [
            "7H 8H 2C 10H 3S 4S 5S 6S AS AH AD 9C 10C JC QC KC 4D 5D 6D",
            "7D QS 4H 6C JD 10D 3H KH 8S 5C 9D 2D AC 3C JS 7S 6H KD",
            "9H 9S 4C 7C QD 8D 3D 5H QH JH 10S 2H KS 8H 2S 4S 6S 10C",
            "8C 3H 5D 9D JK 7S 8S AH 4H 7C 2D 5C QS AS 6H JD 10H KH",
        ],
        stock_top="3C 6C 9C",
        bottom="KD",  # the cut card: a king counts 13, so the start is the host + 12 ≡ seat 1
    )
    cut = 30
    return {
        "game": "banakil",
        "options": {"preset": "classic"},
        "seats": _CLASSIC_SEATS,
        "host": 1,
        "deals": [
            {
                "deck": before_cut(order, cut),
                "commands": [
                    cmd(1, "Cut", position=cut),
                    cmd(1, "Meld", cards=["7H", "8H", "2C", "10H"]),
                    cmd(1, "Meld", cards=["3S", "4S", "5S", "6S"]),
                    cmd(1, "Meld", cards=["AS", "AH", "AD"]),
                    cmd(1, "Meld", cards=["9C", "10C", "JC", "QC", "KC"]),
                    cmd(1, "Discard", card="4D"),
                    cmd(2, "Draw"),
                    cmd(2, "Discard", card="7D"),
                    cmd(3, "Draw"),
                    cmd(3, "LayOff", meld=0, cards=["9H"], wild_as="JH"),
                    cmd(3, "Discard", card="9S"),
                    cmd(4, "Draw"),
                    cmd(4, "Discard", card="8C"),
                    cmd(1, "TakeGround", position=3),
                    cmd(1, "Meld", cards=["5D", "6D", "7D"]),
                    cmd(1, "LayOff", meld=3, cards=["8C"]),
                    cmd(1, "Discard", card="9S"),
                ],
            }
        ],
    }


def _sahrat_order() -> list[str]:
    return dealing_order(
        [
            "5H 7H JK AS AH 2C 9C 10C JC QC 6H 4D 5D 6D 7D 8D AD KS QH",
            "8H QS 4H 6C JD 10D 3H KH 8S 5C 9D 2D AC 4C JS 7S 6H KD",
            "3S 3D 3C 9S 10S 7C QD 8D 5H JH 2H KS 2S 4S 6S 10C QH 7D",
            "4C 3H 5D 9H JK 7S 8S AH 4H 7C 2D 5C QS AS 6C JD 10H KH",
        ],
        stock_top="8C 2H 9D",
        fill=1,
    )


_SAHRAT_PLAY = [
    cmd(1, "Meld", cards=["5H", "JK", "7H"]),
    cmd(1, "Meld", cards=["AS", "AH", "2C"]),
    cmd(1, "Meld", cards=["9C", "10C", "JC", "QC"]),
    cmd(1, "Discard", card="KS"),
    cmd(2, "Draw"),
    cmd(2, "Discard", card="8H"),
    cmd(
        3,
        "TakeGround",
        actions=[
            {"type": "Meld", "cards": ["3S", "3D", "3C"]},
            {"type": "LayOff", "meld": 0, "cards": ["8H"]},
        ],
    ),
    cmd(3, "Discard", card="10S"),
    cmd(4, "Draw"),
    cmd(4, "Discard", card="4C"),
    cmd(1, "Draw"),
    cmd(
        1,
        "Play",
        actions=[
            {"type": "ExchangeJoker", "meld": 0, "card": "6H"},
            {"type": "LayOff", "meld": 2, "cards": ["JK"], "joker_as": "KC"},
        ],
    ),
    cmd(1, "Meld", cards=["4D", "5D", "6D", "7D", "8D", "9D"]),
    cmd(1, "LayOff", meld=1, cards=["AD"]),
    cmd(1, "Discard", card="QH"),
]


def sahrat_stacked_deal() -> dict[str, Any]:
    """`sahrat`: seat 1 opens with a joker run, a set with a wild two and a club run; seat
    3 takes seat 2's 8H from the ground in one command that first lays his own set (so he
    may add to his partner's run); seat 1 frees the joker with the 6H and melds it again
    at once, melds the rest and goes out."""
    return {
        "game": "banakil",
        "options": {"preset": "sahrat"},
        "seats": _SAHRAT_SEATS,
        "deals": [{"deck": _sahrat_order(), "commands": _SAHRAT_PLAY}],
    }


def sahrat_rejected_commands() -> dict[str, Any]:
    """The `sahrat` deal with illegal commands slipped in: replayed with --keep-going each
    is reported with its rule and changes nothing, and the deal ends as before."""
    illegal = {
        0: [
            cmd(1, "Draw"),  # BK-DEAL-5: the starter does not draw on his first turn
            cmd(2, "Draw"),  # BK-TURN-6: not his turn
            cmd(1, "Meld", cards=["5H", "JK", "2C"]),  # BK-WILD-S1: one real card
        ],
        6: [
            cmd(3, "TakeGround"),  # BK-DRAW-S2: the ground card must be laid
            # BK-TEAM-S1: no meld of his own yet, so not on his partner's run
            cmd(3, "TakeGround", actions=[{"type": "LayOff", "meld": 0, "cards": ["8H"]}]),
        ],
        13: [cmd(1, "Discard", card="7S")],  # not in his hand
    }
    commands: list[dict[str, Any]] = []
    for i, step in enumerate(_SAHRAT_PLAY):
        commands.extend(illegal.get(i, []))
        commands.append(step)
    return {
        "game": "banakil",
        "options": {"preset": "sahrat"},
        "seats": _SAHRAT_SEATS,
        "deals": [{"deck": _sahrat_order(), "commands": commands}],
    }


def sahrat_1v1_deal() -> dict[str, Any]:
    """`sahrat` 1v1: seat 1 only discards on his first turn, seat 2 lays a set of threes,
    then seat 1 lays all his cards at once and discards the last: a single meld (51)."""
    order = dealing_order(
        [
            "3C 4C 5C 6C 8D 9D 10D JD QD KD AD AS AH AC 4H 5H 2S QS KH",
            "3H 3S 3D 10H 9S JC 7S 8S 4D 6H QC 5S KC 2D JS 7H 9H 10C",
        ],
        stock_top="8C 7C",
        fill=2,
    )
    return {
        "game": "banakil",
        "options": {"preset": "sahrat", "mode": "one_vs_one"},
        "seats": ["Lina", "Munir"],
        "deals": [
            {
                "deck": order,
                "commands": [
                    cmd(1, "Discard", card="QS"),
                    cmd(2, "Draw"),
                    cmd(2, "Meld", cards=["3H", "3S", "3D"]),
                    cmd(2, "Discard", card="10H"),
                    cmd(1, "Draw"),
                    cmd(
                        1,
                        "Play",
                        actions=[
                            {"type": "Meld", "cards": ["3C", "4C", "5C", "6C", "7C"]},
                            {"type": "Meld", "cards": ["8D", "9D", "10D", "JD", "QD", "KD", "AD"]},
                            {"type": "Meld", "cards": ["AS", "AH", "AC"]},
                            {"type": "Meld", "cards": ["4H", "5H", "2S"]},
                        ],
                    ),
                    cmd(1, "Discard", card="KH"),
                ],
            }
        ],
    }


def _secret(label: str) -> str:
    return hashlib.sha256(label.encode()).hexdigest()


def _random_deals(
    options: dict[str, Any], seats: list[str], seeds: list[list[str]], rng_seed: int, match: bool
) -> dict[str, Any]:
    """Deals from secrets, played by `random_step`: one deal, or deals until the match ends."""
    preset = options.get("preset")
    overrides = {k: v for k, v in options.items() if k != "preset"}
    state = banakil.initial(banakil.options_from(preset, **overrides))
    rng = random.Random(rng_seed)
    deals: list[dict[str, Any]] = []
    while True:
        number = len(deals) + 1
        client_seeds = seeds[(number - 1) % len(seeds)]
        seed = Seed(
            secret=_secret(f"sahra example {rng_seed} deal {number}"),
            client_seeds=tuple(client_seeds),
        )
        for seat, command in opening(DealRecord(seed=seed), state):
            state = fold(banakil.decide(state, seat, command), state)
        commands: list[dict[str, Any]] = []
        ended = matched = False
        while not ended:
            seat, command, events = random_step(state, rng)
            state = fold(events, state)
            commands.append({"seat": seat, "command": msgspec.to_builtins(command)})
            ended = any(isinstance(e, DealEnded) for e in events)
            matched = any(isinstance(e, MatchEnded) for e in events)
        deals.append({"seed": msgspec.to_builtins(seed), "commands": commands})
        if not match or matched:
            break
    return {"game": "banakil", "options": options, "seats": seats, "deals": deals}


def sahrat_secret_deal() -> dict[str, Any]:
    """A `sahrat` deal from a revealed secret and two client seeds, random legal play."""
    return _random_deals(
        {"preset": "sahrat"}, _SAHRAT_SEATS, [["", "alpha", "", "b0b"]], 7, match=False
    )


def classic_secret_deal() -> dict[str, Any]:
    """A `classic` deal from a secret: the host cuts, then random legal play."""
    return _random_deals({"preset": "classic"}, _CLASSIC_SEATS, [["x", "", "", ""]], 3, False)


def sahrat_1v1_match() -> dict[str, Any]:
    """A whole `sahrat` 1v1 match (to 150) from secrets, random legal play."""
    return _random_deals(
        {"preset": "sahrat", "mode": "one_vs_one"}, ["Lina", "Munir"], [["", "m"]], 11, True
    )


EXAMPLES_BY_NAME = {
    "classic-stacked-deal": classic_stacked_deal,
    "sahrat-stacked-deal": sahrat_stacked_deal,
    "sahrat-rejected-commands": sahrat_rejected_commands,
    "sahrat-1v1-stacked-deal": sahrat_1v1_deal,
    "sahrat-secret-deal": sahrat_secret_deal,
    "classic-secret-deal": classic_secret_deal,
    "sahrat-1v1-secret-match": sahrat_1v1_match,
}


# --- writing ---------------------------------------------------------------------------------


def dump(record: dict[str, Any]) -> str:
    """JSON for people: one command per line, the deck wrapped 16 cards a line."""

    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = ["{"]
    lines.append(f'  "game": {one(record["game"])},')
    lines.append(f'  "options": {one(record["options"])},')
    lines.append(f'  "seats": {one(record["seats"])},')
    if "host" in record:
        lines.append(f'  "host": {one(record["host"])},')
    lines.append('  "deals": [')
    for d, deal in enumerate(record["deals"]):
        lines.append("    {")
        for key in ("seed", "dealer", "cut"):
            if key in deal:
                lines.append(f'      "{key}": {one(deal[key])},')
        if "deck" in deal:
            lines.append('      "deck": [')
            deck = deal["deck"]
            rows = [deck[i : i + 16] for i in range(0, len(deck), 16)]
            for r, row in enumerate(rows):
                tail = "," if r < len(rows) - 1 else ""
                lines.append("        " + ", ".join(one(c) for c in row) + tail)
            lines.append("      ],")
        lines.append('      "commands": [')
        for c, step in enumerate(deal["commands"]):
            tail = "," if c < len(deal["commands"]) - 1 else ""
            lines.append(f"        {one(step)}{tail}")
        lines.append("      ]")
        lines.append("    }" + ("," if d < len(record["deals"]) - 1 else ""))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    EXAMPLES.mkdir(exist_ok=True)
    for name, build in EXAMPLES_BY_NAME.items():
        text = dump(build())
        record = msgspec.json.decode(text, type=Record)
        report = run_record(record, keep_going=True)
        deal = report.deals[-1].table
        print(f"{name}: {len(report.commands)} commands, {report.rejected} rejected, ", end="")
        print(f"{deal.ended} by {deal.finisher}, totals {report.end.totals}")
        assert deal.ended != "in_progress", name
        assert (report.rejected > 0) == ("rejected" in name), name
        (EXAMPLES / f"{name}.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
