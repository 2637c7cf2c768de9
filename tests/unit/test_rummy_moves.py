"""The rummy move check: how jokers may move, be named and be freed between the table before
a move and the table after it (rules/rummy.md §2.6, §8, §9, §10, §11, §12).

Every example of RM-EX-3, RM-EX-17, RM-EX-19, RM-EX-21 and RM-EX-22 is here with the outcome
the rules give, accepted or refused with its code and rule ID.

Rules: RM-JOKER-1..5, RM-CAR-4..7, RM-VAT-3, RM-VAT-4, RM-VAT-5, RM-TAH-3, RM-TAH-7..10,
RM-AMB-7, RM-AMB-8, RM-AMB-9, RM-AMB-10, RM-AMB-24, RM-AMB-25, RM-MOVE-1, RM-MOVE-3,
RM-GRP-4, RM-EX-3, RM-EX-17, RM-EX-19, RM-EX-21, RM-EX-22.
"""

from __future__ import annotations

import pytest

from engine.rummy.groups import TableViolation
from engine.rummy.moves import Checked, Table, check_move
from engine.rummy.variants import CAROUSEL, MANIPULATION, TAHITI, VATICAN, Variant

Names = dict[str, str]


def table(text: str) -> Table:
    """'3H 4H JK1 | 6S 6D 6C' → groups of identities: a face is its copy 1 unless written
    with its copy (7H#2); JKn is the joker JK#n; '|' separates groups."""
    if not text.strip():
        return ()
    return tuple(tuple(_card(t) for t in part.split()) for part in text.split("|"))


def cards(text: str) -> list[str]:
    return [_card(t) for t in text.split()]


def _card(token: str) -> str:
    if token.startswith("JK"):
        return f"JK#{token[2:]}"
    return token if "#" in token else f"{token}#1"


def move(
    before: str,
    before_names: Names,
    after: str,
    after_names: Names,
    hand: str,
    variant: Variant,
    *,
    first_play: bool = False,
) -> Checked:
    return check_move(
        table(before),
        before_names,
        table(after),
        after_names,
        cards(hand),
        variant,
        first_play=first_play,
    )


def refused(
    before: str,
    before_names: Names,
    after: str,
    after_names: Names,
    hand: str,
    variant: Variant,
    *,
    first_play: bool = False,
) -> tuple[str, str, int | None]:
    with pytest.raises(TableViolation) as e:
        move(before, before_names, after, after_names, hand, variant, first_play=first_play)
    return e.value.code, e.value.rule_id, e.value.group


# RM-EX-3: rearranging the table, Manipulation (no jokers)


def test_a_run_split_into_a_set_with_two_hand_cards_is_a_move() -> None:
    """RM-EX-3, RM-MOVE-1: 4♠ 5♠ 6♠ 7♠ + 7♥ 7♦ → 4♠ 5♠ 6♠ | 7♠ 7♥ 7♦ (2 hand cards added)."""
    out = move("4S 5S 6S 7S", {}, "4S 5S 6S | 7S 7H 7D", {}, "7H 7D KC", MANIPULATION)
    assert out.added == ("7H#1", "7D#1")
    assert [g.kind for g in out.groups if g] == ["run", "set"]
    assert out.names == ()


def test_a_table_card_returned_to_the_hand_is_refused() -> None:
    """RM-EX-3, RM-MOVE-3: the same move with 7♠ taken back into the hand."""
    got = refused("4S 5S 6S 7S", {}, "4S 5S 6S | 7H 7D KC", {}, "7H 7D KC", MANIPULATION)
    assert got == ("table_card_removed", "RM-MOVE-3", None)


def test_a_rearrangement_without_a_hand_card_is_refused() -> None:
    """RM-EX-3, RM-MOVE-1: the table rebuilt, no card from the hand added."""
    got = refused("4S 5S 6S 7S | 7H 7D 7C", {}, "4S 5S 6S | 7S 7H 7D 7C", {}, "KC", MANIPULATION)
    assert got == ("no_card_added", "RM-MOVE-1", None)


# RM-EX-17: Carousel jokers

EX17_BEFORE = "3H 4H 5H JK1 | 6S 6D 6C"
EX17_HAND = "2H 9C 10C 6H"
SIX_OF_HEARTS = {"JK#1": "6H"}


