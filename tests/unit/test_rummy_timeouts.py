"""What a started move costs (RM-OPT-3) and what the clock does when a turn runs out
(PF-TIMER-7, PF-TIMER-8, RM-AMB-26).

Given a round in play (built by hand), when the seat locks its move, gives it up, or the
system times the turn out, then exactly these events, or this refusal and nothing changed.

Rules: RM-OPT-3, RM-OPT-3a, RM-OPT-3b, RM-OPT-3c, RM-MAC-4, RM-GUA-6, RM-TAH-6, RM-EX-10,
RM-AMB-12, RM-AMB-14, RM-AMB-26, RM-BLOCK-2, PF-TIMER-7, PF-TIMER-8, PF-VAL-2, PF-AMB-17.
"""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine import protocol
from engine.errors import RuleViolation
from engine.rummy.game import GAME
from engine.rummy.messages import (
    CardsDrawn,
    Draw,
    FinalTurnsBegan,
    GiveUp,
    MoveLocked,
    Pass,
    Play,
    RoundScored,
    TablePlayed,
    Timeout,
    Touch,
    TurnEnded,
    TurnPassed,
)
from engine.rummy.options import options_from
from tests.unit.rummy_support import cards, playing, refused, step, table, trusting

_SYSTEM = 0
_LOCKING = ["machiavelli", "guadeloupe", "tahiti"]

# --- RM-OPT-3: undo_free and revert_draw_3 ------------------------------------------------


@pytest.mark.parametrize("variant", _LOCKING)
def test_under_undo_free_nothing_locks_and_nothing_is_given_up(variant: str) -> None:
    """RM-OPT-3a, RM-MOVE-4: Reset costs nothing, so the server hears of no started move."""
    state = playing(variant, ["7S 2C", "3D"], stock="9C 9D 9H", on_table="4S 5S 6S")
    assert refused(state, 1, Touch()) == ("no_lock", "RM-OPT-3a")
    assert refused(state, 1, GiveUp()) == ("not_locked", "RM-OPT-3b")


@pytest.mark.parametrize("variant", _LOCKING)
def test_a_touched_table_locks_the_turn_to_done_or_give_up(variant: str) -> None:
    """RM-OPT-3b, RM-AMB-12, PF-VAL-2, RM-MAC-4, RM-GUA-6, RM-TAH-6: the first change of
    the private table is reported and locks the turn: no draw, no pass, no second lock."""
    state = playing(
        variant,
        ["7S 2C", "3D"],
        stock="9C 9D 9H",
        on_table="4S 5S 6S",
        incomplete_move="revert_draw_3",
    )
    events, locked = step(state, 1, Touch())
    assert events == (MoveLocked(seat=1),)
    assert locked.locked and locked.turn == 1
    assert refused(locked, 1, Draw()) == ("move_locked", "RM-OPT-3b")
    assert refused(locked, 1, Touch()) == ("already_locked", "RM-OPT-3b")
    events, after = step(locked, 1, Play(table=table("4S 5S 6S 7S"), added=cards("7S")))
    assert events[0] == TablePlayed(seat=1, table=table("4S 5S 6S 7S"), names=(), added=cards("7S"))
    assert not after.locked


def test_a_locked_turn_cannot_pass_on_an_empty_stock() -> None:
    """RM-OPT-3b, RM-AMB-12: once locked, only Done or Give up."""
    state = playing(
        "machiavelli", ["7S 2C", "3D"], stock="", locked=True, incomplete_move="revert_draw_3"
    )
    assert refused(state, 1, Pass()) == ("move_locked", "RM-OPT-3b")


def test_giving_up_restores_the_table_and_draws_three_penalty_cards() -> None:
    """RM-OPT-3b, RM-EX-10: Machiavelli, the table was changed and could not be finished:
    "Give up (+3)" → table as it was, 3 cards drawn, turn over."""
    state = playing(
        "machiavelli",
        ["7H 2C", "3D"],
        stock="9C 9D 9H 9S",
        on_table="4S 5S 6S",
        incomplete_move="revert_draw_3",
    )
    _, state = step(state, 1, Touch())
    events, after = step(state, 1, GiveUp())
    assert events == (
        CardsDrawn(seat=1, cards=cards("9C 9D 9H"), why="penalty"),
        TurnEnded(seat=1, turn=1, next=2),
    )
    assert after.table == table("4S 5S 6S") and after.hands[0] == cards("7H 2C 9C 9D 9H")
    assert not after.locked and after.turn == 2 and after.passes == 0


