"""High card: a game that lives only in the tests, to prove that the game seam is complete.

2 to 5 seats, one round: the table commits a secret (its fairness lifecycle,
engine/fairness.py, which folds the commitment into this game's state), the 52-card deck is
shuffled from it (engine/fair.py, label "deal", PF-AMB-12), then each seat in turn draws
the next card, face down. A seat that does not draw within `turn_seconds` has its card
drawn by the system.
When the last seat has drawn, the highest card wins (rank A low … K high, then suit
♣ < ♦ < ♥ < ♠), every card is shown and the table reveals the secret.

Nothing of it is in engine/ or services/: it hands the platform one `Game` object, built
here from the parts every game has, and a test registers it.
"""

from __future__ import annotations

import hashlib
from typing import Literal

import msgspec
from msgspec.structs import replace

from engine import fair, fairness, protocol
from engine.cards import RANKS, SUITS
from engine.errors import RuleViolation
from engine.fairness import CommitSeed, SeedCommitted, SeedRevealed

__all__ = ["GAME", "HIDDEN", "CommitSeed", "HighCardOptions", "State", "View"]

HIDDEN = "??"
_SYSTEM = 0
_DECK = tuple(f"{rank}{suit}" for suit in SUITS for rank in RANKS)
_ORDER = {card: (RANKS.index(card[:-1]), SUITS.index(card[-1])) for card in _DECK}
_BOUNDS = {"seats": (2, 5, "seats"), "turn_seconds": (5, 60, "seconds")}


class HighCardOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    seats: int = 2
    turn_seconds: int = 10


# --- messages ---------------------------------------------------------------------------