def test_a_carousel_joker_moves_to_another_group_as_the_same_card() -> None:
    """RM-EX-17, RM-CAR-5, RM-CAR-4, RM-JOKER-3: 2♥ joins the run and JK(6♥) moves into the
    set, still 6♥ (omitted from the new names, it keeps its identity)."""
    after = "2H 3H 4H 5H | 6S 6D 6C JK1"
    out = move(EX17_BEFORE, SIX_OF_HEARTS, after, {}, EX17_HAND, CAROUSEL)
    assert out.names == (("JK#1", "6H"),)
    assert out.added == ("2H#1",)
    same = move(EX17_BEFORE, SIX_OF_HEARTS, after, {"JK#1": "6H"}, EX17_HAND, CAROUSEL)
    assert same.names == out.names


def test_a_carousel_joker_not_freed_cannot_take_a_new_identity() -> None:
    """RM-EX-17, RM-CAR-6, RM-JOKER-3: JK(6♥) moved into 9♣ 10♣ JK as J♣ before its real
    card is in its place."""
    after = "3H 4H 5H | 6S 6D 6C | 9C 10C JK1"
    got = refused(EX17_BEFORE, SIX_OF_HEARTS, after, {"JK#1": "JC"}, EX17_HAND, CAROUSEL)
    assert got == ("joker_not_freed", "RM-CAR-6", 2)


def test_the_real_card_from_the_hand_frees_the_joker_for_a_new_group() -> None:
    """RM-EX-17, RM-JOKER-4, RM-JOKER-5, RM-CAR-6: the real 6♥ takes the JK's place and, in
    the same move, 9♣ 10♣ JK(J♣) is laid."""
    after = "3H 4H 5H 6H | 6S 6D 6C | 9C 10C JK1"
    out = move(EX17_BEFORE, SIX_OF_HEARTS, after, {"JK#1": "JC"}, EX17_HAND, CAROUSEL)
    assert out.names == (("JK#1", "JC"),)
    assert out.added == ("6H#1", "9C#1", "10C#1")
    assert out.groups[2] is not None
    assert out.groups[2].faces == ("9C", "10C", "JC")


def test_a_freed_joker_left_off_the_table_or_taken_into_the_hand_is_refused() -> None:
    """RM-EX-17, RM-JOKER-5, RM-MOVE-3: 6♥ takes the JK's place and the JK is on no group
    (the server cannot tell 'off the table' from 'into the hand': both leave it out)."""
    after = "3H 4H 5H 6H | 6S 6D 6C"
    got = refused(EX17_BEFORE, SIX_OF_HEARTS, after, {}, EX17_HAND, CAROUSEL)
    assert got == ("freed_joker_off_table", "RM-JOKER-5", None)


# RM-EX-19: Vatican jokers stay in their group until freed

EX19_BEFORE = "3C 4C 5C JK1 | 6S 6D 6H"
SIX_OF_CLUBS = {"JK#1": "6C"}


@pytest.mark.parametrize(("variant", "ok"), [(VATICAN, False), (CAROUSEL, True)])
def test_a_joker_moved_to_another_group_as_the_same_card(variant: Variant, ok: bool) -> None:
    """RM-EX-19, RM-VAT-4, RM-AMB-10, RM-CAR-5: 2♣ joins the run and JK(6♣) moves into the
    set as 6♣: refused in Vatican (its real card is not on the table), accepted in
    Carousel."""
    after = "2C 3C 4C 5C | 6S 6D 6H JK1"
    if ok:
        assert move(EX19_BEFORE, SIX_OF_CLUBS, after, {}, "2C", variant).names == (("JK#1", "6C"),)
    else:
        got = refused(EX19_BEFORE, SIX_OF_CLUBS, after, {}, "2C", variant)
        assert got == ("joker_left_its_group", "RM-VAT-4", 1)


LONG_RUN = "4C 5C JK1 7C 8C"


def test_a_vatican_joker_group_takes_a_card_from_the_hand() -> None:
    """RM-EX-19, RM-VAT-4, RM-JOKER-3: 4♣ 5♣ JK(6♣) 7♣ 8♣ + 3♣: the JK is still 6♣."""
    out = move(LONG_RUN, SIX_OF_CLUBS, "3C 4C 5C JK1 7C 8C", {}, "3C", VATICAN)
    assert out.names == (("JK#1", "6C"),)
    assert out.groups[0] is not None
    assert out.groups[0].faces == ("3C", "4C", "5C", "6C", "7C", "8C")


