"""`sahra fair shuffle`: recompute a committed shuffle from its revealed secret (PF-FAIR-5).

Prints the commitment on the first line, so it can be compared with the one published
before the deal (PF-EX-8), and the shuffled deck on the second, top card first.
"""

from __future__ import annotations

import argparse
import sys

from engine import fair, protocol
from engine.cards import canonical_deck, faces
from engine.errors import RuleViolation

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "fair",
        help="provably fair shuffle tools (docs/fairness.md)",
        description="Provably fair shuffle tools; the algorithm is in docs/fairness.md.",
    )
    fair_sub = parser.add_subparsers(dest="fair_command", required=True)
    shuffle = fair_sub.add_parser(
        "shuffle",
        help="shuffle the canonical deck from a secret, as the Verify page does",
        description=__doc__,
    )
    shuffle.add_argument(
        "--seed", required=True, metavar="HEX", help="the unit's secret: 64 hex characters"
    )
    shuffle.add_argument(
        "--client-seed",
        dest="client_seeds",
        action="append",
        default=[],
        metavar="TEXT",
        help="one per seat, in seat order; give '' for a seat that sent none "
        "(write --client-seed=-x for a seed that starts with '-')",
    )
    shuffle.add_argument(
        "--label",
        default="deal",
        help="stream label (default: deal); the input is always the game's canonical deck",
    )
    shuffle.add_argument(
        "--game",
        default=protocol.DEFAULT_GAME,
        help=f"whose deck (default: {protocol.DEFAULT_GAME})",
    )
    shuffle.set_defaults(run=_shuffle)


def _shuffle(args: argparse.Namespace) -> int:
    try:
        secret = fair.parse_secret(args.seed)
        deck = fair.shuffle(
            canonical_deck(args.game), secret, args.label, fair.entropy(args.client_seeds)
        )
    except RuleViolation as exc:
        # A user's typo deserves a sentence, not a traceback; 2 matches argparse's usage errors.
        print(f"sahra fair shuffle: {exc}", file=sys.stderr)
        return 2
    print(fair.commitment(secret))
    print(" ".join(faces(deck)))
    return 0
