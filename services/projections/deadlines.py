"""Which deadlines a table has now, and when they pass (pure: times are data).

A deadline is a system command with a deterministic command id, due at a moment derived
from the log (see `services/projections/in_play.py`): whichever clock process fires it,
however often, the store appends it once, and the engine refuses it once its turn is over.

- the game's running wait (`Game.timer`, PF-TIMER, PF-AUTO): in Banakil a turn
  (PF-TIMER-1: options.turn_seconds from the batch that started the turn, then Timeout
  under `timeout:<deal>:<turn>:draw`) or the discard window (PF-TIMER-3..6: 5 s from the
  batch with TurnTimedOut, then Timeout under `timeout:<deal>:<turn>:discard`);
- in a game that times several seats at once (`Game.timers`: Bunco, PF-TIMER-7/8 and
  BU-AMB-13, one roller a play table), every running wait, each from the batch in which
  its command id first appeared (`services/tables/turns.py` `wait_starts`);
- an away seat (PF-CONN-2/3, free tables only): 60 s from the batch with
  SeatDisconnected, then ReplaceWithBot under `replace:<seat>:<version of that event>`.

The first Timeout of a turn draws for the player if a draw is due and opens the window;
the second discards for him (engine/banakil/decide.py `_timeout`). The seat's clients are
warned during the last 5 s of a turn or window (PF-TIMER-2): `warning_at`.

The waits before a deal (the client seed window, the `classic` host's 15 s cut) are not
here: the table service's timer in `services/tables/seeds.py` (SAHRA_CUT_SECONDS) fires
them.

This reads the tables-in-play model, so it lives beside it: the clock fires these
deadlines, the gateway warns of them and the bots worker shares their time source
(`utc_now`), and none of those processes imports another. When a turn ends is the table
service's own rule (`services/tables/turns.py`), which the write path reports too.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import msgspec

from engine.table import AnyCommand, ReplaceWithBot, bots_may_sit
from services.projections.in_play import Tracked
from services.tables.games import game_of
from services.tables.turns import running_waits, turn_deadline

__all__ = [
    "RECONNECT_SECONDS",
    "REPLACE",
    "WARNING_SECONDS",
    "Deadline",
    "deadlines",
    "timer",
    "timers",
    "utc_now",
    "warning_at",
]

WARNING_SECONDS = 5.0  # PF-TIMER-2: the last 5 s of a wait
RECONNECT_SECONDS = 60.0  # PF-CONN-2

REPLACE = "replace"  # the kind of an away seat's grace; a game's waits have its own kinds


class Deadline(msgspec.Struct, frozen=True, kw_only=True):
    table_id: str
    kind: str  # the game's name for the wait (Banakil: "turn", "window"), or REPLACE
    at: datetime
    seat: int  # the seat the wait is for (the acting seat, or the away seat)
    command: AnyCommand  # sent by the system (seat 0)
    command_id: str
    deal: int = 0  # the deal and turn of a turn or window (0: a seat's grace)
    turn: int = 0


def utc_now() -> datetime:
    """The time every deadline is compared with (injected where tests move time)."""
    return datetime.now(UTC)


def timer(tracked: Tracked) -> Deadline | None:
    """The table's running wait (a turn or a discard window in Banakil), if any: when it
    ends, and the command the game has the system send then."""
    at = turn_deadline(tracked.state, tracked.since)
    game = tracked.state.game_state
    if at is None or game is None:
        return None
    wait = game_of(tracked.state).timer(game)
    if wait is None:  # pragma: no cover - turn_deadline found this very timer
        return None
    return Deadline(
        table_id=tracked.table_id,
        kind=wait.kind,
        at=at,
        seat=wait.seat,
        command=wait.command,
        command_id=wait.command_id,
        # The warning names the unit and turn where the game's state counts them.
        deal=getattr(game, "deal", 0),
        turn=getattr(game, "turn_no", 0),
    )


def timers(tracked: Tracked) -> list[Deadline]:
    """Every running wait of the table: the one of `timer`, or for a game that times
    several seats at once (`Game.timers`) each of them, from its own start (the rule the
    views' `deadlines` are told by too: `running_waits`)."""
    state = tracked.state
    game = state.game_state
    if game is None or state.status != "playing" or game_of(state).timers is None:
        one = timer(tracked)
        return [] if one is None else [one]
    deal = getattr(game, "deal", getattr(game, "round", 0))
    return [
        Deadline(
            table_id=tracked.table_id,
            kind=wait.kind,
            at=at,
            seat=wait.seat,
            command=wait.command,
            command_id=wait.command_id,
            deal=deal,
            turn=getattr(game, "turn_no", 0),
        )
        for wait, at in running_waits(state, tracked.since, tracked.started)
    ]


def deadlines(tracked: Tracked) -> list[Deadline]:
    """Every deadline of the table now: its running waits and its away seats' graces."""
    out: list[Deadline] = timers(tracked)
    state = tracked.state
    if state.status == "playing" and bots_may_sit(state):  # PF-BOT-3: never at a coin table
        for seat, (since, version) in sorted(tracked.away.items()):
            out.append(
                Deadline(
                    table_id=tracked.table_id,
                    kind=REPLACE,
                    at=since + timedelta(seconds=RECONNECT_SECONDS),
                    seat=seat,
                    command=ReplaceWithBot(seat=seat),
                    command_id=f"replace:{seat}:{version}",
                )
            )
    return out


def warning_at(deadline: Deadline) -> datetime | None:
    """When the seat's clients are warned of a wait's end (PF-TIMER-2); None: no warning."""
    if deadline.kind == REPLACE:
        return None
    return deadline.at - timedelta(seconds=WARNING_SECONDS)