def test_a_vatican_joker_group_split_keeping_a_neighbour_with_the_joker() -> None:
    """RM-EX-19, RM-VAT-4, RM-AMB-10: split into 4♣ 5♣ JK(6♣) | 7♣ 8♣ 9♣ with 9♣ from the
    hand: 5♣ stays with the JK."""
    out = move(LONG_RUN, SIX_OF_CLUBS, "4C 5C JK1 | 7C 8C 9C", {}, "9C", VATICAN)
    assert out.added == ("9C#1",)


def test_a_vatican_joker_freed_in_place_goes_to_a_new_group_renamed() -> None:
    """RM-EX-19, RM-VAT-3, RM-JOKER-4, RM-JOKER-5: a real 6♣ from the hand in the JK's place,
    and 10♦ JK(J♦) Q♦ laid with 10♦ Q♦ from the hand in the same move."""
    after = "4C 5C 6C 7C 8C | 10D JK1 QD"
    out = move(LONG_RUN, SIX_OF_CLUBS, after, {"JK#1": "JD"}, "6C 10D QD", VATICAN)
    assert out.names == (("JK#1", "JD"),)
    assert out.added == ("6C#1", "10D#1", "QD#1")


@pytest.mark.parametrize(("variant", "ok"), [(VATICAN, False), (CAROUSEL, True)])
def test_a_joker_split_away_from_both_its_neighbours(variant: Variant, ok: bool) -> None:
    """RM-VAT-4, RM-AMB-10, RM-CAR-5: 3♣ 4♣ 5♣ JK(6♣) 7♣ 8♣ 9♣ split into its two
    halves while the JK, still 6♣, joins 6♠ 6♦ from the hand: no card that lay next to it
    stays with it."""
    before = "3C 4C 5C JK1 7C 8C 9C"
    after = "3C 4C 5C | 7C 8C 9C | 6S 6D JK1"
    if ok:
        assert move(before, SIX_OF_CLUBS, after, {}, "6S 6D", variant).added == (
            "6S#1",
            "6D#1",
        )
    else:
        got = refused(before, SIX_OF_CLUBS, after, {}, "6S 6D", variant)
        assert got == ("joker_left_its_group", "RM-VAT-4", 2)


@pytest.mark.parametrize(("variant", "ok"), [(VATICAN, False), (CAROUSEL, True)])
def test_a_set_joker_leaving_every_card_of_its_set(variant: Variant, ok: bool) -> None:
    """RM-VAT-4, RM-AMB-10, RM-CAR-5: JK(6♣) leaves 6♠ 6♦ 6♥ for the run 7♣ 8♣ 9♣ (10♣
    from the hand): in a set every other card counts as its neighbour, none stays."""
    before = "6S 6D 6H JK1 | 7C 8C 9C"
    after = "6S 6D 6H | JK1 7C 8C 9C 10C"
    if ok:
        assert move(before, SIX_OF_CLUBS, after, {}, "10C", variant).names == (("JK#1", "6C"),)
    else:
        assert refused(before, SIX_OF_CLUBS, after, {}, "10C", variant) == (
            "joker_left_its_group",
            "RM-VAT-4",
            1,
        )


def test_a_vatican_set_joker_keeping_one_card_of_its_set_stays() -> None:
    """RM-VAT-4, RM-AMB-10: 6♥ leaves for 6♥ 7♥ 8♥ (7♥ 8♥ from the hand); 6♠ 6♦ stay with
    JK(6♣)."""
    out = move("6S 6D 6H JK1", SIX_OF_CLUBS, "6S 6D JK1 | 6H 7H 8H", {}, "7H 8H", VATICAN)
    assert out.added == ("7H#1", "8H#1")


def test_a_vatican_joker_not_freed_keeps_its_identity() -> None:
    """RM-VAT-3, RM-CAR-6, RM-JOKER-3: 4♣ 5♣ JK(6♣) renamed 3♣ without its real card."""
    got = refused(
        "4C 5C JK1", SIX_OF_CLUBS, "4C 5C JK1 | 9D 10D JD", {"JK#1": "3C"}, "9D 10D JD", VATICAN
    )
    assert got == ("joker_not_freed", "RM-CAR-6", 0)


