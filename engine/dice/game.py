"""The dice tool as the platform sees it: the one `Game` this package registers
(docs/games.md, PF-DICE-1/2).

One seat, the phone that rolls for a group at a real table; no bots, no timer (nobody
else is waited for). The unit of play is ONE roll (PF-FAIR-1): committed by
SeedCommitted, drawn by the seat's own Roll (three dice from the roll's "dice" stream)
and ended by it, so the table reveals the secret at once (PF-AMB-13) and commits the
next roll's. No system Deal starts a roll, so the services time nothing before it
(`Unit.timed_deal` False): no seed window to wait out, no end-of-deal screen (PF-REVEAL
is written for the hands of a card deal); the phone may roll again the moment the next
commitment is published.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine import players, protocol
from engine.dice import record
from engine.dice.autoplay import random_step
from engine.dice.evolve import evolve
from engine.dice.messages import Command, CommitSeed, Event, Roll, SeedCommitted
from engine.dice.options import PRESETS, SEATS, DiceOptions, options_from, validate
from engine.dice.rules import decide, ends, lifecycle, rules
from engine.dice.state import State, Thrown
from engine.dice.view import View, legal, view

__all__ = ["GAME", "PLAYERS", "initial", "redact", "summary"]


def initial(options: DiceOptions, host: int = 1) -> State:
    return State(options=options, host=host)


def redact(event: Event, seat: int | None) -> Event:
    """Nothing of the tool is hidden but the committed roll's secret until its reveal."""
    if isinstance(event, SeedCommitted):
        return replace(event, secret="")
    return event


def summary(state: State) -> Thrown | None:
    """The last roll once revealed (its dice and proof); None before the first."""
    if state.history and state.history[-1].secret is not None:
        return state.history[-1]
    return None


def _client(seen: View, options: DiceOptions, rng: players.Rng, safe: bool) -> Command | None:
    """A scripted phone acting on its view: a roll whenever one is allowed."""
    return Roll() if "Roll" in seen.legal.commands else None


GAME = protocol.register(
    protocol.Game(
        name="dice",
        options=DiceOptions,
        presets=PRESETS,
        options_from=options_from,
        check_options=validate,
        seat_counts=(SEATS,),
        seats=lambda options: SEATS,
        teams=lambda options: ((1,),),
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
            name="roll",
            draws=("dice",),
            needs_secret=lambda state: state.phase == "seeding",
            commit=lambda secret: CommitSeed(secret=secret),
            begins=lambda event: event.deal if isinstance(event, SeedCommitted) else None,
            ends=ends,
            ending=("DiceThrown", "ToolStopped"),
            lifecycle=lifecycle,
            timed_deal=False,
        ),
        awaiting=lambda state: (1,) if state.phase == "ready" else (),
        timer=lambda state: None,  # nobody else waits for the phone: no turn timer
        wait=lambda state: (state.phase, state.roll, 0, False),
        # no bot sits here (bots_allowed is False); the seam's answer for the seat is its roll
        bot=lambda state, seat: (seat, Roll()),
        summary=summary,
        records=protocol.RecordSection(
            decode=record.decode,
            replay=record.replay,
            verify=record.verify,
            options_of=record.options_of,
            build=record.build,
            units=record.units,
        ),
        state=State,
        bots_allowed=lambda options: False,
        over=lambda state: state.phase == "over",
    )
)

PLAYERS = players.register(
    "dice",
    players.Players(
        step=random_step,
        client_view=View,
        client=_client,
        bot_choose=lambda seen, options: Roll(),
        bot_fallback=lambda seen: Roll(),
    ),
)
