"""Plays that differ by variant, through the decider: the ace in runs, Vatican's first play,
Tahiti's singletons (rules/rummy.md §2.3, §9, §10). The group and move checks themselves
are tested in test_rummy_groups.py and test_rummy_moves.py; here the rules' `decide`
must apply them to the seat's own hand, keep them per seat, and record the outcome.

Rules: RM-MAN-2, RM-MAC-2, RM-SHA-2, RM-GUA-2, RM-TAH-5, RM-VAT-5, RM-TAH-2, RM-TAH-3,
RM-EX-1, RM-EX-18, RM-EX-22, RM-AMB-11, RM-AMB-24.
"""

from __future__ import annotations

import pytest

from engine.rummy.messages import Play, TablePlayed, TurnEnded
from engine.rummy.state import State
from tests.unit.rummy_support import cards, playing, refused, step, table, trusting

# --- the ace (RM-EX-1 through the decider) -------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "qka", "a23", "rule"),
    [
        ("manipulation", True, False, "RM-ACE-1"),
        ("shanghai", False, True, "RM-ACE-2"),
        ("machiavelli", True, True, "RM-ACE-3"),
        ("guadeloupe", True, True, "RM-ACE-3"),
        ("tahiti", True, True, "RM-ACE-3"),
    ],
)
def test_a_run_laid_from_the_hand_places_the_ace_as_the_variant_says(
    variant: str, qka: bool, a23: bool, rule: str
) -> None:
    """RM-MAN-2, RM-SHA-2, RM-MAC-2, RM-GUA-2, RM-TAH-5, RM-EX-1: Q-K-A and A-2-3 laid from
    the hand, accepted or refused with the variant's ace rule; K-A-2 never."""
    state = playing(variant, ["QH KH AH 2H 3H AS", "9C"], stock="9D", **trusting(variant))
    for run, ok in (("QH KH AH", qka), ("AH 2H 3H", a23)):
        move = Play(table=table(run), added=cards(run))
        if ok:
            events, _ = step(state, 1, move)
            assert events[0] == TablePlayed(seat=1, table=table(run), names=(), added=cards(run))
        else:
            assert refused(state, 1, move) == ("ace_misplaced", rule)
    wrap = Play(table=table("KH AH 2H"), added=cards("KH AH 2H"))
    assert refused(state, 1, wrap) == ("ace_round_the_corner", rule)


# --- Vatican's first play (RM-VAT-5, RM-EX-18, RM-AMB-11) -----------------------------------


def _vatican(hand: str) -> State:
    """Seat 1 has not played yet; the table holds 9♣ 9♦ 9♥."""
    return playing("vatican", [hand, "2C"], stock="KC", on_table="9C 9D 9H", opened=(False, False))


def test_a_first_vatican_play_of_three_natural_cards_of_a_run_is_accepted() -> None:
    """RM-VAT-5, RM-EX-18: 5♥ 6♥ 7♥ from the hand ✔; the seat has opened."""
    state = _vatican("5H 6H 7H 9S")
    events, after = step(
        state, 1, Play(table=table("9C 9D 9H | 5H 6H 7H"), added=cards("5H 6H 7H"))
    )
    assert events == (
        TablePlayed(seat=1, table=table("9C 9D 9H | 5H 6H 7H"), names=(), added=cards("5H 6H 7H")),
        TurnEnded(seat=1, turn=1, next=2),
    )
    assert after.opened == (True, False)


def test_a_joker_does_not_count_toward_the_first_three() -> None:
    """RM-VAT-5, RM-EX-18: 5♥ JK 7♥ ✘."""
    state = _vatican("5H JK1 7H 9S")
    move = Play(table=table("9C 9D 9H | 5H JK1 7H"), added=cards("5H JK1 7H"), names={"JK#1": "6H"})
    assert refused(state, 1, move) == ("first_play_needs_run", "RM-VAT-5")


