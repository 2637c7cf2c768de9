"""A player's changes to a rummy table, for the bench's moves (engine/rummy/bench_positions.py).

Each change takes the cards it adds from the pool (they are the mover's hand) and writes
the names it gives jokers, as a Play command would carry them: lay a card off at a run's
end or into a set; lay a new group from the hand (a hand joker in it now and then); free
a table joker with its real card from the hand, the joker named anew at an end of another
group (RM-JOKER-4/5, RM-CAR-6; in Tahiti the real card comes from the hand and the joker
goes to a group without one, RM-TAH-7/9/10); split a run of 6 or more in two; take a run's
natural end card into a new set with two hand cards. A change that does not fit the table
does nothing and says so.

Where a joker is freed, its group keeps its cards together for the rest of the move, and
a joker is freed only in a group no change has cut: the real card counts only in the
group that continues the joker's (moves.py "Continues"), which a split could move away.
Tahiti's groups with a joker take hand cards only and never split (RM-TAH-8).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.cards import SUITS, Card
from engine.players import Rng
from engine.rummy.bench_tables import Built, Pool, between, face_at, new_group, places, shuffled
from engine.rummy.variants import Variant

__all__ = ["changes"]


def changes(
    after: list[Built],
    pool: Pool,
    variant: Variant,
    rng: Rng,
    added: list[Card],
    given: dict[Card, str],
) -> list[str]:
    """Apply one to three of a player's changes to `after` (a copy of the table), taking
    the cards they add from the pool into `added` and the names they give into `given`."""
    kinds: list[Callable[..., bool]] = [_lay_off, _lay_off, _new_from_hand, _free_joker]
    kinds += [_split_run, _end_to_set]
    done: list[str] = []
    for _ in range(between(rng, 1, 3)):
        change = kinds[rng.randrange(len(kinds))]
        if change(after, pool, variant, rng, added, given):
            done.append(change.__name__.strip("_"))
    return done


def _frozen(group: Built, variant: Variant) -> bool:
    """A Tahiti group with a joker takes only hand cards and never splits (RM-TAH-8); a
    group where a joker was just freed stays whole too."""
    return group.pinned or (variant.jokers == "freezes" and bool(group.jokers))


def _ends(group: Built, variant: Variant) -> list[tuple[int, str]]:
    """Where a card can join `group`: (index to insert at, the face it must be)."""
    if group.kind == "set" and len(group.cards) < variant.max_set:
        rank = group.faces[0][:-1]
        taken = {f[-1] for f in group.faces}
        return [(len(group.cards), f"{rank}{s}") for s in SUITS if s not in taken]
    if group.kind != "run" or len(group.cards) >= variant.max_run:
        return []
    lowest, highest = places(variant)
    high = group.low + len(group.cards) - 1
    out = []
    if group.low > lowest and not (group.low - 1 == 1 and high == 14):
        out.append((0, face_at(group.low - 1, group.suit)))
    if high < highest and not (group.low == 1 and high + 1 == 14):
        out.append((len(group.cards), face_at(high + 1, group.suit)))
    return out


def _insert(group: Built, at: int, card: Card, face: str) -> None:
    group.cards.insert(at, card)
    group.faces.insert(at, face)
    if group.kind == "run" and at == 0:
        group.low -= 1


def _lay_off(
    after: list[Built], pool: Pool, variant: Variant, rng: Rng, added: list[Card], _: Any
) -> bool:
    spots = [(g, at, f) for g in after for at, f in _ends(g, variant) if pool.has(f)]
    if not spots:
        return False
    group, at, face = spots[rng.randrange(len(spots))]
    card = pool.take(face)
    _insert(group, at, card, face)
    added.append(card)
    return True


def _new_from_hand(
    after: list[Built],
    pool: Pool,
    variant: Variant,
    rng: Rng,
    added: list[Card],
    given: dict[Card, str],
) -> bool:
    joker = bool(pool.jokers) and variant.jokers_per_group > 0 and rng.randrange(3) == 0
    group = new_group(pool, variant, between(rng, 3, 4), rng, joker=joker)
    if group is None:
        return False
    after.append(group)
    added.extend(group.cards)
    given.update({j: group.faces[group.cards.index(j)] for j in group.jokers})
    return True


def _free_joker(
    after: list[Built],
    pool: Pool,
    variant: Variant,
    rng: Rng,
    added: list[Card],
    given: dict[Card, str],
) -> bool:
    """The real card from the hand takes a table joker's place; the joker, named anew,
    goes to an end of another group (one without a joker in Tahiti)."""
    held = [
        (g, j)
        for g in after
        if not g.cut
        for j in g.jokers
        if j not in given and pool.has(_name(g, j))
    ]
    if not held:
        return False
    home, joker = held[rng.randrange(len(held))]
    spots = [
        (g, at, f)
        for g in after
        if g is not home and not (variant.jokers_per_group == 1 and g.jokers)
        for at, f in _ends(g, variant)
    ]
    if not spots:
        return False
    face = _name(home, joker)
    k = home.cards.index(joker)
    home.cards[k] = pool.take(face)
    home.jokers.remove(joker)
    home.pinned = True
    added.append(home.cards[k])
    group, at, new = spots[rng.randrange(len(spots))]
    _insert(group, at, joker, new)
    group.jokers.append(joker)
    given[joker] = new
    return True


def _name(group: Built, joker: Card) -> str:
    return group.faces[group.cards.index(joker)]


def _split_run(
    after: list[Built], pool: Pool, variant: Variant, rng: Rng, added: list[Card], _: Any
) -> bool:
    """A long run split in two (a rearrangement: no card added)."""
    long = [g for g in after if g.kind == "run" and len(g.cards) >= 6 and not _frozen(g, variant)]
    if not long:
        return False
    group = long[rng.randrange(len(long))]
    cut = between(rng, 3, len(group.cards) - 3)
    tail = Built("run", group.cards[cut:], group.faces[cut:], group.suit, group.low + cut)
    tail.jokers = [j for j in group.jokers if j in tail.cards]
    group.jokers = [j for j in group.jokers if j not in tail.cards]
    del group.cards[cut:], group.faces[cut:]
    group.cut = tail.cut = True
    after.append(tail)
    return True


def _end_to_set(
    after: list[Built], pool: Pool, variant: Variant, rng: Rng, added: list[Card], _: Any
) -> bool:
    """A run's natural end card joins two hand cards of its rank in a new set."""
    spots = []
    for g in after:
        if g.kind != "run" or len(g.cards) < 4 or _frozen(g, variant):
            continue
        for k in (0, len(g.cards) - 1):
            face, card = g.faces[k], g.cards[k]
            others = [
                f"{face[:-1]}{s}" for s in SUITS if s != face[-1] and pool.has(f"{face[:-1]}{s}")
            ]
            if card not in g.jokers and len(others) >= 2:
                spots.append((g, k, others))
    if not spots:
        return False
    group, k, others = spots[rng.randrange(len(spots))]
    picked = shuffled(others, rng)[:2]
    card, face = group.cards.pop(k), group.faces.pop(k)
    group.cut = True
    if k == 0:
        group.low += 1
    hand = [pool.take(f) for f in picked]
    after.append(Built("set", [card, *hand], [face, *picked]))
    added.extend(hand)
    return True
