"""The guided Manipulation lesson (engine/rummy/tutorial.py) and the lesson registry
(engine/lessons.py), without I/O: PF-MODE-3 (a guided lesson inside a real game), PF-AMB-14
(a fixed, published secret, so the lesson's deal is always the same), and the rules each
step shows (RM-MOVE-1, RM-MAN-4, RM-EX-3, RM-OPT-1a, RM-MOVE-7). The gateway's book of live
lessons (services/gateway/tutorial.py) is checked here too, with a clock of its own."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from engine import fair, lessons
from engine.errors import RuleViolation
from engine.fairness import SeedRevealed
from engine.rummy import tutorial, tutorial_script
from engine.rummy.deal import deal
from engine.rummy.groups import check_group
from engine.rummy.messages import (
    CardsDrawn,
    Draw,
    Pass,
    Play,
    PlayReminded,
    RoundDealt,
    RoundScored,
    TablePlayed,
    TurnEnded,
)
from engine.rummy.record import verify
from engine.rummy.rules import decide
from engine.rummy.search import find_move
from engine.rummy.variants import MANIPULATION
from services.gateway.errors import ApiError
from services.gateway.tutorial import LessonBook

LESSON = tutorial.LESSON
STAGES = tutorial._stages()
TOPICS = [step.topic for step in tutorial_script.SCRIPT]
_ARABIC = re.compile(r"[\u0600-\u06FF]")


def _step(topic: str) -> int:
    """The index (steps done before it) of the lesson's step about `topic`."""
    return TOPICS.index(topic)


def _pages() -> list[lessons.Page]:
    return [LESSON.page(done) for done in range(LESSON.steps + 1)]


# --- the deal ---------------------------------------------------------------------------


def test_the_lessons_deal_comes_from_the_published_secret_and_is_the_same_every_time() -> None:
    """PF-AMB-14: the round is dealt from the lesson's published secret with empty client
    seeds (RM-AMB-4's order, RM-CORE-7's fair draw), so dealing it again from the secret
    alone gives the same hands and stock, every time; the learner plays first."""
    secret = bytes.fromhex(LESSON.secret)
    entropy = fair.entropy(("", ""))
    assert LESSON.secret == tutorial_script.SECRET and len(secret) == 32
    assert fair.first_draw(secret, entropy, 2) == tutorial_script.LEARNER
    hands, _, stock = deal(MANIPULATION, 2, secret, entropy, first=1)
    once, again = tutorial.initial_state(), tutorial.initial_state()
    assert once == again
    assert (once.hands, once.stock, once.turn) == (hands, stock, 1)
    assert LESSON.page(0).view.hand == hands[0]
    dealt = tutorial.record().rounds[0].events[1]
    assert isinstance(dealt, RoundDealt) and dealt.hands == hands


def test_the_lessons_round_verifies_like_any_round_and_a_changed_card_does_not() -> None:
    """PF-AMB-14, PF-MODE-3: the lesson's round is a real round: its record (secret, seeds,
    every command, every event) verifies like any round's, and reveals its secret at the
    end; a record with one card changed is refused."""
    record = tutorial.record()
    assert verify(record).passed
    log = record.rounds[0]
    assert log.client_seeds == ("", "") and log.secret == LESSON.secret
    assert isinstance(log.events[-1], SeedRevealed) and log.events[-1].secret == LESSON.secret
    dealt = log.events[1]
    assert isinstance(dealt, RoundDealt)
    hands = (("2C#1", *dealt.hands[0][1:]), dealt.hands[1])
    forged = replace(log, events=(log.events[0], replace(dealt, hands=hands), *log.events[2:]))
    assert not verify(replace(record, rounds=(forged,))).passed


# --- the steps --------------------------------------------------------------------------


def test_every_step_takes_one_command_the_rules_accept_and_the_lesson_ends_over() -> None:
    """PF-MODE-3: each step names the exact command it takes, the rules accept it from the
    learner in that state (the lesson is the game's own rules), and sending each in turn
    walks the lesson to its end."""
    page = LESSON.page(0)
    for done in range(LESSON.steps):
        assert page.done == done and not page.over and page.expect is not None
        decide(STAGES[done].state, tutorial_script.LEARNER, page.expect)  # no RuleViolation
        page = LESSON.advance(done, page.expect)
    assert page.over and page.done == LESSON.steps == 7 and page.expect is None


