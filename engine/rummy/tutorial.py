"""The guided Manipulation lesson (PF-MODE-3, PF-AMB-14): one round, always the same.

The learner sits in seat 1 against the computer in seat 2, at a Manipulation table of
two (RM-MAN-1..6, `reminder_with_hint`: RM-OPT-1a). The round is dealt by the engine from
a FIXED, PUBLISHED secret, `SECRET`, with empty client seeds, so the deal, the first player
and the stock are the same every time, and the lesson's record (`record()`) verifies like
any round's (engine/rummy/record.py). In seven steps the learner

1. lays a set from the hand (RM-MOVE-1); the computer plays its turn;
2. adds a card to a group on the table; the computer plays;
3. draws, since nothing in the hand can be played (RM-MAN-4: the turn goes on);
4. rearranges, as RM-EX-3: takes a card out of a group, which stays valid, and forms a new
   group with two hand cards; the computer plays;
5. presses Draw while a move exists: the reminder of RM-OPT-1a, nothing drawn;
6. plays the card the reminder showed; the computer plays;
7. plays the last card: the hand is empty, the round ends (RM-MOVE-7, RM-MAN-6) and its
   secret is revealed.

Every step takes ONE command (`Page.expect`); the computer's turns are scripted commands
too. Both are decided by the same rules as any table (engine/rummy/rules.py), so a lesson
never shows what a game would not do. Any other command is refused by the lesson, not by
the rules, even one the rules would accept (engine.lessons.LessonRefused), and nothing
changes: the lesson is pure, and where a learner stands is the number of steps done.

The script (the secret, every move of both seats) is engine/rummy/tutorial_script.py; the
texts are engine/rummy/tutorial_text.py. The lesson is played through once by the rules
and kept (`_stages`): after the first, a page or the step's own command costs no search; a
refused command is decided once, to tell whether the rules would have allowed it.

The line that makes the lesson load with the game (engine/rummy/game.py, last line):
``from engine.rummy import tutorial as _tutorial  # noqa: F401  (registers the lesson)``;
until it is there, engine/lessons.py imports this module by its path on first use.
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any, NamedTuple

from msgspec.structs import replace

from engine import lessons
from engine.errors import RuleViolation
from engine.rummy import tutorial_text as text
from engine.rummy.evolve import evolve
from engine.rummy.messages import Command, CommitSeed, Deal, Draw, Event, Play
from engine.rummy.record import Record, RoundLog, options_of
from engine.rummy.rules import decide
from engine.rummy.state import State
from engine.rummy.tutorial_script import (
    COMPUTER,
    LEARNER,
    OPTIONS,
    SCRIPT,
    SECRET,
    SEEDS,
    Move,
    Table,
    play_of,
)
from engine.rummy.view import view

__all__ = ["LESSON", "LESSON_NAME", "initial_state", "record"]

LESSON_NAME = "manipulation"
_SYSTEM = 0


class _Stage(NamedTuple):
    """After `done` steps: the state, the learner's events of the last step, the
    computer's commands after it, and the command the next step takes (None at the end)."""

    state: State
    events: tuple[Event, ...]
    computer: tuple[Command, ...]
    expect: Command | None


def record() -> Record:
    """The lesson's round as a deal record (docs/deal-format.md): its secret, its seeds,
    every command and event; `engine.rummy.record.verify` checks it like any round."""
    stages = _stages()
    commands: list[tuple[int, Command]] = [(_SYSTEM, Deal())]
    for stage, nxt in itertools.pairwise(stages):
        assert stage.expect is not None
        commands.append((LEARNER, stage.expect))
        commands.extend((COMPUTER, c) for c in nxt.computer)
    events = _replay(tuple(commands))
    # as stored: the commitment's secret is written empty (engine/rummy/game.py redact)
    stored = (replace(events[0], secret=""), *events[1:])
    return Record(
        game="rummy",
        options=options_of(OPTIONS),
        seats=("learner", "computer"),
        host=LEARNER,
        rounds=(
            RoundLog(
                number=1,
                secret=SECRET,
                client_seeds=SEEDS,
                commands=tuple(commands),
                events=stored,
            ),
        ),
    )


# --- the lesson -------------------------------------------------------------------------


