"""The refusals of the rummy move check (engine/rummy/moves.py) in the words a player reads:
the group at fault counted from 1, the cards that could stay beside a Vatican joker, the
identities an unnamed joker could take, and the card that may not join a frozen group.

Written against the survivors of mutation testing (scripts/mutate.sh, docs/testing.md):
the tests before pinned these refusals' codes, rules and groups, not their sentences; nor
a joker's identities under an ace rule other than Carousel's, a two-card group with a
joker, or a group taken off the table whole with its joker.

Rules: RM-VAT-4, RM-AMB-10, RM-TAH-8, RM-AMB-25, RM-JOKER-1, RM-JOKER-2, RM-AMB-8,
RM-CAR-7, RM-AMB-9, RM-GRP-2, RM-GRP-4, RM-ACE-1, RM-ACE-2, RM-ACE-4, RM-MOVE-3,
RM-JOKER-4, RM-TAH-9, RM-TAH-10, RM-TAH-2, RM-TAH-3, RM-TAH-7, RM-CORE-2, RM-MOVE-5,
RM-JOKER-3, RM-JOKER-5, RM-CAR-6, RM-VAT-5.
"""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.rummy.groups import TableViolation
from engine.rummy.moves import check_move
from engine.rummy.variants import CAROUSEL, MANIPULATION, TAHITI, VATICAN, Variant
from tests.unit.test_rummy_moves import cards as mcards
from tests.unit.test_rummy_moves import move
from tests.unit.test_rummy_moves import table as mtable

Names = dict[str, str]
SIX_OF_CLUBS = {"JK#1": "6C"}
NINE_OF_DIAMONDS = {"JK#1": "9D"}


def _refusal(
    before: str, before_names: Names, after: str, after_names: Names, hand: str, variant: Variant
) -> tuple[str, str, str, int | None]:
    with pytest.raises(TableViolation) as caught:
        move(before, before_names, after, after_names, hand, variant)
    e = caught.value
    return e.code, e.rule_id, e.message, e.group


# --- Vatican: a joker keeps a former neighbour (RM-VAT-4, RM-AMB-10) -----------------------


def test_a_vatican_joker_at_the_end_of_its_run_names_its_one_neighbour() -> None:
    """RM-EX-19, RM-VAT-4: JK(6♣) ends 3♣ 4♣ 5♣ JK; moved into the set, it has left its
    one neighbour, 5♣, which the refusal names (group 2, counted from 1)."""
    assert _refusal(
        "3C 4C 5C JK1 | 6S 6D 6H", SIX_OF_CLUBS, "2C 3C 4C 5C | 6S 6D 6H JK1", {}, "2C", VATICAN
    ) == (
        "joker_left_its_group",
        "RM-VAT-4",
        "group 2: JK#1 cannot leave its group until its real card takes its place; "
        "keep one of 5C#1 beside it",
        1,
    )


@pytest.mark.parametrize("before", ["3C 4C 5C JK1 7C 8C 9C", "2C 3C 4C 5C JK1 7C 8C 9C"])
def test_a_vatican_joker_inside_its_run_names_both_its_neighbours_only(before: str) -> None:
    """RM-VAT-4, RM-AMB-10: a run neighbour is the card right beside the joker, on either
    side: 5♣ and 7♣, not 4♣ or 8♣, however long the run."""
    after = before.replace(" JK1 ", " | ") + " | 6S 6D JK1"
    assert _refusal(before, SIX_OF_CLUBS, after, {}, "6S 6D", VATICAN) == (
        "joker_left_its_group",
        "RM-VAT-4",
        "group 3: JK#1 cannot leave its group until its real card takes its place; "
        "keep one of 5C#1, 7C#1 beside it",
        2,
    )


def test_a_before_table_the_rules_never_accepted_is_an_input_error() -> None:
    """RM-JOKER-1, RM-VAT-4: to find a Vatican joker's neighbours its group before the move
    is read; a group that is no set or run there (3♣ 4♣ JK named 9♥) is refused as a bad
    table given to the check, with the group check's sentence, and blames no group."""
    assert _refusal(
        "3C 4C JK1 | 7S 7H 7D", {"JK#1": "9H"}, "3C 4C 5C | JK1 7S 7H 7D", {}, "5C", VATICAN
    ) == (
        "bad_before_table",
        "",
        "a group is a set (one rank) or a run (one suit); these cards mix ranks and suits",
        None,
    )


