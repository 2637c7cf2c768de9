"""Folding a rummy event into the state (total: every check happened in `decide`)."""

from __future__ import annotations

from msgspec.structs import replace

from engine.fairness import (
    ClientSeedSent,
    SeedCommitted,
    SeedRevealed,
    SeedWindowClosed,
    fold_unit,
)
from engine.rummy.messages import (
    CardsDrawn,
    Event,
    FinalTurnsBegan,
    GameStopped,
    MoveLocked,
    PlayReminded,
    RoundDealt,
    RoundScored,
    TablePlayed,
    TurnEnded,
    TurnPassed,
)
from engine.rummy.state import RoundResult, State

__all__ = ["evolve"]


def evolve(state: State, event: Event) -> State:
    match event:  # the most frequent first
        case CardsDrawn(seat=seat, cards=cards):
            return replace(
                state,
                hands=_with(state.hands, seat, state.hands[seat - 1] + cards),
                stock=state.stock[len(cards) :],
                drawn=state.drawn + (event.why == "draw"),
                reminded=False,
            )
        case TurnEnded(next=next_seat):
            return replace(
                state,
                turn=next_seat,
                turn_no=state.turn_no + 1,
                drawn=0,
                locked=False,
                reminded=False,
            )
        case TablePlayed(seat=seat, table=table, names=names, added=added):
            gone = set(added)
            hand = tuple(c for c in state.hands[seat - 1] if c not in gone)
            return replace(
                state,
                hands=_with(state.hands, seat, hand),
                table=table,
                names=names,
                opened=_with(state.opened, seat, True),
                passes=0,
                reminded=False,
            )
        case PlayReminded(card=card, groups=groups, rearranges=rearranges):
            return replace(state, reminded=True, reminder=(card, groups, rearranges))
        case TurnPassed():
            return replace(state, passes=state.passes + 1, reminded=False)
        case MoveLocked():
            return replace(state, locked=True, reminded=False)
        case FinalTurnsBegan(last=last):
            return replace(state, final_last=last)
        case RoundDealt():
            return _dealt(state, event)
        case RoundScored():
            return _scored(state, event)
        case GameStopped(totals=totals, winners=winners):
            result = RoundResult(
                round=state.round,
                how="stopped",
                hands=state.hands,
                points=(0,) * state.seats,
                totals=totals,
                winners=(),
                game_over=True,
                game_winners=winners,
                final=totals,
                secret=state.result.secret if state.result else None,
            )
            return replace(state, phase="over", result=result, turn=0)
        case SeedCommitted() | ClientSeedSent() | SeedRevealed() | SeedWindowClosed():
            return fold_unit(state, event)  # type: ignore[no-any-return]
    raise AssertionError(f"unknown event {event!r}")  # pragma: no cover


def _dealt(state: State, event: RoundDealt) -> State:
    n = state.seats
    return replace(
        state,
        phase="play",
        seed_window=False,
        first=event.first,
        hands=event.hands,
        stock=event.stock,
        table=tuple((card,) for card in event.singletons),  # RM-TAH-2: alone on the table
        names=(),
        opened=(False,) * n,
        turn=event.first,
        turn_no=1,
        drawn=0,
        reminded=False,
        locked=False,
        passes=0,
        final_last=0,
        totals=state.totals or (0,) * n,
        rounds_won=state.rounds_won or (0,) * n,
        result=None,
    )


def _scored(state: State, event: RoundScored) -> State:
    won = tuple(r + (s in event.winners) for s, r in enumerate(state.rounds_won, 1))
    result = RoundResult(
        round=event.round,
        how=event.how,
        hands=event.hands,
        points=event.points,
        totals=event.totals,
        winners=event.winners,
        game_over=event.game_over,
        game_winners=event.game_winners,
        final=event.final,
    )
    return replace(
        state,
        phase="over" if event.game_over else "seeding",
        hands=event.hands,
        totals=event.totals,
        rounds_won=won,
        result=result,
        turn=0,
    )


def _with(values: tuple, seat: int, value: object) -> tuple:  # type: ignore[type-arg]
    return (*values[: seat - 1], value, *values[seat:])
