"""The hint's search for a move playing one card, walked depth first (for search_dp).

search_dp takes the faces one step at a time for a whole layer of states at once; asked
whether any split plays a given card (the hint's question, search.py `_plays`), it carries
every way to lay the rest of the table to the last face, even where the first complete
split it could reach would do. This walk follows the same steps (search_dp's own step
functions, one state at a time) depth first and stops at the first split that ends as
search_dp's end would accept it; a state from which no split ends is remembered, with its
value, and not walked again unless reached with a better one (the same state with more
hand cards used may still end where it did not). It is exact: it stops with a split only
when one exists, and reports none only after every state reachable from the start has
been walked (no state is dropped here that search_dp keeps). It gives up (GaveUp) after
`budget` states, and search_dp's layers then take over.

Why it pays: on 40-card joker tables the hint's searches that find a move were its
largest cost (a freed joker made wild fills every layer), and a walk reaches a move after
visiting a few hundred states where the layers hold thousands. A walk that must prove
there is none visits about as many states as the layers do, one at a time, and costs more:
hence the budget.
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.rummy.search_rebuild import Step, rebuild
from engine.rummy.search_room import Room
from engine.rummy.search_state import Layer, State, index
from engine.rummy.search_types import Problem, Solution

__all__ = ["GaveUp", "Steps", "walk"]


class GaveUp(Exception):
    """The search met the limit of states it was given before it could finish."""


class Steps(Protocol):
    """What the walk reads of search_dp's search."""

    p: Problem
    first: bool
    limit: int
    places: list[int]
    quota: set[int]
    room: Room
    order: tuple[int, ...]

    def _start(self) -> Layer: ...
    def _set_step(self, layer: Layer, place: int) -> Layer: ...
    def _suit_step(
        self, layer: Layer, place: int, suit: int, hope: tuple[int, int], quota: bool
    ) -> Layer: ...
    def _rank_step(self, layer: Layer) -> Layer: ...
    def _close(self, layer: Layer) -> tuple[int, State, int] | None: ...


def walk(search: Steps, budget: int) -> Solution | None:
    """The first split found depth first, or None when none exists; GaveUp past `budget`
    states."""
    hopes = search.room.hopes(search.order)
    steps: list[tuple[str, int, int, bool]] = []
    for place in search.places:
        quota = place in search.quota
        if quota:
            steps.append(("set", place, -1, quota))
        steps.extend(("suit", place, suit, quota) for suit in range(4))
        if not quota:
            steps.append(("rank", place, -1, quota))

    def after(depth: int, key: State, entry: tuple[int, Any]) -> list[tuple[State, Any]]:
        kind, place, suit, quota = steps[depth]
        layer: Layer = {key: entry}
        if kind == "set":
            out = search._set_step(layer, place)
        elif kind == "suit":
            out = search._suit_step(layer, place, suit, hopes[place, suit], quota)
        else:
            out = search._rank_step(layer)
        return list(out.items())

    ((begin, first_entry),) = search._start().items()
    # pending[d]: states after step d still to walk; path[d]: the one being walked.
    pending = [after(0, begin, first_entry)]
    path: list[tuple[State, Any]] = []
    # Per (step, state): the best value walked from it without reaching an end. A state
    # reached again with no better value is not walked again: the steps and the end read
    # the value only through the bound and the end's test, and a higher value passes both
    # at least as easily (as search_dp keeps the best value of each state).
    # For the hint's objective only the earliest hand card used counts there (the fewest
    # cards used only breaks ties between splits), so the memo compares that alone.
    dead: dict[tuple[int, State], int] = {}
    worth = _earliest if search.first else _same
    visited = 0
    last = len(steps) - 1
    while pending:
        depth = len(pending) - 1
        if not pending[-1]:
            pending.pop()
            if path:
                key, entry = path.pop()
                _bury(dead, depth - 1, key, worth(entry[0]))
            continue
        key, entry = pending[-1].pop()
        known = dead.get((depth, key))
        if known is not None and known >= worth(entry[0]):
            continue
        visited += 1
        if visited > budget:
            raise GaveUp
        if depth == last:
            best = search._close({key: entry})
            if best is not None:
                return _solution(search, steps, [*path, (key, entry)], best)
            _bury(dead, depth, key, worth(entry[0]))
            continue
        path.append((key, entry))
        pending.append(after(depth + 1, key, entry))
    return None


def _earliest(value: int) -> int:
    return -index(value)


def _same(value: int) -> int:
    return value


def _bury(dead: dict[tuple[int, State], int], depth: int, key: State, value: int) -> None:
    known = dead.get((depth, key))
    if known is None or value > known:
        dead[depth, key] = value


def _solution(
    search: Steps,
    steps: list[tuple[str, int, int, bool]],
    path: list[tuple[State, Any]],
    best: tuple[int, State, int],
) -> Solution:
    trail: list[Step] = [
        (kind, place, suit, {key: entry})
        for (kind, place, suit, _), (key, entry) in zip(steps, path, strict=True)
    ]
    value, key, absorb = best
    if search.first:
        value = -index(value)
    return Solution(value, rebuild(search.p, search.limit, trail, key, absorb))
