"""What one roll of three dice scores (BU-SCORE-1..4, BU-ROLL-3, BU-OPT-1, BU-AMB-7/15),
and the evening's standings from the tally sheets (BU-EVE-1..3).

The three cases are exclusive: a Bunco (the target on every die) is exactly 21, a triple of
another number exactly 5, anything else 1 a die showing the target. With `wipeout`, three
1s in a round whose target is not 1 are a wipeout instead: the team's points go back to 0
and the roll scores nothing, so the turn passes; in round 1 they stay a Bunco (BU-EX-5).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.bunco.messages import Kind

__all__ = ["BELL_AT", "BUNCO", "TRIPLE", "score", "standings"]

BUNCO = 21  # BU-SCORE-1
TRIPLE = 5  # BU-SCORE-2
BELL_AT = 21  # BU-END-1, BU-AMB-5: 21 or more at the head table


def score(dice: Sequence[int], target: int, wipeout: bool) -> tuple[Kind, int]:
    """(kind, points) of a roll in a round with this target."""
    a, b, c = dice
    if a == b == c:
        if a == target:
            return "bunco", BUNCO
        if wipeout and a == 1:
            return "wipeout", 0
        return "triple", TRIPLE
    points = (a == target) + (b == target) + (c == target)
    return ("target", points) if points else ("nothing", 0)


def standings(
    players: int, wins: Sequence[int], buncos: Sequence[int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """BU-EVE-1..3, BU-AMB-1/11: (the seats with the most round wins, the seats with the
    most Buncos). The ghost (the place after the last seat) is not ranked; players tied
    share the place; most Buncos is its own recognition, not a tie-breaker, and nobody has
    it when nobody rolled a Bunco."""
    real_wins, real_buncos = wins[:players], buncos[:players]
    best, most = max(real_wins), max(real_buncos)
    return (
        tuple(s for s, w in enumerate(real_wins, 1) if w == best),
        tuple(s for s, b in enumerate(real_buncos, 1) if b == most and most > 0),
    )
