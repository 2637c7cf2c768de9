"""Add-ons the meld oracle (tests/property/meld_oracle.py) found refused or misread, and
the places named for substitutes, which are honoured or refused, never ignored.

Rules: BK-MELD-2, BK-MELD-3, BK-WILD-1, BK-WILD-2, BK-WILD-3, BK-WILD-C2, BK-WILD-S2,
BK-TEAM-3, BK-TEAM-4, BK-AMB-12, BK-AMB-13.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from engine import banakil
from engine.banakil.melds import add_to_meld, exchange_joker, move_wild, new_meld
from engine.banakil.messages import Placed
from engine.cards import face
from engine.errors import RuleViolation
from tests.support import cards, meld

BOTH = ("classic", "sahrat")


def add(
    preset: str,
    table: str,
    hand: str,
    wild_as: str | None = None,
    joker_as: str | None = None,
    kind: str = "run",
) -> str:
    """Seat 1 adds `hand` to the team meld `table` (placed by seat 3); the meld after."""
    laid = meld(0, 1, 3, kind, table)
    opts = banakil.options_from(preset)
    placed = add_to_meld(
        laid.cards, kind, _fresh(hand, laid.cards), 1, opts, wild_as=wild_as, joker_as=joker_as
    )
    return spec(placed)


def refused(preset: str, table: str, hand: str, **named: str) -> tuple[str, str]:
    with pytest.raises(RuleViolation) as info:
        add(preset, table, hand, **named)
    return info.value.code, info.value.rule_id


def _fresh(hand: str, table: Sequence[Placed]) -> tuple[str, ...]:
    """Hand cards as the other copy of any face already on the table."""
    on_table = {p.card for p in table}
    return tuple(c if c not in on_table else c.replace("#1", "#2") for c in cards(hand))


def spec(placed: Sequence[Placed]) -> str:
    return " ".join(
        face(p.card) if p.stands_for == face(p.card) else f"{face(p.card)}={p.stands_for}"
        for p in placed
    )


# --- readings the engine used to miss --------------------------------------------------------


@pytest.mark.parametrize("preset", BOTH)
def test_a_two_of_the_runs_suit_joins_as_its_wild_two_when_the_rank_two_place_is_out_of_reach(
    preset: str,
) -> None:
    """BK-WILD-3, BK-WILD-2: 2♣ added to 4♣ 5♣ 6♣ cannot be the natural 2 (3♣ is missing),
    so it is the wild two at an end; it was refused with run_gap."""
    assert add(preset, "4C 5C 6C", "2C") in {"4C 5C 6C 2C=7C", "2C=3C 4C 5C 6C"}


def test_a_joker_and_a_wild_two_added_together_fill_two_gaps() -> None:
    """BK-WILD-1, BK-WILD-2: 2♣…10♣ plus JK, 2♣ and K♣: the substitutes are J♣ and Q♣ (one
    each); it was refused with no_place_for_wild."""
    after = add("classic", "2C 3C 4C 5C 6C 7C 8C 9C 10C", "JK 2C KC")
    assert after in {
        "2C 3C 4C 5C 6C 7C 8C 9C 10C JK=JC 2C=QC KC",
        "2C 3C 4C 5C 6C 7C 8C 9C 10C 2C=JC JK=QC KC",
    }


def test_a_joker_and_a_wild_two_fill_the_gaps_left_by_a_real_card_added_with_them() -> None:
    """BK-WILD-2: 4♣ 5♣ 6♣ plus JK, 2♣ and 8♣ (the 2♣ cannot reach the rank-2 place)."""
    after = add("classic", "4C 5C 6C", "JK 2C 8C")
    assert "8C" in after.split()
    assert len(after.split()) == 6


def test_an_added_ace_goes_to_the_far_end_when_the_near_end_leaves_a_gap() -> None:
    """BK-MELD-3, BK-WILD-C2: 2♣(=4♣) 5♣ … J♣ plus 4♣, Q♣ and A♣: the ace is high (14) and
    the displaced two stands for K♣; the low ace left 2♣ 3♣ to fill and was refused."""
    after = add("classic", "2C=4C 5C 6C 7C 8C 9C 10C JC", "4C QC AC")
    assert after == "4C 5C 6C 7C 8C 9C 10C JC QC 2C=KC AC"


# --- named places: honoured, or refused with a reason -------------------------------------------


@pytest.mark.parametrize("preset", BOTH)
def test_an_added_two_of_the_runs_suit_stands_where_the_player_names_it(preset: str) -> None:
    """BK-WILD-2, BK-WILD-3: 2♣ added to 3♣ 4♣ 5♣ with wild_as=6♣ is the wild two for 6♣;
    the name was ignored and the 2♣ laid as the natural 2."""
    assert add(preset, "3C 4C 5C", "2C", wild_as="6C") == "3C 4C 5C 2C=6C"
    assert add(preset, "3C 4C 5C", "2C") == "2C 3C 4C 5C"


@pytest.mark.parametrize("preset", BOTH)
def test_a_named_place_that_no_wild_two_takes_is_refused(preset: str) -> None:
    """BK-WILD-2: adding 6♣ to 3♣ 4♣ 5♣ with wild_as=7♣ names a wild two that does not
    exist; it was silently ignored."""
    assert refused(preset, "3C 4C 5C", "6C", wild_as="7C") == ("bad_wild_target", "BK-WILD-2")


def test_sahrat_naming_the_card_a_wild_two_already_stands_for_is_no_move() -> None:
    """BK-WILD-S2, BK-AMB-12: the two of 7♥ 8♥ 9♥ 10♥ 2♣(=J♥) stays J♥ when 6♥ is added;
    naming J♥ asks nothing else and was refused as a move (wild_two_fixed)."""
    assert add("sahrat", "7H 8H 9H 10H 2C=JH", "6H", wild_as="JH") == "6H 7H 8H 9H 10H 2C=JH"
    assert refused("sahrat", "7H 8H 9H 10H 2C=JH", "6H", wild_as="5H") == (
        "wild_two_fixed",
        "BK-WILD-S2",
    )


# --- every refusal of engine/banakil/melds.py: code, rule and sentence (issue 10 item 15) --

C, S = banakil.options_from("classic"), banakil.options_from("sahrat")
C_TWO_IN_SETS = banakil.options_from("classic", wild_two_in_sets=True)


def _on(spec_: str, kind: str = "run") -> tuple[Placed, ...]:
    return meld(0, 1, 3, kind, spec_).cards


_MELD_REFUSALS: list[tuple[str, Callable[[], object], tuple[str, str, str]]] = [
    (
        "two cards",
        lambda: new_meld(cards("5H 6H"), None, 1, C),
        ("meld_too_short", "BK-MELD-1", "a meld needs at least 3 cards"),
    ),
    (
        "K A 2 wraps",
        lambda: new_meld(cards("KC AC 2C"), None, 1, C),
        ("run_out_of_range", "BK-MELD-3", "a run goes from A (as 1) up to A (as 14)"),
    ),
    (
        "A to A",
        lambda: new_meld(cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"), None, 1, C),
        ("run_too_long", "BK-MELD-3", "a run uses its ace as 1 or as 14, not both"),
    ),
    (
        "a gap",
        lambda: new_meld(cards("5H 6H 8H"), None, 1, C),
        ("run_not_consecutive", "BK-MELD-2", "8H is out of place"),
    ),
    (
        "a set of two",
        lambda: new_meld(cards("AS AH"), "set", 1, C),
        ("meld_too_short", "BK-MELD-1", "a meld needs at least 3 cards"),
    ),
    (
        "two jokers in a set",
        lambda: new_meld(cards("AS AH JK JK"), None, 1, S),
        ("two_jokers", "BK-WILD-1", "a meld may hold at most one joker"),
    ),
    (
        "a named joker leaving a gap",
        lambda: add_to_meld(_on("5H 6H 7H"), "run", ("JK#1",), 1, C, joker_as="9H"),
        ("run_gap", "BK-MELD-2", "a run's cards must be consecutive with no gap"),
    ),
    (
        "mixed suits",
        lambda: new_meld(cards("5H 6D 7H"), None, 1, C),
        ("run_mixed_suits", "BK-MELD-2", "a run's real cards share one suit"),
    ),
    (
        "only jokers",
        lambda: new_meld(("JK#1", "JK#2"), "run", 1, S),
        ("too_few_real_cards", "BK-WILD-S1", "a meld needs at least 2 real card(s)"),
    ),
    (
        "only jokers, classic",
        lambda: new_meld(("JK#1", "JK#2"), "run", 1, C),
        ("too_few_real_cards", "BK-WILD-C1", "a meld needs at least 1 real card(s)"),
    ),
    (
        "substitutes as a set",
        lambda: new_meld(("JK#1", "JK#2", "2C#1"), "set", 1, S),
        ("set_of_twos", "BK-MELD-6", "2s never form a set"),
    ),
    (
        "two jokers",
        lambda: new_meld(cards("5H JK JK 8H"), None, 1, C),
        ("two_jokers", "BK-WILD-1", "a meld may hold at most one joker"),
    ),
    (
        "two wild twos",
        lambda: new_meld(cards("5H 2C 2D 8H"), None, 1, C),
        ("two_wild_twos", "BK-WILD-1", "a meld may hold at most one wild two"),
    ),
    (
        "five in a set",
        lambda: new_meld(cards("AS AH AD AC JK"), None, 1, C),
        ("set_too_long", "BK-MELD-7", "a set holds at most 4 cards"),
    ),
    (
        "mixed set",
        lambda: new_meld(cards("AS AH 3D"), "set", 1, C),
        ("set_mixed_ranks", "BK-MELD-4", "a set's cards share one rank"),
    ),
    (
        "set of sevens",
        lambda: new_meld(cards("7S 7H 7D"), None, 1, C),
        ("set_rank", "BK-MELD-5", "sets are allowed only of aces and of threes"),
    ),
    (
        "repeated suit",
        lambda: new_meld(cards("AS AS AH"), None, 1, C),
        ("set_repeated_suit", "BK-MELD-4", "a set may not repeat a suit"),
    ),
    (
        "wild two in a classic set",
        lambda: new_meld(cards("AS AH 2C"), None, 1, C),
        ("wild_two_in_set", "BK-MELD-C1", "a wild two works only in runs"),
    ),
    (
        "a named place in a set",
        lambda: add_to_meld(_on("AS AH AC", "set"), "set", ("AD#1",), 1, C, wild_as="AD"),
        ("bad_wild_target", "BK-AMB-10", "a set's substitutes take a missing suit"),
    ),
    (
        "joker_as without a joker",
        lambda: add_to_meld(_on("5H 6H 7H"), "run", ("8H#1",), 1, C, joker_as="8H"),
        ("joker_locked", "BK-JOKER-1", "a joker on the table never changes its card"),
    ),
    (
        "a real card on the joker",
        lambda: add_to_meld(_on("5H JK=6H 7H"), "run", ("6H#1",), 1, C),
        ("joker_locked", "BK-JOKER-1", "the joker stands for 6H; free it with an exchange"),
    ),
    (
        "a place taken",
        lambda: add_to_meld(_on("5H 6H 7H"), "run", ("6H#2",), 1, C),
        ("position_taken", "BK-MELD-2", "6H is already in the run"),
    ),
    (
        "joker_as on a taken place",
        lambda: add_to_meld(_on("5H 6H 7H"), "run", ("JK#1",), 1, C, joker_as="6H"),
        ("position_taken", "BK-MELD-2", "6H is already in the run"),
    ),
    (
        "sahrat moves a settled two",
        lambda: add_to_meld(_on("7H 8H 9H 10H 2C=JH"), "run", ("6H#1",), 1, S, wild_as="5H"),
        (
            "wild_two_fixed",
            "BK-WILD-S2",
            "a wild two moves only when its real card is added, and only to an end",
        ),
    ),
    (
        "joker_as of another suit",
        lambda: add_to_meld(_on("5H 6H 7H"), "run", ("JK#1",), 1, C, joker_as="8S"),
        ("bad_wild_target", "BK-WILD-2", "a substitute in this run stands for a H card"),
    ),
    (
        "sahrat two inside",
        lambda: add_to_meld(_on("7H 8H 2C=9H 10H"), "run", ("9H#1",), 1, S, wild_as="8H"),
        ("wild_two_to_end", "BK-WILD-S2", "the wild two must move to an end of the run"),
    ),
    (
        "sahrat two without an end",
        lambda: add_to_meld(
            _on("AH 2H 3H 4H 2C=5H 6H 7H 8H 9H 10H JH QH KH"), "run", ("5H#1",), 1, S
        ),
        ("no_place_for_wild", "BK-WILD-S2", "there is no legal place for 2C"),
    ),
    (
        "classic two without a place",
        lambda: add_to_meld(
            _on("AH 2H 3H 4H 2C=5H 6H 7H 8H 9H 10H JH QH KH"), "run", ("5H#1",), 1, C
        ),
        ("no_place_for_wild", "BK-WILD-C2", "there is no legal place for 2C"),
    ),
    (
        "a joker on a full run",
        lambda: add_to_meld(_on("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"), "run", ("JK#1",), 1, C),
        ("no_place_for_wild", "BK-MELD-2", "there is no legal place for JK"),
    ),
    (
        "a joker on a full run below a high ace",
        lambda: add_to_meld(_on("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"), "run", ("JK#1",), 1, C),
        ("no_place_for_wild", "BK-MELD-2", "there is no legal place for JK"),
    ),
    (
        "a joker for two gaps",
        lambda: add_to_meld(_on("5H 6H 7H"), "run", ("9H#1", "JH#1", "JK#1"), 1, C),
        ("no_place_for_wild", "BK-MELD-2", "there is no legal place for JK"),
    ),
    (
        "wild_as that nothing takes",
        lambda: add_to_meld(_on("3C 4C 5C"), "run", ("6C#1",), 1, C, wild_as="7C"),
        ("bad_wild_target", "BK-WILD-2", "no wild two of this run can stand for 7C"),
    ),
    (
        "exchange a wild two",
        lambda: exchange_joker(_on("7H 8H 2C=9H 10H"), "run", "9H#1", 1, C),
        ("wild_two_stays", "BK-WILD-4", "a wild two never goes back to a hand"),
    ),
    (
        "exchange without a joker",
        lambda: exchange_joker(_on("7H 8H 9H"), "run", "9H#2", 1, C),
        ("no_joker", "BK-JOKER-2", "this meld holds no joker"),
    ),
    (
        "a 2 frees no set joker",
        lambda: exchange_joker(_on("AS AH JK=AC", "set"), "set", "2C#1", 1, S),
        ("not_a_real_card", "BK-JOKER-2", "only a real card can free a joker"),
    ),
    (
        "a joker frees no joker",
        lambda: exchange_joker(_on("7H JK=8H 9H"), "run", "JK#2", 1, C),
        ("not_a_real_card", "BK-JOKER-2", "only a real card can free a joker"),
    ),
    (
        "another rank in a set",
        lambda: exchange_joker(_on("AS AH JK=AC", "set"), "set", "3C#1", 1, S),
        ("wrong_card", "BK-JOKER-2", "the joker is freed only by a A"),
    ),
    (
        "a present suit in a set",
        lambda: exchange_joker(_on("AS AH JK=AC", "set"), "set", "AS#2", 1, S),
        ("set_repeated_suit", "BK-MELD-4", "that suit is already in the set"),
    ),
    (
        "another card in a run",
        lambda: exchange_joker(_on("7H JK=8H 9H"), "run", "8S#1", 1, C),
        ("wrong_card", "BK-JOKER-2", "the joker stands for 8H, not 8S"),
    ),
    (
        "move a joker",
        lambda: move_wild(_on("7H JK=8H 9H"), "run", "10H", C),
        ("joker_locked", "BK-JOKER-1", "a joker never moves; free it with an exchange"),
    ),
    (
        "move in sahrat",
        lambda: move_wild(_on("7H 8H 9H 10H 2C=JH"), "run", "6H", S),
        ("wild_two_fixed", "BK-WILD-S2", "a wild two moves only when its real card is added"),
    ),
    (
        "move in a set",
        lambda: move_wild(_on("AS AH 2C=AC", "set"), "set", "AD", C_TWO_IN_SETS),
        ("not_a_run", "BK-WILD-C3", "a wild two is moved only inside a run"),
    ),
    (
        "move without a wild two",
        lambda: move_wild(_on("7H 8H 9H"), "run", "6H", C),
        ("no_wild_two", "BK-WILD-C3", "this run holds no wild two"),
    ),
    (
        "move the natural 2",
        lambda: move_wild(_on("AH 2H 3H"), "run", "4H", C),
        ("no_wild_two", "BK-WILD-C3", "this run holds no wild two"),
    ),
    (
        "move to another suit",
        lambda: move_wild(_on("7H 8H 9H 10H 2C=JH"), "run", "6S", C),
        ("bad_wild_target", "BK-WILD-2", "a substitute in this run stands for a H card"),
    ),
    (
        "move onto a card",
        lambda: move_wild(_on("7H 8H 2C=9H 10H"), "run", "10H", C),
        ("position_taken", "BK-MELD-2", "10H is already in the run"),
    ),
]


@pytest.mark.parametrize(
    ("call", "expected"), [c[1:] for c in _MELD_REFUSALS], ids=[c[0] for c in _MELD_REFUSALS]
)
def test_every_meld_refusal_names_its_code_its_rule_and_a_sentence(
    call: Callable[[], object], expected: tuple[str, str, str]
) -> None:
    """BK-MELD-*, BK-WILD-*, BK-JOKER-*, BK-TEAM-4: each refusal, its reason and its rule;
    several of these branches were reached by no test (a meld of only jokers, moving a wild
    two in a set). Only jokers cite the real-card minimum of the table's rule set."""
    with pytest.raises(RuleViolation) as info:
        call()
    assert (info.value.code, info.value.rule_id, info.value.message) == expected


