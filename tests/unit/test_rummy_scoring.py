"""Rummy scoring and the game's end, variant by variant (rules/rummy.md §4–§10, §11, §12).

Card values, then `scoring.score` given the hands at a round's end (and the totals and
rounds won before it), then a few rounds ended through `decide` to see the RoundScored
event carry it. Every example of RM-EX-4, 5, 7, 9, 12 (values), 13, 14, 16 and 20 is here.

Rules: RM-BLOCK-4, RM-MAN-6, RM-MAN-7, RM-MAN-8, RM-MAN-9, RM-OPT-2, RM-MAC-5, RM-MAC-6,
RM-SHA-4, RM-SHA-5, RM-GUA-7, RM-GUA-8, RM-CAR-10, RM-CAR-12..17, RM-CAR-19, RM-CAR-21,
RM-VAT-6, RM-VAT-7, RM-TAH-11, RM-TAH-12, RM-AMB-17..21, RM-AMB-23.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.rummy import scoring
from engine.rummy.messages import Pass, Play, RoundScored, SeedRevealed, TablePlayed
from engine.rummy.scoring import Score, hand_points
from tests.unit.rummy_support import SECRET, cards, playing, step, table


def _score(
    variant: str,
    how: str,
    hands: Sequence[str],
    *,
    mover: int = 1,
    totals: Sequence[int] | None = None,
    won: Sequence[int] | None = None,
    play_to: int = 200,
) -> Score:
    n = len(hands)
    return scoring.score(
        variant,
        how,
        [cards(h) for h in hands],
        mover=mover,
        totals=totals if totals is not None else (0,) * n,
        rounds_won=won if won is not None else (0,) * n,
        play_to=play_to,
    )


# --- card values (RM-MAN-6, RM-CAR-10, RM-TAH-11, RM-SHA-4, RM-MAC-5) ----------------------


def test_a_manipulation_hand_is_charged_fifteen_for_an_ace_ten_for_ten_to_king_five_else() -> None:
    """RM-MAN-6, RM-EX-4: A♠ 10♥ K♦ 5♣ 2♠ → 15 + 10 + 10 + 5 + 5 = 45."""
    assert hand_points(cards("AS 10H KD 5C 2S"), "manipulation") == 45
    assert [hand_points(cards(c), "manipulation") for c in ("JC", "QD", "9S", "3H")] == [
        10,
        10,
        5,
        5,
    ]


def test_a_carousel_hand_counts_joker_25_face_10_ace_1_and_pips() -> None:
    """RM-CAR-10, RM-EX-12: JK K A 9 → 25 + 10 + 1 + 9 = 45; A♣ 4♦ = 5; 6♠ = 6."""
    assert hand_points(cards("JK1 KC AD 9S"), "carousel") == 45
    assert hand_points(cards("AC 4D"), "carousel") == 5
    assert hand_points(cards("6S"), "carousel") == 6
    assert hand_points(cards("10H"), "carousel") == 10


def test_a_tahiti_hand_counts_joker_30_ace_11_face_10_and_pips() -> None:
    """RM-TAH-11, RM-EX-20: JK A Q 7 → 30 + 11 + 10 + 7 = 58."""
    assert hand_points(cards("JK1 AH QS 7D"), "tahiti") == 58
    assert hand_points(cards("10C JC 2C"), "tahiti") == 22


@pytest.mark.parametrize("variant", ["shanghai", "machiavelli", "guadeloupe", "vatican"])
def test_every_card_counts_one_where_cards_are_counted(variant: str) -> None:
    """RM-SHA-4, RM-MAC-5, RM-GUA-7, RM-VAT-7: a card left is one."""
    assert hand_points(cards("AS KD 10H 2C"), variant) == 4


# --- Manipulation (RM-MAN-6..9, RM-OPT-2, RM-EX-5) ------------------------------------------


def test_a_manipulation_round_charges_the_others_and_the_finisher_scores_nothing() -> None:
    """RM-MAN-6: penalties for the cards left; the player who went out scores 0."""
    result = _score("manipulation", "out", ["", "AS 10H", "2C"], totals=(20, 30, 40))
    assert result == Score(
        points=(0, 25, 5), totals=(20, 55, 45), winners=(1,), rounds_won=(1, 0, 0), game_over=False
    )


def test_a_blocked_manipulation_round_charges_every_hand_and_nobody_scores_zero() -> None:
    """RM-MAN-7, RM-AMB-20, RM-BLOCK-4: each is charged for his own hand."""
    result = _score("manipulation", "blocked", ["2C", "AS 10H", "KC"], mover=3)
    assert (result.points, result.totals, result.game_over) == ((5, 25, 10), (5, 25, 10), False)


@pytest.mark.parametrize(
    ("before", "hands", "after", "over", "game_winners"),
    [
        ((200, 150, 170), ["2C 3C", "", "2D 3D"], (210, 150, 180), True, (2,)),  # 150 wins
        ((200, 150, 140), ["2C", "", "2D 3D"], (205, 150, 150), False, ()),  # tie: again
        ((180, 120, 189), ["2C 3C", "", "2D 3D"], (190, 120, 199), False, ()),  # under 200
    ],
)
def test_manipulation_ends_when_a_total_reaches_the_target_with_a_single_lowest(
    before: tuple[int, ...],
    hands: list[str],
    after: tuple[int, ...],
    over: bool,
    game_winners: tuple[int, ...],
) -> None:
    """RM-MAN-8, RM-MAN-9, RM-EX-5, RM-AMB-2: 210/150/180 → the 150 player wins;
    205/150/150 → tie for lowest, another round; 190/120/199 → nobody reached 200."""
    result = _score("manipulation", "out", hands, mover=2, totals=before)
    assert (result.totals, result.game_over, result.game_winners) == (after, over, game_winners)
    assert result.final == (after if over else ())


def test_after_a_tied_round_the_next_round_is_checked_again() -> None:
    """RM-MAN-9, RM-AMB-21: the target stays reached; the first round with a single lowest
    total ends the game."""
    result = _score("manipulation", "out", ["2C", "", "2D"], mover=2, totals=(205, 150, 150))
    assert (result.totals, result.game_over) == ((210, 150, 155), True)
    assert result.game_winners == (2,) and result.final == (210, 150, 155)


def test_playing_to_300_goes_on_past_200() -> None:
    """RM-OPT-2: with play_to 300 a total of 210 ends nothing; 310 does."""
    hands = ["2C 3C", "", "2D 3D"]
    assert not _score(
        "manipulation", "out", hands, mover=2, totals=(200, 150, 170), play_to=300
    ).game_over
    end = _score("manipulation", "out", hands, mover=2, totals=(300, 150, 170), play_to=300)
    assert (end.game_over, end.game_winners) == (True, (2,))


# --- Shanghai (RM-SHA-4, RM-SHA-5, RM-EX-7) ------------------------------------------------


def test_shanghai_charges_one_point_a_card_and_never_ends_by_itself() -> None:
    """RM-SHA-4, RM-SHA-5, RM-EX-7: 4, 0 and 7 cards left → 4, 0, 7 added; no total ends
    the game, however high."""
    hands = ["2C 3C 4C 5C", "", "2D 3D 4D 5D 6D 7D 8D"]
    result = _score("shanghai", "out", hands, mover=2, totals=(500, 10, 900))
    assert result == Score(
        points=(4, 0, 7), totals=(504, 10, 907), winners=(2,), rounds_won=(0, 1, 0), game_over=False
    )
    blocked = _score("shanghai", "blocked", ["2C", "3C 4C", "5C"], mover=3)
    assert (blocked.points, blocked.game_over) == ((1, 2, 1), False)


# --- single rounds (RM-MAC-5/6, RM-GUA-7/8, RM-VAT-6/7, RM-TAH-11/12, RM-EX-9, RM-EX-20) -----


@pytest.mark.parametrize("variant", ["machiavelli", "guadeloupe", "vatican", "tahiti"])
def test_a_single_round_game_is_won_by_the_player_who_empties_his_hand(variant: str) -> None:
    """RM-MAC-5, RM-GUA-7, RM-VAT-6, RM-TAH-11, RM-AMB-23: one round; the result per player
    (the winner 0), no running total."""
    result = _score(variant, "out", ["2C 3C", "", "KD"], mover=2, totals=(99, 99, 99))
    per_card = {"tahiti": (5, 0, 10)}.get(variant, (2, 0, 1))
    assert result == Score(
        points=per_card,
        totals=per_card,
        winners=(2,),
        rounds_won=(0, 1, 0),
        game_over=True,
        game_winners=(2,),
        final=per_card,
    )


@pytest.mark.parametrize("variant", ["machiavelli", "guadeloupe", "vatican"])
def test_a_blocked_single_round_is_won_by_the_fewest_cards_and_a_shared_fewest_is_a_draw(
    variant: str,
) -> None:
    """RM-MAC-6, RM-GUA-8, RM-VAT-7, RM-EX-9: cards left 2 / 3 / 5 → the first player wins;
    3 / 3 / 5 → a draw."""
    won = _score(variant, "blocked", ["AC KC", "2D 3D 4D", "5H 6H 7H 8H 9H"], mover=3)
    assert (won.winners, won.game_over, won.game_winners) == ((1,), True, (1,))
    drawn = _score(variant, "blocked", ["AC KC QC", "2D 3D 4D", "5H 6H 7H 8H 9H"], mover=3)
    assert (drawn.winners, drawn.game_over, drawn.game_winners) == ((), True, ())


def test_a_blocked_tahiti_round_is_won_by_the_fewest_penalty_points() -> None:
    """RM-TAH-12, RM-EX-20: 58 / 12 / 12 points → a draw; 58 / 12 / 20 → the 12 wins
    (fewest points, not fewest cards: seat 2 holds more cards than seat 3)."""
    hand58 = "JK1 AH QS 7D"
    tied = _score("tahiti", "blocked", [hand58, "5C 4C 3C", "QC 2C"], mover=1)
    assert (tied.points, tied.winners, tied.game_winners) == ((58, 12, 12), (), ())
    won = _score("tahiti", "blocked", [hand58, "5C 4C 3C", "KC QC"], mover=1)
    assert (won.points, won.winners, won.game_winners) == ((58, 12, 20), (2,), (2,))


# --- Carousel (RM-CAR-12..17, RM-CAR-21, RM-EX-13, 14, 16, RM-AMB-17..19) --------------------


@pytest.mark.parametrize(
    ("hands", "winners", "points"),
    [
        (["4C", "9C", "KC QC"], (1,), (21, 0, 0)),  # K 4, B 9, C 20: the knocker wins
        (["5C", "3C", "KC"], (2,), (0, 19, 0)),  # K 5, B 3, C 10: B beats the knocker
        (["3C", "3D", "8C"], (2,), (0, 15, 0)),  # K 3, B 3, C 8: a tie goes to B
        (["5C", "2C", "2D", "9C"], (2, 3), (0, 20, 20, 0)),  # B and C both win
    ],
)
def test_after_a_knock_the_fewest_points_win_the_differences(
    hands: list[str], winners: tuple[int, ...], points: tuple[int, ...]
) -> None:
    """RM-CAR-12, RM-CAR-13, RM-CAR-14, RM-CAR-15, RM-EX-13, RM-AMB-17: K=4/B=9/C=20 → K
    gains 21; K=5/B=3/C=10 → B gains 19 (with 10); K=3/B=3/C=8 → B gains 15; K=5/B=2/C=2/
    D=9 → B and C gain 20 each."""
    result = _score("carousel", "knock", hands, mover=1)
    assert (result.winners, result.points, result.totals) == (winners, points, points)


def test_only_the_round_winners_totals_change() -> None:
    """RM-CAR-16, RM-AMB-17: losers gain nothing and lose nothing."""
    result = _score("carousel", "knock", ["5C", "3C", "KC"], mover=1, totals=(30, 40, 50))
    assert result.totals == (30, 59, 50)
    assert result.rounds_won == (0, 1, 0)


def test_emptying_the_hand_gains_every_other_hand_plus_twenty_five() -> None:
    """RM-CAR-17, RM-EX-14: opponents hold 12 and 30 → 12 + 30 + 25 = 67."""
    result = _score("carousel", "out", ["", "QC 2C", "KC QD JH"], mover=1)
    assert (result.points, result.winners) == ((67, 0, 0), (1,))


def test_at_the_stock_end_the_fewest_points_win_the_differences_without_bonus() -> None:
    """RM-CAR-19, RM-AMB-18: no knocker, no 10; tied players all win."""
    result = _score("carousel", "stock_end", ["4C", "KH 9C", "4H"], mover=2)
    assert (result.winners, result.points) == ((1, 3), (15, 0, 15))
    assert result.rounds_won == (1, 0, 1)


def test_the_carousel_game_ends_at_150_with_the_bonuses() -> None:
    """RM-CAR-21, RM-EX-16, RM-AMB-19: after the round P1 152, P2 120, P3 98, rounds won
    3/2/1 → 152 + 100 + 75 = 327, 120 + 50 = 170, 98 + 25 = 123 → P1 wins."""
    result = _score(
        "carousel", "out", ["", "2C", "3C"], mover=1, totals=(122, 120, 98), won=(2, 2, 1)
    )
    assert result == Score(
        points=(30, 0, 0),
        totals=(152, 120, 98),
        winners=(1,),
        rounds_won=(3, 2, 1),
        game_over=True,
        game_winners=(1,),
        final=(327, 170, 123),
    )


def test_every_player_at_150_gets_the_hundred_and_a_shared_highest_is_a_draw() -> None:
    """RM-CAR-21, RM-AMB-19: two players reach 150 in one round (a shared win counts for
    both); each gets 100; equal final totals are a draw."""
    result = _score(
        "carousel", "stock_end", ["2C", "2D", "KC"], mover=3, totals=(142, 142, 0), won=(1, 1, 0)
    )
    assert result.totals == (150, 150, 0)
    assert result.rounds_won == (2, 2, 0)
    assert result.final == (300, 300, 0)
    assert (result.game_over, result.game_winners) == (True, ())


def test_a_carousel_game_under_150_goes_on() -> None:
    """RM-CAR-21: nobody at 150 → another round."""
    result = _score("carousel", "out", ["", "2C"], mover=1, totals=(100, 0))
    assert (result.totals, result.game_over) == ((127, 0), False)


# --- through the decider ---------------------------------------------------------------------


def test_the_round_that_ends_a_manipulation_game_is_scored_and_its_secret_revealed() -> None:
    """RM-MAN-6, RM-MAN-8: the finisher's last card ends round 3; totals 210/150/180 end the
    game; the round's secret follows its end (PF-FAIR-3)."""
    state = playing(
        "manipulation",
        ["2C 3C", "7S", "2D 3D"],
        on_table="4S 5S 6S",
        turn=2,
        totals=(200, 150, 170),
        round_no=3,
        secret=SECRET,
        compulsory_play="trust_player",
    )
    events, after = step(state, 2, Play(table=table("4S 5S 6S 7S"), added=cards("7S")))
    assert events == (
        TablePlayed(seat=2, table=table("4S 5S 6S 7S"), names=(), added=cards("7S")),
        RoundScored(
            round=3,
            how="out",
            hands=(cards("2C 3C"), (), cards("2D 3D")),
            points=(10, 0, 10),
            totals=(210, 150, 180),
            winners=(2,),
            game_over=True,
            game_winners=(2,),
            final=(210, 150, 180),
        ),
        SeedRevealed(deal=3, secret=SECRET),
    )
    assert after.phase == "over" and after.result is not None
    assert after.result.secret == SECRET


def test_a_blocked_shanghai_round_charges_every_hand_and_the_game_goes_on() -> None:
    """RM-SHA-4, RM-SHA-5, RM-MAN-7: the last of two passes blocks the round; the next
    round waits for its secret."""
    state = playing(
        "shanghai", ["2C 3C", "7S"], passes=1, totals=(4, 9), compulsory_play="trust_player"
    )
    events, after = step(state, 1, Pass())
    assert events[1] == RoundScored(
        round=1,
        how="blocked",
        hands=(cards("2C 3C"), cards("7S")),
        points=(2, 1),
        totals=(6, 10),
        winners=(2,),
    )
    assert after.phase == "seeding" and after.totals == (6, 10)
