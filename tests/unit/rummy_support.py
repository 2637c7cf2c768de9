"""Shared helpers of the rummy rule tests: states built by hand, commands decided and folded.

Cards are written as in the rules file's examples, short: "7H" is the identity "7H#1",
"7H#2" its second copy, "JK1" the joker "JK#1"; a table is groups separated by "|".
A state is built directly (`playing`), in the middle of a round, with exactly the hands,
stock and table a test needs; `step` decides a command and folds its events; `refused`
checks that a command is refused with a code and a rule ID and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec
import pytest

from engine.errors import RuleViolation
from engine.rummy.evolve import evolve
from engine.rummy.messages import Command, CommitSeed, Deal, Event
from engine.rummy.options import RummyOptions, options_from
from engine.rummy.rules import decide
from engine.rummy.state import State

__all__ = [
    "SECRET",
    "card",
    "cards",
    "dealt",
    "fold",
    "playing",
    "refused",
    "step",
    "table",
    "trusting",
]

SECRET = "5e" * 32  # a fixed round secret: the tests never need it to be unknown
_SYSTEM = 0


def card(token: str) -> str:
    if token.startswith("JK") and "#" not in token:
        return f"JK#{token[2:]}"
    return token if "#" in token else f"{token}#1"


def cards(text: str) -> tuple[str, ...]:
    return tuple(card(t) for t in text.split())


def table(text: str) -> tuple[tuple[str, ...], ...]:
    if not text.strip():
        return ()
    return tuple(cards(part) for part in text.split("|"))


def playing(
    variant: str,
    hands: Sequence[str],
    *,
    stock: str = "",
    on_table: str = "",
    names: dict[str, str] | None = None,
    turn: int = 1,
    turn_no: int = 1,
    opened: Sequence[bool] | None = None,
    drawn: int = 0,
    passes: int = 0,
    final_last: int = 0,
    locked: bool = False,
    totals: Sequence[int] | None = None,
    rounds_won: Sequence[int] | None = None,
    round_no: int = 1,
    first: int = 1,
    secret: str | None = None,
    host: int = 1,
    **options: Any,
) -> State:
    """A round in play with these hands (seat 1 first), stock (top first) and table."""
    seats = len(hands)
    return State(
        options=options_from(variant, seats=seats, **options),
        host=host,
        phase="play",
        round=round_no,
        secret=secret,
        commitment=None,
        client_seeds=("",) * seats,
        seeds_sent=(False,) * seats,
        first=first,
        hands=tuple(cards(h) for h in hands),
        stock=cards(stock),
        table=table(on_table),
        names=tuple(sorted((card(j), f) for j, f in (names or {}).items())),
        opened=tuple(opened) if opened is not None else (True,) * seats,
        turn=turn,
        turn_no=turn_no,
        drawn=drawn,
        passes=passes,
        final_last=final_last,
        locked=locked,
        totals=tuple(totals) if totals is not None else (0,) * seats,
        rounds_won=tuple(rounds_won) if rounds_won is not None else (0,) * seats,
    )


def trusting(variant: str) -> dict[str, Any]:
    """Options under which a Draw is never answered by the reminder of RM-OPT-1a: the
    tests that are not about that reminder do not depend on the move search."""
    if variant in ("manipulation", "shanghai"):
        return {"compulsory_play": "trust_player"}
    return {}


def fold(state: State, events: Iterable[Event]) -> State:
    for event in events:
        state = evolve(state, event)
    return state


def step(state: State, seat: int, command: Command) -> tuple[tuple[Event, ...], State]:
    """The events `command` decides, and the state they fold into. `decide` must not
    change the state it is given (every test checks it on the way)."""
    before = msgspec.json.encode(state)
    events = decide(state, seat, command)
    assert msgspec.json.encode(state) == before, "decide changed the state it was given"
    return events, fold(state, events)


def refused(state: State, seat: int, command: Command) -> tuple[str, str]:
    """(code, rule ID) of the refusal; the state is checked unchanged."""
    before = msgspec.json.encode(state)
    with pytest.raises(RuleViolation) as caught:
        decide(state, seat, command)
    assert msgspec.json.encode(state) == before, "a refused command changed the state"
    return caught.value.code, caught.value.rule_id


def dealt(options: RummyOptions, secret: str = SECRET) -> tuple[tuple[Event, ...], State]:
    """A first round committed from `secret` and dealt by the system (no client seeds)."""
    state = State(options=options)
    events: list[Event] = []
    for command in (CommitSeed(secret=secret), Deal()):
        new, state = step(state, _SYSTEM, command)
        events.extend(new)
    return tuple(events), state
