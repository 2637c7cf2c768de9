"""Rummy's move search: is there a move, the bot's move, and the hint (rules/rummy.md
RM-MOVE-1..7, RM-OPT-1a, RM-AMB-5, RM-JOKER-1..5, RM-CAR-5..7, RM-VAT-4/5, RM-TAH-3/7..10;
platform.md PF-HINT-2/3, PF-BOT-4).

A move is a whole new table: every card of the table stays on it, at least one hand card
joins, every group is valid, and jokers move only as engine/rummy/moves.py allows. The
three questions and what each answer guarantees:

- `find_move`: some legal move, or None, and None is a proof that no move exists (the
  duty to play of RM-MAN-3 rests on it). Moves that rearrange nothing are tried first
  (search_simple); only when there is none does the exact search run.
- `best_move`: a legal move adding the most hand cards possible (so one that empties the
  hand whenever one does): exact without jokers and on small tables; with jokers its
  search is bounded by a count of states (see its docstring). Among moves adding as many
  cards, which one is returned is unspecified.
- `hint`: the first hand card in hand order (♣ ♦ ♥ ♠, then A … K, jokers last) that some
  legal move plays (RM-AMB-5), the old groups the shown move changes, whether it
  rearranges the table, and the move itself: one that rearranges nothing when such a move
  plays that card. None when no move exists.

The exact search (search_dp) is a dynamic programme over ranks, run per combination of
kept and freed table jokers (search_model), each first loosened (search_model.relaxed);
a move leaves this module only once moves.check_move has accepted it.

The hint asks about one card at a time, in hand order, up to the first card a move
without rearrangement plays: can this card be played at all? The programme answers that
with an order in which only that card counts, so every state that has passed the card's
place without it is dropped (asked for "the earliest card" at once, it could drop nothing
before the last place: clubs lie at every rank). A short bounded run settles most cards;
a card it leaves open is tried in moves that change one or two groups (the search on
those groups alone; on large tables these come first), then, once per hint and only
when no card plays without rearranging, by the search for any move at all, and only then
by the whole search, which walks depth first before it fills its layers (search_walk).
A split of a loosened problem the move check refuses is tried again with copies of a
face traded between groups (search_swap) before the tracked problem is solved.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations

import msgspec

from engine.cards import Card
from engine.errors import RuleViolation
from engine.rummy.moves import check_move
from engine.rummy.search_dp import GaveUp, solve
from engine.rummy.search_fit import may_hold
from engine.rummy.search_model import (
    Position,
    Scenario,
    face_index,
    position,
    relaxed,
    scenarios,
    with_freers,
)
from engine.rummy.search_simple import Simple, opening_core, simple_move
from engine.rummy.search_swap import traded
from engine.rummy.search_table import to_table
from engine.rummy.search_types import JOKER_INDEX, Problem, Solution
from engine.rummy.variants import Variant

__all__ = ["Hint", "Move", "Table", "best_move", "find_move", "hint", "local_move"]

Table = tuple[tuple[Card, ...], ...]
# States the bot's exact search over joker scenarios may visit in all: at most about a
# tenth of a second of CPU; small tables (the rules' examples) need a few hundred.
_BOT_WORK = 8_000
# States the hint's first, short search of the whole table for one card may visit in
# each joker scenario (well under a millisecond); most cards are settled by it, a proof
# that one plays in no move above all.
_QUICK_WORK = 500
# States a depth-first walk of the whole search for one card may visit before the layers
# take over (search_walk). Hint CPU on the bench's 180 joker positions of 40 cards, in all:
# layers only 1518-1857 ms, walks of 8,000 states 954-1042, of 30,000 902-1029 (slowest
# position 464-576 -> 53-65 ms). A walk that finds nothing costs more than the layers, so
# the budget stays short: with Machiavelli and Manipulation added (300 positions), 30,000
# states gave 2051 ms in all (Machiavelli's position 51 109-230 ms over its layers' 90),
# 8,000 gave 1607-1775 and 3,000 left Vatican's position 52 at 660 ms. Walks in the short
# search and in the one- or two-group searches were measured too and did not pay.
_WALK = 8_000
# The same for the search for any move at all (find_move, the hint's reminder question):
# random Manipulation play's CPU steps/s, best of three runs, 435 -> 551 with it.
_ANY_WALK = 3_000
# Table cards from which the hint tries moves changing one or two groups before its short
# search (see _Asker).
_LARGE = 60


class Move(msgspec.Struct, frozen=True, kw_only=True):
    """A legal move: the whole new table, every joker on it with its face, the hand cards
    it adds (in table order)."""

    table: Table
    names: tuple[tuple[Card, str], ...]
    added: tuple[Card, ...]


class Hint(msgspec.Struct, frozen=True, kw_only=True):
    """RM-OPT-1a: a hand card some move plays, the indexes of the old table's groups the
    shown move changes, whether it rearranges the table, and that move."""

    card: Card
    groups: tuple[int, ...]
    rearranges: bool
    move: Move


def find_move(
    table: Sequence[Sequence[Card]],
    names: Mapping[Card, str],
    hand: Sequence[Card],
    variant: Variant,
    *,
    first_play: bool = False,
) -> Move | None:
    """Some legal move, or None when none exists (exact)."""
    pos = position(table, names, hand, variant, first_play)
    if not pos.hand:
        return None
    if pos.first_play:
        # RM-VAT-5: without three natural hand cards in a row nothing can be played; with
        # them, laying them alone is a move.
        core = opening_core(pos)
        return None if core is None else _checked(pos, (*pos.table, core), {})
    for card in _distinct(pos.hand):
        found = simple_move(pos, card)
        if found is not None:
            return _move(found)
    solved = _solve(pos, any_move=True)
    return solved[0] if solved else None


def best_move(
    table: Sequence[Sequence[Card]],
    names: Mapping[Card, str],
    hand: Sequence[Card],
    variant: Variant,
    *,
    first_play: bool = False,
) -> Move | None:
    """The bot's move: a legal move, or None when none exists (exact, as find_move).

    Without jokers (Manipulation, Machiavelli, Shanghai, Guadeloupe) it adds as many hand
    cards as any legal move does. With jokers it does too, unless the exact search over
    the joker scenarios needs more than `_BOT_WORK` states (a large table with jokers to
    free; seconds of work): then it is the best of the moves found by then, the move in
    which every table joker keeps its identity and hand jokers join where they fit, and
    find_move's move: legal, not always the most cards."""
    pos = position(table, names, hand, variant, first_play)
    if not pos.hand:
        return None
    if variant.jokers == "none":
        solved = _solve(pos)
        return solved[0] if solved else None
    move = _kept_move(pos)
    try:
        solved = _solve(pos, work=_BOT_WORK)
    except GaveUp:
        solved = None
    if solved is not None and (move is None or len(solved[0].added) > len(move.added)):
        move = solved[0]
    found = find_move(table, names, hand, variant, first_play=first_play)
    if move is None or (found is not None and len(found.added) > len(move.added)):
        return found
    return move


