"""Rule cases of groups, tables, turns and scores that no test pinned before mutation
testing (scripts/mutate.sh, docs/testing.md) showed them: each test here failed against a
surviving mutant of engine/rummy (groups.py, rules.py, scoring.py).

Rules: RM-GRP-3, RM-ACE-1, RM-MOVE-3, RM-MOVE-5, RM-VAT-5, RM-AMB-11, RM-CAR-18,
RM-CAR-19, RM-BLOCK-2, RM-MAN-8, RM-OPT-2, RM-AMB-22, RM-SHA-5, PF-FAIR-1, PF-AMB-12.
"""

from __future__ import annotations

import pytest

from engine.errors import RuleViolation
from engine.rummy import scoring
from engine.rummy.groups import TableViolation, check_group, check_table
from engine.rummy.messages import (
    CommitSeed,
    Deal,
    GameStopped,
    Play,
    RoundScored,
    SendClientSeed,
    StopGame,
    TablePlayed,
    TurnEnded,
)
from engine.rummy.options import options_from
from engine.rummy.rules import decide
from engine.rummy.state import State
from engine.rummy.variants import MANIPULATION
from tests.unit.rummy_support import SECRET, cards, playing, step, table

_SYSTEM = 0


def _table_refusal(after: str, before: str, hand: str) -> tuple[str, str, str, int | None]:
    with pytest.raises(TableViolation) as caught:
        check_table(table(after), table(before), cards(hand), MANIPULATION)
    e = caught.value
    return e.code, e.rule_id, e.message, e.group


# --- the table as a whole (RM-MOVE-3, RM-MOVE-5) --------------------------------------------


def test_a_card_laid_twice_is_refused_at_its_second_group() -> None:
    """RM-MOVE-5: one identity in two groups; the second group is at fault."""
    assert _table_refusal("7H 8H 9H | 7H 7S 7D", "", "7H 8H 9H 7S 7D") == (
        "duplicate_card",
        "RM-MOVE-5",
        "7H#1 lies twice on the table",
        1,
    )


def test_every_table_card_left_off_is_named_in_the_refusal() -> None:
    """RM-MOVE-3: the cards missing from the rebuilt table are all listed, comma-separated;
    no group is at fault."""
    assert _table_refusal("9H 10H JH", "7H 8H 9H", "10H JH") == (
        "table_card_removed",
        "RM-MOVE-3",
        "every card on the table must stay on it; missing 7H#1, 8H#1",
        None,
    )


def test_a_card_from_outside_the_hand_is_refused_at_its_group() -> None:
    """RM-MOVE-5 (b): the added cards come from the mover's hand."""
    assert _table_refusal("2C 3C 4C | 7H 8H 9H", "2C 3C 4C", "2C") == (
        "not_in_hand",
        "RM-MOVE-5",
        "7H#1 is not in the mover's hand",
        1,
    )


# --- runs with an ace and a gap (RM-GRP-3, RM-ACE-1) ----------------------------------------


@pytest.mark.parametrize("text", ["AH 5H KH", "AH 2H 4H", "AH 4H 5H 6H"])
def test_a_run_with_an_ace_and_a_gap_is_a_gap_not_a_turned_corner(text: str) -> None:
    """RM-GRP-3, RM-ACE-1: an ace in cards that are not consecutive by any reading, and
    not consecutive round the corner either (K A 2), has a gap."""
    with pytest.raises(RuleViolation) as caught:
        check_group(cards(text), MANIPULATION)
    assert (caught.value.code, caught.value.rule_id) == ("run_gap", "RM-GRP-3")


def test_a_long_run_round_the_corner_is_refused_as_such() -> None:
    """RM-ACE-1: Q K A 2 3 turns the corner (in every variant, RM-EX-1)."""
    with pytest.raises(RuleViolation) as caught:
        check_group(cards("QH KH AH 2H 3H"), MANIPULATION)
    assert (caught.value.code, caught.value.rule_id) == ("ace_round_the_corner", "RM-ACE-1")


# --- Vatican's first play (RM-VAT-5, RM-AMB-11) ---------------------------------------------


