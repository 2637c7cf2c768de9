"""Team melds: add-ons, the partner condition, wild two relocation, the joker lock and
exchange, who owns each table card, and whole-command rejection.

Rules: BK-TEAM-1..4, BK-TEAM-C1, BK-TEAM-S1, BK-MELD-9, BK-MELD-10, BK-WILD-2, BK-WILD-4,
BK-WILD-C2, BK-WILD-C3, BK-WILD-S2, BK-JOKER-1..3, BK-JOKER-C1, BK-JOKER-C2, BK-JOKER-S1,
BK-EX-7, BK-EX-8, BK-EX-9, BK-EX-10, BK-EX-18, BK-AMB-9, BK-AMB-10, BK-AMB-11, BK-AMB-12,
BK-AMB-13, BK-AMB-16, BK-AMB-17, BK-AMB-32.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from msgspec.structs import replace

from engine import banakil
from engine.banakil.messages import (
    Discard,
    ExchangeJoker,
    LayOff,
    Meld,
    MeldLaid,
    MeldUpdated,
    MoveWild,
    Placed,
    Play,
)
from engine.banakil.scoring import deal_scores
from engine.banakil.state import State, TableMeld
from engine.cards import face
from tests.support import apply, meld, table, try_

BOTH = ("classic", "sahrat")


def run(spec: str, creator: int = 3, mid: int = 0) -> TableMeld:
    """A run of the creator's team; cards are placed by the creator unless `@seat`."""
    return meld(mid, (creator - 1) % 2 + 1, creator, "run", spec)


def group(spec: str, creator: int = 3, mid: int = 0) -> TableMeld:
    return meld(mid, (creator - 1) % 2 + 1, creator, "set", spec)


def deal(
    preset: str, hand: str, melds: Sequence[TableMeld], *, laid: bool = False, **kw: object
) -> State:
    """Seat 1 to act, drawn, holding `hand` plus a spare card (so the deal goes on).

    `laid`: seat 1 already laid a meld of his own earlier in this deal (BK-TEAM-S1)."""
    state = table(preset, hands=[f"{hand} KD", "QD", "QD", "QD"], melds=melds, **kw)  # type: ignore[arg-type]
    if laid:
        state = replace(state, laid=(True, False, False, False))
    return state


def spec(cards: Sequence[Placed]) -> str:
    """A meld low to high, a substitute written CARD=STANDS_FOR."""
    return " ".join(
        face(p.card) if p.stands_for == face(p.card) else f"{face(p.card)}={p.stands_for}"
        for p in cards
    )


def placers(cards: Sequence[Placed]) -> str:
    return " ".join(f"{face(p.card)}@{p.seat}" for p in cards)


def refused(state: State, command: object, seat: int = 1) -> tuple[str, str]:
    error = try_(state, seat, command)  # type: ignore[arg-type]
    return error.code, error.rule_id


def hand_faces(state: State, seat: int = 1) -> list[str]:
    return [face(c) for c in state.hands[seat - 1]]


# --- add-ons: BK-TEAM-2, BK-TEAM-3 ---------------------------------------------------------


@pytest.mark.parametrize("preset", BOTH)
def test_cards_are_added_at_both_ends_of_a_team_run(preset: str) -> None:
    """BK-TEAM-3: a player adds cards from his hand to his team's melds."""
    state = deal(preset, "4H 8H", [run("5H 6H 7H", creator=1)])
    after, (event,) = apply(state, 1, LayOff(meld=0, cards=("4H", "8H")))
    assert isinstance(event, MeldUpdated)
    assert event.action == "add"
    assert spec(after.melds[0].cards) == "4H 5H 6H 7H 8H"
    assert hand_faces(after) == ["KD"]


@pytest.mark.parametrize("preset", BOTH)
def test_an_ace_is_added_above_a_king(preset: str) -> None:
    """BK-MELD-3: Q-K-A is a run; an ace next to a king counts 14."""
    state = deal(preset, "AH", [run("JH QH KH", creator=1)])
    after, _ = apply(state, 1, LayOff(meld=0, cards=("AH",)))
    assert spec(after.melds[0].cards) == "JH QH KH AH"


@pytest.mark.parametrize("preset", BOTH)
def test_an_ace_is_not_added_to_a_run_that_already_has_one_from_ace_to_king(preset: str) -> None:
    """BK-AMB-15, BK-MELD-3: A-2-…-K-A would be 14 cards."""
    state = deal(preset, "AH#2", [run("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", creator=1)])
    assert refused(state, LayOff(meld=0, cards=("AH#2",))) == ("run_too_long", "BK-MELD-3")


