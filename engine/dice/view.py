"""What the phone (or a spectator) of a dice-tool table sees, and what it may send.

Nothing is hidden but the committed roll's secret until it is revealed (PF-FAIR-3): the
view shows the next roll's commitment before it is rolled (PF-FAIR-2) and the last rolls
with their dice, commitments, client seeds and revealed secrets, so the phone can check
each roll on the spot (sha256(secret) == commitment, and the dice from the secret).
"""

from __future__ import annotations

import msgspec

from engine.dice.state import State, Thrown

__all__ = ["Legal", "View", "legal", "view"]

_SYSTEM = 0


class Legal(msgspec.Struct, frozen=True, kw_only=True):
    """The command kinds a seat may send now."""

    commands: tuple[str, ...]


class View(msgspec.Struct, frozen=True, kw_only=True):
    seat: int | None
    phase: str
    roll: int  # the committed roll's number (the last one, once the table is over)
    rolls: int  # rolls made so far
    commitment: str | None  # the committed roll's, published before it is rolled
    window: bool  # the seat may still send its client seed for the committed roll
    seed_sent: bool
    last: tuple[Thrown, ...]  # the last rolls, oldest first, each with its proof
    legal: Legal


def view(state: State, seat: int | None) -> View:
    return View(
        seat=seat,
        phase=state.phase,
        roll=state.roll,
        rolls=state.rolls,
        commitment=state.commitment,
        window=state.window,
        seed_sent=state.seed_sent,
        last=state.history,
        legal=legal(state, seat),
    )


def legal(state: State, seat: int | None) -> Legal:
    """The command kinds `seat` may send now (seat 0: the system's)."""
    if seat is None or state.phase == "over":
        return Legal(commands=())
    if seat == _SYSTEM:
        if state.phase == "seeding":
            return Legal(commands=("CommitSeed",))
        return Legal(commands=("Deal",) if state.window else ())
    if seat != 1:
        return Legal(commands=())
    if state.phase == "seeding":
        return Legal(commands=("Stop",))
    seed = ("SendClientSeed",) if state.window and not state.seed_sent else ()
    return Legal(commands=(*seed, "Roll", "Stop"))
