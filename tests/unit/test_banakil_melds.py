"""New melds: runs, sets, aces, no wrap, natural twos, substitute limits, the real-card
minimum of each rule set, and how the engine infers the kind of a meld.

Rules: BK-MELD-1..8, BK-MELD-C1, BK-MELD-S1, BK-WILD-1, BK-WILD-2, BK-WILD-3, BK-WILD-C1,
BK-WILD-S1, BK-EX-3, BK-EX-4, BK-EX-5, BK-EX-6, BK-AMB-10, BK-AMB-14, BK-AMB-15.
"""

from __future__ import annotations

import pytest

from engine import banakil
from engine.banakil.melds import infer_kind, new_meld
from engine.banakil.messages import Meld, MeldLaid
from engine.cards import face
from engine.errors import RuleViolation
from tests.support import apply, cards, table, try_

BOTH = ("classic", "sahrat")
_EXTRA = "KD"  # one more card in the hand, so laying the meld does not end the deal


def lay(
    preset: str, text: str, kind: str | None = None, options: dict[str, object] | None = None
) -> MeldLaid:
    """Seat 1 lays `text` (faces, in the order of the command) as a new meld."""
    state = table(preset, hands=[f"{text} {_EXTRA}"], options=options)
    _, events = apply(state, 1, Meld(cards=tuple(text.split()), kind=kind))  # type: ignore[arg-type]
    (laid,) = events
    assert isinstance(laid, MeldLaid)
    assert laid.seat == 1
    return laid


def refuse(preset: str, text: str, kind: str | None = None) -> tuple[str, str]:
    state = table(preset, hands=[f"{text} {_EXTRA}"])
    error = try_(state, 1, Meld(cards=tuple(text.split()), kind=kind))  # type: ignore[arg-type]
    return error.code, error.rule_id


def spec(laid: MeldLaid) -> str:
    """The meld as laid, low to high: a substitute is written CARD=STANDS_FOR."""
    return " ".join(
        face(p.card) if p.stands_for == face(p.card) else f"{face(p.card)}={p.stands_for}"
        for p in laid.cards
    )


# --- runs: BK-MELD-1, BK-MELD-2, BK-MELD-3, BK-EX-3 -------------------------------------------


@pytest.mark.parametrize("preset", BOTH)
@pytest.mark.parametrize("text", ["5H 6H 7H", "9S 10S JS QS KS", "AH 2H 3H", "QC KC AC"])
def test_the_document_runs_are_legal_in_both_rule_sets(preset: str, text: str) -> None:
    """BK-EX-3, BK-MELD-2: 5♥ 6♥ 7♥, 9♠…K♠, A♥ 2♥ 3♥ (natural 2) and Q♣ K♣ A♣."""
    laid = lay(preset, text)
    assert laid.kind == "run"
    assert spec(laid) == text


@pytest.mark.parametrize("preset", BOTH)
def test_a_king_ace_two_run_is_refused_because_runs_never_wrap(preset: str) -> None:
    """BK-EX-3, BK-MELD-3: K♣ A♣ 2♣ is illegal (wrap)."""
    assert refuse(preset, "KC AC 2C") == ("run_out_of_range", "BK-MELD-3")


@pytest.mark.parametrize("preset", BOTH)
def test_a_run_of_mixed_suits_is_refused(preset: str) -> None:
    """BK-EX-3, BK-MELD-2: 5♥ 6♦ 7♥ is illegal."""
    assert refuse(preset, "5H 6D 7H") == ("run_mixed_suits", "BK-MELD-2")


@pytest.mark.parametrize("preset", BOTH)
def test_a_run_with_a_gap_is_refused(preset: str) -> None:
    """BK-MELD-2: consecutive ranks only."""
    assert refuse(preset, "5H 6H 8H") == ("run_not_consecutive", "BK-MELD-2")


@pytest.mark.parametrize("preset", BOTH)
@pytest.mark.parametrize("text", ["5H 6H", "AS AH"])
def test_a_meld_of_two_cards_is_refused(preset: str, text: str) -> None:
    """BK-MELD-1: every meld has at least 3 cards, run or set."""
    assert refuse(preset, text) == ("meld_too_short", "BK-MELD-1")


@pytest.mark.parametrize("preset", BOTH)
def test_an_ace_is_low_below_a_two_and_high_above_a_king(preset: str) -> None:
    """BK-MELD-3: A-2-3 and Q-K-A; the ace stands for itself at either end."""
    low = lay(preset, "AS 2S 3S")
    high = lay(preset, "QS KS AS")
    assert [p.stands_for for p in low.cards] == ["AS", "2S", "3S"]
    assert [p.stands_for for p in high.cards] == ["QS", "KS", "AS"]


