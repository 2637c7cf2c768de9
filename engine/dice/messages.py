"""The commands and events of the dice tool, tagged for strict decoding.

The seat's commands are `Roll` (three dice, PF-DICE-1) and `Stop` (the table ends). The
system commits each roll's secret (`CommitSeed`) and may close a roll's seed window
(`Deal`, the name the services give the system's step once the seeds are in: here it
draws nothing, because the seat's own `Roll` draws). The fairness lifecycle's messages
are the table's own (engine/fairness.py). The event tags are the tool's own (no other
game has a `DiceThrown` or a `ToolStopped`), so a row is read by one game only.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from engine.fairness import (
    ClientSeedSent,
    CommitSeed,
    SeedCommitted,
    SeedRevealed,
    SeedWindowClosed,
    SendClientSeed,
)

__all__ = [
    "ClientSeedSent",
    "Command",
    "CommitSeed",
    "Deal",
    "DiceThrown",
    "Event",
    "Roll",
    "SeedCommitted",
    "SeedRevealed",
    "SeedWindowClosed",
    "SendClientSeed",
    "Stop",
    "ToolStopped",
]

Die = Annotated[int, msgspec.Meta(ge=1, le=6)]


class _Cmd(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class _Evt(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class Roll(_Cmd, frozen=True):
    """The seat rolls the three dice of the committed roll (PF-DICE-1)."""


class Stop(_Cmd, frozen=True):
    """The seat puts the dice away: the table ends (a committed roll not rolled is
    revealed as it ends)."""


class Deal(_Cmd, frozen=True):
    """System: the committed roll's seed window has nothing more to wait for; it closes
    (PF-AMB-12 h). The roll itself is the seat's."""


Command = CommitSeed | SendClientSeed | Deal | Roll | Stop


class DiceThrown(_Evt, frozen=True):
    """Roll `roll` (the unit's number): `seat` rolled `dice`, the first three dice of the
    roll's "dice" stream (PF-DICE-2, PF-AMB-12 g). The unit ends here; its secret is
    revealed right after (PF-AMB-13)."""

    roll: int
    seat: int
    dice: tuple[Die, Die, Die]


class ToolStopped(_Evt, frozen=True):
    """`seat` ended the table. `roll`: the committed roll it left unrolled, which ends here
    and is revealed right after (0: none was committed)."""

    seat: int
    roll: int


Event = SeedCommitted | ClientSeedSent | SeedWindowClosed | DiceThrown | ToolStopped | SeedRevealed
