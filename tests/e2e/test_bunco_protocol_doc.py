"""docs/protocol.md's Bunco section tells the truth: each of its examples, marked
`<!-- bunco-example: NAME -->`, decodes with the gateway's own decoders and Bunco's own
Structs and encodes back to itself (a field added, removed, renamed or retyped in the code
fails it), and its refusal table names every refusal a seat's roll or seating can meet.
Its blocks are plain fences, so that the Banakil checks of tests/e2e/test_protocol_doc.py
(every ```json block) do not read them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine import protocol
from engine.bunco.messages import Event
from engine.bunco.view import View
from engine.errors import RuleViolation
from services.gateway.http import CreateTableRequest
from services.gateway.messages import _ViewMessage, decode_client, rejected

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "protocol.md"
_EXAMPLE = re.compile(r"<!-- bunco-example: ([\w-]+) -->\n```\n(.*?)\n```", re.S)
_SYSTEM_ONLY = {"CommitSeed", "Deal", "Timeout"}
_SHARED = {"SendClientSeed"}  # shown in the Banakil part of the page
# Refusals no seat meets through the gateway: a command of another game's union never
# decodes (`not_now`), every seat is a player (`not_a_player`); `stale_timeout` answers the
# clock alone, and a Deal with no round committed the system alone (a seat's Deal is
# `system_only` first).
_NOT_A_SEATS = {("not_now", ""), ("not_a_player", "BU-ROLL-1"), ("stale_timeout", "PF-TIMER-8")}
_NOT_A_SEATS |= {("wrong_phase", "PF-FAIR-1")}


def _section() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("## Bunco evenings")
    return text[start : text.index("\n## ", start + 1)]


def _examples() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    found = _EXAMPLE.findall(text)
    names = [name for name, _ in found]
    assert len(names) == len(set(names)), "an example name is used twice"
    markers = re.findall(r"^<!-- bunco-example: ", text, re.M)
    assert len(markers) == len(found), "a marker without its block"
    return dict(found)


EXAMPLES = _examples()


def _round_trip(kind: Any, raw: str) -> Any:
    decoded = msgspec.json.decode(raw.encode(), type=kind, strict=True)
    assert json.loads(msgspec.json.encode(decoded)) == json.loads(raw)
    return decoded


def _refusal_rows() -> dict[str, set[str]]:
    """The refusal table: each code listed, with the rule IDs of its row."""
    rows: dict[str, set[str]] = {}
    section = _section()
    for line in section[section.index("### Refusals") :].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`"):
            for code in re.findall(r"`(\w+)`", cells[0]):
                rows.setdefault(code, set()).update(re.findall(r"[A-Z]{2}-[A-Z]+-\d+", cells[1]))
    return rows


def _check(name: str, raw: str) -> None:
    value = json.loads(raw)
    bunco = protocol.get("bunco")
    if name == "create":
        request = msgspec.json.decode(raw.encode(), type=CreateTableRequest, strict=True)
        assert request.game == "bunco"
        options = bunco.options_from(request.variant, **request.options)  # valid options
        assert request.seats is not None and len(request.seats) == bunco.seats(options)
    elif name.startswith("command"):
        command_id, command = decode_client(raw.encode(), 64 * 1024, bunco)
        assert command_id == value["command_id"]
        decoded = json.loads(msgspec.json.encode(command))
        assert decoded == value["command"]
    elif name.startswith("message-view"):  # the gateway's whole message around a view
        _round_trip(_ViewMessage, raw)
        _round_trip(View, json.dumps(value["view"]))
        # PF-TIMER-8: an awaited roller counts down from his own table's wait.
        own = [w["deadline"] for w in value["deadlines"] if w["seat"] == value["view"]["seat"]]
        assert [value["deadline"]] == own
        assert [w["seat"] for w in value["deadlines"]] == value["view"]["awaiting"]
    elif name.startswith("view"):
        _round_trip(View, raw)
    elif name.startswith("event-"):
        _round_trip(Event, raw)
    elif name.startswith("rejected"):
        violation = RuleViolation(value["code"], value["rule_id"], value["message"])
        assert json.loads(msgspec.json.encode(rejected(value["command_id"], violation))) == value
        assert value["rule_id"] in _refusal_rows()[value["code"]]
    else:
        raise AssertionError(f"no check for the example {name!r}: name it after its kind")


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_each_bunco_example_of_the_protocol_decodes_with_the_real_code(name: str) -> None:
    """PF-ROOM-5, BU-ROLL-1, BU-SET-7, BU-END-1, BU-END-2: the documented request, commands,
    views and events are the ones the gateway and the Bunco engine read and write."""
    _check(name, EXAMPLES[name])


def test_every_command_a_bunco_seat_may_send_has_an_example() -> None:
    """BU-ROLL-1, BU-SET-7: Roll and AssignSeats are each shown as a client sends them."""
    shown = {
        json.loads(raw)["command"]["type"]
        for name, raw in EXAMPLES.items()
        if name.startswith("command")
    }
    seats = {kind.__name__ for kind in protocol.get("bunco").command_types}
    assert shown >= seats - _SYSTEM_ONLY - _SHARED


def test_the_refusal_table_names_every_refusal_of_the_bunco_rules_with_its_rule() -> None:
    """Every (code, rule) the Bunco decider raises for a seat's command is a row of the
    table (read from engine/bunco/rules.py, so a new refusal without its row fails)."""
    source = (ROOT / "engine" / "bunco" / "rules.py").read_text(encoding="utf-8")
    raised = set(re.findall(r'RuleViolation\(\s*"(\w+)",\s*"([\w-]*)"', source))
    assert len(raised) >= 10, raised  # the pattern still finds them
    rows = _refusal_rows()
    for code, rule in sorted(raised):
        if (code, rule) in _NOT_A_SEATS:
            continue
        assert code in rows and rule in rows[code], (code, rule)


def test_a_drifted_bunco_example_is_caught() -> None:
    """The checks fail on a field the code does not have, and on one it lacks."""
    view = json.loads(EXAMPLES["view-rolling"])
    with pytest.raises((AssertionError, msgspec.ValidationError)):
        _check("view-x", json.dumps({**view, "colour": "red"}))
    del view["bell"]
    with pytest.raises((AssertionError, msgspec.ValidationError)):
        _check("view-x", json.dumps(view))
    with pytest.raises((AssertionError, msgspec.ValidationError)):
        _check("event-x", json.dumps({"type": "BellRang", "round": 1}))
    wrong_rule = {**json.loads(EXAMPLES["rejected-bell"]), "rule_id": "BU-ROLL-1"}
    with pytest.raises(AssertionError):
        _check("rejected-x", json.dumps(wrong_rule))
