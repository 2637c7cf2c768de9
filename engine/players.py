"""The players a game offers its tests, benches and load scripts, beside its `Game`.

Hosting a game needs only its `engine.protocol.Game`. Measuring it needs more: a random
legal player, cheap enough that a bench times the engine and not the player
(`sahra bench engine`, `sahra bench verify`), and a scripted client that acts on a seat's
view as it arrives over the WebSocket (`sahra bench service`, the soak), and its bot taken
apart (`sahra bench bots` counts the choices the rules refuse, which `Game.bot` hides by
replacing them with the fallback). A game's package
registers them here in the same module that registers its `Game`, so a bench reaches them
by the game's name like everything else, and no module under `services/` imports a game.

Pure like the rest of `engine/`: randomness is the caller's generator, passed in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from engine import protocol

__all__ = ["Players", "Rng", "get", "register"]

_PLAYERS: dict[str, Players] = {}


class Rng(Protocol):
    """What a player draws from: `random.Random` has it."""

    def random(self) -> float: ...
    def randrange(self, stop: int, /) -> int: ...


@dataclass(frozen=True, kw_only=True)
class Players:
    """A game's random player and scripted client.

    `step(state, rng)`: one accepted command of whoever must act now (seat 0 for the
    system's own steps before a unit is played), as (seat, command, its events).
    `client_view`: the Struct a client decodes the "view" of a view message into (the parts
    of `Game.view` it reads). `client(view, options, rng, safe)`: the command that seat
    sends now from its own view, or None when it has nothing to send; `safe` after a
    refusal: the plainest command the rules accept.
    `bot_choose(view, options)`: the bot's own choice for the seat whose `Game.view` it is
    (the rules may refuse it); `bot_fallback(view)`: its command that they always accept.
    """

    step: Callable[[Any, Rng], tuple[int, Any, tuple[Any, ...]]]
    client_view: type
    client: Callable[[Any, Any, Rng, bool], Any | None]
    bot_choose: Callable[[Any, Any], Any]
    bot_fallback: Callable[[Any], Any]


def register(name: str, players: Players) -> Players:
    """Offer `players` for the game `name` (registered in the same module as its Game)."""
    known = _PLAYERS.get(name)
    if known is not None and known is not players:
        raise ValueError(f"other players are already registered for {name!r}")
    _PLAYERS[name] = players
    return players


def get(name: str) -> Players:
    """The players of the hosted game `name`: RuleViolation `unknown_game` for a game not
    hosted, LookupError for a hosted game that offers none."""
    protocol.get(name)  # imports the built-in games, which register their players too
    found = _PLAYERS.get(name)
    if found is None:
        raise LookupError(f"the game {name!r} offers no players for tests and benches")
    return found