@pytest.mark.parametrize("preset", BOTH)
def test_a_set_takes_its_fourth_suit_but_never_a_repeated_suit_or_a_fifth_card(
    preset: str,
) -> None:
    """BK-MELD-4, BK-MELD-7: add-ons keep a set legal."""
    state = deal(preset, "AD AS#2", [group("AS AH AC", creator=1)])
    after, _ = apply(state, 1, LayOff(meld=0, cards=("AD",)))
    assert spec(after.melds[0].cards) == "AS AH AC AD"
    assert refused(state, LayOff(meld=0, cards=("AS#2",))) == ("set_repeated_suit", "BK-MELD-4")
    assert refused(after, LayOff(meld=0, cards=("AS#2",))) == ("set_too_long", "BK-MELD-7")


@pytest.mark.parametrize("preset", BOTH)
def test_a_real_card_is_never_pushed_out_of_its_place(preset: str) -> None:
    """BK-TEAM-3, BK-AMB-32: adding a second 6♥ to 5♥ 6♥ 7♥ is refused; nothing moves."""
    state = deal(preset, "6H#2", [run("5H 6H 7H", creator=1)])
    assert refused(state, LayOff(meld=0, cards=("6H#2",))) == ("position_taken", "BK-MELD-2")


@pytest.mark.parametrize("preset", BOTH)
def test_table_cards_cannot_be_moved_to_another_meld(preset: str) -> None:
    """BK-AMB-32, BK-TEAM-3: only cards from the hand are added; melds are never split."""
    state = deal(preset, "", [run("5H 6H 7H 8H", creator=1), run("9H 10H JH", creator=1, mid=1)])
    assert refused(state, LayOff(meld=1, cards=("8H#1",))) == ("card_not_in_hand", "BK-TURN-1")


@pytest.mark.parametrize("preset", BOTH)
def test_nobody_adds_to_an_opponents_meld(preset: str) -> None:
    """BK-TEAM-2: seat 1 (team 1) may not touch seat 2's meld (team 2)."""
    state = deal(preset, "9H", [run("6H 7H 8H", creator=2)], laid=True)
    assert refused(state, LayOff(meld=0, cards=("9H",))) == ("opponents_meld", "BK-TEAM-2")


@pytest.mark.parametrize("preset", BOTH)
def test_a_meld_laid_by_either_partner_is_shown_to_everyone_as_the_teams_meld(
    preset: str,
) -> None:
    """BK-TEAM-1, BK-MELD-9: seat 3's meld belongs to team 1 and lies face up for all."""
    state = table(preset, hands=["QD", "QD", "5H 6H 7H KD", "QD"], turn=3)
    after, _ = apply(state, 3, Meld(cards=("5H", "6H", "7H")))
    (laid,) = after.melds
    assert (laid.team, laid.creator) == (1, 3)
    for seat in (1, 2, 4):
        (shown,) = banakil.view(after, seat).melds
        assert (shown.team, shown.creator, shown.cards) == (1, 3, laid.cards)


# --- the partner condition: BK-TEAM-C1, BK-TEAM-S1, BK-EX-18, BK-AMB-17 ----------------------


def test_in_classic_a_player_adds_to_his_partners_meld_before_laying_any_of_his_own() -> None:
    """BK-TEAM-C1: allowed at any time; it counts for his melded value but is no opening."""
    state = deal("classic", "9H", [run("5H 6H 7H 8H")])
    after, _ = apply(state, 1, LayOff(meld=0, cards=("9H",)))
    assert placers(after.melds[0].cards) == "5H@3 6H@3 7H@3 8H@3 9H@1"
    assert after.opened[0] is False
    players, _ = deal_scores(after, False)
    assert players[0].melded == 2  # the 9♥: 1 point in half-points
    assert players[0].opened is False


def test_in_sahrat_a_player_without_a_meld_of_his_own_cannot_add_to_his_partners() -> None:
    """BK-EX-18, BK-TEAM-S1: adding 9♥ to the partner's run before laying a meld is refused;
    laying 3♠ 3♥ 3♦ first in the same turn makes it legal (BK-AMB-17)."""
    state = deal("sahrat", "3S 3H 3D 9H", [run("5H 6H 7H 8H")])
    assert refused(state, LayOff(meld=0, cards=("9H",))) == (
        "partner_meld_locked",
        "BK-TEAM-S1",
    )
    after, events = apply(
        state,
        1,
        Play(actions=(Meld(cards=("3S", "3H", "3D")), LayOff(meld=0, cards=("9H",)))),
    )
    assert [type(e) for e in events] == [MeldLaid, MeldUpdated]
    assert spec(after.melds[0].cards) == "5H 6H 7H 8H 9H"
    assert spec(after.melds[1].cards) == "3S 3H 3D"


