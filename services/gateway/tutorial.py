"""HTTP routes of the guided lessons (PF-MODE-3, PF-AMB-14).

    GET  /lessons                        every lesson: game, name, title, steps, secret
    POST /lessons/{game}/{lesson}        start one: {lesson_id, page} (201)
    GET  /lessons/{lesson_id}            the page where a live lesson stands
    POST /lessons/{lesson_id}/step       {"command": <a command of the game>}: the next
                                         page, or the lesson's refusal (409)

A lesson is reached through the registry (`engine.lessons`) by the game's name and the
lesson's, as a table's game is: nothing here names a game. It is pure and fixed (a
published secret, scripted steps), so a live lesson is ONE number, the steps done, beside
its game and name: every page is derived again from it. What the server holds is bounded:
at most MAX_LIVE lessons, each forgotten after IDLE_SECONDS without a request, and when a
new one would pass the bound the one idle longest is forgotten first (a lesson costs
nothing to start again). Ids are 22 random URL-safe characters; a request body is at most
MAX_STEP_BYTES; names and ids in a path are bounded before any look-up.

A refused step is a 409 whose body extends the API's error shape: the lesson's `code`
(`lesson_other_command`, `lesson_other_move`, `lesson_over`), `rule_id` PF-MODE-3, the
English `message`, the `step` it was sent for, the `explanation` in English and Arabic of
what to do instead, whether the rules would have `allowed` the command in a real game, and
the command the step takes (`expect`). The lesson's state does not change.
"""

from __future__ import annotations

import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec
from litestar import Response, Router, get, post
from litestar.di import NamedDependency, Provide
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath, RawBody

from engine import lessons
from engine.errors import RuleViolation
from services.gateway.errors import ApiError
from services.gateway.openapi import refusals

__all__ = [
    "IDLE_SECONDS",
    "MAX_LIVE",
    "MAX_STEP_BYTES",
    "LessonBook",
    "lesson_router",
]

MAX_LIVE = 1000  # live lessons a gateway keeps (a few hundred bytes each)
IDLE_SECONDS = 30 * 60.0
MAX_STEP_BYTES = 32 * 1024  # a Play of the largest table is a few kilobytes
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_NAME_MAX = 64
_JSON = "application/json"
_ENCODER = msgspec.json.Encoder()


class LessonInfo(msgspec.Struct, frozen=True, kw_only=True):
    game: str
    name: str
    title: lessons.Text
    summary: lessons.Text
    seat: int
    steps: int
    secret: str  # PF-AMB-14: the published secret of the lesson's deal


class LessonList(msgspec.Struct, frozen=True, kw_only=True):
    lessons: tuple[LessonInfo, ...]


class LessonAnswer(msgspec.Struct, frozen=True, kw_only=True):
    lesson_id: str
    page: lessons.Page


class StepRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    command: Any  # decoded again as the lesson's game's command union


class LessonRefusalBody(msgspec.Struct, frozen=True, kw_only=True):
    """The lesson's refusal of a step: the API's error shape and what to do instead."""

    code: str
    rule_id: str
    message: str
    step: int
    explanation: lessons.Text
    allowed: bool
    expect: Any | None


@dataclass
class _Live:
    game: str
    name: str
    done: int
    touched: float


