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
    CloseSeedWindow,
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
    """Plain runs (no substitutes) and sets of aces or threes that the hand holds, then one
    three-card run completed by a substitute when a wild card is left over."""
    by_suit: dict[str, dict[int, Card]] = {}
    wilds: list[Card] = []
    for c in hand:
        r = RANK[c]
        if r == 0 or r == 2:  # noqa: PLR1714 - the hot path of random play
            wilds.append(c)
            continue
        row = by_suit.get(SUIT[c])
        if row is None:
            row = by_suit[SUIT[c]] = {}
        if r not in row:
            row[r] = c
    found: list[tuple[Card, ...]] = []
    for row in by_suit.values():
        if len(row) < 3:
            continue
        ranks = sorted(row)
        if ranks[0] == 1:
            ranks.append(14)  # an ace also sits above the king
        start = 0
        for i in range(1, len(ranks) + 1):
            if i < len(ranks) and ranks[i] == ranks[i - 1] + 1:
                continue
            run = ranks[start:i]
            if len(run) == 14:
                run = run[:-1]  # BK-AMB-15: not an ace at both ends
            if len(run) >= 3 and not (run[0] == 1 and run[-1] == 14):
                found.append(tuple(row[r if r != 14 else 1] for r in run))
            start = i
    used = {c for m in found for c in m}
    for rank in (1, 3):
        group = [row[rank] for row in by_suit.values() if rank in row]
        free = [c for c in group if c not in used]
        if len(free) >= 3:
            found.append(tuple(free))
            used.update(free)
    spare = [c for c in wilds if c not in used]
    if spare:
        found.extend(_with_wild(by_suit, used, spare[0]))
    return found


def _with_wild(
    by_suit: dict[str, dict[int, Card]], used: set[Card], wild: Card
) -> list[tuple[Card, ...]]:
    """One three-card run from two near cards of a suit and a substitute."""
    for row in by_suit.values():
        for r, a in sorted(row.items()):
            if a in used or r > 12:
                continue
            b, c = row.get(r + 1), row.get(r + 2)
            if b is not None and b not in used:
                return [(a, b, wild)]
            if c is not None and c not in used:
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
        # The deal, or the seed window's close, then the host's cut (PF-AMB-12 h, BK-DEAL-C1).
        for cmd in (Deal(), CloseSeedWindow(), Cut(position=1 + rng.randrange(105))):
            host = state.host if isinstance(cmd, Cut) else 0
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
