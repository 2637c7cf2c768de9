"""Rummy groups and rebuilt tables: sets, runs, the ace of each variant, jokers named as
cards, and the partition check of a submitted table (rules/rummy.md §2, §11).

Rules: RM-GRP-1..5, RM-ACE-1..4, RM-MOVE-1, RM-MOVE-2, RM-MOVE-3, RM-MOVE-5, RM-JOKER-1,
RM-JOKER-2, RM-CORE-2, RM-CAR-1, RM-CAR-7, RM-VAT-5, RM-TAH-3, RM-TAH-7, RM-AMB-6,
RM-AMB-9, RM-AMB-11, RM-AMB-24, RM-EX-1, RM-EX-2, RM-EX-3, RM-EX-17, RM-EX-18, RM-EX-21,
RM-EX-22.
"""

from __future__ import annotations

import pytest

from engine.errors import RuleViolation
from engine.rummy import VARIANTS, TableViolation, check_group, check_table, deck
from engine.rummy.variants import CAROUSEL, MANIPULATION, SHANGHAI, TAHITI, VATICAN, Variant

ALL = tuple(VARIANTS)
HIGH_OR_LOW = ("machiavelli", "guadeloupe", "tahiti", "carousel", "vatican")


def ids(text: str) -> list[str]:
    """Faces to identities: the first 7H is 7H#1, a second 7H#2; 'JK' counts up too."""
    seen: dict[str, int] = {}
    out = []
    for f in text.split():
        seen[f] = seen.get(f, 0) + 1
        out.append(f"{f}#{seen[f]}")
    return out


def refused(text: str, variant: Variant, named: dict[str, str] | None = None) -> tuple[str, str]:
    with pytest.raises(RuleViolation) as e:
        check_group(ids(text), variant, named)
    return e.value.code, e.value.rule_id


def test_the_decks_hold_104_53_106_and_108_cards_once_each() -> None:
    """RM-CORE-2, RM-MAN-1, RM-CAR-1, RM-VAT-1, RM-TAH-1."""
    assert len(set(deck(MANIPULATION, 4))) == 104
    assert len(set(deck(CAROUSEL, 2))) == 53
    assert len(set(deck(CAROUSEL, 3))) == 106
    assert len(set(deck(VATICAN, 2))) == 106
    assert len(set(deck(TAHITI, 5))) == 108
    assert deck(CAROUSEL, 2)[-1] == "JK#1"


@pytest.mark.parametrize("name", ALL)
def test_a_set_is_three_or_four_of_one_rank_in_different_suits(name: str) -> None:
    """RM-GRP-2, RM-EX-2: 7♠ 7♥ 7♦ and 7♠ 7♥ 7♦ 7♣ are sets; a second 7♠ or two cards are not."""
    v = VARIANTS[name]
    assert check_group(ids("7S 7H 7D"), v).kind == "set"
    four = check_group(ids("7S 7H 7D 7C"), v)
    assert four.kind == "set"
    assert four.faces == ("7C", "7D", "7H", "7S")
    assert refused("7S 7S 7H", v) == ("identical_cards", "RM-GRP-4")
    assert refused("7S 7H", v) == ("group_too_short", "RM-GRP-2")


@pytest.mark.parametrize("name", ALL)
def test_a_run_is_three_or_more_of_one_suit_in_sequence(name: str) -> None:
    """RM-GRP-3, RM-EX-2: 5♥ 6♥ 7♥ is a run; a gap or a mixed suit is not a group."""
    v = VARIANTS[name]
    run = check_group(ids("7H 5H 6H"), v)
    assert run.kind == "run"
    assert run.faces == ("5H", "6H", "7H")
    assert refused("5H 6H 8H", v) == ("run_gap", "RM-GRP-3")
    assert refused("5H 6D 7H", v) == ("not_a_group", "RM-GRP-1")
    assert refused("5H 6H", v) == ("group_too_short", "RM-GRP-3")


def test_two_identical_cards_never_share_a_run() -> None:
    """RM-GRP-4: 5♥ 6♥ 6♥ 7♥ holds both copies of 6♥."""
    assert refused("5H 6H 6H 7H", MANIPULATION) == ("identical_cards", "RM-GRP-4")


