"""Carousel's turn: up to three draws, the knock, and the final turns once the stock runs out
(rules/rummy.md §8, RM-AMB-15, RM-AMB-16).

Given a Carousel round in play (built by hand), when a seat draws, plays, knocks or passes,
then exactly these events, or this refusal and nothing changed. How the round's points
are counted is in test_rummy_scoring.py.

Rules: RM-CAR-3, RM-CAR-8, RM-CAR-9, RM-CAR-11, RM-CAR-17, RM-CAR-18, RM-CAR-19,
RM-CAR-20, RM-BLOCK-3, RM-EX-12, RM-EX-15, RM-AMB-15, RM-AMB-16.
"""

from __future__ import annotations

import pytest

from engine.rummy.messages import (
    CardsDrawn,
    Draw,
    FinalTurnsBegan,
    Pass,
    Play,
    RoundScored,
    TablePlayed,
    TurnEnded,
    TurnPassed,
)
from engine.rummy.state import State
from tests.unit.rummy_support import cards, playing, refused, step, table

RUN = "4S 5S 6S"


def _lay(hand_cards: str, knock: bool = False, run: str = RUN) -> Play:
    """Lay `hand_cards` at the high end of `run`, the table's only group."""
    return Play(table=table(f"{run} {hand_cards}"), added=cards(hand_cards), knock=knock)


# --- the draws (RM-CAR-8, RM-CAR-9) -------------------------------------------------------


def test_a_carousel_turn_starts_with_a_draw() -> None:
    """RM-CAR-8: no play before the turn's first card."""
    state = playing("carousel", ["7S 2C", "3D"], stock="9C 9D", on_table=RUN)
    assert refused(state, 1, _lay("7S")) == ("draw_first", "RM-CAR-8")


def test_the_first_and_second_draws_keep_the_turn_and_the_third_ends_it() -> None:
    """RM-CAR-9: after the first card, play or draw a second; after the second, play or draw
    a third; the third card ends the turn without playing."""
    state = playing("carousel", ["7C 2C", "3D"], stock="9C 9D 9H 9S", on_table=RUN)
    events, state = step(state, 1, Draw())
    assert events == (CardsDrawn(seat=1, cards=cards("9C")),)
    assert (state.turn, state.drawn) == (1, 1)
    events, state = step(state, 1, Draw())
    assert events == (CardsDrawn(seat=1, cards=cards("9D")),)
    assert (state.turn, state.drawn) == (1, 2)
    events, state = step(state, 1, Draw())
    assert events == (CardsDrawn(seat=1, cards=cards("9H")), TurnEnded(seat=1, turn=1, next=2))
    assert state.hands[0] == cards("7C 2C 9C 9D 9H") and state.turn == 2


def test_a_play_after_the_first_draw_ends_the_turn() -> None:
    """RM-CAR-9: after a card drawn, playing cards ends the turn."""
    state = playing("carousel", ["7S KC", "3D"], stock="9C 9D", on_table=RUN, drawn=1)
    events, _ = step(state, 1, _lay("7S"))
    assert events == (
        TablePlayed(seat=1, table=table(f"{RUN} 7S"), names=(), added=cards("7S")),
        TurnEnded(seat=1, turn=1, next=2),
    )


def test_carousel_runs_take_the_ace_at_either_end_but_never_in_the_middle() -> None:
    """RM-CAR-3: Q-K-A is a run; K-A-2 is not."""
    state = playing("carousel", ["AH 2H 9C", "3D"], stock="9D", on_table="JH QH KH", drawn=1)
    events, _ = step(state, 1, Play(table=table("JH QH KH AH"), added=cards("AH")))
    assert events[0] == TablePlayed(seat=1, table=table("JH QH KH AH"), names=(), added=cards("AH"))
    wrap = Play(table=table("JH QH KH AH 2H"), added=cards("AH 2H"))
    assert refused(state, 1, wrap) == ("ace_round_the_corner", "RM-ACE-4")


# --- the knock (RM-CAR-11, RM-EX-12, RM-AMB-16) -------------------------------------------


