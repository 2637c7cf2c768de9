"""Random legal play: a cheap policy for property tests, benchmarks and load scripts.

It finds plain runs and sets in the hand, lays off cards that extend the team's melds,
sometimes takes from the ground, and discards at random. Every candidate is checked by
`decide`, so it can only play legal moves. The caller passes its own random generator:
the engine never owns randomness.
"""

from __future__ import annotations

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
from engine.cards import FACE_RANK, JOKER, RANK, RANKS, SUIT, SUITS, Card, face
from engine.errors import RuleViolation

__all__ = ["Rng", "find_melds", "random_step"]


class Rng(Protocol):
    def random(self) -> float: ...
    def randrange(self, stop: int, /) -> int: ...


def find_melds(hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Plain runs (no substitutes) and sets of aces or threes that the hand holds."""
    slots: dict[str, list[Card | None]] = {}
    sets: dict[int, dict[str, Card]] = {1: {}, 3: {}}
    for c in hand:
        r = RANK[c]
        if r in {0, 2}:
            continue
        su = SUIT[c]
        row = slots.get(su)
        if row is None:
            row = slots[su] = [None] * 16
        row[r] = c
        if r == 1:
            row[14] = c
        if r in {1, 3}:
            sets[r][su] = c
    found: list[tuple[Card, ...]] = []
    for row in slots.values():
        start = -1
        for r in range(1, 16):
            if row[r] is not None:
                if start < 0:
                    start = r
            elif start >= 0:
                if r - start >= 3:
                    run = row[start:r]
                    if start == 1 and r == 15:
                        run = run[:-1]  # BK-AMB-15: not an ace at both ends
                    found.append(tuple(c for c in run if c is not None))
                start = -1
    used = {c for m in found for c in m}
    for group in sets.values():
        free = [c for c in group.values() if c not in used]
        if len(free) >= 3:
            found.append(tuple(free))
            used.update(free)
    wild = next((c for c in hand if RANK[c] in {0, 2} and c not in used), None)
    if wild is not None:
        found.extend(_with_wild(slots, used, wild))
    return found


def _with_wild(
    slots: dict[str, list[Card | None]], used: set[Card], wild: Card
) -> list[tuple[Card, ...]]:
    """One three-card run from two near cards of a suit and a substitute."""
    for row in slots.values():
        for r in range(1, 13):
            a, b, c = row[r], row[r + 1], row[r + 2]
            if a is None or a in used:
                continue
            if b is not None and b not in used and b is not a:
                return [(a, b, wild)] if r + 2 <= 14 else []
            if c is not None and c not in used and c is not a:
                return [(a, wild, c)]
    return []


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
        for meld in find_melds(hand):
            events = _try(state, seat, Meld(cards=meld))
            if events is not None:
                return seat, Meld(cards=meld), events
        targets = _lay_off_targets(state, seat)
        candidates.extend(
            LayOff(meld=targets[face(c)], cards=(c,)) for c in hand if face(c) in targets
        )
        spare = _spare_cards(hand)
        candidates.append(Discard(card=spare[rng.randrange(len(spare))]))
        candidates.extend(Discard(card=c) for c in hand)
    for candidate in candidates:
        events = _try(state, seat, candidate)
        if events is not None:
            return seat, candidate, events
    raise AssertionError("no legal command found")  # pragma: no cover


def _spare_cards(hand: Sequence[Card]) -> list[Card]:
    """The cards with the fewest partners in the hand (a near card of the same suit);
    wild cards are kept while anything else remains."""
    near = {_CODE[c] for c in hand}
    best: list[Card] = []
    low = 99
    for c in hand:
        k = _CODE[c]
        if k < 0:
            continue
        u = (k - 2 in near) + (k - 1 in near) + (k + 1 in near) + (k + 2 in near)
        if u < low:
            low, best = u, [c]
        elif u == low:
            best.append(c)
    return best or list(hand)


# suit * 32 + rank for plain cards (so ranks of different suits are never "near"), -1
# for the wild cards.
_CODE = {c: -1 if RANK[c] in {0, 2} else SUITS.index(SUIT[c]) * 32 + RANK[c] for c in RANK}


def _lay_off_targets(state: State, seat: int) -> dict[str, int]:
    """Faces that would extend one of the team's melds (a cheap pre-filter: decide() has
    the last word)."""
    team = team_of(state, seat)
    targets: dict[str, int] = {}
    for meld in state.melds:
        if meld.team != team or len(meld.cards) >= 13:
            continue
        if meld.kind == "set":
            name = meld.cards[0].stands_for[:-1]
            have = {p.stands_for[-1] for p in meld.cards}
            if len(have) < 4:
                targets.update((name + s, meld.id) for s in SUITS if s not in have)
            continue
        suit = meld.cards[0].stands_for[-1]
        lo = FACE_RANK[meld.cards[0].stands_for]
        hi = lo + len(meld.cards) - 1
        if lo > 1:
            targets[RANKS[lo - 2] + suit] = meld.id
        if hi < 14:
            targets[RANKS[hi % 13] + suit] = meld.id
        if lo > 1 or hi < 14:
            targets[JOKER] = meld.id  # a joker extends the run; decide() rules on a wild two
    return targets
