"""The duty to play in Manipulation and Shanghai under `reminder_with_hint` (RM-OPT-1a/1b,
RM-MAN-3, RM-SHA-3, RM-AMB-5, RM-EX-6): Draw (or Pass) while a move exists is answered with
a hint first; the same press again executes.

The hint comes from the move search (engine/rummy/search.py); the card it shows is fixed by
RM-AMB-5 (the first playable hand card in the order ♣ ♦ ♥ ♠, then rank).

Rules: RM-MAN-3, RM-SHA-3, RM-OPT-1, RM-OPT-1a, RM-OPT-1b, RM-OPT-1d, RM-EX-3, RM-EX-6,
RM-AMB-1, RM-AMB-5, PF-HINT-2, PF-HINT-3, PF-TIMER-8.
"""

from __future__ import annotations

import pytest

from engine.rummy.game import GAME
from engine.rummy.messages import (
    CardsDrawn,
    Draw,
    Pass,
    Play,
    PlayReminded,
    TablePlayed,
    Timeout,
    TurnEnded,
    TurnPassed,
)
from tests.unit.rummy_support import cards, playing, refused, step, table

_DRAW_ON = ["manipulation", "shanghai"]


@pytest.mark.parametrize("variant", _DRAW_ON)
def test_a_draw_with_a_move_in_hand_shows_the_hint_and_the_second_press_draws(
    variant: str,
) -> None:
    """RM-EX-6, RM-OPT-1a, RM-MAN-3, RM-SHA-3, RM-AMB-1: table 4♠ 5♠ 6♠, hand holds 7♠;
    Draw → no card drawn, the hint shows 7♠ and the group 4♠ 5♠ 6♠; Draw again → one
    card is drawn and the turn continues."""
    state = playing(variant, ["KD 7S", "3D"], stock="9C 9D", on_table="4S 5S 6S")
    events, reminded = step(state, 1, Draw())
    assert events == (PlayReminded(seat=1, card="7S#1", groups=(0,), rearranges=False),)
    assert reminded.hands == state.hands and reminded.stock == state.stock
    assert reminded.turn == 1
    events, after = step(reminded, 1, Draw())
    assert events == (CardsDrawn(seat=1, cards=cards("9C")),)
    assert after.turn == 1 and after.hands[0] == cards("KD 7S 9C")


def test_the_hint_shows_a_rearrangement_when_only_one_plays_a_card() -> None:
    """RM-OPT-1a, RM-EX-3, RM-AMB-5: table 4♠ 5♠ 6♠ 7♠, hand 7♥ 7♦ K♣ → the hint shows 7♦
    (♦ before ♥), the run it takes 7♠ from, and that the table must be rearranged."""
    state = playing("manipulation", ["7H 7D KC", "3D"], stock="9C", on_table="4S 5S 6S 7S")
    events, _ = step(state, 1, Draw())
    assert events == (PlayReminded(seat=1, card="7D#1", groups=(0,), rearranges=True),)


def test_the_hint_shows_the_first_playable_card_in_suit_then_rank_order() -> None:
    """RM-AMB-5: 3♣ (on 4♣ 5♣ 6♣, the second group) comes before 7♠ and 3♠."""
    state = playing("manipulation", ["7S 3S 3C", "3D"], stock="9C", on_table="4S 5S 6S | 4C 5C 6C")
    events, _ = step(state, 1, Draw())
    assert events == (PlayReminded(seat=1, card="3C#1", groups=(1,), rearranges=False),)


def test_the_hint_prefers_a_move_that_needs_no_rearrangement() -> None:
    """RM-AMB-5: 7♦ could join 7♠ 7♥ in a set taken from the run, or simply end 4♦ 5♦ 6♦;
    the hint shows the move that rearranges nothing."""
    state = playing("manipulation", ["7H 7D", "3D"], stock="9C", on_table="4S 5S 6S 7S | 4D 5D 6D")
    events, _ = step(state, 1, Draw())
    assert events == (PlayReminded(seat=1, card="7D#1", groups=(1,), rearranges=False),)


def test_the_first_card_in_hand_order_is_shown_even_if_it_needs_a_rearrangement() -> None:
    """RM-AMB-5 (as the engine reads it: the card first, then the move): 7♦ plays only by
    taking 7♠ from the run; 8♠ would simply end it; 7♦ comes first (♦ before ♠)."""
    state = playing("manipulation", ["8S 7H 7D", "3D"], stock="9C", on_table="4S 5S 6S 7S")
    events, _ = step(state, 1, Draw())
    assert events == (PlayReminded(seat=1, card="7D#1", groups=(0,), rearranges=True),)