def test_a_joker_beyond_the_three_natural_cards_is_allowed() -> None:
    """RM-VAT-5, RM-EX-18, RM-AMB-11: 5♥ 6♥ 7♥ JK(8♥) ✔."""
    state = _vatican("5H 6H 7H JK1")
    move = Play(
        table=table("9C 9D 9H | 5H 6H 7H JK1"), added=cards("5H 6H 7H JK1"), names={"JK#1": "8H"}
    )
    events, after = step(state, 1, move)
    assert events[0] == TablePlayed(
        seat=1,
        table=table("9C 9D 9H | 5H 6H 7H JK1"),
        names=(("JK#1", "8H"),),
        added=cards("5H 6H 7H JK1"),
    )
    assert after.names == (("JK#1", "8H"),)


def test_adding_to_the_table_before_the_first_run_is_refused() -> None:
    """RM-VAT-5, RM-EX-18: adding cards to existing groups before having laid such a run ✘."""
    state = _vatican("9S 5H 6H")
    move = Play(table=table("9C 9D 9H 9S"), added=cards("9S"))
    assert refused(state, 1, move) == ("first_play_needs_run", "RM-VAT-5")


def test_the_rest_of_the_first_move_is_unrestricted() -> None:
    """RM-VAT-5, RM-AMB-11: after the three natural cards, the same move may add to the
    table's groups; the run may be longer than three."""
    state = _vatican("5H 6H 7H 8H 9S")
    after_table = "9C 9D 9H 9S | 5H 6H 7H 8H"
    move = Play(table=table(after_table), added=cards("9S 5H 6H 7H 8H"))
    events, _ = step(state, 1, move)
    assert events[0] == TablePlayed(
        seat=1, table=table(after_table), names=(), added=cards("9S 5H 6H 7H 8H")
    )


def test_after_the_first_run_a_vatican_player_adds_freely_in_later_turns() -> None:
    """RM-VAT-5: the first-play duty is each seat's own, and only once."""
    state = playing(
        "vatican", ["9S 2C", "5H 6H 7H"], stock="KC", on_table="9C 9D 9H", opened=(True, False)
    )
    events, state = step(state, 1, Play(table=table("9C 9D 9H 9S"), added=cards("9S")))
    assert events[-1] == TurnEnded(seat=1, turn=1, next=2)
    move = Play(table=table("9C 9D 9H 9S | 5H 6H 7H"), added=cards("5H 6H 7H"))
    assert step(state, 2, move)[1].opened == (True, True)


# --- Tahiti's singletons (RM-TAH-2, RM-TAH-3, RM-EX-22, RM-AMB-24) ---------------------------

_SINGLES = "3C | 9H | KS | KD"


def test_singletons_may_be_used_by_a_move_and_the_others_stay_alone() -> None:
    """RM-TAH-3, RM-EX-22, RM-AMB-24: singletons 3♣ 9♥ K♠ K♦; hand K♥ → K♠ K♦ K♥ ✔; the
    other singletons stay alone ✔."""
    state = playing("tahiti", ["KH 2C", "5D"], stock="9C", on_table=_SINGLES)
    after_table = "3C | 9H | KS KD KH"
    events, after = step(state, 1, Play(table=table(after_table), added=cards("KH")))
    assert events[0] == TablePlayed(
        seat=1, table=table("3C | 9H | KD KH KS"), names=(), added=cards("KH")
    )
    assert after.table == table("3C | 9H | KD KH KS")


def test_a_singleton_never_goes_into_a_hand() -> None:
    """RM-TAH-3, RM-MOVE-3: a singleton missing from the new table is refused."""
    state = playing("tahiti", ["7C 8C 9C", "5D"], stock="9D", on_table=_SINGLES)
    move = Play(table=table("9H | KS | KD | 7C 8C 9C"), added=cards("7C 8C 9C"))
    assert refused(state, 1, move) == ("table_card_removed", "RM-MOVE-3")


def test_singletons_need_not_be_used() -> None:
    """RM-TAH-3: a group laid from the hand alone leaves every singleton as it was."""
    state = playing("tahiti", ["7C 8C 9C", "5D"], stock="9D", on_table=_SINGLES)
    move = Play(table=table(f"{_SINGLES} | 7C 8C 9C"), added=cards("7C 8C 9C"))
    events, _ = step(state, 1, move)
    assert events[0] == TablePlayed(
        seat=1, table=table(f"{_SINGLES} | 7C 8C 9C"), names=(), added=cards("7C 8C 9C")
    )
