"""Turn timeouts and the automatic discard (PF-TIMER-1..6, PF-AUTO-1..5, PF-AMB-3..5).

The clock sends Timeout(deal, turn); the engine decides what happens. Time never enters
the engine: a test "lets the time run out" by sending the command.
"""

from __future__ import annotations

import pytest

from engine.banakil.auto import auto_discard, usefulness
from engine.banakil.messages import (
    CardDiscarded,
    CardDrawn,
    Discard,
    Draw,
    Meld,
    Timeout,
    TurnTimedOut,
)
from engine.banakil.options import options_from
from tests.support import apply, cards, table, try_


def _timeout(state):  # type: ignore[no-untyped-def]
    return Timeout(deal=state.deal, turn=state.turn_no)


def test_the_turn_time_is_40_seconds_in_classic_and_20_in_sahrat_pf_timer_1() -> None:
    """PF-TIMER-1, PF-TIMER-2 (the last-5-second warning is the clock's, on these values)."""
    assert options_from("classic").turn_seconds == 40
    assert options_from("sahrat").turn_seconds == 20


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
def test_a_timeout_before_the_draw_draws_from_the_stock_then_opens_the_window(
    preset: str,
) -> None:
    """PF-TIMER-3, PF-EX-2: one card from the stock (never the ground), then 5 s to
    discard; PF-EX-3 / PF-TIMER-4: an open ground selection is client-side only, so the
    ground stays exactly as it was."""
    state = table(preset, hands=["9S 4H KD", "", "", ""], ground="AS 7C", drawn=False, turn_no=3)
    after, events = apply(state, 0, _timeout(state))
    assert events == (CardDrawn(seat=1, card="5C#1"), TurnTimedOut(seat=1, turn=3))
    assert after.ground == state.ground
    assert after.window and after.drawn


def test_in_the_discard_window_only_a_discard_is_accepted_pf_timer_6() -> None:
    """PF-TIMER-6, PF-AMB-4."""
    state = table("classic", hands=["9S 10S JS 4H", "", "", ""], turn_no=2)
    state, _ = apply(state, 0, _timeout(state))
    err = try_(state, 1, Meld(cards=("9S", "10S", "JS")))
    assert (err.code, err.rule_id) == ("discard_only", "PF-TIMER-6")
    assert try_(state, 1, Draw()).code == "discard_only"
    after, events = apply(state, 1, Discard(card="4H"))
    assert isinstance(events[0], CardDiscarded) and not events[0].automatic
    assert after.turn == 2 and not after.window


def test_when_no_draw_is_due_the_window_opens_directly_pf_timer_5() -> None:
    """PF-TIMER-5, PF-AMB-5: the starter's first turn, or a player who already drew."""
    state = table("sahrat", hands=["9S 4H KD", "", "", ""], first_turn=True, turn_no=1)
    after, events = apply(state, 0, _timeout(state))
    assert events == (TurnTimedOut(seat=1, turn=1),)
    assert after.hands == state.hands


def test_when_the_window_runs_out_the_system_discards_the_least_useful_card() -> None:
    """PF-TIMER-3, PF-AUTO-2, PF-AUTO-5: the same automatic actions for any absent player."""
    state = table("classic", hands=["2C JK 9S 9S KD QD 4H", "", "", ""], turn_no=4)
    state, _ = apply(state, 0, _timeout(state))
    after, events = apply(state, 0, _timeout(state))
    assert events[0] == CardDiscarded(seat=1, card="4H#1", automatic=True)
    assert after.turn == 2 and after.ground[-1] == "4H#1"


def test_a_late_or_repeated_timeout_changes_nothing() -> None:
    """PF-TIMER-3: the timeout names its turn; once the turn moved on it is refused."""
    state = table("classic", hands=["9S 4H", "", "", ""], turn_no=7)
    stale = Timeout(deal=state.deal, turn=6)
    assert try_(state, 0, stale).code == "stale_timeout"
    after, _ = apply(state, 1, Discard(card="4H"))
    assert try_(after, 0, Timeout(deal=state.deal, turn=7)).code == "stale_timeout"
    assert try_(state, 1, Timeout(deal=state.deal, turn=7)).code == "system_only"


def test_the_automatic_discard_of_the_last_card_goes_out() -> None:
    """BK-END-1 through PF-AUTO: the hand empties, the deal ends with that finisher."""
    state = table("classic", hands=["4H", "", "", ""], turn_no=9)
    state, _ = apply(state, 0, _timeout(state))
    after, _ = apply(state, 0, _timeout(state))
    assert after.finisher == 1 and after.end_reason == "went_out"


def test_pf_ex_4_the_worked_automatic_discard() -> None:
    """PF-EX-4, PF-AUTO-1..4, PF-AMB-3: 2♣ and JK are excluded; 4♥ (u = 0) and 9♠ (u = 0,
    its twin ignored) tie; 0.5 beats 1 point → 4♥. With only 2♣ and JK left → 2♣."""
    hand = cards("2C JK 9S 9S KD QD 4H")
    assert usefulness("KD#1", hand) == 1
    assert usefulness("9S#1", hand) == 0
    assert auto_discard(hand) == "4H#1"
    assert auto_discard(cards("2C JK")) == "2C#1"


def test_the_automatic_discard_never_throws_a_wild_card_while_others_remain() -> None:
    """PF-AUTO-1."""
    assert auto_discard(cards("2C JK KD")) == "KD#1"
    assert auto_discard(cards("JK 2H 2C")) in {"2H#1", "2C#1"}


def test_pairs_toward_a_set_and_near_cards_toward_a_run_are_kept() -> None:
    """PF-AUTO-2, PF-AMB-3 (2): aces and threes of other suits are partners; same-suit
    cards 1 or 2 ranks apart are partners, the ace counting as 1 and 14."""
    hand = cards("AS AH KC QC 9D")
    assert usefulness("AS#1", hand) == 1
    assert usefulness("KC#1", hand) == 1
    assert usefulness("QC#1", hand) == 1
    assert auto_discard(hand) == "9D#1"
    assert usefulness("AC#1", cards("AC KC")) == 1  # ace high, next to the king


def test_ties_go_to_the_lower_rank_then_suit_then_the_second_copy() -> None:
    """PF-AUTO-3, PF-AUTO-4, PF-AMB-3 (3): ♣ < ♦ < ♥ < ♠, then the second deck's copy."""
    assert auto_discard(cards("9S 7D")) == "7D#1"  # same value 1, rank 7 < 9
    assert auto_discard(cards("7S 7C")) == "7C#1"  # same rank, ♣ first
    assert auto_discard(("7C#1", "7C#2")) == "7C#2"
