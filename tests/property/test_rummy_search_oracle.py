"""engine/rummy/search.py against the brute-force enumerator of
tests/property/rummy_search_oracle.py, on random small positions of all seven variants.

A position is a table of a few valid groups (jokers named as the cards they stand for,
where the variant has them; Tahiti's singletons, a joker among them at times), a hand of
up to five cards drawn near the table's cards, and for Vatican a first play or not. The
enumerator lists every legal move (each judged by engine/rummy/moves.check_move); then:

- find_move returns None exactly when no move exists, and otherwise a legal move;
- best_move adds as many hand cards as the best legal move, in every variant;
- hint names the first hand card in hand order that some legal move plays, shows a legal
  move playing it, says it rearranges the table exactly when no move without
  rearrangement plays it, and names the old groups its move changes.

Rules: RM-AMB-5, RM-OPT-1a, RM-MOVE-1, RM-MOVE-2, RM-MOVE-3, RM-MOVE-5, RM-GRP-1..5,
RM-ACE-1..4, RM-AMB-6, RM-JOKER-1..5, RM-CAR-5, RM-CAR-6, RM-CAR-7, RM-VAT-4, RM-VAT-5,
RM-AMB-7, RM-AMB-10, RM-AMB-11, RM-TAH-3, RM-TAH-7, RM-TAH-8, RM-TAH-9, RM-TAH-10,
RM-AMB-24, RM-AMB-25.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.rummy.moves import check_move
from engine.rummy.search import Move, best_move, find_move, hint
from engine.rummy.variants import VARIANTS
from tests.property.rummy_oracle import group_outcome
from tests.property.rummy_search_oracle import (
    enumerate_moves,
    hand_order,
    no_rearrangement,
)

_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUITS = ("C", "D", "H", "S")
_SETTINGS = settings(
    max_examples=int(os.environ.get("SAHRA_SEARCH_EXAMPLES", "150")),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
_JOKERS = {"carousel": 2, "vatican": 2, "tahiti": 4}

Group = tuple[str, ...]
Case = tuple[str, tuple[Group, ...], dict[str, str], tuple[str, ...], bool]


def _face(place: int, suit: str) -> str:
    return ("A" if place in (1, 14) else _NAMES[place - 1]) + suit


def _places(variant: str) -> tuple[int, int]:
    ace = VARIANTS[variant].ace
    return (2, 14) if ace == "high" else (1, 13) if ace == "low" else (1, 14)


@st.composite
def positions(draw: st.DrawFn) -> Case:
    variant = draw(st.sampled_from(tuple(VARIANTS)))
    lo, hi = _places(variant)
    start = draw(st.integers(lo, hi - 4))
    window = list(range(start, start + 5))
    suits = draw(st.lists(st.sampled_from(_SUITS), min_size=1, max_size=3, unique=True))
    copies: dict[str, int] = {}
    jokers = [0]
    limit = VARIANTS[variant].jokers_per_group

    def card(face: str) -> str | None:
        n = copies.get(face, 0)
        if n >= 2:
            return None
        copies[face] = n + 1
        return f"{face}#{n + 1}"

    def joker() -> str | None:
        if jokers[0] >= _JOKERS.get(variant, 0):
            return None
        jokers[0] += 1
        return f"JK#{jokers[0]}"

    table: list[Group] = []
    names: dict[str, str] = {}
    size = 0
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):
            suit = draw(st.sampled_from(suits))
            first = draw(st.sampled_from(window[:-2]))
            length = draw(st.integers(3, min(4, window[-1] - first + 1)))
            faces = [_face(p, suit) for p in range(first, first + length)]
        else:
            rank = _face(draw(st.sampled_from(window)), "")
            picked = draw(st.lists(st.sampled_from(_SUITS), min_size=3, max_size=4, unique=True))
            faces = [rank + s for s in picked]
        if size + len(faces) > 8:
            break
        group: list[str] = []
        in_group = 0
        for face in faces:
            ident: str | None = None
            if limit and in_group < limit and draw(st.integers(0, 4)) == 0:
                ident = joker()
                if ident is not None:
                    names[ident] = face
                    in_group += 1
            ident = ident or card(face)
            if ident is None:
                break
            group.append(ident)
        if len(group) == len(faces):
            table.append(tuple(group))
            size += len(group)
    if VARIANTS[variant].singletons:
        for _ in range(draw(st.integers(0, 3))):
            if draw(st.integers(0, 6)) == 0:
                ident = joker()
            else:
                ident = card(_face(draw(st.sampled_from(window)), draw(st.sampled_from(_SUITS))))
            if ident is not None:
                table.append((ident,))
    hand: list[str] = []
    for _ in range(draw(st.integers(1, 5))):
        if jokers[0] < _JOKERS.get(variant, 0) and draw(st.integers(0, 6)) == 0:
            ident = joker()
        else:
            suit = draw(st.sampled_from([*suits, "C", "D", "H", "S"]))
            ident = card(_face(draw(st.sampled_from(window)), suit))
        if ident is not None:
            hand.append(ident)
    assume(hand)
    for laid in table:
        if len(laid) > 1:
            assume(group_outcome(laid, names, variant) is not None)
    first_play = variant == "vatican" and draw(st.booleans())
    order = draw(st.permutations(hand))
    return variant, tuple(table), names, tuple(order), first_play


def _legal(case: Case, move: Move) -> None:
    variant, table, names, hand, first = case
    checked = check_move(
        table,
        names,
        move.table,
        dict(move.names),
        list(hand),
        VARIANTS[variant],
        first_play=first,
    )
    assert checked.added == move.added


@_SETTINGS
@given(positions())
def test_find_move_finds_a_move_exactly_when_one_exists(case: Case) -> None:
    """RM-AMB-5, RM-MOVE-1..5: None is a proof that no move exists; a move is legal."""
    variant, table, names, hand, first = case
    truth = enumerate_moves(table, names, hand, variant, first_play=first)
    found = find_move(table, names, hand, VARIANTS[variant], first_play=first)
    assert (found is not None) == truth.exists
    if found is not None:
        _legal(case, found)


@_SETTINGS
@given(positions())
def test_best_move_adds_as_many_cards_as_the_best_legal_move(case: Case) -> None:
    """RM-AMB-5, RM-MOVE-1..5, RM-JOKER-4, RM-TAH-3: the bot's move is legal and adds the
    most hand cards any legal move adds."""
    variant, table, names, hand, first = case
    truth = enumerate_moves(table, names, hand, variant, first_play=first)
    best = best_move(table, names, hand, VARIANTS[variant], first_play=first)
    assert (best is not None) == truth.exists
    if best is not None:
        _legal(case, best)
        assert len(best.added) == truth.most


@_SETTINGS
@given(positions())
def test_the_hint_shows_the_first_playable_card_in_hand_order(case: Case) -> None:
    """RM-AMB-5, RM-OPT-1a: the first hand card (♣ ♦ ♥ ♠, A … K) some move plays, a move
    without rearrangement whenever one plays it, and the old groups that move changes."""
    variant, table, names, hand, first = case
    truth = enumerate_moves(table, names, hand, variant, first_play=first)
    shown = hint(table, names, hand, VARIANTS[variant], first_play=first)
    assert (shown is not None) == truth.exists
    if shown is None:
        return
    played = truth.played()
    want = min(played, key=lambda c: (hand_order(c), hand.index(c)))
    assert shown.card == want
    _legal(case, shown.move)
    assert shown.card in shown.move.added
    plain = any(
        shown.card in added and no_rearrangement(table, after) for after, _, added in truth.legal
    )
    assert shown.rearranges == (not plain)
    assert shown.rearranges == (not no_rearrangement(table, shown.move.table))
    kept = {frozenset(g) for g in shown.move.table}
    assert shown.groups == tuple(i for i, g in enumerate(table) if frozenset(g) not in kept)