def test_vatican_first_play_is_passed_to_the_table_check() -> None:
    """RM-VAT-5, RM-EX-18: a first play of 5♥ JK 7♥ is no natural run of three."""
    got = refused("", {}, "5H JK1 7H", {"JK#1": "6H"}, "5H JK1 7H", VATICAN, first_play=True)
    assert got == ("first_play_needs_run", "RM-VAT-5", None)
    out = move("", {}, "5H 6H 7H JK1", {"JK#1": "8H"}, "5H 6H 7H JK1", VATICAN, first_play=True)
    assert out.names == (("JK#1", "8H"),)


# Freeing: where the real card comes from, and which group is the joker's


@pytest.mark.parametrize(("variant", "ok"), [(CAROUSEL, True), (VATICAN, True), (TAHITI, False)])
def test_the_real_card_moved_from_another_group_frees_the_joker(variant: Variant, ok: bool) -> None:
    """RM-JOKER-4, RM-CAR-6, RM-VAT-3, RM-TAH-9, RM-AMB-7: 6♥ leaves 6♥ 6♠ 6♦ 6♣ for the
    JK's place in 3♥ 4♥ 5♥ JK(6♥); the JK becomes J♣ with 9♣ 10♣ from the hand. Tahiti
    frees a joker only with the real card from the hand: there the JK stays 6♥, and a table
    card cannot join its frozen group (RM-TAH-8)."""
    before = "3H 4H 5H JK1 | 6H 6S 6D 6C"
    after = "3H 4H 5H 6H | 6S 6D 6C | 9C 10C JK1"
    if ok:
        out = move(before, SIX_OF_HEARTS, after, {"JK#1": "JC"}, "9C 10C", variant)
        assert out.names == (("JK#1", "JC"),)
    else:
        got = refused(before, SIX_OF_HEARTS, after, {"JK#1": "JC"}, "9C 10C", variant)
        assert got == ("joker_not_freed", "RM-TAH-9", 2)
        kept = refused(before, SIX_OF_HEARTS, "3H 4H 5H 6H JK1 | 6S 6D 6C", {}, "", variant)
        assert kept[:2] == ("frozen_group_table_card", "RM-TAH-8")


def test_a_real_copy_lying_elsewhere_frees_nothing() -> None:
    """RM-AMB-7, RM-CAR-6: 6♥ lies in 6♥ 7♥ 8♥ (9♥ added): JK(6♥) stays 6♥."""
    before = "3H 4H 5H JK1 | 6H 7H 8H"
    after = "JK1 3H 4H 5H | 6H 7H 8H 9H"
    got = refused(before, SIX_OF_HEARTS, after, {"JK#1": "2H"}, "9H", CAROUSEL)
    assert got == ("joker_not_freed", "RM-CAR-6", 0)


def test_the_real_card_in_a_group_holding_none_of_the_jokers_group_frees_nothing() -> None:
    """RM-JOKER-4, RM-AMB-7: 6♥ 6♠ 6♦ laid from the hand is not the JK's place in
    2♥ 3♥ 4♥ 5♥ JK(6♥), so the JK cannot become J♣."""
    before = "2H 3H 4H 5H JK1 | 9C 10C QC"
    after = "2H 3H 4H 5H | 6H 6S 6D | 9C 10C JK1 QC"
    got = refused(before, SIX_OF_HEARTS, after, {"JK#1": "JC"}, "6H 6S 6D", CAROUSEL)
    assert got == ("joker_not_freed", "RM-CAR-6", 2)


def test_the_same_face_from_the_second_deck_frees_the_joker_too() -> None:
    """RM-JOKER-4: 'the identical real card, either copy': 6♥#2 takes the JK's place."""
    after = "3H 4H 5H 6H#2 | 6S 6D 6C | 9C 10C JK1"
    out = move(EX17_BEFORE, SIX_OF_HEARTS, after, {"JK#1": "JC"}, "6H#2 9C 10C", CAROUSEL)
    assert out.added == ("6H#2", "9C#1", "10C#1")


def test_a_freed_joker_may_keep_its_name_where_it_still_fits() -> None:
    """RM-JOKER-5: freed by 6♥, JK(6♥) goes into 6♠ 6♦ 6♣ still as 6♥ (names left out)."""
    after = "3H 4H 5H 6H | 6S 6D 6C JK1"
    out = move(EX17_BEFORE, SIX_OF_HEARTS, after, {}, EX17_HAND, CAROUSEL)
    assert out.names == (("JK#1", "6H"),)