def test_in_sahrat_the_add_on_must_come_after_the_own_meld_in_the_command() -> None:
    """BK-EX-18, BK-AMB-16: table actions apply in order; the add-on first is refused."""
    state = deal("sahrat", "3S 3H 3D 9H", [run("5H 6H 7H 8H")])
    command = Play(actions=(LayOff(meld=0, cards=("9H",)), Meld(cards=("3S", "3H", "3D"))))
    assert refused(state, command) == ("partner_meld_locked", "BK-TEAM-S1")


def test_in_sahrat_a_meld_laid_in_an_earlier_turn_of_the_deal_qualifies() -> None:
    """BK-TEAM-S1, BK-AMB-17: "the same round" means the same deal."""
    state = deal("sahrat", "9H", [run("5H 6H 7H 8H")], laid=True)
    after, _ = apply(state, 1, LayOff(meld=0, cards=("9H",)))
    assert spec(after.melds[0].cards) == "5H 6H 7H 8H 9H"


def test_in_sahrat_a_player_adds_to_his_own_meld_at_any_time() -> None:
    """BK-TEAM-S1: the condition is only for the partner's melds."""
    state = deal("sahrat", "9H", [run("5H 6H 7H 8H", creator=1)])
    after, _ = apply(state, 1, LayOff(meld=0, cards=("9H",)))
    assert spec(after.melds[0].cards) == "5H 6H 7H 8H 9H"


def test_in_sahrat_freeing_a_joker_in_a_partners_meld_needs_a_meld_of_ones_own() -> None:
    """BK-AMB-17, BK-TEAM-S1: a joker exchange changes the partner's meld, so the same
    condition applies; laying a meld first in the same command satisfies it."""
    state = deal("sahrat", "6S 3S 3H 3D", [run("5S JK=6S 7S")])
    lone = Play(actions=(ExchangeJoker(meld=0, card="6S"), LayOff(meld=0, cards=("JK",))))
    assert refused(state, lone) == ("partner_meld_locked", "BK-TEAM-S1")
    after, _ = apply(
        state,
        1,
        Play(
            actions=(
                Meld(cards=("3S", "3H", "3D")),
                ExchangeJoker(meld=0, card="6S"),
                LayOff(meld=1, cards=("JK",)),
            )
        ),
    )
    assert spec(after.melds[0].cards) == "5S 6S 7S"
    assert spec(after.melds[1].cards) == "3S 3H 3D JK=3C"


# --- wild two relocation: BK-WILD-C2, BK-WILD-C3, BK-WILD-S2, BK-EX-7, BK-EX-8 ---------------


def test_classic_example_seven_the_wild_two_moves_along_and_never_reaches_a_hand() -> None:
    """BK-EX-7, BK-WILD-C2, BK-WILD-4, BK-AMB-9: team run 7♥ 8♥ 2♣ 10♥ (2♣ = 9♥). The partner
    adds 9♥ → 7♥ 8♥ 9♥ 10♥ 2♣ (2♣ = J♥); later J♥ is added and the two moves to Q♥. The
    2♣ stays in the run with its placer (seat 3) and never goes to a hand."""
    state = deal("classic", "9H JH", [run("7H 8H 2C=9H 10H")])
    assert spec(state.melds[0].cards) == "7H 8H 2C=9H 10H"
    state, (event,) = apply(state, 1, LayOff(meld=0, cards=("9H",), wild_as="JH"))
    assert isinstance(event, MeldUpdated)
    assert spec(event.cards) == "7H 8H 9H 10H 2C=JH"
    assert event.to_hand == ()
    state, (event,) = apply(state, 1, LayOff(meld=0, cards=("JH",), wild_as="QH"))
    assert isinstance(event, MeldUpdated)
    assert spec(event.cards) == "7H 8H 9H 10H JH 2C=QH"
    assert event.to_hand == ()
    assert placers(state.melds[0].cards) == "7H@3 8H@3 9H@1 10H@3 JH@1 2C@3"
    assert "2C" not in hand_faces(state)


def test_classic_example_seven_the_wild_two_moves_to_the_front_when_a_five_is_added() -> None:
    """BK-EX-7, BK-WILD-C2: from 7♥ 8♥ 9♥ 10♥ 2♣ (2♣ = J♥), adding 5♥ and moving the two to
    the front gives 5♥ 2♣ 7♥ 8♥ 9♥ 10♥ (2♣ = 6♥)."""
    state = deal("classic", "5H", [run("7H 8H 9H 10H 2C=JH")])
    after, (event,) = apply(state, 1, LayOff(meld=0, cards=("5H",), wild_as="6H"))
    assert isinstance(event, MeldUpdated)
    assert spec(after.melds[0].cards) == "5H 2C=6H 7H 8H 9H 10H"
    assert event.to_hand == ()
    assert "2C" not in hand_faces(after)