def test_the_learner_lays_a_set_from_the_hand_then_adds_a_card_to_a_group() -> None:
    """RM-MOVE-1: the first step lays a new group made only of hand cards; a later one adds
    one hand card to a group already on the table."""
    lay = STAGES[_step("lay") + 1].events[0]
    assert isinstance(lay, TablePlayed) and len(lay.table) == 1
    assert set(lay.table[0]) == set(lay.added) and len(lay.added) == 3
    before = STAGES[_step("add")].state.table
    add = STAGES[_step("add") + 1].events[0]
    assert isinstance(add, TablePlayed) and len(add.added) == 1
    grown = next(g for g in add.table if add.added[0] in g)
    assert any(set(grown) == {*g, add.added[0]} for g in before)


def test_the_learner_draws_when_nothing_can_be_played_and_the_turn_goes_on() -> None:
    """RM-MAN-4, RM-OPT-1d: with no move at all (the search proves none), Draw takes one
    card and the turn does not end; the next step plays in the same turn."""
    done = _step("draw_nothing")
    state = STAGES[done].state
    assert find_move(state.table, {}, state.hands[0], MANIPULATION) is None
    events = STAGES[done + 1].events
    (drawn,) = events
    assert isinstance(drawn, CardsDrawn) and drawn.seat == 1 and len(drawn.cards) == 1
    assert STAGES[done + 1].state.turn == 1 and STAGES[done + 1].computer == ()


def test_the_learner_rearranges_the_table_as_rm_ex_3() -> None:
    """RM-EX-3, RM-MOVE-1/3: a card is taken out of a group on the table, which stays a
    valid group, and forms a new group with two hand cards; every table card stays."""
    done = _step("take")
    before = STAGES[done].state.table
    played = STAGES[done + 1].events[0]
    assert isinstance(played, TablePlayed) and len(played.added) == 2
    new = next(g for g in played.table if set(played.added) <= set(g))
    moved = [c for c in new if c not in played.added]
    assert len(moved) == 1 and any(moved[0] in g for g in before)
    source = next(g for g in before if moved[0] in g)
    rest = [c for c in source if c != moved[0]]
    assert tuple(rest) in played.table
    check_group(rest, MANIPULATION)
    check_group(new, MANIPULATION)
    assert {c for g in before for c in g} <= {c for g in played.table for c in g}


def test_draw_pressed_with_a_move_in_hand_is_answered_by_the_reminder_and_nothing_is_drawn() -> (
    None
):
    """RM-OPT-1a (RM-EX-6's situation): under reminder_with_hint, Draw while a move exists
    draws nothing; the reminder shows a hand card and its group, and the next step plays
    exactly that card into that group."""
    done = _step("remind")
    before = STAGES[done].state
    events = STAGES[done + 1].events
    (hint,) = events
    assert isinstance(hint, PlayReminded) and hint.seat == 1
    after = STAGES[done + 1].state
    assert (after.hands, after.stock) == (before.hands, before.stock)
    assert LESSON.page(done + 1).view.reminder is not None
    play = STAGES[done + 1].expect
    assert isinstance(play, Play) and play.added == (hint.card,)
    (group,) = hint.groups
    assert any(set(g) == {*before.table[group], hint.card} for g in play.table)


def test_the_last_card_played_ends_the_round_won_by_the_learner_and_reveals_the_secret() -> None:
    """RM-MOVE-7, RM-MAN-6, PF-FAIR-3: the last step empties the learner's hand; the round
    ends at once, scored 0 for the learner, and the round's secret is revealed."""
    events = STAGES[-1].events
    assert [type(e) for e in events] == [TablePlayed, RoundScored, SeedRevealed]
    scored = events[1]
    assert isinstance(scored, RoundScored)
    assert scored.how == "out" and scored.winners == (1,) and scored.points[0] == 0
    assert scored.points[1] > 0 and STAGES[-1].state.hands[0] == ()
    assert not any(isinstance(e, TurnEnded) for e in events)