# --- behaviour that mutation testing showed untested (issue 10 item 15) --------------------


def test_an_ace_fitting_both_ends_goes_low() -> None:
    """BK-MELD-3: A♣ added to 2♣…K♣ fits below the 2 and above the king; it goes low (an
    A-…-K-A run is impossible either way, BK-AMB-15)."""
    assert add("classic", "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC", "AC").startswith("AC 2C")


def test_an_ace_alone_goes_to_the_far_end_when_the_moved_two_makes_room_there() -> None:
    """BK-MELD-3, BK-WILD-C2: A♣ with the 2♣ moved to K♣ only fits above Q♣."""
    after = add("classic", "2C=3C 4C 5C 6C 7C 8C 9C 10C JC QC", "AC", wild_as="KC")
    assert after == "4C 5C 6C 7C 8C 9C 10C JC QC 2C=KC AC"


@pytest.mark.parametrize(
    ("table", "result"),
    [("2H 3H 4H 2C=5H", "2C=AH 2H 3H 4H"), ("2C=JH QH KH", "QH KH 2C=AH")],
)
def test_a_wild_two_moved_to_the_ace_takes_the_end_the_ace_fits(table: str, result: str) -> None:
    """BK-WILD-C3, BK-MELD-3: named A♥ is the low ace below 2♥ and the high one above K♥."""
    assert spec(move_wild(_on(table), "run", "AH", C)) == result