def test_classic_the_displaced_wild_two_goes_to_an_end_of_the_players_choice() -> None:
    """BK-EX-7, BK-WILD-C2: adding 9♥ to 7♥ 8♥ 2♣ 10♥ with the two sent to the front."""
    state = deal("classic", "9H", [run("7H 8H 2C=9H 10H")])
    after, _ = apply(state, 1, LayOff(meld=0, cards=("9H",), wild_as="6H"))
    assert spec(after.melds[0].cards) == "2C=6H 7H 8H 9H 10H"


def test_classic_the_displaced_wild_two_may_fill_a_gap_made_by_the_same_add_on() -> None:
    """BK-WILD-C2: 5♥ 6♥ 7♥ 2♣ (= 8♥) plus 8♥ and 10♥ → the 2♣ becomes the 9♥."""
    state = deal("classic", "8H 10H", [run("5H 6H 7H 2C=8H")])
    after, _ = apply(state, 1, LayOff(meld=0, cards=("8H", "10H")))
    assert spec(after.melds[0].cards) == "5H 6H 7H 8H 2C=9H 10H"


def test_classic_the_displaced_wild_two_needs_a_legal_place() -> None:
    """BK-WILD-C2, BK-TEAM-4: a taken place or one leaving a gap is refused."""
    state = deal("classic", "9H", [run("7H 8H 2C=9H 10H")])
    taken = LayOff(meld=0, cards=("9H",), wild_as="8H")
    gap = LayOff(meld=0, cards=("9H",), wild_as="QH")
    assert refused(state, taken) == ("position_taken", "BK-MELD-2")
    assert refused(state, gap) == ("run_gap", "BK-MELD-2")


def test_classic_a_wild_two_with_no_place_left_in_a_full_run_blocks_the_add_on() -> None:
    """BK-WILD-C2, BK-MELD-3: a 13-card run has no other place for its two."""
    state = deal("classic", "5H", [run("AH 2H 3H 4H 2C=5H 6H 7H 8H 9H 10H JH QH KH")])
    assert refused(state, LayOff(meld=0, cards=("5H",))) == ("no_place_for_wild", "BK-WILD-C2")


@pytest.mark.parametrize(
    ("end", "result"),
    [("6H", "2C=6H 7H 8H 9H 10H"), ("JH", "7H 8H 9H 10H 2C=JH")],
)
def test_sahrat_example_eight_the_wild_two_moves_to_the_end_the_player_chooses(
    end: str, result: str
) -> None:
    """BK-EX-8, BK-WILD-S2, BK-AMB-12: team run 7♥ 8♥ 2♣ 10♥; the player adds 9♥ → the two
    stands for 6♥ or J♥, his choice."""
    state = deal("sahrat", "9H", [run("7H 8H 2C=9H 10H")], laid=True)
    after, (event,) = apply(state, 1, LayOff(meld=0, cards=("9H",), wild_as=end))
    assert isinstance(event, MeldUpdated)
    assert spec(after.melds[0].cards) == result
    assert event.to_hand == ()
    assert after.melds[0].cards[[face(p.card) for p in event.cards].index("2C")].seat == 3


def test_sahrat_example_eight_the_wild_two_goes_to_an_end_when_no_end_is_named() -> None:
    """BK-EX-8, BK-WILD-S2: without a choice the engine still puts the two at an end."""
    state = deal("sahrat", "9H", [run("7H 8H 2C=9H 10H")], laid=True)
    after, _ = apply(state, 1, LayOff(meld=0, cards=("9H",)))
    assert spec(after.melds[0].cards) in {"2C=6H 7H 8H 9H 10H", "7H 8H 9H 10H 2C=JH"}


@pytest.mark.parametrize("inside", ["8H", "9H"])
def test_sahrat_example_eight_moving_the_wild_two_inside_the_run_is_refused(inside: str) -> None:
    """BK-EX-8, BK-WILD-S2: the two moves to an end only, never to an interior place."""
    state = deal("sahrat", "9H", [run("7H 8H 2C=9H 10H")], laid=True)
    command = LayOff(meld=0, cards=("9H",), wild_as=inside)
    assert refused(state, command) == ("wild_two_to_end", "BK-WILD-S2")


def test_sahrat_a_wild_two_takes_the_only_legal_end() -> None:
    """BK-WILD-S2, BK-AMB-12: below A♥ there is no room, so the two goes above Q♥."""
    state = deal("sahrat", "5H", [run("AH 2H 3H 4H 2C=5H 6H 7H 8H 9H 10H JH QH")], laid=True)
    after, _ = apply(state, 1, LayOff(meld=0, cards=("5H",)))
    assert spec(after.melds[0].cards) == "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH 2C=KH"


def test_sahrat_an_add_on_is_refused_when_neither_end_can_take_the_wild_two() -> None:
    """BK-WILD-S2, BK-AMB-12: a 13-card run has no free end."""
    state = deal("sahrat", "5H", [run("AH 2H 3H 4H 2C=5H 6H 7H 8H 9H 10H JH QH KH")], laid=True)
    assert refused(state, LayOff(meld=0, cards=("5H",))) == ("no_place_for_wild", "BK-WILD-S2")