class _Cmd(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class _Evt(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class Draw(_Cmd, frozen=True):
    pass


class Timeout(_Cmd, frozen=True):
    turn: int


class CardDrawn(_Evt, frozen=True):
    seat: int
    card: str
    automatic: bool = False


class RoundWon(_Evt, frozen=True):
    round: int
    winner: int
    cards: tuple[str, ...]


Command = CommitSeed | Draw | Timeout
Event = SeedCommitted | CardDrawn | RoundWon | SeedRevealed


# --- state and views --------------------------------------------------------------------


class State(msgspec.Struct, frozen=True, kw_only=True):
    options: HighCardOptions
    host: int = 1
    phase: Literal["seeding", "play", "over"] = "seeding"
    secret: str | None = None
    commitment: str | None = None
    cards: tuple[str, ...] = ()  # drawn, by seat in draw order
    winner: int | None = None

    @property
    def turn(self) -> int:
        return len(self.cards) + 1


class View(msgspec.Struct, frozen=True, kw_only=True):
    seat: int | None
    phase: str
    turn: int
    commitment: str | None
    cards: tuple[str, ...]  # others' cards hidden until the round is won
    legal: tuple[str, ...]


class Summary(msgspec.Struct, frozen=True, kw_only=True):
    winner: int
    cards: tuple[str, ...]
    secret: str


class Record(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The deal record of a round: its options, revealed secret, and recorded events."""

    game: Literal["high_card"]
    options: dict[str, int]
    secret: str
    commands: tuple[tuple[int, Command], ...]
    events: tuple[Event, ...]


class Verdict(msgspec.Struct, frozen=True, kw_only=True):
    passed: bool
    detail: str


# --- options ----------------------------------------------------------------------------


def _check(options: HighCardOptions) -> None:
    for name, (least, most, unit) in _BOUNDS.items():
        value = getattr(options, name)
        if not least <= value <= most:
            raise RuleViolation(
                "bad_option", "HC-OPT", f"{name} must be between {least} and {most} {unit}"
            )


def _options_from(preset: str | None = None, **overrides: int) -> HighCardOptions:
    if (preset or "standard") != "standard":
        raise RuleViolation("bad_option", "HC-OPT", f"unknown preset {preset!r}")
    try:
        options = msgspec.convert(overrides, HighCardOptions)
    except msgspec.ValidationError as exc:
        raise RuleViolation("bad_option", "HC-OPT", str(exc)) from None
    _check(options)
    return options


# --- the decider ------------------------------------------------------------------------


def _initial(options: HighCardOptions, host: int = 1) -> State:
    return State(options=options, host=host)


def _decide(state: State, seat: int, command: Command) -> tuple[Event, ...]:
    match command:
        case Draw() if state.phase == "play" and seat == state.turn:
            return _draw(state, seat, automatic=False)
        case Timeout(turn=turn) if seat == _SYSTEM and state.phase == "play":
            if turn != state.turn:
                raise RuleViolation("stale_timeout", "HC-TIMER", "that turn is over")
            return _draw(state, state.turn, automatic=True)
    raise RuleViolation("not_now", "HC-TURN", f"{type(command).__name__} is not allowed now")


def _draw(state: State, seat: int, *, automatic: bool) -> tuple[Event, ...]:
    assert state.secret is not None
    # The deck is shuffled here, where the secret is known (the service decides on the
    # opened state); a folded public log carries the secret sealed, and the cards drawn.
    deck = fair.shuffle(_DECK, bytes.fromhex(state.secret), "deal", fair.entropy([]))
    drawn = CardDrawn(seat=seat, card=deck[seat - 1], automatic=automatic)
    cards = (*state.cards, drawn.card)
    if len(cards) < state.options.seats:
        return (drawn,)
    winner = max(range(len(cards)), key=lambda i: _ORDER[cards[i]]) + 1
    return (drawn, RoundWon(round=1, winner=winner, cards=cards))  # the table reveals


def _lifecycle(state: State) -> fairness.Lifecycle:
    """The round's place in the table's lifecycle: no client seeds (the draws begin as soon
    as the secret is committed), so the seed window is never open."""
    return fairness.Lifecycle(
        unit=0 if state.phase == "seeding" else 1,
        awaiting_secret=state.phase == "seeding",
        committed=False,
        window=False,
        secret=state.secret,
    )


def _ends(event: object) -> int | None:
    return event.round if isinstance(event, RoundWon) else None


def _revealed(state: State, seat: int, command: Command) -> tuple[Event, ...]:
    """The round played without its table (a record's replay): `_decide` inside the
    table's lifecycle, as the table plays it."""
    return fairness.play(_lifecycle, _ends, _decide, state, seat, command)


def _evolve(state: State, event: Event) -> State:
    match event:
        case SeedCommitted(commitment=commitment, secret=secret):
            return replace(state, phase="play", secret=secret, commitment=commitment)
        case CardDrawn(card=card):
            return replace(state, cards=(*state.cards, card))
        case RoundWon(winner=winner):
            return replace(state, phase="over", winner=winner)
        case SeedRevealed():
            return state
    raise AssertionError(f"unknown event {event!r}")  # pragma: no cover


def _legal(state: State, seat: int | None) -> tuple[str, ...]:
    if seat is None:
        return ()
    if seat == _SYSTEM:
        return {"seeding": ("CommitSeed",), "play": ("Timeout",)}.get(state.phase, ())
    return ("Draw",) if state.phase == "play" and seat == state.turn else ()


def _view(state: State, seat: int | None) -> View:
    shown = state.phase == "over"
    return View(
        seat=seat,
        phase=state.phase,
        turn=state.turn,
        commitment=state.commitment,
        cards=tuple(c if shown or i == seat else HIDDEN for i, c in enumerate(state.cards, 1)),
        legal=_legal(state, seat),
    )


def _redact(event: Event, seat: int | None) -> Event:
    match event:
        case SeedCommitted():
            return replace(event, secret="")
        case CardDrawn(seat=drawer) if drawer != seat:
            return replace(event, card=HIDDEN)
    return event


# --- the platform's parts ---------------------------------------------------------------


def _timer(state: State) -> protocol.Timer | None:
    if state.phase != "play":
        return None
    return protocol.Timer(
        seat=state.turn,
        seconds=float(state.options.turn_seconds),
        command=Timeout(turn=state.turn),
        command_id=f"timeout:1:{state.turn}",
        kind="turn",
    )


def _summary(state: State) -> Summary | None:
    if state.winner is None or state.secret is None:
        return None
    return Summary(winner=state.winner, cards=state.cards, secret=state.secret)


def _verify(record: Record) -> Verdict:
    """Decide every recorded command again from the revealed secret: the events must be
    the recorded ones, and the secret must hash to the commitment."""
    state = _initial(_options_from(None, **record.options))
    expected: list[Event] = []
    for seat, command in ((_SYSTEM, CommitSeed(secret=record.secret)), *record.commands):
        events = _revealed(state, seat, command)
        for event in events:
            state = _evolve(state, event)
        expected.extend(events)
    recorded = list(record.events)
    if recorded and isinstance(recorded[0], SeedCommitted):
        secret = bytes.fromhex(record.secret)
        if recorded[0].commitment != hashlib.sha256(secret).hexdigest():
            return Verdict(passed=False, detail="the secret does not hash to the commitment")
        recorded[0] = replace(recorded[0], secret=record.secret)
    if recorded != expected:
        pairs = enumerate(zip(recorded, expected, strict=False))
        at = next((i for i, (a, b) in pairs if a != b), min(len(recorded), len(expected)))
        return Verdict(passed=False, detail=f"event {at} differs from the re-derived one")
    return Verdict(passed=True, detail=f"{len(expected)} events re-derived")


def _record_of(log: protocol.TableLog) -> Record:
    """The record of a table's one round, from its stored log."""
    (unit,) = log.units  # a table plays one round
    assert unit.secret is not None  # a round is never stacked
    return Record(
        game="high_card",
        options=log.options,
        secret=unit.secret,
        commands=unit.commands,
        events=unit.events,
    )


def _replay(record: Record) -> Summary | None:
    state = _initial(_options_from(None, **record.options))
    for seat, command in ((_SYSTEM, CommitSeed(secret=record.secret)), *record.commands):
        for event in _revealed(state, seat, command):
            state = _evolve(state, event)
    return _summary(state)


GAME = protocol.Game(
    name="high_card",
    options=HighCardOptions,
    presets={"standard": HighCardOptions()},
    options_from=_options_from,
    check_options=_check,
    seat_counts=(2, 3, 4, 5),
    seats=lambda options: options.seats,
    teams=lambda options: tuple((seat,) for seat in range(1, options.seats + 1)),
    command=Command,
    event=Event,
    initial=_initial,
    decide=_revealed,
    rules=_decide,
    evolve=_evolve,
    view=_view,
    legal=_legal,
    redact=_redact,
    unit=protocol.Unit(
        name="round",
        draws=("deal",),
        needs_secret=lambda state: state.phase == "seeding",
        commit=lambda secret: CommitSeed(secret=secret),
        begins=lambda event: event.deal if isinstance(event, SeedCommitted) else None,
        ends=_ends,
        ending=("RoundWon",),
        lifecycle=_lifecycle,
    ),
    awaiting=lambda state: (state.turn,) if state.phase == "play" else (),
    timer=_timer,
    bot=lambda state, seat: (seat, Draw()),
    summary=_summary,
    records=protocol.RecordSection(
        decode=msgspec.json.Decoder(Record).decode,
        replay=_replay,
        verify=_verify,
        options_of=msgspec.structs.asdict,
        build=_record_of,
        units=lambda verdict: (
            protocol.UnitVerdict(
                number=1,  # a table plays one round
                passed=verdict.passed,
                check=None if verdict.passed else "events",
                detail=None if verdict.passed else verdict.detail,
            ),
        ),
    ),
    state=State,
    bots_allowed=lambda options: True,
    over=lambda state: state.phase == "over",
    wait=lambda state: (state.phase, 1, state.turn, False),
)
