"""Runs and sets: building a new meld and changing a team meld (BK-MELD, BK-WILD, BK-JOKER).

A run is kept low to high and each card knows the face it stands for, so a position is the
rank of that face (an ace is 1 at the bottom of a run, 14 at the top). Every change is
checked by rebuilding the meld from positions and validating it whole (BK-TEAM-4).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import product

from engine.banakil.messages import Placed
from engine.banakil.options import BanakilOptions
from engine.cards import FACE_RANK, RANK, RANKS, SUIT, SUITS, Card, face, parse_card
from engine.errors import RuleViolation

__all__ = [
    "add_to_meld",
    "exchange_joker",
    "infer_kind",
    "move_wild",
    "new_meld",
]

_SET_RANKS = (1, 3)  # BK-MELD-5: sets of aces and threes only
_MAX_SET = 4  # BK-MELD-7
_MIN_MELD = 3  # BK-MELD-1


def _bad(code: str, rule: str, message: str) -> RuleViolation:
    return RuleViolation(code, rule, message)


_POS_FACE = {(pos, suit): f"{RANKS[(pos - 1) % 13]}{suit}" for pos in range(15) for suit in SUITS}


def _pos_face(pos: int, suit: str) -> str:
    return _POS_FACE[pos, suit]


def _wild_at(card: Card, pos: int, suit: str) -> bool:
    """A 2 on place `pos` of a run of `suit` is wild unless it is the natural 2 (BK-WILD-3)."""
    return RANK[card] == 2 and not (SUIT[card] == suit and pos == 2)


def _face_pos(text: str, lo: int, hi: int) -> int:
    """The position a face names in a run spanning lo..hi; an ace is 14 next to a king."""
    r = FACE_RANK[face(parse_card(text))]
    return _ace_pos(lo, hi) if r == 1 else r


def _ace_pos(lo: int, hi: int) -> int:
    """An ace joins the end of the run it is nearer to (low on a tie)."""
    return 1 if lo - 1 <= 14 - hi else 14


# --- validation of whole melds -----------------------------------------------------------


def _check_run(slots: dict[int, Placed], suit: str, opts: BanakilOptions) -> tuple[Placed, ...]:
    """Validate a run given as position -> card and return it low to high, with every
    card's `stands_for` set from its position (BK-MELD-2/3, BK-WILD-1/2/3, C1/S1)."""
    if len(slots) < _MIN_MELD:
        raise _bad("meld_too_short", "BK-MELD-1", "a meld needs at least 3 cards")
    lo, hi = min(slots), max(slots)
    if lo < 1 or hi > 14:
        raise _bad("run_out_of_range", "BK-MELD-3", "a run goes from A (as 1) up to A (as 14)")
    if hi - lo + 1 > 13:  # BK-AMB-15: never an ace at both ends
        raise _bad("run_too_long", "BK-MELD-3", "a run uses its ace as 1 or as 14, not both")
    if hi - lo + 1 != len(slots):
        raise _bad("run_gap", "BK-MELD-2", "a run's cards must be consecutive with no gap")
    jokers = twos = real = 0
    out: list[Placed] = []
    for pos in range(lo, hi + 1):
        p = slots[pos]
        c = p.card
        r = RANK[c]
        if r == 0:
            jokers += 1
        elif r == 2 and not (SUIT[c] == suit and pos == 2):
            twos += 1
        else:
            if SUIT[c] != suit:
                raise _bad("run_mixed_suits", "BK-MELD-2", "a run's real cards share one suit")
            if r != pos and not (r == 1 and pos == 14):
                raise _bad("run_not_consecutive", "BK-MELD-2", f"{face(c)} is out of place")
            real += 1
        out.append(Placed(c, p.seat, _POS_FACE[pos, suit]))
    _check_limits(jokers, twos, real, opts)
    return tuple(out)


