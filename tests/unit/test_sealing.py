"""Deal secrets at rest: sealed in every stored event and snapshot, open in the service
(PF-FAIR-3: the secret comes out only when the deal ends)."""

from __future__ import annotations

import hashlib
import logging
import os
import stat
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import pytest

from engine import banakil, fair
from engine.banakil.messages import CommitSeed, SeedCommitted
from engine.table import CreateTable, TableState, new_table
from engine.table import decide as decide_table
from engine.table import evolve as evolve_table
from services.gateway import sealing
from services.gateway.codec import (
    decode_event,
    decode_event_sealed,
    decode_state,
    encode_command,
    encode_event,
    encode_state,
)
from services.store.port import Metadata, StoredEvent

SECRET = hashlib.sha256(b"a deal").hexdigest()
COMMITMENT = fair.commitment(bytes.fromhex(SECRET))


def test_a_sealed_secret_opens_only_with_its_key_table_and_deal() -> None:
    key = bytes(range(32))
    sealer = sealing.Sealer(key)
    sealed = sealer.seal(SECRET, "t1", 3, COMMITMENT)
    assert sealed.startswith("enc:v1:") and len(sealed) == len("enc:v1:") + 64
    assert SECRET not in sealed
    assert sealer.open(sealed, "t1", 3, COMMITMENT) == SECRET
    # Another table, deal or key is another pad: the commitment check says so.
    for stream, deal, other in (("t2", 3, key), ("t1", 4, key), ("t1", 3, bytes(32))):
        with pytest.raises(sealing.SealError, match="does not open to its commitment"):
            sealing.Sealer(other).open(sealed, stream, deal, COMMITMENT)
    # Two secrets of one table never share a pad, so their XOR is not in the store.
    second = hashlib.sha256(b"next deal").hexdigest()
    pad_1 = int(sealed[7:], 16) ^ int(SECRET, 16)
    sealed_2 = sealer.seal(second, "t1", 4, fair.commitment(bytes.fromhex(second)))
    assert int(sealed_2[7:], 16) ^ int(second, 16) != pad_1


def test_a_value_that_is_not_sealed_passes_and_a_malformed_one_is_refused() -> None:
    sealer = sealing.Sealer(bytes(32))
    assert sealer.open(SECRET, "t", 1, COMMITMENT) == SECRET  # revealed, or an old log
    assert sealer.seal("enc:v1:" + "0" * 64, "t", 1, COMMITMENT) == "enc:v1:" + "0" * 64
    with pytest.raises(sealing.SealError, match="malformed"):
        sealer.open("enc:v1:xyz", "t", 1, COMMITMENT)


def test_the_codec_never_writes_a_secret_in_plain_form() -> None:
    event = SeedCommitted(deal=1, commitment=COMMITMENT, algorithm=fair.ALGORITHM, secret=SECRET)
    stored = encode_event(event, "table-a")
    assert SECRET.encode() not in stored.data
    assert decode_event_sealed(stored.data).secret.startswith("enc:v1:")  # type: ignore[union-attr]
    row = StoredEvent(
        position=1,
        stream_id="table-a",
        version=1,
        type=stored.type,
        data=stored.data,
        metadata=Metadata(command_id="c"),
        recorded_at=datetime(2026, 1, 1, tzinfo=UTC),
    )
    assert decode_event(row) == event
    assert decode_event(stored.data, "table-a") == event
    with pytest.raises(ValueError, match="stream_id"):
        encode_event(event)
    # The command is recorded without its secret.
    assert SECRET.encode() not in bytes(encode_command(CommitSeed(secret=SECRET)))


def test_a_snapshot_keeps_the_secret_sealed() -> None:
    state: TableState = new_table("table-b")
    command = CreateTable(options=banakil.options_from("sahrat"), seats=("human",) * 4)
    for event in decide_table(state, 0, command):
        state = evolve_table(state, event)
    assert state.game_state is not None
    events = banakil.decide(state.game_state, 0, CommitSeed(secret=SECRET))
    state = msgspec.structs.replace(state, game_state=banakil.evolve(state.game_state, events[0]))
    data = encode_state(state)
    assert SECRET.encode() not in data and b"enc:v1:" in data
    assert decode_state(data) == state


def test_the_key_comes_from_the_environment_or_a_private_file(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    assert sealing.load_key(tmp_path, {"SAHRA_SEED_KEY": "ab" * 32}) == bytes([0xAB]) * 32
    with pytest.raises(sealing.SealError, match="64 hex characters"):
        sealing.load_key(tmp_path, {"SAHRA_SEED_KEY": "not a key"})
    with pytest.raises(sealing.SealError, match="no data directory"):
        sealing.load_key(None, {})
    with caplog.at_level(logging.WARNING):
        made = sealing.load_key(tmp_path / "data", {})
    path = tmp_path / "data" / "seed.key"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert path.read_text().strip() == made.hex()
    assert sealing.fingerprint(made) in caplog.text and made.hex() not in caplog.text
    assert sealing.load_key(tmp_path / "data", {}) == made  # kept for the next start
    assert [p.name for p in (tmp_path / "data").iterdir()] == ["seed.key"]
    path.write_text("short\n")
    with pytest.raises(sealing.SealError, match=r"seed\.key"):
        sealing.load_key(tmp_path / "data", {})
