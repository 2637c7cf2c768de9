"""Small parts of the rummy move search that only make it faster, each checked against
what it must never do: hide a move (rules/rummy.md RM-AMB-5, RM-GRP-2/3, RM-ACE-1..4,
RM-JOKER-4, RM-AMB-7).

Rules: RM-GRP-2, RM-GRP-3, RM-ACE-1, RM-ACE-2, RM-ACE-3, RM-AMB-5, RM-AMB-7, RM-CAR-6.
"""

from __future__ import annotations

import random

import msgspec
import pytest

from engine.errors import RuleViolation
from engine.rummy import bench_positions, search
from engine.rummy.moves import check_move
from engine.rummy.search_dp import _Search, solve
from engine.rummy.search_fit import may_hold
from engine.rummy.search_model import face_index, position, relaxed, scenarios
from engine.rummy.search_simple import simple_move
from engine.rummy.search_swap import traded
from engine.rummy.search_types import JOKER_INDEX
from engine.rummy.search_walk import GaveUp, walk
from engine.rummy.variants import CAROUSEL, VARIANTS


@pytest.mark.parametrize(
    ("face", "others", "ace", "holds"),
    [
        ("7H", ["7S", "7D"], "high", True),  # a set of three suits
        ("7H", ["7H", "7S"], "high", False),  # a second 7H is no new suit
        ("7H", ["5H", "6H"], "high", True),  # a run below
        ("7H", ["6H", "8H"], "high", True),  # a run around
        ("7H", ["5H", "9H"], "high", False),  # gaps both sides
        ("QH", ["KH", "AH"], "high", True),  # RM-ACE-1: Q-K-A
        ("QH", ["KH", "AH"], "low", False),  # RM-ACE-2: the ace only below the 2
        ("AH", ["2H", "3H"], "high", False),
        ("AH", ["2H", "3H"], "high_or_low", True),  # RM-ACE-3
        ("KH", ["AH", "2H"], "high_or_low", False),  # K-A-2 is never a run
        ("7H", ["JK", "2C"], "high", True),  # a joker could be anything
    ],
)
def test_a_card_fits_only_where_a_set_or_a_run_can_hold_it(
    face: str, others: list[str], ace: str, holds: bool
) -> None:
    assert may_hold(face, others, ace) is holds  # type: ignore[arg-type]


def test_a_refused_split_is_offered_again_with_the_freeing_copy_in_the_jokers_group() -> None:
    """A Carousel split (bench position 53 at 40 cards) whose copies of 6C leave the real
    7C outside the group continuing the joker's run: with the two 6Cs traded, both new
    clubs runs hold two of the joker's old group and one holds the 7C (RM-AMB-7)."""
    before = (
        ("6H#1", "7H#2", "8H#1", "9H#2", "10H#1", "JH#2"),
        ("9C#1", "10C#2", "JC#1", "QC#2", "KC#2", "AC#1"),
        ("AD#2", "2D#1", "3D#1", "4D#2"),
        ("2S#1", "JK#1", "4S#1", "5S#1"),
        ("AH#1", "2H#2", "3H#2", "4H#1", "5H#1", "6H#2"),
        ("3C#2", "4C#1", "5C#2", "6C#1", "JK#2", "8C#1"),
        ("6C#2", "7C#2", "8C#2", "9C#2"),
        ("8H#2", "9H#1", "10H#2", "JH#1"),
    )
    names = {"JK#1": "3S", "JK#2": "7C"}
    hand = ["10D#2", "10S#2", "3C#1", "4D#1", "6S#2", "8S#2", "JS#1", "KH#1"]
    after = (
        ("AD#2", "2D#1", "3D#1", "4D#2"),
        ("2S#1", "JK#1", "4S#1", "5S#1"),
        ("AC#1", "JK#2", "3C#2"),
        ("AH#1", "2H#2", "3H#2"),
        ("3C#1", "4C#1", "5C#2", "6C#1"),
        ("4H#1", "5H#1", "6H#1"),
        ("6C#2", "7C#2", "8C#1", "9C#1"),
        ("8H#1", "9H#2", "10H#1", "JH#2"),
        ("6H#2", "7H#2", "8H#2", "9H#1", "10H#2", "JH#1"),
        ("8C#2", "9C#2", "10C#2", "JC#1", "QC#2", "KC#2"),
    )
    given = {"JK#2": "2C", "JK#1": "3S"}
    with pytest.raises(RuleViolation, match="joker_not_freed"):
        check_move(before, names, after, given, hand, CAROUSEL)
    legal = []
    for other in traded(before, names, after, given, frozenset({"JK#2"})):
        try:
            check_move(before, names, other, given, hand, CAROUSEL)
        except RuleViolation:
            continue
        legal.append(other)
    assert legal
    assert {frozenset(g) for g in legal[0]} - {frozenset(g) for g in after} == {
        frozenset({"3C#1", "4C#1", "5C#2", "6C#2"}),
        frozenset({"6C#1", "7C#2", "8C#1", "9C#1"}),
    }