@pytest.mark.parametrize("drawn", [1, 2])
def test_a_knock_leaving_five_points_after_the_first_or_second_draw_ends_the_round(
    drawn: int,
) -> None:
    """RM-CAR-11, RM-EX-12, RM-AMB-16: hand A♣ 4♦ = 5 after the play → the knock commits
    the move and ends the round at once; the knocker's 5 are the fewest (others 12, 10)."""
    state = playing(
        "carousel", ["7S AC 4D", "3D 9H", "KC"], stock="9C 9D", on_table=RUN, drawn=drawn
    )
    events, after = step(state, 1, _lay("7S", knock=True))
    assert events == (
        TablePlayed(seat=1, table=table(f"{RUN} 7S"), names=(), added=cards("7S"), knock=True),
        RoundScored(
            round=1,
            how="knock",
            hands=(cards("AC 4D"), cards("3D 9H"), cards("KC")),
            points=((12 - 5) + (10 - 5), 0, 0),
            totals=(12, 0, 0),
            winners=(1,),
        ),
    )
    assert after.phase == "seeding"


def test_a_knock_leaving_six_points_is_refused() -> None:
    """RM-CAR-11, RM-EX-12: hand 6♠ = 6 after the play → no knock."""
    state = playing("carousel", ["7S 6S", "3D"], stock="9C 9D", on_table=RUN, drawn=1)
    assert refused(state, 1, _lay("7S", knock=True)) == ("no_knock", "RM-CAR-11")


def test_no_knock_after_the_third_draw_for_the_turn_is_over() -> None:
    """RM-CAR-11, RM-EX-12: after the third draw the turn is already over."""
    state = playing("carousel", ["7S AC", "3D"], stock="9C 9D 9H", on_table=RUN, drawn=2)
    _, state = step(state, 1, Draw())
    assert refused(state, 1, _lay("7S", knock=True)) == ("not_your_turn", "RM-CORE-7")


def test_no_knock_before_the_first_draw() -> None:
    """RM-CAR-8, RM-AMB-16 (b): a knock comes after the first or second draw."""
    state = playing("carousel", ["7S AC", "3D"], stock="9C 9D", on_table=RUN)
    assert refused(state, 1, _lay("7S", knock=True)) == ("draw_first", "RM-CAR-8")


def test_a_knock_that_empties_the_hand_is_refused() -> None:
    """RM-CAR-11, RM-AMB-16 (c): the knock needs at least one card left; an empty hand is
    the +25 win of RM-CAR-17, played without the knock."""
    state = playing("carousel", ["7S", "3D"], stock="9C 9D", on_table=RUN, drawn=1)
    assert refused(state, 1, _lay("7S", knock=True)) == ("no_knock", "RM-CAR-11")


def test_only_carousel_has_the_knock() -> None:
    """RM-CAR-11: the knock is Carousel's."""
    state = playing("machiavelli", ["7S AC", "3D"], stock="9C", on_table=RUN)
    assert refused(state, 1, _lay("7S", knock=True)) == ("no_knock", "RM-CAR-11")


def test_the_player_who_draws_the_last_card_may_still_knock() -> None:
    """RM-AMB-15: the stock emptied inside his turn, he may still play and knock; the
    knock ends the round, with no final turns."""
    state = playing("carousel", ["7S AC", "3D 9H"], stock="2C", on_table=RUN)
    _, state = step(state, 1, Draw())
    events, _ = step(state, 1, _lay("7S", knock=True))
    assert [type(e) for e in events] == [TablePlayed, RoundScored]
    assert isinstance(events[1], RoundScored) and events[1].how == "knock"


# --- the final turns (RM-CAR-18..20, RM-EX-15, RM-AMB-15) --------------------------------


def _p2_took_the_last_card() -> State:
    """RM-EX-15: P1 → P2 → P3; P2 draws the stock's last card."""
    state = playing(
        "carousel", ["2C 3D", "KH", "7S 4H"], stock="9C", on_table=RUN, turn=2, turn_no=5
    )
    events, state = step(state, 2, Draw())
    assert events == (CardsDrawn(seat=2, cards=cards("9C")),)
    return state


def test_the_last_card_drawn_without_a_knock_starts_the_final_turns() -> None:
    """RM-CAR-18, RM-AMB-15, RM-EX-15: P2 drew the last card and ends his turn without
    playing → final turns P3, P1, then P2."""
    state = _p2_took_the_last_card()
    assert refused(state, 2, Draw()) == ("stock_empty", "RM-BLOCK-1")
    events, state = step(state, 2, Pass())
    assert events == (
        TurnPassed(seat=2),
        FinalTurnsBegan(last=2),
        TurnEnded(seat=2, turn=5, next=3),
    )
    assert state.final_last == 2


