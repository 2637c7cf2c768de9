"""A search problem read from king down to ace (search_dp may take either direction).

Runs and sets do not care which way the ranks are read: mapping each rank r of 2 … K to
15 - r (the ace stays the ace) turns every valid group into a valid group, a run's ace
high into an ace low (rules/rummy.md RM-ACE-1..4: "high" and "low" trade places, "high or
low" stays), and a frozen run's ends into each other. Hand order is kept as it was
(`Problem.order`), so the hint's objective is unchanged; a solution is mapped back face by
face.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from engine.rummy.search_types import HAND_CLS, JOKER_INDEX, Block, Problem, Slot

__all__ = ["backwards", "mirror", "unmirror"]

_ACE = {"high": "low", "low": "high", "high_or_low": "high_or_low"}


def _face(face: int) -> int:
    rank = face % 13 + 1
    return face if rank == 1 else face // 13 * 13 + (15 - rank) - 1


def mirror(problem: Problem) -> Problem:
    """The same problem with ranks read the other way."""
    faces = [_face(f) for f in range(52)]

    def moved(counts: tuple[int, ...]) -> tuple[int, ...]:
        out = [0] * 52
        for f, n in enumerate(counts):
            out[faces[f]] = n
        return tuple(out)

    order = problem.order or tuple(range(52))
    new_order = [0] * 52
    for f in range(52):
        new_order[faces[f]] = order[f]
    hot = tuple(
        h if h.face < 0 else msgspec.structs.replace(h, face=faces[h.face]) for h in problem.hot
    )
    hand = moved(problem.hand)
    held = {f for f in range(52) if hand[f]} | {
        h.face for h in hot if h.cls == HAND_CLS and h.face >= 0
    }
    ace = _ACE[problem.ace]
    blocks = tuple(_block(b, held, ace) for b in problem.blocks)
    return msgspec.structs.replace(
        problem,
        ace=ace,
        must=moved(problem.must),
        spare=moved(problem.spare),
        hand=hand,
        hot=hot,
        blocks=blocks,
        order=tuple(new_order),
    )


def unmirror(groups: Sequence[Sequence[Slot]]) -> tuple[tuple[Slot, ...], ...]:
    """A mirrored problem's groups, with the faces read back the original way."""
    return tuple(tuple((_face(f) if f >= 0 else f, tag, key) for f, tag, key in g) for g in groups)


def backwards(problem: Problem, bound: int) -> bool | None:
    """For the hint's search with a bound: whether to read the problem the other way (the
    hand cards that could beat the bound lie high), or None if no hand card can beat it.

    The hint's search drops states that have passed every such card without using one, so
    the sooner they are passed, the fewer states it keeps."""
    places = _places_beating(problem, bound)
    if places is None:
        return None
    return bool(places) and max(places) > 15 - min(places)


def _places_beating(problem: Problem, bound: int) -> list[int] | None:
    """Places of the hand cards that could beat the hint's bound ([] : a hand joker could,
    so no direction helps), or None if none can."""
    if problem.wild_hand and bound < -JOKER_INDEX:
        return []
    faces = {f for f in range(52) if problem.hand[f]}
    faces |= {h.face for h in problem.hot if h.cls == HAND_CLS and h.face >= 0}
    order = problem.order or tuple(range(52))
    places = []
    for f in faces:
        if -order[f] > bound:
            rank = f % 13 + 1
            if rank != 1:
                places.append(rank)
            elif problem.ace == "high":
                places.append(14)
            elif problem.ace == "low":
                places.append(1)
            else:
                return []  # an ace may stand at either end
    return places or None


def _block(block: Block, held: set[int], ace: str) -> Block:
    if block.suit < 0:
        # A set of aces stands at place 1 only where aces are low only.
        place = (1 if ace == "low" else 14) if block.low in (1, 14) else 15 - block.low
        return msgspec.structs.replace(block, low=place, high=place)
    low, high = 15 - block.high, 15 - block.low
    first = 2 if ace == "high" else 1
    left = 0
    while low - left - 1 >= first:
        place = low - left - 1
        face = block.suit * 13 + (0 if place in (1, 14) else place - 1)
        if face not in held:
            break
        left += 1
    return msgspec.structs.replace(block, low=low, high=high, left=left)
