"""What one seat (or a spectator) of a rummy table sees, and the commands it may send.

Public: the table and its jokers' faces, whose turn it is, how many cards each hand and
the stock hold, the running totals and the last round's end (every hand shown, the
revealed secret). Private: a seat's own hand and its reminder (RM-OPT-1a). Never shown:
another seat's hand, the stock's order, the round's secret before its reveal (PF-FAIR-3).
"""

from __future__ import annotations

import msgspec

from engine.rummy.scoring import hand_points
from engine.rummy.state import RoundResult, State

__all__ = ["Legal", "Reminder", "View", "legal", "view"]

_SYSTEM = 0


class Legal(msgspec.Struct, frozen=True, kw_only=True):
    """The command kinds a seat may send now."""

    commands: tuple[str, ...]


class Reminder(msgspec.Struct, frozen=True, kw_only=True):
    card: str
    groups: tuple[int, ...]
    rearranges: bool


class View(msgspec.Struct, frozen=True, kw_only=True):
    seat: int | None
    variant: str
    phase: str
    round: int
    turn: int
    turn_no: int
    first: int
    table: tuple[tuple[str, ...], ...]
    names: tuple[tuple[str, str], ...]
    hand: tuple[str, ...] | None
    hand_points: int | None  # the own hand's value as the variant counts it
    hand_counts: tuple[int, ...]
    stock_count: int
    drawn: int
    locked: bool
    passes: int
    final_last: int
    opened: tuple[bool, ...]
    totals: tuple[int, ...]
    rounds_won: tuple[int, ...]
    commitment: str | None
    seeds_sent: tuple[bool, ...]
    reminder: Reminder | None
    result: RoundResult | None
    legal: Legal


def view(state: State, seat: int | None) -> View:
    own = state.hands[seat - 1] if seat and state.hands and seat <= len(state.hands) else None
    return View(
        seat=seat,
        variant=state.options.variant,
        phase=state.phase,
        round=state.round,
        turn=state.turn,
        turn_no=state.turn_no,
        first=state.first,
        table=state.table,
        names=state.names,
        hand=own,
        hand_points=None if own is None else hand_points(own, state.options.variant),
        hand_counts=tuple(len(h) for h in state.hands),
        stock_count=len(state.stock),
        drawn=state.drawn,
        locked=state.locked,
        passes=state.passes,
        final_last=state.final_last,
        opened=state.opened,
        totals=state.totals,
        rounds_won=state.rounds_won,
        commitment=state.commitment,
        seeds_sent=state.seeds_sent,
        reminder=_reminder(state, seat),
        result=state.result,
        legal=legal(state, seat),
    )


def _reminder(state: State, seat: int | None) -> Reminder | None:
    if not state.reminded or seat != state.turn or state.reminder is None:
        return None
    card, groups, rearranges = state.reminder
    return Reminder(card=card, groups=groups, rearranges=rearranges)


def legal(state: State, seat: int | None) -> Legal:
    """The command kinds `seat` may send now (seat 0: the system's)."""
    if seat is None:
        return Legal(commands=())
    if seat == _SYSTEM:
        system = {"seeding": ("CommitSeed",), "seeded": ("Deal",), "play": ("Timeout",)}
        return Legal(commands=system.get(state.phase, ()))
    out: list[str] = []
    if state.phase == "seeded" and state.seed_window and not state.seeds_sent[seat - 1]:
        out.append("SendClientSeed")
    if state.phase == "play" and seat == state.turn:
        out.extend(_turn(state))
    if state.options.variant == "shanghai" and seat == state.host and state.phase != "over":
        out.append("StopGame")  # RM-AMB-22
    return Legal(commands=tuple(out))


def _turn(state: State) -> list[str]:
    variant = state.options.variant
    final = state.final_last != 0
    if state.locked:
        return ["Play", "GiveUp"]  # RM-OPT-3b
    out: list[str] = []
    carousel_first = variant == "carousel" and state.drawn == 0 and not final
    if not carousel_first:
        out.append("Play")
    if state.stock and not final:
        out.append("Draw")
    elif not carousel_first or final:
        out.append("Pass")
    if state.options.incomplete_move == "revert_draw_3" and "Play" in out:
        out.append("Touch")
    return out