def test_giving_up_with_two_cards_in_the_stock_draws_two() -> None:
    """RM-OPT-3c, RM-EX-10, RM-AMB-12: fewer than 3 in the stock → what is there."""
    state = playing(
        "machiavelli", ["7H 2C", "3D"], stock="9C 9D", locked=True, incomplete_move="revert_draw_3"
    )
    events, _ = step(state, 1, GiveUp())
    assert events == (
        CardsDrawn(seat=1, cards=cards("9C 9D"), why="penalty"),
        TurnEnded(seat=1, turn=1, next=2),
    )


def test_giving_up_on_an_empty_stock_is_a_pass_that_can_block_the_round() -> None:
    """RM-OPT-3c, RM-AMB-12, RM-AMB-14, RM-BLOCK-2: nothing drawn, and it counts as a pass:
    after two passes of three players, the give-up blocks the round."""
    state = playing(
        "machiavelli",
        ["7H 2C", "3D", "4D 5D 6C"],
        stock="",
        locked=True,
        passes=2,
        incomplete_move="revert_draw_3",
    )
    events, after = step(state, 1, GiveUp())
    assert events[0] == TurnPassed(seat=1)
    assert isinstance(events[1], RoundScored) and events[1].how == "blocked"
    assert events[1].winners == (2,)
    state = playing(
        "machiavelli", ["7H 2C", "3D", "4D"], stock="", locked=True, incomplete_move="revert_draw_3"
    )
    events, after = step(state, 1, GiveUp())
    assert events == (TurnPassed(seat=1), TurnEnded(seat=1, turn=1, next=2))
    assert after.passes == 1


@pytest.mark.parametrize("variant", ["manipulation", "shanghai", "carousel", "vatican"])
def test_revert_draw_3_is_refused_where_the_rules_do_not_give_it(variant: str) -> None:
    """RM-OPT-3: the option belongs to Machiavelli, Guadeloupe and Tahiti only."""
    with pytest.raises(RuleViolation) as caught:
        options_from(variant, incomplete_move="revert_draw_3")
    assert (caught.value.code, caught.value.rule_id) == ("bad_option", "RM-OPT-3")


# --- the turn timer (PF-TIMER-7, PF-TIMER-8, RM-AMB-26) -----------------------------------


def test_every_rummy_table_has_a_turn_timer_of_sixty_seconds_by_default() -> None:
    """PF-TIMER-7, RM-AMB-26: the seat on turn, 60 s, and the system's Timeout."""
    state = playing("vatican", ["2C", "3D", "4D"], stock="9C", turn=2, turn_no=4, round_no=1)
    assert state.options.turn_seconds == 60
    assert GAME.timer(state) == protocol.Timer(
        seat=2,
        seconds=60.0,
        command=Timeout(round=1, turn=4),
        command_id="timeout:1:4",
        kind="turn",
    )


def test_the_turn_timer_is_a_bounded_table_option() -> None:
    """PF-TIMER-7, RM-AMB-26: the host may choose a longer turn, within 60..600 s."""
    state = playing("tahiti", ["2C", "3D"], stock="9C", turn_seconds=300)
    timer = GAME.timer(state)
    assert timer is not None and timer.seconds == 300.0
    for bad in (0, 601):
        with pytest.raises(RuleViolation) as caught:
            options_from("tahiti", turn_seconds=bad)
        assert caught.value.rule_id == "PF-TIMER-7"


def test_the_turn_cannot_be_made_shorter_than_the_default() -> None:
    """PF-TIMER-7: 60 s by default; "the host may choose longer"."""
    with pytest.raises(RuleViolation) as caught:
        options_from("vatican", turn_seconds=30)
    assert (caught.value.code, caught.value.rule_id) == ("bad_option", "PF-TIMER-7")


def test_no_turn_timer_runs_between_rounds() -> None:
    """PF-TIMER-7: only a turn is timed."""
    state = playing("shanghai", ["2C", "3D"], stock="9C")
    assert GAME.timer(replace(state, phase="seeding")) is None