def test_the_computers_turns_are_commands_the_rules_decide() -> None:
    """PF-MODE-3: the computer's turns are scripted commands of seat 2, each decided by the
    rules (its draws too, as draws with nothing to play: no reminder in its turns)."""
    state = STAGES[0].state
    for done, stage in enumerate(STAGES[1:]):
        expect = STAGES[done].expect
        assert expect is not None
        state = tutorial._fold(state, decide(state, 1, expect))
        for command in stage.computer:
            events = decide(state, 2, command)
            assert not any(isinstance(e, PlayReminded) for e in events)
            state = tutorial._fold(state, events)
        assert state == stage.state
    assert sum(len(s.computer) for s in STAGES) > 3


# --- refusals ---------------------------------------------------------------------------


@pytest.mark.parametrize("done", range(7))
def test_a_command_of_another_kind_is_refused_by_the_lesson_and_changes_nothing(
    done: int,
) -> None:
    """PF-MODE-3: a command of another kind than the step's is the lesson's refusal (not
    the rules'): its code, the step, an explanation in English and Arabic ending with what
    to do instead; the page where the learner stands is unchanged."""
    page = LESSON.page(done)
    wrong = Pass() if isinstance(page.expect, Play) else Play(table=(), added=())
    with pytest.raises(lessons.LessonRefused) as refused:
        LESSON.advance(done, wrong)
    assert refused.value.code == "lesson_other_command"
    assert refused.value.step == done + 1 and refused.value.expect == page.expect
    assert refused.value.explanation.en.endswith(page.instruction.en)
    assert refused.value.explanation.ar.endswith(page.instruction.ar)
    assert _ARABIC.search(refused.value.explanation.ar)
    assert not refused.value.allowed
    assert LESSON.page(done) == page


def test_a_legal_command_that_is_not_the_lessons_is_refused_too() -> None:
    """PF-MODE-3, RM-OPT-1a: Draw on the first step is legal (the rules would answer it
    with the reminder) and the reminder step's move is legal too; the lesson refuses both,
    saying the rules would allow them, and nothing changes."""
    first = LESSON.page(0)
    with pytest.raises(lessons.LessonRefused) as refused:
        LESSON.advance(0, Draw())
    assert refused.value.allowed and refused.value.code == "lesson_other_command"
    assert refused.value.explanation.en.startswith("The rules would allow that now")
    done = _step("remind")
    legal_move = STAGES[done + 1].expect
    with pytest.raises(lessons.LessonRefused) as refused:
        LESSON.advance(done, legal_move)
    assert refused.value.allowed and refused.value.step == done + 1
    assert LESSON.page(0) == first


def test_another_move_is_refused_with_the_lessons_explanation() -> None:
    """PF-MODE-3, RM-EX-3: at the rearrangement step, a Play that is not the lesson's (here
    the two hand cards laid alone, which the rules refuse as a group of two) is the
    lesson's `lesson_other_move`, explaining the expected rearrangement in both languages."""
    done = _step("take")
    expect = STAGES[done].expect
    assert isinstance(expect, Play)
    table = (*STAGES[done].state.table, expect.added)
    with pytest.raises(lessons.LessonRefused) as refused:
        LESSON.advance(done, Play(table=table, added=expect.added))
    assert refused.value.code == "lesson_other_move" and not refused.value.allowed
    assert "not this lesson's" in refused.value.explanation.en
    assert "8♠ 9♠ 10♠" in refused.value.explanation.en
    assert "8♠ 9♠ 10♠" in refused.value.explanation.ar


def test_the_lessons_move_written_in_another_order_is_taken() -> None:
    """PF-MODE-3, RM-MOVE-4: a Play is the whole new table; the same groups in another
    order, each in another order, are the same move."""
    done = _step("take")
    expect = STAGES[done].expect
    assert isinstance(expect, Play)
    shuffled = Play(
        table=tuple(tuple(reversed(g)) for g in reversed(expect.table)),
        added=tuple(reversed(expect.added)),
    )
    assert LESSON.advance(done, shuffled) == LESSON.page(done + 1)
    with pytest.raises(lessons.LessonRefused):
        LESSON.advance(done, replace(shuffled, names={"JK#1": "7H"}))


def test_a_step_after_the_end_is_refused() -> None:
    """PF-MODE-3: once the lesson is over no command is taken."""
    with pytest.raises(lessons.LessonRefused) as refused:
        LESSON.advance(LESSON.steps, Draw())
    assert refused.value.code == "lesson_over" and refused.value.expect is None