def test_a_freed_joker_left_beside_its_real_card_is_two_identical_cards() -> None:
    """RM-JOKER-5, RM-GRP-4: 6♥ added while JK(6♥) stays in the run."""
    got = refused(EX17_BEFORE, SIX_OF_HEARTS, "3H 4H 5H 6H JK1 | 6S 6D 6C", {}, "6H", CAROUSEL)
    assert got == ("identical_cards", "RM-GRP-4", 0)


# Names: given, kept, filled in when exactly one fits (RM-JOKER-1, RM-JOKER-2, RM-AMB-8)


def test_a_hand_joker_with_exactly_one_fitting_identity_is_named_by_the_check() -> None:
    """RM-JOKER-2, RM-AMB-8: 9♣ JK J♣ can only be 10♣; 7♠ 7♥ 7♦ JK only 7♣."""
    out = move("", {}, "9C JK1 JC | 7S 7H 7D JK2", {}, "9C JK1 JC 7S 7H 7D JK2", CAROUSEL)
    assert out.names == (("JK#1", "10C"), ("JK#2", "7C"))
    assert out.groups[1] is not None
    assert out.groups[1].kind == "set"


def test_a_hand_joker_with_two_fitting_identities_must_be_named() -> None:
    """RM-JOKER-2, RM-AMB-8: 9♣ 10♣ JK could be 8♣ or J♣; the refusal lists them."""
    with pytest.raises(TableViolation) as e:
        move("", {}, "9C 10C JK1", {}, "9C 10C JK1", CAROUSEL)
    assert (e.value.code, e.value.rule_id, e.value.group) == ("joker_unnamed", "RM-JOKER-2", 0)
    assert "8C" in e.value.message
    assert "JC" in e.value.message
    out = move("", {}, "9C 10C JK1", {"JK#1": "8C"}, "9C 10C JK1", CAROUSEL)
    assert out.names == (("JK#1", "8C"),)


def test_an_ace_end_leaves_one_fit_where_the_variant_puts_the_ace_one_way() -> None:
    """RM-JOKER-2, RM-ACE-4, RM-ACE-1: Q♥ K♥ JK is J♥ or A♥ in Carousel (ace high allowed)
    but JK A♥ 2♥ only 3♥ in Tahiti: the ace never stands in the middle."""
    with pytest.raises(TableViolation) as e:
        move("", {}, "QH KH JK1", {}, "QH KH JK1", CAROUSEL)
    assert e.value.code == "joker_unnamed"
    assert "AH" in e.value.message
    out = move("", {}, "JK1 AH 2H", {}, "JK1 AH 2H", TAHITI)
    assert out.names == (("JK#1", "3H"),)


def test_two_unnamed_jokers_in_one_group_always_fit_two_ways() -> None:
    """RM-JOKER-2, RM-CAR-7, RM-AMB-9: 9♣ JK JK J♣ is 10♣ and Q♣ or 8♣... in either order."""
    got = refused("", {}, "9C JK1 JK2 JC", {}, "9C JK1 JK2 JC", CAROUSEL)
    assert got == ("joker_unnamed", "RM-JOKER-2", 0)


def test_several_jokers_in_a_carousel_group_each_with_its_own_identity() -> None:
    """RM-CAR-7, RM-AMB-9, RM-GRP-4: 9♣ JK(10♣) JK(J♣) is a run; two jokers both named 10♣
    are two identical cards."""
    out = move("", {}, "9C JK1 JK2", {"JK#1": "10C", "JK#2": "JC"}, "9C JK1 JK2", CAROUSEL)
    assert out.names == (("JK#1", "10C"), ("JK#2", "JC"))
    got = refused("", {}, "9C JK1 JK2", {"JK#1": "10C", "JK#2": "10C"}, "9C JK1 JK2", CAROUSEL)
    assert got == ("identical_cards", "RM-GRP-4", 0)


def test_a_hand_joker_no_identity_can_fit_is_refused() -> None:
    """RM-JOKER-1, RM-GRP-1: 9♣ 10♦ JK is no set and no run whatever the joker is."""
    got = refused("", {}, "9C 10D JK1", {}, "9C 10D JK1", CAROUSEL)
    assert got == ("no_identity_fits", "RM-JOKER-1", 0)


