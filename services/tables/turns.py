"""When a table's running waits end: the timers the write path itself reports.

A loaded table tells its readers when its turn (or discard window) runs out
(`Loaded.deadline`, and every running wait in `Loaded.waits`), so this rule lives beneath
the table service; the clock's full set of deadlines, which also gives each one its
command, is built on it in `services/projections/deadlines.py`. How long a wait lasts is
the game's own answer (`Game.timer`, PF-TIMER-1..5); only the moment it began is the
service's.

What a table waits for is the game's word too (`Game.wait`: phase, unit, turn, part of the
turn): a wait begins at the batch after which that answer changed, for every game alike
(a Banakil deal dealt or a card discarded, a rummy turn ended), so no reader lists a
game's events to find it.

A game that times several seats at once (`Game.timers`: Bunco, one roller a play table)
names each wait by its timer's command id instead, and each runs from the batch after
which its id first appeared (`wait_starts`), so one table's roll never restarts another
table's clock.

Every running wait with its deadline (`running_waits`) is the one rule the clock fires by
and the views tell (`Loaded.waits`), so a view's deadlines are the clock's. (Before it, a
view's one deadline counted from where `Game.wait` last changed even at Bunco: at the bell
a tied table rolling off keeps its wait, and its deadline was shown later than the clock's.)
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

import msgspec

from engine.protocol import Timer
from engine.table import TableState
from services.tables.games import game_of

__all__ = ["Wait", "Waiting", "running_waits", "turn_deadline", "wait_starts", "waiting_for"]

# (phase, unit, turn number, part of the turn): what a playing table waits for now. A
# turn's timer runs from the moment this last changed; the same turn of another unit, or
# another part of the same turn (Banakil's discard window), is another wait.
Waiting = tuple[str, int, int, bool]


class Wait(msgspec.Struct, frozen=True, kw_only=True):
    """One running wait as a view tells it: said as the "warning" message says it (the
    seat, the game's `stage` for it, the clock's `deadline`), so a client reads both the
    same way."""

    seat: int
    stage: str  # the game's name for the wait (`Timer.kind`: "turn", "window", "roll")
    deadline: datetime


def waiting_for(state: TableState) -> Waiting | None:
    """What the table waits for now (`Game.wait`); None when it is not being played."""
    game = state.game_state
    if state.status != "playing" or game is None or game.phase == "over":
        return None
    return game_of(state).wait(game)


def turn_deadline(state: TableState, since: datetime | None) -> datetime | None:
    """When the running turn or discard window of a table ends, for a wait that began at
    `since` (PF-TIMER-1, PF-TIMER-3); None when no turn is running."""
    game = state.game_state
    if state.status != "playing" or game is None or since is None:
        return None
    timer = game_of(state).timer(game)
    return None if timer is None else since + timedelta(seconds=timer.seconds)


def wait_starts(
    state: TableState, started: Mapping[str, datetime], at: datetime
) -> dict[str, datetime]:
    """For a game with several waits at once (`Game.timers`): when each wait running in
    `state` began, `at` for one not in `started` (the starts known before this batch).
    Empty for every other game, and when the table is not being played."""
    game = state.game_state
    if state.status != "playing" or game is None or game.phase == "over":
        return {}
    played = game_of(state)
    if played.timers is None:
        return {}
    return {t.command_id: started.get(t.command_id, at) for t in played.timers(game)}


def running_waits(
    state: TableState, since: datetime | None, started: Mapping[str, datetime]
) -> list[tuple[Timer, datetime]]:
    """Every wait running in `state` with the moment it ends, as the clock fires them: the
    game's one `timer` from `since` (the start of what the table waits for), or for a game
    with several waits at once each of them from its own start in `started` (`wait_starts`;
    one not known there is left out)."""
    game = state.game_state
    if state.status != "playing" or game is None:
        return []
    played = game_of(state)
    if played.timers is None:
        one = None if since is None else played.timer(game)
        if one is None or since is None:
            return []
        return [(one, since + timedelta(seconds=one.seconds))]
    out = []
    for wait in played.running(game):
        start = started.get(wait.command_id)
        if start is not None:
            out.append((wait, start + timedelta(seconds=wait.seconds)))
    return out
