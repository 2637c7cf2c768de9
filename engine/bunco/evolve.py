"""Folding a Bunco event into the state (total: every check happened in `decide`)."""

from __future__ import annotations

from msgspec.structs import replace

from engine import fair
from engine.bunco.messages import (
    BellRang,
    DiceRolled,
    EveningEnded,
    Event,
    RollOffRolled,
    RoundEnded,
    RoundStarted,
    SeatsAssigned,
)
from engine.bunco.state import Evening, PlayTable, RoundResult, State
from engine.fairness import (
    ClientSeedSent,
    SeedCommitted,
    SeedRevealed,
    SeedWindowClosed,
    fold_unit,
)

__all__ = ["evolve"]


def evolve(state: State, event: Event) -> State:
    if type(event) is DiceRolled:  # nearly every event: asked before the match's cases
        return _rolled(state, event)
    match event:
        case RollOffRolled():
            table = state.tables[event.table - 1]
            passes = (*table.passes, (event.team, event.points))
            played = replace(
                table,
                roller=event.next,
                rolls=table.rolls + 1,
                last=event.dice,
                passes=passes if len(passes) < 2 or event.winner else (),
                winner=event.winner,
            )
            return replace(  # BU-AMB-6: a roll-off's Bunco is not tallied
                state,
                tables=_with(state.tables, event.table, played),
                rolls=state.rolls + 1,
                last_table=event.table,
            )
        case BellRang(team=team, ties=ties):
            tables = tuple(
                replace(t, rolloff=True) if i in ties else t for i, t in enumerate(state.tables, 1)
            )
            return replace(state, bell=team, tables=tables)
        case RoundStarted():
            return _started(state, event)
        case RoundEnded():
            result = RoundResult(
                round=event.round,
                target=event.target,
                scores=event.scores,
                winners=event.winners,
                tables=tuple(t.seats for t in state.tables),
            )
            return replace(
                state,
                phase="over" if event.last else "seeding",
                wins=event.wins,
                losses=event.losses,
                seating=event.tables,
                result=result,
            )
        case EveningEnded(winners=winners, most_buncos=most):
            return replace(state, evening=Evening(winners=winners, most_buncos=most))
        case SeatsAssigned(tables=tables):
            state = replace(state, seating=tables, assigned=True, order=_order(tables))
            if state.phase == "play":  # round 1 started, nobody rolled yet: re-seated
                state = replace(state, tables=tuple(PlayTable(seats=seats) for seats in tables))
            return state
        case SeedCommitted() | ClientSeedSent() | SeedRevealed() | SeedWindowClosed():
            return fold_unit(state, event)  # type: ignore[no-any-return]
    raise AssertionError(f"unknown event {event!r}")  # pragma: no cover


def _rolled(state: State, event: DiceRolled) -> State:
    """A roll at a play table: its scores, roller and dice; the round's roll count."""
    number, tables = event.table, state.tables
    table = tables[number - 1]
    played = replace(
        table,
        scores=event.scores,
        roller=event.next,
        rolls=table.rolls + 1,
        last=event.dice,
    )
    after = replace(
        state,
        tables=(*tables[: number - 1], played, *tables[number:]),
        rolls=state.rolls + 1,
        last_table=number,
        rolled=True,
    )
    kind = event.kind  # the tallies change on a few rolls an evening (BU-TALLY-2)
    if kind == "bunco":
        return replace(after, buncos=_add(state.buncos, event.player))
    if kind == "wipeout":
        return replace(after, wipeouts=_add(state.wipeouts, event.player))
    return after


def _started(state: State, event: RoundStarted) -> State:
    return replace(
        state,
        phase="play",
        seed_window=False,
        entropy=fair.entropy(state.client_seeds),
        target=event.target,
        tables=tuple(PlayTable(seats=seats) for seats in event.tables),
        order=state.order or _order(event.tables),
        rolls=0,
        last_table=0,
        bell=0,
        result=None,
    )


def _order(tables: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """BU-AMB-9: P1..P4 are the round-1 seats of the head table (read with one table only)."""
    return tables[0]


def _add(values: tuple[int, ...], place: int) -> tuple[int, ...]:
    return (*values[: place - 1], values[place - 1] + 1, *values[place:])


def _with(values: tuple, index: int, value: object) -> tuple:  # type: ignore[type-arg]
    return (*values[: index - 1], value, *values[index:])
