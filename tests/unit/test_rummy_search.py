"""The rummy move search on the rules' own positions: the hint of the compulsory-play
reminder, the bot's move, and the proof that no move exists (rules/rummy.md §2.4, §3, §11,
§12; platform.md PF-HINT-2/3).

Every move the search returns is put through engine/rummy/moves.check_move here too.

Rules: RM-EX-3, RM-EX-6, RM-EX-17, RM-EX-18, RM-EX-19, RM-EX-21, RM-EX-22, RM-AMB-5,
RM-OPT-1a, RM-OPT-1b, RM-MOVE-1, RM-MOVE-3, RM-MOVE-5, RM-MAN-3, RM-ACE-1, RM-ACE-2,
RM-ACE-3, RM-CAR-5, RM-CAR-6, RM-VAT-4, RM-VAT-5, RM-AMB-11, RM-TAH-3, RM-TAH-8, RM-TAH-9,
RM-TAH-10, RM-AMB-24, RM-AMB-25, PF-HINT-2, PF-HINT-3.
"""

from __future__ import annotations

import pytest

from engine.rummy.moves import check_move
from engine.rummy.search import Move, best_move, find_move, hint
from engine.rummy.variants import (
    CAROUSEL,
    MACHIAVELLI,
    MANIPULATION,
    SHANGHAI,
    TAHITI,
    VATICAN,
    Variant,
)

Table = tuple[tuple[str, ...], ...]


def table(text: str) -> Table:
    """'3H 4H JK1 | 6S 6D' → groups of identities: a face is its copy 1 unless written with
    its copy (7H#2); JKn is the joker JK#n; '|' separates groups."""
    if not text.strip():
        return ()
    return tuple(tuple(_card(t) for t in part.split()) for part in text.split("|"))


def cards(text: str) -> list[str]:
    return [_card(t) for t in text.split()]


def _card(token: str) -> str:
    if token.startswith("JK"):
        return f"JK#{token[2:]}"
    return token if "#" in token else f"{token}#1"


def legal(
    before: Table,
    names: dict[str, str],
    move: Move,
    hand: list[str],
    variant: Variant,
    *,
    first_play: bool = False,
) -> None:
    checked = check_move(
        before, names, move.table, dict(move.names), hand, variant, first_play=first_play
    )
    assert checked.added == move.added


def groups_of(move: Move) -> set[frozenset[str]]:
    return {frozenset(g) for g in move.table}


# RM-EX-6, RM-OPT-1a, RM-AMB-5: the hint of the compulsory-play reminder


def test_the_hint_for_seven_of_spades_on_four_five_six_shows_that_card_and_group() -> None:
    """RM-EX-6, RM-OPT-1a, PF-HINT-2: table 4♠ 5♠ 6♠, the hand holds 7♠ (and cards that
    cannot play): the hint shows 7♠ and the group 4♠ 5♠ 6♠, no rearrangement."""
    before = table("4S 5S 6S")
    hand = cards("KC 2D 9H 7S")
    shown = hint(before, {}, hand, MANIPULATION)
    assert shown is not None
    assert (shown.card, shown.groups, shown.rearranges) == ("7S#1", (0,), False)
    assert groups_of(shown.move) == {frozenset(cards("4S 5S 6S 7S"))}
    legal(before, {}, shown.move, hand, MANIPULATION)


def test_the_hint_takes_the_first_card_in_hand_order_clubs_first_then_rank() -> None:
    """RM-AMB-5: hand order is ♣ ♦ ♥ ♠, then A … K, whatever order the hand was given in:
    of 8♠, 9♥, 3♦ and 10♣, which all play, the hint shows 10♣."""
    before = table("5S 6S 7S | 6H 7H 8H | 4D 5D 6D | JC QC KC")
    hand = cards("8S 9H 3D 10C")
    shown = hint(before, {}, hand, MANIPULATION)
    assert shown is not None
    assert (shown.card, shown.groups, shown.rearranges) == ("10C#1", (3,), False)


def test_the_hint_prefers_a_move_without_rearrangement_for_the_same_card() -> None:
    """RM-AMB-5: 7♥ plays on 4♥ 5♥ 6♥ as it is, and also by breaking 7♠ 7♦ 7♣ 7♥…; the
    hint shows the move that rearranges nothing."""
    before = table("4H 5H 6H | 7S 7D 7C")
    hand = cards("7H")
    shown = hint(before, {}, hand, MANIPULATION)
    assert shown is not None
    assert shown.card == "7H#1"
    assert not shown.rearranges
    assert len(shown.groups) == 1