def test_sahrat_a_wild_two_in_a_set_takes_another_missing_suit() -> None:
    """BK-WILD-S2, BK-AMB-12, BK-MELD-S1: A♠ A♥ 2♣ (= A♣) plus A♣ → the 2♣ becomes A♦."""
    state = deal("sahrat", "AC", [group("AS AH 2C=AC")], laid=True)
    after, _ = apply(state, 1, LayOff(meld=0, cards=("AC",)))
    assert sorted(spec(after.melds[0].cards).split()) == ["2C=AD", "AC", "AH", "AS"]


def test_sahrat_a_wild_two_in_a_full_set_leaves_no_room_for_its_real_card() -> None:
    """BK-WILD-S2, BK-AMB-12: no suit is missing, so the add-on is refused (BK-MELD-7)."""
    state = deal("sahrat", "AC", [group("AS AH 2C=AC AD")], laid=True)
    assert refused(state, LayOff(meld=0, cards=("AC",))) == ("set_too_long", "BK-MELD-7")


def test_sahrat_a_wild_two_stays_put_when_another_card_is_added() -> None:
    """BK-WILD-S2: the two moves only when its real card is added."""
    state = deal("sahrat", "6H", [run("7H 8H 9H 10H 2C=JH")], laid=True)
    moved = LayOff(meld=0, cards=("6H",), wild_as="5H")
    assert refused(state, moved) == ("wild_two_fixed", "BK-WILD-S2")
    after, _ = apply(state, 1, LayOff(meld=0, cards=("6H",)))
    assert spec(after.melds[0].cards) == "6H 7H 8H 9H 10H 2C=JH"


def test_classic_a_player_moves_the_wild_two_of_his_partners_run_at_any_time() -> None:
    """BK-WILD-C3, BK-AMB-13, BK-AMB-9: no real card needed; it stays in the run and keeps
    its placer."""
    state = deal("classic", "", [run("7H 8H 9H 10H 2C=JH")])
    after, (event,) = apply(state, 1, MoveWild(meld=0, to="6H"))
    assert isinstance(event, MeldUpdated)
    assert event.action == "move"
    assert (event.from_hand, event.to_hand) == ((), ())
    assert spec(after.melds[0].cards) == "2C=6H 7H 8H 9H 10H"
    assert placers(after.melds[0].cards) == "2C@3 7H@3 8H@3 9H@3 10H@3"


def test_classic_a_wild_two_move_must_leave_the_run_legal() -> None:
    """BK-WILD-C3, BK-TEAM-4: moving the 2♣ out of the middle would leave a gap."""
    state = deal("classic", "", [run("7H 8H 2C=9H 10H")])
    assert refused(state, MoveWild(meld=0, to="JH")) == ("run_gap", "BK-MELD-2")
    assert refused(state, MoveWild(meld=0, to="10H")) == ("position_taken", "BK-MELD-2")
    assert refused(state, MoveWild(meld=0, to="JS")) == ("bad_wild_target", "BK-WILD-2")


def test_classic_a_wild_two_is_moved_only_during_ones_own_turn() -> None:
    """BK-AMB-13, BK-TURN-6: seat 3 may not move it while seat 1 plays."""
    state = deal("classic", "", [run("7H 8H 9H 10H 2C=JH")])
    assert refused(state, MoveWild(meld=0, to="6H"), seat=3) == ("not_your_turn", "BK-TURN-6")


def test_classic_nobody_moves_the_wild_two_of_an_opponents_run() -> None:
    """BK-TEAM-2, BK-WILD-C3: only runs of the mover's own team."""
    state = deal("classic", "", [run("7H 8H 9H 10H 2C=JH", creator=2)])
    assert refused(state, MoveWild(meld=0, to="6H")) == ("opponents_meld", "BK-TEAM-2")


def test_sahrat_refuses_to_move_a_wild_two_on_its_own() -> None:
    """BK-WILD-S2 (BK-OPT-16): in `sahrat` a wild two moves only when its real card comes."""
    state = deal("sahrat", "", [run("7H 8H 9H 10H 2C=JH", creator=1)], laid=True)
    assert refused(state, MoveWild(meld=0, to="6H")) == ("wild_two_fixed", "BK-WILD-S2")


@pytest.mark.parametrize("preset", BOTH)
def test_a_wild_two_is_never_taken_back_into_a_hand(preset: str) -> None:
    """BK-WILD-4, BK-TEAM-3: only a joker can be exchanged; a wild two stays on the table."""
    state = deal(preset, "9H", [run("7H 8H 2C=9H 10H")], laid=True)
    assert refused(state, ExchangeJoker(meld=0, card="9H")) == ("wild_two_stays", "BK-WILD-4")


