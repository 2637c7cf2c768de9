"""Turning the best end state of search_dp back into groups of slots: the trail is walked
back to the start, then its choices are replayed forward on real runs (search_types.Slot).

Runs are kept by token; equal tokens are interchangeable, so any run holding the token a
choice names may take it. Runs grown or begun at a face are set aside until every choice
at that face is replayed, so that a grown run is never taken for one still waiting.
"""

from __future__ import annotations

from typing import Any

from engine.rummy.search_runs import END, NAT, NATC, WILD_C, WILD_J
from engine.rummy.search_sets import split_sets
from engine.rummy.search_types import (
    BLOCK,
    HAND,
    HAND_JOKER,
    HOT,
    NATURAL,
    WILD,
    Problem,
    Slot,
    face_of,
)

__all__ = ["Step", "rebuild"]

# One step of the search: ("set", place, -1) chooses a rank's sets, ("suit", place, suit)
# places one face, ("rank", place, -1) checks a rank's sets; with its layer of states.
Step = tuple[str, int, int, dict[Any, tuple[int, Any]]]

_SLOT_OF = {NAT: NATURAL, NATC: HAND, WILD_J: WILD, WILD_C: HAND_JOKER}


def rebuild(
    problem: Problem, limit: int, trail: list[Step], key: Any, absorb: int
) -> tuple[tuple[Slot, ...], ...]:
    """The groups of the path that ends in state `key`, with `absorb` more jokers laid
    where groups have room (search_dp: jokers that could leave their group are left out
    of the search and laid at the end)."""
    choices: list[tuple[str, int, int, Any, Any]] = []
    for kind, place, suit, layer in reversed(trail):
        prev, how = layer[key][1]
        choices.append((kind, place, suit, prev, how))
        key = prev
    choices.reverse()
    groups: list[list[Slot]] = []
    runs: list[dict[int, list[list[Slot]]]] = [{} for _ in range(4)]
    block_ext: dict[int, list[Slot]] = {}
    quota: tuple[tuple[int, ...], int] | None = None
    for kind, place, suit, prev, how in choices:
        if kind == "set":
            quota = how
        elif kind == "suit":
            if how is not None:
                log, rest, opt = how
                _replay(runs[suit], log, rest, opt, face_of(place, suit), groups, block_ext)
            if suit == 3 and quota is not None:
                groups.extend(_cold_sets(place, quota[0], quota[1], limit))
                quota = None
        elif how is not None:
            jokers, witness = how
            if witness is None:
                groups.extend(_cold_sets(place, prev[1], jokers, limit))
            else:
                groups.extend(_marked_sets(problem, place, witness))
    for by_token in runs:
        for bucket in by_token.values():
            groups.extend(bucket)
    for number, block in enumerate(problem.blocks):
        if block.suit < 0:
            groups.append([(-1, BLOCK, number), *block_ext.get(number, [])])
    for _ in range(absorb):
        for group in groups:
            slot = _room(problem, limit, group)
            if slot is not None:
                group.append(slot)
                break
    return tuple(tuple(g) for g in groups)


def _room(problem: Problem, limit: int, group: list[Slot]) -> Slot | None:
    """A joker slot this group can take (a run's next place at either end, a set's missing
    suit), or None."""
    if any(tag == BLOCK for _, tag, _ in group):
        return None
    jokers = sum(
        1
        for face, tag, key in group
        if tag in (WILD, HAND_JOKER) or (tag == HOT and problem.hot[key].face < 0)
    )
    if limit == 1 and jokers:
        return None
    ranks = {face % 13 for face, _, _ in group}
    if len(ranks) == 1:
        if len(group) != 3:
            return None
        suits = {face // 13 for face, _, _ in group}
        rank = ranks.pop()
        return (next(s for s in range(4) if s not in suits) * 13 + rank, WILD, -1)
    suit = group[0][0] // 13
    places = [f % 13 + 1 for f, _, _ in group]
    places = [14 if p == 1 and i else p for i, p in enumerate(places)]
    first = 2 if problem.ace == "high" else 1
    last = 13 if problem.ace == "low" else 14
    low, high = places[0], places[-1]
    if high < last and not (low == 1 and high + 1 == 14):
        return (face_of(high + 1, suit), WILD, -1)
    if low > first and not (low - 1 == 1 and high == 14):
        return (face_of(low - 1, suit), WILD, -1)
    return None


def _replay(
    runs: dict[int, list[list[Slot]]],
    log: tuple[tuple[Any, ...], ...],
    rest: tuple[int, ...],
    opt: Any,
    face: int,
    groups: list[list[Slot]],
    block_ext: dict[int, list[Slot]],
) -> None:
    moved: list[tuple[int, list[Slot]]] = []
    for entry in log:
        kind = entry[0]
        if kind == "c":
            _, tok, how, ref, new = entry
            run = runs[tok].pop()
            if how != "pass":
                run.append(_slot(face, how, ref))
            moved.append((new, run))
        elif kind == "s":
            _, how, ref, new = entry
            moved.append((new, [_slot(face, how, ref)]))
        elif kind == "e":
            groups.append(runs[entry[1]].pop())
        elif kind == "b":
            _, number, how, ref = entry
            block_ext.setdefault(number, []).append(_slot(face, how, ref))
    flat, starts = opt[8]
    for i, tok in enumerate(rest):
        act, new = flat[2 * i], flat[2 * i + 1]
        run = runs[tok].pop()
        if act == END:
            groups.append(run)
            continue
        run.append((face, _SLOT_OF[act], -1))
        moved.append((new, run))
    for i in range(0, len(starts), 2):
        moved.append((starts[i], [(face, _SLOT_OF[starts[i + 1]], -1)]))
    for tok, run in moved:
        runs.setdefault(tok, []).append(run)


def _cold_sets(place: int, counts: tuple[int, ...], jokers: int, limit: int) -> list[list[Slot]]:
    faces = [face_of(place, s) for s in range(4)]
    out: list[list[Slot]] = []
    for mask, extra in split_sets(counts, jokers, limit) or ():
        group: list[Slot] = [(faces[s], NATURAL, -1) for s in range(4) if mask >> s & 1]
        missing = [s for s in range(4) if not mask >> s & 1]
        group += [(faces[s], WILD, -1) for s in missing[:extra]]
        out.append(group)
    return out


def _marked_sets(problem: Problem, place: int, witness: Any) -> list[list[Slot]]:
    faces = [face_of(place, s) for s in range(4)]
    out: list[list[Slot]] = []
    for mask, keys, named in witness:
        group: list[Slot] = [(faces[s], NATURAL, -1) for s in range(4) if mask >> s & 1]
        free = list(named)
        for key in keys:
            face = problem.hot[key].face
            group.append((face if face >= 0 else faces[free.pop(0)], HOT, key))
        group += [(faces[s], WILD, -1) for s in free]
        out.append(group)
    return out


def _slot(face: int, how: str, ref: int) -> Slot:
    if how == "hand":
        return (face, HAND, -1)
    if how == "block":
        return (-1, BLOCK, ref)
    return (face, HOT, ref)
