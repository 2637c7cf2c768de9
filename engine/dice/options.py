"""The dice tool's options: none to choose (PF-DICE-1 rolls three dice, always).

A table of the tool has one seat, the phone that rolls. The options Struct still exists,
empty and strict, because every table is created with its game's options (PF-ROOM-2):
`{"game": "dice"}` or `{"game": "dice", "options": {}}`, and any option named is refused.
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine.errors import RuleViolation

__all__ = ["PRESETS", "SEATS", "DiceOptions", "options_from", "validate"]

SEATS = 1  # one phone for the whole table (PF-DICE-1)


class DiceOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Nothing to choose: three dice a roll, one seat, no timer, no bots."""


PRESETS: dict[str, DiceOptions] = {"three_dice": DiceOptions()}


def validate(options: DiceOptions) -> None:
    """Every DiceOptions is valid: it has no values to bound."""


def options_from(preset: str | None = None, /, **overrides: Any) -> DiceOptions:
    """The one preset (`three_dice`); RuleViolation `bad_option` for another preset or for
    any option named (the tool has none). The preset is positional only, so an option
    named "preset" (a record's or a request's options) is refused like any other option
    instead of colliding with it (a TypeError)."""
    name = preset or "three_dice"
    if name not in PRESETS:
        raise RuleViolation(
            "bad_option", "PF-ROOM-2", f"the dice tool's preset is three_dice, not {name!r:.40}"
        )
    try:
        return msgspec.convert(overrides, DiceOptions)
    except msgspec.ValidationError as exc:
        raise RuleViolation(
            "bad_option", "PF-DICE-1", f"the dice tool has no options: {exc}"
        ) from None
