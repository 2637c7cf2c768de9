"""The dice tool's record (docs/deal-format.md 10.4): every roll re-derived from its revealed
secret by `sahra verify` and `sahra replay`, a tampered die found at its roll, and the
tool's events and commands stored and read back by the services' codec.

Rules: PF-DICE-2, PF-FAIR-1, PF-FAIR-3, PF-FAIR-5, PF-FAIR-6, PF-AMB-12, PF-AMB-13.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from engine import fair, protocol, table
from engine.dice.game import GAME
from engine.dice.messages import (
    CommitSeed,
    Deal,
    DiceThrown,
    Roll,
    SendClientSeed,
    Stop,
)
from engine.dice.options import options_from
from engine.dice.record import Record, RollVerdict, build, decode, replay, units, verify
from engine.table import CreateTable
from services.cli import replay as replay_cli
from services.cli import verify as verify_cli
from services.tables.codec import decode_command, decode_event, decode_state, encode_event
from services.verifier.reading import read_record, verify_any

_SYSTEM = 0
_PHONE = 1
Step = tuple[int, Any, tuple[Any, ...]]


def _secret(n: int) -> str:
    return hashlib.sha256(f"record-secret-{n}".encode()).hexdigest()


def _session(rolls: int, *, stop: bool = True) -> list[Step]:
    """A phone's session: each roll committed; odd rolls seeded, every third roll's window
    closed by the system first; the last roll committed and stopped unrolled."""
    state = GAME.initial(options_from(), 1)
    steps: list[Step] = []

    def send(seat: int, command: Any) -> None:
        nonlocal state
        events = GAME.decide(state, seat, command)
        for event in events:
            state = GAME.evolve(state, event)
        steps.append((seat, command, events))

    for n in range(1, rolls + 1):
        send(_SYSTEM, CommitSeed(secret=_secret(n)))
        if n % 2:
            send(_PHONE, SendClientSeed(seed=f"phone {n}"))
        if n % 3 == 0:
            send(_SYSTEM, Deal())
        send(_PHONE, Roll())
    if stop:
        send(_SYSTEM, CommitSeed(secret=_secret(rolls + 1)))
        send(_PHONE, Stop())
    return steps


def _table_log(steps: Sequence[Step]) -> protocol.TableLog:
    """The steps as the store gives them, unit by unit: the commitment's secret blank."""
    units_: list[protocol.UnitLog] = []
    for seat, command, events in steps:
        if isinstance(command, CommitSeed):
            opened = (replace(events[0], secret=""), *events[1:])
            units_.append(
                protocol.UnitLog(
                    number=len(units_) + 1,
                    secret=command.secret,
                    client_seeds=("",),
                    commands=(),
                    events=opened,
                )
            )
            continue
        last = units_[-1]
        seeds = last.client_seeds
        if isinstance(command, SendClientSeed):
            seeds = (command.seed,)
        units_[-1] = dataclasses.replace(
            last,
            client_seeds=seeds,
            commands=(*last.commands, (seat, command)),
            events=(*last.events, *events),
        )
    return protocol.TableLog(options={}, seats=("Salma",), host=1, units=tuple(units_))


def _record(rolls: int = 7, *, stop: bool = True) -> Record:
    return build(_table_log(_session(rolls, stop=stop)))


def _raw(record: Record) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(msgspec.json.encode(record))
    return out


def _main(module: object, argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="sahra")
    module.register(parser.add_subparsers(dest="command", required=True))  # type: ignore[attr-defined]
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code


# --- verify -----------------------------------------------------------------------------


def test_every_roll_of_a_session_verifies_from_its_revealed_secret_pf_fair_5() -> None:
    """PF-FAIR-5/6: each roll's secret hashes to its commitment and gives its dice."""
    record = _record()
    assert [r.number for r in record.rolls] == list(range(1, 9))
    verdict = verify(record)
    assert verdict.passed and [v.number for v in verdict.rolls] == list(range(1, 9))
    assert [u.number for u in units(verdict)] == list(range(1, 9))
    assert all(u.passed for u in units(verdict))


def test_a_record_is_read_by_the_game_it_names_and_verified_after_a_json_round_trip() -> None:
    data = msgspec.json.encode(_record())
    game, record = read_record(data)
    assert game is GAME and record == decode(data) == _record()
    assert verify_any(record).passed


def test_a_changed_die_is_found_at_its_roll_with_the_dice_the_secret_gives() -> None:
    """PF-DICE-2: one die of roll 4 changed: rolls 1-3 pass, roll 4 fails naming the
    recorded dice and the secret's; later rolls are not checked."""
    raw = _raw(_record())
    events = raw["rolls"][3]["events"]
    at = next(i for i, e in enumerate(events) if e["type"] == "DiceThrown")
    true_dice = list(events[at]["dice"])
    changed = [true_dice[0] % 6 + 1, *true_dice[1:]]
    events[at]["dice"] = changed
    verdict = verify(decode(json.dumps(raw)))
    assert not verdict.passed and [v.passed for v in verdict.rolls] == [True, True, True, False]
    assert verdict.rolls[-1] == RollVerdict(
        number=4,
        passed=False,
        check="events",
        detail=f"event {at} (DiceThrown) of roll 4, dice {changed} (the secret gives "
        f"{true_dice}) differs from the one the rules derive",
    )


