"""Folding a dice-tool event into the state (total: every check happened in `decide`)."""

from __future__ import annotations

from msgspec.structs import replace

from engine.dice.messages import (
    ClientSeedSent,
    DiceThrown,
    Event,
    SeedCommitted,
    SeedRevealed,
    SeedWindowClosed,
    ToolStopped,
)
from engine.dice.state import KEPT, State, Thrown

__all__ = ["evolve"]


def evolve(state: State, event: Event) -> State:
    match event:
        case SeedCommitted(deal=number, commitment=commitment, secret=secret):
            # PF-AMB-12 h: the seat's window opens with the commitment
            return replace(
                state,
                phase="ready",
                roll=number,
                secret=secret,
                commitment=commitment,
                client_seed="",
                seed_sent=False,
                window=True,
            )
        case ClientSeedSent(seed=seed):
            return replace(state, client_seed=seed, seed_sent=True)
        case SeedWindowClosed():
            return replace(state, window=False)
        case DiceThrown(dice=dice):
            return _ended(replace(state, rolls=state.rolls + 1), dice, over=False)
        case ToolStopped(roll=number):
            if number:  # the committed roll ends unrolled and is shown so
                return _ended(state, (), over=True)
            return replace(state, phase="over", window=False)
        case SeedRevealed(deal=number, secret=secret):
            shown = tuple(
                replace(t, secret=secret) if t.roll == number else t for t in state.history
            )
            return replace(state, secret=None, history=shown)
    raise AssertionError(f"unknown event {event!r}")  # pragma: no cover


def _ended(state: State, dice: tuple[int, ...], *, over: bool) -> State:
    """The committed roll goes into the history (its secret follows at the reveal); the
    state waits for the next commitment, or is over."""
    thrown = Thrown(
        roll=state.roll,
        dice=dice,
        commitment=state.commitment or "",
        client_seed=state.client_seed,
    )
    return replace(
        state,
        phase="over" if over else "seeding",
        commitment=None,
        client_seed="",
        seed_sent=False,
        window=False,
        history=(*state.history, thrown)[-KEPT:],
    )
