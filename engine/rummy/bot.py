"""The rummy bot: it sees only its seat's view, as a player would (PF-BOT-4).

It plays as many cards from its hand as it finds moves for: a legal move (engine/rummy/
search.py `find_move`, exact, so it plays whenever it can), then another one on the table
that move makes, and so on, while the moves taken together are still one legal move
(engine/rummy/moves.py). It does not search for the move that lays the MOST cards
(`best_move`): that search can take seconds on a large table with jokers, and a bot's
move is made inside the bots worker, which serves every table. It knocks in Carousel
whenever the rules let it (RM-CAR-11), and otherwise draws, or passes on an empty stock.
Its fallback — the command the rules always accept on its turn — is the draw (or pass)
the clock would make.
"""

from __future__ import annotations

from engine.errors import RuleViolation
from engine.rummy.messages import Command, Draw, GiveUp, Pass, Play
from engine.rummy.moves import check_move
from engine.rummy.options import RummyOptions
from engine.rummy.scoring import KNOCK_AT, hand_points
from engine.rummy.search import Move, find_move
from engine.rummy.variants import Variant
from engine.rummy.view import View

__all__ = ["choose", "fallback", "greedy_move"]

# Beyond this many cards on the table the bot plays the first move it finds: every further
# search there can take a second or more (measured at 80-90 cards in Guadeloupe), and the
# bots worker serves every table.
_GROW_UP_TO = 60


def choose(view: View, options: RummyOptions) -> Command:
    """The bot's command for the seat whose view this is, on its turn."""
    allowed = view.legal.commands
    if "Play" not in allowed or view.hand is None or view.seat is None:
        return fallback(view)

    move = greedy_move(
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
        and hand_points(left, "carousel") <= KNOCK_AT
    )
    return Play(table=move.table, names=dict(move.names), added=move.added, knock=knock)


def fallback(view: View) -> Command:
    allowed = view.legal.commands
    if "Draw" in allowed:
        return Draw()
    if "Pass" in allowed:
        return Pass()
    return GiveUp()


def greedy_move(
    table: tuple[tuple[str, ...], ...],
    names: dict[str, str],
    hand: tuple[str, ...],
    variant: Variant,
    *,
    first_play: bool,
) -> Move | None:
    """A legal move, grown by further moves on the table it makes while the whole is still
    one legal move from the table `table` (a later move may undo what a rule like
    Vatican's RM-VAT-4 allows only once) and the table holds at most `_GROW_UP_TO` cards;
    None when no move exists."""
    move = find_move(table, names, hand, variant, first_play=first_play)
    if move is None:
        return None
    for _ in range(len(hand)):
        rest = tuple(c for c in hand if c not in set(move.added))
        if not rest or sum(map(len, move.table)) > _GROW_UP_TO:
            break
        more = find_move(move.table, dict(move.names), rest, variant)
        if more is None:
            break
        try:
            whole = check_move(
                table, names, more.table, dict(more.names), hand, variant, first_play=first_play
            )
        except RuleViolation:
            break
        move = Move(table=more.table, names=whole.names, added=whole.added)
    return move