@pytest.mark.parametrize(
    ("tamper", "check"),
    [
        ("secret", "commitment"),
        ("commitment", "commitment"),
        ("seed", "events"),
        ("no_roll", "events"),
        ("second_roll", "commands"),
        ("not_hex", "secret"),
    ],
)
def test_a_changed_secret_seed_or_command_fails_its_roll(tamper: str, check: str) -> None:
    raw = _raw(_record())
    roll = raw["rolls"][2]  # roll 3: no seed sent, window closed by the system
    seeded = raw["rolls"][0]
    if tamper == "secret":
        roll["secret"] = _secret(99)
    elif tamper == "commitment":
        roll["events"][0]["commitment"] = hashlib.sha256(b"other").hexdigest()
    elif tamper == "seed":  # the seed the dice were drawn with is not the recorded one
        seeded["commands"][0][1]["seed"] = "another seed"
    elif tamper == "no_roll":
        roll["commands"] = [c for c in roll["commands"] if c[1]["type"] != "Roll"]
    elif tamper == "second_roll":
        roll["commands"].append([1, {"type": "Roll"}])
    else:
        roll["secret"] = "zz" * 32
    verdict = verify(decode(json.dumps(raw)))
    failed = verdict.rolls[-1]
    assert not verdict.passed and failed.check == check and failed.detail
    assert failed.number == (1 if tamper == "seed" else 3)


def test_options_the_tool_does_not_have_fail_the_record() -> None:
    raw = _raw(_record(2))
    raw["options"] = {"dice": 5}
    verdict = verify(decode(json.dumps(raw)))
    assert not verdict.passed and verdict.rolls[0].check == "options"


# --- replay -----------------------------------------------------------------------------


def test_replay_derives_every_rolls_dice_and_proof_as_they_were_rolled() -> None:
    """Replay equality: the report's rolls are the live ones, each `fair.dice` of its
    secret and seed, and folding the recorded events again gives the live state."""
    steps = _session(30)
    report = replay(build(_table_log(steps)))
    live = [e for _, _, events in steps for e in events if isinstance(e, DiceThrown)]
    assert [t.dice for t in report.rolls if t.dice] == [e.dice for e in live]
    assert len(report.rolls) == 31 and report.rolls[-1].dice == () and report.ended
    for t in report.rolls:
        assert t.secret == _secret(t.roll)
        if t.dice:
            entropy = fair.entropy([t.client_seed])
            assert t.dice == fair.dice(bytes.fromhex(_secret(t.roll)), entropy, 3)
    state = GAME.initial(options_from(), 1)
    folded = GAME.initial(options_from(), 1)
    for seat, command, events in steps:
        assert GAME.decide(state, seat, command) == events
        for event in events:
            state = GAME.evolve(state, event)
            folded = GAME.evolve(folded, event)
    assert folded == state and GAME.over(state)


def test_sahra_replay_and_verify_take_a_dice_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "dice.json"
    path.write_bytes(msgspec.json.encode(_record(3)))
    assert _main(replay_cli, ["replay", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [r["roll"] for r in printed["rolls"]] == [1, 2, 3, 4] and printed["ended"] is True
    assert _main(verify_cli, ["verify", "--file", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"record {path}: verified\n")
    raw = _raw(_record(3))
    thrown = next(e for e in raw["rolls"][1]["events"] if e["type"] == "DiceThrown")
    thrown["dice"] = [d % 6 + 1 for d in thrown["dice"]]
    path.write_text(json.dumps(raw), encoding="utf-8")
    assert _main(verify_cli, ["verify", "--file", str(path)]) == 1
    assert "of roll 2, dice" in capsys.readouterr().out


# --- the codec --------------------------------------------------------------------------


def test_the_tools_events_commands_and_state_are_stored_and_read_back() -> None:
    """The commitment's secret is sealed out of the stored row (PF-FAIR-3); every event,
    command and the table's state decode to what was written."""
    steps = _session(6)
    events = [e for _, _, evs in steps for e in evs]
    rows = [encode_event(e, "dice-t") for e in events]
    assert _secret(1) not in rows[0].data.decode()
    assert [decode_event(r.data, "dice-t", game="dice") for r in rows] == events
    for _, command, _ in steps:
        assert decode_command(msgspec.json.encode(command), "dice") == command
    state = table.new_table("dice-t")
    create = CreateTable(game="dice", options=options_from(), seats=("human",))
    for event in table.decide(state, _SYSTEM, create):
        state = table.evolve(state, event)
    assert decode_state(msgspec.json.encode(state), "dice-t") == state
