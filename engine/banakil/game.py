"""Banakil as the platform sees it: the one `Game` object this package registers.

Each part is the function the package already has (options, the decider, views, redaction,
the bot, hints, the deal record's replay and audit); what is written here is only what the
platform needs and the package did not say in one place yet: the teams by seat, the unit
of play (a deal: committed by SeedCommitted, or stacked; ended by DealScored) and its
random draws, which seats the game waits on, and what a bot sends for a seat, checked with
the engine so that it is always accepted (PF-BOT-4).
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import asdict, replace

from engine import players, protocol, replay, verify
from engine.banakil import bot as _bot
from engine.banakil import initial
from engine.banakil.autoplay import random_step
from engine.banakil.client import ClientView, choose
from engine.banakil.decide import decide, decide_unrevealed, ends, lifecycle, needs_cut
from engine.banakil.evolve import evolve
from engine.banakil.hints import hints
from engine.banakil.messages import (
    Command,
    CommitSeed,
    Cut,
    DeckStacked,
    Discard,
    Event,
    SeedCommitted,
)
from engine.banakil.options import PRESETS, BanakilOptions, options_from, validate
from engine.banakil.redact import redact
from engine.banakil.staging import Stage, stage_check
from engine.banakil.state import State
from engine.banakil.timer import turn_timer
from engine.banakil.view import DealReveal, legal, view
from engine.errors import RuleViolation

__all__ = ["GAME", "PLAYERS", "record_options"]

_SYSTEM = 0
_PARTNERS = ((1, 3), (2, 4))  # BK-PLAY-1: partners sit opposite
_ALONE = ((1,), (2,))  # the 1-v-1 mode: each seat is its own team


def _no_hints(state: State) -> RuleViolation | None:
    """PF-HINT-1, PF-AMB-19, BK-AMB-30: `sahrat` offers hints, `classic` none (BK-OPT-22)."""
    if state.options.hints:
        return None
    if state.options.ruleset == "classic":
        return RuleViolation(
            "no_hints",
            "BK-AMB-30",
            "classic Banakil offers no hints: only the staging check of each group",
        )
    return RuleViolation("no_hints", "BK-OPT-22", "hints are off at this table")


def _teams(options: BanakilOptions) -> tuple[tuple[int, ...], ...]:
    return _PARTNERS if options.seats == 4 else _ALONE


def _begins(event: Any) -> int | None:
    """A deal opens with its commitment, or with a stacked deck (tests, tutorials)."""
    return event.deal if isinstance(event, SeedCommitted | DeckStacked) else None


def _deal_verdicts(verdict: verify.Verdict) -> tuple[protocol.UnitVerdict, ...]:
    """A record's verdict deal by deal, each with its first failing check; the deals
    after a failed one are left out (they were not replayed)."""
    out = []
    for deal in verdict.deals:
        failing = next((c for c in deal.checks if c.status == "fail"), None)
        out.append(
            protocol.UnitVerdict(
                number=deal.deal,
                passed=deal.passed,
                check=failing.name if failing else None,
                detail=failing.detail if failing else None,
            )
        )
    return tuple(out)


def _awaiting(state: State) -> tuple[int, ...]:
    """The seat whose turn it is, or a host who owes the first deal's cut once the seats'
    seed window has closed (PF-AMB-12 h, PF-CUT-1)."""
    if state.phase == "play":
        return (state.turn,)
    if state.phase == "seeded" and needs_cut(state) and not state.seed_window:
        return (state.host,)
    return ()


def _bot_move(state: State, seat: int) -> tuple[int, Command]:
    """Who sends the bot's move for `seat`, and what. A host played by a bot does not cut
    as a player: the system cuts at the position drawn from the secret (PF-ROOM-6,
    PF-CUT-3). On a turn, the bot's choice from the seat's own view, replaced by its
    always-accepted fallback when the engine would refuse it (PF-BOT-4, PF-TIMER-6)."""
    if state.phase == "seeded" and seat in _awaiting(state):
        return _SYSTEM, Cut()
    seen = view(state, seat)
    command = _bot.choose(seen, state.options)
    if state.window and not isinstance(command, Discard):
        command = _bot.fallback(seen)
    try:
        decide(state, seat, command)
    except RuleViolation:
        command = _bot.fallback(seen)
    return seat, command


def _summary(state: State) -> DealReveal | None:
    """PF-REVEAL-1/2: every hand and the breakdown of the deal that ended, until the next."""
    return view(state, None).reveal


def _bots_allowed(options: BanakilOptions) -> bool:
    """PF-BOT-1, PF-FREE-1: bots sit only at free tables that allow them."""
    return options.table_kind == "free" and options.bots_allowed


def _match_starts(state: State) -> bool:
    """A later match of a series is starting: its first deal is not committed yet."""
    return state.phase == "seeding" and state.match > 1 and state.deals_in_match == 0


def record_options(options: BanakilOptions) -> dict[str, Any]:
    """A deal record's "options" for a table's options: the preset, then every option
    that differs from it (and the 1v1 target, which choosing the mode alone would reset)."""
    preset = PRESETS[options.ruleset]
    mine, theirs = asdict(options), asdict(preset)
    out: dict[str, Any] = {"preset": options.ruleset}
    out |= {k: v for k, v in mine.items() if k != "ruleset" and v != theirs[k]}
    if options.mode == "one_vs_one":
        out["target_score"] = options.target_score
    overrides = {k: v for k, v in out.items() if k != "preset"}
    if options_from(options.ruleset, **overrides) != options:  # pragma: no cover - a net
        out = {"preset": options.ruleset, **{k: v for k, v in mine.items() if k != "ruleset"}}
    return out


def _seat_view(state: State, public: Any, seat: int) -> Any:
    """`view(state, seat)` from `public` = `view(state, None)`: a seat sees what a spectator
    sees, plus its seat, its own hand and its legal moves (tests/unit/test_gateway_views.py
    holds the two equal on every state of whole deals)."""
    own = state.hands[seat - 1] if state.hands else None
    return replace(public, seat=seat, hand=own, legal=legal(state, seat))


GAME = protocol.register(
    protocol.Game(
        name="banakil",
        options=BanakilOptions,
        presets=PRESETS,
        options_from=options_from,
        check_options=validate,
        seat_counts=(2, 4),
        seats=lambda options: options.seats,
        teams=_teams,
        command=Command,
        event=Event,
        initial=initial,
        decide=decide,
        rules=decide_unrevealed,
        evolve=evolve,
        view=view,
        legal=legal,
        redact=redact,
        unit=protocol.Unit(
            name="deal",
            draws=("deal", "reshuffle:k", "first", "autocut"),
            needs_secret=lambda state: state.phase == "seeding",
            commit=lambda secret: CommitSeed(secret=secret),
            begins=_begins,
            ends=ends,
            ending=("DealScored",),
            lifecycle=lifecycle,
        ),
        awaiting=_awaiting,
        timer=turn_timer,
        bot=_bot_move,
        summary=_summary,
        records=protocol.RecordSection(
            decode=replay.decode_record,
            replay=replay.run_record,
            verify=verify.verify_record,
            options_of=record_options,
            build=replay.record_of,
            units=_deal_verdicts,
        ),
        state=State,
        bots_allowed=_bots_allowed,
        over=lambda state: state.phase == "over",
        wait=lambda state: (state.phase, state.deal, state.turn_no, state.window),
        match_starts=_match_starts,
        hints=hints,
        no_hints=_no_hints,
        staging=protocol.Staging(proposal=Stage, check=stage_check),
        seat_view=_seat_view,
    )
)

# The players of its tests, benches and load scripts, beside the game (engine/players.py).
PLAYERS = players.register(
    "banakil",
    players.Players(
        step=random_step,
        client_view=ClientView,
        client=choose,
        bot_choose=_bot.choose,
        bot_fallback=_bot.fallback,
    ),
)