@pytest.mark.parametrize("preset", BOTH)
@pytest.mark.parametrize(
    "text", ["AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"]
)
def test_a_run_of_thirteen_cards_is_legal_with_its_ace_at_one_end(preset: str, text: str) -> None:
    """BK-MELD-3: a run has at most 13 cards, its ace either low or high."""
    assert spec(lay(preset, text)) == text


@pytest.mark.parametrize("preset", BOTH)
def test_a_run_with_an_ace_at_both_ends_is_refused(preset: str) -> None:
    """BK-AMB-15, BK-MELD-3: A-2-…-K-A would use one ace as 1 and the other as 14."""
    text = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    assert refuse(preset, text) == ("run_too_long", "BK-MELD-3")


def test_a_run_listed_high_to_low_is_laid_low_to_high() -> None:
    """BK-MELD-2: the engine keeps every run low to high, whatever order the command used."""
    assert spec(lay("classic", "7H 6H 5H")) == "5H 6H 7H"


# --- sets: BK-MELD-4..8, BK-EX-4 ------------------------------------------------------------


@pytest.mark.parametrize("preset", BOTH)
@pytest.mark.parametrize("text", ["AS AH AC", "3S 3H 3D", "3S 3H 3D 3C"])
def test_sets_of_aces_and_of_threes_are_legal(preset: str, text: str) -> None:
    """BK-EX-4, BK-MELD-4, BK-MELD-5: three or four suits of A or of 3."""
    laid = lay(preset, text)
    assert laid.kind == "set"
    assert spec(laid) == text


@pytest.mark.parametrize("preset", BOTH)
def test_a_joker_completes_a_set_of_aces_in_both_rule_sets(preset: str) -> None:
    """BK-EX-4, BK-MELD-8, BK-WILD-2, BK-AMB-10: A♠ A♥ JK; the joker is one missing suit."""
    laid = lay(preset, "AS AH JK")
    assert laid.kind == "set"
    joker = laid.cards[2]
    assert face(joker.card) == "JK"
    assert joker.stands_for in {"AC", "AD"}


@pytest.mark.parametrize("preset", BOTH)
def test_a_joker_fills_the_fourth_suit_of_a_set_of_threes(preset: str) -> None:
    """BK-MELD-7, BK-MELD-8: within the 4-card limit the joker stands for the missing suit."""
    assert spec(lay(preset, "3S 3H 3D JK")) == "3S 3H 3D JK=3C"


