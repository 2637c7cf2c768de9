"""What the move search tracks of particular cards, for the joker rules of engine/rummy/moves.py
(RM-JOKER-4, RM-AMB-7, RM-CAR-6, RM-VAT-4, RM-AMB-10, RM-TAH-9).

Most copies of a face are interchangeable and the search only counts them. A few cards
are not: around a table joker the rules ask which group holds which card. Those are
"hot": each is tracked one by one, and a group (a run token, or a set when it is formed)
carries a payload summing what it holds, per watched joker w:

- ``FREED`` (the joker is freed in this scenario and goes where it likes): the count of
  the cards of its old group B other than itself that the group holds, and a flag if the
  group holds a real card of its face that may free it (not from B; Tahiti: from the
  hand). The joker is freed when a group with the flag holds at least one of B's cards
  and no group holds more (moves.py: "continues"): per scenario the search keeps, over
  the closed groups, the most B cards any group holds (M) and the most a flagged group
  holds (K), and asks K ≥ 1 and K ≥ M at the end.
- ``STAYS`` (Vatican, the joker keeps its name): the count field says the group holds
  the joker, the flag that it holds a card that lay next to it; a group holding the
  joker must close with the flag.

Payloads live in a token's bits from 16 up (4 count bits per watched joker, then one
flag bit each): runs add them up as cards join; `close` reads them when a group is complete.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = [
    "COUNT_SHIFT",
    "FLAG_SHIFT",
    "FREED",
    "STAYS",
    "Marked",
    "close",
    "final_ok",
    "marked_splits",
    "payload",
    "with_payload",
]

FREED, STAYS = 0, 1
COUNT_SHIFT = 16
FLAG_SHIFT = 32
_COUNTS = (1 << 16) - 1
_FLAGS = 15

# A tracked card sent to a rank's sets: (suit, or -1 for a joker; counts; flags; key).
Marked = tuple[int, int, int, int]


def with_payload(tok: int, counts: int, flags: int) -> int:
    return (tok + (counts << COUNT_SHIFT)) | (flags << FLAG_SHIFT)


def payload(tok: int) -> tuple[int, int]:
    return (tok >> COUNT_SHIFT) & _COUNTS, (tok >> FLAG_SHIFT) & _FLAGS


def close(
    counts: int, flags: int, glob: tuple[int, ...], kinds: tuple[int, ...]
) -> tuple[int, ...] | None:
    """A complete group with this payload: the scenario's totals after it, or None if the
    group breaks a STAYS joker's rule."""
    if not counts and not flags:
        return glob
    out = list(glob)
    for w, kind in enumerate(kinds):
        held = (counts >> 4 * w) & 15
        flag = (flags >> w) & 1
        if kind == STAYS:
            if held and not flag:
                return None
            continue
        most, best = out[w] & 15, out[w] >> 4
        most = max(most, held)
        if flag and held:
            best = max(best, held)
        out[w] = most | best << 4
    return tuple(out)


def final_ok(glob: tuple[int, ...], kinds: tuple[int, ...]) -> bool:
    """Every FREED joker's freeing group holds the most of its old group's cards."""
    for w, kind in enumerate(kinds):
        if kind == FREED:
            most, best = glob[w] & 15, glob[w] >> 4
            if best < 1 or best < most:
                return False
    return True


# ---- sets holding tracked cards -------------------------------------------------------------

# A set in a marked split: (bitmask of suits from untracked copies, keys of tracked cards,
# suits the untracked jokers stand for).
MarkedSet = tuple[int, tuple[int, ...], tuple[int, ...]]
# An outcome: the payloads of the sets, and the sets themselves (the witness).
Outcome = tuple[tuple[tuple[int, int], ...], tuple[MarkedSet, ...]]


@lru_cache(maxsize=1 << 10)
def marked_splits(
    counts: tuple[int, ...], hot: tuple[Marked, ...], jokers: int, limit: int
) -> tuple[Outcome, ...]:
    """Every distinct way (by the sets' payloads) to split untracked copies (`counts` per
    suit), tracked cards and `jokers` untracked jokers into sets (RM-GRP-2)."""
    seen: dict[tuple[tuple[int, int], ...], tuple[MarkedSet, ...]] = {}
    for sets in _splits(list(counts), list(hot), jokers, limit):
        pays = tuple(sorted(_set_payload(s, hot) for s in sets))
        seen.setdefault(pays, tuple(sets))
    return tuple(seen.items())


def _set_payload(s: MarkedSet, hot: tuple[Marked, ...]) -> tuple[int, int]:
    counts = flags = 0
    for item in hot:
        if item[3] in s[1]:
            counts += item[1]
            flags |= item[2]
    return counts, flags


def _splits(counts: list[int], hot: list[Marked], jokers: int, limit: int) -> list[list[MarkedSet]]:
    """All splits, each set built around the first tracked card left (then the first suit
    with copies left, then jokers alone)."""
    if hot:
        anchor, rest = hot[0], hot[1:]
        return _grow(counts, rest, jokers, limit, [anchor])
    if any(counts):
        return _grow(counts, [], jokers, limit, [])
    if jokers == 0:
        return [[]]
    if limit >= jokers == 3:
        return [[(0, (), (0, 1, 2))]]
    return []


def _grow(
    counts: list[int], hot: list[Marked], jokers: int, limit: int, members: list[Marked]
) -> list[list[MarkedSet]]:
    """Sets holding `members` (tracked cards already chosen) plus any mix of the other
    tracked cards, untracked copies and jokers; each followed by every split of the rest."""
    out: list[list[MarkedSet]] = []
    for pick in range(1 << len(hot)):
        chosen = members + [h for k, h in enumerate(hot) if pick >> k & 1]
        left = [h for k, h in enumerate(hot) if not pick >> k & 1]
        natural = [h[0] for h in chosen if h[0] >= 0]
        wild = sum(1 for h in chosen if h[0] < 0)
        if len(set(natural)) < len(natural) or wild > limit:
            continue
        free = [s for s in range(4) if s not in natural and counts[s]]
        first = next((s for s in range(4) if counts[s]), None) if not chosen else None
        for mask in range(1 << 4):
            if any(mask >> s & 1 and s not in free for s in range(4)):
                continue
            if first is not None and not mask >> first & 1:
                continue  # without a tracked anchor the set takes the first suit left
            size = len(natural) + wild + mask.bit_count()
            taken = set(natural) | {s for s in range(4) if mask >> s & 1}
            for extra in range(max(0, 3 - size), min(4 - size, limit - wild, jokers) + 1):
                if size + extra < 3 or len(taken) + wild + extra > 4:
                    continue
                if extra and size + extra != 3:
                    continue  # an untracked fourth-card joker could leave (search_runs)
                rest = [n - (mask >> s & 1) for s, n in enumerate(counts)]
                named = tuple(s for s in range(4) if s not in taken)[: wild + extra]
                here: MarkedSet = (mask, tuple(h[3] for h in chosen), named)
                out.extend([here, *tail] for tail in _splits(rest, left, jokers - extra, limit))
    return out
