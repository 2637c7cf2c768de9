"""The states of search_dp and the value each one carries (see search_dp).

A state is what decides the rest of the search at a step; its value is what the path
to it scored: hand cards used ("count"), or for the hint the earliest hand card used, in
hand order, then the fewest hand cards used (packed in one int, higher is better).
"""

from __future__ import annotations

from typing import Any

from engine.rummy.search_room import NO_HOPE

__all__ = ["NO_VALUE", "ZERO4", "Layer", "State", "gain", "index", "keep"]

# State: 0 open runs (tokens) per suit; 1 set copies per suit (chosen for this rank and not
# yet given, or given so far where the rank checks its sets after its suits); 2 tracked
# cards sent to this rank's sets; 3 untracked jokers used; 4 aces left at place 1 per suit
# (must + 8 × spare + 64 × hand); 5 opening (0 none, 1 candidate open, 2 opened); 6 jokers
# in the candidate; 7 joker-rule totals; 8 tracked jokers placed; 9 tracked aces waiting;
# 10 room for more jokers in the closed groups (counted up to the jokers there are).
State = tuple[
    tuple[tuple[int, ...], ...],
    tuple[int, ...],
    tuple[tuple[int, int, int, int], ...],
    int,
    tuple[int, ...],
    int,
    int,
    tuple[int, ...],
    int,
    int,
    int,
]
# Per state: its best value and how it was reached: (previous state, the choice made).
Layer = dict[State, tuple[int, Any]]
NO_VALUE = -(10**6)
ZERO4 = (0, 0, 0, 0)


# The hint's value packs two keys: the earliest hand card used (in hand order), then the
# fewest hand cards used, so that the move shown adds no card it does not need to.
_PACK = 64


def gain(value: int, order: int, used: int) -> int:
    """The hint's value after `used` hand cards of hand-order place `order` join."""
    if not used:
        return value
    if value == NO_VALUE:
        return -(order * _PACK + min(used, _PACK - 1))
    earliest, count = divmod(-value, _PACK)
    return -(min(earliest, order) * _PACK + min(count + used, _PACK - 1))


def index(value: int) -> int:
    """The earliest hand card a hint value has used (NO_HOPE: none yet)."""
    return NO_HOPE if value == NO_VALUE else -value // _PACK


def keep(out: Layer, key: State, value: int, back: Any) -> None:
    old = out.get(key)
    if old is None or value > old[0]:
        out[key] = (value, back)
