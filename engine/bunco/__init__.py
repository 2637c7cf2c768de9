"""Bunco (rules/bunco.md): an evening of rounds at 1 to 3 play tables, dice drawn from each
round's committed secret. The platform reaches it through `engine.bunco.game.GAME`."""