class LessonBook:
    """The live lessons of one gateway: id -> (game, lesson, steps done), bounded in
    number and in idle time. `clock` is monotonic seconds (tests pass their own)."""

    def __init__(
        self,
        *,
        limit: int = MAX_LIVE,
        idle: float = IDLE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._live: OrderedDict[str, _Live] = OrderedDict()  # least recently used first
        self._limit = limit
        self._idle = idle
        self._clock = clock

    def __len__(self) -> int:
        return len(self._live)

    def start(self, game: str, name: str) -> str:
        now = self._clock()
        self._expire(now)
        while len(self._live) >= self._limit:
            self._live.popitem(last=False)
        lesson_id = secrets.token_urlsafe(16)
        self._live[lesson_id] = _Live(game=game, name=name, done=0, touched=now)
        return lesson_id

    def find(self, lesson_id: str) -> _Live:
        """The live lesson `lesson_id` (touched now), or a 404."""
        now = self._clock()
        self._expire(now)
        live = self._live.get(lesson_id) if _ID.fullmatch(lesson_id) else None
        if live is None:
            raise ApiError(
                404,
                "no_such_lesson",
                "PF-MODE-3",
                "no live lesson has this id (a lesson is forgotten after "
                f"{int(self._idle // 60)} idle minutes): start it again",
            )
        live.touched = now
        self._live.move_to_end(lesson_id)
        return live

    def _expire(self, now: float) -> None:
        while self._live:
            oldest = next(iter(self._live.values()))
            if now - oldest.touched < self._idle:
                return
            self._live.popitem(last=False)


@get("/", sync_to_thread=False)
def list_lessons() -> LessonList:
    """Every guided lesson hosted here (PF-MODE-3), with the published secret its deal
    comes from (PF-AMB-14)."""
    return LessonList(
        lessons=tuple(
            LessonInfo(
                game=lesson.game,
                name=lesson.name,
                title=lesson.title,
                summary=lesson.summary,
                seat=lesson.seat,
                steps=lesson.steps,
                secret=lesson.secret,
            )
            for lesson in lessons.listed()
        )
    )


@post("/{game:str}/{lesson:str}", status_code=201, responses=refusals(404), sync_to_thread=False)
def start_lesson(
    game: FromPath[str], lesson: FromPath[str], book: NamedDependency[LessonBook]
) -> Response[bytes]:
    """Start a lesson: its id and its first page (the instruction, the command it takes
    and the learner's view of the deal)."""
    found = _lesson(game, lesson)
    lesson_id = book.start(found.game, found.name)
    return _page(lesson_id, found.page(0), status=201)


@get("/{lesson_id:str}", responses=refusals(404), sync_to_thread=False)
def lesson_page(lesson_id: FromPath[str], book: NamedDependency[LessonBook]) -> Response[bytes]:
    """The page where a live lesson stands (to resume it)."""
    live = book.find(lesson_id)
    return _page(lesson_id, _lesson(live.game, live.name).page(live.done))


_REFUSED = {
    409: ResponseSpec(
        data_container=LessonRefusalBody,
        generate_examples=False,
        description="The lesson refuses the command (another command, another move, or no "
        "step left): `explanation` says in English and Arabic what to do instead; nothing "
        "changes.",
    )
}


@post(
    "/{lesson_id:str}/step",
    status_code=200,
    responses={**refusals(400, 404), **_REFUSED},
    request_max_body_size=MAX_STEP_BYTES,
    sync_to_thread=False,
)
def lesson_step(
    lesson_id: FromPath[str], body: RawBody, book: NamedDependency[LessonBook]
) -> Response[bytes]:
    """Send the command of the lesson's next step: the next page, or the lesson's refusal."""
    live = book.find(lesson_id)
    lesson = _lesson(live.game, live.name)
    command = _command(body, lesson)
    try:
        page = lesson.advance(live.done, command)
    except lessons.LessonRefused as refused:
        shown = LessonRefusalBody(
            code=refused.code,
            rule_id="PF-MODE-3",
            message=refused.explanation.en,
            step=refused.step,
            explanation=refused.explanation,
            allowed=refused.allowed,
            expect=refused.expect,
        )
        return Response(_ENCODER.encode(shown), status_code=409, media_type=_JSON)
    live.done = page.done
    return _page(lesson_id, page)


def lesson_router() -> Router:
    """The lesson routes under /lessons, with a book of live lessons of their own (one a
    gateway app)."""
    book = LessonBook()

    def provide_book() -> LessonBook:
        return book

    return Router(
        path="/lessons",
        route_handlers=[list_lessons, start_lesson, lesson_page, lesson_step],
        dependencies={"book": Provide(provide_book, sync_to_thread=False)},
        signature_namespace={"LessonBook": LessonBook},
        tags=["lessons"],
    )


def _lesson(game: str, name: str) -> lessons.Lesson:
    if len(game) > _NAME_MAX or len(name) > _NAME_MAX:
        raise ApiError(404, "unknown_lesson", "PF-MODE-3", "no lesson has so long a name")
    try:
        return lessons.get(game, name)
    except RuleViolation as exc:  # unknown_lesson: a missing resource, not a table's state
        raise ApiError(404, exc.code, exc.rule_id, exc.message) from None


def _command(body: bytes, lesson: lessons.Lesson) -> Any:
    """The body's command as one of the lesson's game's commands, decoded strictly."""
    try:
        request = msgspec.json.decode(body, type=StepRequest)
        return msgspec.convert(request.command, lesson.command)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ApiError(
            400, "bad_command", "", f"not a command of this lesson's game: {exc}"[:300]
        ) from None


def _page(lesson_id: str, page: lessons.Page, status: int = 200) -> Response[bytes]:
    body = _ENCODER.encode(LessonAnswer(lesson_id=lesson_id, page=page))
    return Response(body, status_code=status, media_type=_JSON)
