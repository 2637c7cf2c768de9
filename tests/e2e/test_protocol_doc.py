"""docs/protocol.md tells the truth: every example in it decodes with the gateway's own code.

Each JSON block of the doc is marked `<!-- example: NAME -->`; the name says which decoder
or encoder it must satisfy. Messages the gateway encodes from Structs are decoded into those
Structs and encoded again, which must give the example back (a field added, removed,
renamed or retyped in the code changes that); messages built as dicts are rebuilt by the
functions that build them. `scripts/protocol_examples.py` prints fresh examples when the
protocol changes on purpose.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any, Literal

import msgspec
import pytest

from engine import protocol
from engine.banakil.hints import Hints
from engine.banakil.messages import COMMAND_TYPES
from engine.banakil.staging import Staged
from engine.banakil.view import View
from engine.errors import RuleViolation
from engine.hand_order import HandOrder
from engine.rummy.staging import Staged as TableStaged
from engine.table import AnyEvent
from scripts.protocol_examples import warning_message
from services.gateway.messages import (
    _ViewMessage,
    _WelcomeMessage,
    accepted,
    answer,
    decode_ask,
    decode_client,
    hand_order_message,
    missed,
    refused,
    rejected,
)
from services.gateway.openapi import ApiErrorBody
from services.tables.seat_asks import Answer
from services.tables.service import Outcome

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
_EXAMPLE = re.compile(r"<!-- example: ([\w-]+) -->\n```json\n(.*?)\n```", re.S)
_SYSTEM_ONLY = {"CommitSeed", "StackDeck", "Deal", "CloseSeedWindow", "Timeout"}
_SERVER_TYPES = {"welcome", "view", "missed", "accepted", "rejected", "warning", "error"}
# A seat's questions and their answers (issue 14): every one has an example.
_ASK_TYPES = {"hint", "stage", "hand_order"}
_ANSWER_TYPES = {"hint", "staged", "hand_order", "refused"}


class _Entry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    version: int
    event: AnyEvent


class _Missed(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    type: Literal["missed"]
    since: int
    version: int
    events: tuple[_Entry, ...]


class _DealLog(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    table_id: str
    deal: int
    events: tuple[_Entry, ...]


# The game's own Struct each answer example carries (the doc's are Banakil's and rummy's).
_ANSWER_SHAPES: dict[str, type[Any]] = {
    "answer-hint": Hints,
    "answer-staged": Staged,
    "answer-staged-rummy": TableStaged,
}


def _examples() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    found = _EXAMPLE.findall(text)
    names = [name for name, _ in found]
    assert len(names) == len(set(names)), "an example name is used twice"
    # Every JSON block is an example the tests check: none is left unmarked.
    assert text.count("```json") == len(found)
    return dict(found)


EXAMPLES = _examples()


def _round_trip(kind: type[Any], raw: str) -> None:
    """`raw` decodes as `kind` and encodes back to the same JSON value."""
    decoded = msgspec.json.decode(raw.encode(), type=kind, strict=True)
    assert json.loads(msgspec.json.encode(decoded)) == json.loads(raw)


def _check(name: str, raw: str) -> None:
    value = json.loads(raw)
    if name.startswith("command"):
        command_id, command = decode_client(raw.encode(), 64 * 1024, protocol.get("banakil"))
        assert command_id == value["command_id"]
        assert msgspec.to_builtins(command)["type"] == value["command"]["type"]
    elif name.startswith(("welcome", "view")):
        _round_trip(_WelcomeMessage if name.startswith("welcome") else _ViewMessage, raw)
        # The message carries the game's view as it is; the doc's are Banakil's.
        if value["view"] is not None:
            _round_trip(View, json.dumps(value["view"]))
    elif name == "missed":
        _round_trip(_Missed, raw)
        assert set(value) == set(missed(0, 0, [], None, protocol.get("banakil")))
    elif name.startswith("accepted"):
        outcome = Outcome(
            command_id=value["command_id"],
            accepted=True,
            version=value["version"],
            duplicate=value["duplicate"],
        )
        assert accepted(value["command_id"], outcome) == value
    elif name.startswith("rejected"):
        why = RuleViolation(value["code"], value["rule_id"], value["message"])
        assert rejected(value["command_id"], why) == value
    elif name == "error":  # what services/gateway/ws.py sends before it closes
        why = RuleViolation(value["code"], value["rule_id"], value["message"])
        assert {"type": "error", **why.as_dict()} == value
    elif name == "warning":  # what the real TurnWarnings sends (services/gateway)
        sent = asyncio.run(warning_message())
        assert {k: type(v) for k, v in value.items()} == {k: type(v) for k, v in sent.items()}
    elif name.startswith("ask-"):  # a seat's question, through the gateway's decoder
        ask = decode_ask(raw.encode(), 64 * 1024)
        assert ask is not None and json.loads(msgspec.json.encode(ask)) == value
        if value["type"] == "stage":  # the proposal in the game's own shape
            game = protocol.get("rummy" if name.endswith("-rummy") else "banakil")
            assert game.staging is not None
            proposal = json.dumps(value["proposal"]).encode()
            msgspec.json.decode(proposal, type=game.staging.proposal, strict=True)
    elif name.startswith("answer-"):  # rebuilt by the functions the gateway answers with
        if value["type"] in ("hint", "staged"):
            kind = value["type"]
            shape: type[Any] = _ANSWER_SHAPES[name]
            decoded = msgspec.json.decode(json.dumps(value[kind]).encode(), type=shape)
            found = Answer(version=value["version"], value=decoded)
            assert (
                json.loads(msgspec.json.encode(answer(kind, value["request_id"], found))) == value
            )
        else:
            chosen = HandOrder(order=value["order"], cards=tuple(value["cards"]))
            built = hand_order_message(value["request_id"], chosen, tuple(value["hand"]))
            assert json.loads(msgspec.json.encode(built)) == value
    elif name.startswith("refused"):
        why = RuleViolation(value["code"], value["rule_id"], value["message"])
        assert refused(value["request_id"], why) == value
    elif name.startswith("http-error"):
        _round_trip(ApiErrorBody, raw)
        assert set(value) == {"code", "rule_id", "message"}
    elif name == "deal-events":
        _round_trip(_DealLog, raw)
    elif name.startswith("event-"):
        _round_trip(AnyEvent, raw)  # type: ignore[arg-type]  # a union, not a class
    else:
        raise AssertionError(f"no check for the example {name!r}: name it after its kind")


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_each_example_of_the_protocol_decodes_with_the_real_code(name: str) -> None:
    _check(name, EXAMPLES[name])


def test_every_server_message_and_every_players_command_has_an_example() -> None:
    shown = {json.loads(raw).get("type") for name, raw in EXAMPLES.items()}
    assert shown >= _SERVER_TYPES | {"command"}
    asked = {json.loads(raw)["type"] for name, raw in EXAMPLES.items() if name.startswith("ask-")}
    answered = {
        json.loads(raw)["type"]
        for name, raw in EXAMPLES.items()
        if name.startswith(("answer-", "refused"))
    }
    assert asked >= _ASK_TYPES and answered >= _ANSWER_TYPES
    commands = {
        json.loads(raw)["command"]["type"]
        for name, raw in EXAMPLES.items()
        if name.startswith("command")
    }
    players = {kind.__name__ for kind in COMMAND_TYPES} - _SYSTEM_ONLY
    assert commands >= players


def test_a_drifted_example_is_caught() -> None:
    """The checks fail on a field the code does not have, and on one it lacks."""
    welcome = json.loads(EXAMPLES["welcome"])
    with pytest.raises(AssertionError):
        _check("welcome", json.dumps({**welcome, "colour": "red"}))
    del welcome["view"]["legal"]
    with pytest.raises((AssertionError, msgspec.ValidationError)):
        _check("welcome", json.dumps(welcome))
    with pytest.raises(RuleViolation):
        _check("command-x", json.dumps({"type": "command", "command_id": "c", "command": {}}))