def test_the_first_card_is_hinted_even_when_only_a_rearrangement_plays_it() -> None:
    """RM-AMB-5, RM-EX-3: 7♦ (first in hand order) plays only by taking 7♠ from the run;
    9♠ plays plainly but comes later: the hint shows 7♦, rearranging the run."""
    before = table("4S 5S 6S 7S | 10S JS QS")
    hand = cards("9S 7H 7D")
    shown = hint(before, {}, hand, MANIPULATION)
    assert shown is not None
    assert (shown.card, shown.groups, shown.rearranges) == ("7D#1", (0,), True)
    assert frozenset(cards("7S 7H 7D")) in groups_of(shown.move)
    legal(before, {}, shown.move, hand, MANIPULATION)


def test_no_hint_and_no_move_when_nothing_can_be_played() -> None:
    """RM-MAN-3, RM-OPT-1a: no move exists, so there is no reminder and the search says so
    (None is the proof that the player may draw)."""
    before = table("4S 5S 6S | 9H 9D 9C")
    hand = cards("2D KH 7C")
    assert hint(before, {}, hand, MANIPULATION) is None
    assert find_move(before, {}, hand, MANIPULATION) is None
    assert best_move(before, {}, hand, MANIPULATION) is None
    assert find_move(before, {}, [], MANIPULATION) is None


# RM-EX-3: rearranging the table


def test_the_best_move_splits_the_run_for_a_set_of_sevens() -> None:
    """RM-EX-3, RM-MOVE-1, RM-MOVE-3: table 4♠ 5♠ 6♠ 7♠, hand 7♥ 7♦ K♣: the most cards a
    move adds is 2, by 4♠ 5♠ 6♠ | 7♠ 7♥ 7♦; every table card stays on the table."""
    before = table("4S 5S 6S 7S")
    hand = cards("7H 7D KC")
    move = best_move(before, {}, hand, MANIPULATION)
    assert move is not None
    assert groups_of(move) == {frozenset(cards("4S 5S 6S")), frozenset(cards("7S 7H 7D"))}
    assert sorted(move.added) == ["7D#1", "7H#1"]
    legal(before, {}, move, hand, MANIPULATION)
    found = find_move(before, {}, hand, MANIPULATION)
    assert found is not None
    legal(before, {}, found, hand, MANIPULATION)


def test_the_best_move_adds_the_most_cards_not_the_first_found() -> None:
    """RM-MOVE-1: 8♥ alone extends the run, but the hand can lay 8♥ 8♣ 8♦ and 9♥ 10♥ J♥
    on top of it: the bot's move empties the hand."""
    before = table("5H 6H 7H")
    hand = cards("8H 8C 8D 9H 10H JH 8H#2")
    move = best_move(before, {}, hand, MANIPULATION)
    assert move is not None
    assert len(move.added) == 7
    legal(before, {}, move, hand, MANIPULATION)


# Ace rules


@pytest.mark.parametrize(
    ("variant", "high", "low"),
    [(MANIPULATION, True, False), (SHANGHAI, False, True), (MACHIAVELLI, True, True)],
)
def test_an_ace_plays_where_the_variant_lets_it_stand(
    variant: Variant, high: bool, low: bool
) -> None:
    """RM-ACE-1, RM-ACE-2, RM-ACE-3: A♥ on J♥ Q♥ K♥ (high) and on 2♥ 3♥ 4♥ (low)."""
    assert (find_move(table("JH QH KH"), {}, cards("AH"), variant) is not None) == high
    assert (find_move(table("2H 3H 4H"), {}, cards("AH"), variant) is not None) == low


# RM-EX-17, RM-EX-19: Carousel and Vatican jokers


def test_carousel_frees_the_joker_with_its_real_card_and_lays_it_anew() -> None:
    """RM-EX-17, RM-CAR-5, RM-CAR-6: run 3♥ 4♥ 5♥ JK(6♥), set 6♠ 6♦ 6♣, hand 2♥ 9♣ 10♣ 6♥:
    the best move plays all four: 6♥ takes the joker's place and the joker becomes J♣."""
    before = table("3H 4H 5H JK1 | 6S 6D 6C")
    names = {"JK#1": "6H"}
    hand = cards("2H 9C 10C 6H")
    move = best_move(before, names, hand, CAROUSEL)
    assert move is not None
    assert len(move.added) == 4
    assert dict(move.names) == {"JK#1": "JC"}
    legal(before, names, move, hand, CAROUSEL)


def test_carousel_moves_a_joker_as_the_same_card_where_vatican_keeps_it() -> None:
    """RM-EX-19, RM-VAT-4, RM-CAR-5: run 3♣ 4♣ 5♣ JK(6♣), set 6♠ 6♦ 6♥, hand 2♣: both
    variants play 2♣; Vatican's move keeps the joker beside 5♣, as 6♣."""
    before = table("3C 4C 5C JK1 | 6S 6D 6H")
    names = {"JK#1": "6C"}
    hand = cards("2C")
    for variant in (CAROUSEL, VATICAN):
        move = best_move(before, names, hand, variant)
        assert move is not None
        assert move.added == ("2C#1",)
        legal(before, names, move, hand, variant)
        if variant is VATICAN:
            home = next(g for g in move.table if "JK#1" in g)
            assert "5C#1" in home
            assert dict(move.names)["JK#1"] == "6C"


