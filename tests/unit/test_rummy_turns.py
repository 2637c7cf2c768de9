"""Rummy turns: who plays, what ends a turn, drawing, passing and the blocked round, for
the variants whose turn is "play or draw" (rules/rummy.md §2.1, §2.4, §2.5, §5–§7, §9, §10).

Given a round in play (built by hand), when a seat sends a command, then exactly these
events, or this refusal (code and rule ID) and nothing changed. Carousel's turn is in
test_rummy_carousel.py; the reminder of RM-OPT-1a in test_rummy_reminder.py; the option
RM-OPT-3 and the turn timer in test_rummy_timeouts.py.

Rules: RM-CORE-4, RM-CORE-7, RM-MOVE-4, RM-MOVE-5, RM-MOVE-6, RM-MOVE-7, RM-BLOCK-1,
RM-BLOCK-2, RM-BLOCK-4, RM-OPT-1c, RM-OPT-1d, RM-MAN-4, RM-MAN-5, RM-MAC-3, RM-SHA-3,
RM-GUA-3, RM-GUA-4, RM-GUA-5, RM-VAT-2, RM-TAH-4, RM-EX-6, RM-EX-8, RM-EX-11, RM-AMB-3,
RM-AMB-13, RM-AMB-14, RM-AMB-27.
"""

from __future__ import annotations

import pytest

from engine.rummy.messages import (
    CardsDrawn,
    Draw,
    Pass,
    Play,
    RoundScored,
    SeedRevealed,
    TablePlayed,
    TurnEnded,
    TurnPassed,
)
from tests.unit.rummy_support import SECRET, cards, playing, refused, step, table, trusting

# --- whose turn (RM-CORE-7, RM-AMB-3) ---------------------------------------------------


def test_turns_go_round_in_increasing_seat_order() -> None:
    """RM-CORE-7, RM-AMB-3: turn order follows increasing seat number; after the last
    seat comes seat 1 again."""
    state = playing("machiavelli", ["2C", "3C", "4C"], stock="9D 9H 9S", turn=3, turn_no=7)
    events, after = step(state, 3, Draw())
    assert events == (
        CardsDrawn(seat=3, cards=cards("9D")),
        TurnEnded(seat=3, turn=7, next=1),
    )
    assert (after.turn, after.turn_no) == (1, 8)
    events, after = step(after, 1, Draw())
    assert events[-1] == TurnEnded(seat=1, turn=8, next=2)


@pytest.mark.parametrize("seat", [2, 3])
def test_a_seat_whose_turn_it_is_not_is_refused(seat: int) -> None:
    """RM-CORE-7: only the seat on turn plays, draws or passes; the refusal changes nothing."""
    state = playing("machiavelli", ["2C", "3C", "4C"], stock="9D", on_table="4S 5S 6S")
    assert refused(state, seat, Draw()) == ("not_your_turn", "RM-CORE-7")
    move = Play(table=table("4S 5S 6S 7S"), added=cards("7S"))
    assert refused(state, seat, move) == ("not_your_turn", "RM-CORE-7")


# --- one committed move a turn (RM-MOVE-4..7) --------------------------------------------


def test_a_committed_move_ends_the_turn_and_a_second_one_is_refused() -> None:
    """RM-MOVE-6: a turn holds at most one committed move, and committing it ends the turn."""
    state = playing("machiavelli", ["7S 8S 2C", "3D 4D"], stock="9C", on_table="4S 5S 6S")
    events, after = step(state, 1, Play(table=table("4S 5S 6S 7S"), added=cards("7S")))
    assert events == (
        TablePlayed(seat=1, table=table("4S 5S 6S 7S"), names=(), added=cards("7S")),
        TurnEnded(seat=1, turn=1, next=2),
    )
    assert after.hands[0] == cards("8S 2C")
    again = Play(table=table("4S 5S 6S 7S 8S"), added=cards("8S"))
    assert refused(after, 1, again) == ("not_your_turn", "RM-CORE-7")


