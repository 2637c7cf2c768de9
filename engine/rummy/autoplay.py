"""A random legal rummy player, cheap enough that a bench times the engine, not the player.

On its turn it lists the plays that need no search and plays one of them at random: a new
set or run laid from its hand (half the time, when it has one), or else one hand card laid
at an end of a run or into a set on the table. Each is built legal from the variant's data
(its ace rule, its longest set and run, Vatican's first play of a natural run, RM-VAT-5),
so the rules never refuse it and no try is wasted. It never names a joker, so its jokers
stay in its hand, and it never rearranges the table or knocks. With no such play it draws
(or passes on an empty stock, or gives up a locked move). The system's own steps (commit
the round's secret, deal) come from the same generator, so a seeded generator replays a
whole game.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import RANKS, SUITS
from engine.players import Rng
from engine.rummy.messages import CommitSeed, Deal, Draw, Event, GiveUp, Pass, Play
from engine.rummy.rules import decide
from engine.rummy.state import State
from engine.rummy.variants import Variant
from engine.rummy.view import legal

__all__ = ["random_command", "random_step"]

_SYSTEM = 0
_ACE_LOW, _ACE_HIGH = 1, 14  # an ace's place below the 2 and above the king
# Every card of a rummy deck but the jokers -> (rank 1..13, suit); a joker is not a key.
_CARD: dict[str, tuple[int, str]] = {
    f"{r}{s}#{c}": (i + 1, s) for c in (1, 2) for s in SUITS for i, r in enumerate(RANKS)
}
_FACE: dict[str, tuple[int, str]] = {
    f"{r}{s}": (i + 1, s) for s in SUITS for i, r in enumerate(RANKS)
}


def random_step(state: State, rng: Rng) -> tuple[int, Any, tuple[Event, ...]]:
    """One accepted command of whoever acts now, as (seat, command, its events)."""
    if state.phase == "seeding":
        secret = "".join(f"{rng.randrange(256):02x}" for _ in range(32))
        seat, command = _SYSTEM, CommitSeed(secret=secret)
        return seat, command, decide(state, seat, command)
    if state.phase == "seeded":
        return _SYSTEM, Deal(), decide(state, _SYSTEM, Deal())
    seat = state.turn
    command = random_command(state, seat, rng)
    return seat, command, decide(state, seat, command)


def random_command(state: State, seat: int, rng: Rng) -> Any:
    """A command the rules accept from `seat` on its turn: a random play if it has one."""
    allowed = legal(state, seat).commands
    if "Play" in allowed:
        move = _random_play(state, seat, rng)
        if move is not None:
            return move
    if "Draw" in allowed:
        return Draw()
    if "Pass" in allowed:
        return Pass()
    return GiveUp()


def _random_play(state: State, seat: int, rng: Rng) -> Play | None:
    """A new group from the hand half the time, else a card laid off; the other kind
    when the one drawn has none; None when neither has any."""
    variant = state.options.rules
    faces: dict[tuple[int, str], str] = {}  # (rank, suit) -> a hand card of that face
    for card in state.hands[seat - 1]:
        rs = _CARD.get(card)
        if rs is not None and rs not in faces:
            faces[rs] = card
    if variant.first_play_natural_run and not state.opened[seat - 1]:
        return _laid(state, _new_runs(faces, variant), rng)  # RM-VAT-5
    if rng.random() < 0.5:
        return _laid(state, _new_groups(faces, variant), rng) or _laid_off(
            state, _layoffs(state, faces, variant), rng
        )
    return _laid_off(state, _layoffs(state, faces, variant), rng) or _laid(
        state, _new_groups(faces, variant), rng
    )


def _laid(state: State, groups: Sequence[tuple[str, ...]], rng: Rng) -> Play | None:
    """One of `groups` laid from the hand as a new group."""
    if not groups:
        return None
    group = groups[rng.randrange(len(groups))]
    return Play(table=(*state.table, group), added=group, names={})


def _laid_off(state: State, layoffs: Sequence[tuple[int, str]], rng: Rng) -> Play | None:
    """One of `layoffs` (group index, hand card): the card added to that group."""
    if not layoffs:
        return None
    k, card = layoffs[rng.randrange(len(layoffs))]
    table = state.table
    return Play(table=(*table[:k], (*table[k], card), *table[k + 1 :]), added=(card,), names={})


def _new_groups(faces: Mapping[tuple[int, str], str], variant: Variant) -> list[tuple[str, ...]]:
    """Every run, then every set, the hand can lay as a new group."""
    return _new_runs(faces, variant) + _new_sets(faces, variant)


def _new_sets(faces: Mapping[tuple[int, str], str], variant: Variant) -> list[tuple[str, ...]]:
    """Every set of 3 up to the variant's longest from the hand: one rank, distinct suits
    (RM-GRP-2)."""
    by_rank: dict[int, list[str]] = {}
    for (rank, _), card in faces.items():
        by_rank.setdefault(rank, []).append(card)
    out: list[tuple[str, ...]] = []
    for cards in by_rank.values():
        for size in range(variant.min_group, min(len(cards), variant.max_set) + 1):
            out += _subsets(cards, size)
    return out


def _subsets(cards: Sequence[str], size: int) -> list[tuple[str, ...]]:
    if size == 0:
        return [()]
    return [
        (cards[i], *rest)
        for i in range(len(cards) - size + 1)
        for rest in _subsets(cards[i + 1 :], size - 1)
    ]


def _new_runs(faces: Mapping[tuple[int, str], str], variant: Variant) -> list[tuple[str, ...]]:
    """Every run of 3 up to the variant's longest from the hand: one suit, consecutive
    places, the ace only where the variant lets it stand (RM-GRP-3, RM-ACE-1..4), never
    at both ends."""
    by_suit: dict[str, list[int]] = {}
    for rank, suit in faces:
        by_suit.setdefault(suit, []).append(rank)
    shortest, longest = variant.min_group, variant.max_run
    out: list[tuple[str, ...]] = []
    for suit, ranks in by_suit.items():
        if len(ranks) < shortest:
            continue
        places = sorted(ranks)
        if places[0] == _ACE_LOW and variant.ace != "low":
            places.append(_ACE_HIGH)
            if variant.ace == "high":
                del places[0]
        i = 0
        while i < len(places):
            j = i + 1
            while j < len(places) and places[j] == places[j - 1] + 1:
                j += 1
            if j - i >= shortest:
                cards = [faces[(1 if p == _ACE_HIGH else p, suit)] for p in places[i:j]]
                aces_at_both = places[i] == _ACE_LOW and places[j - 1] == _ACE_HIGH
                for a in range(len(cards) - shortest + 1):
                    for b in range(a + shortest, min(len(cards), a + longest) + 1):
                        if not (aces_at_both and a == 0 and b == len(cards)):
                            out.append(tuple(cards[a:b]))
            i = j
    return out


def _layoffs(
    state: State, faces: Mapping[tuple[int, str], str], variant: Variant
) -> list[tuple[int, str]]:
    """Every (group index, hand card) that lays the card into a set or at an end of a run
    on the table."""
    out: list[tuple[int, str]] = []
    named = dict(state.names) if state.names else {}
    rules = (variant.min_group, variant.max_set, variant.max_run, variant.ace)
    for k, group in enumerate(state.table):
        jokers = tuple(named[c] for c in group if c in named) if named else ()
        for face in _wanted(group, jokers, rules):
            card = faces.get(face)
            if card is not None:
                out.append((k, card))
    return out


@functools.lru_cache(maxsize=4096)
def _wanted(
    group: tuple[str, ...], jokers: tuple[str, ...], rules: tuple[int, int, int, str]
) -> tuple[tuple[int, str], ...]:
    """The faces (rank 1..13, suit) of which the valid group `group` (its jokers named
    `jokers`, in order) takes one as one more card, under the variant's `rules` (shortest
    group, longest set and run, ace rule): a set's missing suits, a run's next place at
    either end where the ace may stand (RM-GRP-2/3, RM-ACE-1..4). A Tahiti singleton takes
    none (RM-TAH-3); a face the group holds is never wanted (RM-GRP-4). Cached: a table's
    groups change little from one turn to the next."""
    shortest, longest_set, longest_run, ace = rules
    if len(group) < shortest:
        return ()
    names = iter(jokers)
    faces = [_CARD.get(card) or _FACE[next(names)] for card in group]
    rank, suit = faces[0]
    if all(r == rank for r, _ in faces):
        if len(group) >= longest_set:
            return ()
        held = {s for _, s in faces}
        return tuple((rank, s) for s in SUITS if s not in held)
    if len(group) >= longest_run:
        return ()
    ranks = [r for r, _ in faces]
    low, high = min(ranks), max(ranks)
    if low == _ACE_LOW and high - low != len(group) - 1:  # the ace stands above the king
        low = min(r for r in ranks if r != _ACE_LOW)
        high = _ACE_HIGH
    out = []
    if low - 1 >= _ACE_LOW + (ace == "high"):
        out.append((low - 1, suit))
    if high + 1 < _ACE_HIGH or (high + 1 == _ACE_HIGH and ace != "low" and low != _ACE_LOW):
        out.append((_ACE_LOW if high + 1 == _ACE_HIGH else high + 1, suit))
    return tuple(out)