def hint(
    table: Sequence[Sequence[Card]],
    names: Mapping[Card, str],
    hand: Sequence[Card],
    variant: Variant,
    *,
    first_play: bool = False,
) -> Hint | None:
    """RM-AMB-5: the first hand card in hand order that a legal move plays, shown with a
    move that rearranges nothing if one plays it; None when no move exists."""
    pos = position(table, names, hand, variant, first_play)
    if not pos.hand:
        return None
    # The first card a move without rearrangement plays bounds the search: only an
    # earlier card, played by rearranging, can beat it. Each earlier card is asked about
    # alone (`_plays`), in hand order: a search for one card drops every state that has
    # passed its place without it, where a search for "the earliest card" could drop
    # nothing before the last place (clubs lie at every rank).
    easy: tuple[Card, Simple] | None = None
    for card in _distinct(pos.hand):
        found = simple_move(pos, card)
        if found is not None:
            easy = (card, found)
            break
    ask = _Asker(pos, any_first=easy is None)
    for card in _distinct(pos.hand):
        if easy is not None and card == easy[0]:
            return _hint(pos, *easy)
        move = ask.plays(card)
        if move is not None:
            return Hint(
                card=card, groups=_changed(pos.table, move.table), rearranges=True, move=move
            )
        if ask.none:
            return None
    return None  # every card was shown to play in no move


# ---- helpers ---------------------------------------------------------------------------------


class _Scenarios:
    """A position's joker scenarios, each with its loosened problem, built once for the
    questions of one hint."""

    def __init__(self, pos: Position) -> None:
        self._pos = pos
        self._built: list[tuple[Scenario, Scenario]] | None = None

    def each(self) -> list[tuple[Scenario, Scenario]]:
        if self._built is None:
            self._built = [(relaxed(self._pos, s), s) for s in scenarios(self._pos)]
        return self._built