@pytest.mark.parametrize("preset", BOTH)
@pytest.mark.parametrize("rank", ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
def test_a_set_of_any_rank_but_ace_or_three_is_refused(preset: str, rank: str) -> None:
    """BK-EX-4, BK-MELD-5: 7♠ 7♥ 7♦ is illegal, and so is every rank from 4 to K."""
    assert refuse(preset, f"{rank}S {rank}H {rank}D") == ("set_rank", "BK-MELD-5")


@pytest.mark.parametrize("preset", BOTH)
def test_twos_never_form_a_set(preset: str) -> None:
    """BK-EX-4, BK-MELD-6: 2♠ 2♥ 2♦ is illegal."""
    assert refuse(preset, "2S 2H 2D") == ("set_of_twos", "BK-MELD-6")


@pytest.mark.parametrize("preset", BOTH)
def test_a_set_repeating_a_suit_is_refused(preset: str) -> None:
    """BK-EX-4, BK-MELD-4: A♠ A♠ A♥ is illegal (two decks, one suit twice)."""
    assert cards("AS AS AH") == ("AS#1", "AS#2", "AH#1")
    assert refuse(preset, "AS AS AH") == ("set_repeated_suit", "BK-MELD-4")


@pytest.mark.parametrize("preset", BOTH)
def test_a_set_of_five_cards_is_refused(preset: str) -> None:
    """BK-EX-4, BK-MELD-7: A♠ A♥ A♦ A♣ JK is illegal (5 cards)."""
    assert refuse(preset, "AS AH AD AC JK") == ("set_too_long", "BK-MELD-7")


def test_a_set_of_five_with_a_wild_two_and_a_joker_is_refused_in_sahrat() -> None:
    """BK-MELD-7: substitutes count toward the 4-card limit."""
    assert refuse("sahrat", "AS AH AD JK 2C") == ("set_too_long", "BK-MELD-7")


@pytest.mark.parametrize("preset", BOTH)
def test_a_set_of_mixed_ranks_is_refused(preset: str) -> None:
    """BK-MELD-4: all the real cards of a set share one rank."""
    assert refuse(preset, "AS AH 3D", kind="set") == ("set_mixed_ranks", "BK-MELD-4")


# --- substitutes: BK-WILD-1..3, BK-EX-5, BK-EX-6 -------------------------------------------


@pytest.mark.parametrize("preset", BOTH)
def test_a_wild_two_stands_for_the_card_of_its_place_in_a_run(preset: str) -> None:
    """BK-EX-5, BK-WILD-2: 7♥ 8♥ 2♣ 10♥ is legal in both rule sets; the 2♣ is the 9♥."""
    assert spec(lay(preset, "7H 8H 2C 10H")) == "7H 8H 2C=9H 10H"


@pytest.mark.parametrize("preset", BOTH)
def test_a_run_with_two_wild_twos_is_refused(preset: str) -> None:
    """BK-EX-6, BK-WILD-1: 5♥ 2♣ 2♦ 8♥ is illegal."""
    assert refuse(preset, "5H 2C 2D 8H") == ("two_wild_twos", "BK-WILD-1")


@pytest.mark.parametrize("preset", BOTH)
def test_a_run_with_two_jokers_is_refused(preset: str) -> None:
    """BK-EX-6, BK-WILD-1: 5♥ JK JK 8H is illegal."""
    assert cards("5H JK JK 8H")[1:3] == ("JK#1", "JK#2")
    assert refuse(preset, "5H JK JK 8H") == ("two_jokers", "BK-WILD-1")


def test_one_real_card_is_enough_for_a_run_in_classic() -> None:
    """BK-EX-6, BK-WILD-C1: 5♥ 2♣ JK (2♣ = 6♥, JK = 7♥) is legal in `classic`."""
    assert spec(lay("classic", "5H 2C JK")) == "5H 2C=6H JK=7H"


def test_one_real_card_is_too_few_in_sahrat() -> None:
    """BK-EX-6, BK-WILD-S1: 5♥ 2♣ JK is illegal in `sahrat` (it needs 2 real cards)."""
    assert refuse("sahrat", "5H 2C JK") == ("too_few_real_cards", "BK-WILD-S1")


def test_two_real_cards_and_a_wild_two_make_a_run_in_sahrat() -> None:
    """BK-WILD-S1: the sahrat minimum is exactly 2 real cards."""
    assert spec(lay("sahrat", "5H 2C 7H")) == "5H 2C=6H 7H"


@pytest.mark.parametrize(("preset", "minimum"), [("classic", 2), ("sahrat", 1)])
def test_the_real_card_minimum_is_a_table_option(preset: str, minimum: int) -> None:
    """BK-WILD-C1, BK-WILD-S1 (BK-OPT-12): the engine reads `min_real_cards`, not the name."""
    state = table(preset, hands=[f"5H 2C JK {_EXTRA}"], options={"min_real_cards": minimum})
    command = Meld(cards=("5H", "2C", "JK"))
    if minimum == 1:
        _, events = apply(state, 1, command)
        assert isinstance(events[0], MeldLaid)
    else:
        error = try_(state, 1, command)
        assert (error.code, error.rule_id) == ("too_few_real_cards", "BK-WILD-S1")


def test_a_wild_two_in_a_set_is_refused_in_classic() -> None:
    """BK-EX-6, BK-MELD-C1: A♠ A♥ 2♣ is illegal in `classic`."""
    assert refuse("classic", "AS AH 2C") == ("wild_two_in_set", "BK-MELD-C1")


def test_a_wild_two_takes_a_missing_suit_of_a_set_in_sahrat() -> None:
    """BK-EX-6, BK-MELD-S1, BK-WILD-2: A♠ A♥ 2♣ is legal in `sahrat`."""
    laid = lay("sahrat", "AS AH 2C")
    assert laid.kind == "set"
    assert laid.cards[2].stands_for in {"AC", "AD"}


def test_a_set_with_a_joker_and_a_wild_two_is_refused_in_classic() -> None:
    """BK-EX-6, BK-MELD-C1: A♠ A♥ JK 2♣ is illegal in `classic`."""
    assert refuse("classic", "AS AH JK 2C") == ("wild_two_in_set", "BK-MELD-C1")


def test_a_set_with_a_joker_and_a_wild_two_covers_four_suits_in_sahrat() -> None:
    """BK-EX-6, BK-MELD-S1, BK-MELD-7: A♠ A♥ JK 2♣ is legal in `sahrat` (2 real, 4 suits)."""
    laid = lay("sahrat", "AS AH JK 2C")
    assert sorted(p.stands_for for p in laid.cards) == ["AC", "AD", "AH", "AS"]


def test_an_ace_a_joker_and_a_wild_two_is_an_illegal_set_in_classic() -> None:
    """BK-EX-6: A♠ JK 2♣ is illegal in both; it is a set (the only real card is an A), and
    `classic` allows no wild two in a set (BK-MELD-C1)."""
    assert infer_kind(cards("AS JK 2C")) == "set"
    assert refuse("classic", "AS JK 2C") == ("wild_two_in_set", "BK-MELD-C1")


def test_an_ace_a_joker_and_a_wild_two_is_an_illegal_set_in_sahrat() -> None:
    """BK-EX-6: A♠ JK 2♣ is illegal in both; in `sahrat` it has one real card (BK-WILD-S1)."""
    assert refuse("sahrat", "AS JK 2C") == ("too_few_real_cards", "BK-WILD-S1")


@pytest.mark.parametrize("preset", BOTH)
def test_a_natural_two_does_not_count_toward_the_one_wild_two_limit(preset: str) -> None:
    """BK-EX-6, BK-WILD-3, BK-AMB-14: A♥ 2♥ 3♥ 2♣ is legal (2♥ natural, 2♣ = 4♥)."""
    laid = lay(preset, "AH 2H 3H 2C")
    assert spec(laid) == "AH 2H 3H 2C=4H"


def test_a_natural_two_counts_as_a_real_card_toward_the_sahrat_minimum() -> None:
    """BK-WILD-3, BK-WILD-S1: 2♥ 3♥ JK has two real cards (the 2♥ is natural)."""
    assert spec(lay("sahrat", "2H 3H JK")) == "2H 3H JK=4H"


def test_a_two_of_another_suit_in_the_rank_two_place_is_wild() -> None:
    """BK-WILD-3: only a 2 of the run's suit is natural; 2♣ 3♥ JK has one real card."""
    assert refuse("sahrat", "2C 3H JK") == ("too_few_real_cards", "BK-WILD-S1")


@pytest.mark.parametrize("preset", BOTH)
def test_a_two_of_the_runs_suit_away_from_the_rank_two_place_is_wild(preset: str) -> None:
    """BK-WILD-3: 5♥ 2♥ 7♥ — the 2♥ stands for 6♥, so a second wild two is one too many."""
    assert spec(lay(preset, "5H 2H 7H")) == "5H 2H=6H 7H"
    assert refuse(preset, "5H 2H 7H 2C") == ("two_wild_twos", "BK-WILD-1")


def test_a_two_in_a_set_is_always_a_substitute() -> None:
    """BK-AMB-14: in A♠ A♥ 2♠ the 2♠ stands for a missing ace, never for itself."""
    laid = lay("sahrat", "AS AH 2S")
    assert laid.cards[2].stands_for in {"AC", "AD"}


# --- the kind of a new meld -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("AS AH AC", "set"),
        ("AS AH 2C", "set"),
        ("AS JK 2C", "set"),  # BK-EX-6: the only real card is an A
        ("3S 2C JK", "set"),
        ("2S 2H 2D", "set"),  # reported as the illegal set of twos (BK-MELD-6)
        ("5H 2C JK", "run"),
        ("AH 2H 3H", "run"),
        ("AH 2H JK", "run"),  # the 2♥ is the natural 2 of a run (BK-WILD-3)
        ("JK 2H 3H", "run"),
        ("QC KC AC", "run"),
    ],
)
def test_the_kind_of_a_meld_is_inferred_from_its_real_cards(text: str, kind: str) -> None:
    """BK-MELD-2, BK-MELD-4: a set when the real cards share one rank (two of them, or one A
    or 3 without a natural 2 of its suit beside it); otherwise a run."""
    assert infer_kind(cards(text)) == kind


