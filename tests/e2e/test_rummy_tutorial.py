"""The guided lesson through the served gateway (PF-MODE-3, PF-AMB-14): a learner lists the
lessons, starts the Manipulation lesson, and walks it to its end over HTTP sending each
step's command as the page names it; a wrong command on the way is the lesson's refusal
(409, in English and Arabic) and changes nothing. The gateway runs with uvicorn over real
PostgreSQL and NATS (tests/e2e/conftest.py), as a player reaches it."""

from __future__ import annotations

import re
from typing import Any

from tests.e2e.conftest import Gateway

_ARABIC = re.compile(r"[\u0600-\u06FF]")


async def _start(gateway: Gateway) -> dict[str, Any]:
    started = await gateway.http.post("/lessons/rummy/manipulation")
    assert started.status_code == 201, started.text
    answer: dict[str, Any] = started.json()
    return answer


async def test_the_manipulation_lesson_is_walked_to_its_end_over_http(gateway: Gateway) -> None:
    """PF-MODE-3, PF-AMB-14, RM-OPT-1a, RM-EX-3: the list names the lesson and its published
    secret; every step's command, sent as the page gives it, is taken; the reminder step
    draws nothing; the last step ends the round, won by the learner; the same lesson
    started again deals the same hand."""
    listed = await gateway.http.get("/lessons")
    assert listed.status_code == 200
    (info,) = [x for x in listed.json()["lessons"] if x["name"] == "manipulation"]
    assert (
        info["game"] == "rummy"
        and info["steps"] == 7
        and re.fullmatch(r"[0-9a-f]{64}", info["secret"])
    )
    answer = await _start(gateway)
    lesson_id, page = answer["lesson_id"], answer["page"]
    first_hand = page["view"]["hand"]
    seen: list[str] = []
    while not page["over"]:
        assert page["instruction"]["en"] and _ARABIC.search(page["instruction"]["ar"])
        sent = await gateway.http.post(
            f"/lessons/{lesson_id}/step", json={"command": page["expect"]}
        )
        assert sent.status_code == 200, sent.text
        assert sent.json()["lesson_id"] == lesson_id
        page = sent.json()["page"]
        seen.extend(e["type"] for e in page["events"])
    assert page["done"] == 7 and page["expect"] is None and page["view"]["hand"] == []
    assert "PlayReminded" in seen and seen[-2:] == ["RoundScored", "SeedRevealed"]
    scored = page["events"][-2]
    assert scored["how"] == "out" and scored["winners"] == [1]
    assert page["events"][-1]["secret"] == info["secret"]
    again = await _start(gateway)
    assert again["page"]["view"]["hand"] == first_hand and again["lesson_id"] != lesson_id


async def test_a_command_the_step_does_not_take_is_refused_by_the_lesson_and_changes_nothing(
    gateway: Gateway,
) -> None:
    """PF-MODE-3: Draw on the first step (legal in a real game: the reminder of RM-OPT-1a)
    is refused by the lesson with a 409 in the API's error shape plus the step, the
    explanation in English and Arabic and the command the step takes; the lesson stays
    where it was, and the step's own command is then taken."""
    answer = await _start(gateway)
    lesson_id, page = answer["lesson_id"], answer["page"]
    refused = await gateway.http.post(
        f"/lessons/{lesson_id}/step", json={"command": {"type": "Draw"}}
    )
    assert refused.status_code == 409
    body = refused.json()
    assert body["code"] == "lesson_other_command" and body["rule_id"] == "PF-MODE-3"
    assert body["step"] == 1 and body["allowed"] is True and body["expect"] == page["expect"]
    assert body["message"] == body["explanation"]["en"]
    assert body["explanation"]["en"].endswith(page["instruction"]["en"])
    assert _ARABIC.search(body["explanation"]["ar"])
    now = await gateway.http.get(f"/lessons/{lesson_id}")
    assert now.status_code == 200 and now.json()["page"] == page
    taken = await gateway.http.post(f"/lessons/{lesson_id}/step", json={"command": page["expect"]})
    assert taken.status_code == 200 and taken.json()["page"]["done"] == 1


async def test_malformed_or_unknown_lesson_requests_are_refused(gateway: Gateway) -> None:
    """PF-MODE-3: everything from outside is bounded: a body that is no command of the
    game is a 400, an unknown lesson or id a 404, a body past the bound a 413."""
    lesson_id = (await _start(gateway))["lesson_id"]
    step = f"/lessons/{lesson_id}/step"
    bodies: list[Any] = [{"command": {"type": "Fly"}}, {"command": {"type": "Draw"}, "x": 1}, []]
    for body in bodies:
        bad = await gateway.http.post(step, json=body)
        assert bad.status_code == 400 and bad.json()["code"] == "bad_command", bad.text
    huge = await gateway.http.post(
        step, json={"command": {"type": "Play", "table": [], "added": ["7H#1"] * 5000}}
    )
    assert huge.status_code == 413
    assert (await gateway.http.post("/lessons/rummy/nope")).status_code == 404
    assert (await gateway.http.post("/lessons/chess/manipulation")).status_code == 404
    unknown = await gateway.http.post("/lessons/not-a-live-id/step", json={"command": {}})
    assert unknown.status_code == 404 and unknown.json()["code"] == "no_such_lesson"
    assert (await gateway.http.get("/lessons/" + "x" * 100)).status_code == 404