class _Asker:
    """The hint's question for one card after another, in hand order: a legal move playing
    it, or None when none does (exact). Cheapest answers first (measured on random
    Manipulation play, 90-card tables: the first card in hand order was the hint's card
    in 92 of 120 reminders, and moves changing one or two groups played it in 110):

    - a short search of the whole table (it settles most cards: a proof of none above all);
    - moves that change one or two groups of the table (most playable cards play so; on a
      table of more than `_LARGE` cards these come first);
    - when no card plays without rearranging (`any_first`), once, the search for any move
      at all: None proves the hand plays nothing (the reminder's usual Draw), and the move
      it finds plays the cards it adds;
    - the whole search for the card, which only a card played by a long chain of changes,
      or by none, needs.
    """

    def __init__(self, pos: Position, *, any_first: bool) -> None:
        self._pos = pos
        self._scens = _Scenarios(pos)
        self._any = any_first
        self._some: Move | None = None
        self.none = False  # no move at all exists (proved)
        # On a large table the short search nearly always gives up (100 of 100 reminders of
        # random Manipulation play, 90-card tables), so moves changing one or two groups
        # are tried before it there (those hints' mean 9.5-13.4 -> 6.2-6.5 ms CPU).
        self._large = sum(map(len, pos.table)) > _LARGE

    def plays(self, card: Card) -> Move | None:
        pos, scens = self._pos, self._scens
        if self._some is not None and _face(card) in {_face(c) for c in self._some.added}:
            return self._some
        large = self._large
        move = _local(pos, card) if large else None
        if move is not None:
            return move
        try:
            # A budget for each scenario (one shared by all of them gave up sooner and left
            # more cards to the whole search: Carousel's p99 at 40 cards 312 -> 550 ms).
            return _plays(pos, card, scens, lambda p: solve(p, "first", -1, [_QUICK_WORK]))
        except GaveUp:
            pass
        move = None if large else _local(pos, card)
        if move is not None:
            return move
        if self._any:
            self._any = False
            solved = _solve(pos, any_move=True)
            if solved is None:
                self.none = True
                return None
            self._some = solved[0]
            if _face(card) in {_face(c) for c in self._some.added}:
                return self._some
        return _plays(
            pos,
            card,
            scens,
            lambda p: solve(p, "first", -1, walk_first=_WALK),
            lambda p: solve(p, "first", -1),
        )


def local_move(
    table: Sequence[Sequence[Card]],
    names: Mapping[Card, str],
    hand: Sequence[Card],
    variant: Variant,
    *,
    card: Card | None = None,
) -> Move | None:
    """A legal move that changes one or two groups of the table near a hand card (near
    `card` only, and playing it, when given), found by the exact search on those groups
    alone; None when there is none of that kind (a move changing more groups may still
    exist). A search over two groups costs milliseconds where one over the whole table
    carries every way to lay all the rest: the bot's move on a large table, and the hint's
    first try for a card its short search leaves open."""
    pos = position(table, names, hand, variant, False)
    return _local(pos, card)


def _local(pos: Position, card: Card | None) -> Move | None:
    tried: set[tuple[int, ...]] = set()
    for near_card in [card] if card is not None else pos.hand:
        if near_card.startswith("JK#"):
            continue
        related = [i for i, group in enumerate(pos.table) if _near(near_card, group, pos.names)]
        for chosen in [*((i,) for i in related), *combinations(related, 2)]:
            if chosen in tried:
                continue
            tried.add(chosen)
            part = tuple(pos.table[i] for i in chosen)
            if card is not None and not may_hold(
                _face(card),
                [_face(c) for c in (*(c for g in part for c in g), *pos.hand) if c != card],
                pos.variant.ace,
            ):
                continue  # no group of these cards can hold it (search_fit)
            held = {c for g in part for c in g}
            sub = position(
                part,
                {c: n for c, n in pos.names.items() if c in held},
                pos.hand,
                pos.variant,
                pos.first_play,
            )
            if card is None:
                found = find_move(part, sub.names, pos.hand, pos.variant)
            else:
                found = _plays(sub, card, _Scenarios(sub), lambda p: solve(p, "first", -1))
            if found is None:
                continue
            kept = tuple(g for i, g in enumerate(pos.table) if i not in chosen)
            names = {c: n for c, n in pos.names.items() if c not in held}
            move = _checked(pos, (*kept, *found.table), {**names, **dict(found.names)})
            if move is not None:
                return move
    return None