@pytest.mark.parametrize("name", ALL)
def test_queen_king_ace_is_a_run_wherever_the_ace_may_be_high(name: str) -> None:
    """RM-EX-1, RM-ACE-1..4: Q-K-A is refused only in Shanghai (ace low only)."""
    v = VARIANTS[name]
    if name == "shanghai":
        assert refused("QS KS AS", v) == ("ace_misplaced", "RM-ACE-2")
    else:
        assert check_group(ids("AS QS KS"), v).faces == ("QS", "KS", "AS")


@pytest.mark.parametrize("name", ALL)
def test_ace_two_three_is_a_run_wherever_the_ace_may_be_low(name: str) -> None:
    """RM-EX-1, RM-ACE-1..4: A-2-3 is refused only in Manipulation (ace high only)."""
    v = VARIANTS[name]
    if name == "manipulation":
        assert refused("AS 2S 3S", v) == ("ace_misplaced", "RM-ACE-1")
    else:
        assert check_group(ids("3S AS 2S"), v).faces == ("AS", "2S", "3S")


@pytest.mark.parametrize("name", ALL)
def test_a_run_never_turns_the_corner(name: str) -> None:
    """RM-EX-1, RM-ACE-3, RM-ACE-4: K-A-2 is refused in every variant."""
    v = VARIANTS[name]
    assert refused("KD AD 2D", v) == ("ace_round_the_corner", v.ace_rule_id)
    assert refused("QD KD AD 2D 3D", v)[0] == "ace_round_the_corner"


@pytest.mark.parametrize("name", ALL)
def test_no_run_holds_fourteen_cards(name: str) -> None:
    """RM-EX-1, RM-AMB-6: A♥ 2♥ … K♥ A♥ is refused; A♥ … K♥ (13 cards) is a run where
    the ace may be low."""
    v = VARIANTS[name]
    thirteen = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    assert refused(thirteen + " AH", v)[0] in ("identical_cards", "run_too_long")
    if name == "manipulation":
        assert check_group(ids("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"), v).kind == "run"
    else:
        assert check_group(ids(thirteen), v).kind == "run"


def test_an_ace_low_and_an_ace_high_make_no_run_in_high_or_low_variants() -> None:
    """RM-ACE-3, RM-AMB-6: the two aces of one suit are identical cards (RM-GRP-4)."""
    for name in HIGH_OR_LOW:
        assert refused("AC 2C 3C QC KC AC", VARIANTS[name])[0] == "identical_cards"


def test_a_joker_counts_as_the_card_it_is_named() -> None:
    """RM-GRP-5, RM-JOKER-1, RM-CAR-7, RM-AMB-9, RM-EX-17: 6♠ 6♦ 6♣ JK(6♥) is a set and
    9♣ 10♣ JK(J♣) a run; two jokers in one Carousel group, each its own card."""
    assert check_group(ids("6S 6D 6C JK"), CAROUSEL, {"JK#1": "6H"}).faces == (
        "6C",
        "6D",
        "6H",
        "6S",
    )
    run = check_group(ids("9C 10C JK"), CAROUSEL, {"JK#1": "JC"})
    assert (run.kind, run.cards) == ("run", ("9C#1", "10C#1", "JK#1"))
    two = check_group(ids("9C JK JK"), VATICAN, {"JK#1": "JC", "JK#2": "10C"})
    assert two.faces == ("9C", "10C", "JC")


def test_a_joker_must_be_named_and_fit() -> None:
    """RM-JOKER-2, RM-GRP-4: an unnamed joker is refused; a joker named as a card of its
    own group is an identical card; named where it leaves a gap it is refused."""
    assert refused("9C 10C JK", CAROUSEL) == ("joker_unnamed", "RM-JOKER-2")
    assert refused("9C 10C JK", CAROUSEL, {"JK#1": "9C"}) == ("identical_cards", "RM-GRP-4")
    assert refused("9C 10C JK", CAROUSEL, {"JK#1": "QC"}) == ("run_gap", "RM-GRP-3")
    assert refused("9C 10C JK", CAROUSEL, {"JK#1": "JK"})[0] == "bad_card"


def test_jokers_only_where_the_variant_has_them_and_one_a_group_in_tahiti() -> None:
    """RM-CORE-2, RM-TAH-7: no joker in Manipulation; in Tahiti a group holds one joker."""
    assert refused("9C 10C JK", MANIPULATION, {"JK#1": "JC"}) == ("no_jokers", "RM-CORE-2")
    assert check_group(ids("8D JK 10D"), TAHITI, {"JK#1": "9D"}).kind == "run"
    named = {"JK#1": "9D", "JK#2": "JD"}
    assert refused("8D JK 10D JK", TAHITI, named) == ("too_many_jokers", "RM-TAH-7")