# --- the joker: BK-JOKER-1..3, C1, C2, S1, BK-EX-9, BK-EX-10 ---------------------------------


@pytest.mark.parametrize("preset", BOTH)
def test_example_nine_a_joker_stays_locked_when_cards_are_added_next_to_it(preset: str) -> None:
    """BK-EX-9, BK-JOKER-1, BK-AMB-11: 5♠ JK 7♠ (JK = 6♠) plus 8♠ and 4♠: the joker is
    still the 6♠."""
    state = deal(preset, "8S 4S", [run("5S JK=6S 7S")], laid=True)
    after, _ = apply(state, 1, LayOff(meld=0, cards=("8S", "4S")))
    assert spec(after.melds[0].cards) == "4S 5S JK=6S 7S 8S"


@pytest.mark.parametrize("preset", BOTH)
def test_example_nine_moving_the_joker_is_refused(preset: str) -> None:
    """BK-EX-9, BK-JOKER-1, BK-AMB-11: the JK cannot be moved to stand for 9♠, neither by a
    move nor by naming a new card for it in an add-on."""
    state = deal(preset, "8S", [run("5S JK=6S 7S")], laid=True)
    assert refused(state, MoveWild(meld=0, to="9S")) == ("joker_locked", "BK-JOKER-1")
    repoint = LayOff(meld=0, cards=("8S",), joker_as="9S")
    assert refused(state, repoint) == ("joker_locked", "BK-JOKER-1")


@pytest.mark.parametrize("preset", BOTH)
def test_the_real_card_of_a_joker_is_not_added_past_it(preset: str) -> None:
    """BK-JOKER-1, BK-JOKER-2: a plain add-on of 6♠ is refused; the exchange frees the JK."""
    state = deal(preset, "6S", [run("5S JK=6S 7S")], laid=True)
    assert refused(state, LayOff(meld=0, cards=("6S",))) == ("joker_locked", "BK-JOKER-1")


def test_classic_example_nine_the_freed_joker_goes_to_the_players_hand() -> None:
    """BK-EX-9, BK-JOKER-2, BK-JOKER-C1: placing 6♠ frees the JK into the player's hand."""
    state = deal("classic", "6S", [run("5S JK=6S 7S")])
    after, (event,) = apply(state, 1, ExchangeJoker(meld=0, card="6S"))
    assert isinstance(event, MeldUpdated)
    assert event.action == "exchange"
    assert event.to_hand == ("JK#1",)
    assert spec(after.melds[0].cards) == "5S 6S 7S"
    assert sorted(hand_faces(after)) == ["JK", "KD"]


def test_classic_the_freed_joker_may_be_reused_in_the_same_turn() -> None:
    """BK-JOKER-C1: optional reuse, e.g. in a new run."""
    state = deal("classic", "6S 9H 10H", [run("5S JK=6S 7S")])
    command = Play(actions=(ExchangeJoker(meld=0, card="6S"), Meld(cards=("9H", "10H", "JK"))))
    after, _ = apply(state, 1, command)
    assert spec(after.melds[1].cards) == "9H 10H JK=JH"
    assert hand_faces(after) == ["KD"]


def test_classic_the_freed_joker_may_be_discarded_like_any_card() -> None:
    """BK-JOKER-C1, BK-AMB-33 (BK-TURN-4): keeping it is optional, discarding it is legal."""
    state = deal("classic", "6S", [run("5S JK=6S 7S")])
    state, _ = apply(state, 1, ExchangeJoker(meld=0, card="6S"))
    after, _ = apply(state, 1, Discard(card="JK"))
    assert face(after.ground[-1]) == "JK"
    assert hand_faces(after) == ["KD"]


def test_sahrat_example_nine_a_lone_joker_exchange_is_refused() -> None:
    """BK-EX-9, BK-JOKER-S1, BK-AMB-16: the freed JK must be melded again in the command."""
    state = deal("sahrat", "6S", [run("5S JK=6S 7S")], laid=True)
    assert refused(state, ExchangeJoker(meld=0, card="6S")) == (
        "joker_not_remelded",
        "BK-JOKER-S1",
    )
    alone = Play(actions=(ExchangeJoker(meld=0, card="6S"),))
    assert refused(state, alone) == ("joker_not_remelded", "BK-JOKER-S1")


def test_sahrat_example_nine_the_freed_joker_is_melded_again_in_a_new_meld() -> None:
    """BK-EX-9, BK-JOKER-S1, BK-AMB-16: exchange then new meld, in one command."""
    state = deal("sahrat", "6S 9H 10H", [run("5S JK=6S 7S")], laid=True)
    command = Play(actions=(ExchangeJoker(meld=0, card="6S"), Meld(cards=("9H", "10H", "JK"))))
    after, events = apply(state, 1, command)
    assert [type(e) for e in events] == [MeldUpdated, MeldLaid]
    assert spec(after.melds[0].cards) == "5S 6S 7S"
    assert spec(after.melds[1].cards) == "9H 10H JK=JH"
    assert "JK" not in hand_faces(after)