# --- Tahiti: a joker's group is frozen (RM-TAH-8, RM-AMB-25) -------------------------------


def test_a_card_leaving_a_frozen_tahiti_group_is_named() -> None:
    """RM-EX-21, RM-TAH-8: 10♦ leaves 8♦ JK(9♦) 10♦; the refusal names it and the joker."""
    assert _refusal(
        "8D JK1 10D | 10S 10C 10H",
        NINE_OF_DIAMONDS,
        "7D 8D JK1 | 10S 10C 10H 10D",
        {},
        "7D",
        TAHITI,
    ) == (
        "frozen_group_split",
        "RM-TAH-8",
        "10D#1 cannot leave the group of JK#1 until the real card frees it",
        0,
    )


def test_a_table_card_joining_a_frozen_tahiti_group_is_named_with_its_group() -> None:
    """RM-TAH-8, RM-AMB-25: 10♥ moves from the set into the joker's run, the second group:
    only cards from the hand may join it."""
    assert _refusal(
        "10S 10C 10H | 8D JK1 10D",
        NINE_OF_DIAMONDS,
        "10S 10C | 8D JK1 10D 10H",
        {},
        "",
        TAHITI,
    ) == (
        "frozen_group_table_card",
        "RM-TAH-8",
        "group 2: only cards from the hand may join the group of JK#1; 10H#1 was on the table",
        1,
    )


# --- an unnamed joker from the hand (RM-JOKER-1, RM-JOKER-2, RM-AMB-8) ---------------------


@pytest.mark.parametrize(
    ("after", "who", "group"),
    [
        ("9C 10D JK1", "JK#1", 1),
        ("9C 10D JK1 JK2", "JK#1, JK#2", 1),
        ("7D 8D 9D | 2S 3S 4S | 9C 10D JK1", "JK#1", 3),
    ],
)
def test_jokers_no_identity_can_fit_are_named_with_their_group(
    after: str, who: str, group: int
) -> None:
    """RM-JOKER-1, RM-GRP-1: 9♣ 10♦ and jokers are no set and no run whatever they stand
    for; the refusal names the jokers and the group, counted from 1."""
    before = "7D 8D 9D | 2S 3S 4S" if group == 3 else ""
    hand = after.rsplit("|", maxsplit=1)[-1].strip()
    assert _refusal(before, {}, after, {}, hand, CAROUSEL) == (
        "no_identity_fits",
        "RM-JOKER-1",
        f"group {group}: no card {who} could stand for makes a set or a run",
        group - 1,
    )


@pytest.mark.parametrize(
    ("group", "shown"),
    [
        ("7S 7H JK1", "JK#1: it could stand for 7C or 7D"),
        ("7S 7H JK1 JK2", "JK#1, JK#2: it could stand for 7C and 7D (in either order)"),
        (
            "9C 10C JK1 JK2",
            "JK#1, JK#2: it could stand for 7C and 8C or 8C and JC or JC and QC (in either order)",
        ),
        (
            "9C JK1 JK2",
            "JK#1, JK#2: it could stand for 9D and 9H or 9D and 9S or 9H and 9S, among others"
            " (in either order)",
        ),
    ],
)
def test_an_unnamed_joker_is_shown_what_it_could_stand_for(group: str, shown: str) -> None:
    """RM-JOKER-2, RM-AMB-8, RM-CAR-7: a joker with more than one fitting identity must be
    named; the refusal lists up to three of them ("or" between them, "and" between the
    jokers of one), says when there are more, and that two jokers may swap."""
    assert _refusal("", {}, group, {}, group, CAROUSEL) == (
        "joker_unnamed",
        "RM-JOKER-2",
        f"group 1: name {shown}",
        0,
    )


@pytest.mark.parametrize("group", ["7S JK1", "7S 7S#2 JK1"])
def test_no_identity_fits_a_joker_in_a_group_too_short_or_with_twin_cards(group: str) -> None:
    """RM-GRP-2, RM-GRP-4, RM-JOKER-1: a group of two cards, or one holding both copies of
    a card, is no set and no run whatever the joker stands for."""
    assert _refusal("", {}, group, {}, group, CAROUSEL) == (
        "no_identity_fits",
        "RM-JOKER-1",
        "group 1: no card JK#1 could stand for makes a set or a run",
        0,
    )