def _check_limits(jokers: int, twos: int, real: int, opts: BanakilOptions) -> None:
    if jokers > 1:
        raise _bad("two_jokers", "BK-WILD-1", "a meld may hold at most one joker")
    if twos > 1:
        raise _bad("two_wild_twos", "BK-WILD-1", "a meld may hold at most one wild two")
    if real < opts.min_real_cards:
        raise _too_few_real(opts)


def _too_few_real(opts: BanakilOptions) -> RuleViolation:
    rule = "BK-WILD-C1" if opts.min_real_cards == 1 else "BK-WILD-S1"
    return _bad(
        "too_few_real_cards", rule, f"a meld needs at least {opts.min_real_cards} real card(s)"
    )


def _check_set(
    cards: Sequence[Placed], opts: BanakilOptions, keep: Sequence[Placed] = ()
) -> tuple[Placed, ...]:
    """Validate a set and give each substitute a missing suit (BK-MELD-4..8, BK-AMB-10).

    Substitutes listed in `keep` hold their suit when it is still missing (a joker stays
    locked to the card it stands for, BK-JOKER-1)."""
    if len(cards) < _MIN_MELD:
        raise _bad("meld_too_short", "BK-MELD-1", "a meld needs at least 3 cards")
    if len(cards) > _MAX_SET:
        raise _bad("set_too_long", "BK-MELD-7", "a set holds at most 4 cards")
    real = [p for p in cards if RANK[p.card] not in (0, 2)]
    subs = [p for p in cards if RANK[p.card] in (0, 2)]
    if not real:  # only two jokers exist, so three substitutes always include a 2
        raise _bad("set_of_twos", "BK-MELD-6", "2s never form a set")
    rank = RANK[real[0].card]
    if any(RANK[p.card] != rank for p in real):
        raise _bad("set_mixed_ranks", "BK-MELD-4", "a set's cards share one rank")
    if rank not in _SET_RANKS:
        raise _bad("set_rank", "BK-MELD-5", "sets are allowed only of aces and of threes")
    suits = [SUIT[p.card] for p in real]
    if len(set(suits)) != len(suits):
        raise _bad("set_repeated_suit", "BK-MELD-4", "a set may not repeat a suit")
    twos = sum(1 for p in subs if RANK[p.card] == 2)
    if twos and not opts.wild_two_in_sets:
        raise _bad("wild_two_in_set", "BK-MELD-C1", "a wild two works only in runs")
    _check_limits(sum(1 for p in subs if RANK[p.card] == 0), twos, len(real), opts)
    missing = [s for s in SUITS if s not in suits]
    kept = {p.card: p.stands_for for p in keep}
    out: list[Placed] = []
    name = RANKS[rank - 1]
    for p in cards:
        if p in real:
            out.append(Placed(p.card, p.seat, face(p.card)))
            continue
        held = kept.get(p.card)
        suit = held[-1] if held and held[-1] in missing else None
        if suit is None:
            suit = next(s for s in missing if not any(k.endswith(s) for k in kept.values() if k))
        missing.remove(suit)
        kept.pop(p.card, None)
        out.append(Placed(p.card, p.seat, f"{name}{suit}"))
    return tuple(out)


# --- new melds ----------------------------------------------------------------------------


def infer_kind(cards: Sequence[Card]) -> str:
    """A set when the real cards (not 2s, not jokers) share a rank and either there are two
    of them or that rank is A or 3; otherwise a run."""
    real = [RANK[c] for c in cards if RANK[c] not in (0, 2)]
    if len(real) == 1 and _natural_two_beside(cards):
        return "run"  # A♥ 2♥ JK, JK 2♥ 3♥: the 2 is a natural card of a run (BK-WILD-3)
    if real and len(set(real)) == 1 and (len(real) >= 2 or real[0] in _SET_RANKS):
        return "set"
    if (
        not real
        and any(RANK[c] == 2 for c in cards)
        and len(cards) == sum(1 for c in cards if RANK[c] == 2)
    ):
        return "set"  # only 2s: reported as the illegal set of twos (BK-MELD-6)
    return "run"