def test_vatican_frees_its_joker_in_place_and_lays_it_with_two_hand_cards() -> None:
    """RM-EX-19, RM-VAT-4: run 4♣ 5♣ JK(6♣) 7♣ 8♣, hand 3♣ 9♣ 6♣ 10♦ Q♦: all five play —
    3♣ and 9♣ at the ends, 6♣ in the joker's place, 10♦ JK(J♦) Q♦."""
    before = table("4C 5C JK1 7C 8C")
    names = {"JK#1": "6C"}
    hand = cards("3C 9C 6C 10D QD")
    move = best_move(before, names, hand, VATICAN)
    assert move is not None
    assert len(move.added) == 5
    assert dict(move.names) == {"JK#1": "JD"}
    legal(before, names, move, hand, VATICAN)


def test_vatican_first_play_needs_three_natural_hand_cards_in_a_row() -> None:
    """RM-EX-18, RM-VAT-5, RM-AMB-11: before opening, 9♠ could join the table's run, yet
    nothing plays without a natural run of three from the hand; with 5♥ 6♥ 7♥ it opens."""
    before = table("6S 7S 8S")
    assert find_move(before, {}, cards("9S 5H JK1 7H"), VATICAN, first_play=True) is None
    assert hint(before, {}, cards("9S 5H JK1 7H"), VATICAN, first_play=True) is None
    hand = cards("9S 5H 6H 7H JK1")
    move = best_move(before, {}, hand, VATICAN, first_play=True)
    assert move is not None
    assert len(move.added) == 5
    legal(before, {}, move, hand, VATICAN, first_play=True)
    found = find_move(before, {}, hand, VATICAN, first_play=True)
    assert found is not None
    legal(before, {}, found, hand, VATICAN, first_play=True)


# RM-EX-21, RM-EX-22: Tahiti


def test_a_tahiti_joker_group_takes_hand_cards_only() -> None:
    """RM-EX-21, RM-TAH-8, RM-AMB-25: 8♦ JK(9♦) 10♦ takes J♦ from the hand; the singleton 7♦
    never joins it, so with J♠ alone in hand nothing plays."""
    before = table("8D JK1 10D | 7D")
    names = {"JK#1": "9D"}
    move = best_move(before, names, cards("JD"), TAHITI)
    assert move is not None
    assert frozenset(cards("8D JK1 10D JD")) in groups_of(move)
    legal(before, names, move, cards("JD"), TAHITI)
    assert find_move(before, names, cards("JS"), TAHITI) is None


def test_a_tahiti_joker_freed_from_the_hand_goes_into_a_new_group() -> None:
    """RM-EX-21, RM-TAH-9, RM-TAH-10: 9♦ from the hand takes the joker's place and the joker
    lays J♠ JK(Q♠) K♠ with two hand cards: all three play."""
    before = table("8D JK1 10D")
    names = {"JK#1": "9D"}
    hand = cards("9D JS KS")
    move = best_move(before, names, hand, TAHITI)
    assert move is not None
    assert len(move.added) == 3
    assert dict(move.names) == {"JK#1": "QS"}
    legal(before, names, move, hand, TAHITI)


def test_tahiti_singletons_make_a_set_with_a_hand_card_and_the_rest_stay_alone() -> None:
    """RM-EX-22, RM-TAH-3, RM-AMB-24: singletons 3♣ 9♥ K♠ K♦, hand K♥: K♠ K♦ K♥, and 3♣
    and 9♥ stay alone; two singletons put together rearrange the table."""
    before = table("3C | 9H | KS | KD")
    hand = cards("KH")
    move = best_move(before, {}, hand, TAHITI)
    assert move is not None
    assert groups_of(move) == {
        frozenset(cards("3C")),
        frozenset(cards("9H")),
        frozenset(cards("KS KD KH")),
    }
    legal(before, {}, move, hand, TAHITI)
    shown = hint(before, {}, hand, TAHITI)
    assert shown is not None
    assert (shown.card, shown.groups, shown.rearranges) == ("KH#1", (2, 3), True)


def test_the_hint_shown_is_only_one_legal_move_among_others() -> None:
    """RM-OPT-1b, PF-HINT-3: the hint does not restrict play: another legal move playing a
    different card is accepted by the move check as well."""
    before = table("4S 5S 6S")
    hand = cards("3S 7S")
    shown = hint(before, {}, hand, MANIPULATION)
    assert shown is not None
    assert shown.card == "3S#1"
    other = check_move(before, {}, table("4S 5S 6S 7S"), {}, hand, MANIPULATION)
    assert other.added == ("7S#1",)
