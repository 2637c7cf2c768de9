"""docs/protocol.md's rummy section tells the truth: each of its examples, marked
`<!-- rummy-example: NAME -->`, decodes with the gateway's own decoders and rummy's own
Structs, and encodes back to itself (a field added, removed, renamed or retyped in the
code fails it). Its blocks are plain fences, so that the Banakil checks of
tests/e2e/test_protocol_doc.py (every ```json block) do not read them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Literal

import msgspec
import pytest

from engine import protocol
from engine.rummy.messages import Event
from engine.rummy.view import View
from services.gateway.http import CreateTableRequest
from services.gateway.messages import _ViewMessage, accepted, decode_client
from services.tables.service import Outcome

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
_EXAMPLE = re.compile(r"<!-- rummy-example: ([\w-]+) -->\n```\n(.*?)\n```", re.S)
_SYSTEM_ONLY = {"CommitSeed", "Deal", "Timeout"}
_SHARED = {"SendClientSeed"}  # shown in the Banakil part of the page


class _Entry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    version: int
    event: Event


class _Missed(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    type: Literal["missed"]
    since: int
    version: int
    events: tuple[_Entry, ...]


def _examples() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    found = _EXAMPLE.findall(text)
    names = [name for name, _ in found]
    assert len(names) == len(set(names)), "an example name is used twice"
    markers = re.findall(r"^<!-- rummy-example: ", text, re.M)
    assert len(markers) == len(found), "a marker without its block"
    return dict(found)


EXAMPLES = _examples()


def _round_trip(kind: Any, raw: str) -> Any:
    decoded = msgspec.json.decode(raw.encode(), type=kind, strict=True)
    assert json.loads(msgspec.json.encode(decoded)) == json.loads(raw)
    return decoded


def _check(name: str, raw: str) -> None:
    value = json.loads(raw)
    rummy = protocol.get("rummy")
    if name == "create":
        request = msgspec.json.decode(raw.encode(), type=CreateTableRequest, strict=True)
        game = protocol.get(request.game)
        game.options_from(request.variant, **request.options)  # a valid table's options
    elif name.startswith("command"):
        command_id, command = decode_client(raw.encode(), 64 * 1024, rummy)
        assert command_id == value["command_id"]
        decoded = json.loads(msgspec.json.encode(command))
        assert {key: decoded[key] for key in value["command"]} == value["command"]
    elif name.startswith("view"):
        _round_trip(_ViewMessage, raw)
        _round_trip(View, json.dumps(value["view"]))
    elif name == "missed":
        _round_trip(_Missed, raw)
    elif name.startswith("accepted"):
        outcome = Outcome(
            command_id=value["command_id"],
            accepted=True,
            version=value["version"],
            duplicate=value["duplicate"],
        )
        assert accepted(value["command_id"], outcome) == value
    elif name.startswith("event-"):
        _round_trip(Event, raw)
    else:
        raise AssertionError(f"no check for the example {name!r}: name it after its kind")


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_each_rummy_example_of_the_protocol_decodes_with_the_real_code(name: str) -> None:
    """PF-ROOM-2, RM-MOVE-5, RM-JOKER-2: the documented requests, commands, views and
    events are the ones the gateway and the rummy engine read and write."""
    _check(name, EXAMPLES[name])


def test_every_command_a_rummy_seat_may_send_has_an_example() -> None:
    """RM-MOVE-4, RM-OPT-1a, RM-OPT-3b, RM-AMB-22: Play, Draw, Pass, Touch, GiveUp and
    StopGame are each shown as a client sends them."""
    shown = {
        json.loads(raw)["command"]["type"]
        for name, raw in EXAMPLES.items()
        if name.startswith("command")
    }
    seats = {kind.__name__ for kind in protocol.get("rummy").command_types}
    assert shown >= seats - _SYSTEM_ONLY - _SHARED


def test_a_drifted_rummy_example_is_caught() -> None:
    """The checks fail on a field the code does not have, and on one it lacks."""
    view = json.loads(EXAMPLES["view-after-play"])
    with pytest.raises((AssertionError, msgspec.ValidationError)):
        _check("view-x", json.dumps({**view, "view": {**view["view"], "colour": "red"}}))
    del view["view"]["hand_points"]
    with pytest.raises((AssertionError, msgspec.ValidationError)):
        _check("view-x", json.dumps(view))
    with pytest.raises((AssertionError, msgspec.ValidationError)):
        _check("event-x", json.dumps({"type": "RoundDealt", "round": 1}))
