"""Seat tokens: one seat at one table, kept across restarts, refusals that say why."""

from __future__ import annotations

import base64
import hashlib
import hmac
from pathlib import Path

import pytest

from services.gateway.auth import bearer_seat
from services.gateway.errors import ApiError
from services.gateway.settings import Settings, load_token_secret
from services.gateway.tokens import refusal, seat_of, sign

_A = b"a-token-secret-of-32-bytes-000000"
_B = b"another-token-secret-0000000000000"


def test_a_token_gives_its_seat_at_its_table_only() -> None:
    token = sign(_A, "t1", 3)
    assert seat_of(_A, "t1", token) == 3
    assert seat_of(_A, "t2", token) is None
    assert refusal(_A, token) == ("bad_token", "this token is not for this table")


def test_a_token_signed_by_another_server_key_is_told_apart() -> None:
    token = sign(_B, "t1", 2)
    assert seat_of(_A, "t1", token) is None
    code, message = refusal(_A, token)
    assert code == "token_from_another_key"
    assert "signed by another server key" in message


def test_a_first_format_token_is_still_accepted_under_its_secret() -> None:
    mac = hmac.new(_A, b"t1\x002", hashlib.sha256).digest()
    legacy = "v1.2." + base64.urlsafe_b64encode(mac).rstrip(b"=").decode()
    assert seat_of(_A, "t1", legacy) == 2
    assert seat_of(_B, "t1", legacy) is None


@pytest.mark.parametrize(
    "token", ["", "v2", "v2.x.y.z", "v2.0.a.b", "v2.\u00b2.a.b", "v2.1234.a.b", "v2.1." + "a" * 300]
)
def test_what_is_not_a_token_is_refused_without_an_error(token: str) -> None:
    assert seat_of(_A, "t1", token) is None
    assert refusal(_A, token)[0] == "bad_token"


def test_the_bearer_header_gives_401_without_a_token_and_403_with_a_foreign_one() -> None:
    assert bearer_seat(_A, "t1", f"Bearer {sign(_A, 't1', 4)}") == 4
    with pytest.raises(ApiError) as missing:
        bearer_seat(_A, "t1", None)
    assert missing.value.status == 401
    with pytest.raises(ApiError) as foreign:
        bearer_seat(_A, "t1", f"Bearer {sign(_B, 't1', 4)}")
    assert (foreign.value.status, foreign.value.code) == (403, "token_from_another_key")


def test_the_token_secret_is_kept_in_the_data_dir_and_found_again(tmp_path: Path) -> None:
    first = Settings.from_env({}, data_dir=tmp_path)
    again = Settings.from_env({}, data_dir=tmp_path)
    assert first.token_secret == again.token_secret
    assert (tmp_path / "token.key").stat().st_mode & 0o777 == 0o600
    token = sign(first.token_secret, "t1", 1)
    assert seat_of(again.token_secret, "t1", token) == 1


def test_the_environment_overrides_the_file_and_a_short_secret_is_refused(tmp_path: Path) -> None:
    secret = "x" * 40
    assert load_token_secret(tmp_path, {"SAHRA_TOKEN_SECRET": secret}) == secret.encode()
    assert not (tmp_path / "token.key").exists()
    with pytest.raises(ValueError, match="at least 16"):
        load_token_secret(tmp_path, {"SAHRA_TOKEN_SECRET": "short"})
    (tmp_path / "token.key").write_text("tiny\n")
    with pytest.raises(ValueError, match=r"token\.key"):
        load_token_secret(tmp_path, {})
