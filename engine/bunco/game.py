"""Bunco as the platform sees it: the one `Game` this package registers (docs/games.md).

The evening is one platform table whose seats are the players (3, 4, 7, 8, 11 or 12,
PF-ROOM-5, BU-SIZE-4); the play tables live inside the game. The unit of play is a round
(PF-FAIR-1): committed by SeedCommitted, started by the system's Deal once the seats'
client seeds are in (PF-AMB-12 h), ended by RoundEnded, when the table reveals its secret.
Every play table waits for its own roller at once (`awaiting`, `timers`); each roll is
timed (PF-TIMER-7, 10 s by default) and when it runs out the system rolls for the player
(PF-TIMER-8). The seam takes them all (`Game.timers`): the clock times each table's roller
from the roll that made him the roller, so one table's roll never restarts another's
clock; `timer` (the first of them) is the countdown a view shows.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine import players, protocol
from engine.bunco import bot as _bot
from engine.bunco import record
from engine.bunco.autoplay import random_step
from engine.bunco.evolve import evolve
from engine.bunco.messages import Command, CommitSeed, Event, Roll, SeedCommitted, Timeout
from engine.bunco.options import PLAYER_COUNTS, PRESETS, BuncoOptions, options_from, validate
from engine.bunco.rules import awaited, decide, ends, lifecycle, roller_seat, rules
from engine.bunco.state import RoundResult, State
from engine.bunco.view import View, legal, view

__all__ = ["GAME", "PLAYERS", "awaiting", "initial", "redact", "timer", "timers"]

# Timer.turn packs (table, roll) into one number for `wait`: a table never makes this many
# rolls in a round.
_TABLE_STRIDE = 1_000_000


def initial(options: BuncoOptions, host: int = 1) -> State:
    zeros = (0,) * options.places
    return State(options=options, host=host, wins=zeros, losses=zeros, buncos=zeros, wipeouts=zeros)


def redact(event: Event, seat: int | None) -> Event:
    """Nothing of a Bunco evening is hidden but the round's secret until its reveal."""
    if isinstance(event, SeedCommitted):
        return replace(event, secret="")
    return event


def awaiting(state: State) -> tuple[int, ...]:
    """The seats that roll now, one a waiting table, head table first."""
    return tuple(roller_seat(state, state.tables[n - 1]) for n in awaited(state))


def timers(state: State) -> tuple[protocol.Timer, ...]:
    """PF-TIMER-7/8, BU-AMB-13: one running wait a waiting table, whose command is the
    system's roll for the awaited player; its id names the round, table and roll."""
    seconds = float(state.options.turn_seconds)
    out = []
    for number in awaited(state):
        table = state.tables[number - 1]
        roll_no = table.rolls + 1
        out.append(
            protocol.Timer(
                seat=roller_seat(state, table),
                seconds=seconds,
                command=Timeout(round=state.round, table=number, roll=roll_no),
                command_id=f"timeout:{state.round}:{number}:{roll_no}",
                kind="roll",
            )
        )
    return tuple(out)


def timer(state: State) -> protocol.Timer | None:
    """The first of `timers` (the head table's while it rolls)."""
    running = timers(state)
    return running[0] if running else None


def _wait(state: State) -> tuple[str, int, int, bool]:
    """What `timer` waits for: the table and roll of the first waiting table."""
    waiting = awaited(state)
    if not waiting:
        return (state.phase, state.round, 0, False)
    first = waiting[0]
    return (state.phase, state.round, first * _TABLE_STRIDE + state.tables[first - 1].rolls, False)


def _bot_move(state: State, seat: int) -> tuple[int, Command]:
    """A bot rolls, as a player would (PF-BOT-4): rolling has no choice to make."""
    return seat, Roll()


def _summary(state: State) -> RoundResult | None:
    """The last round's end; None while a round is played (its start clears it)."""
    return state.result


def _client(seen: View, options: BuncoOptions, rng: players.Rng, safe: bool) -> Command | None:
    """A scripted client acting on its view: a roll when it is awaited."""
    return Roll() if "Roll" in seen.legal.commands else None


GAME = protocol.register(
    protocol.Game(
        name="bunco",
        options=BuncoOptions,
        presets=PRESETS,
        options_from=options_from,
        check_options=validate,
        seat_counts=PLAYER_COUNTS,
        seats=lambda options: options.players,
        # partners change every round (BU-MOVE-4): each player is ranked alone (BU-EVE-1)
        teams=lambda options: tuple((seat,) for seat in range(1, options.players + 1)),
        command=Command,
        event=Event,
        initial=initial,
        decide=decide,
        rules=rules,
        evolve=evolve,
        view=view,
        legal=legal,
        redact=redact,
        unit=protocol.Unit(
            name="round",
            draws=("first", "dice"),
            needs_secret=lambda state: state.phase == "seeding",
            commit=lambda secret: CommitSeed(secret=secret),
            begins=lambda event: event.deal if isinstance(event, SeedCommitted) else None,
            ends=ends,
            ending=("RoundEnded",),
            lifecycle=lifecycle,
        ),
        awaiting=awaiting,
        timer=timer,
        timers=timers,
        wait=_wait,
        bot=_bot_move,
        summary=_summary,
        records=protocol.RecordSection(
            decode=record.decode,
            replay=record.replay,
            verify=record.verify,
            options_of=record.options_of,
            build=record.build,
            units=record.units,
        ),
        state=State,
        bots_allowed=lambda options: options.bots_allowed,
        over=lambda state: state.phase == "over",
    )
)

PLAYERS = players.register(
    "bunco",
    players.Players(
        step=random_step,
        client_view=View,
        client=_client,
        bot_choose=_bot.choose,
        bot_fallback=_bot.fallback,
    ),
)
