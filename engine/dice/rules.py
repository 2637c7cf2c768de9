"""The dice tool's decider: a command and the state -> the events, or RuleViolation (pure).

Each roll is one unit of play (PF-FAIR-1): the system commits its secret, the seat may
send one client seed while the roll's window is open (PF-AMB-12 h), and the seat's `Roll`
draws the three dice, exactly `fair.dice(secret, E, 3)` with E the entropy of the seat's
seed (PF-DICE-2, PF-AMB-12 g). The roll ends the unit, so the table reveals its secret
right after it (PF-FAIR-3, PF-AMB-13) and commits the next roll's. The roll closes the
window itself: the seat's seed, if it sends one, is in before its own roll, so the phone
never waits for a timer (the system's `Deal` only closes a window early).
"""

from __future__ import annotations

from engine import fair, fairness
from engine.dice.messages import (
    Command,
    Deal,
    DiceThrown,
    Event,
    Roll,
    SeedWindowClosed,
    Stop,
    ToolStopped,
)
from engine.dice.options import SEATS
from engine.dice.state import State
from engine.errors import RuleViolation

__all__ = ["decide", "ends", "entropy_of", "lifecycle", "rules"]

_SYSTEM = 0
_DICE = 3  # PF-DICE-1: three dice at once


def lifecycle(state: State) -> fairness.Lifecycle:
    """The roll's place in the table's lifecycle: committed (waiting on the lifecycle)
    from its commitment while the seat's seed window is open; the window closes when the
    seat rolls, or when the system closes it, after which only the seat's roll is awaited
    (so the services' follow-ups send no second Deal)."""
    return fairness.Lifecycle(
        unit=state.roll,
        awaiting_secret=state.phase == "seeding",
        committed=state.phase == "ready" and state.window,
        window=state.window,
        seeds_sent=(state.seed_sent,),
        secret=state.secret,
    )


def ends(event: object) -> int | None:
    """A roll ends with its dice, or unrolled when the seat stops the table."""
    if isinstance(event, DiceThrown):
        return event.roll
    if isinstance(event, ToolStopped) and event.roll:
        return event.roll
    return None


def decide(state: State, seat: int, command: Command) -> tuple[Event, ...]:
    """`rules` inside the table's fairness lifecycle, as the table plays it."""
    return fairness.play(lifecycle, ends, rules, state, seat, command)


def entropy_of(state: State) -> str:
    """E of the committed roll: the hash of the one seat's client seed ("" for none)."""
    return fair.entropy((state.client_seed,))


def rules(state: State, seat: int, command: Command) -> tuple[Event, ...]:
    match command:
        case Roll():
            return (_roll(state, seat),)
        case Stop():
            _the_seat(seat, "stops the table")
            if state.phase == "over":
                raise RuleViolation("table_over", "PF-DICE-1", "the dice are already put away")
            unrolled = state.roll if state.phase == "ready" else 0
            return (ToolStopped(seat=seat, roll=unrolled),)
        case Deal():
            if seat != _SYSTEM:
                raise RuleViolation(
                    "system_only", "PF-AMB-12", "only the system closes a roll's seed window"
                )
            if state.phase != "ready" or not state.window:
                raise RuleViolation(
                    "seed_window_closed", "PF-AMB-12", "no roll's seed window is open"
                )
            return (SeedWindowClosed(deal=state.roll),)
    raise RuleViolation(
        "not_now", "PF-DICE-1", f"{type(command).__name__} is not a command of the dice tool"
    )


def _roll(state: State, seat: int) -> DiceThrown:
    """PF-DICE-1/2: three dice from the committed roll's "dice" stream."""
    _the_seat(seat, "rolls")
    if state.phase == "over":
        raise RuleViolation("table_over", "PF-DICE-1", "the dice are put away: the table ended")
    if state.phase != "ready" or state.secret is None:
        raise RuleViolation(
            "not_committed",
            "PF-FAIR-2",
            "the next roll's commitment is not published yet: roll again in a moment",
        )
    dice = fair.dice(bytes.fromhex(state.secret), entropy_of(state), _DICE)
    a, b, c = dice
    return DiceThrown(roll=state.roll, seat=seat, dice=(a, b, c))


def _the_seat(seat: int, does: str) -> None:
    if not 1 <= seat <= SEATS:
        raise RuleViolation(
            "not_the_phone",
            "PF-DICE-1",
            f"only the table's phone (seat 1) {does}; seat {seat} cannot",
        )
