"""The dice of a round, from its committed secret (PF-DICE-2, PF-FAIR-6, PF-AMB-12 g).

Every roll of a round, at every table and in the roll-offs, takes the next three dice of
the round's "dice" stream in log order: the round's k-th roll (k from 0) reads dice 3k to
3k + 2 of `fair.dice(secret, E, ...)`. A round's stream is kept open between rolls (a
small cache keyed by the secret and E), so a roll costs a word or two of it instead of
the whole stream again; the cache changes no result, only how often the stream is read.
"""

from __future__ import annotations

import threading
from functools import lru_cache

from engine import fair

__all__ = ["roll"]

_DICE = 3
_AHEAD = 8 * _DICE  # dice drawn past the roll asked for (the same dice, in the same order)


class _Drawn:
    """One round's stream and the dice read from it so far."""

    __slots__ = ("dice", "lock", "stream")

    def __init__(self, secret: str, entropy: str) -> None:
        self.stream = fair.Stream(bytes.fromhex(secret), "dice", entropy)
        self.dice: list[int] = []
        # a caller on another thread (a worker pool) must not interleave its draws
        self.lock = threading.Lock()


# Rounds in play at once in one process, each kept open; a round pushed out is read again
# from its start when it rolls next (the same dice, only slower).
@lru_cache(maxsize=1024)
def _drawn(secret: str, entropy: str) -> _Drawn:
    return _Drawn(secret, entropy)


def roll(secret: str, entropy: str, k: int) -> tuple[int, int, int]:
    """The three dice of the round's roll `k` (from 0), each 1 to 6."""
    drawn = _drawn(secret, entropy)
    dice, end = drawn.dice, _DICE * (k + 1)
    if len(dice) < end:
        with drawn.lock:
            uniform = drawn.stream.uniform
            # the next few rolls' dice too: one pass under the lock serves several rolls
            dice.extend([1 + uniform(6) for _ in range(end + _AHEAD - len(dice))])
    return dice[end - 3], dice[end - 2], dice[end - 1]
