"""The pure parts of a seat's questions (issue 14): the seam's hints refusals, the staging
checks of Banakil and rummy (the engine's own validators, PF-STAGE-5, PF-AMB-22) and the
hand orders (PF-SORT-1..3)."""

from __future__ import annotations

import msgspec
import pytest

from engine import protocol
from engine.banakil.messages import Meld, Play
from engine.banakil.staging import Group, Stage
from engine.errors import RuleViolation
from engine.hand_order import HandOrder, arrange, check_manual
from engine.rummy.messages import Play as RummyPlay
from engine.rummy.staging import Stage as TableStage
from tests import support
from tests.unit import rummy_support

BANAKIL = protocol.get("banakil")
RUMMY = protocol.get("rummy")


def _refusal(call: object, *args: object) -> tuple[str, str, str]:
    with pytest.raises(RuleViolation) as caught:
        call(*args)  # type: ignore[operator]
    return caught.value.code, caught.value.rule_id, caught.value.message


# --- hints: which tables offer them (PF-HINT-1/2, PF-AMB-19, BK-AMB-30) -------------------


def test_sahrat_offers_hints_and_classic_refuses_them_by_bk_amb_30() -> None:
    assert BANAKIL.no_hints(support.table("sahrat")) is None
    refusal = BANAKIL.no_hints(support.table("classic"))
    assert refusal is not None
    assert (refusal.code, refusal.rule_id) == ("no_hints", "BK-AMB-30")


def test_rummy_hints_are_the_reminders_of_manipulation_and_shanghai_pf_hint_2() -> None:
    for variant in ("manipulation", "shanghai"):
        assert RUMMY.no_hints(rummy_support.playing(variant, ["4S", "5S"])) is None
        trusting = rummy_support.playing(variant, ["4S", "5S"], compulsory_play="trust_player")
        refusal = RUMMY.no_hints(trusting)
        assert refusal is not None and (refusal.code, refusal.rule_id) == ("no_hints", "RM-OPT-1")
    refusal = RUMMY.no_hints(rummy_support.playing("carousel", ["4S", "5S"]))
    assert refusal is not None and (refusal.code, refusal.rule_id) == ("no_hints", "PF-HINT-2")


def test_games_without_hints_or_staging_say_so_through_the_seam() -> None:
    assert protocol.get("bunco").hints is None and protocol.get("bunco").staging is None


# --- Banakil's staging area (PF-STAGE-2..5, PF-VAL-1) --------------------------------------


def test_a_staged_group_is_green_with_the_meld_it_would_lay_pf_stage_5() -> None:
    state = support.table("sahrat", hands=["5H JK 7H 9S 10S JS KD", "", "", ""])
    staged = BANAKIL.staging.check(state, 1, Stage(groups=(Group(cards=("5H", "JK", "7H")),)))  # type: ignore[union-attr]
    (verdict,) = staged.groups
    laid = BANAKIL.decide(state, 1, Meld(cards=("5H", "JK", "7H")))[0]
    assert verdict.ok and verdict.kind == laid.kind and verdict.cards == laid.cards


def test_a_red_group_has_the_very_refusal_laying_it_gets_pf_stage_5() -> None:
    state = support.table("sahrat", hands=["5H 8H 9C KD 3S 3D", "", "", ""])
    for cards in (("5H", "8H", "9C"), ("3S", "3D"), ("QS", "KS", "AS"), ("KD", "KD", "KD")):
        (verdict,) = BANAKIL.staging.check(state, 1, Stage(groups=(Group(cards=cards),))).groups  # type: ignore[union-attr]
        laying = _refusal(BANAKIL.decide, state, 1, Meld(cards=cards))
        assert not verdict.ok
        assert (verdict.code, verdict.rule_id, verdict.message) == laying


def test_staging_may_be_asked_outside_the_turn_and_before_the_draw_pf_stage_4() -> None:
    state = support.table("sahrat", hands=["", "9S 10S JS", "", ""], turn=1, drawn=False)
    (verdict,) = BANAKIL.staging.check(
        state, 2, Stage(groups=(Group(cards=("9S", "10S", "JS")),))
    ).groups  # type: ignore[union-attr]
    assert verdict.ok
    assert _refusal(BANAKIL.decide, state, 2, Meld(cards=("9S", "10S", "JS")))[0] == "not_your_turn"


def test_groups_are_read_as_meld_all_lays_them_a_card_once_pf_stage_2_6() -> None:
    """Two groups sharing a card: the second is red as the Play of both refuses it."""
    state = support.table("sahrat", hands=["9S 10S JS QS 3H", "", "", ""])
    groups = (("9S", "10S", "JS"), ("10S", "JS", "QS"), ("JS", "QS", "3H"))
    staged = BANAKIL.staging.check(  # type: ignore[union-attr]
        state, 1, Stage(groups=tuple(Group(cards=g) for g in groups))
    )
    assert [v.ok for v in staged.groups] == [True, False, False]
    both = Play(actions=(Meld(cards=groups[0]), Meld(cards=groups[1])))
    assert (staged.groups[1].code, staged.groups[1].rule_id, staged.groups[1].message) == (
        _refusal(BANAKIL.decide, state, 1, both)
    )
    assert state.hands[0] == support.table("sahrat", hands=["9S 10S JS QS 3H"]).hands[0]


