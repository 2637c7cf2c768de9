"""Rummy, the Manipulation family, as the platform sees it: the one `Game` this package
registers (docs/games.md).

The unit of play is a round (PF-FAIR-1): committed by SeedCommitted, dealt by the system's
Deal once the seats' client seeds are in (PF-AMB-12 h), ended by RoundScored (or by the
host stopping a Shanghai game, GameStopped), when the table reveals its secret. A turn is
timed (PF-TIMER-7, 60 s by default); when it runs out the system draws for the seat, or
passes for it, and the turn ends (PF-TIMER-8).
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from engine import players, protocol
from engine.errors import RuleViolation
from engine.rummy import bot as _bot
from engine.rummy import record
from engine.rummy.autoplay import random_step
from engine.rummy.evolve import evolve
from engine.rummy.messages import (
    CardsDrawn,
    Command,
    CommitSeed,
    Event,
    PlayReminded,
    RoundDealt,
    SeedCommitted,
    Timeout,
)
from engine.rummy.options import PRESETS, RummyOptions, options_from, validate
from engine.rummy.rules import decide, ends, lifecycle, rules
from engine.rummy.search import hint
from engine.rummy.staging import Stage, stage_check
from engine.rummy.state import RoundResult, State
from engine.rummy.view import View, legal, view

__all__ = ["GAME", "HIDDEN", "PLAYERS", "initial", "redact"]

HIDDEN = "??"
_SYSTEM = 0
_HINTED = ("manipulation", "shanghai")  # the variants with the reminder with hint (PF-HINT-2)


def initial(options: RummyOptions, host: int = 1) -> State:
    return State(options=options, host=host)


def redact(event: Event, seat: int | None) -> Event:
    """What `seat` may read of an event: other hands, the stock, drawn cards and another
    seat's reminder are hidden; the secret is blank until its reveal."""
    match event:
        case SeedCommitted():
            return replace(event, secret="")
        case RoundDealt(hands=hands, stock=stock):
            return replace(
                event,
                hands=tuple(
                    h if seat == i else tuple(HIDDEN for _ in h) for i, h in enumerate(hands, 1)
                ),
                stock=tuple(HIDDEN for _ in stock),
            )
        case CardsDrawn(seat=drawer, cards=cards) if drawer != seat:
            return replace(event, cards=tuple(HIDDEN for _ in cards))
        case PlayReminded(seat=reminded) if reminded != seat:
            return replace(event, card=HIDDEN, groups=(), rearranges=False)
    return event


def _timer(state: State) -> protocol.Timer | None:
    """PF-TIMER-7/8: the seat on turn, its seconds, and the system's draw or pass."""
    if state.phase != "play":
        return None
    return protocol.Timer(
        seat=state.turn,
        seconds=float(state.options.turn_seconds),
        command=Timeout(round=state.round, turn=state.turn_no),
        command_id=f"timeout:{state.round}:{state.turn_no}",
        kind="turn",
    )


def _bot_move(state: State, seat: int) -> tuple[int, Command]:
    """The bot's choice from the seat's own view; its fallback when the rules refuse it."""
    seen = view(state, seat)
    command = _bot.choose(seen, state.options)
    try:
        decide(state, seat, command)
    except RuleViolation:
        command = _bot.fallback(seen)
    return seat, command


def _summary(state: State) -> RoundResult | None:
    return state.result if state.phase in ("seeding", "seeded", "over") else None


def _hints(state: State, seat: int) -> Any:
    """PF-HINT-3: a move for the asking seat on its turn (its own cards only), or None."""
    if state.phase != "play" or seat != state.turn:
        return None

    return hint(
        state.table,
        dict(state.names),
        state.hands[seat - 1],
        state.options.rules,
        first_play=not state.opened[seat - 1],
    )


def _no_hints(state: State) -> RuleViolation | None:
    """PF-HINT-2: a rummy hint is the reminder's (RM-OPT-1a), which only Manipulation and
    Shanghai under `reminder_with_hint` have; the other variants have no duty to play to
    remind of, and `trust_player` asks for none (RM-OPT-1c)."""
    options = state.options
    if options.variant not in _HINTED:
        return RuleViolation(
            "no_hints",
            "PF-HINT-2",
            f"{options.variant} offers no hints: only Manipulation and Shanghai have the "
            "reminder with hint",
        )
    if options.compulsory_play != "reminder_with_hint":
        return RuleViolation(
            "no_hints", "RM-OPT-1", "this table trusts its players (trust_player): no hints"
        )
    return None


def _client(seen: View, options: RummyOptions, rng: players.Rng, safe: bool) -> Command | None:
    """A scripted client acting on its view: the bot's move when it is its turn."""
    if seen.seat is None or seen.phase != "play" or seen.turn != seen.seat:
        return None
    return _bot.fallback(seen) if safe else _bot.choose(seen, options)


GAME = protocol.register(
    protocol.Game(
        name="rummy",
        options=RummyOptions,
        presets=PRESETS,
        options_from=options_from,
        check_options=validate,
        seat_counts=(2, 3, 4, 5),
        seats=lambda options: options.seats,
        teams=lambda options: tuple((seat,) for seat in range(1, options.seats + 1)),
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
            draws=("deal", "first"),
            needs_secret=lambda state: state.phase == "seeding",
            commit=lambda secret: CommitSeed(secret=secret),
            begins=lambda event: event.deal if isinstance(event, SeedCommitted) else None,
            ends=ends,
            ending=("RoundScored", "GameStopped"),
            lifecycle=lifecycle,
        ),
        awaiting=lambda state: (state.turn,) if state.phase == "play" else (),
        timer=_timer,
        wait=lambda state: (state.phase, state.round, state.turn_no, False),
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
        hints=_hints,
        no_hints=_no_hints,
        staging=protocol.Staging(proposal=Stage, check=stage_check),
        # no seat_view: a seat's view differs from the spectator's in more than its seat,
        # hand and legal moves (its hand points and its reminder, RM-OPT-1a)
    )
)

PLAYERS = players.register(
    "rummy",
    players.Players(
        step=random_step,
        client_view=View,
        client=_client,
        bot_choose=_bot.choose,
        bot_fallback=_bot.fallback,
    ),
)

# The guided lessons of rummy (PF-MODE-3) register themselves beside the game.
from engine.rummy import tutorial as _tutorial  # noqa: E402, F401
