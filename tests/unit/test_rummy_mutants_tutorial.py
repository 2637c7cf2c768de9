"""The guided Manipulation lesson (engine/rummy/tutorial.py): what a page names, what it
says of the computer's turn, the refusals of a step outside the lesson, and how the
script's moves become tables (engine/rummy/tutorial_script.py `play_of`).

Written against the survivors of mutation testing (scripts/mutate.sh, docs/testing.md):
no test read a page's game, lesson or step count, the computer's commands on a page, the
step and verdict of a command sent after the end, the refusal of a page that does not
exist, or a script move the lesson never makes (a run cut in two, an unknown edit).

Rules: PF-MODE-3, PF-AMB-14, RM-MOVE-1, RM-MAN-4, RM-ACE-1, RM-EX-3.
"""

from __future__ import annotations

import pytest

from engine import lessons
from engine.errors import RuleViolation
from engine.rummy import tutorial, tutorial_script, tutorial_text
from engine.rummy.messages import Deal, Draw, Pass

LESSON = tutorial.LESSON


@pytest.mark.parametrize("done", [-1, 8, 100])
def test_a_page_outside_the_lesson_is_refused_naming_its_steps(done: int) -> None:
    """PF-MODE-3: the lesson has pages 0 to 7 (the start and after each of its 7 steps);
    any other is refused, with its code, rule and the steps it has."""
    with pytest.raises(RuleViolation) as refused:
        LESSON.page(done)
    assert refused.value.code == "bad_step"
    assert refused.value.rule_id == "PF-MODE-3"
    assert refused.value.message == "the lesson has steps 0 to 7"


def test_every_page_names_its_game_lesson_and_steps() -> None:
    """PF-MODE-3: a page belongs to rummy's lesson "manipulation" of 7 steps."""
    for done in range(LESSON.steps + 1):
        page = LESSON.page(done)
        assert (page.game, page.lesson, page.done, page.steps) == (
            "rummy",
            "manipulation",
            done,
            7,
        )


def test_a_page_carries_the_computers_turn_and_says_what_it_did() -> None:
    """PF-MODE-3, RM-MAN-4, RM-MOVE-1: after the learner's first step the computer draws
    twice (nothing to play) and lays 5♦ 5♥ 5♠: the page holds those three commands and
    tells them after what the learner did."""
    page = LESSON.page(1)
    assert page.computer == tutorial._stages()[1].computer
    assert page.computer[:2] == (Draw(), Draw())
    assert len(page.computer) == 3
    assert page.said is not None
    assert page.said.en == (
        "You laid 8♣ 8♦ 8♥; your turn is over. "
        "Then the computer drew 2 cards and laid 5♦ 5♥ 5♠. Your turn."
    )
    assert page.said.ar.endswith("دورك الآن.")
    assert LESSON.page(0).computer == ()


@pytest.mark.parametrize("done", [7, 8, -1])
def test_a_command_after_the_last_step_is_refused_as_the_lesson_over(done: int) -> None:
    """PF-MODE-3: with no step left, any command is refused for the step it was sent for
    (steps count from 1), as something the lesson no longer takes: not allowed, no
    command expected, the lesson's closing words."""
    with pytest.raises(lessons.LessonRefused) as refused:
        LESSON.advance(done, Pass())
    assert refused.value.code == "lesson_over"
    assert refused.value.step == done + 1
    assert refused.value.allowed is False
    assert refused.value.expect is None
    assert refused.value.explanation == tutorial_text.OVER


def test_the_lessons_record_names_its_game_seats_and_round() -> None:
    """PF-AMB-14, PF-MODE-3: the lesson's deal record is a rummy record of a Manipulation
    table of two, "learner" and "computer", hosted by the learner: one round, number 1,
    dealt from the published secret with no client seeds, its commitment stored with the
    secret blank (revealed only in the round's own entry)."""
    record = tutorial.record()
    assert record.game == "rummy"
    assert record.options == {"variant": "manipulation", "seats": 2}
    assert record.seats == ("learner", "computer")
    (only,) = record.rounds
    assert (only.number, only.secret, only.client_seeds) == (1, tutorial_script.SECRET, ("", ""))
    assert only.commands[0] == (0, Deal())
    assert only.events[0].secret == ""  # type: ignore[union-attr]


def test_the_learner_hosts_the_lessons_table() -> None:
    """PF-AMB-14: the learner's seat opens the lesson's table as its host."""
    state = tutorial.initial_state()
    assert state.host == tutorial_script.LEARNER == 1
    assert tutorial.record().host == tutorial_script.LEARNER


# --- the script's moves (engine/rummy/tutorial_script.py play_of) -----------------------


def test_the_scripts_groups_are_written_low_to_high_the_ace_above_the_king() -> None:
    """RM-ACE-1 (the lesson is Manipulation): a laid run reads from its lowest card, the
    ace after the king; a set reads in suit order, clubs to spades."""
    laid = tutorial_script.play_of((), [("lay", ("AS#1", "10S#1", "KS#1", "JS#1", "QS#1"))])
    assert laid == (("10S#1", "JS#1", "QS#1", "KS#1", "AS#1"),)
    a_set = tutorial_script.play_of((), [("lay", ("9S#1", "9C#2", "9H#1"))])
    assert a_set == (("9C#2", "9H#1", "9S#1"),)


def test_a_card_taken_from_inside_a_run_leaves_both_parts_on_the_table() -> None:
    """RM-MOVE-1, RM-EX-3: taking 7S out of 4S..10S leaves 4S 5S 6S in the run's place
    and 8S 9S 10S as a new group; the taken card forms a new group with the hand's."""
    run = ("4S#1", "5S#1", "6S#1", "7S#1", "8S#1", "9S#1", "10S#1")
    after = tutorial_script.play_of((run,), [("take", ((0, "7S#1"),), ("7H#1", "7D#1"))])
    assert after == (
        ("4S#1", "5S#1", "6S#1"),
        ("8S#1", "9S#1", "10S#1"),
        ("7D#1", "7H#1", "7S#1"),
    )


def test_an_edit_the_script_does_not_know_is_refused_by_name() -> None:
    """The script's moves are "lay", "add" and "take" only; anything else is an error in
    the script, named, never a silent no-op."""
    with pytest.raises(ValueError, match="not an edit of the lesson: \\('swap', 0\\)"):
        tutorial_script.play_of((("4S#1", "5S#1", "6S#1"),), [("swap", 0)])
