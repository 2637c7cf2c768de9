"""Every table option a host can send has finite bounds (BK-RS-3): a value outside them is
refused at creation with `bad_option`, the option's name and its allowed range, wherever
the CreateTable is decided (issue 10 item 1: a turn of 1e12 s stopped every clock)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from engine import banakil
from engine import table as table_aggregate
from engine.banakil.options import BOUNDS, BanakilOptions
from engine.errors import RuleViolation


def _refused(**overrides: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        banakil.options_from("sahrat", **overrides)
    return info.value


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_each_number_option_is_refused_just_outside_its_range_with_the_range_named(
    name: str,
) -> None:
    """BK-RS-3: a value that cannot work is refused with a clear error."""
    low, high, _ = BOUNDS[name]
    for value in (low - 1, high + 1):
        error = _refused(**{name: value})
        assert (error.code, error.rule_id) == ("bad_option", "BK-RS-3")
        assert name in error.message
        assert f"{low}" in error.message and f"{high}" in error.message
    for value in (low, high):
        assert getattr(banakil.options_from("sahrat", **{name: value}), name) == value


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("turn_seconds", 10**12),
        ("target_score", 10**23),
        ("tie_margin", 2**63),
        ("going_out_bonus", 10**9),
    ],
)
def test_huge_numbers_are_refused_and_the_message_stays_short(name: str, value: int) -> None:
    error = _refused(**{name: value})
    assert error.code == "bad_option" and name in error.message
    assert len(error.message) < 200


def test_the_maxima_are_generous_for_real_play() -> None:
    """The rules' own values (PF-TIMER-1: 20 / 40 s; BK-OPT-2: 150 / 202 / 222; BK-OPT-9:
    2 / 10 reshuffles, BK-STOCK-S3's cap) sit well inside the bounds."""
    assert BOUNDS["turn_seconds"][:2] == (5, 600)
    assert BOUNDS["max_reshuffles"][:2] == (0, 10)  # BK-STOCK-S3: a deal always ends
    for preset in banakil.PRESETS.values():
        banakil.options.validate(preset)
    assert banakil.options_from("sahrat", turn_seconds=600, target_score=1_000_000)


def test_a_create_table_decided_anywhere_is_held_to_the_same_bounds() -> None:
    """Options built without `options_from` (a CreateTable decoded elsewhere) are checked by
    the table aggregate too: out of range, of the wrong type, or not a known value."""
    fresh = table_aggregate.new_table("t-1")
    for opts in (
        BanakilOptions(turn_seconds=10**12),
        BanakilOptions(target_score=10**23),
        BanakilOptions(turn_seconds=1e12),  # type: ignore[arg-type]
        BanakilOptions(turn_seconds=True),  # type: ignore[arg-type]
        BanakilOptions(mode="three"),  # type: ignore[arg-type]
    ):
        command = table_aggregate.CreateTable(options=opts, seats=("human",) * 4)
        with pytest.raises(RuleViolation) as info:
            table_aggregate.decide(fresh, 0, command)
        assert info.value.code == "bad_option"


def test_a_wrong_type_or_an_unknown_option_name_is_refused_briefly() -> None:
    error = _refused(turn_seconds=1e12)
    assert error.code == "bad_option" and "turn_seconds" in error.message
    error = _refused(**{"x" * 10_000: 1})
    assert error.code == "bad_option" and len(error.message) < 300
    assert msgspec.structs.asdict(banakil.options_from()) == msgspec.structs.asdict(
        banakil.PRESETS["sahrat"]
    )
