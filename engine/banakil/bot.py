"""A Banakil bot: `choose(view, options)` is the one command its seat sends now.

The bot sees only its seat's `View` (its hand and the public table), never the `State`.
Each call plans the rest of the turn again from the view: before the draw it weighs the
stock against the ground; after it, it lays every meld and add-on worth laying in one
`Play`, then discards the card it needs least. Every table action is first tried on a
scratch copy of the melds with the engine's own meld rules (`engine.banakil.melds`), so a
command it sends is refused only if the engine and that copy disagree; `fallback(view)`
is a draw or a discard, which is always accepted.

Rules read from the options, never from the rule-set name (BK-RS-3): `min_real_cards`,
`wild_two_in_sets`, `partner_addon_needs_own_meld`, `freed_joker`, `ground_draw`,
`personal_opening`, `single_meld_bonus`, `wild_two_relocation`.

Scores inside the planner are in "tempo" units: a card that leaves the hand is worth
about 100 plus its half-points; going out and (classic) opening carry big bonuses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import combinations
from typing import NamedTuple

from engine.banakil import melds as rules
from engine.banakil.messages import (
    Command,
    Discard,
    Draw,
    ExchangeJoker,
    LayOff,
    Meld,
    MoveWild,
    Placed,
    Play,
    TableAction,
    TakeGround,
)
from engine.banakil.options import BanakilOptions
from engine.banakil.scoring import HALF_POINTS
from engine.banakil.view import View
from engine.cards import FACE_RANK, RANK, RANKS, SUIT, SUITS, Card, face
from engine.errors import RuleViolation

__all__ = ["choose", "fallback"]

_CARD = 100  # a card out of the hand
_OUT = 5000  # going out
_OPEN = 2000  # classic: a first meld of one's own (BK-SCORE-C3: −20 otherwise)
_SINGLE = 8000  # sahrat: going out in one go (BK-SCORE-S4)
_MUST = 100_000  # sahrat: the ground card must reach the table (BK-DRAW-S2)
_SUB_COST = {0: 60, 2: 30}  # what a joker / a wild two is worth kept in the hand
_DRAW_HOPE = 100  # what an unseen stock card may bring
_SEARCH_BUDGET = 20_000  # meld-search nodes before settling for the best found
_HOLD_LEFT = 2  # sahrat: hold back while at most this many cards would stay in the hand
_HOLD_OPP = 6  # ...and while no opponent holds fewer cards than this
_DISCARD_TRIES = 6  # the cards the hand needs least, weighed again by the next turn
_LOOKAHEAD_CARDS = 9  # ...in hands of at most this many cards (a held 19 took seconds)
_OUT_WEIGHT = 3  # a draw that would end the deal counts as this many more cards
_MELD_BONUS = 5  # more melds for the same cards: more ends to add to (two of each card)
_SUBS_DOWN = 4  # substitutes go down once an opponent holds this many cards or fewer


# --- the public API ---------------------------------------------------------------------------


def choose(view: View, options: BanakilOptions) -> Command:
    """The command this view's seat sends now. Only call it on the seat's own turn."""
    me = _Me.of(view, options)
    if not view.drawn and "Draw" in view.legal.commands:
        return _draw(me)
    if "Play" not in view.legal.commands:  # e.g. the discard-only window (PF-TIMER-6)
        return Discard(card=_discard(me, list(me.hand)))
    play = _best_play(me, me.scratch())
    if play.actions and len(play.scratch.hand) > 1 and _holding(me, play):
        play = _PlayPlan(me.scratch(), 0)
    if play.actions:
        return play.actions[0] if len(play.actions) == 1 else Play(actions=tuple(play.actions))
    return Discard(card=_discard(me, list(me.hand)))


def fallback(view: View) -> Command:
    """A command that is always accepted on the seat's turn: draw, else discard."""
    if view.seat is None or view.hand is None or view.turn != view.seat:
        raise ValueError("it is not this seat's turn")
    if not view.drawn and "Draw" in view.legal.commands:
        return Draw()
    hand = list(view.hand)
    plain = [c for c in hand if RANK[c] not in (0, 2)] or hand
    return Discard(card=max(plain, key=lambda c: HALF_POINTS[c]))


# --- what the bot knows ----------------------------------------------------------------------