@pytest.mark.parametrize("variant", ["manipulation", "shanghai", "carousel"])
def test_the_hint_on_a_large_table_names_the_same_card_in_either_order_of_questions(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On tables over search._LARGE cards the moves changing one or two groups are asked
    before the short search: the card shown is the same (RM-AMB-5). The hands keep only
    cards that no move without rearrangement plays, so the questions are asked."""
    rules = VARIANTS[variant]
    asked = 0
    for i in range(6):
        at = bench_positions.position(variant, 80, random.Random(f"large:{variant}:{i}"))
        pos = position(at.table, dict(at.names), at.hand, rules, False)
        hand = [c for c in at.hand if simple_move(pos, c) is None]
        args = (at.table, dict(at.names), hand, rules)
        large = search.hint(*args)
        monkeypatch.setattr(search, "_LARGE", 10**6)
        small = search.hint(*args)
        monkeypatch.undo()
        assert (large is None) == (small is None)
        if large is not None and small is not None:
            asked += large.rearranges
            assert large.card.partition("#")[0] == small.card.partition("#")[0]
            check_move(
                at.table, dict(at.names), large.move.table, dict(large.move.names), hand, rules
            )
    assert asked >= 3


@pytest.mark.parametrize("variant", ["carousel", "vatican", "tahiti", "manipulation"])
def test_the_depth_first_walk_finds_a_split_exactly_when_the_layers_do(variant: str) -> None:
    """search_walk against search_dp's layers, for the hint's question (a split playing
    one hand card: the card's face first in the order, bound -1) on 24-card positions,
    every scenario loosened and tracked: the same answer, found or none (RM-AMB-5). A walk
    past 5,000 states gives up and is not compared."""
    rules = VARIANTS[variant]
    compared = 0
    for i in range(3):
        at = bench_positions.position(variant, 24, random.Random(f"walk:{variant}:{i}"))
        pos = position(at.table, dict(at.names), at.hand, rules, False)
        faces = sorted({c.partition("#")[0] for c in at.hand if not c.startswith("JK")})
        for card in faces[:4]:
            face = face_index(card)
            order = tuple(0 if f == face else JOKER_INDEX - 1 for f in range(52))
            for scen in scenarios(pos):
                for problem in (relaxed(pos, scen).problem, scen.problem):
                    asked = msgspec.structs.replace(problem, order=order)
                    try:
                        walked = walk(_Search(asked, "first", -1, None), 5_000)
                    except GaveUp:
                        continue
                    assert (walked is None) == (solve(asked, "first", -1) is None)
                    compared += 1
    assert compared >= 10


def test_a_walk_past_its_budget_leaves_the_question_to_the_layers() -> None:
    rules = VARIANTS["carousel"]
    at = bench_positions.position("carousel", 40, random.Random("walk:budget"))
    pos = position(at.table, dict(at.names), at.hand, rules, False)
    problem = scenarios(pos)[0].problem
    with pytest.raises(GaveUp):
        walk(_Search(problem, "count", None, None), 1)
    assert (solve(problem, "count", walk_first=1) is None) == (solve(problem, "count") is None)


def test_a_state_first_walked_with_no_hand_card_is_walked_again_with_some() -> None:
    """The oracle's case (RM-MAN-3, RM-AMB-5): 2C-4C and four 2s on the table, 3C 4C in
    hand. The walk reaches one end state first by a path adding no hand card (refused)
    and later by one adding both; remembering the state without its value hid the move."""
    before = (("2C#1", "3C#1", "4C#1"), ("2C#2", "2D#1", "2H#1", "2S#1"))
    move = search.find_move(before, {}, ["3C#2", "4C#2"], VARIANTS["manipulation"])
    assert move is not None
    assert sorted(move.added) == ["3C#2", "4C#2"]