# The variants are data (engine/rummy/variants.py): the joker's identities follow the
# variant's ace rule, whatever variant holds jokers.
_ACE_HIGH = replace(CAROUSEL, ace="high", ace_rule_id="RM-ACE-1")
_ACE_LOW = replace(CAROUSEL, ace="low", ace_rule_id="RM-ACE-2")


@pytest.mark.parametrize(
    ("variant", "group", "name"),
    [(_ACE_HIGH, "JK1 2H 3H", "4H"), (_ACE_LOW, "QH KH JK1", "JH")],
)
def test_a_joker_is_never_read_as_an_ace_on_the_side_the_ace_rule_forbids(
    variant: Variant, group: str, name: str
) -> None:
    """RM-ACE-1, RM-ACE-2, RM-JOKER-2, RM-AMB-8: with the ace only above the king, JK 2♥ 3♥
    can only be 4♥; with the ace only below the 2, Q♥ K♥ JK only J♥: one fit, so the joker
    is named by the check (in Carousel, RM-ACE-4, both would fit and it must be named)."""
    assert move("", {}, group, {}, group, variant).names == (("JK#1", name),)
    with pytest.raises(TableViolation) as caught:
        move("", {}, group, {}, group, CAROUSEL)
    assert caught.value.code == "joker_unnamed"


def test_a_group_taken_off_the_table_whole_is_a_removed_card_not_a_freed_joker() -> None:
    """RM-MOVE-3, RM-JOKER-4: a joker is freed only by its real card joining what is left
    of its group; a group that leaves the table with its joker frees nothing: the refusal
    is the cards missing from the table."""
    code, rule, message, group = _refusal(
        "3C 4C JK1 | 7S 7H 7D", {"JK#1": "5C"}, "7S 7H 7D 7C", {}, "7C", CAROUSEL
    )
    assert (code, rule, group) == ("table_card_removed", "RM-MOVE-3", None)
    assert message == "every card on the table must stay on it; missing 3C#1, 4C#1, JK#1"


def test_a_tahiti_joker_is_freed_by_the_second_copy_from_the_hand() -> None:
    """RM-TAH-9, RM-TAH-10, RM-JOKER-4: the first 9♦ already lies on the table (it cannot
    free the joker: not from the hand); the second 9♦, from the hand, takes JK(9♦)'s place
    and frees it, so the joker may be named anew (J♦, at the run's end)."""
    out = move(
        "8D JK1 10D | 9D 9S 9C",
        NINE_OF_DIAMONDS,
        "8D 9D#2 10D JK1 | 9D 9S 9C",
        {"JK#1": "JD"},
        "9D#2",
        TAHITI,
    )
    assert (out.names, out.added) == ((("JK#1", "JD"),), ("9D#2",))


def test_a_tahiti_joker_split_in_halves_is_freed_by_the_hand_copy_in_either_half() -> None:
    """RM-TAH-9, RM-JOKER-4, RM-AMB-7: 7♦ 8♦ JK(9♦) 10♦ J♦ is split in two halves that
    both continue it; the 9♦ moved from the set into the first half is a table card and
    frees nothing, the second 9♦, from the hand, in the other half frees the joker, which
    is named anew (Q♦). Without that hand card the joker stays 9♦."""
    before = "7D 8D JK1 10D JD | 9D 9S 9C 9H"
    freed = move(
        before,
        NINE_OF_DIAMONDS,
        "7D 8D 9D | 9D#2 10D JD JK1 | 9S 9C 9H",
        {"JK#1": "QD"},
        "9D#2",
        TAHITI,
    )
    assert freed.names == (("JK#1", "QD"),)
    assert _refusal(
        before, NINE_OF_DIAMONDS, "7D 8D 9D | 10D JD JK1 | 9S 9C 9H", {"JK#1": "QD"}, "", TAHITI
    )[:2] == ("joker_not_freed", "RM-TAH-9")


def test_an_untouched_tahiti_singleton_joker_needs_no_name() -> None:
    """RM-TAH-2, RM-TAH-3: a singleton joker left alone where it was dealt stands for
    nothing and needs no name while a run is laid beside it."""
    out = move("JK1 | 7D | 2C | KS", {}, "JK1 | 7D | 2C | KS | 3H 4H 5H", {}, "3H 4H 5H", TAHITI)
    assert out.names == ()
    assert out.groups[:4] == (None, None, None, None)
    assert out.added == ("3H#1", "4H#1", "5H#1")


