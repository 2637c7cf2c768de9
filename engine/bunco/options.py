"""Bunco table options (rules/bunco.md §8, PF-ROOM-2/5, PF-TIMER-7): players, sets, wipeout.

The options are fixed when the table is created, before the first roll (BU-OPT-3,
PF-AMB-15): no command changes them. Every number is bounded, because a client's number
ends up in timers, loops and totals.
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine.errors import RuleViolation

__all__ = ["PLAYER_COUNTS", "PRESETS", "BuncoOptions", "options_from", "validate"]

PLAYER_COUNTS = (3, 4, 7, 8, 11, 12)  # BU-SIZE-4, PF-ROOM-5
# BU-OPT-2, BU-AMB-12: "any whole number of sets from 1 upward"; bounded so that an evening
# ends (20 sets are 120 rounds, far beyond any evening's length).
_SETS = (1, 20)
_TURN_SECONDS = (10, 600)  # PF-TIMER-7: 10 s a roll by default; the host may choose longer


class BuncoOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    players: int = 12  # BU-SET-1: the classic evening; 3, 4, 7, 8, 11 or 12 (BU-SIZE-4)
    sets: int = 4  # BU-OPT-2, BU-RND-3: 4 sets of 6 rounds
    wipeout: bool = False  # BU-OPT-1
    turn_seconds: int = 10  # PF-TIMER-7: the time for each roll
    bots_allowed: bool = True  # PF-BOT-1: every Bunco table is free (PF-FREE-2)

    @property
    def rounds(self) -> int:
        """BU-RND-1..3: six rounds a set."""
        return 6 * self.sets

    @property
    def places(self) -> int:
        """The places at the play tables: the players and the ghost, if any (BU-SIZE-3)."""
        return self.players + (-self.players) % 4

    @property
    def ghost(self) -> int:
        """The ghost's place number (the one after the last seat), 0 when there is none."""
        return self.players + 1 if self.players % 4 else 0


PRESETS: dict[str, BuncoOptions] = {"classic": BuncoOptions()}


def validate(options: BuncoOptions) -> None:
    """RuleViolation `bad_option` naming the option and what it may be."""
    if not isinstance(options.players, int) or options.players not in PLAYER_COUNTS:
        shown = ", ".join(map(str, PLAYER_COUNTS))
        raise RuleViolation("bad_option", "BU-SIZE-4", f"players must be one of {shown}")
    low, high = _SETS
    if not isinstance(options.sets, int) or not low <= options.sets <= high:
        raise RuleViolation("bad_option", "BU-OPT-2", f"sets must be between {low} and {high}")
    low, high = _TURN_SECONDS
    if not isinstance(options.turn_seconds, int) or not low <= options.turn_seconds <= high:
        raise RuleViolation(
            "bad_option", "PF-TIMER-7", f"turn_seconds must be between {low} and {high} seconds"
        )


def options_from(preset: str | None = None, /, **overrides: Any) -> BuncoOptions:
    """The options of a preset (`classic`, the only one) with single options over it,
    validated."""
    name = preset or "classic"
    base = PRESETS.get(name)
    if base is None:
        raise RuleViolation("bad_option", "PF-ROOM-2", f"the Bunco preset is classic, not {name!r}")
    try:
        options = msgspec.convert({**msgspec.structs.asdict(base), **overrides}, BuncoOptions)
    except msgspec.ValidationError as exc:
        raise RuleViolation("bad_option", "PF-ROOM-2", str(exc)) from None
    validate(options)
    return options