def test_a_move_emptying_the_hand_ends_the_round_at_once_with_no_end_of_turn_draw() -> None:
    """RM-MOVE-7, RM-CORE-4, RM-GUA-4: the round ends the moment the hand is empty —
    even in Guadeloupe nothing is drawn after it; the round's secret is revealed right
    after its end (PF-FAIR-3)."""
    state = playing(
        "guadeloupe", ["7S", "3D 4D KC"], stock="9C 9D", on_table="4S 5S 6S", secret=SECRET
    )
    events, after = step(state, 1, Play(table=table("4S 5S 6S 7S"), added=cards("7S")))
    assert events == (
        TablePlayed(seat=1, table=table("4S 5S 6S 7S"), names=(), added=cards("7S")),
        RoundScored(
            round=1,
            how="out",
            hands=((), cards("3D 4D KC")),
            points=(0, 3),
            totals=(0, 3),
            winners=(1,),
            game_over=True,
            game_winners=(1,),
            final=(0, 3),
        ),
        SeedRevealed(deal=1, secret=SECRET),
    )
    assert after.phase == "over" and after.stock == cards("9C 9D")


def test_an_invalid_move_is_refused_and_the_turn_goes_on_for_free() -> None:
    """RM-MOVE-4, RM-MOVE-5, RM-OPT-3a: an invalid submission changes nothing; under
    `undo_free` the player then simply draws (the reset cost nothing)."""
    state = playing("machiavelli", ["7S 9H 2C", "3D"], stock="9C", on_table="4S 5S 6S")
    bad = Play(table=table("4S 5S 6S 9H"), added=cards("9H"))
    assert refused(state, 1, bad) == ("not_a_group", "RM-GRP-1")
    events, _ = step(state, 1, Draw())
    assert events == (CardsDrawn(seat=1, cards=cards("9C")), TurnEnded(seat=1, turn=1, next=2))


def test_a_move_must_name_exactly_the_hand_cards_it_adds() -> None:
    """RM-MOVE-5 (b): the added cards are the hand cards the new table holds."""
    state = playing("machiavelli", ["7S 8S 2C", "3D"], stock="9C", on_table="4S 5S 6S")
    lying = Play(table=table("4S 5S 6S 7S"), added=cards("7S 8S"))
    assert refused(state, 1, lying) == ("added_mismatch", "RM-MOVE-5")


# --- draw on, or draw and end (RM-MAN-4/5, RM-SHA-3, RM-MAC-3, RM-VAT-2, RM-TAH-4) --------


@pytest.mark.parametrize("variant", ["manipulation", "shanghai"])
def test_a_draw_in_manipulation_and_shanghai_keeps_the_turn(variant: str) -> None:
    """RM-MAN-4, RM-SHA-3, RM-OPT-1d: the player draws one card at a time and stays on
    turn; the turn ends when he plays."""
    state = playing(
        variant,
        ["2C 9D", "3D"],
        stock="8S 9S JD",
        on_table="5S 6S 7S",
        compulsory_play="trust_player",
    )
    events, after = step(state, 1, Draw())
    assert events == (CardsDrawn(seat=1, cards=cards("8S")),)
    assert (after.turn, after.drawn, after.hands[0]) == (1, 1, cards("2C 9D 8S"))
    events, after = step(after, 1, Draw())
    assert events == (CardsDrawn(seat=1, cards=cards("9S")),)
    events, after = step(after, 1, Play(table=table("5S 6S 7S 8S 9S"), added=cards("8S 9S")))
    assert events[-1] == TurnEnded(seat=1, turn=1, next=2)
    assert after.turn == 2 and after.drawn == 0


@pytest.mark.parametrize("variant", ["manipulation", "shanghai"])
def test_a_trusted_player_draws_on_the_first_press_with_a_move_in_hand(variant: str) -> None:
    """RM-OPT-1c, RM-EX-6: under `trust_player` Draw works at once, with no reminder, though
    7♠ could be laid on 4♠ 5♠ 6♠."""
    state = playing(
        variant, ["7S 2C", "3D"], stock="9C", on_table="4S 5S 6S", compulsory_play="trust_player"
    )
    events, after = step(state, 1, Draw())
    assert events == (CardsDrawn(seat=1, cards=cards("9C")),)
    assert after.turn == 1 and not after.reminded


@pytest.mark.parametrize("variant", ["manipulation", "shanghai"])
def test_with_the_stock_empty_the_turn_ends_by_a_pass(variant: str) -> None:
    """RM-MAN-5, RM-OPT-1d, RM-BLOCK-1: the turn ends by playing, or by passing once the
    stock is empty."""
    state = playing(variant, ["2C 9D", "3D", "KH"], stock="", compulsory_play="trust_player")
    events, after = step(state, 1, Pass())
    assert events == (TurnPassed(seat=1), TurnEnded(seat=1, turn=1, next=2))
    assert after.passes == 1


