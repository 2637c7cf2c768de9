"""Which preset of a game a create request names (PF-ROOM-2, RM-CORE-3).

A request names the preset of the game's options under `ruleset` (the word Banakil's rules
use) or under `variant` (the word rummy's use: "the host chooses the variant"). Both are
the same field under two names, for any game: the preset must be one of the game's, and a
request that gives both with different values is malformed (400), never silently resolved
to one of them. Neither given: the caller's default.
"""

from __future__ import annotations

from engine import protocol
from services.gateway.errors import ApiError

__all__ = ["chosen_preset"]


def chosen_preset(
    game: protocol.Game, ruleset: str | None, variant: str | None, default: str | None = None
) -> str | None:
    """The preset the request names (or `default`); ApiError 400 `bad_request` for two
    different names or a preset the game does not have."""
    if ruleset is not None and variant is not None and ruleset != variant:
        raise ApiError(
            400,
            "bad_request",
            "",
            f'"ruleset" and "variant" name the same choice; {ruleset!r} and {variant!r} differ',
        )
    named = ruleset if ruleset is not None else variant
    preset = named if named is not None else default
    if preset is not None and preset not in game.presets:
        # A malformed request, as when the schema listed Banakil's rule sets (400).
        shown = ", ".join(sorted(game.presets))
        raise ApiError(400, "bad_request", "", f"{game.name} has the rule sets {shown}")
    return preset