def new_meld(
    cards: Sequence[Card], kind: str | None, seat: int, opts: BanakilOptions
) -> tuple[str, tuple[Placed, ...]]:
    """Validate a new meld of hand cards; runs are listed low to high (or high to low)."""
    if kind is not None:
        return _new_of_kind(cards, kind, seat, opts)
    guess = infer_kind(cards)
    try:
        return _new_of_kind(cards, guess, seat, opts)
    except RuleViolation as exc:
        # The other reading, when the guess fails: a set is only ever guessed wrongly beside
        # a 2 of the ace's or three's suit, and a run stands then only if that 2 is natural
        # (two real cards); with one real A or 3 and substitutes it is a set (BK-EX-6).
        try:
            if guess == "run":
                return "set", _check_set([Placed(c, seat, "") for c in cards], opts)
            return "run", _new_run(cards, seat, opts, natural_two=True)
        except RuleViolation:
            raise exc from None


def _new_of_kind(
    cards: Sequence[Card], kind: str, seat: int, opts: BanakilOptions
) -> tuple[str, tuple[Placed, ...]]:
    if kind == "set":
        return "set", _check_set([Placed(c, seat, "") for c in cards], opts)
    return "run", _new_run(cards, seat, opts)


def _new_run(
    cards: Sequence[Card], seat: int, opts: BanakilOptions, natural_two: bool = False
) -> tuple[Placed, ...]:
    """The first legal reading of `cards` as a run (with a natural 2 when asked)."""
    first_error: RuleViolation | None = None
    for seq, suit, start in _run_candidates(list(cards)):
        slots = {start + i: Placed(c, seat, "") for i, c in enumerate(seq)}
        try:
            run = _check_run(slots, suit, opts)
        except RuleViolation as exc:
            first_error = first_error or exc
            continue
        if not natural_two or any(_is_natural(p) for p in run):
            return run
    raise first_error or _too_few_real(opts)  # no reading at all: jokers only


def _run_candidates(listed: list[Card]) -> Iterator[tuple[list[Card], str, int]]:
    """The readings of a new run, likeliest first: (cards low to high, suit, position of
    the first card). Made one at a time: the first one is nearly always the run."""
    plain = [i for i, c in enumerate(listed) if RANK[c] not in (0, 2)]
    # Either direction; an ace-high run (Q K A) ends on a "low" rank.
    orders = [listed, listed[::-1]]
    if len(plain) >= 2 and _plain_rank(listed[plain[0]]) > _plain_rank(listed[plain[-1]]):
        orders.reverse()
    for seq in orders:
        real = plain if seq is listed else [i for i, c in enumerate(seq) if RANK[c] not in (0, 2)]
        if real:
            c0 = seq[real[0]]
            starts = [1 - real[0], 14 - real[0]] if RANK[c0] == 1 else [RANK[c0] - real[0]]
            for start in starts:
                yield seq, SUIT[c0], start
        else:
            for i, c in enumerate(seq):
                if RANK[c] == 2:
                    yield seq, SUIT[c], 2 - i


def _plain_rank(card: Card) -> int:
    return RANK[card]


def _natural_two_beside(cards: Sequence[Card]) -> bool:
    """The one real card is an A listed just before, or a 3 just after, a 2 of its suit."""
    i = next(i for i, c in enumerate(cards) if RANK[c] not in (0, 2))
    j = {1: i + 1, 3: i - 1}.get(RANK[cards[i]], -1)
    return 0 <= j < len(cards) and RANK[cards[j]] == 2 and SUIT[cards[j]] == SUIT[cards[i]]


# --- changes to team melds -----------------------------------------------------------------


def _run_suit(cards: Sequence[Placed]) -> str:
    return cards[0].stands_for[-1]


def _run_slots(cards: Sequence[Placed]) -> dict[int, Placed]:
    first = FACE_RANK[cards[0].stands_for]  # a run never starts with a high ace
    return {first + i: p for i, p in enumerate(cards)}


