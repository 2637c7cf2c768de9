"""Deal secrets and hidden cards at rest: sealed in every stored event and snapshot, open
in the service (PF-FAIR-3: nothing private comes out before the deal ends)."""

from __future__ import annotations

import base64
import hashlib
import logging
import os
import stat
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine import banakil, fair
from engine.banakil.messages import CardDrawn, CardsDealt, CommitSeed, DeckStacked, SeedCommitted
from engine.banakil.redact import redact
from engine.table import CreateTable, TableState, new_table
from engine.table import decide as decide_table
from engine.table import evolve as evolve_table
from services.store.port import Metadata, StoredEvent
from services.tables import hidden, sealing
from services.tables.codec import (
    decode_event,
    decode_event_sealed,
    decode_state,
    encode_command,
    encode_event,
    encode_state,
    open_snapshot,
    seal_snapshot,
)

SECRET = hashlib.sha256(b"a deal").hexdigest()
COMMITMENT = fair.commitment(bytes.fromhex(SECRET))


def test_a_sealed_secret_opens_only_with_its_key_table_and_deal() -> None:
    key = bytes(range(32))
    sealer = sealing.Sealer(key)
    sealed = sealer.seal(SECRET, "t1", 3, COMMITMENT)
    head = f"enc:v2:{sealer.fingerprint}:"
    assert sealed.startswith(head) and len(sealed) == len(head) + 64
    assert SECRET not in sealed
    assert sealer.open(sealed, "t1", 3, COMMITMENT) == SECRET
    # Another table or deal is another pad: the commitment check says so.
    for stream, deal in (("t2", 3), ("t1", 4)):
        with pytest.raises(sealing.SealError, match="does not open to its commitment") as e:
            sealer.open(sealed, stream, deal, COMMITMENT)
        assert not isinstance(e.value, sealing.KeyMismatch)
    # Another key is told apart by the fingerprint: the process is wrong, not the value.
    with pytest.raises(sealing.KeyMismatch, match=f"fingerprint {sealer.fingerprint}"):
        sealing.Sealer(bytes(32)).open(sealed, "t1", 3, COMMITMENT)
    # Two secrets of one table never share a pad, so their XOR is not in the store.
    second = hashlib.sha256(b"next deal").hexdigest()
    pad_1 = int(sealed[len(head) :], 16) ^ int(SECRET, 16)
    sealed_2 = sealer.seal(second, "t1", 4, fair.commitment(bytes.fromhex(second)))
    assert int(sealed_2[len(head) :], 16) ^ int(second, 16) != pad_1


def test_a_secret_sealed_in_the_first_format_still_opens() -> None:
    sealer = sealing.Sealer(bytes(range(32)))
    body = sealer.seal(SECRET, "t1", 3, COMMITMENT).rpartition(":")[2]
    first = "enc:v1:" + body  # as stored before the fingerprint was written
    assert sealing.is_sealed(first)
    assert sealer.open(first, "t1", 3, COMMITMENT) == SECRET
    with pytest.raises(sealing.SealError, match="does not open to its commitment"):
        sealing.Sealer(bytes(32)).open(first, "t1", 3, COMMITMENT)


def test_a_value_that_is_not_sealed_passes_and_a_malformed_one_is_refused() -> None:
    sealer = sealing.Sealer(bytes(32))
    assert sealer.open(SECRET, "t", 1, COMMITMENT) == SECRET  # revealed, or an old log
    assert sealer.seal("enc:v1:" + "0" * 64, "t", 1, COMMITMENT) == "enc:v1:" + "0" * 64
    with pytest.raises(sealing.SealError, match="malformed"):
        sealer.open("enc:v1:xyz", "t", 1, COMMITMENT)
    with pytest.raises(sealing.SealError, match="malformed"):
        sealer.open(f"enc:v2:{sealer.fingerprint}:xyz", "t", 1, COMMITMENT)


def test_the_codec_never_writes_a_secret_in_plain_form() -> None:
    event = SeedCommitted(deal=1, commitment=COMMITMENT, algorithm=fair.ALGORITHM, secret=SECRET)
    stored = encode_event(event, "table-a")
    assert SECRET.encode() not in stored.data
    assert decode_event_sealed(stored.data).secret.startswith("enc:v2:")  # type: ignore[union-attr]
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


def _seeded_table(table_id: str) -> TableState:
    state: TableState = new_table(table_id)
    command = CreateTable(options=banakil.options_from("sahrat"), seats=("human",) * 4)
    for event in decide_table(state, 0, command):
        state = evolve_table(state, event)
    assert state.game_state is not None
    events = banakil.decide(state.game_state, 0, CommitSeed(secret=SECRET))
    return msgspec.structs.replace(state, game_state=banakil.evolve(state.game_state, events[0]))


def _row(stream_id: str, kind: str, data: bytes) -> StoredEvent:
    return StoredEvent(
        position=1,
        stream_id=stream_id,
        version=1,
        type=kind,
        data=data,
        metadata=Metadata(command_id="c"),
        recorded_at=datetime(2026, 1, 1, tzinfo=UTC),
    )