# --- texts ------------------------------------------------------------------------------


def test_every_page_speaks_english_and_arabic_and_names_the_scripts_cards() -> None:
    """PF-MODE-3: each step's instruction, and what each step did, in both languages; the
    cards in them are the script's (the set to lay, the card the reminder showed)."""
    pages = _pages()
    for page in pages:
        for said in (page.instruction, page.said):
            assert said is not None and said.en and _ARABIC.search(said.ar)
            assert not _ARABIC.search(said.en)
    assert "8♣ 8♦ 8♥" in pages[0].instruction.en and "8♣ 8♦ 8♥" in pages[0].instruction.ar
    remind = pages[_step("remind") + 1]
    assert "A♦" in remind.said.en and "A♦" in remind.said.ar  # type: ignore[union-attr]


def test_a_page_carries_only_the_learners_own_cards() -> None:
    """PF-MODE-3 (a real game's privacy): a page holds seat 1's view and the learner's own
    events; no card of the computer's hand nor of the stock is in it until the round's end
    shows every hand."""
    for page in _pages()[:-1]:
        state = STAGES[page.done].state
        assert page.view.seat == 1 and page.view.hand == state.hands[0]
        text = msgspec.json.encode(page).decode()
        hidden = [*state.hands[1], *state.stock]
        assert [c for c in hidden if f'"{c}"' in text] == []
        assert not any(isinstance(e, RoundDealt) for e in page.events)


# --- the registry and the book ----------------------------------------------------------


def test_the_lesson_is_found_by_its_game_and_name_and_an_unknown_one_is_refused() -> None:
    """PF-MODE-3: a lesson is looked up by (game, name) in the registry, which names the
    hosted lessons when it has none such."""
    assert lessons.get("rummy", "manipulation") is LESSON
    assert LESSON in lessons.listed()
    with pytest.raises(RuleViolation) as refused:
        lessons.get("rummy", "nope")
    assert refused.value.code == "unknown_lesson" and "rummy/manipulation" in refused.value.message


def test_the_registry_refuses_another_lesson_under_a_hosted_key_or_a_reserved_name() -> None:
    """PF-MODE-3: one lesson per (game, name); "step" is the gateway's word and no name."""
    assert lessons.register(LESSON) is LESSON
    with pytest.raises(ValueError, match="already registered"):
        lessons.register(replace_lesson(LESSON, steps=1))
    with pytest.raises(ValueError, match="lesson name"):
        lessons.register(replace_lesson(LESSON, name="step"))
    with pytest.raises(ValueError, match="lesson name"):
        lessons.register(replace_lesson(LESSON, name="Upper Case"))


def replace_lesson(lesson: lessons.Lesson, **changes: Any) -> lessons.Lesson:
    return dataclasses.replace(lesson, **changes)


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_book_keeps_a_bounded_number_of_lessons_forgetting_the_one_idle_longest() -> None:
    """PF-MODE-3: the gateway holds at most `limit` live lessons; a new one past the bound
    forgets the one used least recently."""
    clock = _Clock()
    book = LessonBook(limit=2, idle=60, clock=clock)
    a = book.start("rummy", "manipulation")
    clock.now = 1
    b = book.start("rummy", "manipulation")
    clock.now = 2
    book.find(a)  # a is used again: b is now the one idle longest
    c = book.start("rummy", "manipulation")
    assert len(book) == 2 and book.find(a).done == 0 and book.find(c).done == 0
    with pytest.raises(ApiError) as missing:
        book.find(b)
    assert missing.value.status == 404 and missing.value.code == "no_such_lesson"


def test_the_book_forgets_an_idle_lesson_and_refuses_a_malformed_id() -> None:
    """PF-MODE-3: a lesson idle for `idle` seconds is forgotten; an id that no lesson could
    have is refused before any look-up."""
    clock = _Clock()
    book = LessonBook(limit=10, idle=60, clock=clock)
    a = book.start("rummy", "manipulation")
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", a)
    clock.now = 59
    book.find(a)
    clock.now = 118
    assert book.find(a).game == "rummy"
    clock.now = 178.5
    with pytest.raises(ApiError):
        book.find(a)
    assert len(book) == 0
    for bad in ("", "x" * 65, "../etc", "a b"):
        with pytest.raises(ApiError):
            book.find(bad)