def test_a_joker_from_the_hand_laid_alone_is_no_group() -> None:
    """RM-GRP-2, RM-JOKER-1, RM-TAH-3: only the dealt singletons lie alone; a joker from
    the hand laid alone beside them makes no set or run whatever it stands for."""
    assert _refusal("2C | 7D | 9S | KS", {}, "2C | 7D | 9S | KS | JK1", {}, "JK1", TAHITI) == (
        "no_identity_fits",
        "RM-JOKER-1",
        "group 5: no card JK#1 could stand for makes a set or a run",
        4,
    )


def test_a_dealt_singleton_joker_moved_into_a_group_of_two_is_no_group() -> None:
    """RM-TAH-3, RM-GRP-2, RM-JOKER-1: once the singleton joker joins another card it is
    no longer alone and must make a set or a run: two cards make neither."""
    assert _refusal("JK1 | 7D | 2C | KS", {}, "7D | 2C | KS | JK1 9H", {}, "9H", TAHITI) == (
        "no_identity_fits",
        "RM-JOKER-1",
        "group 4: no card JK#1 could stand for makes a set or a run",
        3,
    )


@pytest.mark.parametrize(
    ("after", "variant", "code", "rule", "group"),
    [
        ("7S 7H JK1 JK2", TAHITI, "too_many_jokers", "RM-TAH-7", 1),
        ("7S 7H 7D JK3 | 9C 10C JK1 JK2", TAHITI, "too_many_jokers", "RM-TAH-7", 2),
        ("9C 10C JK1", MANIPULATION, "no_jokers", "RM-CORE-2", 1),
    ],
)
def test_a_group_with_more_jokers_than_the_variant_allows_is_named(
    after: str, variant: Variant, code: str, rule: str, group: int
) -> None:
    """RM-TAH-7 (one joker a group), RM-CORE-2 (no jokers in Manipulation): the refusal
    names the group, counted from 1, and the limit; a group before it whose joker has
    one fitting identity (7♠ 7♥ 7♦ JK = 7♣) is not the one refused."""
    hand = after.replace("|", " ")
    limit = variant.jokers_per_group
    assert _refusal("", {}, after, {}, hand, variant) == (
        code,
        rule,
        f"group {group}: this variant allows at most {limit} joker(s) a group",
        group - 1,
    )


def test_a_card_no_deck_holds_is_refused_in_its_group_not_a_joker_before_it() -> None:
    """RM-CORE-2, RM-JOKER-2: 'QQ#1' in the second group is refused there; the joker of
    the first group (7♠ 7♥ 7♦ JK, only 7♣) is named by the check, not blamed."""
    after = "7S 7H 7D JK2 | 9C QQ#1 JK1"
    assert _refusal("", {}, after, {}, after.replace("|", " "), CAROUSEL) == (
        "bad_card",
        "",
        "group 2: 'QQ#1' is not a card of a rummy deck",
        1,
    )


SIX_OF_HEARTS = {"JK#1": "6H"}


def test_a_card_laid_twice_is_refused_before_any_joker_fault() -> None:
    """RM-MOVE-5 (the module's order of checks): 9♣ twice and the table's JK(6♥) renamed:
    the card lying twice is the fault the player sees first."""
    assert _refusal(
        "3H 4H 5H JK1 | 9C 9D 9S",
        SIX_OF_HEARTS,
        "3H 4H 5H JK1 | 9C 9D 9S 9C",
        {"JK#1": "2H"},
        "",
        CAROUSEL,
    ) == ("duplicate_card", "RM-MOVE-5", "9C#1 lies twice on the table", 1)


def test_a_freed_joker_left_off_the_table_is_named() -> None:
    """RM-JOKER-5: the real 6♥ takes JK(6♥)'s place; the freed joker must go back into a
    group on the table with an identity, not disappear."""
    assert _refusal("3H 4H 5H JK1", SIX_OF_HEARTS, "3H 4H 5H 6H", {}, "6H", CAROUSEL) == (
        "freed_joker_off_table",
        "RM-JOKER-5",
        "JK#1 was freed: it must go into a group on the table with an identity",
        None,
    )


