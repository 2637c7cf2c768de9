"""Dropping dominated states from a layer of search_dp (an exact pruning, not a guess).

State A dominates state B when A is B plus open runs that may stop at once (3 cards or
more, no joker owed, not the opening candidate, not frozen, not marked, nothing tracked),
A's value is as good, and A's room for jokers once those runs stop is as large. Whatever B
can still do, A can too: it stops its extra runs at the next face and is then B, or
better. Comparing every pair of states is costly, so only states equal in everything else
are compared, and only in large layers.
"""

from __future__ import annotations

from typing import Any

from engine.rummy.search_hot import COUNT_SHIFT
from engine.rummy.search_room import Room
from engine.rummy.search_runs import CAND, EJ, FROZEN, JOK, LEN, S2, S3

__all__ = ["PRUNE_FROM", "prune"]

PRUNE_FROM = 64  # layers smaller than this are not worth comparing
# A token that may stop at once and carries nothing else.
_STRIP_MASK = LEN | EJ | CAND | FROZEN | JOK | S2 | S3 | ~((1 << COUNT_SHIFT) - 1)

Member = tuple[tuple[tuple[int, ...], ...], int, int, Any]  # extra runs, value, room, state


def prune(layer: dict[Any, tuple[int, Any]], place: int, room: Room) -> dict[Any, tuple[int, Any]]:
    """The layer without the states another state of it dominates (states as search_dp's:
    runs per suit first, room last)."""
    groups: dict[tuple[Any, ...], list[Member]] = {}
    for key, (value, _) in layer.items():
        base = []
        extra = []
        for toks in key[0]:
            free = tuple(t for t in toks if t & _STRIP_MASK == 3)
            base.append(tuple(t for t in toks if t & _STRIP_MASK != 3) if free else toks)
            extra.append(free)
        groups.setdefault((tuple(base), *key[1:-1]), []).append((tuple(extra), value, key[-1], key))
    out = dict(layer)
    for members in groups.values():
        if len(members) < 2:
            continue
        members.sort(key=lambda m: (-sum(map(len, m[0])), -m[1]))
        kept: list[Member] = []
        for member in members:
            if any(_dominates(k, member, place, room) for k in kept):
                del out[member[3]]
            else:
                kept.append(member)
    return out


def _dominates(a: Member, b: Member, place: int, room: Room) -> bool:
    if a[1] < b[1]:
        return False
    space = a[2]
    for mine, theirs in zip(a[0], b[0], strict=True):
        if len(mine) < len(theirs):
            return False
        rest = list(mine)
        for tok in theirs:
            if tok not in rest:
                return False
            rest.remove(tok)
        for tok in rest:  # the room it leaves if it stops at once
            space = room.roomier(space, room.run_room(tok, place))
    return space >= b[2]