@pytest.mark.parametrize(
    "variant", ["manipulation", "machiavelli", "shanghai", "guadeloupe", "vatican", "tahiti"]
)
def test_a_pass_while_the_stock_has_cards_is_refused(variant: str) -> None:
    """RM-AMB-27, RM-BLOCK-1: a pass exists only instead of drawing from an empty stock."""
    state = playing(variant, ["2C 9D", "3D"], stock="9C", **trusting(variant))
    assert refused(state, 1, Pass()) == ("stock_not_empty", "RM-AMB-27")


@pytest.mark.parametrize("variant", ["manipulation", "machiavelli", "guadeloupe", "tahiti"])
def test_a_draw_from_an_empty_stock_is_refused(variant: str) -> None:
    """RM-BLOCK-1: with the stock empty a player passes instead of drawing."""
    state = playing(variant, ["2C 9D", "3D"], stock="", **trusting(variant))
    assert refused(state, 1, Draw()) == ("stock_empty", "RM-BLOCK-1")


@pytest.mark.parametrize("variant", ["machiavelli", "vatican", "tahiti"])
def test_a_draw_of_one_card_ends_the_turn_though_a_move_exists(variant: str) -> None:
    """RM-MAC-3, RM-VAT-2, RM-TAH-4: play, or draw one card, which ends the turn; no duty to
    play (7♠ fits 4♠ 5♠ 6♠, and the draw is taken at once)."""
    state = playing(variant, ["7S 2C", "3D"], stock="9C 9H", on_table="4S 5S 6S")
    events, after = step(state, 1, Draw())
    assert events == (CardsDrawn(seat=1, cards=cards("9C")), TurnEnded(seat=1, turn=1, next=2))
    assert after.hands[0] == cards("7S 2C 9C") and after.stock == cards("9H")


def test_a_vatican_player_who_drew_cannot_also_play() -> None:
    """RM-VAT-2: draw one card or play cards, never both."""
    state = playing("vatican", ["7S 2C", "3D"], stock="9C", on_table="4S 5S 6S")
    _, after = step(state, 1, Draw())
    move = Play(table=table("4S 5S 6S 7S"), added=cards("7S"))
    assert refused(after, 1, move) == ("not_your_turn", "RM-CORE-7")


# --- Guadeloupe (RM-GUA-3..5, RM-EX-11, RM-AMB-13) ---------------------------------------


def test_a_guadeloupe_player_who_plays_two_of_five_draws_one_at_the_end() -> None:
    """RM-GUA-4, RM-EX-11: 2 of his 5 cards played, 3 left, one drawn at the end: 4."""
    state = playing("guadeloupe", ["7S 8S 2C 3D KH", "3H"], stock="QC QD", on_table="4S 5S 6S")
    events, after = step(state, 1, Play(table=table("4S 5S 6S 7S 8S"), added=cards("7S 8S")))
    assert events == (
        TablePlayed(seat=1, table=table("4S 5S 6S 7S 8S"), names=(), added=cards("7S 8S")),
        CardsDrawn(seat=1, cards=cards("QC"), why="end"),
        TurnEnded(seat=1, turn=1, next=2),
    )
    assert after.hands[0] == cards("2C 3D KH QC")


def test_a_guadeloupe_player_who_draws_receives_two_cards_and_ends_his_turn() -> None:
    """RM-GUA-3, RM-EX-11: drawing instead of playing gives two cards and ends the turn."""
    state = playing("guadeloupe", ["7S 8S 2C 3D KH", "3H"], stock="QC QD QH", on_table="4S 5S 6S")
    events, after = step(state, 1, Draw())
    assert events == (CardsDrawn(seat=1, cards=cards("QC QD")), TurnEnded(seat=1, turn=1, next=2))
    assert len(after.hands[0]) == 7 and after.stock == cards("QH")


def test_a_guadeloupe_draw_from_a_short_stock_takes_what_is_left() -> None:
    """RM-GUA-5, RM-AMB-13: one card left, a draw of two takes that one."""
    state = playing("guadeloupe", ["2C 3D KH", "3H"], stock="QC")
    events, after = step(state, 1, Draw())
    assert events == (CardsDrawn(seat=1, cards=cards("QC")), TurnEnded(seat=1, turn=1, next=2))
    assert after.stock == ()


