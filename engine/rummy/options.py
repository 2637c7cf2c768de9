"""Rummy table options (rules/rummy.md §3, PF-ROOM-2, PF-TIMER-7): the variant and its extras.

Each variant is a preset of the same Struct; the engine reads the fields, and the variant's
data (engine/rummy/variants.py) through `variant`. An extra option belongs to the variants
the rules give it to (RM-OPT-1: Manipulation and Shanghai; RM-OPT-2: Manipulation;
RM-OPT-3: Machiavelli, Guadeloupe, Tahiti): setting it away from its default anywhere else
is refused, so a host never believes an option is in force that no rule reads.
Every number is bounded (a client's number ends up in timers and totals).
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from engine.errors import RuleViolation
from engine.rummy.variants import VARIANTS, Variant

__all__ = ["PRESETS", "RummyOptions", "options_from", "validate"]

VariantName = Literal[
    "manipulation", "machiavelli", "shanghai", "guadeloupe", "carousel", "vatican", "tahiti"
]

_TURN_SECONDS = (60, 600)  # PF-TIMER-7: 60 s by default; the host may choose longer
_COMPULSORY = ("manipulation", "shanghai")  # RM-OPT-1
_PLAY_TO = ("manipulation",)  # RM-OPT-2
_INCOMPLETE = ("machiavelli", "guadeloupe", "tahiti")  # RM-OPT-3


class RummyOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    variant: VariantName = "manipulation"  # RM-CORE-3: Manipulation is the default
    seats: int = 4  # RM-CORE-1: 2 to 5
    compulsory_play: Literal["reminder_with_hint", "trust_player"] = "reminder_with_hint"
    play_to: Literal[200, 300] = 200  # RM-OPT-2, RM-AMB-2
    incomplete_move: Literal["undo_free", "revert_draw_3"] = "undo_free"  # RM-OPT-3
    turn_seconds: int = 60  # PF-TIMER-7, RM-AMB-26
    bots_allowed: bool = True  # PF-BOT-1: every rummy table is free (PF-FREE-2)

    @property
    def rules(self) -> Variant:
        return VARIANTS[self.variant]


PRESETS: dict[str, RummyOptions] = {name: RummyOptions(variant=name) for name in VARIANTS}  # type: ignore[arg-type]


def validate(options: RummyOptions) -> None:
    """RuleViolation `bad_option` naming the option and what it may be."""
    if not isinstance(options.seats, int) or not 2 <= options.seats <= 5:
        raise RuleViolation("bad_option", "RM-CORE-1", "seats must be between 2 and 5")
    low, high = _TURN_SECONDS
    if not isinstance(options.turn_seconds, int) or not low <= options.turn_seconds <= high:
        raise RuleViolation(
            "bad_option", "PF-TIMER-7", f"turn_seconds must be between {low} and {high} seconds"
        )
    extras = (
        ("compulsory_play", "reminder_with_hint", _COMPULSORY, "RM-OPT-1"),
        ("play_to", 200, _PLAY_TO, "RM-OPT-2"),
        ("incomplete_move", "undo_free", _INCOMPLETE, "RM-OPT-3"),
    )
    for name, default, variants, rule in extras:
        if getattr(options, name) != default and options.variant not in variants:
            raise RuleViolation(
                "bad_option",
                rule,
                f"{name} is an option of {' and '.join(variants)} only, not {options.variant}",
            )


def options_from(preset: str | None = None, /, **overrides: Any) -> RummyOptions:
    """The options of a preset (a variant's name; Manipulation by default) with single
    options over it, validated."""
    name = preset or "manipulation"
    base = PRESETS.get(name)
    if base is None:
        shown = ", ".join(PRESETS)
        raise RuleViolation("bad_option", "RM-CORE-3", f"the variants are {shown}, not {name!r}")
    try:
        options = msgspec.convert({**msgspec.structs.asdict(base), **overrides}, RummyOptions)
    except msgspec.ValidationError as exc:
        raise RuleViolation("bad_option", "PF-ROOM-2", str(exc)) from None
    validate(options)
    return options