@pytest.mark.parametrize(
    ("variant", "drawn", "count"),
    [
        ("machiavelli", 0, 1),
        ("vatican", 0, 1),
        ("tahiti", 0, 1),
        ("guadeloupe", 0, 2),
        ("carousel", 0, 3),
        ("carousel", 1, 2),
        ("carousel", 2, 1),
        ("manipulation", 0, 1),
        ("manipulation", 2, 1),
        ("shanghai", 1, 1),
    ],
)
def test_a_timeout_makes_the_variants_draw_and_ends_the_turn(
    variant: str, drawn: int, count: int
) -> None:
    """PF-TIMER-8, PF-AMB-17: draw 1 (Guadeloupe 2, Carousel the draws still allowed); in
    Manipulation and Shanghai the timeout's draw ends the turn."""
    state = playing(
        variant, ["7S 2C", "3D"], stock="9C 9D 9H 9S", drawn=drawn, turn_no=3, **trusting(variant)
    )
    events, after = step(state, _SYSTEM, Timeout(round=1, turn=3))
    drawn_cards = cards("9C 9D 9H 9S")[:count]
    assert events == (
        CardsDrawn(seat=1, cards=drawn_cards, why="timeout"),
        TurnEnded(seat=1, turn=3, next=2),
    )
    assert after.hands[0] == cards("7S 2C") + drawn_cards


@pytest.mark.parametrize("variant", ["manipulation", "guadeloupe", "vatican"])
def test_a_timeout_on_an_empty_stock_is_a_pass(variant: str) -> None:
    """PF-TIMER-8, RM-AMB-14: a pass when the stock is empty; it counts for blocking."""
    state = playing(variant, ["7S 2C", "3D"], stock="", passes=1, **trusting(variant))
    events, _ = step(state, _SYSTEM, Timeout(round=1, turn=1))
    assert events[0] == TurnPassed(seat=1)
    assert isinstance(events[1], RoundScored) and events[1].how == "blocked"


def test_a_timeout_in_a_carousel_final_turn_is_a_pass() -> None:
    """PF-TIMER-8, RM-CAR-18: no draw in the final turns; the last one ends the round."""
    state = playing("carousel", ["7S 2C", "3D"], stock="", final_last=1)
    events, _ = step(state, _SYSTEM, Timeout(round=1, turn=1))
    assert events[0] == TurnPassed(seat=1)
    assert isinstance(events[1], RoundScored) and events[1].how == "stock_end"


def test_a_carousel_timeout_that_takes_the_last_card_starts_the_final_turns() -> None:
    """PF-TIMER-8, RM-CAR-18: the drawer's turn ends; the others' final turns follow."""
    state = playing("carousel", ["7S 2C", "3D"], stock="9C 9D", drawn=1)
    events, _ = step(state, _SYSTEM, Timeout(round=1, turn=1))
    assert events == (
        CardsDrawn(seat=1, cards=cards("9C 9D"), why="timeout"),
        FinalTurnsBegan(last=1),
        TurnEnded(seat=1, turn=1, next=2),
    )


def test_a_timeout_discards_a_locked_move_and_draws_one_not_three() -> None:
    """PF-TIMER-8, RM-OPT-3b: the private rearrangement is discarded and the variant's
    draw is made (not the give-up's penalty); the lock ends with the turn."""
    state = playing(
        "tahiti", ["7S 2C", "3D"], stock="9C 9D 9H", locked=True, incomplete_move="revert_draw_3"
    )
    events, after = step(state, _SYSTEM, Timeout(round=1, turn=1))
    assert events == (
        CardsDrawn(seat=1, cards=cards("9C"), why="timeout"),
        TurnEnded(seat=1, turn=1, next=2),
    )
    assert not after.locked


def test_a_stale_or_forged_timeout_is_refused() -> None:
    """PF-TIMER-8: only the system times out the turn being played."""
    state = playing("machiavelli", ["7S 2C", "3D"], stock="9C", turn_no=3, round_no=2)
    assert refused(state, _SYSTEM, Timeout(round=2, turn=2)) == ("stale_timeout", "PF-TIMER-8")
    assert refused(state, _SYSTEM, Timeout(round=1, turn=3)) == ("stale_timeout", "PF-TIMER-8")
    assert refused(state, 1, Timeout(round=2, turn=3)) == ("system_only", "PF-TIMER-8")