@dataclass(frozen=True)
class _Me:
    view: View
    opts: BanakilOptions
    seat: int
    team: int
    hand: tuple[Card, ...]

    @staticmethod
    def of(view: View, opts: BanakilOptions) -> _Me:
        if view.seat is None or view.hand is None or view.turn != view.seat:
            raise ValueError("it is not this seat's turn")
        if not {"Draw", "Discard"} & set(view.legal.commands):
            raise ValueError("this seat has nothing to do now")
        return _Me(view, opts, view.seat, _team(opts, view.seat), view.hand)

    def scratch(self, hand: Iterable[Card] | None = None) -> _Scratch:
        return _Scratch(
            opts=self.opts,
            seat=self.seat,
            team=self.team,
            melds=[(m.team, m.creator, m.kind, m.cards) for m in self.view.melds],
            hand=list(self.hand if hand is None else hand),
            laid=any(m.creator == self.seat for m in self.view.melds),
        )

    @property
    def acted(self) -> bool:
        """Placed anything this deal (BK-SCORE-S4 counts only a first, all-in turn)."""
        return any(p.seat == self.seat for m in self.view.melds for p in m.cards)

    @property
    def single_possible(self) -> bool:
        """Whether a finish now may still be a single meld (BK-SCORE-S4): none of the bot's
        cards lies in a partner's meld. The view cannot tell this turn's own melds from
        earlier ones; taking them all for this turn's costs at most a last card's points."""
        return self.opts.single_meld_bonus and not any(
            p.seat == self.seat for m in self.view.melds if m.creator != self.seat for p in m.cards
        )

    @cached_property
    def seen(self) -> dict[str, int]:
        """Faces in sight: the hand, the table and the ground."""
        cards = [*self.hand, *self.view.ground, *(p.card for m in self.view.melds for p in m.cards)]
        return _counts(cards)

    def unseen(self, f: str) -> int:
        """Copies of face `f` that may still come (two decks: two of each face)."""
        return max(0, 2 - self.seen.get(f, 0))

    @property
    def opened(self) -> bool:
        return any(m.creator == self.seat for m in self.view.melds)

    @property
    def opponents_low(self) -> int:
        """The smallest opponent hand."""
        sizes = [
            n for s, n in enumerate(self.view.hand_sizes, 1) if _team(self.opts, s) != self.team
        ]
        return min(sizes, default=99)

    @property
    def others_low(self) -> int:
        """The smallest hand of any other seat: how near the deal may be to its end."""
        sizes = [n for s, n in enumerate(self.view.hand_sizes, 1) if s != self.seat]
        return min(sizes, default=99)


def _team(opts: BanakilOptions, seat: int) -> int:
    return seat if opts.seats == 2 else (seat - 1) % 2 + 1


# --- a scratch table: the engine's meld rules on a copy of the view ----------------------------

_TableMeld = tuple[int, int, str, tuple[Placed, ...]]  # team, creator, kind, cards


@dataclass
class _Scratch:
    opts: BanakilOptions
    seat: int
    team: int
    melds: list[_TableMeld]
    hand: list[Card]
    laid: bool
    actions: list[TableAction] = field(default_factory=list)
    freed: list[Card] = field(default_factory=list)
    touched_partner: bool = False

    def copy(self) -> _Scratch:
        return _Scratch(
            self.opts,
            self.seat,
            self.team,
            list(self.melds),
            list(self.hand),
            self.laid,
            list(self.actions),
            list(self.freed),
            self.touched_partner,
        )

    def attempt(self, action: TableAction) -> bool:
        """Apply `action` if the rules accept it (mirrors `decide.check_action`)."""
        try:
            self._apply(action)
        except RuleViolation:
            return False
        self.actions.append(action)
        return True

    def may_change(self, meld_id: int, partner_rule: bool = True) -> bool:
        team, creator, _, _ = self.melds[meld_id]
        if team != self.team:
            return False
        return not (
            partner_rule
            and creator != self.seat
            and self.opts.partner_addon_needs_own_meld
            and not self.laid
        )

    def _take(self, cards: Sequence[Card]) -> None:
        for c in cards:
            self.hand.remove(c)  # callers name identities from the hand

    def _apply(self, action: TableAction) -> None:
        match action:
            case Meld(cards=cards, kind=asked):
                self._need(cards)
                kind_out, placed = rules.new_meld(cards, asked, self.seat, self.opts)
                self.melds.append((self.team, self.seat, kind_out, placed))
                self._take(cards)
                self.laid = True
            case LayOff(meld=i, cards=cards, wild_as=wild_as, joker_as=joker_as):
                team, creator, kind, old = self._mine(i, True)
                self._need(cards)
                placed = rules.add_to_meld(
                    old, kind, cards, self.seat, self.opts, wild_as, joker_as
                )
                self.melds[i] = (team, creator, kind, placed)
                self._take(cards)
                self.touched_partner |= creator != self.seat
            case ExchangeJoker(meld=i, card=card):
                team, creator, kind, old = self._mine(i, True)
                self._need((card,))
                placed, joker = rules.exchange_joker(old, kind, card, self.seat, self.opts)
                self.melds[i] = (team, creator, kind, placed)
                self._take((card,))
                self.hand.append(joker)
                self.freed.append(joker)
                self.touched_partner |= creator != self.seat
            case MoveWild(meld=i, to=to):
                team, creator, kind, old = self._mine(i, False)
                self.melds[i] = (team, creator, kind, rules.move_wild(old, kind, to, self.opts))

    def _need(self, cards: Sequence[Card]) -> None:
        if len(set(cards)) != len(cards) or any(c not in self.hand for c in cards):
            raise RuleViolation("card_not_in_hand", "BK-TURN-1", "not in the hand")

    def _mine(self, i: int, partner_rule: bool) -> _TableMeld:
        if not 0 <= i < len(self.melds) or not self.may_change(i, partner_rule):
            raise RuleViolation("not_ours", "BK-TEAM-2", "not a meld we may change")
        return self.melds[i]