@pytest.mark.parametrize(("named", "result"), [("4H", "JK=4H 5H 6H 7H"), ("AH", None)])
def test_an_added_joker_stands_for_the_card_named_for_it(named: str, result: str | None) -> None:
    """BK-WILD-2: joker_as puts the joker below the run although the top end was free."""
    if result is None:
        assert add("classic", "2H 3H 4H", "JK", joker_as=named) == "JK=AH 2H 3H 4H"
    else:
        assert add("classic", "5H 6H 7H", "JK", joker_as=named) == result
    assert add("classic", "7H 8H 9H", "JK", joker_as="10H") == "7H 8H 9H JK=10H"


def test_a_joker_goes_above_a_king_and_below_a_high_ace() -> None:
    """BK-MELD-3, BK-WILD-2: unnamed, a joker takes the top end, the high ace (14) if free."""
    assert add("classic", "JH QH KH", "JK") == "JH QH KH JK=AH"
    assert add("classic", "QH KH AH", "JK") == "JK=JH QH KH AH"


def test_an_added_joker_fills_the_gap_before_an_added_wild_two() -> None:
    """BK-WILD-2: 9♥ 2♣ JK added to 5♥ 6♥ 7♥ → the joker is the missing 8♥, the two 10♥."""
    assert add("classic", "5H 6H 7H", "9H 2C JK") == "5H 6H 7H JK=8H 9H 2C=10H"


