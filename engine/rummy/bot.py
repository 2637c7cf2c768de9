"""The rummy bot: it sees only its seat's view, as a player would (PF-BOT-4).

It plays as many cards from its hand as it finds moves for. Its first move: on a table of
at most `_EXACT_UP_TO` cards, a legal move found by the exact search (engine/rummy/
search.py `find_move`, so it plays whenever it can there; so too for Vatican's first
play, RM-VAT-5, which find_move settles without a search). On a larger table the exact
search can take seconds to a minute (measured: 58 s on one Guadeloupe table of 95 cards,
13 s on a Vatican one of 67), and a bot's move is made inside the bots worker, which
serves every table; there it takes a move that rearranges nothing (a new group from the
hand, or hand cards joining one group whole, jokers named: engine/rummy/search_simple.py),
else a move that changes one or two groups near a hand card, found by the exact search on
those groups alone (milliseconds); so it may miss a move there that changes more of the
table. It then adds further moves of these two kinds, on the table each makes, while the
moves taken together are still one legal move (engine/rummy/moves.py). It does not search
for the move that lays the MOST cards (`best_move`: seconds on a large table with jokers).
It knocks in Carousel whenever the rules let it (RM-CAR-11), and otherwise draws, or
passes on an empty stock. Its fallback — the command the rules always accept on its turn
— is the draw (or pass) the clock would make.
"""

from __future__ import annotations

from engine.errors import RuleViolation
from engine.rummy.messages import Command, Draw, GiveUp, Pass, Play
from engine.rummy.moves import check_move
from engine.rummy.options import RummyOptions
from engine.rummy.scoring import KNOCK_AT, hand_points
from engine.rummy.search import Move, find_move, local_move
from engine.rummy.search_model import position
from engine.rummy.search_simple import simple_move
from engine.rummy.variants import Variant
from engine.rummy.view import View

__all__ = ["choose", "fallback", "greedy_move"]

# Up to this many cards on the table the bot's first move comes from the exact search
# of the whole table (under 0.2 s of CPU a call measured at 40 to 49 cards, in bot games
# of Guadeloupe and Vatican); beyond, from moves that change at most two groups.
_EXACT_UP_TO = 40


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
    added = set(move.added)
    left = [c for c in view.hand if c not in added]
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
    """A legal move (exact on a table of at most `_EXACT_UP_TO` cards, else one that
    rearranges nothing or changes one or two groups), grown by further moves of those two
    kinds, on the table each makes, while the whole is still one legal move from the table
    `table` (a later move may undo what a rule like Vatican's RM-VAT-4 allows only once);
    None when no move is found."""
    if first_play or sum(map(len, table)) <= _EXACT_UP_TO:
        move = find_move(table, names, hand, variant, first_play=first_play)
    else:
        move = _plain_move(table, names, hand, variant) or local_move(table, names, hand, variant)
    if move is None:
        return None
    for _ in range(len(hand)):
        added = set(move.added)
        rest = tuple(c for c in hand if c not in added)
        more = None
        if rest:
            more = _plain_move(move.table, dict(move.names), rest, variant) or local_move(
                move.table, dict(move.names), rest, variant
            )
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


def _plain_move(
    table: tuple[tuple[str, ...], ...],
    names: dict[str, str],
    hand: tuple[str, ...],
    variant: Variant,
) -> Move | None:
    """A legal move that rearranges nothing, for the first hand card in hand order that
    has one (the first phase of find_move, without its exact search); None if none."""
    pos = position(table, names, hand, variant, False)
    seen: set[str] = set()
    for card in pos.hand:
        face = card.partition("#")[0]
        if face in seen:
            continue
        seen.add(face)
        found = simple_move(pos, card)
        if found is not None:
            laid, named, added, _ = found
            return Move(table=laid, names=tuple(sorted(named.items())), added=added)
    return None
