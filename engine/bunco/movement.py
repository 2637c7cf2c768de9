"""Where the players sit: round 1's draw, the movement after a round, and the 4-player
rotation (BU-SET-7, BU-MOVE-1..5, BU-SIZE-1..3, BU-AMB-1/2/8/9).

A seating lists each play table's places by table seat 1..4, head table first; the last
table is the low table. Team 1 is table seats 1 + 3, team 2 seats 2 + 4 (BU-SET-2). The
ghost (BU-AMB-1) is a place like any other here: it moves with its team's results.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import fair

__all__ = ["TABLE_NAMES", "check_seating", "drawn", "moved", "partner", "rotation", "team_of"]

Seating = tuple[tuple[int, ...], ...]
_SEATS = 4
# BU-SET-6, BU-SIZE-1: the tables' names by their count, head first
TABLE_NAMES: dict[int, tuple[str, ...]] = {
    1: ("head",),
    2: ("head", "low"),
    3: ("head", "middle", "low"),
}
# BU-AMB-9: the pairings of P1..P4 by round, as the seats 1..4 they take (index into P)
_ROTATION = ((0, 1, 2, 3), (0, 2, 1, 3), (0, 1, 3, 2))


def team_of(table_seat: int) -> int:
    """BU-SET-2, BU-AMB-3: seats 1 and 3 are team 1, seats 2 and 4 team 2."""
    return 2 - table_seat % 2


def partner(table_seat: int) -> int:
    """The table seat opposite (BU-SET-2)."""
    return (table_seat + 1) % _SEATS + 1


def drawn(secret: bytes, entropy: str, places: int) -> Seating:
    """BU-SET-7, BU-AMB-2, PF-FAIR-6: the places 1..n shuffled under "first", then seated
    four at a time, head table first, table seats 1 to 4."""
    order = fair.shuffle(tuple(range(1, places + 1)), secret, "first", entropy)
    return _chunks(order)


def check_seating(tables: Sequence[Sequence[int]], places: int) -> str | None:
    """Why `tables` is not a seating of the places 1..n (None when it is one)."""
    if len(tables) * _SEATS != places or any(len(t) != _SEATS for t in tables):
        return f"{places} places sit at {places // _SEATS} table(s) of {_SEATS}"
    seated = sorted(p for t in tables for p in t)
    if seated != list(range(1, places + 1)):
        return f"every place from 1 to {places} sits exactly once"
    return None


def moved(tables: Seating, winners: Sequence[int]) -> Seating:
    """The seating after a round of 8 or 12 (BU-MOVE-1..5, BU-SIZE-1, BU-AMB-8): at the head
    table the winners stay and the losers go to the low table; at every other table the
    winners go up one table and the losers stay. At each table the stayers take seats 1
    and 2, the arrivals seats 3 and 4, each pair by its old seat numbers."""
    count = len(tables)
    stayers: list[list[int]] = [[] for _ in range(count)]
    arrivals: list[list[int]] = [[] for _ in range(count)]
    for i, (seats, winner) in enumerate(zip(tables, winners, strict=True)):
        won = [p for s, p in enumerate(seats, 1) if team_of(s) == winner]
        lost = [p for s, p in enumerate(seats, 1) if team_of(s) != winner]
        if i == 0:
            stayers[0] = won
            arrivals[count - 1] = lost
        else:
            stayers[i] = lost
            arrivals[i - 1] = won
    return tuple((*stay, *come) for stay, come in zip(stayers, arrivals, strict=True))


def rotation(order: Sequence[int], round_no: int) -> Seating:
    """BU-SIZE-2, BU-AMB-9: with one table, round r seats P1..P4 (`order`, their round-1
    seats) in the pairing (r - 1) mod 3: P1+P3 vs P2+P4, P1+P2 vs P3+P4, P1+P4 vs P2+P3;
    P1's pair in seats 1 + 3 (P1 in seat 1), the other pair in seats 2 + 4."""
    pick = _ROTATION[(round_no - 1) % len(_ROTATION)]
    return (tuple(order[i] for i in pick),)


def _chunks(order: Sequence[int]) -> Seating:
    return tuple(tuple(order[i : i + _SEATS]) for i in range(0, len(order), _SEATS))