def test_sahrat_the_freed_joker_may_go_back_into_the_same_run_at_a_new_place() -> None:
    """BK-JOKER-S1: re-melding by an add-on is enough."""
    state = deal("sahrat", "6S", [run("5S JK=6S 7S")], laid=True)
    command = Play(
        actions=(ExchangeJoker(meld=0, card="6S"), LayOff(meld=0, cards=("JK",), joker_as="8S"))
    )
    after, _ = apply(state, 1, command)
    assert spec(after.melds[0].cards) == "5S 6S 7S JK=8S"
    assert "JK" not in hand_faces(after)


def test_sahrat_the_joker_is_melded_only_after_it_has_been_freed() -> None:
    """BK-AMB-16: the actions apply in order; using the JK before freeing it is refused."""
    state = deal("sahrat", "6S 9H 10H", [run("5S JK=6S 7S")], laid=True)
    command = Play(actions=(Meld(cards=("9H", "10H", "JK")), ExchangeJoker(meld=0, card="6S")))
    assert refused(state, command) == ("card_not_in_hand", "BK-TURN-1")


@pytest.mark.parametrize("preset", BOTH)
@pytest.mark.parametrize("suit", ["D", "C"])
def test_example_ten_any_missing_suit_frees_the_joker_of_a_set(preset: str, suit: str) -> None:
    """BK-EX-10, BK-JOKER-2, BK-AMB-10: A♠ A♥ JK plus A♦ or A♣ → A♠ A♥ A♦ (or A♣); the
    joker goes to the hand in `classic` and is melded again in `sahrat`."""
    state = deal(preset, f"A{suit} 9H 10H", [group("AS AH JK=AC")], laid=True)
    exchange = ExchangeJoker(meld=0, card=f"A{suit}")
    if preset == "classic":
        after, (event,) = apply(state, 1, exchange)
        assert isinstance(event, MeldUpdated)
        assert event.to_hand == ("JK#1",)
        assert "JK" in hand_faces(after)
    else:
        after, _ = apply(state, 1, Play(actions=(exchange, Meld(cards=("9H", "10H", "JK")))))
        assert spec(after.melds[1].cards) == "9H 10H JK=JH"
        assert "JK" not in hand_faces(after)
    assert spec(after.melds[0].cards) == f"AS AH A{suit}"


@pytest.mark.parametrize("preset", BOTH)
def test_example_ten_a_suit_already_in_the_set_does_not_free_the_joker(preset: str) -> None:
    """BK-EX-10, BK-AMB-10, BK-MELD-4: placing A♠ in A♠ A♥ JK is refused."""
    state = deal(preset, "AS#2", [group("AS AH JK=AC")], laid=True)
    command = ExchangeJoker(meld=0, card="AS#2")
    assert refused(state, command) == ("set_repeated_suit", "BK-MELD-4")


@pytest.mark.parametrize("preset", BOTH)
def test_only_the_identical_real_card_frees_a_joker(preset: str) -> None:
    """BK-JOKER-2: in a run the same rank and suit; in a set a real card of that rank."""
    state = deal(preset, "7S#2 3D 2D", [run("5S JK=6S 7S"), group("AS AH JK=AC", mid=1)])
    state = replace(state, laid=(True, False, False, False))
    assert refused(state, ExchangeJoker(meld=0, card="7S#2")) == ("wrong_card", "BK-JOKER-2")
    assert refused(state, ExchangeJoker(meld=1, card="3D")) == ("wrong_card", "BK-JOKER-2")
    assert refused(state, ExchangeJoker(meld=1, card="2D")) == ("not_a_real_card", "BK-JOKER-2")


@pytest.mark.parametrize("preset", BOTH)
def test_a_joker_is_never_freed_from_an_opponents_meld(preset: str) -> None:
    """BK-JOKER-3: seat 1 cannot exchange the joker of seat 2's run or set."""
    melds = [run("5S JK=6S 7S", creator=2), group("AS AH JK#2=AC", creator=4, mid=1)]
    state = deal(preset, "6S AD 9H 10H", melds, laid=True)
    assert refused(state, ExchangeJoker(meld=0, card="6S")) == ("opponents_meld", "BK-JOKER-3")
    remeld = Play(actions=(ExchangeJoker(meld=1, card="AD"), Meld(cards=("9H", "10H", "JK"))))
    assert refused(state, remeld) == ("opponents_meld", "BK-JOKER-3")