def test_a_card_outside_the_rummy_decks_is_refused() -> None:
    assert refused("9C 10C 11C", MANIPULATION)[0] == "bad_card"
    with pytest.raises(RuleViolation):
        check_group(["9C#3", "10C#1", "JC#1"], MANIPULATION)
    with pytest.raises(RuleViolation):
        check_group(["9C#1", "10C#1", "10C#1"], MANIPULATION)


def table_refusal(
    groups: list[str], before: list[str], hand: str, v: Variant = MANIPULATION, **kw: object
) -> TableViolation:
    with pytest.raises(TableViolation) as e:
        check_table(
            [ids(g) for g in groups],
            [ids(g) for g in before],
            ids(hand),
            v,
            **kw,  # type: ignore[arg-type]
        )
    return e.value


def test_a_run_split_into_a_set_with_two_hand_cards_is_accepted() -> None:
    """RM-EX-3, RM-MOVE-1, RM-MOVE-5: 4♠ 5♠ 6♠ 7♠ + 7♥ 7♦ → 4♠ 5♠ 6♠ | 7♠ 7♥ 7♦."""
    out = check_table(
        [ids("4S 5S 6S"), ids("7S 7H 7D")], [ids("4S 5S 6S 7S")], ids("7H 7D KC"), MANIPULATION
    )
    assert [g.kind for g in out if g] == ["run", "set"]


def test_a_table_card_taken_back_to_the_hand_is_refused() -> None:
    """RM-EX-3, RM-MOVE-3: the same move, with 7♠ returned to the hand."""
    e = table_refusal(["4S 5S 6S", "7H 7D KC"], ["4S 5S 6S 7S"], "7H 7D KC")
    assert (e.code, e.rule_id, e.group) == ("table_card_removed", "RM-MOVE-3", None)
    assert "7S#1" in e.message


def test_a_rearrangement_that_adds_no_hand_card_is_refused() -> None:
    """RM-EX-3, RM-MOVE-1: 4♠ 5♠ 6♠ 7♠ | 7♥ 7♦ 7♣ rebuilt without a hand card."""
    e = table_refusal(["4S 5S 6S", "7S 7H 7D 7C"], ["4S 5S 6S 7S", "7H 7D 7C"], "KC")
    assert (e.code, e.rule_id) == ("no_card_added", "RM-MOVE-1")


def test_a_rejection_names_the_wrong_group_and_why() -> None:
    """RM-MOVE-2, RM-MOVE-5: the second group has a gap; its index is given."""
    e = table_refusal(["4S 5S 6S 7S", "7H 8H 10H"], ["4S 5S 6S 7S"], "7H 8H 10H")
    assert (e.code, e.rule_id, e.group) == ("run_gap", "RM-GRP-3", 1)
    assert e.message.startswith("group 2:")
    assert e.as_dict()["group"] == "1"


def test_a_card_not_in_the_hand_or_twice_on_the_table_is_refused() -> None:
    """RM-MOVE-5: added cards come from the hand, and no card lies twice."""
    e = table_refusal(["4S 5S 6S 7S 8S"], ["4S 5S 6S 7S"], "9S")
    assert (e.code, e.group) == ("not_in_hand", 0)
    with pytest.raises(TableViolation) as twice:
        check_table([ids("4S 5S 6S"), ids("4S 5S 6S")], [], ids("4S 5S 6S"), MANIPULATION)
    assert (twice.value.code, twice.value.group) == ("duplicate_card", 1)


def test_carousel_joker_moved_with_its_identity_and_its_group_extended() -> None:
    """RM-EX-17, RM-CAR-5: 3♥ 4♥ 5♥ JK(6♥) | 6♠ 6♦ 6♣ + 2♥ → 2♥ 3♥ 4♥ 5♥ | 6♠ 6♦ 6♣ JK(6♥)."""
    named = {"JK#1": "6H"}
    out = check_table(
        [ids("2H 3H 4H 5H"), ids("6S 6D 6C JK")],
        [ids("3H 4H 5H JK"), ids("6S 6D 6C")],
        ids("2H 9C 10C 6H"),
        CAROUSEL,
        named=named,
    )
    assert out[1] is not None
    assert out[1].faces[2] == "6H"