@pytest.mark.parametrize("end", ["7H", "10H"])
def test_sahrat_a_moved_two_named_onto_the_ends_own_card_is_not_at_an_end(end: str) -> None:
    """BK-WILD-S2: 7♥ and 10♥ are the run's end cards, not places beyond its ends."""
    assert refused("sahrat", "7H 8H 2C=9H 10H", "9H", wild_as=end) == (
        "wild_two_to_end",
        "BK-WILD-S2",
    )


def test_sahrat_a_moved_two_never_fills_a_gap_left_by_the_add_on() -> None:
    """BK-WILD-S2: 9♥ and Q♥ added to 7♥ 8♥ 2♣ 10♥ leave J♥ missing; only classic lets the
    two fill it (BK-WILD-C2)."""
    assert refused("sahrat", "7H 8H 2C=9H 10H", "9H QH") == ("no_place_for_wild", "BK-WILD-S2")
    assert add("classic", "7H 8H 2C=9H 10H", "9H QH") == "7H 8H 9H 10H 2C=JH QH"


def test_a_set_refuses_a_named_joker_place_too() -> None:
    """BK-AMB-10: a set's substitutes take missing suits; no place can be named."""
    assert refused("sahrat", "AS AH AC", "JK", joker_as="AD", kind="set") == (
        "bad_wild_target",
        "BK-AMB-10",
    )


