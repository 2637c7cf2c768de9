"""Banakil (بناكل): 4-player partnership rummy with 106 cards and wild twos, in the
`classic` and `sahrat` rule sets and the 1-v-1 mode (../shared/rules/banakil.md).

The platform reaches the game through the one object `engine/banakil/game.py` registers
with `engine.protocol` (imported by the registry, not here: it reads `engine.replay`,
which reads this package)."""

from __future__ import annotations

from engine.banakil.decide import decide
from engine.banakil.evolve import evolve
from engine.banakil.messages import Command, Event
from engine.banakil.options import PRESETS, BanakilOptions, options_from
from engine.banakil.state import State
from engine.banakil.view import Legal, View, legal, view

__all__ = [
    "PRESETS",
    "BanakilOptions",
    "Command",
    "Event",
    "Legal",
    "State",
    "View",
    "decide",
    "evolve",
    "initial",
    "legal",
    "options_from",
    "view",
]


def initial(options: BanakilOptions, host: int = 1) -> State:
    """A new table waiting for its first deal's seed (BK-RS-1: options fixed from here)."""
    n = options.seats
    if not 1 <= host <= n:
        raise ValueError(f"host must be a seat from 1 to {n}")
    return State(options=options, seats=n, host=host, totals=(0, 0), series_wins=(0, 0))
