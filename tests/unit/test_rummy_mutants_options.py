"""Rummy table options (rules/rummy.md §3, engine/rummy/options.py): every refusal names
the option, its rule and what it may be, in the words the host reads when creating a
table; the bounds are inclusive.

Written against the survivors of mutation testing (scripts/mutate.sh, docs/testing.md):
the refusals' codes and rule IDs were pinned before, their sentences and the upper bound
of turn_seconds were not.

Rules: RM-CORE-1, RM-CORE-3, RM-OPT-1, RM-OPT-2, RM-OPT-3, PF-ROOM-2, PF-TIMER-7.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import RuleViolation
from engine.rummy.options import options_from


def _refusal(preset: str | None, **overrides: Any) -> tuple[str, str, str]:
    with pytest.raises(RuleViolation) as caught:
        options_from(preset, **overrides)
    e = caught.value
    return e.code, e.rule_id, e.message


@pytest.mark.parametrize("seats", [1, 6])
def test_a_table_of_fewer_than_two_or_more_than_five_seats_is_refused(seats: int) -> None:
    """RM-CORE-1: 2 to 5 players."""
    assert _refusal("vatican", seats=seats) == (
        "bad_option",
        "RM-CORE-1",
        "seats must be between 2 and 5",
    )


@pytest.mark.parametrize("seconds", [59, 601])
def test_a_turn_time_outside_one_to_ten_minutes_is_refused(seconds: int) -> None:
    """PF-TIMER-7, RM-AMB-26: 60 seconds by default, the host may choose longer, up to 600."""
    assert _refusal("tahiti", turn_seconds=seconds) == (
        "bad_option",
        "PF-TIMER-7",
        "turn_seconds must be between 60 and 600 seconds",
    )


@pytest.mark.parametrize("seconds", [60, 600])
def test_both_ends_of_the_turn_time_are_allowed(seconds: int) -> None:
    """PF-TIMER-7: the bounds are inclusive."""
    assert options_from("tahiti", turn_seconds=seconds).turn_seconds == seconds


@pytest.mark.parametrize(
    ("preset", "overrides", "rule", "message"),
    [
        (
            "carousel",
            {"compulsory_play": "trust_player"},
            "RM-OPT-1",
            "compulsory_play is an option of manipulation and shanghai only, not carousel",
        ),
        (
            "shanghai",
            {"play_to": 300},
            "RM-OPT-2",
            "play_to is an option of manipulation only, not shanghai",
        ),
        (
            "manipulation",
            {"incomplete_move": "revert_draw_3"},
            "RM-OPT-3",
            "incomplete_move is an option of machiavelli and guadeloupe and tahiti only,"
            " not manipulation",
        ),
    ],
)
def test_an_extra_option_of_other_variants_is_refused_naming_its_variants(
    preset: str, overrides: dict[str, Any], rule: str, message: str
) -> None:
    """RM-OPT-1 (Manipulation and Shanghai), RM-OPT-2 (Manipulation), RM-OPT-3
    (Machiavelli, Guadeloupe, Tahiti): set anywhere else, the option is refused with the
    variants it belongs to."""
    assert _refusal(preset, **overrides) == ("bad_option", rule, message)


def test_an_unknown_variant_is_refused_naming_the_seven() -> None:
    """RM-CORE-3: the variants the host may choose from, listed."""
    assert _refusal("gin") == (
        "bad_option",
        "RM-CORE-3",
        "the variants are manipulation, machiavelli, shanghai, guadeloupe, carousel, "
        "vatican, tahiti, not 'gin'",
    )


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"compulsory_play": "sometimes"}, "$.compulsory_play"),
        ({"play_to": 250}, "$.play_to"),
        ({"seats": "four"}, "$.seats"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_an_option_of_the_wrong_kind_is_refused_naming_the_field(
    overrides: dict[str, Any], field: str
) -> None:
    """PF-ROOM-2: the host's options are checked against what each may be; the refusal
    says which field is wrong (RM-AMB-2: play_to is 200 or 300)."""
    code, rule, message = _refusal("manipulation", **overrides)
    assert (code, rule) == ("bad_option", "PF-ROOM-2")
    assert field in message