def _holding(me: _Me, play: _PlayPlan) -> bool:
    """Sahrat: keep every card back for a single-meld finish (BK-SCORE-S4) while the hand
    is nearly all melds and no opponent is near going out."""
    if not me.opts.single_meld_bonus or me.acted or me.opponents_low < _HOLD_OPP:
        return False
    own = me.scratch()
    _lay_melds(own, None)
    return len(own.hand) - 1 <= _HOLD_LEFT


# --- the draw -------------------------------------------------------------------------------


def _draw(me: _Me) -> Command:
    """The stock, or the ground when what it gives beats an unseen card (BK-DRAW-*)."""
    ground = me.view.ground
    if not ground or "TakeGround" not in me.view.legal.commands:
        return Draw()
    base = _best_play(me, me.scratch()).value - _CARD + _DRAW_HOPE
    if me.opts.ground_draw == "top_only_must_use":  # BK-DRAW-S1/S2: the top card, laid now
        top = ground[0]
        play = _best_play(me, me.scratch((*me.hand, top)), must=top)
        holding = len(play.scratch.hand) > 1 and _holding(me, play)
        if top not in play.scratch.hand and play.value - _MUST > base and not holding:
            return TakeGround(position=1, actions=tuple(play.actions))
        return Draw()
    best = (base, 0)  # BK-DRAW-C1/C2: a chosen card and every card above it
    for position in _ground_positions(me):
        play = _best_play(me, me.scratch((*me.hand, *ground[:position])))
        best = max(best, (play.value, -position))
    return TakeGround(position=-best[1]) if best[1] else Draw()


def _ground_positions(me: _Me) -> list[int]:
    """Ground positions worth weighing: a substitute, or a card that makes a meld or an
    add-on with the hand and the cards above it (the first and the deepest few)."""
    ground = me.view.ground
    team_melds = [m for m in me.view.melds if m.team == me.team]
    out: list[int] = []
    for position, card in enumerate(ground, 1):
        if (
            RANK[card] in (0, 2)
            or any(_extends(card, m.kind, m.cards) for m in team_melds)
            or _fits_meld(card, (*me.hand, *ground[:position]), me.opts)
        ):
            out.append(position)
    return out if len(out) <= 6 else out[:3] + out[-3:]


def _fits_meld(card: Card, pool: Sequence[Card], opts: BanakilOptions) -> bool:
    f = face(card)
    return any(f in cand.faces for cand in _candidates(_counts(pool), opts))


# --- planning the table actions of a turn --------------------------------------------------------


@dataclass
class _PlayPlan:
    scratch: _Scratch
    value: int

    @property
    def actions(self) -> list[TableAction]:
        return self.scratch.actions


def _best_play(me: _Me, start: _Scratch, must: Card | None = None) -> _PlayPlan:
    """The best sequence of table actions from `start`, by `_value`: new melds and add-ons
    in either order, with or without freeing a joker first."""
    plans: list[_Scratch] = []
    for base in [start, *_exchanges(start)]:
        for layoffs_first in (False, True):
            s = base.copy()
            if layoffs_first:
                _lay_offs(s, subs=False, must=must)
            _lay_melds(s, must)
            _lay_offs(s, subs=False, must=must)
            plans.append(s)
            # A substitute may carry a card one step away from a team run.
            u = s.copy()
            if _assisted_lay_offs(u, must):
                plans.append(u)
            # Substitutes go down alone when that ends the deal, or once it may end soon.
            t = u.copy()
            _lay_offs(t, subs=True, must=must)
            if t.actions != u.actions and (len(t.hand) <= 1 or me.others_low <= _SUBS_DOWN):
                plans.append(t)
    if me.single_possible:
        own = _own_only(start, must)  # BK-SCORE-S4: going out alone pays far more
        if own is not None:
            plans.append(own)
    if me.opts.freed_joker == "must_remeld":  # BK-JOKER-S1
        plans = [s for s in plans if not any(j in s.hand for j in s.freed)] or [start.copy()]
    best = max((_PlayPlan(s, _value(me, start, s, must)) for s in plans), key=lambda p: p.value)
    return _ordered(best, start, me, must)


