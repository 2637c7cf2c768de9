"""Which cards of one rank can be split into sets, and how (rules/rummy.md RM-GRP-2).

The move search (search_dp) sends some copies of each suit of a rank to sets and asks
two things: can those copies, with `jokers` wild jokers, be split exactly into sets, and
which sets. A set is 3 or 4 cards of one rank in distinct suits, a joker standing for a
suit its set lacks (RM-GRP-2, RM-GRP-4, RM-JOKER-1), at most `limit` jokers a set
(RM-TAH-7: one in Tahiti). The answer depends only on how many copies each suit brings,
so it is computed once per count vector by a small exhaustive split, and cached.

Jokers are placed canonically (see search_runs): a set holding a joker has 3 cards, since
a fourth-card joker could leave it; search_dp adds such jokers at the end where there is
room, and `set_room` says how much room a rank's sets leave.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["set_jokers", "set_room", "set_vectors", "split_sets"]

# A set in a split: (bitmask of the suits its natural copies bring, jokers it holds).
SetShape = tuple[int, int]


@lru_cache(maxsize=1 << 12)
def split_sets(counts: tuple[int, ...], jokers: int, limit: int) -> tuple[SetShape, ...] | None:
    """Sets that hold exactly `counts[s]` copies of suit s and `jokers` jokers, or None.

    `counts` may list the suits in any order (the shapes' bitmasks then follow that order).
    """
    if not any(counts):
        return _joker_sets(jokers, limit)
    first = next(s for s, n in enumerate(counts) if n)
    others = [s for s, n in enumerate(counts) if n and s != first]
    # The set holding a copy of the first suit with copies left: every subset of the
    # other suits with copies left may join it; jokers bring it to 3 or 4 cards.
    for pick in range(1 << len(others)):
        mask = 1 << first
        for k, s in enumerate(others):
            if pick >> k & 1:
                mask |= 1 << s
        natural = mask.bit_count()
        rest = tuple(n - (mask >> s & 1) for s, n in enumerate(counts))
        for extra in range(max(0, 3 - natural), min(4 - natural, limit, jokers) + 1):
            if extra and natural + extra != 3:
                continue  # a joker as a fourth card could leave: not canonical
            tail = split_sets(rest, jokers - extra, limit)
            if tail is not None:
                return ((mask, extra), *tail)
    return None


@lru_cache(maxsize=1 << 12)
def set_jokers(counts: tuple[int, ...], budget: int, limit: int) -> tuple[int, ...]:
    """How many jokers (0..budget) can join these copies so that they split into sets."""
    return tuple(j for j in range(budget + 1) if split_sets(counts, j, limit) is not None)


def _joker_sets(jokers: int, limit: int) -> tuple[SetShape, ...] | None:
    """Sets of jokers alone, three a set (a joker set names distinct suits of one rank)."""
    if jokers == 0:
        return ()
    if limit < 3 or jokers % 3:
        return None
    return tuple((0, 3) for _ in range(jokers // 3))


def set_room(counts: tuple[int, ...], jokers: int, limit: int) -> int:
    """How many of the rank's sets can take one more card (a joker): the sets of three,
    except where a group holds one joker at most and the set has one."""
    shapes = split_sets(counts, jokers, limit) or ()
    return sum(
        1 for mask, extra in shapes if mask.bit_count() + extra == 3 and not (limit == 1 and extra)
    )


@lru_cache(maxsize=1 << 12)
def set_vectors(
    avail: tuple[int, ...], budget: int, limit: int
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every (copies per suit, jokers) that splits exactly into sets, with at most
    `avail[s]` copies of suit s and `budget` jokers: the rank's possible sets, chosen
    before its runs (the empty choice first)."""
    out: list[tuple[tuple[int, ...], int]] = []
    ranges = [range(n + 1) for n in avail]

    def walk(s: int, picked: tuple[int, ...]) -> None:
        if s == len(avail):
            for j in set_jokers(tuple(sorted(picked)), budget, limit):
                out.append((picked, j))
            return
        for n in ranges[s]:
            walk(s + 1, (*picked, n))

    walk(0, ())
    return tuple(out)
