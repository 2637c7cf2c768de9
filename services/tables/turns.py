"""When a table's running turn ends: the one timer the write path itself reports.

A loaded table tells its readers when its turn (or discard window) runs out
(`Loaded.deadline`), so this rule lives beneath the table service; the clock's full set of
deadlines, which also gives each one its command, is built on it in
`services/projections/deadlines.py`.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from engine.table import TableState

__all__ = ["DISCARD_SECONDS", "turn_deadline"]

DISCARD_SECONDS = 5.0  # PF-TIMER-3..5: the discard window after the turn time


def turn_deadline(state: TableState, since: datetime | None) -> datetime | None:
    """When the running turn or discard window of a table ends, for a wait that began at
    `since` (PF-TIMER-1, PF-TIMER-3); None when no turn is running."""
    game = state.game_state
    if state.status != "playing" or game is None or since is None or game.phase != "play":
        return None
    seconds = DISCARD_SECONDS if game.window else float(game.options.turn_seconds)
    return since + timedelta(seconds=seconds)
