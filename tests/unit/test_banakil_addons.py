"""Add-ons the meld oracle (tests/property/meld_oracle.py) found refused or misread, and
the places named for substitutes, which are honoured or refused, never ignored.

Rules: BK-MELD-2, BK-MELD-3, BK-WILD-1, BK-WILD-2, BK-WILD-3, BK-WILD-C2, BK-WILD-S2,
BK-TEAM-3, BK-TEAM-4, BK-AMB-12, BK-AMB-13.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine import banakil
from engine.banakil.melds import add_to_meld
from engine.banakil.messages import Placed
from engine.cards import face
from engine.errors import RuleViolation
from tests.support import cards, meld

BOTH = ("classic", "sahrat")


def add(
    preset: str,
    table: str,
    hand: str,
    wild_as: str | None = None,
    joker_as: str | None = None,
    kind: str = "run",
) -> str:
    """Seat 1 adds `hand` to the team meld `table` (placed by seat 3); the meld after."""
    laid = meld(0, 1, 3, kind, table)
    opts = banakil.options_from(preset)
    placed = add_to_meld(
        laid.cards, kind, _fresh(hand, laid.cards), 1, opts, wild_as=wild_as, joker_as=joker_as
    )
    return spec(placed)


def refused(preset: str, table: str, hand: str, **named: str) -> tuple[str, str]:
    with pytest.raises(RuleViolation) as info:
        add(preset, table, hand, **named)
    return info.value.code, info.value.rule_id


def _fresh(hand: str, table: Sequence[Placed]) -> tuple[str, ...]:
    """Hand cards as the other copy of any face already on the table."""
    on_table = {p.card for p in table}
    return tuple(c if c not in on_table else c.replace("#1", "#2") for c in cards(hand))


def spec(placed: Sequence[Placed]) -> str:
    return " ".join(
        face(p.card) if p.stands_for == face(p.card) else f"{face(p.card)}={p.stands_for}"
        for p in placed
    )


# --- readings the engine used to miss --------------------------------------------------------


@pytest.mark.parametrize("preset", BOTH)
def test_a_two_of_the_runs_suit_joins_as_its_wild_two_when_the_rank_two_place_is_out_of_reach(
    preset: str,
) -> None:
    """BK-WILD-3, BK-WILD-2: 2♣ added to 4♣ 5♣ 6♣ cannot be the natural 2 (3♣ is missing),
    so it is the wild two at an end; it was refused with run_gap."""
    assert add(preset, "4C 5C 6C", "2C") in {"4C 5C 6C 2C=7C", "2C=3C 4C 5C 6C"}


def test_a_joker_and_a_wild_two_added_together_fill_two_gaps() -> None:
    """BK-WILD-1, BK-WILD-2: 2♣…10♣ plus JK, 2♣ and K♣: the substitutes are J♣ and Q♣ (one
    each); it was refused with no_place_for_wild."""
    after = add("classic", "2C 3C 4C 5C 6C 7C 8C 9C 10C", "JK 2C KC")
    assert after in {
        "2C 3C 4C 5C 6C 7C 8C 9C 10C JK=JC 2C=QC KC",
        "2C 3C 4C 5C 6C 7C 8C 9C 10C 2C=JC JK=QC KC",
    }


def test_a_joker_and_a_wild_two_fill_the_gaps_left_by_a_real_card_added_with_them() -> None:
    """BK-WILD-2: 4♣ 5♣ 6♣ plus JK, 2♣ and 8♣ (the 2♣ cannot reach the rank-2 place)."""
    after = add("classic", "4C 5C 6C", "JK 2C 8C")
    assert "8C" in after.split()
    assert len(after.split()) == 6


def test_an_added_ace_goes_to_the_far_end_when_the_near_end_leaves_a_gap() -> None:
    """BK-MELD-3, BK-WILD-C2: 2♣(=4♣) 5♣ … J♣ plus 4♣, Q♣ and A♣: the ace is high (14) and
    the displaced two stands for K♣; the low ace left 2♣ 3♣ to fill and was refused."""
    after = add("classic", "2C=4C 5C 6C 7C 8C 9C 10C JC", "4C QC AC")
    assert after == "4C 5C 6C 7C 8C 9C 10C JC QC 2C=KC AC"


# --- named places: honoured, or refused with a reason -------------------------------------------


@pytest.mark.parametrize("preset", BOTH)
def test_an_added_two_of_the_runs_suit_stands_where_the_player_names_it(preset: str) -> None:
    """BK-WILD-2, BK-WILD-3: 2♣ added to 3♣ 4♣ 5♣ with wild_as=6♣ is the wild two for 6♣;
    the name was ignored and the 2♣ laid as the natural 2."""
    assert add(preset, "3C 4C 5C", "2C", wild_as="6C") == "3C 4C 5C 2C=6C"
    assert add(preset, "3C 4C 5C", "2C") == "2C 3C 4C 5C"


@pytest.mark.parametrize("preset", BOTH)
def test_a_named_place_that_no_wild_two_takes_is_refused(preset: str) -> None:
    """BK-WILD-2: adding 6♣ to 3♣ 4♣ 5♣ with wild_as=7♣ names a wild two that does not
    exist; it was silently ignored."""
    assert refused(preset, "3C 4C 5C", "6C", wild_as="7C") == ("bad_wild_target", "BK-WILD-2")


def test_sahrat_naming_the_card_a_wild_two_already_stands_for_is_no_move() -> None:
    """BK-WILD-S2, BK-AMB-12: the two of 7♥ 8♥ 9♥ 10♥ 2♣(=J♥) stays J♥ when 6♥ is added;
    naming J♥ asks nothing else and was refused as a move (wild_two_fixed)."""
    assert add("sahrat", "7H 8H 9H 10H 2C=JH", "6H", wild_as="JH") == "6H 7H 8H 9H 10H 2C=JH"
    assert refused("sahrat", "7H 8H 9H 10H 2C=JH", "6H", wild_as="5H") == (
        "wild_two_fixed",
        "BK-WILD-S2",
    )