def test_a_name_goes_only_to_a_joker_on_the_table_and_names_a_real_card() -> None:
    """RM-JOKER-1: a name for 9♣ (not a joker), for a joker not on the table, or 'JK' /
    '11C' as a face is refused."""
    hand = "9C 10C JK1"
    assert refused("", {}, "9C 10C JK1", {"JK#1": "JC", "9C#1": "9C"}, hand, CAROUSEL) == (
        "named_card_not_a_joker",
        "RM-JOKER-1",
        0,
    )
    assert refused("", {}, "9C 10C JK1", {"JK#1": "JC", "JK#2": "8C"}, hand, CAROUSEL) == (
        "named_card_not_a_joker",
        "RM-JOKER-1",
        None,
    )
    for face in ("JK", "11C", "jc"):
        got = refused("", {}, "9C 10C JK1", {"JK#1": face}, hand, CAROUSEL)
        assert got == ("bad_card", "RM-JOKER-1", 0)


def test_a_joker_is_refused_where_the_variant_has_none() -> None:
    """RM-CORE-2: no jokers in Manipulation, named or not."""
    assert refused("", {}, "9C 10C JK1", {}, "9C 10C JK1", MANIPULATION)[:2] == (
        "no_jokers",
        "RM-CORE-2",
    )


def test_a_table_joker_without_a_name_before_the_move_is_an_input_error() -> None:
    """RM-JOKER-1: every joker in a group on the table before the move has a name."""
    got = refused("3H 4H 5H JK1", {}, "2H 3H 4H 5H JK1", {}, "2H", CAROUSEL)
    assert got == ("bad_before_table", "", None)


# RM-EX-21: a Tahiti joker freezes its group

EX21_BEFORE = "8D JK1 10D"
NINE_OF_DIAMONDS = {"JK#1": "9D"}


def test_a_tahiti_joker_group_takes_a_card_from_the_hand() -> None:
    """RM-EX-21, RM-TAH-8, RM-AMB-25: 8♦ JK(9♦) 10♦ + J♦ from the hand."""
    out = move(EX21_BEFORE, NINE_OF_DIAMONDS, "8D JK1 10D JD", {}, "JD", TAHITI)
    assert out.names == (("JK#1", "9D"),)


def test_a_card_moved_out_of_a_tahiti_joker_group_is_refused() -> None:
    """RM-EX-21, RM-TAH-8, RM-AMB-25: 10♦ leaves for 10♠ 10♣ 10♥ (7♦ from the hand keeps
    the joker's group a run): the group is frozen."""
    before = "8D JK1 10D | 10S 10C 10H"
    after = "7D 8D JK1 | 10S 10C 10H 10D"
    got = refused(before, NINE_OF_DIAMONDS, after, {}, "7D", TAHITI)
    assert got == ("frozen_group_split", "RM-TAH-8", 0)


def test_a_singleton_added_to_a_tahiti_joker_group_is_refused() -> None:
    """RM-EX-21, RM-TAH-8, RM-AMB-24, RM-AMB-25: the singleton 7♦ is not from the hand."""
    before = "8D JK1 10D | 7D"
    got = refused(before, NINE_OF_DIAMONDS, "7D 8D JK1 10D JD", {}, "JD", TAHITI)
    assert got == ("frozen_group_table_card", "RM-TAH-8", 0)


def test_a_tahiti_joker_freed_from_the_hand_goes_to_a_new_group_renamed() -> None:
    """RM-EX-21, RM-TAH-9, RM-TAH-10: 9♦ from the hand in the JK's place (8♦ 9♦ 10♦) and
    J♠ JK(Q♠) K♠ laid with J♠ K♠ from the hand."""
    after = "8D 9D 10D | JS JK1 KS"
    out = move(EX21_BEFORE, NINE_OF_DIAMONDS, after, {"JK#1": "QS"}, "9D JS KS", TAHITI)
    assert out.names == (("JK#1", "QS"),)
    assert out.added == ("9D#1", "JS#1", "KS#1")


def test_a_tahiti_joker_freed_but_not_placed_again_is_refused() -> None:
    """RM-EX-21, RM-TAH-10, RM-JOKER-5: 9♦ placed, the JK on no group; left in its group
    still as 9♦ it is a second 9♦ (RM-GRP-4)."""
    got = refused(EX21_BEFORE, NINE_OF_DIAMONDS, "8D 9D 10D", {}, "9D", TAHITI)
    assert got == ("freed_joker_off_table", "RM-TAH-10", None)
    got = refused(EX21_BEFORE, NINE_OF_DIAMONDS, "8D 9D JK1 10D", {}, "9D", TAHITI)
    assert got == ("identical_cards", "RM-GRP-4", 0)


