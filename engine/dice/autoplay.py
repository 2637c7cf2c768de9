"""A random dice-tool session, for benches and tests: the system commits each roll's
secret from the caller's generator; the phone sometimes sends a client seed, then rolls.
The tool never stops by itself here: a caller stops it with `Stop` when it has enough."""

from __future__ import annotations

from typing import Any

from engine.dice.messages import CommitSeed, Event, Roll, SendClientSeed
from engine.dice.rules import decide
from engine.dice.state import State
from engine.players import Rng

__all__ = ["random_step"]

_SYSTEM = 0
_PHONE = 1


def random_step(state: State, rng: Rng, seeds: float = 0.3) -> tuple[int, Any, tuple[Event, ...]]:
    """One accepted command of whoever acts now, as (seat, command, its events)."""
    if state.phase == "seeding":
        secret = "".join(f"{rng.randrange(256):02x}" for _ in range(32))
        command: Any = CommitSeed(secret=secret)
        return _SYSTEM, command, decide(state, _SYSTEM, command)
    if state.window and not state.seed_sent and rng.random() < seeds:
        command = SendClientSeed(seed=f"phone-{rng.randrange(1 << 30):x}")
        return _PHONE, command, decide(state, _PHONE, command)
    return _PHONE, Roll(), decide(state, _PHONE, Roll())