def test_a_snapshot_is_sealed_whole_for_its_table() -> None:
    state = _seeded_table("table-b")
    data = encode_state(state)
    assert data.startswith(b"sahra-sealed:v1:table-b:") and SECRET.encode() not in data
    assert b"seats" not in data  # nothing of the state shows
    assert decode_state(data) == decode_state(data, "table-b") == state
    with pytest.raises(hidden.Unreadable, match="sealed for 'table-b'"):
        decode_state(data, "table-c")  # another table's snapshot row
    # A snapshot written before sealing whole (only its secret sealed) is read as it is.
    game = state.game_state
    assert game is not None and game.commitment is not None
    old_secret = sealing.current().seal(SECRET, "table-b", game.deal, game.commitment)
    old = msgspec.json.encode(
        msgspec.structs.replace(state, game_state=msgspec.structs.replace(game, secret=old_secret))
    )
    assert decode_state(old) == state


def test_a_checkpoint_is_sealed_under_its_name() -> None:
    sealed = seal_snapshot("projection:x", b'{"hands": ["7H#1"]}')
    assert b"7H#1" not in sealed
    assert open_snapshot("projection:x", sealed) == b'{"hands": ["7H#1"]}'
    with pytest.raises(hidden.Unreadable):
        open_snapshot("projection:y", sealed)
    assert open_snapshot("projection:x", b'{"old": 1}') == b'{"old": 1}'  # before sealing


DEALT = CardsDealt(
    deal=1,
    entropy="e",
    dealer=None,
    starter=2,
    hands=(("7H#1", "8H#1"), ("9H#2", "JK#1")),
    stock=("2C#2", "AS#1", "10D#2"),
)
CARDS = ("7H#1", "8H#1", "9H#2", "JK#1", "2C#2", "AS#1", "10D#2")


@pytest.mark.parametrize(
    "event",
    [DEALT, CardDrawn(seat=3, card="AS#1"), DeckStacked(deal=1, cards=CARDS, dealer=1, cut=4)],
)
def test_hidden_cards_rest_sealed_beside_the_public_form_pf_fair_3(event: Any) -> None:
    stored = encode_event(event, "table-h")
    assert not [c for c in CARDS if c.encode() in stored.data]
    assert stored.data.startswith(b'{"public":{"type":')
    # Without the key: the public form, as a spectator sees the event.
    assert decode_event_sealed(stored.data) == redact(event, None)
    # With it, in the service: the event itself, from the row or from its JSON.
    assert decode_event(_row("table-h", stored.type, stored.data)) == event
    assert decode_event(stored.data, "table-h") == event
    with pytest.raises(ValueError, match="stream"):
        encode_event(event)
    with pytest.raises(ValueError, match="stream"):
        decode_event(stored.data)
    # Two seals of one event differ (a fresh nonce each time).
    assert encode_event(event, "table-h").data != stored.data


def test_the_length_of_a_sealed_card_does_not_tell_which_card_it_is() -> None:
    """A ten is written with one character more ("10H#1"): padded, it seals as long."""
    lengths = {
        len(encode_event(CardDrawn(seat=4, card=card), "table-h").data)
        for card in ("10H#1", "7H#1", "JK#4", "AS#2", "10D#2")
    }
    assert len(lengths) == 1


def test_a_sealed_event_opens_only_for_its_table_type_and_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stored = encode_event(DEALT, "table-h")
    with pytest.raises(hidden.Unreadable, match="does not open"):
        decode_event(_row("table-i", stored.type, stored.data))  # copied to another table
    with pytest.raises(hidden.Unreadable, match="does not open"):
        decode_event(_row("table-h", "CardDrawn", stored.data))  # passed off as another event
    envelope = msgspec.json.decode(stored.data)
    body = bytearray(base64.b64decode(envelope["sealed"][len(hidden.PREFIX) :]))
    body[-1] ^= 1
    envelope["sealed"] = hidden.PREFIX + base64.b64encode(bytes(body)).decode()
    with pytest.raises(hidden.Unreadable, match="altered"):
        decode_event(_row("table-h", stored.type, msgspec.json.encode(envelope)))
    envelope["sealed"] = hidden.PREFIX + "not base64!"
    with pytest.raises(hidden.Unreadable, match="malformed"):
        decode_event(_row("table-h", stored.type, msgspec.json.encode(envelope)))
    # Another seed key says so, with both fingerprints (never deals a wrong card).
    mine = sealing.current().fingerprint
    other = sealing.Sealer(bytes(range(32, 64)))
    monkeypatch.setitem(sealing._installed, "key", other)  # restored after the test
    with pytest.raises(hidden.KeyMismatch, match=f"fingerprint {mine}.*{other.fingerprint}"):
        decode_event(_row("table-h", stored.type, stored.data))


def test_rows_written_before_sealing_are_read_as_they_are() -> None:
    old = msgspec.json.encode(DEALT)  # a CardsDealt as stored before this change
    assert decode_event(_row("table-o", "CardsDealt", old)) == DEALT
    assert decode_event_sealed(old) == DEALT
    public = msgspec.json.encode(CardDrawn(seat=1, card="3D#1"))
    assert decode_event(public, "table-o") == CardDrawn(seat=1, card="3D#1")


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