def _floating_pos(
    occupied: set[int], ends_only: bool, floating: int, low_first: bool
) -> int | None:
    """Default place of one of `floating` substitutes still to place: the first gap when
    they can fill every gap, else the top end (the bottom end if `low_first`). A place
    beyond the ace (0 or 15) is refused by _check_run; the other reading tries the other
    end."""
    lo, hi = min(occupied), max(occupied)
    gaps = [p for p in range(lo, hi + 1) if p not in occupied]
    if gaps:
        return gaps[0] if len(gaps) <= floating and not ends_only else None
    if hi - lo + 1 >= 13:
        return None  # a run holds at most 13 cards (BK-MELD-3)
    return lo - 1 if low_first else hi + 1


def add_to_meld(
    cards: Sequence[Placed],
    kind: str,
    new: Sequence[Card],
    seat: int,
    opts: BanakilOptions,
    wild_as: str | None = None,
    joker_as: str | None = None,
) -> tuple[Placed, ...]:
    """Add hand cards to a meld and return its new content (BK-TEAM-3, BK-WILD-C2/S2)."""
    if kind == "set":
        if wild_as is not None or joker_as is not None:
            raise _bad("bad_wild_target", "BK-AMB-10", "a set's substitutes take a missing suit")
        return _check_set([*cards, *(Placed(c, seat, "") for c in new)], opts, keep=cards)
    # The likeliest reading first; the others only when it fails. An added ace goes to the
    # nearer end, else the other (BK-MELD-3); a 2 of the run's suit is natural on the rank-2
    # place (BK-WILD-3), else it may still join as the wild two.
    suit = _run_suit(cards)
    ace_ends = (False, True) if any(RANK[c] == 1 for c in new) else (False,)
    natural = (True, False) if any(RANK[c] == 2 and SUIT[c] == suit for c in new) else (True,)
    # Unnamed substitutes go to the top end first, else to the bottom end first: with a
    # joker added beside a moved sahrat two, only one of them leaves the two at an end.
    # Last, a displaced wild two of the run's suit may go home: onto the rank-2 place, where
    # it is the natural 2 (BK-WILD-3), leaving the wild two's part to an added 2.
    home = (
        (False, True)
        if any(RANK[p.card] == 2 and SUIT[p.card] == suit for p in cards)
        else (False,)
    )
    first_error: RuleViolation | None = None
    for wild_home, far_ace, natural_twos, low_first in product(
        home, ace_ends, natural, (False, True)
    ):
        try:
            return _add_to_run(
                cards,
                new,
                seat,
                opts,
                wild_as,
                joker_as,
                (natural_twos, far_ace, low_first, wild_home),
            )
        except RuleViolation as exc:
            first_error = first_error or exc
    assert first_error is not None
    raise first_error