def _page(done: int) -> lessons.Page:
    stages = _stages()
    if not 0 <= done <= len(SCRIPT):
        raise RuleViolation("bad_step", "PF-MODE-3", f"the lesson has steps 0 to {len(SCRIPT)}")
    stage = stages[done]
    over = done == len(SCRIPT)
    if done == 0:
        said: lessons.Text | None = text.WELCOME
    else:
        before = stages[done - 1].state
        step = SCRIPT[done - 1]
        said = text.outcome(step.topic, step.move, before, stage.events, stage.computer)
    instruction = (
        text.CLOSING
        if over
        else text.instruction(SCRIPT[done].topic, SCRIPT[done].move, stage.state)
    )
    return lessons.Page(
        game="rummy",
        lesson=LESSON_NAME,
        done=done,
        steps=len(SCRIPT),
        over=over,
        instruction=instruction,
        expect=stage.expect,
        said=said,
        events=stage.events,
        computer=stage.computer,
        view=view(stage.state, LEARNER),
    )


def _advance(done: int, command: Any) -> lessons.Page:
    """Step `done + 1` tried with `command`: the next page, or the lesson's refusal."""
    stages = _stages()
    if not 0 <= done < len(SCRIPT):
        raise lessons.LessonRefused("lesson_over", done + 1, text.OVER, allowed=False, expect=None)
    stage = stages[done]
    assert stage.expect is not None
    if _same(command, stage.expect):
        return _page(done + 1)
    step = SCRIPT[done]
    allowed = _allowed(stage.state, command)
    kind = "move" if isinstance(command, Play) and isinstance(stage.expect, Play) else "command"
    explanation = text.refusal(kind, allowed, step.topic, step.move, stage.state)
    raise lessons.LessonRefused(
        f"lesson_other_{kind}", done + 1, explanation, allowed=allowed, expect=stage.expect
    )


def _same(command: Any, expect: Command) -> bool:
    """The learner's command is the step's: the same kind and, for a Play, the same cards
    added and the same groups, in any order and each in any order."""
    if type(command) is not type(expect):
        return False
    if not isinstance(command, Play) or not isinstance(expect, Play):
        return True
    if command.names or command.knock:
        return False

    def shape(table: Table, added: tuple[str, ...]) -> tuple[object, ...]:
        return sorted(map(sorted, table)), sorted(added)

    return shape(command.table, command.added) == shape(expect.table, expect.added)


def _allowed(state: State, command: Any) -> bool:
    """Would the rules accept the command in a real game (the lesson refuses it anyway)?"""
    try:
        decide(state, LEARNER, command)
    except RuleViolation:
        return False
    return True


@cache
def _stages() -> tuple[_Stage, ...]:
    """The lesson played once by the rules: the stage after each number of steps."""
    state = initial_state()
    stages: list[_Stage] = []
    events: tuple[Event, ...] = ()
    computer: tuple[Command, ...] = ()
    for step in SCRIPT:
        expect = _command(state, LEARNER, step.move)
        stages.append(_Stage(state, events, computer, expect))
        events = decide(state, LEARNER, expect)
        state = _fold(state, events)
        played: list[Command] = []
        for move in step.computer:
            command = _command(state, COMPUTER, move)
            state = _fold(state, decide(state, COMPUTER, command))
            played.append(command)
        computer = tuple(played)
    stages.append(_Stage(state, events, computer, None))
    return tuple(stages)


def initial_state() -> State:
    """The lesson's table right after the deal (PF-AMB-14: the published secret)."""
    state = State(options=OPTIONS, host=LEARNER)
    for command in (CommitSeed(secret=SECRET), Deal()):
        state = _fold(state, decide(state, _SYSTEM, command))
    return state


def _replay(commands: tuple[tuple[int, Command], ...]) -> tuple[Event, ...]:
    state = State(options=OPTIONS, host=LEARNER)
    out = list(decide(state, _SYSTEM, CommitSeed(secret=SECRET)))
    state = _fold(state, tuple(out))
    for seat, command in commands:
        events = decide(state, seat, command)
        state = _fold(state, events)
        out.extend(events)
    return tuple(out)


def _command(state: State, seat: int, move: Move) -> Command:
    if move == "draw":
        return Draw()
    table = play_of(state.table, move)
    was = {c for g in state.table for c in g}
    added = tuple(c for g in table for c in g if c not in was)
    return Play(table=table, added=added)


def _fold(state: State, events: tuple[Event, ...]) -> State:
    for event in events:
        state = evolve(state, event)
    return state


LESSON = lessons.register(
    lessons.Lesson(
        game="rummy",
        name=LESSON_NAME,
        title=text.TITLE,
        summary=text.SUMMARY,
        seat=LEARNER,
        steps=len(SCRIPT),
        secret=SECRET,
        command=Command,
        page=_page,
        advance=_advance,
    )
)