@pytest.mark.parametrize("preset", BOTH)
def test_an_ace_a_natural_two_and_a_joker_are_laid_as_a_run(preset: str) -> None:
    """BK-WILD-3: A♥ 2♥ JK is a legal run (2 real cards); read as a set it would be refused."""
    laid = lay(preset, "AH 2H JK")
    assert laid.kind == "run"
    assert spec(laid) == "AH 2H JK=3H"


@pytest.mark.parametrize("preset", BOTH)
def test_an_explicit_kind_is_not_second_guessed(preset: str) -> None:
    """BK-MELD-2: three aces of different suits asked for as a run are not a run."""
    assert refuse(preset, "AS AH AD", kind="run") == ("run_mixed_suits", "BK-MELD-2")


# --- found by the oracle of tests/property/meld_oracle.py (issue 10 item 14) ----------------


@pytest.mark.parametrize("preset", BOTH)
@pytest.mark.parametrize(
    ("text", "laid"),
    [("3C 2C JK", "JK=AC 2C 3C"), ("JK 2H AH", "AH 2H JK=3H"), ("3S 2S AS", "AS 2S 3S")],
)
def test_a_run_with_a_natural_two_listed_high_to_low_is_laid(
    preset: str, text: str, laid: str
) -> None:
    """BK-WILD-3, BK-MELD-2: 3♣ 2♣ JK is the run A♣ 2♣ 3♣ listed high to low (the 2♣ is a
    natural card, so two real cards); it was read as a set and refused."""
    assert spec(lay(preset, text)) == laid