def test_classic_a_re_melded_joker_counts_for_the_player_who_freed_it() -> None:
    """BK-JOKER-C2, BK-AMB-9: seat 3 melded 5♠ JK 7♠; seat 1 frees the JK and melds it again
    → its 4 points count for seat 1, no longer for seat 3."""
    state = deal("classic", "6S 9H 10H", [run("5S JK=6S 7S")])
    command = Play(actions=(ExchangeJoker(meld=0, card="6S"), Meld(cards=("9H", "10H", "JK"))))
    after, events = apply(state, 1, command)
    laid = events[1]
    assert isinstance(laid, MeldLaid)
    assert placers(laid.cards) == "9H@1 10H@1 JK@1"
    players, _ = deal_scores(after, False)
    assert players[2].melded == 1 + 2  # 5♠ 0.5 + 7♠ 1, in half-points
    assert players[0].melded == 1 + 2 + 2 + 8  # 6♠ + 9♥ + 10♥ + JK


def test_classic_a_freed_joker_kept_in_hand_counts_against_the_freer() -> None:
    """BK-JOKER-C1, BK-JOKER-C2, BK-AMB-9, BK-AMB-33: it leaves the first melder's value and
    is deducted from the hand of the player holding it."""
    state = deal("classic", "6S", [run("5S JK=6S 7S")])
    after, _ = apply(state, 1, ExchangeJoker(meld=0, card="6S"))
    players, _ = deal_scores(after, False)
    assert players[2].melded == 3
    assert players[0].melded == 1
    assert players[0].hand == 8 + 2  # JK 4 + K♦ 1, in half-points


# --- who placed each card: BK-MELD-10 ------------------------------------------------------


@pytest.mark.parametrize("preset", BOTH)
def test_every_table_card_records_the_seat_that_placed_it_and_every_meld_its_creator(
    preset: str,
) -> None:
    """BK-MELD-10: a new meld is all its creator's; an add-on or exchange records the actor
    on the new card and leaves every other card's placer as it was."""
    state = deal(preset, "4S 6S 3S 3H 3D", [run("5S JK=6S 7S@1", creator=3)])
    state, (laid,) = apply(state, 1, Meld(cards=("3S", "3H", "3D")))
    assert isinstance(laid, MeldLaid)
    assert placers(laid.cards) == "3S@1 3H@1 3D@1"
    assert state.melds[1].creator == 1
    state, _ = apply(state, 1, LayOff(meld=0, cards=("4S",)))
    actions: tuple[ExchangeJoker | LayOff, ...] = (ExchangeJoker(meld=0, card="6S"),)
    if preset == "sahrat":
        actions = (*actions, LayOff(meld=1, cards=("JK",)))
    state, _ = apply(state, 1, Play(actions=actions))
    assert placers(state.melds[0].cards) == "4S@1 5S@3 6S@1 7S@1"
    assert state.melds[0].creator == 3


# --- whole-action rejection: BK-TEAM-4 -----------------------------------------------------


@pytest.mark.parametrize("preset", BOTH)
def test_a_play_whose_second_action_is_illegal_changes_nothing(preset: str) -> None:
    """BK-TEAM-4: the legal first add-on is not kept; no event, same hands, same table."""
    state = deal(preset, "9H 3S 3H", [run("5H 6H 7H 8H", creator=1)])
    before = (state.hands, state.melds, state.ground, state.stock)
    first = LayOff(meld=0, cards=("9H",))
    apply(state, 1, first)  # legal on its own
    command = Play(actions=(first, Meld(cards=("3S", "3H"))))
    assert refused(state, command) == ("meld_too_short", "BK-MELD-1")
    assert (state.hands, state.melds, state.ground, state.stock) == before


@pytest.mark.parametrize("preset", BOTH)
def test_an_add_on_that_would_leave_the_run_illegal_is_refused_as_a_whole(preset: str) -> None:
    """BK-TEAM-4: 8♥ fits, 10♥ leaves a gap, so neither card is added."""
    state = deal(preset, "8H 10H", [run("5H 6H 7H", creator=1)])
    assert refused(state, LayOff(meld=0, cards=("8H", "10H"))) == ("run_gap", "BK-MELD-2")
    assert hand_faces(state) == ["8H", "10H", "KD"]
    assert spec(state.melds[0].cards) == "5H 6H 7H"


def test_classic_a_joker_exchange_followed_by_an_illegal_meld_keeps_the_joker_on_the_table() -> (
    None
):
    """BK-TEAM-4, BK-JOKER-C1: all melds must be legal when the command completes."""
    state = deal("classic", "6S 9H", [run("5S JK=6S 7S")])
    command = Play(actions=(ExchangeJoker(meld=0, card="6S"), Meld(cards=("9H", "JK"))))
    assert refused(state, command) == ("meld_too_short", "BK-MELD-1")
    assert spec(state.melds[0].cards) == "5S JK=6S 7S"
    assert "JK" not in hand_faces(state)