def test_in_the_final_turns_nobody_draws_or_knocks_and_the_last_one_ends_the_round() -> None:
    """RM-CAR-18, RM-CAR-19, RM-EX-15, RM-AMB-18: P3, P1, P2 each play or pass, without
    drawing or knocking; then the fewest points (P3's 4♥) win the differences, no bonus."""
    state = _p2_took_the_last_card()
    _, state = step(state, 2, Pass())
    assert refused(state, 3, Draw()) == ("no_draw", "RM-CAR-18")
    assert refused(state, 3, _lay("7S", knock=True)) == ("no_knock", "RM-CAR-18")
    events, state = step(state, 3, _lay("7S"))  # no draw first in a final turn
    assert events == (
        TablePlayed(seat=3, table=table(f"{RUN} 7S"), names=(), added=cards("7S")),
        TurnEnded(seat=3, turn=6, next=1),
    )
    events, state = step(state, 1, Pass())
    assert events == (TurnPassed(seat=1), TurnEnded(seat=1, turn=7, next=2))
    events, state = step(state, 2, Pass())
    assert events == (
        TurnPassed(seat=2),
        RoundScored(
            round=1,
            how="stock_end",
            hands=(cards("2C 3D"), cards("KH 9C"), cards("4H")),
            points=(0, 0, (5 - 4) + (19 - 4)),
            totals=(0, 0, 16),
            winners=(3,),
        ),
    )
    assert state.rounds_won == (0, 0, 1)


def test_players_tied_for_fewest_at_the_stock_end_all_win() -> None:
    """RM-CAR-19, RM-EX-15, RM-AMB-18: tied players all win, each his own differences."""
    state = playing("carousel", ["4C", "KH 9C", "4H"], stock="", on_table=RUN, turn=1, final_last=3)
    _, state = step(state, 1, Pass())
    _, state = step(state, 2, Pass())
    events, _ = step(state, 3, Pass())
    scored = events[-1]
    assert isinstance(scored, RoundScored)
    assert (scored.how, scored.winners, scored.points) == ("stock_end", (1, 3), (15, 0, 15))


def test_passes_all_round_in_the_final_turns_do_not_block_the_round() -> None:
    """RM-BLOCK-3, RM-CAR-20: Carousel has no blocked round — three passes in a row in the
    final turns of three players end the turn, not the round; the last final turn does."""
    state = _p2_took_the_last_card()
    _, state = step(state, 2, Pass())
    events, state = step(state, 3, Pass())
    assert events == (TurnPassed(seat=3), TurnEnded(seat=3, turn=6, next=1))
    events, state = step(state, 1, Pass())  # the third pass in a row
    assert events == (TurnPassed(seat=1), TurnEnded(seat=1, turn=7, next=2))
    events, _ = step(state, 2, Pass())
    assert isinstance(events[-1], RoundScored) and events[-1].how == "stock_end"


def test_the_last_card_as_third_draw_starts_the_final_turns() -> None:
    """RM-CAR-9, RM-CAR-18: the third draw takes the stock's last card and ends the turn;
    the final turns follow, ending with the drawer."""
    state = playing("carousel", ["2C", "3D"], stock="9C", drawn=2)
    events, _ = step(state, 1, Draw())
    assert events == (
        CardsDrawn(seat=1, cards=cards("9C")),
        FinalTurnsBegan(last=1),
        TurnEnded(seat=1, turn=1, next=2),
    )


def test_a_play_after_drawing_the_last_card_starts_the_final_turns() -> None:
    """RM-CAR-18, RM-AMB-15: the drawer of the last card plays without knocking; the final
    turns start with the next player."""
    state = playing("carousel", ["7S KC", "3D"], stock="", on_table=RUN, drawn=1)
    events, _ = step(state, 1, _lay("7S"))
    assert events[1:] == (FinalTurnsBegan(last=1), TurnEnded(seat=1, turn=1, next=2))


def test_emptying_the_hand_in_a_final_turn_ends_the_round_at_once() -> None:
    """RM-CAR-19, RM-CAR-17: someone empties his hand in the final turns: he gains the
    others' hand points plus 25, at once."""
    state = playing("carousel", ["7S", "KH 9C", "4H"], stock="", on_table=RUN, turn=1, final_last=3)
    events, _ = step(state, 1, _lay("7S"))
    assert events[1] == RoundScored(
        round=1,
        how="out",
        hands=((), cards("KH 9C"), cards("4H")),
        points=(19 + 4 + 25, 0, 0),
        totals=(48, 0, 0),
        winners=(1,),
    )
