"""The table check (engine/rummy/groups.py `check_table`) when some of the table's jokers
are named and a group holds a joker without a name or a card that is no card.

Written against the survivors of mutation testing (scripts/mutate.sh, docs/testing.md)
of the group-check cache (commit 34c8524): a group's jokers are passed to the cached
check as their names in order, "" for a joker without one; no test checked a table where
one joker was named and another, or an unreadable card, lay in a group.

Rules: RM-JOKER-1, RM-JOKER-2, RM-AMB-8, RM-MOVE-5.
"""

from __future__ import annotations

import pytest

from engine.rummy.groups import TableViolation, check_table
from engine.rummy.variants import VARIANTS
from tests.unit.rummy_support import cards, table

_CAROUSEL = VARIANTS["carousel"]


def test_an_unnamed_joker_is_refused_though_another_joker_is_named() -> None:
    """RM-JOKER-2, RM-AMB-8: the joker laid in 9C 10C JK2 has no name while the table's
    other joker is named 6H: the move is refused for that group, the joker to be named."""
    before = table("5H JK1 7H")
    after = (*before, cards("9C 10C JK2"))
    with pytest.raises(TableViolation) as refused:
        check_table(after, before, cards("9C 10C JK2"), _CAROUSEL, named={"JK#1": "6H"})
    assert (refused.value.code, refused.value.rule_id, refused.value.group) == (
        "joker_unnamed",
        "RM-JOKER-2",
        1,
    )
    assert refused.value.message == "group 2: JK#2 must be named as the card it stands for"


def test_a_card_that_is_no_card_is_refused_in_its_group_while_a_joker_is_named() -> None:
    """RM-MOVE-5: a group holding an unreadable card is refused, naming the card, on a
    table whose joker is named as on any other."""
    before = table("5H JK1 7H")
    after = (*before, ("9C#1", "10C#1", "ZZ#1"))
    with pytest.raises(TableViolation) as refused:
        check_table(after, before, ("9C#1", "10C#1", "ZZ#1"), _CAROUSEL, named={"JK#1": "6H"})
    assert (refused.value.code, refused.value.group) == ("bad_card", 1)
    assert refused.value.message == "group 2: 'ZZ#1' is not a card of a rummy deck"


def test_the_named_joker_is_read_as_its_name_in_its_group() -> None:
    """RM-JOKER-1: with the new group's joker named too, both jokers read as their names."""
    before = table("5H JK1 7H")
    after = (*before, cards("9C 10C JK2"))
    out = check_table(
        after, before, cards("9C 10C JK2"), _CAROUSEL, named={"JK#1": "6H", "JK#2": "JC"}
    )
    faces = [g.faces for g in out if g is not None]
    assert faces == [("5H", "6H", "7H"), ("9C", "10C", "JC")]