@pytest.mark.parametrize(
    ("joker", "variant", "rule", "real"),
    [
        ("JK1", CAROUSEL, "RM-CAR-6", "the real 6H"),
        ("JK2", CAROUSEL, "RM-CAR-6", "the real 6H"),
        ("JK1", TAHITI, "RM-TAH-9", "the real 6H from the hand"),
    ],
)
def test_a_table_joker_renamed_without_being_freed_says_what_frees_it(
    joker: str, variant: Variant, rule: str, real: str
) -> None:
    """RM-CAR-6, RM-TAH-9, RM-JOKER-3: JK(6♥) may not become 7♥ while 6♥ has not taken its
    place (in Tahiti a 6♥ from the hand), whichever joker it is (the second joker alone
    on the table too)."""
    card = f"JK#{joker[2:]}"
    assert _refusal(
        f"3H 4H 5H {joker}", {card: "6H"}, f"2H 3H 4H 5H {joker}", {card: "7H"}, "2H", variant
    ) == (
        "joker_not_freed",
        rule,
        f"{card} stands for 6H until {real} takes its place in its group; it cannot become 7H",
        0,
    )


def test_a_table_joker_without_a_name_is_named_in_the_input_error() -> None:
    """RM-JOKER-1: every joker lying in a group has a name; a before-table without one is
    refused naming the joker."""
    assert _refusal("3H 4H 5H JK1", {}, "2H 3H 4H 5H JK1", {}, "2H", CAROUSEL) == (
        "bad_before_table",
        "",
        "JK#1 lies on the table without a name",
        None,
    )


def test_a_move_is_not_a_first_play_unless_the_caller_says_so() -> None:
    """RM-VAT-5: only a seat's first play must be a natural run of three; check_move reads
    a move as a later one by default (the bot asks it so), and a set is then accepted."""
    out = check_move(
        mtable("3H 4H 5H"), {}, mtable("3H 4H 5H | 7S 7D 7C"), {}, mcards("7S 7D 7C"), VATICAN
    )
    assert out.added == ("7S#1", "7D#1", "7C#1")
    with pytest.raises(TableViolation) as caught:
        check_move(
            mtable("3H 4H 5H"),
            {},
            mtable("3H 4H 5H | 7S 7D 7C"),
            {},
            mcards("7S 7D 7C"),
            VATICAN,
            first_play=True,
        )
    assert caught.value.rule_id == "RM-VAT-5"


def test_a_card_not_in_the_hand_is_the_fault_even_beside_an_unnamed_joker() -> None:
    """RM-MOVE-5, RM-JOKER-2: 9♣ 10♣ JK with 10♣ not in the mover's hand: the refusal is
    the card from nowhere, not the joker's missing name (8♣ or J♣)."""
    assert _refusal("", {}, "9C 10C JK1", {}, "9C JK1", CAROUSEL) == (
        "not_in_hand",
        "RM-MOVE-5",
        "10C#1 is not in the mover's hand",
        0,
    )


@pytest.mark.parametrize(
    ("after_names", "code", "message"),
    [
        (
            {"7H#1": "8H"},
            "named_card_not_a_joker",
            "7H#1 is given the name '8H', but it is not a joker on the table",
        ),
        ({"JK#1": "ZZ"}, "bad_card", "JK#1 named 'ZZ': not a card"),
    ],
)
def test_a_name_goes_to_a_joker_and_names_a_card(
    after_names: Names, code: str, message: str
) -> None:
    """RM-JOKER-1: only a joker on the table is named, and as a real card."""
    after = "7H 8H JK1" if "JK#1" in after_names else "7H 8H 9H"
    assert _refusal("", {}, after, after_names, after, CAROUSEL) == (
        code,
        "RM-JOKER-1",
        message,
        0,
    )


@pytest.mark.parametrize("variant", [CAROUSEL, TAHITI])
def test_a_joker_completing_a_thirteen_card_run_is_named_for_its_one_fit(variant: Variant) -> None:
    """RM-AMB-8, RM-AMB-6: A♣ … Q♣ and an unnamed joker make a run only with the joker as
    K♣ (a run has at most 13 cards; with the ace low or high the joker is K♣ either way),
    so the one identity that fits is filled in."""
    run = "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC JK1"
    checked = move("", {}, run, {}, run, variant)
    assert dict(checked.names) == {"JK#1": "KC"}