@pytest.mark.parametrize(
    ("hand", "laid", "names"),
    [
        ("7H 7S 7D 2C", "7H 7S 7D", {}),  # a set, not a run
        ("5H 6H JK1 2C", "5H 6H JK1", {"JK#1": "7H"}),  # two natural cards and a joker
        ("5H JK1 7H 8H 2C", "5H JK1 7H 8H", {"JK#1": "6H"}),  # three natural, not in sequence
    ],
)
def test_a_vatican_first_play_without_three_natural_cards_in_sequence_is_refused(
    hand: str, laid: str, names: dict[str, str]
) -> None:
    """RM-VAT-5, RM-AMB-11: the first move lays a new run holding three natural cards of one
    suit in sequence from the hand; a set, a joker in place of the third, or a joker between
    them is not that."""
    state = playing("vatican", [hand, "3D 4D"], stock="5S", opened=[False, True])
    command = Play(table=table(laid), added=cards(laid), names=names)
    with pytest.raises(TableViolation) as caught:
        decide(state, 1, command)
    e = caught.value
    assert (e.code, e.rule_id, e.group) == ("first_play_needs_run", "RM-VAT-5", None)
    assert e.message == (
        "a first play must lay a new run of 3 natural cards of one suit from the hand"
    )


def test_a_vatican_first_play_with_a_joker_beyond_the_three_is_accepted() -> None:
    """RM-AMB-11: the run may hold a joker beyond its three natural cards."""
    state = playing("vatican", ["5H 6H 7H JK1 2C", "3D 4D"], stock="5S", opened=[False, True])
    command = Play(table=table("5H 6H 7H JK1"), added=cards("5H 6H 7H JK1"), names={"JK#1": "8H"})
    events, after = step(state, 1, command)
    assert isinstance(events[0], TablePlayed)
    assert after.opened == (True, True)


# --- a play's hand cards (RM-MOVE-5) --------------------------------------------------------


@pytest.mark.parametrize(
    ("added", "said"),
    [("7H", "7H#1"), ("7H 8H", "7H#1, 8H#1"), ("", "nothing")],
)
def test_a_play_must_list_exactly_the_hand_cards_it_adds(added: str, said: str) -> None:
    """RM-MOVE-5: the command's `added` must be the cards the table gains from the hand;
    the refusal names both lists."""
    state = playing("machiavelli", ["7H 8H 9H 2C", "3D 4D"], stock="5S")
    with pytest.raises(RuleViolation) as caught:
        decide(state, 1, Play(table=table("7H 8H 9H"), added=cards(added)))
    e = caught.value
    assert (e.code, e.rule_id) == ("added_mismatch", "RM-MOVE-5")
    assert e.message == f"the move adds 7H#1, 8H#1, 9H#1 from the hand, not {said}"


# --- turns and round ends (RM-BLOCK-2, RM-CAR-18, RM-CAR-19) ---------------------------------


def test_a_play_after_the_others_passed_keeps_the_round_going() -> None:
    """RM-BLOCK-2: a round is blocked only by N passes in a row; a play breaks the row,
    even when everyone else has just passed on an empty stock."""
    state = playing("machiavelli", ["7H 8H 9H 2C", "3D 4D"], passes=1)
    events, after = step(state, 1, Play(table=table("7H 8H 9H"), added=cards("7H 8H 9H")))
    assert [type(e) for e in events] == [TablePlayed, TurnEnded]
    assert after.phase == "play" and after.passes == 0


def test_the_last_final_turn_of_carousel_scores_the_hand_left_after_its_play() -> None:
    """RM-CAR-18, RM-CAR-19: the seat that drew the last card plays in its final turn
    without emptying its hand; the round ends there, scored on the hands as the play left
    them (7 8 9 are on the table, the 2 stays in hand)."""
    state = playing("carousel", ["7H 8H 9H 2C", "3D 4D"], final_last=1, turn=1)
    events, _ = step(state, 1, Play(table=table("7H 8H 9H"), added=cards("7H 8H 9H")))
    scored = events[1]
    assert isinstance(scored, RoundScored)
    assert scored.how == "stock_end"
    assert scored.hands == (cards("2C"), cards("3D 4D"))
    # Seat 1 holds 2 points, seat 2 holds 7: seat 1 wins the difference (RM-CAR-19).
    assert scored.winners == (1,) and scored.points == (5, 0)


