"""The dice of a round, from its committed secret (PF-DICE-2, PF-FAIR-6, PF-AMB-12 g).

Every roll of a round, at every table and in the roll-offs, takes the next three dice of
the round's "dice" stream in log order: the round's k-th roll (k from 0) reads dice 3k to
3k + 2 of `fair.dice(secret, E, ...)`. A round's stream is kept open between rolls (a
small cache keyed by the secret and E), so a roll costs a look-up of dice already read
instead of the whole stream again; the cache changes no result, only how often the stream
is read.
"""

from __future__ import annotations

import threading
from functools import lru_cache

from engine import fair

__all__ = ["forget", "roll"]

_DICE = 3
_AHEAD = 16  # rolls read past the roll asked for (the same dice, in the same order)

Dice = tuple[int, int, int]


class _Drawn:
    """One round's stream and the rolls read from it so far, three dice each."""

    __slots__ = ("lock", "rolls", "stream")

    def __init__(self, secret: str, entropy: str) -> None:
        self.stream = fair.Stream(bytes.fromhex(secret), "dice", entropy)
        self.rolls: list[Dice] = []
        # a caller on another thread (a worker pool) must not interleave its draws
        self.lock = threading.Lock()

    def read(self, k: int) -> None:
        """Read the stream up to past roll `k`, a block of rolls at a time."""
        with self.lock:
            rolls = self.rolls
            if len(rolls) > k:  # another thread read them while this one waited
                return
            dice = self.stream.draws(6, _DICE * (k + 1 + _AHEAD - len(rolls)))
            rolls += [(1 + a, 1 + b, 1 + c) for a, b, c in zip(*[iter(dice)] * _DICE, strict=True)]


# Rounds in play at once in one process, each kept open; a round pushed out is read again
# from its start when it rolls next (the same dice, only slower).
@lru_cache(maxsize=1024)
def _drawn(secret: str, entropy: str) -> _Drawn:
    return _Drawn(secret, entropy)


# The round that rolled last, asked first: a round's rolls come one after another with the
# same secret and E objects (the state's), and telling them by identity is cheaper than
# the cache's look-up. Its one entry is set as a whole (one tuple), so a thread reads it
# whole.
_last: list[tuple[str, str, _Drawn]] = []


def roll(secret: str, entropy: str, k: int) -> Dice:
    """The three dice of the round's roll `k` (from 0), each 1 to 6."""
    last = _last[0] if _last else None
    if last is not None and last[0] is secret and last[1] is entropy:
        drawn = last[2]
    else:
        drawn = _drawn(secret, entropy)
        _last[:] = [(secret, entropy, drawn)]
    rolls = drawn.rolls
    if len(rolls) <= k:
        drawn.read(k)
    return rolls[k]


def forget() -> None:
    """Close every open round (the next roll reads its stream from the start again): for
    a process forked from one that rolled (the mutation tests' sessions)."""
    _drawn.cache_clear()
    _last.clear()
