"""The dice of a round, from its committed secret (PF-DICE-2, PF-FAIR-6, PF-AMB-12 g).

Every roll of a round, at every table and in the roll-offs, takes the next three dice of
the round's "dice" stream in log order: the round's k-th roll (k from 0) reads dice 3k to
3k + 2 of `fair.dice(secret, E, ...)`. A round's stream is kept open between rolls (a
small cache keyed by the secret and E), so a roll costs a word or two of it instead of
the whole stream again; the cache changes no result, only how often the stream is read.
"""

from __future__ import annotations

from functools import lru_cache

from engine import fair

__all__ = ["roll"]

_DICE = 3


class _Drawn:
    """One round's stream and the dice read from it so far."""

    __slots__ = ("dice", "stream")

    def __init__(self, secret: str, entropy: str) -> None:
        self.stream = fair.Stream(bytes.fromhex(secret), "dice", entropy)
        self.dice: list[int] = []


@lru_cache(maxsize=64)
def _drawn(secret: str, entropy: str) -> _Drawn:
    return _Drawn(secret, entropy)


def roll(secret: str, entropy: str, k: int) -> tuple[int, int, int]:
    """The three dice of the round's roll `k` (from 0), each 1 to 6."""
    drawn = _drawn(secret, entropy)
    dice, stream = drawn.dice, drawn.stream
    while len(dice) < _DICE * (k + 1):
        dice.append(1 + stream.uniform(6))
    a, b, c = dice[_DICE * k : _DICE * (k + 1)]
    return a, b, c
