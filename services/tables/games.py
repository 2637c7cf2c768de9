"""How the services reach a table's game: through the registry, by the table's game name.

Every module under `services/` finds the rules of a table's game here (`game_of`), never
by importing a game package: the registry (`engine.protocol`) is the only place that names
the games, so adding one touches nothing in the services.

Before a unit of play the system steps through the platform's fairness lifecycle
(PF-AMB-12 h, PF-CUT-1..3): commit the secret, wait for the client seeds, close the seed
window, cut, deal. What the system may send now is the game's own answer
(`legal(state, 0)`), and such a command is built through the game's tagged command union,
so it is decoded as strictly as a client's.
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine import protocol
from engine.table import TableState

__all__ = [
    "DEFAULT_GAME",
    "awaits_cut",
    "game_named",
    "game_of",
    "system_command",
]

# The game of a table whose state names none (one built before its TableCreated, as tests
# build them): the registry's default.
DEFAULT_GAME = protocol.DEFAULT_GAME

# The system's commands of the pre-deal lifecycle that mean "the host cuts this unit"
# (PF-AMB-12 h: first the seed window closes, then the cut; PF-CUT-1..3).
_CUT_STEPS = ("CloseSeedWindow", "Cut")


def game_named(name: str) -> protocol.Game:
    """The registered game `name` (RuleViolation `unknown_game` otherwise)."""
    return protocol.get(name)


def game_of(state: TableState) -> protocol.Game:
    """The game played at the table `state`."""
    return protocol.get(state.game or DEFAULT_GAME)


def awaits_cut(game: protocol.Game, state: Any) -> bool:
    """The seeded unit is cut by its host before it is dealt (BK-DEAL-C1, PF-CUT-1): the
    system's next step is to close the seed window or to cut, not to deal."""
    allowed = game.legal(state, 0).commands
    return any(step in allowed for step in _CUT_STEPS)


def system_command(game: protocol.Game, kind: str, **fields: Any) -> Any:
    """The game's command `kind` with `fields`, built through its tagged union (so a kind
    or a field the game does not have is refused, as a client's would be)."""
    return msgspec.convert({"type": kind, **fields}, game.command)
