"""The names and ids a client may send (services/tables/validation.py), and telling an
outage from a bug (services/gateway/outage.py): issue 10 items 4 and 5."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
import pytest

from engine.errors import RuleViolation
from services.gateway.outage import down_part
from services.tables.validation import command_id, player_name, table_id


@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("Amal", "Amal"),
        ("  أمل الصحراء \t", "أمل الصحراء"),  # Arabic; white space around is trimmed
        ("👩🏽‍💻 Salma", "👩🏽‍💻 Salma"),  # an emoji sequence keeps its joiner
        ("محمد‌علي", "محمد‌علي"),  # a zero-width non-joiner inside Persian/Arabic text
        ("Zeynep 🇹🇷", "Zeynep 🇹🇷"),
        ("李小龙", "李小龙"),
        ("x" * 64, "x" * 64),
        ("🃏", "🃏"),
    ],
)
def test_names_in_any_script_are_kept_trimmed(sent: str, kept: str) -> None:
    assert player_name(sent) == kept


@pytest.mark.parametrize(
    ("sent", "why"),
    [
        ("Am\x00al", "control character (U+0000) at character 3"),
        ("Am\nal", "U+000A"),
        ("Am\x7fal", "U+007F"),
        ("Am\x85al", "U+0085"),  # C1
        ("Am\u2028al", "line separator"),
        ("Am\u2029al", "paragraph separator"),
        ("\u202eevil", "text-direction override"),
        ("a\u2066b", "text-direction override"),
        ("a\ud800b", "lone surrogate"),
        ("", "is empty"),
        (" \t ", "is empty"),
        ("\u200d\u200c", "no visible character"),
        ("x" * 65, "65 characters, more than 64"),
    ],
)
def test_a_name_with_what_cannot_be_shown_or_stored_is_refused_saying_why(
    sent: str, why: str
) -> None:
    with pytest.raises(RuleViolation) as refused:
        player_name(sent, "player")
    assert refused.value.code == "invalid_name"
    assert why in refused.value.message and '"player"' in refused.value.message
    assert "\x00" not in refused.value.message  # never echoes what it refuses


@pytest.mark.parametrize("good", ["c1", "c-17", "0f8e2a4c-1b2d-4e5f-8a9b-0c1d2e3f4a5b", "~!" * 64])
def test_command_ids_are_visible_ascii(good: str) -> None:
    assert command_id(good) == good


@pytest.mark.parametrize("bad", ["", "c\x001", "c 1", "c\t1", "ç1", "x" * 129, "c1\n"])
def test_other_command_ids_are_refused(bad: str) -> None:
    with pytest.raises(RuleViolation) as refused:
        command_id(bad)
    assert refused.value.code == "invalid_command_id"
    assert '"command_id"' in refused.value.message


@pytest.mark.parametrize("bad", ["", "a b", "a\x00b", "a/b", "a.b", "x" * 65, "ملف"])
def test_a_table_id_is_letters_digits_dash_and_underscore(bad: str) -> None:
    assert table_id("bb9cc40dbe5e4290") == "bb9cc40dbe5e4290"
    with pytest.raises(RuleViolation) as refused:
        table_id(bad)
    assert refused.value.code == "invalid_table_id"


def test_a_lost_database_connection_is_an_outage_of_postgresql() -> None:
    assert down_part(asyncpg.InterfaceError("connection is closed")) == "postgresql"
    assert down_part(asyncpg.ConnectionDoesNotExistError("gone")) == "postgresql"
    assert down_part(asyncpg.CannotConnectNowError("shutting down")) == "postgresql"
    wrapped = RuntimeError("while loading")
    wrapped.__cause__ = asyncpg.InterfaceError("pool is closed")
    assert down_part(wrapped) == "postgresql"


async def test_a_connection_refused_inside_the_driver_is_an_outage() -> None:
    missing = Path("/nonexistent-sahra-dir")
    with pytest.raises(OSError) as failed:
        await asyncpg.connect(host=str(missing), port=5432, user="x", timeout=2)
    assert down_part(failed.value) == "postgresql"


async def test_an_os_error_of_our_own_is_a_bug_not_an_outage() -> None:
    with pytest.raises(OSError) as failed:
        Path("/nonexistent-sahra-file").read_bytes()
    assert down_part(failed.value) is None
    assert down_part(ValueError("a bug")) is None
    with pytest.raises(TimeoutError) as late:
        await asyncio.wait_for(asyncio.sleep(1), 0.001)
    assert down_part(late.value) is None
