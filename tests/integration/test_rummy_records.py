"""A rummy game's deal record (docs/deal-format.md, section 10.2) as the services write it
and the command line reads it: a Carousel game of several rounds played through the table
service (in-memory store and bus, the same write path as the gateway's), its record built
from the store (`deal_record`), replayed by `sahra replay` and verified by `sahra verify
--file`; a dealt card moved between two hands fails its round and leaves the later ones
unchecked; a command the rules refuse is one sentence naming the rule (exit 1), never a
traceback, and `--keep-going`, which rummy's replay cannot do, is refused (exit 2)."""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine import protocol
from engine.rummy.bot import fallback
from services.bus.memory import MemoryBus
from services.cli import replay as replay_cli
from services.cli import verify as verify_cli
from services.store.memory import MemoryEventStore
from services.tables.seeds import SeedTiming
from services.tables.service import TableService
from services.verifier.records import deal_record
from tests.e2e.rummy_support import new_group

_SECRET = hashlib.sha256(b"rummy-records:carousel").digest()


def _main(module: object, argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="sahra")
    module.register(parser.add_subparsers(dest="command", required=True))  # type: ignore[attr-defined]
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code


@pytest.fixture(scope="module")
async def record() -> dict[str, Any]:
    """The record of every round of a two-seat Carousel game played to its end (both seats
    lay a new group when they hold one, else draw or pass)."""
    store = MemoryEventStore()
    timing = SeedTiming(seed_window=0.0, reveal_seconds=0.0)
    service = TableService(store, MemoryBus(), lambda: _SECRET, timing=timing)
    game = protocol.get("rummy")
    try:
        made = await service.create_table(
            game.options_from("carousel", seats=2), ("human", "human"), host="Hala"
        )
        table_id = made.state.table_id
        assert (await service.take_seat(table_id, 2, "Ilyas")).accepted
        assert (await service.start(table_id, 1)).accepted
        for step in range(5_000):
            loaded = await service.load(table_id)
            if loaded.state.status == "finished":
                break
            state = loaded.state.game_state
            seat = state.turn
            view = game.view(state, seat)
            laid = new_group(msgspec.to_builtins(view))
            if laid is not None:
                played = msgspec.convert(laid, game.command)
                if (await service.handle(table_id, seat, played, f"p{step}")).accepted:
                    continue
            assert (await service.handle(table_id, seat, fallback(view), f"c{step}")).accepted
        state = (await service.load(table_id)).state
        assert state.status == "finished"
        rounds = state.game_state.round
        built = await deal_record(store, f"{table_id}-{rounds}")
        written: dict[str, Any] = json.loads(msgspec.json.encode(built))
        return written
    finally:
        await service.deadlines.close()
        await service.close()


async def test_a_rummy_record_from_the_store_replays_and_verifies_on_the_command_line(
    record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PF-FAIR-5, RM-CAR-21, RM-CORE-7: every round from the first, the options as the
    variant and what differs from it; the replay ends where the game ended."""
    assert record["game"] == "rummy" and record["options"] == {"variant": "carousel", "seats": 2}
    assert record["seats"] == ["Hala", "Ilyas"] and len(record["rounds"]) >= 2
    assert [r["number"] for r in record["rounds"]] == list(range(1, len(record["rounds"]) + 1))
    path = tmp_path / "carousel.json"
    path.write_text(json.dumps(record))
    assert _main(replay_cli, ["replay", str(path)]) == 0
    end = json.loads(capsys.readouterr().out)
    assert end["round"] == len(record["rounds"]) and end["game_over"] is True
    assert end["secret"] == _SECRET.hex()
    assert _main(verify_cli, ["verify", "--file", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"record {path}: verified\n")


async def test_a_dealt_card_moved_fails_its_round_and_the_later_ones_are_not_checked(
    record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RM-AMB-4, PF-FAIR-5: round 1 verifies; round 2's deal, a card moved from one hand
    to the other, does not; nothing after it is checked."""
    changed = json.loads(json.dumps(record))
    dealt = next(e for e in changed["rounds"][1]["events"] if e["type"] == "RoundDealt")
    first, second = dealt["hands"]
    first[0], second[0] = second[0], first[0]
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(changed))
    assert _main(verify_cli, ["verify", "--file", str(path)]) == 1
    printed = capsys.readouterr().out
    assert printed.startswith(f"record {path}: NOT verified\n")
    verdict = json.loads(printed.splitlines()[1])
    assert [(r["number"], r["passed"], r["check"]) for r in verdict["rounds"]] == [
        (1, True, None),
        (2, False, "events"),
    ]


async def test_a_refused_command_is_one_sentence_and_keep_going_is_refused(
    record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RM-CORE-7: a command sent out of turn stops the replay with the rule that refuses
    it; rummy's replay does not go past it."""
    changed = json.loads(json.dumps(record))
    commands = changed["rounds"][0]["commands"]
    mover = next(seat for seat, command in commands if seat != 0)
    commands.insert(1, [mover % 2 + 1, {"type": "Draw"}])  # the other seat, out of turn
    path = tmp_path / "refused.json"
    path.write_text(json.dumps(changed))
    assert _main(replay_cli, ["replay", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "a command is rejected: not_your_turn [RM-CORE-7]" in captured.err
    assert _main(replay_cli, ["replay", str(path), "--keep-going"]) == 2
    assert "cannot be replayed past a rejected command" in capsys.readouterr().err