def test_a_set_substitute_keeps_its_suit_when_another_substitute_joins() -> None:
    """BK-JOKER-1, BK-AMB-10: A♠ A♥ JK(=A♦) plus 2♣ → the joker stays A♦, the 2♣ is A♣."""
    after = add("sahrat", "AS AH JK=AD", "2C", kind="set")
    assert after == "AS AH JK=AD 2C=AC"


def test_a_set_substitute_keeps_its_suit_after_a_joker_is_freed() -> None:
    """BK-JOKER-2, BK-AMB-10: A♠ JK(=A♦) 2♣(=A♥), the joker freed by A♦ → 2♣ stays A♥
    (one real card and two in sets allowed by the table's options)."""
    opts = banakil.options_from("sahrat", min_real_cards=1)
    placed, joker = exchange_joker(_on("AS JK=AD 2C=AH", "set"), "set", "AD#1", 1, opts)
    assert joker == "JK#1"
    assert spec(placed) == "AS 2C=AH AD"


def test_a_joker_of_a_set_is_freed_by_a_suit_a_substitute_does_not_hold_as_a_real_card() -> None:
    """BK-JOKER-2, BK-AMB-10: in A♠ A♥ 2♣(=A♦) JK(=A♣) the 2♣ is no real club: A♣ frees the
    joker and the 2♣ keeps A♦."""
    placed, _ = exchange_joker(_on("AS AH 2C=AD JK=AC", "set"), "set", "AC#1", 1, S)
    assert spec(placed) == "AS AH 2C=AD AC"