def _own_only(start: _Scratch, must: Card | None) -> _Scratch | None:
    """Going out with new melds and add-ons to them only, or None."""
    s = start.copy()
    _lay_melds(s, must)
    ours = {i for i, m in enumerate(s.melds) if m[1] == s.seat}
    _lay_offs(s, subs=True, must=must, only=ours)
    return s if len(s.hand) <= 1 and not s.touched_partner else None


def _ordered(plan: _PlayPlan, start: _Scratch, me: _Me, must: Card | None) -> _PlayPlan:
    """New melds first (BK-TEAM-S1: they unlock the partner's melds), when still legal."""
    actions = plan.actions
    melds_first = sorted(actions, key=lambda a: 0 if isinstance(a, Meld) else 1)
    if melds_first == actions or any(isinstance(a, ExchangeJoker) for a in actions):
        return plan
    s = start.copy()
    if all(s.attempt(a) for a in melds_first):
        return _PlayPlan(s, _value(me, start, s, must))
    return plan


def _value(me: _Me, start: _Scratch, s: _Scratch, must: Card | None) -> int:
    """What the turn's table actions leave: cards out of the hand count, cards left in it
    weigh by how little they are worth keeping; going out and opening add a bonus."""
    value = 0
    for c in start.hand:
        if c not in s.hand:
            value += HALF_POINTS[c] + (_CARD if RANK[c] not in (0, 2) else 1)
    for c in s.hand:
        if c in s.freed:  # a freed joker kept back is a card the hand did not need
            value -= _CARD + HALF_POINTS[c]
        else:
            value -= _liability(me, s, c)
    if must is not None and must not in s.hand:
        value += _MUST
    if len(s.hand) <= 1:  # out now, or by discarding the last card (BK-END-1)
        value += _OUT
        if me.single_possible and not s.touched_partner:
            value += _SINGLE
    if me.opts.personal_opening and not me.opened and s.laid:
        value += _OPEN
    return value


def _exchanges(s: _Scratch) -> list[_Scratch]:
    """Scratch tables after freeing one joker of a team meld with a hand card (BK-JOKER-2)."""
    out: list[_Scratch] = []
    for i, (_, _, kind, cards) in enumerate(s.melds):
        joker = next((p for p in cards if RANK[p.card] == 0), None)
        if joker is None or not s.may_change(i):
            continue
        real_suits = {SUIT[p.card] for p in cards if RANK[p.card] not in (0, 2)}
        for c in s.hand:
            if kind == "run":
                fits = face(c) == joker.stands_for
            else:
                fits = RANK[c] == FACE_RANK[joker.stands_for] and SUIT[c] not in real_suits
            if fits:
                t = s.copy()
                if t.attempt(ExchangeJoker(meld=i, card=c)):
                    out.append(t)
                break
    return out


def _lay_melds(s: _Scratch, must: Card | None) -> None:
    for cards, kind in _best_melds(s.hand, s.opts, must):
        s.attempt(Meld(cards=cards, kind=kind))  # type: ignore[arg-type]


def _lay_offs(s: _Scratch, *, subs: bool, must: Card | None, only: set[int] | None = None) -> None:
    """Add hand cards to the team's melds one at a time while one fits (real cards first;
    substitutes only when `subs`), pass after pass: one add-on may make room for another."""
    progress = True
    while progress:
        progress = False
        targets = [
            i for i in range(len(s.melds)) if (only is None or i in only) and s.may_change(i)
        ]
        if not targets:
            return
        cards = sorted(
            (c for c in s.hand if subs or RANK[c] not in (0, 2)),
            key=lambda c: (c != must, RANK[c] in (0, 2), RANK[c] == 0, c),
        )
        for c in cards:
            for i in targets:
                _, _, kind, table = s.melds[i]
                if _extends(c, kind, table) and any(
                    s.attempt(a) for a in _lay_off_options(i, c, kind, table, s.opts)
                ):
                    progress = True
                    break


def _assisted_lay_offs(s: _Scratch, must: Card | None) -> bool:
    """Add a real card together with a substitute that fills the gap before it (one pair
    per meld and per substitute), then whatever single add-ons that opens."""
    done = False
    for j in [c for c in s.hand if RANK[c] in (0, 2)]:
        for i in [i for i in range(len(s.melds)) if s.may_change(i)]:
            _, _, kind, table = s.melds[i]
            if kind != "run" or not _extends(j, kind, table):
                continue
            near = [
                c for c in s.hand if RANK[c] not in (0, 2) and _extends(c, kind, table, reach=2)
            ]
            if any(s.attempt(LayOff(meld=i, cards=(j, c))) for c in near):
                done = True
                break
    if done:
        _lay_offs(s, subs=False, must=must)
    return done