# --- Manipulation's target (RM-MAN-8, RM-OPT-2) ---------------------------------------------


def test_a_manipulation_total_of_exactly_the_target_ends_the_game() -> None:
    """RM-MAN-8, RM-OPT-2: "reaches or exceeds" 200 (the default target): 190 + 10 = 200
    ends it; the lowest total wins and the round's win is counted."""
    result = scoring.score(
        "manipulation",
        "out",
        [cards("KS"), ()],
        mover=2,
        totals=(190, 0),
        rounds_won=(1, 0),
    )
    assert result.totals == (200, 0)
    assert result.game_over and result.game_winners == (2,)
    assert result.rounds_won == (1, 1)
    assert result.final == (200, 0)


def test_a_table_playing_to_300_goes_on_past_200() -> None:
    """RM-OPT-2, RM-MAN-8: under play_to 300 a total of 210 does not end the game; the
    option reaches the score through `decide`."""
    state = playing(
        "manipulation", ["KS KD 5C", "7H 8H 9H"], stock="2S", totals=[185, 0], turn=2,
        play_to=300,
    )  # fmt: skip
    events, after = step(state, 2, Play(table=table("7H 8H 9H"), added=cards("7H 8H 9H")))
    scored = events[1]
    assert isinstance(scored, RoundScored)
    assert scored.totals == (210, 0) and not scored.game_over
    assert after.phase == "seeding"


# --- Shanghai's stop (RM-AMB-22, RM-SHA-5) --------------------------------------------------


def test_a_shanghai_game_stopped_before_its_first_deal_has_everyone_level() -> None:
    """RM-AMB-22: stopped before any round was dealt, every total is 0 and every seat
    shares the lead; no round was in progress."""
    state = State(options=options_from("shanghai", seats=3))
    (stopped,) = decide(state, 1, StopGame())
    assert stopped == GameStopped(round=0, totals=(0, 0, 0), winners=(1, 2, 3))


def test_a_shanghai_game_stopped_while_a_round_is_committed_names_that_round() -> None:
    """RM-AMB-22, PF-FAIR-3: the round committed but not yet dealt is the one in progress
    (not counted); the stop ends it, so its secret is revealed right after."""
    state = State(options=options_from("shanghai", seats=2))
    _, state = step(state, _SYSTEM, CommitSeed(secret=SECRET))
    assert state.phase == "seeded"
    events = decide(state, 1, StopGame())
    assert events[0] == GameStopped(round=1, totals=(0, 0), winners=(1, 2))


# --- the deal and the seats' seeds (PF-FAIR-1, PF-AMB-12) -----------------------------------


def test_no_deal_while_a_round_is_played_even_with_its_secret_kept() -> None:
    """PF-FAIR-1: the system deals a committed round once; a Deal during play is refused
    although the round's secret is still held."""
    state = playing("machiavelli", ["7H", "3D"], stock="5S", secret=SECRET)
    with pytest.raises(RuleViolation) as caught:
        decide(state, _SYSTEM, Deal())
    assert (caught.value.code, caught.value.rule_id) == ("wrong_phase", "PF-FAIR-1")


def test_a_seat_sends_its_client_seed_once_a_round() -> None:
    """PF-AMB-12 (h): one client seed per seat and round; the second is refused and the
    other seats may still send theirs."""
    state = State(options=options_from("machiavelli", seats=2))
    _, state = step(state, _SYSTEM, CommitSeed(secret=SECRET))
    _, state = step(state, 1, SendClientSeed(seed="first"))
    assert state.seeds_sent == (True, False)
    with pytest.raises(RuleViolation):
        decide(state, 1, SendClientSeed(seed="again"))
    _, state = step(state, 2, SendClientSeed(seed="mine"))
    assert state.client_seeds == ("first", "mine")