def _near(card: Card, group: Sequence[Card], names: Mapping[Card, str]) -> bool:
    """A group a move playing `card` may change: it holds a card (a joker as its name) of
    the same rank, or of the same suit at most two ranks away (K and A are neighbours),
    or a joker with no name yet (a Tahiti singleton, RM-TAH-3)."""
    rank, suit = _rank_suit(_face(card))
    for other in group:
        face = names.get(other) or _face(other)
        if face == "JK":
            return True
        o_rank, o_suit = _rank_suit(face)
        gap = abs(o_rank - rank)
        if o_rank == rank or (o_suit == suit and min(gap, 13 - gap) <= 2):
            return True
    return False


def _face(card: Card) -> str:
    return card.partition("#")[0]


def _rank_suit(face: str) -> tuple[int, str]:
    return face_index(face) % 13, face[-1]


def _plays(
    pos: Position,
    card: Card,
    scens: _Scenarios,
    search: Callable[[Problem], Solution | None],
    again: Callable[[Problem], Solution | None] | None = None,
) -> Move | None:
    """A legal move of some scenario that plays `card` (a copy of its face), or None when
    none does, as far as `search` tells; `again` is asked about a tracked scenario whose
    split from `search` the move check refused (the walk's first split, search_walk, is
    not the layers' best one).

    Each scenario's problem is asked with an order in which only this face comes early,
    so that every state that has passed the face without using it is dropped. A hand
    joker is played by some move exactly when any move exists (the natural cards before
    it play in none)."""
    if card.startswith("JK#"):
        solved = _solve(pos, any_move=True)
        return solved[0] if solved else None
    name = card.partition("#")[0]
    face = face_index(name)
    order = tuple(0 if f == face else JOKER_INDEX - 1 for f in range(52))

    def attempt(
        scen: Scenario, find: Callable[[Problem], Solution | None] = search
    ) -> tuple[Move | None, bool]:
        """A move of `scen` playing the card; whether `scen` has one at all."""
        problem = with_freers(pos, scen, face) if scen.freed else scen.problem
        sol = find(msgspec.structs.replace(problem, order=order))
        if sol is None:
            return None, False
        move = _split_move(pos, scen, sol)
        if move is not None and any(c.partition("#")[0] == name for c in move.added):
            return move, True
        return None, True

    for loose, scen in scens.each():
        move, some = attempt(loose)
        if move is None and some:
            move, some = attempt(scen)
            if move is None and some and again is not None:
                move, _ = attempt(scen, again)
        if move is not None:
            return move
    return None


def _solve(
    pos: Position,
    *,
    any_move: bool = False,
    work: int | None = None,
) -> tuple[Move, int] | None:
    """The move adding the most hand cards, with that count (any move: `any_move`).

    Every table joker kept first (cheap, and a bound for the rest), then scenario by
    scenario (each combination of kept and freed jokers). Each is loosened first (nothing
    tracked; a freed joker may stay off): no better split there means none in the
    scenario, and a legal move reaching its best value settles it; only otherwise does the
    tracked search run."""
    every = scenarios(pos)
    # GaveUp passes through to the caller who set a limit. Any move will do: a walk first.
    effort = _Effort(work, _ANY_WALK if any_move else 0)
    best, settled = _attempt(pos, relaxed(pos, every[0]), None, effort)
    if not settled:
        best, _ = _attempt(pos, every[0], best, effort)
    if len(every) == 1 or _enough(pos, best, any_move):
        return best
    # Solving the loosest problem (every table joker wild) here would settle many positions
    # at once, but with two wild jokers it costs more than the scenarios it spares
    # (measured on 100 Carousel tables of 40 cards: 16.4 s against 6.0 s of CPU).
    for scen in every[1:]:
        best, settled = _attempt(pos, relaxed(pos, scen), best, effort)
        if not settled:
            best, _ = _attempt(pos, scen, best, effort)
        if _enough(pos, best, any_move):
            break
    return best


def _attempt(
    pos: Position,
    scen: Scenario,
    best: tuple[Move, int] | None,
    effort: _Effort,
) -> tuple[tuple[Move, int] | None, bool]:
    """Search `scen` for a move adding more cards than `best`: the better of the two, and
    whether `scen` is settled (nothing in it beats what is returned)."""
    floor = None if best is None else best[1]
    sol = effort.solve(scen.problem, floor)
    if sol is None:
        return best, True
    move = _split_move(pos, scen, sol)
    if move is None and effort.walk:
        # The walk's first split is not the layers' best: theirs is judged too.
        sol = effort.solve(scen.problem, floor, walk=False)
        move = None if sol is None else _split_move(pos, scen, sol)
    if sol is None:
        return best, True
    if move is None:
        return best, False
    value = len(move.added)
    if floor is not None and value <= floor:
        return best, value == sol.value
    return (move, value), value == sol.value