def _lay_off_options(
    i: int, c: Card, kind: str, table: tuple[Placed, ...], opts: BanakilOptions
) -> list[LayOff]:
    """The add-ons of `c` to meld `i` worth trying: the plain one, and in a run with a wild
    two the ones that move the two: away from its place when `c` is its real card
    (BK-WILD-S2: to an end), or (BK-WILD-C2/C3) to the end beside it when `c` lies one
    step beyond. Only the plausible ones: every refused try costs a rule check."""
    plain = LayOff(meld=i, cards=(c,))
    suit, lo, hi, wild, _ = _shape(table)
    if kind != "run" or not wild or RANK[c] in (0, 2):
        return [plain]
    any_place = opts.wild_two_relocation == "any_position"
    out: list[LayOff] = []
    for x in _ranks(RANK[c]):
        if x in (lo - 1, hi + 1):
            out.append(plain)
        elif x == wild:
            out.append(plain)
            out += [_moved(i, c, pos, suit) for pos in (lo - 1, hi + 1) if 1 <= pos <= 14]
        elif any_place and x in (lo - 2, hi + 2):
            out.append(_moved(i, c, lo - 1 if x < lo else hi + 1, suit))
    return out


def _moved(i: int, c: Card, pos: int, suit: str) -> LayOff:
    return LayOff(meld=i, cards=(c,), wild_as=_face_at(pos, suit))


def _is_wild(p: Placed) -> bool:
    return RANK[p.card] == 2 and p.stands_for != face(p.card)


@lru_cache(maxsize=1 << 16)
def _shape(table: tuple[Placed, ...]) -> tuple[str, int, int, int, bool]:
    """A meld's suit, its first and last position (a set: its rank twice), the position
    of its wild two (0: none) and whether it holds a joker."""
    first = table[0].stands_for
    lo = FACE_RANK[first]
    wild = next((lo + k for k, p in enumerate(table) if _is_wild(p)), 0)
    joker = any(RANK[p.card] == 0 for p in table)
    return first[-1], lo, lo + len(table) - 1, wild, joker


def _extends(c: Card, kind: str, table: tuple[Placed, ...], reach: int = 0) -> bool:
    """A cheap pre-filter for an add-on (the rules have the last word): a card beyond an
    end, within `reach` of it, or the real card of the run's wild two."""
    r = RANK[c]
    suit, lo, hi, wild, joker = _shape(table)
    if kind == "set":
        if len(table) >= 4:
            return False
        if r in (0, 2):
            return not joker if r == 0 else not wild
        return r == lo and all(SUIT[p.card] != SUIT[c] or RANK[p.card] in (0, 2) for p in table)
    if len(table) >= 13:
        return False
    if r == 0:
        return not joker
    if r == 2 and (not wild or SUIT[c] == suit):
        return True
    if SUIT[c] != suit:
        return False
    reach = reach or (2 if wild else 1)
    return any(lo - reach <= x < lo or hi < x <= hi + reach or x == wild for x in _ranks(r))


# --- finding new melds in a hand -----------------------------------------------------------------


@dataclass(frozen=True)
class _Cand:
    faces: tuple[str, ...]  # low to high for runs; substitutes in their places
    kind: str
    value: int


