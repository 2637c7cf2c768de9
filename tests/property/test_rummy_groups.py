"""engine/rummy/groups.py against the brute-force oracle of tests/property/rummy_oracle.py.

Random near-groups (runs and sets, the ace low and high, jokers named right and wrong,
identical copies, gaps, mixed suits) in every variant must get the same verdict from both,
and a valid group the same kind and faces in the same order. Random rebuilt tables (cards
kept, dropped, added from the hand or from nowhere, Tahiti singletons, Vatican's first
play) must be accepted by both or refused by both, and a refusal naming a group must name
one the oracle finds invalid.

Rules: RM-GRP-1..5, RM-ACE-1..4, RM-AMB-6, RM-AMB-9, RM-AMB-11, RM-AMB-24, RM-JOKER-1,
RM-JOKER-2, RM-CORE-2, RM-MOVE-1, RM-MOVE-3, RM-MOVE-5, RM-TAH-3, RM-TAH-7, RM-VAT-5.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.errors import RuleViolation
from engine.rummy import VARIANTS, TableViolation, check_group, check_table
from tests.property.rummy_oracle import group_outcome, table_ok

_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUITS = ("C", "D", "H", "S")
_SETTINGS = settings(
    max_examples=int(os.environ.get("SAHRA_ORACLE_EXAMPLES", "500")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

Named = dict[str, str]
Counter_ = dict[str, int]


def _place(p: int) -> str:
    return "A" if p in (1, 14) else _NAMES[p - 1]


@st.composite
def faces(draw: st.DrawFn, clean: bool = False) -> list[str]:
    """Faces of a near-group: a run, a set or anything, then a few mutations (none and at
    least 3 cards when `clean`)."""
    shape = draw(st.sampled_from(("run", "set") if clean else ("run", "set", "any")))
    least = 3 if clean else 2
    if shape == "run":
        suit = draw(st.sampled_from(_SUITS))
        first = draw(st.integers(1, 13))
        length = draw(st.integers(min(least, 15 - first), 15 - first))
        out = [_place(p) + suit for p in range(first, first + length)]
    elif shape == "set":
        rank = draw(st.sampled_from(_NAMES))
        suits = draw(st.lists(st.sampled_from(_SUITS), min_size=least, max_size=4, unique=True))
        out = [rank + s for s in suits]
    else:
        small = [r + s for r in ("A", "2", "3", "Q", "K") for s in ("H", "S")]
        out = draw(st.lists(st.sampled_from(small), min_size=1, max_size=6))
    for _ in range(0 if clean else draw(st.sampled_from((0, 0, 0, 1, 2)))):
        kind = draw(st.sampled_from(("swap", "drop", "copy", "wrap")))
        if kind == "swap" and out:
            out[draw(st.integers(0, len(out) - 1))] = draw(st.sampled_from(_NAMES)) + draw(
                st.sampled_from(_SUITS)
            )
        elif kind == "drop" and len(out) > 1:
            out.pop(draw(st.integers(0, len(out) - 1)))
        elif kind == "copy" and out:
            out.append(draw(st.sampled_from(out)))
        elif kind == "wrap" and out:
            out.append("A" + out[0][-1])
    return draw(st.permutations(out))


@st.composite
def groups(
    draw: st.DrawFn, variant: str, used: Counter_ | None = None, clean: bool = False
) -> tuple[list[str], Named]:
    """Identities for some faces, some of them jokers named (mostly) as the face they hide."""
    fs = draw(faces(clean))
    seen = used if used is not None else {}
    cards: list[str] = []
    named: Named = {}
    for f in fs:
        odds = 5 if VARIANTS[variant].jokers_per_group else 40
        if draw(st.integers(0, odds)) == 0 and seen.get("JK", 0) < 4:
            seen["JK"] = seen.get("JK", 0) + 1
            card = f"JK#{seen['JK']}"
            named[card] = (
                f if draw(st.integers(0, 4)) else draw(st.sampled_from(("2H", "KS", "AH")))
            )
            if draw(st.integers(0, 20)) == 0:
                del named[card]
        else:
            seen[f] = seen.get(f, 0) + 1
            card = f"{f}#{seen[f]}" if seen[f] <= 2 else f"{f}#1"
        cards.append(card)
    return cards, named


def engine_outcome(
    cards: list[str], named: Named, variant: str
) -> tuple[str, tuple[str, ...]] | None:
    try:
        g = check_group(cards, VARIANTS[variant], named)
    except RuleViolation:
        return None
    return g.kind, g.faces


@_SETTINGS
@given(st.sampled_from(tuple(VARIANTS)).flatmap(lambda v: st.tuples(st.just(v), groups(v))))
@example(("manipulation", (["QH#1", "KH#1", "AH#1"], {})))
@example(("shanghai", (["QH#1", "KH#1", "AH#1"], {})))
@example(("tahiti", (["KH#1", "AH#1", "2H#1"], {})))
@example(("carousel", (["JK#1", "JK#2", "9C#1"], {"JK#1": "JC", "JK#2": "10C"})))
def test_a_group_gets_the_oracles_verdict(case: tuple[str, tuple[list[str], Named]]) -> None:
    variant, (cards, named) = case
    assert engine_outcome(cards, named, variant) == group_outcome(cards, named, variant)


@st.composite
def tables(
    draw: st.DrawFn,
) -> tuple[str, list[list[str]], list[list[str]], list[str], Named, bool]:
    variant = draw(st.sampled_from(tuple(VARIANTS)))
    seen: Counter_ = {}
    named: Named = {}
    new: list[list[str]] = []
    for _ in range(draw(st.integers(1, 4))):
        cards, names = draw(groups(variant, seen, draw(st.integers(0, 3)) > 0))
        new.append(cards)
        named.update(names)
    flat = [c for g in new for c in g]
    on_table = draw(st.lists(st.sampled_from(flat), unique=True)) if flat else []
    before: list[list[str]] = []
    rest = list(on_table)
    while rest:
        k = draw(st.integers(1, len(rest)))
        before.append(rest[:k])
        rest = rest[k:]
    hand = [c for c in flat if c not in on_table]
    if draw(st.integers(0, 5)) == 0 and hand:
        hand.remove(draw(st.sampled_from(hand)))  # a card from nowhere
    if draw(st.integers(0, 5)) == 0 and all("7D#2" not in g for g in before):
        # a table card that disappears (unless also in new); a before table, the server's
        # own, never holds a card twice
        before.append(["7D#2"])
    hand += ["9S#2", "JK#4"]
    return variant, new, before, hand, named, draw(st.booleans())


@_SETTINGS
@given(tables())
def test_a_rebuilt_table_gets_the_oracles_verdict(
    case: tuple[str, list[list[str]], list[list[str]], list[str], Named, bool],
) -> None:
    variant, new, before, hand, named, first = case
    want = table_ok(new, before, hand, named, variant, first_play=first)
    try:
        check_table(new, before, hand, VARIANTS[variant], named=named, first_play=first)
    except TableViolation as e:
        assert not want, e
        if e.group is not None and e.code not in ("duplicate_card", "not_in_hand"):
            assert group_outcome(new[e.group], named, variant) is None
        return
    assert want
