"""Random legal play: a cheap policy for property tests, benchmarks and load scripts.

It finds plain runs and sets in the hand, lays off cards that extend the team's melds,
sometimes takes from the ground, and discards at random. Every candidate is checked by
`decide`, so it can only play legal moves. The caller passes its own random generator:
the engine never owns randomness.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Protocol

from engine.banakil.decide import decide
from engine.banakil.messages import (
    Command,
    Cut,
    Deal,
    Discard,
    Draw,
    Event,
    LayOff,
    Meld,
    TakeGround,
)
from engine.banakil.state import State, team_of
from engine.cards import RANK, SUIT, Card
from engine.errors import RuleViolation

__all__ = ["Rng", "find_melds", "random_step"]


class Rng(Protocol):
    def random(self) -> float: ...
    def randrange(self, stop: int) -> int: ...


def find_melds(hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Plain runs (no substitutes) and sets of aces or threes that the hand holds."""
    by_suit: dict[str, dict[int, Card]] = defaultdict(dict)
    by_rank: dict[int, dict[str, Card]] = defaultdict(dict)
    for c in hand:
        r = RANK[c]
        if r in (0, 2):
            continue
        by_suit[SUIT[c]].setdefault(r, c)
        if r == 1:
            by_suit[SUIT[c]].setdefault(14, c)
        by_rank[r].setdefault(SUIT[c], c)
    found: list[tuple[Card, ...]] = []
    used: set[Card] = set()
    for ranks in by_suit.values():
        run: list[Card] = []
        for r in range(1, 16):
            c = ranks.get(r)
            if c is not None and c not in used and c not in run:
                run.append(c)
                continue
            if len(run) >= 3:
                found.append(tuple(run))
                used.update(run)
            run = [c] if c is not None and c not in used else []
    for r in (1, 3):
        group = [c for c in by_rank[r].values() if c not in used]
        if len(group) >= 3:
            found.append(tuple(group[:4]))
            used.update(group[:4])
    return found


def _try(state: State, seat: int, command: Command) -> tuple[Event, ...] | None:
    try:
        return decide(state, seat, command)
    except RuleViolation:
        return None


def random_step(state: State, rng: Rng) -> tuple[int, Command, tuple[Event, ...]]:
    """One accepted command for whoever must act (seat 0 for the system's dealing)."""
    if state.phase == "seeded":
        for cmd in (Deal(), Cut(position=1 + rng.randrange(105))):
            host = 0 if isinstance(cmd, Deal) else state.host
            events = _try(state, host, cmd)
            if events is not None:
                return host, cmd, events
    seat = state.turn
    hand = state.hands[seat - 1]
    candidates: list[Command] = []
    if not state.drawn:
        if state.ground and rng.random() < 0.3:
            if state.options.ground_draw == "chosen_and_above":
                candidates.append(TakeGround(position=1 + rng.randrange(min(3, len(state.ground)))))
            else:
                top = state.ground[-1]
                for meld in find_melds((*hand, top)):
                    if top in meld:
                        candidates.append(TakeGround(actions=(Meld(cards=meld),)))
        candidates.append(Draw())
    else:
        candidates.extend(Meld(cards=m) for m in find_melds(hand))
        team = team_of(state, seat)
        for meld in state.melds:
            if meld.team == team:
                candidates.extend(
                    LayOff(meld=meld.id, cards=(c,)) for c in hand if _may_extend(meld.cards, c)
                )
        if rng.random() < 0.5:
            candidates = candidates[:2]
        candidates.append(Discard(card=hand[rng.randrange(len(hand))]))
        candidates.extend(Discard(card=c) for c in hand)
    for cmd in candidates:
        events = _try(state, seat, cmd)
        if events is not None:
            return seat, cmd, events
    raise AssertionError("no legal command found")  # pragma: no cover


def _may_extend(cards: Sequence[object], card: Card) -> bool:
    # Cheap pre-filter only: decide() has the last word.
    r = RANK[card]
    if r in (0, 2):
        return False
    faces = {p.stands_for for p in cards}  # type: ignore[attr-defined]
    names = {f[:-1] for f in faces}
    suits = {f[-1] for f in faces}
    return len(names) == 1 and r in (1, 3) or len(suits) == 1 and SUIT[card] in suits
