"""Guided lessons (PF-MODE-3), as the platform sees them, and their registry.

A lesson is a game's own round played step by step: the deal comes from a fixed, published
secret with empty client seeds (PF-AMB-14), so it is the same every time, and each step
names the one command it takes, with a short instruction in English and Arabic. The moves
of every other seat (the computer's) are scripted too and decided by the same rules. A
lesson is pure and fixed, so where a learner stands is ONE number, the steps done: every
page is derived again from it (a server keeps that number and nothing else).

The platform reaches a lesson through this registry only, by the game's name and the
lesson's: a game's package registers its lessons when its lesson module is imported, and
the registry of games imports the built-in ones (each game's package imports its lessons)
the first time a lesson is looked up, so nothing outside a game names it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from engine import protocol
from engine.errors import RuleViolation

__all__ = [
    "Lesson",
    "LessonRefused",
    "Page",
    "Text",
    "get",
    "listed",
    "register",
]

# "step" is the gateway's word after a live lesson's id (POST /lessons/{id}/step), so no
# lesson may be called so; names are short, lower-case words (they end up in URLs).
_RESERVED = frozenset({"step"})
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")
_NAME_MAX = 32
_LESSONS: dict[tuple[str, str], Lesson] = {}
_LOADED: list[bool] = []


class Text(msgspec.Struct, frozen=True, kw_only=True):
    """One sentence or two in both languages of the platform."""

    en: str
    ar: str


class Page(msgspec.Struct, frozen=True, kw_only=True):
    """Where the learner stands after `done` steps: the `instruction` for step `done + 1`
    and the one command it takes (`expect`); once `over`, the closing words and no command.
    `said` tells what the last step did, `events` are that step's events (the learner's
    own: nothing another seat hides), `computer` the commands the computer played after it,
    and `view` the learner's view of the table now."""

    game: str
    lesson: str
    done: int
    steps: int
    over: bool
    instruction: Text
    expect: Any | None
    said: Text | None
    events: tuple[Any, ...]
    computer: tuple[Any, ...]
    view: Any


class LessonRefused(Exception):
    """The lesson's own refusal of a command (not the rules'): `code`, the `step` it was
    sent for (1-based), an `explanation` in both languages of what to do instead, whether
    the rules would have `allowed` it in a real game, and the command the step takes."""

    def __init__(
        self, code: str, step: int, explanation: Text, *, allowed: bool, expect: Any | None
    ) -> None:
        super().__init__(f"{code} (step {step}): {explanation.en}")
        self.code = code
        self.step = step
        self.explanation = explanation
        self.allowed = allowed
        self.expect = expect


@dataclass(frozen=True, kw_only=True)
class Lesson:
    """Everything the platform knows of one lesson. `command` is the union a learner's
    command decodes into (the game's commands); `page(done)` is the page after `done`
    steps (0 <= done <= steps); `advance(done, command)` tries step `done + 1` with the
    command and returns the next page, or raises LessonRefused (nothing changes)."""

    game: str
    name: str
    title: Text
    summary: Text
    seat: int
    steps: int
    secret: str
    command: Any
    page: Callable[[int], Page]
    advance: Callable[[int, Any], Page]


def register(lesson: Lesson) -> Lesson:
    """Host `lesson` under (game, name). The same object again changes nothing; another
    lesson under a hosted key, or a name no URL should carry, is a programming error."""
    if lesson.name in _RESERVED or not _NAME_CHARS.issuperset(lesson.name):
        raise ValueError(f"a lesson name is lower-case letters, digits, - and _: {lesson.name!r}")
    if not 0 < len(lesson.name) <= _NAME_MAX:
        raise ValueError(f"a lesson name has 1 to {_NAME_MAX} characters")
    key = (lesson.game, lesson.name)
    known = _LESSONS.get(key)
    if known is not None and known is not lesson:
        raise ValueError(f"a different lesson is already registered as {key!r}")
    _LESSONS[key] = lesson
    return lesson


def listed() -> tuple[Lesson, ...]:
    """Every hosted lesson, by game then name."""
    _load_built_ins()
    return tuple(_LESSONS[key] for key in sorted(_LESSONS))


def get(game: str, name: str) -> Lesson:
    """The lesson `name` of `game`; RuleViolation `unknown_lesson` naming the hosted ones."""
    _load_built_ins()
    found = _LESSONS.get((game, name))
    if found is None:
        shown = ", ".join(f"{g}/{n}" for g, n in sorted(_LESSONS)) or "none"
        raise RuleViolation(
            "unknown_lesson",
            "PF-MODE-3",
            f"no lesson {game[:32]!r}/{name[:32]!r} is hosted here; the lessons are: {shown}",
        )
    return found


def _load_built_ins() -> None:
    if _LOADED:
        return
    _LOADED.append(True)  # first: a lesson module registers itself while it loads
    protocol.hosted()  # imports the built-in games, whose packages import their lessons