def test_a_named_ace_is_high_next_to_a_king_even_one_place_nearer_the_bottom() -> None:
    """BK-MELD-3: a joker named A♥ on 3♥…K♥ is the high ace (the low one would leave 2♥
    missing)."""
    after = add("classic", "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "JK", joker_as="AH")
    assert after == "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK=AH"


def test_the_natural_two_displaces_the_wild_two_standing_for_it() -> None:
    """BK-WILD-3, BK-WILD-C2: in A♥ 2♣(=2♥) 3♥ the real 2♥ takes its place; the 2♣ moves on."""
    assert add("classic", "AH 2C=2H 3H", "2H") == "AH 2H 3H 2C=4H"


@pytest.mark.parametrize(
    ("table", "named", "result"),
    [
        ("AC 2C 3C", "4C", "AC 2C 3C 2C=4C JK=5C"),
        ("3C 4C 5C", "AC", "2C=AC JK=2C 3C 4C 5C"),
    ],
)
def test_a_named_wild_two_takes_its_card_before_an_unnamed_joker_takes_a_place(
    table: str, named: str, result: str
) -> None:
    """BK-WILD-2: JK and 2♣ added with the 2♣ named for 4♣: the joker goes round it (it
    took 4♣ first and the add-on was refused); named A♣, the joker fills the 2♣ between."""
    assert add("classic", table, "JK 2C", wild_as=named) == result


def test_sahrat_a_joker_added_with_the_real_card_goes_to_the_other_end() -> None:
    """BK-WILD-S2, BK-AMB-12: 9♥ and JK added to 7♥ 8♥ 2♣(=9♥) 10♥, the two named J♥: the
    joker takes 6♥ so that the two stays at an end (it took Q♥, past the two)."""
    after = add("sahrat", "7H 8H 2C=9H 10H", "9H JK", wild_as="JH")
    assert after == "JK=6H 7H 8H 9H 10H 2C=JH"


def test_sahrat_the_joker_goes_below_a_natural_two_to_leave_the_moved_two_at_the_top() -> None:
    """BK-WILD-S2: 3♥ and JK added to 2♥ 2♣(=3♥) 4♥ with the two named 5♥: the joker is A♥."""
    assert add("sahrat", "2H 2C=3H 4H", "3H JK", wild_as="5H") == "JK=AH 2H 3H 4H 2C=5H"


def test_sahrat_with_no_room_below_the_ace_the_joker_would_pass_the_moved_two() -> None:
    """BK-WILD-S2: from A♥ the joker can only go above the two named 5♥: refused."""
    with pytest.raises(RuleViolation) as info:
        add("sahrat", "AH 2H 2C=3H 4H", "3H JK", wild_as="5H")
    assert info.value.as_dict() == {
        "code": "wild_two_to_end",
        "rule_id": "BK-WILD-S2",
        "message": "the wild two must move to an end of the run",
    }


def test_classic_a_displaced_wild_two_of_the_runs_suit_may_become_its_natural_two() -> None:
    """BK-WILD-C2, BK-WILD-3: 3♣ and 2♦ added to 2♣(=3♣) 4♣ 5♣: the 2♣ moves to the rank-2
    place, where it is the natural 2, and the 2♦ is the run's one wild two (two wild twos
    were refused)."""
    after = add("classic", "2C=3C 4C 5C", "2D 3C")
    assert after in {"2C 3C 4C 5C 2D=6C", "2D=AC 2C 3C 4C 5C"}
