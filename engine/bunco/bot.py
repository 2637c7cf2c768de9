"""The Bunco bot: rolling has no choice (BU-ROLL-1), so a bot, a player and the clock all
send the same roll (PF-BOT-4, PF-TIMER-8); the bot only has to know when it is its turn."""

from __future__ import annotations

from engine.bunco.messages import Command, Roll
from engine.bunco.view import View

__all__ = ["choose", "fallback"]


def choose(view: View, options: object = None) -> Command:
    """The bot's command for the seat whose view this is: a roll."""
    return fallback(view)


def fallback(view: View) -> Command:
    """The command the rules accept from an awaited seat: its roll."""
    return Roll()
