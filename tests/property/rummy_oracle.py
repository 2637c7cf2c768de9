"""A brute-force oracle for rummy groups and rebuilt tables, written from `rules/rummy.md`
alone.

It shares no code with `engine/rummy/` (not even the card tables or the variant data). A
group is tried against every set it could be — each rank, each choice of 3 or 4 suits —
and every run — each suit, each first place 1..14 and each length, the ace standing on
place 1 (low) or 14 (high) where the variant allows — and is valid when its faces (a
joker read as the face it was named) are exactly those of one of them. A table is checked
by counting cards.

Definitions used, by rule ID:
- RM-GRP-2: a set is 3 or 4 cards of one rank, each suit once. RM-GRP-3: a run is 3 or
  more cards of one suit on consecutive places. RM-GRP-4: no two identical cards.
- RM-ACE-1 high only (place 14); RM-ACE-2 low only (place 1); RM-ACE-3/RM-ACE-4 low or
  high, never both in one run (RM-AMB-6, so at most 13 cards) and never in the middle.
- RM-GRP-5, RM-JOKER-1/2: a joker counts as its named face; an unnamed joker is refused.
  RM-CORE-2: no jokers in the first four variants; RM-TAH-7: one per group in Tahiti.
- RM-MOVE-1/3/5: every table card stays, the added cards come from the hand, at least one.
- RM-TAH-3, RM-AMB-24: a Tahiti singleton may stay alone while unused.
- RM-VAT-5, RM-AMB-11: a first Vatican play lays a run wholly from the hand with three
  natural cards on consecutive places.

`move_outcome` / `move_ok` judge a whole move, jokers included, from these readings:
- RM-JOKER-1: names go only to jokers lying on the table after the move, as real faces.
- RM-JOKER-3: a joker already in a group keeps its name unless freed (a name left out is
  the old one). RM-JOKER-2, RM-AMB-8: a joker from the hand (or a Tahiti singleton joker
  used for the first time) without a name is given the only face that makes its group
  valid; counted by trying every valid group of that length and every way the unnamed
  jokers fill what the other cards leave; not exactly one way: refused.
- RM-JOKER-4, RM-AMB-7, RM-CAR-6, RM-TAH-9: freed when a real card of the joker's face,
  not from the joker's old group (Tahiti: not from the table at all), lies after the move
  in a group holding at least one of the old group's other cards and as many of them as
  any group holds. RM-JOKER-5: a freed joker is still on the table.
- RM-VAT-4, RM-AMB-10: an unfreed Vatican joker shares its group with a card that stood on
  the place next to its own (run), or with another card of its set.
- RM-TAH-8, RM-AMB-25: an unfreed Tahiti joker's old group lies whole in one group, and
  every other card there was on no table group and no singleton before.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache
from itertools import combinations
from math import factorial

__all__ = ["VARIANT_RULES", "group_outcome", "move_ok", "move_outcome", "table_ok"]

_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUITS = ("C", "D", "H", "S")

# name: (ace may be low, ace may be high, jokers a group, singletons, first-play run)
VARIANT_RULES: dict[str, tuple[bool, bool, int, bool, bool]] = {
    "manipulation": (False, True, 0, False, False),
    "machiavelli": (True, True, 0, False, False),
    "shanghai": (True, False, 0, False, False),
    "guadeloupe": (True, True, 0, False, False),
    "carousel": (True, True, 99, False, False),
    "vatican": (True, True, 99, False, True),
    "tahiti": (True, True, 1, True, False),
}


def _place_name(place: int) -> str:
    return "A" if place in (1, 14) else _NAMES[place - 1]


def _read(cards: Sequence[str], named: Mapping[str, str], jokers_allowed: int) -> list[str] | None:
    """The faces the cards stand for, or None if a card cannot be read."""
    faces = []
    jokers = 0
    for card in cards:
        base, _, copy = card.partition("#")
        if base == "JK":
            jokers += 1
            name = named.get(card)
            if copy not in ("1", "2", "3", "4") or name is None:
                return None
            base = name
        elif copy not in ("1", "2"):
            return None
        if base[:-1] not in _NAMES or base[-1:] not in _SUITS:
            return None
        faces.append(base)
    if jokers > jokers_allowed or len(set(cards)) != len(cards):
        return None
    return faces


def group_outcome(
    cards: Sequence[str], named: Mapping[str, str], variant: str
) -> tuple[str, tuple[str, ...]] | None:
    """("set" | "run", the faces in order) or None when the cards make no group."""
    low, high, jokers, _, _ = VARIANT_RULES[variant]
    faces = _read(cards, named, jokers)
    if faces is None:
        return None
    want = Counter(faces)
    for name in _NAMES:
        for size in (3, 4):
            for suits in combinations(_SUITS, size):
                candidate = [name + s for s in suits]
                if Counter(candidate) == want:
                    return "set", tuple(candidate)
    for suit in _SUITS:
        for first in range(1, 15):
            for length in range(3, 15):
                places = range(first, first + length)
                if places[-1] > 14 or (1 in places and 14 in places):
                    continue
                if (1 in places and not low) or (14 in places and not high):
                    continue
                candidate = [_place_name(p) + suit for p in places]
                if Counter(candidate) == want:
                    return "run", tuple(candidate)
    return None


def table_ok(
    groups: Sequence[Sequence[str]],
    before: Sequence[Sequence[str]],
    hand: Sequence[str],
    named: Mapping[str, str],
    variant: str,
    *,
    first_play: bool = False,
) -> bool:
    _, _, _, singletons, first_run = VARIANT_RULES[variant]
    now = Counter(c for g in groups for c in g)
    was = Counter(c for g in before for c in g)
    if any(n > 1 for n in now.values()) or was - now:
        return False
    added = now - was
    if not added or added - Counter(hand):
        return False
    lone = {g[0] for g in before if len(g) == 1} if singletons else set()
    outcomes = []
    for g in groups:
        if len(g) == 1 and g[0] in lone:
            continue
        outcome = group_outcome(g, named, variant)
        if outcome is None:
            return False
        outcomes.append((g, outcome))
    if not (first_play and first_run):
        return True
    return any(_opens(g, outcome, set(hand)) for g, outcome in outcomes)


_JOKERS_MOVE = {"carousel": "anywhere", "vatican": "beside", "tahiti": "frozen"}


def move_ok(
    before: Sequence[Sequence[str]],
    before_names: Mapping[str, str],
    after: Sequence[Sequence[str]],
    after_names: Mapping[str, str],
    hand: Sequence[str],
    variant: str,
    first_play: bool = False,
) -> bool:
    outcome = move_outcome(before, before_names, after, after_names, hand, variant, first_play)
    return outcome is not None


def move_outcome(
    before: Sequence[Sequence[str]],
    before_names: Mapping[str, str],
    after: Sequence[Sequence[str]],
    after_names: Mapping[str, str],
    hand: Sequence[str],
    variant: str,
    first_play: bool = False,
) -> dict[str, str] | None:
    """The face of every joker lying in a group after an accepted move; None if refused."""
    _, _, jokers_allowed, singletons, _ = VARIANT_RULES[variant]
    real_faces = {n + s for n in _NAMES for s in _SUITS}
    on_table = [c for g in after for c in g]
    for card, name in after_names.items():
        if not card.startswith("JK#") or card not in on_table or name not in real_faces:
            return None
    lone = [g[0] for g in before if len(g) == 1] if singletons else []
    old: dict[str, str] = {}
    old_group: dict[str, Sequence[str]] = {}
    for g in before:
        for c in g:
            if c.startswith("JK#") and c not in lone:
                if before_names.get(c) not in real_faces:
                    return None
                old[c] = before_names[c]
                old_group[c] = g
    was_on_table = [c for g in before for c in g]
    freed = set()
    for joker, name in old.items():
        others = [c for c in old_group[joker] if c != joker]
        held = [sum(1 for c in others if c in g) for g in after]
        for g, count in zip(after, held, strict=True):
            if count == 0 or count < max(held):
                continue
            for c in g:
                if c.startswith("JK") or c.partition("#")[0] != name or c in old_group[joker]:
                    continue
                if variant == "tahiti" and c in was_on_table:
                    continue
                freed.add(joker)
    if any(j not in on_table for j in freed):
        return None
    for joker, name in old.items():
        if joker in freed:
            continue
        if after_names.get(joker, name) != name:
            return None
        mine = next((g for g in after if joker in g), None)
        if mine is None:
            return None
        rule = _JOKERS_MOVE.get(variant)
        if rule == "beside" and not _beside(joker, old_group[joker], mine, before_names):
            return None
        if rule == "frozen":
            if any(c not in mine for c in old_group[joker]):
                return None
            if any(c in was_on_table and c not in old_group[joker] for c in mine):
                return None
    named: dict[str, str] = {}
    for g in after:
        if len(g) == 1 and g[0] in lone:
            continue
        unnamed = []
        for c in g:
            if not c.startswith("JK#"):
                continue
            if c in old:
                named[c] = after_names.get(c, old[c])
            elif c in after_names:
                named[c] = after_names[c]
            else:
                unnamed.append(c)
        if not unnamed:
            continue
        if sum(1 for c in g if c.startswith("JK")) > jokers_allowed:
            return None
        known = Counter(
            named[c] if c in named else c.partition("#")[0] for c in g if c not in unnamed
        )
        ways = 0
        left: list[str] = []
        for candidate in _all_groups(len(g), variant):
            rest = Counter(candidate)
            if known <= rest:
                left = list((rest - known).elements())
                ways += factorial(len(left))
        if ways != 1:
            return None
        named[unnamed[0]] = left[0]
    if not table_ok(after, before, hand, named, variant, first_play=first_play):
        return None
    return named


def _beside(joker: str, group: Sequence[str], now: Sequence[str], names: Mapping[str, str]) -> bool:
    outcome = group_outcome(group, names, "vatican")
    if outcome is None:
        return False
    kind, ordered = outcome
    place = {
        c: ordered.index(names[c] if c.startswith("JK") else c.partition("#")[0]) for c in group
    }
    if kind == "run":
        near = [c for c in group if abs(place[c] - place[joker]) == 1]
    else:
        near = [c for c in group if c != joker]
    return any(c in now for c in near)


@cache
def _all_groups(length: int, variant: str) -> tuple[tuple[str, ...], ...]:
    """Every set and run of `length` cards the variant allows, as faces."""
    low, high, _, _, _ = VARIANT_RULES[variant]
    out: list[tuple[str, ...]] = []
    if length in (3, 4):
        for name in _NAMES:
            out += [tuple(name + s for s in suits) for suits in combinations(_SUITS, length)]
    for suit in _SUITS:
        for first in range(1, 15 - length + 1):
            places = range(first, first + length)
            if length < 3 or (1 in places and 14 in places):
                continue
            if (1 in places and not low) or (14 in places and not high):
                continue
            out.append(tuple(_place_name(p) + suit for p in places))
    return tuple(out)


def _opens(cards: Sequence[str], outcome: tuple[str, tuple[str, ...]], hand: set[str]) -> bool:
    kind, ordered = outcome
    if kind != "run" or not set(cards) <= hand:
        return False
    natural = {c.partition("#")[0] for c in cards if not c.startswith("JK")}
    return any(all(f in natural for f in ordered[k : k + 3]) for k in range(len(ordered) - 2))