def _add_to_run(
    cards: Sequence[Placed],
    new: Sequence[Card],
    seat: int,
    opts: BanakilOptions,
    wild_as: str | None,
    joker_as: str | None,
    reading: tuple[bool, bool, bool, bool],
) -> tuple[Placed, ...]:
    natural_twos, far_ace, low_first, wild_home = reading
    added = [Placed(c, seat, "") for c in new]
    suit = _run_suit(cards)
    slots = _run_slots(cards)
    lo, hi = min(slots), max(slots)
    old_wild = next(
        (p for p in cards if _wild_at(p.card, pos_of(slots, p), suit)),
        None,
    )
    floating: list[Placed] = []
    for p in added:
        r = RANK[p.card]
        if r == 0:
            floating.insert(0, p)  # the joker is placed before a wild two
            continue
        natural = natural_twos and SUIT[p.card] == suit and (2 not in slots or slots[2] is old_wild)
        if r == 2 and not natural:
            floating.append(p)
            continue
        pos = (15 - _ace_pos(lo, hi) if far_ace else _ace_pos(lo, hi)) if r == 1 else r
        if r == 1 and pos in slots and RANK[slots[pos].card] == 1:
            pos = 15 - pos  # the other end: an A-…-K-A run is refused (BK-MELD-3)
        occupant = slots.get(pos)
        if occupant is not None:
            if occupant is old_wild:
                floating.append(occupant)
            elif RANK[occupant.card] == 0:
                raise _bad(
                    "joker_locked",
                    "BK-JOKER-1",
                    f"the joker stands for {occupant.stands_for}; free it with an exchange",
                )
            else:
                raise _bad("position_taken", "BK-MELD-2", f"{face(p.card)} is already in the run")
        slots[pos] = p
    if joker_as is not None and not any(RANK[p.card] == 0 for p in added):
        raise _bad("joker_locked", "BK-JOKER-1", "a joker on the table never changes its card")
    displaced = old_wild is not None and old_wild in floating
    if wild_home and old_wild in floating and SUIT[old_wild.card] == suit and 2 not in slots:
        floating.remove(old_wild)
        slots[2] = old_wild
    if (
        old_wild is not None
        and not displaced
        and wild_as is not None
        and _names_other(wild_as, old_wild.stands_for)
    ):
        if opts.wild_two_relocation != "any_position":
            raise _bad(
                "wild_two_fixed",
                "BK-WILD-S2",
                "a wild two moves only when its real card is added, and only to an end",
            )
        slots = {k: v for k, v in slots.items() if v is not old_wild}
        floating.append(old_wild)
    ends_only = opts.wild_two_relocation != "any_position"
    # Named substitutes first, so that an unnamed one never takes the place named for another.
    floating.sort(key=lambda p: (joker_as if RANK[p.card] == 0 else wild_as) is None)
    for i, p in enumerate(floating):
        is_joker = RANK[p.card] == 0
        target = joker_as if is_joker else wild_as
        occupied = set(slots)
        lo2, hi2 = min(occupied), max(occupied)
        strict_ends = ends_only and p is old_wild
        if target is not None:
            pos = _face_pos(target, lo2, hi2)
            if target.strip().upper()[-1] != suit:
                raise _bad(
                    "bad_wild_target",
                    "BK-WILD-2",
                    f"a substitute in this run stands for a {suit} card",
                )
            if strict_ends and lo2 <= pos <= hi2:
                raise _bad(
                    "wild_two_to_end", "BK-WILD-S2", "the wild two must move to an end of the run"
                )
        else:
            found = _floating_pos(occupied, strict_ends, len(floating) - i, low_first)
            if found is None:
                rule = "BK-WILD-S2" if strict_ends else "BK-MELD-2"
                if p is old_wild and not strict_ends:
                    rule = "BK-WILD-C2"
                raise _bad("no_place_for_wild", rule, f"there is no legal place for {face(p.card)}")
            pos = found
        if pos in slots:
            raise _bad(
                "position_taken", "BK-MELD-2", f"{_pos_face(pos, suit)} is already in the run"
            )
        slots[pos] = p
    if (
        old_wild is not None
        and displaced
        and ends_only
        and pos_of(slots, old_wild) not in (min(slots), max(slots))
    ):
        # A substitute placed after the moved two went past it (BK-WILD-S2: an end of the
        # run as it is after the add-on).
        raise _bad("wild_two_to_end", "BK-WILD-S2", "the wild two must move to an end of the run")
    run = _check_run(slots, suit, opts)
    _check_named(run, wild_as)
    return run


def _names_other(named: str | None, card: str) -> bool:
    """`named` is given and is not the face of `card`."""
    return named is not None and named.strip().upper() != face(card)


def _check_named(run: Sequence[Placed], wild_as: str | None) -> None:
    """A named wild two is honoured or the add-on is refused, never silently ignored (an
    added 2 of the run's suit named elsewhere is then read as the wild two). A named joker
    needs no check: it is placed on the named card or refused."""
    wild = next((p.stands_for for p in run if _is_wild(p)), "")
    if wild_as is not None and _names_other(wild_as, wild):
        raise _bad(
            "bad_wild_target", "BK-WILD-2", f"no wild two of this run can stand for {wild_as}"
        )