def test_a_freed_tahiti_joker_may_stay_in_its_rearranged_group_renamed() -> None:
    """RM-TAH-10, RM-JOKER-5: freed by 9♦, the JK stays as J♦: 8♦ 9♦ 10♦ JK(J♦)."""
    out = move(EX21_BEFORE, NINE_OF_DIAMONDS, "8D 9D 10D JK1", {"JK#1": "JD"}, "9D", TAHITI)
    assert out.names == (("JK#1", "JD"),)


def test_a_freed_tahiti_group_may_be_split_in_the_same_move() -> None:
    """RM-TAH-10, RM-JOKER-4: 9♦ from the hand lands in 7♦ 8♦ 9♦ while 10♦ joins
    10♠ 10♣ 10♥: both halves continue the JK's group (one card each), so the JK is freed and
    becomes A♠ with Q♠ K♠."""
    before = "8D JK1 10D | 10S 10C 10H"
    after = "7D 8D 9D | 10S 10C 10H 10D | QS KS JK1"
    out = move(before, NINE_OF_DIAMONDS, after, {"JK#1": "AS"}, "7D 9D QS KS", TAHITI)
    assert out.names == (("JK#1", "AS"),)


def test_a_tahiti_joker_group_cannot_be_split_even_keeping_the_joker_valid() -> None:
    """RM-TAH-8, RM-AMB-25: 7♦ 8♦ JK(9♦) 10♦ J♦ split into 6♦ 7♦ 8♦ and JK(9♦) 10♦ J♦."""
    before = "7D 8D JK1 10D JD"
    got = refused(before, NINE_OF_DIAMONDS, "6D 7D 8D | JK1 10D JD", {}, "6D", TAHITI)
    assert got == ("frozen_group_split", "RM-TAH-8", 1)


def test_a_tahiti_joker_not_freed_keeps_its_identity_in_place() -> None:
    """RM-TAH-7, RM-TAH-9, RM-JOKER-3: 9♠ 9♣ JK(9♦) with the JK renamed 9♥ (a run from the
    hand added)."""
    got = refused(
        "9S 9C JK1", NINE_OF_DIAMONDS, "9S 9C JK1 | 2H 3H 4H", {"JK#1": "9H"}, "2H 3H 4H", TAHITI
    )
    assert got == ("joker_not_freed", "RM-TAH-9", 0)


def test_a_second_joker_in_a_tahiti_group_is_refused() -> None:
    """RM-TAH-7: JK(9♦) lies in 8♦ JK 10♦; a hand joker added as J♦ makes two."""
    got = refused(EX21_BEFORE, NINE_OF_DIAMONDS, "8D JK1 10D JK2", {"JK#2": "JD"}, "JK2", TAHITI)
    assert got == ("too_many_jokers", "RM-TAH-7", 0)
    unnamed = refused(EX21_BEFORE, NINE_OF_DIAMONDS, "JK2 8D JK1 10D", {}, "JK2", TAHITI)
    assert unnamed == ("too_many_jokers", "RM-TAH-7", 0)


# RM-EX-22: Tahiti singletons

SINGLETONS = "3C | 9H | KS | KD"


def test_tahiti_singletons_form_a_set_with_a_hand_card_and_the_rest_stay_alone() -> None:
    """RM-EX-22, RM-TAH-3, RM-AMB-24: 3♣ 9♥ K♠ K♦ lie alone; K♥ from the hand forms
    K♠ K♦ K♥; 3♣ and 9♥ stay alone."""
    out = move(SINGLETONS, {}, "3C | 9H | KS KD KH", {}, "KH", TAHITI)
    assert out.groups[:2] == (None, None)
    assert out.groups[2] is not None
    assert out.groups[2].kind == "set"
    assert out.added == ("KH#1",)


def test_a_singleton_joker_is_named_when_first_used() -> None:
    """RM-TAH-3, RM-AMB-24, RM-JOKER-2: a joker dealt as a singleton has no identity;
    used in 5♣ JK 7♣ it can only be 6♣; left alone it stands for nothing."""
    out = move("JK1 | 5C | 9H", {}, "JK1 | 5C 6C 7C | 9H", {}, "6C 7C", TAHITI)
    assert out.names == ()
    used = move("JK1 | 5C | 9H", {}, "5C JK1 7C | 9H", {}, "7C", TAHITI)
    assert used.names == (("JK#1", "6C"),)
