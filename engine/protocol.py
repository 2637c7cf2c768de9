"""The contract every game implements (the decider pattern).

A game is a module with five pure functions over frozen msgspec Structs:

- ``initial(options, host) -> State``
- ``decide(state, seat, command) -> tuple[Event, ...]`` — or raise RuleViolation; never
  mutates. The seat is the authenticated actor (0 = the system), kept out of the command
  body so that a client can never speak for another seat.
- ``evolve(state, event) -> State`` — total: all checking happened in ``decide``.
- ``view(state, seat | None) -> View`` — what one seat (or a spectator) may see.
- ``legal(state, seat | None) -> Legal`` — the command kinds allowed now.

Time, identity and randomness enter only as data (commands, committed seeds).
"""

from __future__ import annotations

from typing import Any, Protocol

__all__ = ["Game", "game"]


class Game(Protocol):
    def initial(self, options: Any, host: int = 1) -> Any: ...
    def decide(self, state: Any, seat: int, command: Any) -> tuple[Any, ...]: ...
    def evolve(self, state: Any, event: Any) -> Any: ...
    def view(self, state: Any, seat: int | None) -> Any: ...
    def legal(self, state: Any, seat: int | None) -> Any: ...


def game(name: str) -> Game:
    """The game module registered under `name`."""
    if name == "banakil":
        from engine import banakil

        return banakil
    from engine.errors import RuleViolation

    raise RuleViolation("unknown_game", "", f"no game named {name!r} is hosted here")