# --- readings that mutation testing showed untested (issue 10 item 15) -----------------------


def test_a_run_of_one_real_ace_listed_last_may_be_ace_high() -> None:
    """BK-MELD-3, BK-WILD-C1: as a run, 2♣ JK A♣ is 2♣=Q♣ JK=K♣ A♣ (the list is low to high)."""
    _, placed = new_meld(cards("2C JK AC"), "run", 1, banakil.options_from("classic"))
    assert " ".join(f"{face(p.card)}={p.stands_for}" for p in placed) == "2C=QC JK=KC AC=AC"


def test_a_run_of_substitutes_around_a_natural_two() -> None:
    """BK-WILD-3, BK-WILD-C1: JK 2♥ 2♣ is JK=A♥ 2♥ 2♣=3♥ (the 2♥ natural, one real card)."""
    assert spec(lay("classic", "JK 2H 2C")) == "JK=AH 2H 2C=3H"


@pytest.mark.parametrize(
    ("text", "message"), [("8H JK 5H", "8H"), ("8H 5H 6H 9H", "5H"), ("5H 7H 6H 5H", "7H")]
)
def test_a_refused_run_names_the_card_out_of_place_in_its_likeliest_reading(
    text: str, message: str
) -> None:
    """BK-MELD-2: a list whose first real card is higher than its last is read high to low
    first, otherwise low to high first; the error names the first card that does not fit
    that reading."""
    with pytest.raises(RuleViolation) as info:
        new_meld(cards(text), "run", 1, banakil.options_from("classic"))
    assert info.value.as_dict() == {
        "code": "run_not_consecutive",
        "rule_id": "BK-MELD-2",
        "message": f"{message} is out of place",
    }


def test_two_real_cards_of_one_rank_are_read_as_a_set() -> None:
    """BK-MELD-4, BK-MELD-5: 7♠ 7♥ JK is a set (of an illegal rank), not a run."""
    assert infer_kind(cards("7S 7H JK")) == "set"
    assert refuse("classic", "7S 7H JK") == ("set_rank", "BK-MELD-5")


@pytest.mark.parametrize("text", ["2H 3H JK", "2H JK 2C"])
def test_a_natural_two_makes_a_run(text: str) -> None:
    """BK-WILD-3: a 2 of the suit on the rank-2 place; 2s with a joker are no set of twos."""
    assert infer_kind(cards(text)) == "run"


def test_a_guessed_run_that_fails_is_tried_as_a_set() -> None:
    """BK-MELD-S1, BK-WILD-C1: JK A♥ 2♥ fits no run (the 2♥ would be the natural 2 below
    the ace); with one real card and twos in sets allowed it is the set A♥ JK 2♥."""
    opts = banakil.options_from("classic", wild_two_in_sets=True)
    kind, placed = new_meld(cards("JK AH 2H"), None, 1, opts)
    assert kind == "set"
    assert {p.seat for p in placed} == {1}
    assert sorted(p.stands_for[0] for p in placed) == ["A", "A", "A"]


def test_a_guessed_set_that_fails_is_laid_as_the_run_of_its_natural_two() -> None:
    """BK-WILD-3: 3♣ 2♣ JK falls back from a set to the run A♣ 2♣ 3♣, placed by the seat."""
    kind, placed = new_meld(cards("3C 2C JK"), None, 2, banakil.options_from("sahrat"))
    assert kind == "run"
    assert {p.seat for p in placed} == {2}


@pytest.mark.parametrize("text", ["QH KH 5H", "5H AH 7H"])
def test_only_an_ace_stands_above_the_king_and_no_ace_stands_inside_a_run(text: str) -> None:
    """BK-MELD-2, BK-MELD-3: place 14 is the ace's alone, and an ace is never inside a run."""
    assert refuse("classic", text, kind="run") == ("run_not_consecutive", "BK-MELD-2")