def test_after_the_reminder_any_legal_move_is_accepted() -> None:
    """RM-OPT-1b, PF-HINT-3: the hint shows 3♠; playing 7♠ instead is accepted."""
    state = playing("manipulation", ["7S 3S", "3D"], stock="9C", on_table="4S 5S 6S")
    events, reminded = step(state, 1, Draw())
    assert events == (PlayReminded(seat=1, card="3S#1", groups=(0,), rearranges=False),)
    events, _ = step(reminded, 1, Play(table=table("4S 5S 6S 7S"), added=cards("7S")))
    assert events == (
        TablePlayed(seat=1, table=table("4S 5S 6S 7S"), names=(), added=cards("7S")),
        TurnEnded(seat=1, turn=1, next=2),
    )


def test_a_draw_changes_the_state_so_the_next_draw_is_reminded_again() -> None:
    """RM-AMB-5, RM-OPT-1d: "pressing again" executes only with nothing changed in
    between; the card drawn is such a change."""
    state = playing("shanghai", ["7S", "3D"], stock="9C 9D", on_table="4S 5S 6S")
    _, state = step(state, 1, Draw())
    _, state = step(state, 1, Draw())
    events, _ = step(state, 1, Draw())
    assert events == (PlayReminded(seat=1, card="7S#1", groups=(0,), rearranges=False),)


def test_a_refused_command_between_the_presses_changes_nothing() -> None:
    """RM-AMB-5, RM-MOVE-5: a refused move is no change; the second Draw still draws."""
    state = playing("manipulation", ["7S 9H", "3D"], stock="9C", on_table="4S 5S 6S")
    _, reminded = step(state, 1, Draw())
    bad = Play(table=table("4S 5S 6S 9H"), added=cards("9H"))
    assert refused(reminded, 1, bad) == ("not_a_group", "RM-GRP-1")
    events, _ = step(reminded, 1, Draw())
    assert events == (CardsDrawn(seat=1, cards=cards("9C")),)


def test_a_pass_on_an_empty_stock_with_a_move_in_hand_is_reminded_first() -> None:
    """RM-OPT-1a: Draw or Pass; the second Pass ends the turn."""
    state = playing("manipulation", ["7S", "3D"], stock="", on_table="4S 5S 6S")
    events, reminded = step(state, 1, Pass())
    assert events == (PlayReminded(seat=1, card="7S#1", groups=(0,), rearranges=False),)
    assert reminded.passes == 0
    events, _ = step(reminded, 1, Pass())
    assert events == (TurnPassed(seat=1), TurnEnded(seat=1, turn=1, next=2))


@pytest.mark.parametrize("variant", _DRAW_ON)
def test_without_a_move_the_first_press_draws(variant: str) -> None:
    """RM-OPT-1a, RM-MAN-4: no legal move, no reminder."""
    state = playing(variant, ["2C KD", "3D"], stock="9C", on_table="4S 5S 6S")
    events, _ = step(state, 1, Draw())
    assert events == (CardsDrawn(seat=1, cards=cards("9C")),)


def test_the_clock_draws_without_a_reminder_and_ends_the_turn() -> None:
    """PF-TIMER-8: the timeout's draw is made whatever the hand could play."""
    state = playing("manipulation", ["7S", "3D"], stock="9C", on_table="4S 5S 6S")
    events, _ = step(state, 0, Timeout(round=1, turn=1))
    assert events == (
        CardsDrawn(seat=1, cards=cards("9C"), why="timeout"),
        TurnEnded(seat=1, turn=1, next=2),
    )


def test_a_hint_is_given_to_the_seat_on_turn_only() -> None:
    """PF-HINT-2, PF-HINT-3: computed for the asking seat, from its own hand, on its turn."""
    state = playing("manipulation", ["2C KD", "7S"], stock="9C", on_table="4S 5S 6S", turn=2)
    hints = GAME.hints
    assert hints is not None
    found = hints(state, 2)
    assert (found.card, found.groups, found.rearranges) == ("7S#1", (0,), False)
    assert hints(state, 1) is None
