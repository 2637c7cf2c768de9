"""The rummy bot: it sees only its seat's view, as a player would (PF-BOT-4).

It plays the move that lays the most cards from its hand (engine/rummy/search.py
`best_move`), knocks in Carousel whenever the rules let it (RM-CAR-11), and otherwise
draws, or passes on an empty stock. Its fallback — the command the rules always accept on
its turn — is the draw (or pass) the clock would make.
"""

from __future__ import annotations

from engine.rummy.messages import Command, Draw, GiveUp, Pass, Play
from engine.rummy.options import RummyOptions
from engine.rummy.scoring import hand_points
from engine.rummy.search import best_move
from engine.rummy.view import View

__all__ = ["choose", "fallback"]

_KNOCK_AT = 5  # RM-CAR-11


def choose(view: View, options: RummyOptions) -> Command:
    """The bot's command for the seat whose view this is, on its turn."""
    allowed = view.legal.commands
    if "Play" not in allowed or view.hand is None or view.seat is None:
        return fallback(view)

    move = best_move(
        view.table,
        dict(view.names),
        view.hand,
        options.rules,
        first_play=not view.opened[view.seat - 1],
    )
    if move is None:
        return fallback(view)
    left = [c for c in view.hand if c not in set(move.added)]
    knock = (
        options.variant == "carousel"
        and view.final_last == 0
        and view.drawn in (1, 2)
        and bool(left)
        and hand_points(left, "carousel") <= _KNOCK_AT
    )
    return Play(table=move.table, names=dict(move.names), added=move.added, knock=knock)


def fallback(view: View) -> Command:
    allowed = view.legal.commands
    if "Draw" in allowed:
        return Draw()
    if "Pass" in allowed:
        return Pass()
    return GiveUp()
