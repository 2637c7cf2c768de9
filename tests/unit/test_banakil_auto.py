"""The automatic discard, exactly as PF-AMB-3 decides it: which cards are partners (and at
what distance), the ace low and high, and every tie-break in order.

Rules: PF-AUTO-1, PF-AUTO-2, PF-AUTO-3, PF-AUTO-4, PF-AMB-3.
"""

from __future__ import annotations

import pytest

from engine.banakil.auto import auto_discard, usefulness
from tests.support import cards


def u(card: str, hand: str) -> int:
    """The usefulness of the first copy of `card` in `hand` (which holds it)."""
    held = cards(hand)
    return usefulness(next(c for c in held if c.startswith(f"{card}#")), held)


# --- partners toward a run: same suit, 1 or 2 ranks apart -----------------------------------


@pytest.mark.parametrize(
    ("other", "partner"),
    [("6H", True), ("5H", True), ("8H", True), ("9H", True), ("4H", False), ("10H", False)],
)
def test_a_run_partner_is_one_or_two_ranks_away_in_the_same_suit(other: str, partner: bool) -> None:
    """PF-AMB-3 (2): 7♥ has partners 5♥ 6♥ 8♥ 9♥, not 4♥ or 10♥ (3 apart)."""
    assert u("7H", f"7H {other}") == int(partner)
    assert u(other, f"7H {other}") == int(partner)


@pytest.mark.parametrize("high", ["KH", "QH"])
def test_only_an_ace_counts_as_fourteen(high: str) -> None:
    """PF-AMB-3 (2): 5♥ and K♥ (or Q♥) are far apart; no card but the ace reaches 14."""
    assert u("5H", f"5H {high}") == 0
    assert u(high, f"5H {high}") == 0


def test_a_card_of_another_suit_is_never_a_run_partner() -> None:
    """PF-AMB-3 (2): 7♥ and 8♠ are not partners (the suit differs)."""
    assert u("7H", "7H 8S 6C 9D") == 0


@pytest.mark.parametrize(
    ("other", "partner"),
    [("2H", False), ("3H", True), ("4H", False), ("KH", True), ("QH", True), ("JH", False)],
)
def test_an_ace_is_a_partner_both_below_the_two_and_above_the_king(
    other: str, partner: bool
) -> None:
    """PF-AMB-3 (2), BK-MELD-3: the ace counts as 1 (next to 3♥; the 2♥ is wild and never a
    partner) and as 14 (next to K♥ and Q♥), but J♥ and 4♥ are 3 away either way."""
    assert u("AH", f"AH {other}") == int(partner)
    if other != "2H":  # a 2 never is a partner, but it has the ace as its own partner
        assert u(other, f"AH {other}") == int(partner)


def test_wild_cards_are_never_partners() -> None:
    """PF-AMB-3 (2): 2s and jokers do not count, even a 2 of the suit right next to it."""
    assert u("3H", "3H 2H JK 2C") == 0
    assert u("AH", "AH 2H JK") == 0


def test_an_exact_duplicate_is_ignored_but_every_other_partner_counts() -> None:
    """PF-AMB-3 (2): the other 7♥ is ignored; 6♥ and 8♥ each count once."""
    assert u("7H", "7H 7H 6H 8H") == 2


# --- partners toward a set: aces and threes of other suits ----------------------------------


@pytest.mark.parametrize("rank", ["A", "3"])
def test_aces_and_threes_pair_with_other_suits_of_their_rank(rank: str) -> None:
    """PF-AMB-3 (2): A♠ A♥, 3♠ 3♦ are pairs toward a set (BK-MELD-5)."""
    assert u(f"{rank}S", f"{rank}S {rank}H {rank}D") == 2


@pytest.mark.parametrize("rank", ["4", "7", "K"])
def test_other_ranks_never_pair_toward_a_set(rank: str) -> None:
    """PF-AMB-3 (2), BK-MELD-5: 7♠ 7♥ is no pair, since sets exist only of A and 3."""
    assert u(f"{rank}S", f"{rank}S {rank}H {rank}D") == 0


# --- candidates and tie-breaks (PF-AMB-3 (1) and (3)) ---------------------------------------


def test_the_least_useful_card_goes_first() -> None:
    """PF-AUTO-2: 9♦ (no partner) goes before 5♣ (partner 6♣), whatever their values."""
    assert auto_discard(cards("5C 6C 9D")) == "9D#1"


def test_among_equally_useful_cards_the_lower_value_goes() -> None:
    """PF-AUTO-3, BK-DECK-3: K♠ is worth 1 and 4♥ 0.5 (both without partners) → 4♥."""
    assert auto_discard(cards("KS 4H")) == "4H#1"


@pytest.mark.parametrize(
    ("hand", "out"),
    [
        ("KC AS", "AS#1"),  # both worth 1: the ace is rank 1, the lowest (before ♣)
        ("6C 4S", "4S#1"),  # both worth 0.5: rank 4 before 6, whatever the suits
        ("9S 9H", "9H#1"),  # same rank and value: ♥ before ♠
        ("9D 9H", "9D#1"),  # ♦ before ♥
        ("9C 9D", "9C#1"),  # ♣ first
    ],
)
def test_ties_go_to_the_lowest_rank_then_the_suit_order(hand: str, out: str) -> None:
    """PF-AMB-3 (3): lowest rank (A = 1 … K = 13), then ♣ < ♦ < ♥ < ♠."""
    assert auto_discard(cards(hand)) == out


def test_of_two_identical_cards_the_second_decks_copy_goes() -> None:
    """PF-AMB-3 (3): the last tie-break is the copy from the second deck."""
    assert auto_discard(("7C#2", "7C#1")) == "7C#2"
    assert auto_discard(("7C#1", "7C#2")) == "7C#2"


def test_twos_go_only_when_no_other_card_but_jokers_remains_and_jokers_last() -> None:
    """PF-AUTO-1, PF-AMB-3 (1): candidates are the plain cards, else the 2s, else jokers;
    among 2s the suit order decides (all are worth 2, rank 2)."""
    assert auto_discard(cards("JK 2S 2D")) == "2D#1"
    assert auto_discard(("JK#1", "JK#2")) == "JK#2"
    assert auto_discard(cards("JK 2S KH")) == "KH#1"
    assert auto_discard(cards("3H 2C")) == "3H#1"  # a three is a plain card, a 2 is not