def _counts(cards: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in cards:
        f = face(c)
        out[f] = out.get(f, 0) + 1
    return out


def _best_melds(
    hand: Sequence[Card], opts: BanakilOptions, must: Card | None = None
) -> list[tuple[tuple[Card, ...], str]]:
    """Disjoint new melds from `hand` with the highest total value, as hand cards."""
    faces = _meld_faces(tuple(sorted(face(c) for c in hand)), opts, _face_or_none(must))
    pool = sorted(hand, key=lambda c: c != must)  # the ground card's own copy goes first
    out: list[tuple[tuple[Card, ...], str]] = []
    for meld_faces, kind in faces:
        cards: list[Card] = []
        for f in meld_faces:
            c = next(x for x in pool if face(x) == f)
            pool.remove(c)
            cards.append(c)
        out.append((tuple(cards), kind))
    return out


def _face_or_none(card: Card | None) -> str | None:
    return None if card is None else face(card)


@lru_cache(maxsize=8192)
def _meld_faces(
    hand: tuple[str, ...], opts: BanakilOptions, must_face: str | None
) -> tuple[tuple[tuple[str, ...], str], ...]:
    """The search behind `_best_melds`, on faces: depth first, branching on the first real
    card still open (meld it one way or another, or keep it), memoised on the cards left.
    Cached: the same hand is searched several times in one turn."""
    counts = _counts(hand)
    cands = _candidates(counts, opts, must_face)
    if not cands:
        return ()
    names = sorted(counts)
    index = {f: k for k, f in enumerate(names)}
    demand: list[tuple[tuple[int, int], ...]] = []
    by_face: dict[int, list[int]] = {}
    for k, cand in enumerate(cands):
        need = _counts(cand.faces)
        demand.append(tuple((index[f], n) for f, n in need.items()))
        for f in need:
            if FACE_RANK[f] not in (0, 2):
                by_face.setdefault(index[f], []).append(k)
    order = sorted(by_face)
    memo: dict[tuple[int, ...], tuple[int, tuple[int, ...]]] = {}
    budget = [_SEARCH_BUDGET]

    def go(rem: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        got = memo.get(rem)
        if got is not None:
            return got
        budget[0] -= 1
        pick = next((k for k in order if rem[k] > 0), None)
        if pick is None or budget[0] < 0:
            return 0, ()
        left = list(rem)
        left[pick] = 0
        best = go(tuple(left))
        for k in by_face[pick]:
            if all(rem[i] >= n for i, n in demand[k]):
                left = list(rem)
                for i, n in demand[k]:
                    left[i] -= n
                value, chosen = go(tuple(left))
                if value + cands[k].value > best[0]:
                    best = (value + cands[k].value, (k, *chosen))
        memo[rem] = best
        return best

    _, chosen = go(tuple(counts[f] for f in names))
    return tuple((cands[k].faces, cands[k].kind) for k in chosen)


def _candidates(
    counts: dict[str, int], opts: BanakilOptions, must_face: str | None = None
) -> list[_Cand]:
    """Every run and set the cards can make, with substitutes only where they are needed
    (a gap, or a third card); a run of three with a substitute keeps it on top."""
    twos = [f for f in counts if FACE_RANK[f] == 2]
    jokers = counts.get("JK", 0)
    found: dict[tuple[object, ...], _Cand] = {}

    def add(
        faces: tuple[str, ...], kind: str, subs: Sequence[bool], key: tuple[object, ...]
    ) -> None:
        need = _counts(faces)
        if any(counts.get(f, 0) < n for f, n in need.items()):
            return
        value = _MELD_BONUS
        for f, sub in zip(faces, subs, strict=True):
            hp = _FACE_HP[f]
            value += hp - _SUB_COST[FACE_RANK[f]] if sub else _CARD + hp
        if must_face is not None and must_face in faces:
            value += _MUST
        found[key] = _Cand(faces, kind, value)

    for suit in SUITS:
        at = _positions(counts, suit)
        if len(at) < max(1, opts.min_real_cards):
            continue
        for lo in range(1, 13):
            missing: list[int] = []
            for hi in range(lo, min(14, lo + 12) + 1):
                if hi not in at:
                    missing.append(hi)
                    if len(missing) > 2:
                        break
                length = hi - lo + 1
                if length < 3 or length - len(missing) < opts.min_real_cards:
                    continue
                if missing and length > 3 and (lo in missing or hi in missing):
                    continue
                reals = tuple(at[p] for p in range(lo, hi + 1) if p in at)
                span = range(lo, hi + 1)
                for subs in _sub_choices(len(missing), jokers, twos):
                    fill = dict(zip(missing, subs, strict=True))
                    faces = tuple(fill.get(p) or at[p] for p in span)
                    add(faces, "run", [p in fill for p in span], ("run", reals, subs))
    for name in ("A", "3"):
        have = [name + s for s in SUITS if counts.get(name + s)]
        for size in (3, 4):
            for combo in combinations(have, size):
                add(combo, "set", [False] * size, ("set", combo))
        sub_sets: list[tuple[str, ...]] = [("JK",)] if jokers else []
        if opts.wild_two_in_sets:
            sub_sets += [(t,) for t in twos] + [("JK", t) for t in twos if jokers]
        for sub in sub_sets:
            size = 3 - len(sub)
            if size < opts.min_real_cards:
                continue
            for combo in combinations(have, size):
                faces = (*combo, *sub)
                add(faces, "set", [k >= size for k in range(3)], ("set", combo, sub))
    return list(found.values())


def _positions(counts: dict[str, int], suit: str) -> dict[int, str]:
    """Run positions 1..14 the hand holds in `suit` (an ace at 1 and 14, a natural 2 at 2)."""
    at: dict[int, str] = {}
    for pos in range(1, 15):
        f = f"{RANKS[(pos - 1) % 13]}{suit}"
        if counts.get(f):
            at[pos] = f
    return at


def _sub_choices(missing: int, jokers: int, twos: list[str]) -> list[tuple[str, ...]]:
    if missing == 0:
        return [()]
    one: list[tuple[str, ...]] = [("JK",)] if jokers else []
    if missing == 1:
        return one + [(t,) for t in twos]
    return [("JK", t) for t in twos] if jokers else []


_FACE_HP = {face(c): hp for c, hp in HALF_POINTS.items()}


# --- discarding ---------------------------------------------------------------------------------


def _discard(me: _Me, hand: list[Card]) -> Card:
    """The card the bot needs least; a substitute only when nothing else is left.

    In a hand of at most `_LOOKAHEAD_CARDS` cards (a larger one is nearly always a hand
    held back whole, where the search below costs seconds and `_liability` alone decides),
    the few cards the hand needs least by `_liability` are weighed again by the next turn:
    which unseen cards would take how many cards out of the rest of the hand (and end the
    deal), counted in copies still unseen. The hand that sheds most on average wins;
    `_liability` and not feeding an opponent's meld (`_feeds`) break ties. (Feeding weighs
    no more than that: against the random players of the bench, a heavier weight cost
    ~1.7 points a deal, and they never lay a ground card off.)"""
    plain = [c for c in hand if RANK[c] not in (0, 2)]
    if not plain:
        return min(hand, key=lambda c: (RANK[c] == 0, c))  # a two before a joker
    s = me.scratch(hand)
    ranked = sorted(plain, key=lambda c: (_liability(me, s, c) + _feeds(me, c), c), reverse=True)
    if len(hand) > _LOOKAHEAD_CARDS:
        return ranked[0]
    targets = [(m[2], m[3]) for i, m in enumerate(s.melds) if s.may_change(i)]
    draws = [
        (f, n, _next_turn(me, hand, f))
        for f in _helpful_faces(me, hand)
        if (n := me.unseen(f)) and _may_place(f, hand, targets, me.opts)
    ]
    weighed: dict[str, int] = {}
    for c in ranked:
        if face(c) in weighed or len(weighed) >= _DISCARD_TRIES:
            continue
        rest = [d for d in hand if d != c]
        total = sum(n * _shed(me, rest, f, turn, c) for f, n, turn in draws)
        weighed[face(c)] = total
    best = max(weighed.values())
    return next(c for c in ranked if weighed.get(face(c)) == best)


def _shed(me: _Me, rest: list[Card], f: str, turn: _Turn, gone: Card) -> int:
    """What drawing `f` would shed from `rest`, the hand without `gone`, given `turn`, the
    same draw weighed with `gone` still in the hand."""
    # Without `gone` the same draw places the same cards, unless it used `gone`.
    after = _next_turn(me, rest, f) if gone in turn.used else turn._replace(left=turn.left - 1)
    ends = after.placed and after.left <= 1
    return after.placed + (_OUT_WEIGHT if ends else 0)


class _Turn(NamedTuple):
    placed: int  # cards out of the hand, the drawn one included
    used: frozenset[Card]  # the hand's cards among them
    left: int  # cards still in the hand


def _next_turn(me: _Me, hand: list[Card], f: str) -> _Turn:
    """What drawing face `f` would let `hand` lay on today's table next turn."""
    copy = f"{f}#1" if f"{f}#1" not in hand else f"{f}#2"
    start = me.scratch([*hand, copy])
    best = _Turn(0, frozenset(), len(start.hand))
    for layoffs_first in (False, True):
        t = start.copy()
        if layoffs_first:
            _lay_offs(t, subs=False, must=None)
        _lay_melds(t, None)
        melded = any(isinstance(a, Meld) for a in t.actions)
        _lay_offs(t, subs=len(t.hand) <= 2, must=None)
        placed = len(start.hand) - len(t.hand)
        if placed > best.placed:
            best = _Turn(placed, frozenset(start.hand) - frozenset(t.hand), len(t.hand))
        if not melded:  # the order of melds and add-ons matters only when both are laid
            break
    return best


def _may_place(
    f: str, hand: list[Card], targets: list[tuple[str, tuple[Placed, ...]]], opts: BanakilOptions
) -> bool:
    """A quick test before `_next_turn`: whether a card of face `f` could extend a team
    meld or make a meld with the hand at all."""
    card = f"{f}#1"
    r = RANK[card]
    if r in (0, 2) or any(_extends(card, kind, table) for kind, table in targets):
        return True
    subs = [c for c in hand if RANK[c] in (0, 2)]
    need = 2 - min(len(subs), 3 - max(1, opts.min_real_cards))  # other real cards needed
    if r in (1, 3):
        set_subs = [c for c in subs if RANK[c] == 0 or opts.wild_two_in_sets]
        others = {SUIT[c] for c in hand if RANK[c] == r} - {SUIT[card]}
        if len(others) >= 2 - min(len(set_subs), 3 - max(1, opts.min_real_cards)):
            return True
    near = {
        x for c in hand if SUIT[c] == SUIT[card] and RANK[c] not in (0, 2) for x in _ranks(RANK[c])
    }
    for x in _ranks(r):
        for lo in range(x - 2, x + 1):
            window = {lo, lo + 1, lo + 2} - {x}
            if lo >= 1 and lo + 2 <= 14 and len(window & near) >= need:
                return True
    return False


def _helpful_faces(me: _Me, hand: Sequence[Card]) -> set[str]:
    """Faces a card could be to help `hand`: substitutes, near cards, set partners and
    cards that extend a team meld."""
    out = {"JK", *(f"2{x}" for x in SUITS)}
    for c in hand:
        r = RANK[c]
        if r in (0, 2):
            continue
        for x in _ranks(r):
            out |= {_face_at(x + k, SUIT[c]) for k in (-2, -1, 1, 2) if 1 <= x + k <= 14}
        if r in (1, 3):
            out |= {RANKS[r - 1] + x for x in SUITS}
    for team, _, kind, table in (m for m in me.scratch().melds):
        if team != me.team:
            continue
        if kind == "set":
            out |= {table[0].stands_for[:-1] + x for x in SUITS}
            continue
        suit = table[0].stands_for[-1]
        lo = FACE_RANK[table[0].stands_for]
        hi = lo + len(table) - 1
        out |= {_face_at(p, suit) for p in (lo - 1, hi + 1) if 1 <= p <= 14}
    return out


def _face_at(pos: int, suit: str) -> str:
    return f"{RANKS[(pos - 1) % 13]}{suit}"


def _liability(me: _Me, s: _Scratch, c: Card) -> int:
    """What holding `c` costs: a card in the hand, less its promise, counted in copies
    still unseen of the cards that would use it (two of each face exist): near cards of
    its suit, set partners, add-ons to a team meld. Substitutes are assets."""
    r = RANK[c]
    if r in (0, 2):
        return HALF_POINTS[c] - _SUB_COST[r]
    suit, f = SUIT[c], face(c)
    unseen = me.unseen
    promise = 0
    twin = any(d < c and face(d) == f for d in s.hand)
    if not twin:
        for d in s.hand:
            rd = RANK[d]
            if rd in (0, 2) or d == c or face(d) == f:
                continue
            if r in (1, 3) and rd == r:  # BK-MELD-5: a set of aces or threes
                promise += 8 * sum(
                    unseen(RANKS[r - 1] + x) for x in SUITS if x not in (suit, SUIT[d])
                )
            if SUIT[d] != suit:
                continue
            for x in _ranks(r):
                for y in _ranks(rd):
                    lo, hi = min(x, y), max(x, y)
                    if hi - lo == 1:
                        promise += 8 * (
                            _unseen_at(unseen, lo - 1, suit) + _unseen_at(unseen, hi + 1, suit)
                        )
                    elif hi - lo == 2:
                        promise += 8 * _unseen_at(unseen, lo + 1, suit)
        for x in _ranks(r):
            promise += sum(_unseen_at(unseen, x + k, suit) for k in (-2, -1, 1, 2))
    for i, (team, _, kind, table) in enumerate(s.melds):
        if team != me.team:
            continue
        if _extends(c, kind, table, reach=1):
            promise += 20 if s.may_change(i) else 60  # BK-TEAM-S1: an add-on for later
        elif kind == "run" and _extends(c, kind, table, reach=2):
            lo = FACE_RANK[table[0].stands_for]
            gap = lo - 1 if any(x < lo for x in _ranks(r)) else lo + len(table)
            promise += 8 * _unseen_at(unseen, gap, suit)
    return _CARD + HALF_POINTS[c] * 3 - promise


def _unseen_at(unseen: Callable[[str], int], pos: int, suit: str) -> int:
    return unseen(f"{RANKS[(pos - 1) % 13]}{suit}") if 1 <= pos <= 14 else 0


def _ranks(r: int) -> tuple[int, ...]:
    return (1, 14) if r == 1 else (r,)


def _feeds(me: _Me, c: Card) -> int:
    """A discard that fits an opponent's meld is an easy ground card for the next player."""
    for m in me.view.melds:
        if m.team != me.team and _extends(c, m.kind, m.cards):
            try:
                rules.add_to_meld(m.cards, m.kind, (c,), me.seat, me.opts)
            except RuleViolation:
                continue
            return -80
    return 0
