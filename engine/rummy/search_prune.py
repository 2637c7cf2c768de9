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
    # A suit's tokens split once per layer (states share them): (kept ones, free ones).
    split: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}
    empty = ((), (), (), ())
    for key, (value, _) in layer.items():
        runs = key[0]
        if runs == empty:
            base: tuple[tuple[int, ...], ...] = runs
            extra: tuple[tuple[int, ...], ...] = runs
        else:
            parts = []
            for toks in runs:
                got = split.get(toks)
                if got is None:
                    free = tuple(t for t in toks if t & _STRIP_MASK == 3)
                    got = (
                        (tuple(t for t in toks if t & _STRIP_MASK != 3), free)
                        if free
                        else (toks, ())
                    )
                    split[toks] = got
                parts.append(got)
            base = tuple(b for b, _ in parts)
            extra = tuple(f for _, f in parts)
        groups.setdefault((base, *key[1:-1]), []).append((extra, value, key[-1], key))
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