def test_a_guadeloupe_play_with_the_stock_empty_draws_nothing_at_the_end() -> None:
    """RM-GUA-5, RM-AMB-13: with the stock empty there is no end-of-turn draw."""
    state = playing("guadeloupe", ["7S 2C 3D", "3H"], stock="", on_table="4S 5S 6S")
    events, _ = step(state, 1, Play(table=table("4S 5S 6S 7S"), added=cards("7S")))
    assert events == (
        TablePlayed(seat=1, table=table("4S 5S 6S 7S"), names=(), added=cards("7S")),
        TurnEnded(seat=1, turn=1, next=2),
    )


def test_a_guadeloupe_play_that_takes_the_last_stock_card_at_the_end() -> None:
    """RM-GUA-4, RM-GUA-5: the end-of-turn draw takes the stock's last card."""
    state = playing("guadeloupe", ["7S 2C 3D", "3H"], stock="QC", on_table="4S 5S 6S")
    events, after = step(state, 1, Play(table=table("4S 5S 6S 7S"), added=cards("7S")))
    assert events[1] == CardsDrawn(seat=1, cards=cards("QC"), why="end")
    assert after.stock == ()


# --- the blocked round (RM-BLOCK-2, RM-EX-8, RM-AMB-14) -----------------------------------


def test_three_passes_in_a_row_block_a_three_player_round() -> None:
    """RM-BLOCK-2, RM-EX-8, RM-BLOCK-4, RM-MAC-6: P1 pass, P2 pass, P3 pass → blocked; the
    fewest cards (P1's two) win."""
    state = playing("machiavelli", ["2C 9D", "3D 4H 5C", "KH QH JH KS 2S"], stock="")
    events, state = step(state, 1, Pass())
    assert events == (TurnPassed(seat=1), TurnEnded(seat=1, turn=1, next=2))
    events, state = step(state, 2, Pass())
    assert events == (TurnPassed(seat=2), TurnEnded(seat=2, turn=2, next=3))
    events, state = step(state, 3, Pass())
    assert events == (
        TurnPassed(seat=3),
        RoundScored(
            round=1,
            how="blocked",
            hands=(cards("2C 9D"), cards("3D 4H 5C"), cards("KH QH JH KS 2S")),
            points=(2, 3, 5),
            totals=(2, 3, 5),
            winners=(1,),
            game_over=True,
            game_winners=(1,),
            final=(2, 3, 5),
        ),
    )
    assert state.phase == "over"


def test_a_play_between_passes_starts_the_count_again() -> None:
    """RM-BLOCK-2, RM-EX-8, RM-AMB-14: P1 pass, P2 plays, P3 pass, P1 pass → not blocked;
    P2's pass then blocks it."""
    state = playing(
        "machiavelli", ["2C 9D", "7S 4H 5C", "KH QH JH KS 2S"], stock="", on_table="4S 5S 6S"
    )
    _, state = step(state, 1, Pass())
    events, state = step(state, 2, Play(table=table("4S 5S 6S 7S"), added=cards("7S")))
    assert state.passes == 0
    _, state = step(state, 3, Pass())
    events, state = step(state, 1, Pass())
    assert events == (TurnPassed(seat=1), TurnEnded(seat=1, turn=4, next=2))
    assert state.passes == 2
    events, state = step(state, 2, Pass())
    assert events[0] == TurnPassed(seat=2)
    assert isinstance(events[1], RoundScored) and events[1].how == "blocked"


def test_a_draw_of_the_last_card_is_not_a_pass() -> None:
    """RM-AMB-14: only a turn ended by the Pass action counts; the draw that empties the
    stock does not, so two seats need two passes after it."""
    state = playing("machiavelli", ["2C", "3D"], stock="9C")
    events, state = step(state, 1, Draw())
    assert events == (CardsDrawn(seat=1, cards=cards("9C")), TurnEnded(seat=1, turn=1, next=2))
    events, state = step(state, 2, Pass())
    assert events == (TurnPassed(seat=2), TurnEnded(seat=2, turn=2, next=1))
    events, state = step(state, 1, Pass())
    assert events[0] == TurnPassed(seat=1)
    assert isinstance(events[1], RoundScored) and events[1].how == "blocked"