def test_staging_bounds_its_input() -> None:
    decoder = msgspec.json.Decoder(Stage)
    with pytest.raises(msgspec.ValidationError):
        decoder.decode(msgspec.json.encode({"groups": [{"cards": ["AS"]}] * 13}))
    with pytest.raises(msgspec.ValidationError):
        decoder.decode(msgspec.json.encode({"groups": [{"cards": ["AS"] * 33}]}))
    with pytest.raises(msgspec.ValidationError):
        decoder.decode(b'{"groups": [{"cards": ["AS"]}], "colour": "green"}')


# --- rummy's private copy (RM-MOVE-4, PF-AMB-22) -------------------------------------------


def test_a_private_table_is_checked_by_the_move_check_of_play_rm_move_4() -> None:
    state = rummy_support.playing(
        "manipulation", ["7S 9H", "KD"], on_table="4S 5S 6S", compulsory_play="trust_player"
    )
    proposed = rummy_support.table("4S 5S 6S 7S")
    staged = RUMMY.staging.check(state, 1, TableStage(table=proposed))  # type: ignore[union-attr]
    assert staged.ok and staged.added == ("7S#1",)
    events = RUMMY.decide(state, 1, RummyPlay(table=proposed, added=staged.added))
    assert events[0].added == staged.added


def test_a_refused_private_table_has_the_code_rule_sentence_and_group_of_play() -> None:
    state = rummy_support.playing(
        "manipulation", ["7S 9H", "KD"], on_table="4S 5S 6S", compulsory_play="trust_player"
    )
    for text in ("4S 5S 6S 9H", "4S 5S|6S 7S", "4S 5S 6S 7S|9H", "4S 5S 6S"):
        proposed = rummy_support.table(text)
        staged = RUMMY.staging.check(state, 1, TableStage(table=proposed))  # type: ignore[union-attr]
        with pytest.raises(RuleViolation) as caught:
            RUMMY.decide(state, 1, RummyPlay(table=proposed, added=()))
        assert not staged.ok
        assert (staged.code, staged.rule_id, staged.message) == (
            caught.value.code,
            caught.value.rule_id,
            caught.value.message,
        )
        assert staged.group == getattr(caught.value, "group", None)


def test_nothing_is_staged_between_rounds() -> None:
    state = rummy_support.playing("manipulation", ["7S", "KD"])
    waiting = msgspec.structs.replace(state, phase="seeding")
    assert _refusal(RUMMY.staging.check, waiting, 1, TableStage(table=()))[:2] == (  # type: ignore[union-attr]
        "no_round",
        "PF-STAGE-5",
    )


# --- hand orders (PF-SORT-1..3) -----------------------------------------------------------

_HAND = ("KS#1", "7H#2", "JK#1", "AC#1", "7H#1", "10D#2", "2C#1")


def test_a_hand_sorts_by_suit_then_rank_and_by_rank_then_suit_pf_sort_1() -> None:
    assert arrange(_HAND, HandOrder(order="suit"), 1) == (
        "AC#1", "2C#1", "10D#2", "7H#1", "7H#2", "KS#1", "JK#1",
    )  # fmt: skip
    assert arrange(_HAND, HandOrder(order="rank"), 1) == (
        "AC#1", "2C#1", "7H#1", "7H#2", "10D#2", "KS#1", "JK#1",
    )  # fmt: skip
    assert arrange(_HAND, HandOrder(), 1) == _HAND


def test_a_manual_order_stays_and_cards_drawn_later_come_last_pf_sort_2() -> None:
    """PF-SORT-2: after a manual arrangement the hand is not re-sorted; cards that leave
    it drop out, cards drawn later come last, and a new deal shows the game's order."""
    mine = HandOrder(order="manual", cards=("JK#1", "2C#1", "KS#1", "AC#1"), unit=3)
    drawn = (*_HAND[1:], "3S#2", "QD#1")  # KS#1 left the hand, two cards came in
    assert arrange(drawn, mine, 3) == (
        "JK#1", "2C#1", "AC#1", "7H#2", "7H#1", "10D#2", "3S#2", "QD#1",
    )  # fmt: skip
    assert arrange(drawn, mine, 4) == drawn  # a new deal's hand: the game's order


def test_a_manual_order_names_cards_of_the_hand_once_pf_sort_1() -> None:
    check_manual(_HAND, ("JK#1", "AC#1"))
    assert _refusal(check_manual, _HAND, ("JK#1", "QH#1"))[:2] == ("card_not_in_hand", "PF-SORT-1")
    assert _refusal(check_manual, _HAND, ("7H",))[:2] == ("card_not_in_hand", "PF-SORT-1")
    assert _refusal(check_manual, _HAND, ("AC#1", "AC#1"))[:2] == ("card_twice", "PF-SORT-1")


def test_an_order_changes_no_game_state_pf_sort_3() -> None:
    """Arranging reads the hand and returns a new tuple: the state is the same bytes."""
    state = support.table("sahrat", hands=[" ".join(c.split("#")[0] for c in _HAND)])
    before = msgspec.json.encode(state)
    arrange(state.hands[0], HandOrder(order="suit"), 1)
    assert msgspec.json.encode(state) == before