class _Effort:
    """The states the searches of one question may still visit (None: no limit)."""

    def __init__(self, work: int | None, walk: int = 0) -> None:
        self.left = None if work is None else [work]
        self.walk = walk  # states of a depth-first walk tried first (search_walk)

    def solve(self, problem: Problem, bound: int | None, *, walk: bool = True) -> Solution | None:
        return solve(problem, "count", bound, self.left, self.walk if walk else 0)


def _kept_move(pos: Position) -> Move | None:
    """The most cards a move adds with every table joker kept and no hand joker, then the
    hand's jokers added where they fit (a run's end, a set's missing suit)."""
    kept = scenarios(pos)[0]
    for scen in (relaxed(pos, kept), kept):
        problem = msgspec.structs.replace(scen.problem, wild_hand=0)
        sol = solve(problem, "count")
        if sol is None:
            return None
        move = _split_move(pos, scen, sol)
        if move is not None:
            return _with_jokers(pos, move)
    return None


def _with_jokers(pos: Position, move: Move) -> Move:
    """`move` with each hand joker it leaves in the hand laid where it fits, if anywhere."""
    for joker in (c for c in pos.hand if c.startswith("JK#") and c not in move.added):
        for i, group in enumerate(move.table):
            placed = None
            for name in _joker_fits(pos, group, dict(move.names)):
                table = (*move.table[:i], (*group, joker), *move.table[i + 1 :])
                placed = _checked(pos, table, {**dict(move.names), joker: name})
                if placed is not None:
                    break
            if placed is not None:
                move = placed
                break
    return move


def _joker_fits(pos: Position, group: tuple[Card, ...], names: Mapping[Card, str]) -> list[str]:
    """Faces a joker joining `group` might take: beside a run's ends, a set's missing suit."""
    faces = [names.get(c, c.partition("#")[0]) for c in group]
    if len(group) < 3:
        return []
    ranks = {f[:-1] for f in faces}
    suits = {f[-1] for f in faces}
    order = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    if len(ranks) == 1:
        return [next(iter(ranks)) + s for s in ("C", "D", "H", "S") if s not in suits]
    suit = next(iter(suits))
    places = sorted(
        {i for i, r in enumerate(order) if r in ranks} - ({0} if "K" in ranks else {13})
    )
    out = []
    if places and places[-1] + 1 < len(order):
        out.append(order[places[-1] + 1] + suit)
    if places and places[0] > 0:
        out.append(order[places[0] - 1] + suit)
    return out


def _enough(pos: Position, best: tuple[Move, int] | None, any_move: bool) -> bool:
    """Nothing better can be found: any move was asked for, or the hand empties, or the
    first card of the hand plays."""
    if best is None:
        return False
    if any_move:
        return True
    return best[1] == len(pos.hand)


def _split_move(pos: Position, scen: Scenario, sol: Solution) -> Move | None:
    """The legal move a solved split makes, or None: the copies search_table picks, else
    those copies traded between groups (search_swap: the joker rules tell copies apart
    where a loosened problem did not)."""
    table, names, _ = to_table(pos, scen, sol.groups)
    move = _checked(pos, table, names)
    if move is None:
        for other in traded(pos.table, pos.names, table, names, scen.freed):
            move = _checked(pos, other, names)
            if move is not None:
                break
    return move


def _checked(pos: Position, table: Table, names: Mapping[Card, str]) -> Move | None:
    try:
        checked = check_move(
            pos.table, pos.names, table, names, pos.hand, pos.variant, first_play=pos.first_play
        )
    except RuleViolation:
        return None
    return Move(table=table, names=checked.names, added=checked.added)


def _move(found: Simple) -> Move:
    table, names, added, _ = found
    return Move(table=table, names=tuple(sorted(names.items())), added=added)


def _hint(pos: Position, card: Card, found: Simple) -> Hint:
    return Hint(card=card, groups=found[3], rearranges=False, move=_move(found))


def _distinct(hand: tuple[Card, ...]) -> list[Card]:
    """The first card of each face, in hand order (two copies play alike)."""
    seen: set[str] = set()
    out = []
    for card in hand:
        face = card.partition("#")[0]
        if face not in seen:
            seen.add(face)
            out.append(card)
    return out


def _changed(before: Table, after: Table) -> tuple[int, ...]:
    """Indexes of the old groups that the new table does not hold as they were."""
    kept = {frozenset(g) for g in after}
    return tuple(i for i, g in enumerate(before) if frozenset(g) not in kept)