def test_a_freed_joker_left_off_the_table_is_refused() -> None:
    """RM-EX-17, RM-JOKER-5, RM-MOVE-3: 6♥ from hand replaces the joker, which is dropped."""
    e = table_refusal(
        ["3H 4H 5H 6H", "6S 6D 6C"],
        ["3H 4H 5H JK", "6S 6D 6C"],
        "2H 9C 10C 6H",
        CAROUSEL,
        named={"JK#1": "6H"},
    )
    assert (e.code, e.rule_id) == ("table_card_removed", "RM-MOVE-3")
    out = check_table(
        [ids("3H 4H 5H 6H"), ids("6S 6D 6C"), ids("9C 10C JK")],
        [ids("3H 4H 5H JK"), ids("6S 6D 6C")],
        ids("2H 9C 10C 6H"),
        CAROUSEL,
        named={"JK#1": "JC"},
    )
    assert out[2] is not None
    assert out[2].faces == ("9C", "10C", "JC")


def test_vatican_first_play_lays_a_natural_run_of_three_from_the_hand() -> None:
    """RM-EX-18, RM-VAT-5, RM-AMB-11: 5♥ 6♥ 7♥ and 5♥ 6♥ 7♥ JK(8♥) open; 5♥ JK 7♥ does not;
    nor does adding to the table's groups without such a run."""
    hand = "5H 6H 7H JK 9S"
    ok = check_table([ids("5H 6H 7H")], [], ids(hand), VATICAN, first_play=True)
    assert ok[0] is not None
    check_table([ids("5H 6H 7H JK")], [], ids(hand), VATICAN, named={"JK#1": "8H"}, first_play=True)
    e = table_refusal(["5H JK 7H"], [], hand, VATICAN, named={"JK#1": "6H"}, first_play=True)
    assert (e.code, e.rule_id) == ("first_play_needs_run", "RM-VAT-5")
    e = table_refusal(["9D 9C 9H 9S"], ["9D 9C 9H"], hand, VATICAN, first_play=True)
    assert e.code == "first_play_needs_run"
    check_table([ids("9D 9C 9H 9S")], [ids("9D 9C 9H")], ids(hand), VATICAN)


def test_tahiti_singletons_stay_alone_or_join_a_group_made_with_a_hand_card() -> None:
    """RM-EX-22, RM-TAH-3, RM-AMB-24: 3♣ 9♥ K♠ K♦ singletons; K♥ from hand forms K♠ K♦ K♥."""
    before = [["3C#1"], ["9H#1"], ["KS#1"], ["KD#1"]]
    out = check_table([["3C#1"], ["9H#1"], ["KS#1", "KD#1", "KH#1"]], before, ["KH#1"], TAHITI)
    assert out[:2] == (None, None)
    assert out[2] is not None
    assert out[2].kind == "set"


def test_a_lone_card_is_a_group_error_outside_tahiti_singletons() -> None:
    """RM-GRP-1, RM-TAH-3, RM-AMB-24: only an untouched Tahiti singleton may lie alone."""
    e = table_refusal(["KS", "KD KH KC"], ["KD KH KC"], "KS", SHANGHAI)
    assert (e.code, e.rule_id, e.group) == ("group_too_short", "RM-GRP-2", 0)
    used = table_refusal(["KS", "KD KH KC", "2D 3D 4D"], ["KS KD KH KC"], "2D 3D 4D", TAHITI)
    assert (used.code, used.group) == ("group_too_short", 0)
    with pytest.raises(TableViolation) as alone:
        check_table(
            [["KS#1"], ["QH#1", "KH#1", "AH#1"]], [], ["KS#1", "QH#1", "KH#1", "AH#1"], TAHITI
        )
    assert (alone.value.code, alone.value.group) == ("group_too_short", 0)


def test_a_tahiti_joker_group_extended_from_the_hand() -> None:
    """RM-EX-21, RM-TAH-7: 8♦ JK(9♦) 10♦ + J♦ from the hand is a valid group."""
    out = check_table(
        [ids("8D JK 10D JD")], [ids("8D JK 10D")], ids("JD"), TAHITI, named={"JK#1": "9D"}
    )
    assert out[0] is not None
    assert out[0].faces == ("8D", "9D", "10D", "JD")
