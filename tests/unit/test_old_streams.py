"""A stream stored by an older engine still reads: the rows of a Banakil table written by
commit d740b58 (before the table aggregate and the codec went through the game registry,
tests/fixtures/make_stream_d740b58.py) decode, through the registry, to the events that
engine decided, and fold to the table it built. The same events written today are stored
as the same values (docs/deal-format.md, "Stored streams of older engines")."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine import table
from engine.errors import RuleViolation
from engine.table import TableState
from services.store.port import Metadata, StoredEvent
from services.tables import sealing
from services.tables.codec import (
    decode_command,
    decode_event,
    decode_state,
    encode_event,
    encode_json,
    encode_state,
)

_FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "stream_d740b58.json"
_OLD: dict[str, Any] = msgspec.json.decode(_FIXTURE.read_bytes())


@pytest.fixture(autouse=True)
def _the_key_it_was_sealed_with(monkeypatch: pytest.MonkeyPatch) -> None:
    sealer = sealing.Sealer(bytes.fromhex(_OLD["seed_key"]))
    monkeypatch.setitem(sealing._installed, "key", sealer)  # restored after the test


def _rows() -> list[StoredEvent]:
    return [
        StoredEvent(
            position=row["version"],
            stream_id=_OLD["stream_id"],
            version=row["version"],
            type=row["type"],
            data=msgspec.json.encode(row["data"]),
            metadata=Metadata(
                command_id=f"c{row['version']}",
                seat=row["seat"],
                command=msgspec.Raw(msgspec.json.encode(row["command"])),
            ),
            recorded_at=datetime(2026, 12, 1, tzinfo=UTC),
        )
        for row in _OLD["rows"]
    ]


def _json(value: object) -> Any:
    return msgspec.json.decode(encode_json(value))


def test_a_stream_stored_before_the_generic_table_folds_to_the_table_it_built() -> None:
    rows = _rows()
    assert len(rows) > 20 and rows[0].type == "TableCreated" and rows[-1].type == "SeedRevealed"
    state = table.new_table(_OLD["stream_id"])
    for row, expected in zip(rows, _OLD["events"], strict=True):
        event = decode_event(row, game=state.game or None)
        assert _json(event) == expected, row.type
        state = table.evolve(state, event)
    assert state.game == "banakil"
    assert _json(state) == _OLD["state"]
    assert state.game_state is not None and state.game_state.phase == "seeding"


def test_read_without_naming_the_game_each_old_row_is_the_same_event() -> None:
    for row, expected in zip(_rows(), _OLD["events"], strict=True):
        assert _json(decode_event(row)) == expected, row.type


def test_the_events_of_an_old_stream_written_today_are_stored_as_they_were() -> None:
    """Stored bytes unchanged: a row without hidden cards is the same bytes; one with them
    has the same public form, and its sealed part (a fresh nonce) opens to the same event."""
    stream = _OLD["stream_id"]
    hidden = 0
    for row in _rows():
        event = decode_event(row)
        again = encode_event(event, stream)
        assert again.type == row.type
        if row.data.startswith(b'{"public"'):
            hidden += 1
            public = msgspec.json.decode(again.data)["public"]
            assert public == msgspec.json.decode(row.data)["public"]
            assert decode_event(again.data, stream) == event
        else:
            assert again.data == row.data, row.type
    assert hidden > 0  # CardsDealt at least: the sealed path was exercised


def test_the_commands_recorded_in_an_old_stream_decode_for_its_game() -> None:
    rows = _rows()
    kinds = set()
    for row in rows:
        command = decode_command(bytes(row.metadata.command), "banakil")
        kinds.add(type(command).__name__)
        assert _json(command) == msgspec.json.decode(row.metadata.command)
    assert {"CreateTable", "TakeSeat", "Disconnect", "StartTable", "CommitSeed"} <= kinds


def test_an_old_row_is_refused_for_another_game_and_a_game_not_hosted_is_unknown() -> None:
    rows = _rows()
    created = next(r for r in rows if r.type == "TableCreated")
    dealt = next(r for r in rows if r.type == "CardsDealt")
    with pytest.raises(msgspec.ValidationError, match="cannot be created for banakil"):
        decode_event(created, game="another")
    with pytest.raises(RuleViolation) as unknown:
        decode_event(dealt, game="chess")
    assert unknown.value.code == "unknown_game" and "banakil" in unknown.value.message
    moved = msgspec.json.decode(created.data)
    moved["game"] = "chess"
    with pytest.raises(RuleViolation) as info:
        decode_event(msgspec.structs.replace(created, data=msgspec.json.encode(moved)))
    assert info.value.code == "unknown_game"


def test_a_table_folded_from_an_old_stream_snapshots_and_reads_back_whole() -> None:
    """Snapshots are only a cache keyed by the engine's version (one of an older engine is
    never loaded); the table an old stream folds to is snapshotted and read back today,
    its game state decoded by the game's own State Struct."""
    state: TableState = table.new_table(_OLD["stream_id"])
    for row in _rows():
        state = table.evolve(state, decode_event(row))
    again = decode_state(encode_state(state), state.table_id)
    assert again == state
    assert type(again.game_state) is type(state.game_state) and again.game_state is not None


def test_a_reader_that_knows_no_game_still_gets_the_games_own_structs() -> None:
    """A read model's checkpoint decodes TableState and TableCreated with plain msgspec: the
    game's state and options are typed by the game they name, strictly."""
    state: TableState = table.new_table(_OLD["stream_id"])
    for row in _rows():
        state = table.evolve(state, decode_event(row))
    again = msgspec.json.decode(encode_json(state), type=TableState)
    assert again == state and type(again.game_state) is type(state.game_state)
    created = decode_event(_rows()[0])
    plain = msgspec.json.decode(encode_json(created), type=table.TableCreated)
    assert plain == created and type(plain.options) is type(created.options)
    wrong = msgspec.json.decode(encode_json(state))
    wrong["game_state"]["phase"] = "nowhere"
    with pytest.raises(msgspec.ValidationError, match="phase"):
        msgspec.json.decode(msgspec.json.encode(wrong), type=TableState)