def _is_natural(placed: Placed) -> bool:
    """A 2 standing for itself: the natural 2 of its run (BK-WILD-3)."""
    return RANK[placed.card] == 2 and placed.stands_for == face(placed.card)


def _is_wild(placed: Placed) -> bool:
    """A 2 on the table that stands for another card (a natural 2 stands for itself)."""
    return RANK[placed.card] == 2 and placed.stands_for != face(placed.card)


def pos_of(slots: dict[int, Placed], placed: Placed) -> int:
    return next(k for k, v in slots.items() if v is placed)


def exchange_joker(
    cards: Sequence[Placed], kind: str, card: Card, seat: int, opts: BanakilOptions
) -> tuple[tuple[Placed, ...], Card]:
    """Put the real card a joker stands for in its place; returns the meld and the joker
    (BK-JOKER-2, BK-AMB-10)."""
    joker = next((p for p in cards if RANK[p.card] == 0), None)
    if joker is None:
        if any(_is_wild(p) for p in cards):
            raise _bad("wild_two_stays", "BK-WILD-4", "a wild two never goes back to a hand")
        raise _bad("no_joker", "BK-JOKER-2", "this meld holds no joker")
    r = RANK[card]
    if r == 0 or (kind == "set" and r == 2):
        raise _bad("not_a_real_card", "BK-JOKER-2", "only a real card can free a joker")
    placed = Placed(card, seat, face(card))
    rest = [p for p in cards if p is not joker]
    if kind == "set":
        rank_name = joker.stands_for[:-1]
        if face(card)[:-1] != rank_name:
            raise _bad("wrong_card", "BK-JOKER-2", f"the joker is freed only by a {rank_name}")
        if any(SUIT[p.card] == SUIT[card] and RANK[p.card] not in (0, 2) for p in rest):
            raise _bad("set_repeated_suit", "BK-MELD-4", "that suit is already in the set")
        return _check_set([*rest, placed], opts, keep=rest), joker.card
    if face(card) != joker.stands_for:
        raise _bad(
            "wrong_card", "BK-JOKER-2", f"the joker stands for {joker.stands_for}, not {face(card)}"
        )
    slots = _run_slots(cards)
    slots[pos_of(slots, joker)] = placed
    return _check_run(slots, _run_suit(cards), opts), joker.card


def move_wild(
    cards: Sequence[Placed], kind: str, to: str, opts: BanakilOptions
) -> tuple[Placed, ...]:
    """`classic`: move the wild two inside its run (BK-WILD-C3, BK-AMB-13)."""
    if any(RANK[p.card] == 0 for p in cards) and not any(_is_wild(p) for p in cards):
        raise _bad("joker_locked", "BK-JOKER-1", "a joker never moves; free it with an exchange")
    if opts.wild_two_relocation != "any_position":
        raise _bad(
            "wild_two_fixed", "BK-WILD-S2", "a wild two moves only when its real card is added"
        )
    if kind != "run":
        raise _bad("not_a_run", "BK-WILD-C3", "a wild two is moved only inside a run")
    suit = _run_suit(cards)
    slots = _run_slots(cards)
    wild = next((p for k, p in slots.items() if _wild_at(p.card, k, suit)), None)
    if wild is None:
        raise _bad("no_wild_two", "BK-WILD-C3", "this run holds no wild two")
    del slots[pos_of(slots, wild)]
    pos = _face_pos(to, min(slots), max(slots))
    if to.strip().upper()[-1] != suit:
        raise _bad(
            "bad_wild_target", "BK-WILD-2", f"a substitute in this run stands for a {suit} card"
        )
    if pos in slots:
        raise _bad("position_taken", "BK-MELD-2", f"{_pos_face(pos, suit)} is already in the run")
    slots[pos] = wild
    return _check_run(slots, suit, opts)
