"""The state of a dice-tool table as its events fold it (engine/dice/evolve.py).

Phases: "seeding" (the next roll waits for its secret), "ready" (the roll `roll` is
committed; the seat may send its client seed, then roll), "over" (the seat stopped).
`roll` is the number of the last roll committed, the platform's unit number. The last
`KEPT` rolls are kept for the views, each with its commitment and, once revealed, its
secret: the phone shows a roll's proof beside its dice.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.dice.options import DiceOptions

__all__ = ["KEPT", "Phase", "State", "Thrown"]

Phase = Literal["seeding", "ready", "over"]
KEPT = 20  # the rolls a view shows; older ones live in the table's log and records


class Thrown(msgspec.Struct, frozen=True, kw_only=True):
    """One roll as shown: its number, dice (empty: committed, then stopped unrolled), the
    commitment published before it, the seat's client seed ("" for none), and its secret
    once revealed (None before)."""

    roll: int
    dice: tuple[int, ...]
    commitment: str
    client_seed: str = ""
    secret: str | None = None


class State(msgspec.Struct, frozen=True, kw_only=True):
    options: DiceOptions
    host: int = 1
    phase: Phase = "seeding"
    roll: int = 0
    rolls: int = 0  # rolls made (a roll committed and stopped unrolled is not one)
    # the committed roll's fairness lifecycle (engine/fairness.py folds into these)
    secret: str | None = None
    commitment: str | None = None
    client_seed: str = ""
    seed_sent: bool = False
    window: bool = False
    history: tuple[Thrown, ...] = ()  # the last KEPT rolls, oldest first

    @property
    def deal(self) -> int:
        """The unit's number, as the platform names it for every game."""
        return self.roll
