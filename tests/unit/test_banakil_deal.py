"""Banakil rule sets, the deal, the turn, drawing, discarding, the stock and the deal's end.

Rules (../shared/rules/banakil.md): BK-RS-1..4, BK-PLAY-1..3, BK-PLAY-C1, BK-PLAY-S1,
BK-DECK-1..5, BK-DEAL-1..6, BK-DEAL-C1, BK-DEAL-C3, BK-DEAL-S1..S3, BK-TURN-1..6,
BK-DRAW-1, BK-DRAW-2, BK-DRAW-C1..C5, BK-DRAW-S1..S3, BK-DISC-1..3, BK-STOCK-1,
BK-STOCK-C1, BK-STOCK-C2, BK-STOCK-S1..S3, BK-END-1..5; test cases BK-EX-1, BK-EX-2,
BK-EX-12, BK-EX-17, BK-EX-19; decisions BK-AMB-1..6, 19, 24..27, 31, 34; platform PF-CUT-1,
PF-CUT-3..6, PF-EX-1, PF-FAIR-1, PF-FAIR-4. BK-DEAL-C2 and BK-DEAL-S4 (the next match) are in
test_banakil_scoring.py with the series.

Given a table (built with tests.support or dealt through decide), when a command, then the
events or the RuleViolation; a refused command leaves the state exactly as it was.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from engine import banakil, fair
from engine import table as table_aggregate
from engine.banakil.messages import (
    CardDiscarded,
    CardDrawn,
    CardsDealt,
    CloseSeedWindow,
    Command,
    CommitSeed,
    Cut,
    Deal,
    DealEnded,
    DealScored,
    DeckCut,
    Discard,
    Draw,
    Event,
    GroundReshuffled,
    GroundTaken,
    LayOff,
    Meld,
    MeldLaid,
    Play,
    StackDeck,
    TakeGround,
)
from engine.banakil.scoring import HALF_POINTS, hand_value
from engine.banakil.state import State, team_of
from engine.cards import BANAKIL_DECK, RANK, canonical_deck, face, faces
from engine.errors import RuleViolation
from tests.support import apply, cards, faces_of, meld, try_
from tests.support import table as support_table

SECRET = "5e" * 32
HEARTS = ("AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH")
SPADES = ("3S", "4S", "5S", "6S", "7S", "8S")
# 19 cards that a starter lays in two melds on his first turn, going out at once.
OUT_AT_ONCE = HEARTS + SPADES
# BK-EX-1 / BK-EX-2: the ground from top to bottom A, 7, K, 5, Q, 9, 3 (the A is A♦).
EX_GROUND = "AD 7C KS 5H QD 9C 3S"


# --- helpers ------------------------------------------------------------------------------

_PER_DEAL = ("opened", "laid", "acted", "turn_clean")


def table(preset: str = "classic", **kwargs: Any) -> State:
    """tests.support.table, plus the per-deal flags (opened, laid, acted, turn_clean) that
    its builder resets."""
    flags = {k: kwargs.pop(k) for k in _PER_DEAL if k in kwargs}
    return replace(support_table(preset, **kwargs), **flags)


def fold(state: State, events: tuple[Event, ...]) -> State:
    for event in events:
        state = banakil.evolve(state, event)
    return state


def rejected(state: State, seat: int, command: Command, code: str, rule_id: str) -> RuleViolation:
    """The command is refused with `code` under `rule_id`, and nothing changed."""
    before = msgspec.json.encode(state)
    err = try_(state, seat, command)
    assert (err.code, err.rule_id) == (code, rule_id), err
    assert msgspec.json.encode(state) == before
    return err


def starter_deck(
    starter_cards: tuple[str, ...] = OUT_AT_ONCE, seats: int = 4, bottom: str | None = None
) -> list[str]:
    """A 106-card deck (faces, top first) whose cards 1, 1+n, 1+2n … go to the starter
    (BK-DEAL-6): `starter_cards` there, `bottom` as the last card, the rest in canonical
    order."""
    pins = {i * seats: c for i, c in enumerate(starter_cards)}
    if bottom is not None:
        pins[len(BANAKIL_DECK) - 1] = bottom
    rest = list(faces(canonical_deck()))
    for f in pins.values():
        rest.remove(f)
    it = iter(rest)
    return [pins[i] if i in pins else next(it) for i in range(len(BANAKIL_DECK))]


def dealt_in_order(deck: tuple[str, ...] | list[str], starter: int, n: int) -> list[list[str]]:
    """The hands by seat that BK-DEAL-6 makes from `deck` (top first)."""
    hands: list[list[str]] = [[] for _ in range(n)]
    for k in range(18 * n + 1):
        hands[(starter - 1 + k) % n].append(deck[k])
    return hands


def precut(wanted: list[str], k: int) -> list[str]:
    """The committed deck that a cut at `k` turns into `wanted` (PF-CUT-5)."""
    return wanted[-k:] + wanted[:-k]


def seeded(
    preset: str, deck: list[str], *, host: int = 1, dealer: int | None = None, **overrides: Any
) -> State:
    state = banakil.initial(banakil.options_from(preset, **overrides), host)
    return fold(state, banakil.decide(state, 0, StackDeck(cards=tuple(deck), dealer=dealer)))


def dealt(
    preset: str, deck: list[str] | None = None, *, dealer: int | None = None, **overrides: Any
) -> State:
    """A table whose first deal is dealt from a stacked deck. `deck` is the order dealt: in
    `classic` the host of seat 1 cuts a committed deck at 105 into it, so deck[-1] is the
    cut card that picks the starter."""
    deck = deck or starter_deck()
    if banakil.options_from(preset, **overrides).first_player == "host_cut":
        state = seeded(preset, precut(deck, 105), dealer=dealer, **overrides)
        return fold(state, banakil.decide(state, 1, Cut(position=105)))
    state = seeded(preset, deck, dealer=dealer, **overrides)
    return fold(state, banakil.decide(state, 0, Deal()))


def go_out_at_once(state: State) -> tuple[State, tuple[Event, ...]]:
    """The starter lays OUT_AT_ONCE on his first turn (BK-TURN-5)."""
    return apply(state, state.turn, Play(actions=(Meld(cards=HEARTS), Meld(cards=SPADES))))


def next_deal(state: State, deck: list[str] | None = None) -> State:
    state = fold(state, banakil.decide(state, 0, StackDeck(cards=tuple(deck or starter_deck()))))
    return fold(state, banakil.decide(state, 0, Deal()))


def dealt_event(events: tuple[Event, ...]) -> CardsDealt:
    return next(e for e in events if isinstance(e, CardsDealt))


# --- rule sets and options (BK-RS, BK-OPT) --------------------------------------------------


def test_a_new_table_uses_sahrat_unless_the_host_picks_classic() -> None:
    """BK-RS-2, BK-AMB-24: the default rule set is `sahrat`."""
    assert banakil.options_from() == banakil.PRESETS["sahrat"]
    assert banakil.options_from().ruleset == "sahrat"
    assert banakil.BanakilOptions().ruleset == "sahrat"
    assert banakil.options_from("classic").ruleset == "classic"


def test_the_rule_set_is_chosen_once_and_fixed_for_the_whole_table() -> None:
    """BK-RS-1: one rule set per table, fixed: the options are frozen and carried by every
    state, deal after deal; an unknown rule set is refused."""
    opts = banakil.options_from("classic")
    with pytest.raises(AttributeError):
        opts.ruleset = "sahrat"  # type: ignore[misc]
    state, _ = go_out_at_once(dealt("classic"))
    state = next_deal(state)
    assert state.options == opts
    with pytest.raises(RuleViolation) as info:
        banakil.options_from("bunco")
    assert (info.value.code, info.value.rule_id) == ("bad_option", "BK-RS-1")


CLASSIC_VALUES = {
    "one_vs_one_allowed": False,  # BK-OPT-1
    "target_score": 202,  # BK-OPT-2
    "match_end": "margin",  # BK-OPT-3
    "scoring_unit": "player",  # BK-OPT-4
    "personal_opening": True,  # BK-OPT-5
    "going_out_bonus": 20,  # BK-OPT-6
    "single_meld_bonus": False,  # BK-OPT-7
    "max_reshuffles": 2,  # BK-OPT-9
    "exhausted_deal": "dead",  # BK-OPT-10
    "ground_draw": "chosen_and_above",  # BK-OPT-11
    "min_real_cards": 1,  # BK-OPT-12
    "wild_two_in_sets": False,  # BK-OPT-13
    "partner_addon_needs_own_meld": False,  # BK-OPT-14
    "freed_joker": "to_hand",  # BK-OPT-15
    "wild_two_relocation": "any_position",  # BK-OPT-16
    "first_player": "host_cut",  # BK-OPT-17
    "turn_seconds": 40,  # BK-OPT-19
    "hints": False,  # BK-OPT-22
}
SAHRAT_VALUES = {
    "one_vs_one_allowed": True,
    "target_score": 222,
    "match_end": "highest_total",
    "scoring_unit": "team",
    "personal_opening": False,
    "going_out_bonus": 20,
    "single_meld_bonus": True,
    "max_reshuffles": 10,  # BK-STOCK-S3
    "exhausted_deal": "used_up",
    "ground_draw": "top_only_must_use",
    "min_real_cards": 2,
    "wild_two_in_sets": True,
    "partner_addon_needs_own_meld": True,
    "freed_joker": "must_remeld",
    "wild_two_relocation": "ends_on_real_card",
    "first_player": "fair_draw_dealer",
    "turn_seconds": 20,
    "hints": True,
}


@pytest.mark.parametrize(
    ("preset", "values"), [("classic", CLASSIC_VALUES), ("sahrat", SAHRAT_VALUES)]
)
def test_a_rule_set_is_a_named_bundle_of_option_values(preset: str, values: dict[str, Any]) -> None:
    """BK-RS-3, BK-AMB-25, BK-AMB-30: the presets hold the option values of the §1.1 table
    (hints off in `classic`, on in `sahrat`)."""
    opts = banakil.options_from(preset)
    assert {k: getattr(opts, k) for k in values} == values
    assert opts.mode == "partnership"


def test_the_engine_reads_option_values_never_the_rule_set_name() -> None:
    """BK-RS-3: relabelling `sahrat` as `classic` changes nothing (still top card only),
    while overriding one option changes exactly that rule."""
    relabelled = table("sahrat", options={"ruleset": "classic"}, ground=EX_GROUND, drawn=False)
    rejected(relabelled, 1, TakeGround(position=4), "top_card_only", "BK-DRAW-S1")
    chosen = table(
        "sahrat", options={"ground_draw": "chosen_and_above"}, ground=EX_GROUND, drawn=False
    )
    after, events = apply(chosen, 1, TakeGround(position=4))
    assert faces_of(events[0].cards) == ["AD", "7C", "KS", "5H"]  # type: ignore[union-attr]
    assert after.options.min_real_cards == 2  # every other sahrat value kept


@pytest.mark.parametrize(
    "overrides",
    [
        {"target_score": 0},
        {"target_score": -202},
        {"turn_seconds": 4},
        {"turn_seconds": 0},
        {"target_score": "202"},
        {"no_such_option": True},
    ],
    ids=["target-0", "target-negative", "turn-4s", "turn-0s", "target-not-a-number", "unknown"],
)
@pytest.mark.parametrize("preset", ["classic", "sahrat"])
def test_an_option_value_that_cannot_work_is_refused_when_the_table_is_created(
    preset: str, overrides: dict[str, Any]
) -> None:
    """BK-RS-3: a target below 1 or a turn time below 5 s is refused with a clear error."""
    with pytest.raises(RuleViolation) as info:
        banakil.options_from(preset, **overrides)
    assert (info.value.code, info.value.rule_id) == ("bad_option", "BK-RS-3")
    assert info.value.message


@pytest.mark.parametrize(
    "overrides", [{"target_score": 0}, {"turn_seconds": 4}], ids=["target-0", "turn-4s"]
)
def test_creating_a_table_refuses_options_that_cannot_work(overrides: dict[str, Any]) -> None:
    """BK-RS-3: options built without options_from are checked when the table is created."""
    opts = replace(banakil.PRESETS["sahrat"], **overrides)
    fresh = table_aggregate.new_table("t-1")
    command = table_aggregate.CreateTable(options=opts, seats=("human",) * 4)
    with pytest.raises(RuleViolation) as info:
        table_aggregate.decide(fresh, 0, command)
    assert (info.value.code, info.value.rule_id) == ("bad_option", "BK-RS-3")


def test_the_smallest_workable_target_and_turn_time_are_accepted() -> None:
    """BK-RS-3: the limits themselves (target 1, turn 5 s) work."""
    opts = banakil.options_from("classic", target_score=1, turn_seconds=5)
    assert (opts.target_score, opts.turn_seconds) == (1, 5)


def test_classic_has_only_the_partnership_mode() -> None:
    """BK-PLAY-C1, BK-OPT-1: a `classic` table cannot be played 1v1."""
    with pytest.raises(RuleViolation) as info:
        banakil.options_from("classic", mode="one_vs_one")
    assert (info.value.code, info.value.rule_id) == ("bad_option", "BK-PLAY-C1")
    assert banakil.options_from("classic").seats == 4


def test_sahrat_one_vs_one_has_two_seats_each_its_own_team_and_a_150_target() -> None:
    """BK-PLAY-S1, BK-AMB-22, BK-WIN-S1: two players in seats 1 and 2, each a team alone;
    the 1v1 target is 150 unless the host sets another; a third seat does not exist."""
    opts = banakil.options_from("sahrat", mode="one_vs_one")
    assert (opts.seats, opts.target_score) == (2, 150)
    assert banakil.options_from("sahrat", mode="one_vs_one", target_score=99).target_score == 99
    state = table("sahrat", options={"mode": "one_vs_one"}, hands=["3S 4S 5S 9C", "3H 4H 5H"])
    assert (team_of(state, 1), team_of(state, 2)) == (1, 2)
    rejected(state, 3, Draw(), "bad_seat", "BK-PLAY-1")


def test_a_partner_option_is_inert_in_one_vs_one() -> None:
    """BK-RS-3, BK-PLAY-S1: with no partner, `partner_addon_needs_own_meld` has nothing to
    restrict; adding to one's own meld works before and after laying anything new."""
    state = table(
        "sahrat",
        options={"mode": "one_vs_one", "partner_addon_needs_own_meld": True},
        hands=["6S 9C", ""],
        melds=[meld(0, 1, 1, "run", "3S 4S 5S")],
    )
    after, _ = apply(state, 1, LayOff(meld=0, cards=("6S",)))
    assert faces_of(p.card for p in after.melds[0].cards) == ["3S", "4S", "5S", "6S"]


# --- players and seats (BK-PLAY) ------------------------------------------------------------


def test_partners_sit_opposite_seats_one_and_three_against_two_and_four() -> None:
    """BK-PLAY-1, BK-AMB-2: team 1 = seats 1+3, team 2 = seats 2+4; a meld belongs to its
    layer's team; there is no fifth seat."""
    state = table("classic", hands=["", "", "3S 4S 5S 9C", ""], turn=3)
    assert [team_of(state, s) for s in (1, 2, 3, 4)] == [1, 2, 1, 2]
    after, _ = apply(state, 3, Meld(cards=("3S", "4S", "5S")))
    assert after.melds[0].team == 1
    rejected(state, 5, Draw(), "bad_seat", "BK-PLAY-1")


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
def test_the_turn_passes_to_the_next_seat_and_from_four_back_to_one(preset: str) -> None:
    """BK-PLAY-3, BK-AMB-3, BK-RS-4: the turn goes to the player on the right = the next seat
    number, 4 → 1, in both rule sets."""
    state = table(preset, hands=["9C 8C", "9D 8D", "9H 8H", "9S 8S"], turn=4)
    state, _ = apply(state, 4, Discard(card="9S"))
    assert (state.turn, state.drawn) == (1, False)
    state, _ = apply(state, 1, Draw())
    state, _ = apply(state, 1, Discard(card="9C"))
    assert state.turn == 2


def test_teams_never_change_during_a_match() -> None:
    """BK-PLAY-2: a seat's team is fixed; there is no command that moves a player (the
    seat swap between matches, PF-SERIES-3, is not in the engine yet)."""
    state = table("classic")
    names = {t.__name__ for t in banakil.messages.COMMAND_TYPES}
    assert not any("seat" in n.lower() and "seed" not in n.lower() for n in names)
    assert [team_of(state, s) for s in (1, 2, 3, 4)] == [1, 2, 1, 2]


# --- the deck (BK-DECK) ---------------------------------------------------------------------


def test_a_deal_uses_106_cards_two_decks_and_two_jokers() -> None:
    """BK-DECK-1, BK-DECK-2: 2 × 52 + 2 jokers; eight 2s; every dealt card is different."""
    assert len(BANAKIL_DECK) == len(set(BANAKIL_DECK)) == 106
    assert sum(1 for c in BANAKIL_DECK if RANK[c] == 0) == 2
    assert sum(1 for c in BANAKIL_DECK if RANK[c] == 2) == 8
    for f in ("AS", "7H", "KD", "2C"):
        assert sum(1 for c in BANAKIL_DECK if face(c) == f) == 2
    state = dealt("sahrat")
    everything = [c for h in state.hands for c in h] + list(state.stock)
    assert sorted(everything) == sorted(BANAKIL_DECK)


@pytest.mark.parametrize(
    "deck",
    [
        list(faces(BANAKIL_DECK))[:-1],
        [*list(faces(BANAKIL_DECK))[:-1], "AS"],
        [*list(faces(BANAKIL_DECK)), "JK"],
    ],
    ids=["105-cards", "third-ace-of-spades", "third-joker"],
)
def test_a_stacked_deck_must_hold_the_106_cards_once_each(deck: list[str]) -> None:
    """BK-DECK-1: a deck with a card missing or repeated is refused."""
    state = banakil.initial(banakil.options_from("classic"))
    rejected(state, 0, StackDeck(cards=tuple(deck)), "bad_deck", "BK-DECK-1")


@pytest.mark.parametrize(
    ("card", "half_points"),
    [
        ("3C", 1), ("4D", 1), ("5H", 1), ("6S", 1),
        ("7C", 2), ("8D", 2), ("9H", 2), ("10S", 2), ("JC", 2), ("QD", 2), ("KH", 2),
        ("AS", 2), ("2C", 4), ("2H", 4), ("JK", 8),
    ],
)  # fmt: skip
def test_card_values_are_the_same_table_in_both_rule_sets(card: str, half_points: int) -> None:
    """BK-DECK-3, BK-AMB-1: 3–6 = 0.5, 7–K = 1, A = 1, 2 = 2, JK = 4 (in half-points)."""
    assert HALF_POINTS[f"{card}#1"] == HALF_POINTS[f"{card}#2"] == half_points


def test_a_hand_is_worth_the_sum_of_its_card_values() -> None:
    """BK-EX-12: 3♠ 6♦ 7♣ K♥ A♠ 2♦ JK = 0.5 + 0.5 + 1 + 1 + 1 + 2 + 4 = 10."""
    assert hand_value(cards("3S 6D 7C KH AS 2D JK")) == 20


def test_substitutes_count_their_own_value_and_halves_are_never_rounded() -> None:
    """BK-DECK-4, BK-DECK-5: a 2 standing for 9♥ counts 2 and a joker standing for 6♠
    counts 4, never the represented card; 30.5 stays 30.5 (61 half-points)."""
    state = table(
        "classic",
        hands=["9C", "", "", ""],
        melds=[meld(0, 1, 1, "run", "7H 8H 2C=9H 10H"), meld(1, 1, 1, "run", "5S JK=6S 7S")],
        opened=(True, False, False, False),
        acted=(True, False, False, False),
        turn_clean=False,
    )
    _, events = apply(state, 1, Discard(card="9C"))
    scored = next(e for e in events if isinstance(e, DealScored))
    seat1 = scored.players[0]
    assert (seat1.melded, seat1.bonus, seat1.score) == (21, 40, 61)  # 10.5 + 20 = 30.5


# --- dealing (BK-DEAL) ----------------------------------------------------------------------


def test_every_deal_is_dealt_from_the_fair_shuffle_of_all_106_cards() -> None:
    """BK-DEAL-1, BK-AMB-31, PF-FAIR-1: the deck dealt is the committed secret's shuffle."""
    state = banakil.initial(banakil.options_from("sahrat"))
    state = fold(state, banakil.decide(state, 0, CommitSeed(secret=SECRET)))
    events = banakil.decide(state, 0, Deal())
    deal = dealt_event(events)
    deck = fair.deal_deck(bytes.fromhex(SECRET), fair.entropy(["", "", "", ""]))
    assert [list(h) for h in deal.hands] == dealt_in_order(deck, deal.starter, 4)
    assert deal.stock == deck[73:]
    assert sorted([*(c for h in deal.hands for c in h), *deal.stock]) == sorted(deck)


def test_classic_deals_from_the_fair_shuffle_too_after_the_cut() -> None:
    """BK-DEAL-1, BK-AMB-31, PF-CUT-5: in `classic` the committed shuffle is cut, then dealt
    (once the client seed window has closed, PF-AMB-12 h)."""
    state = banakil.initial(banakil.options_from("classic"))
    state = fold(state, banakil.decide(state, 0, CommitSeed(secret=SECRET)))
    state = fold(state, banakil.decide(state, 0, CloseSeedWindow()))
    events = banakil.decide(state, 1, Cut(position=37))
    deck = fair.deal_deck(bytes.fromhex(SECRET), fair.entropy(["", "", "", ""]))
    cut = fair.cut(deck, 37)
    deal = dealt_event(events)
    assert [list(h) for h in deal.hands] == dealt_in_order(cut, deal.starter, 4)
    assert deal.stock == cut[73:]
    assert events[0] == DeckCut(
        position=37, automatic=False, cut_card=deck[36], starter=deal.starter
    )


@pytest.mark.parametrize(
    ("preset", "mode", "dealer", "stock_size"),
    [
        ("sahrat", "partnership", 4, 33),
        ("sahrat", "partnership", 2, 33),
        ("sahrat", "one_vs_one", 2, 69),
        ("sahrat", "one_vs_one", 1, 69),
    ],
)
def test_cards_are_dealt_one_at_a_time_from_the_top_starting_with_the_starter(
    preset: str, mode: str, dealer: int, stock_size: int
) -> None:
    """BK-DEAL-2, BK-DEAL-3, BK-DEAL-6, BK-DEAL-S2: one card each in turn from the starter
    until all hold 18, the 19th to the starter; the rest is the stock (33, or 69 in 1v1)."""
    deck = list(faces(BANAKIL_DECK))
    state = seeded(preset, deck, dealer=dealer, mode=mode)
    deal = dealt_event(banakil.decide(state, 0, Deal()))
    n = state.seats
    starter = dealer % n + 1
    assert deal.starter == starter
    assert [faces_of(h) for h in deal.hands] == dealt_in_order(deck, starter, n)
    assert [len(h) for h in deal.hands].count(19) == 1
    assert len(deal.stock) == stock_size
    assert faces_of(deal.stock) == deck[18 * n + 1 :]


def test_classic_deals_18_cards_and_19_to_the_starter_with_a_33_card_stock() -> None:
    """BK-DEAL-2, BK-DEAL-3, BK-RS-4: the same counts in `classic`."""
    state = dealt("classic")
    assert sorted(len(h) for h in state.hands) == [18, 18, 18, 19]
    assert len(state.hands[state.starter - 1]) == 19
    assert len(state.stock) == 33


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
def test_the_ground_is_empty_when_a_deal_starts(preset: str) -> None:
    """BK-DEAL-4: no face-up starting card, also in a deal that follows a deal whose
    ground held cards."""
    assert dealt(preset).ground == ()
    state = table(
        preset,
        hands=["3S 4S 5S", "KC", "KD", "KH"],
        ground="QD 5H 3H",
        acted=(True, False, False, False),
        turn_clean=False,
    )
    state, _ = apply(state, 1, Meld(cards=("3S", "4S", "5S")))
    state = next_deal(state)
    assert state.phase == "play" and state.ground == ()
    assert banakil.legal(state, state.turn).ground_positions == ()


def test_the_starter_does_not_draw_on_his_first_turn() -> None:
    """BK-DEAL-5, BK-EX-19, BK-AMB-27: 19 cards; a draw (or a ground take) is refused; he
    lays nothing and discards → 18 cards, and the player on his right is next."""
    state = dealt("classic")
    starter = state.turn
    assert len(state.hands[starter - 1]) == 19
    rejected(state, starter, Draw(), "first_turn_no_draw", "BK-DEAL-5")
    rejected(state, starter, TakeGround(position=1), "first_turn_no_draw", "BK-DEAL-5")
    state, events = apply(state, starter, Discard(card="KH"))
    assert events == (CardDiscarded(seat=starter, card="KH#1"),)
    assert len(state.hands[starter - 1]) == 18
    assert (state.turn, state.drawn) == (starter % 4 + 1, False)


def test_the_sahrat_starter_who_starts_by_discarding_may_meld_first() -> None:
    """BK-DEAL-5, BK-AMB-4, BK-OPT-18: `sahrat`'s "starts by discarding" only skips the
    draw; he may lay melds before his discard, like in `classic`."""
    state = dealt("sahrat", dealer=4)
    assert state.turn == 1
    state, _ = apply(state, 1, Meld(cards=SPADES))
    state, _ = apply(state, 1, Discard(card="KH"))
    assert len(state.hands[0]) == 19 - 6 - 1
    assert state.turn == 2


def test_the_starter_draws_normally_on_his_later_turns() -> None:
    """BK-DEAL-5: only the first turn of the deal skips the draw."""
    state = dealt("sahrat", dealer=4)
    state, _ = apply(state, 1, Discard(card="KH"))
    for seat in (2, 3, 4):
        rejected(
            state, seat, Discard(card=face(state.hands[seat - 1][0])), "draw_first", "BK-TURN-2"
        )
        state, _ = apply(state, seat, Draw())
        state, _ = apply(state, seat, Discard(card=face(state.hands[seat - 1][0])))
    rejected(state, 1, Discard(card="AH"), "draw_first", "BK-TURN-2")
    state, events = apply(state, 1, Draw())
    assert isinstance(events[0], CardDrawn)


def test_classic_first_deal_waits_for_the_hosts_cut() -> None:
    """BK-DEAL-C1, PF-CUT-1: no deal before the host cuts; only the host cuts, at 1..105. A
    stacked deck has no client seed window (seeds would change nothing): the cut is next."""
    state = seeded("classic", starter_deck(), host=2)
    rejected(state, 0, Deal(), "awaiting_cut", "PF-CUT-1")
    rejected(state, 1, Cut(position=37), "not_host", "PF-CUT-1")
    rejected(state, 2, Cut(position=0), "bad_cut", "PF-CUT-1")
    rejected(state, 2, Cut(position=106), "bad_cut", "PF-CUT-1")
    assert banakil.legal(state, 2).commands == ("Cut",)
    assert banakil.legal(state, 0).commands == ("Cut",)
    assert banakil.legal(state, 1).commands == ()
    events = banakil.decide(state, 2, Cut(position=105))
    assert isinstance(events[0], DeckCut) and isinstance(events[1], CardsDealt)


@pytest.mark.parametrize(
    ("host", "cut_card", "starter"),
    [(1, "7H", 3), (1, "KC", 1), (1, "AS", 1), (1, "4D", 4), (2, "7H", 4), (3, "JK", 4),
     (4, "10S", 1), (4, "JD", 2), (2, "QS", 1)],
)  # fmt: skip
def test_the_host_cut_gives_the_starting_seat_from_the_cut_card(
    host: int, cut_card: str, starter: int
) -> None:
    """PF-CUT-4, PF-CUT-5, PF-EX-1, BK-DEAL-C1: the card at the host's position k ends at the
    bottom; its count v (A 1 … K 13, JK 14) moves the start (v − 1) mod 4 seats from the
    host: host 1, card 37 a 7 → seat 3 with 19 cards; a K → seat 1."""
    deck = list(faces(BANAKIL_DECK))
    deck.remove(cut_card)
    deck.insert(36, cut_card)  # card 37 of the committed deck
    state = seeded("classic", deck, host=host)
    events = banakil.decide(state, host, Cut(position=37))
    assert events[0] == DeckCut(
        position=37, automatic=False, cut_card=f"{cut_card}#1", starter=starter
    )
    state = fold(state, events)
    assert (state.starter, state.turn) == (starter, starter)
    assert len(state.hands[starter - 1]) == 19
    cut = deck[37:] + deck[:37]
    assert faces_of(state.hands[starter - 1][:2]) == [cut[0], cut[4]]
    assert faces_of(state.stock) == cut[73:]
    assert face(state.stock[-1]) == cut_card  # the cut card is now the bottom card
    assert {banakil.view(state, s).cut_card for s in (1, 2, 3, 4, None)} == {f"{cut_card}#1"}


def test_without_the_hosts_cut_the_system_cuts_from_the_fair_randomness() -> None:
    """PF-CUT-3, PF-AMB-2, PF-EX-1: the automatic cut is drawn from the deal's secret and the
    same rule gives the starter; only the system makes it."""
    state = banakil.initial(banakil.options_from("classic"))
    state = fold(state, banakil.decide(state, 0, CommitSeed(secret=SECRET)))
    state = fold(state, banakil.decide(state, 0, CloseSeedWindow()))
    rejected(state, 1, Cut(), "system_only", "PF-FAIR-1")
    events = banakil.decide(state, 0, Cut())
    e = fair.entropy(["", "", "", ""])
    k = fair.auto_cut(bytes.fromhex(SECRET), e)
    deck = fair.deal_deck(bytes.fromhex(SECRET), e)
    starter = fair.cut_starter(1, fair.cut_count(deck[k - 1]), 4)
    assert events[0] == DeckCut(position=k, automatic=True, cut_card=deck[k - 1], starter=starter)
    assert dealt_event(events).starter == starter


def test_classic_later_deals_start_one_seat_further_without_a_cut() -> None:
    """BK-DEAL-C3, PF-CUT-6: each later deal starts at the next seat (4 → 1), no cut."""
    cut_deck = starter_deck(bottom="9C")  # a 9: the host of seat 1 starts ((9 − 1) mod 4 = 0)
    state = dealt("classic", cut_deck)
    starters = [state.starter]
    for _ in range(4):
        state, _ = go_out_at_once(state)
        state = fold(state, banakil.decide(state, 0, StackDeck(cards=tuple(starter_deck()))))
        rejected(state, 1, Cut(position=10), "no_cut", "PF-CUT-6")
        assert banakil.legal(state, 0).commands == ("Deal",)
        events = banakil.decide(state, 0, Deal())
        state = fold(state, events)
        starters.append(dealt_event(events).starter)
        assert state.cut_card is None
    assert starters == [1, 2, 3, 4, 1]


def test_sahrat_first_dealer_is_drawn_fairly_and_the_player_on_his_right_starts() -> None:
    """BK-DEAL-S1, BK-DEAL-S2, PF-FAIR-6: the first dealer comes from the secret's "first"
    draw; the next seat gets 19 cards and starts."""
    state = banakil.initial(banakil.options_from("sahrat"))
    state = fold(state, banakil.decide(state, 0, CommitSeed(secret=SECRET)))
    deal = dealt_event(banakil.decide(state, 0, Deal()))
    dealer = fair.first_draw(bytes.fromhex(SECRET), fair.entropy(["", "", "", ""]), 4)
    assert (deal.dealer, deal.starter) == (dealer, dealer % 4 + 1)
    assert len(deal.hands[deal.starter - 1]) == 19
    rejected(state, 1, Cut(position=5), "no_cut", "PF-CUT-6")


def test_in_sahrat_one_vs_one_the_non_dealer_gets_19_cards_and_starts() -> None:
    """BK-DEAL-S2, BK-AMB-22: in 1v1 the player on the dealer's right is the other one."""
    for dealer, starter in ((1, 2), (2, 1)):
        state = dealt("sahrat", starter_deck(seats=2), dealer=dealer, mode="one_vs_one")
        assert (state.dealer, state.starter, state.turn) == (dealer, starter, starter)
        assert len(state.hands[starter - 1]) == 19
        assert len(state.stock) == 69


def test_sahrat_dealer_moves_one_seat_to_the_right_every_deal() -> None:
    """BK-DEAL-S3, BK-PLAY-3: dealer 2 → 3 → 4 → 1, and the starter with him."""
    state = dealt("sahrat", dealer=2)
    seen = [(state.dealer, state.starter)]
    for _ in range(3):
        state, _ = go_out_at_once(state)
        state = next_deal(state)
        seen.append((state.dealer, state.starter))
    assert seen == [(2, 3), (3, 4), (4, 1), (1, 2)]


# --- the turn (BK-TURN) ---------------------------------------------------------------------


def test_a_turn_is_draw_then_table_actions_then_one_discard() -> None:
    """BK-TURN-1: draw, lay melds and add-ons, discard; the turn then passes."""
    state = table(
        "classic",
        hands=["3S 4S 5S 9C 10C", "", "", ""],
        stock="6S 9D",
        drawn=False,
        melds=[meld(0, 1, 3, "run", "7S 8S 9S")],
    )
    state, events = apply(state, 1, Draw())
    assert events == (CardDrawn(seat=1, card="6S#1"),)
    state, _ = apply(state, 1, Meld(cards=("3S", "4S", "5S")))
    state, _ = apply(state, 1, LayOff(meld=0, cards=("6S",)))
    state, events = apply(state, 1, Discard(card="9C"))
    assert events == (CardDiscarded(seat=1, card="9C#1"),)
    assert (state.turn, state.drawn) == (2, False)
    rejected(state, 1, Meld(cards=("3S", "4S", "5S")), "not_your_turn", "BK-TURN-6")


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
def test_the_one_draw_comes_before_any_meld_add_on_or_discard(preset: str) -> None:
    """BK-TURN-2: nothing is laid or discarded before the draw, and one draw only."""
    state = table(
        preset,
        hands=["3S 4S 5S 8H", "", "", ""],
        ground="9C",
        drawn=False,
        melds=[meld(0, 1, 1, "run", "5H 6H 7H")],
    )
    rejected(state, 1, Meld(cards=("3S", "4S", "5S")), "draw_first", "BK-TURN-2")
    rejected(state, 1, LayOff(meld=0, cards=("8H",)), "draw_first", "BK-TURN-2")
    rejected(state, 1, Play(actions=(Meld(cards=("3S", "4S", "5S")),)), "draw_first", "BK-TURN-2")
    rejected(state, 1, Discard(card="8H"), "draw_first", "BK-TURN-2")
    drew, _ = apply(state, 1, Draw())
    rejected(drew, 1, Draw(), "already_drawn", "BK-TURN-2")
    rejected(drew, 1, TakeGround(position=1), "already_drawn", "BK-TURN-2")


def test_there_is_no_minimum_to_lay_down_and_any_number_of_melds_per_turn() -> None:
    """BK-TURN-3: a first meld worth 1.5 is accepted, and three melds in one turn."""
    state = table("sahrat", hands=["3S 4S 5S 3H 4H 5H 3D 4D 5D 9C", "", "", ""])
    state, _ = apply(state, 1, Meld(cards=("3S", "4S", "5S")))
    state, _ = apply(state, 1, Meld(cards=("3H", "4H", "5H")))
    state, _ = apply(state, 1, Meld(cards=("3D", "4D", "5D")))
    assert len(state.melds) == 3 and faces_of(state.hands[0]) == ["9C"]


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
@pytest.mark.parametrize("card", ["2C", "JK", "2H"])
def test_any_card_may_be_discarded_even_a_two_or_a_joker(preset: str, card: str) -> None:
    """BK-TURN-4: no card is protected from the player's own discard."""
    state = table(preset, hands=["2C JK 2H 9D", "", "", ""])
    after, events = apply(state, 1, Discard(card=card))
    assert events == (CardDiscarded(seat=1, card=f"{card}#1"),)
    assert face(after.ground[-1]) == card


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
def test_a_hand_emptied_by_melding_ends_the_deal_with_no_discard(preset: str) -> None:
    """BK-TURN-5, BK-END-1, BK-END-2: the deal ends at once, seat 1 went out, nobody else
    acts and no discard is needed (or accepted)."""
    state = table(
        preset,
        hands=["3S 4S 5S 6S", "9D 8D", "", ""],
        acted=(True, False, False, False),
        turn_clean=False,
    )
    state, events = apply(state, 1, Meld(cards=("3S", "4S", "5S", "6S")))
    assert isinstance(events[0], MeldLaid)
    assert events[1] == DealEnded(reason="went_out", finisher=1)
    assert isinstance(events[2], DealScored)
    assert state.finisher == 1 and state.phase == "seeding"
    rejected(state, 1, Discard(card="6S"), "wrong_phase", "BK-TURN-1")
    rejected(state, 2, Draw(), "wrong_phase", "BK-TURN-1")


@pytest.mark.parametrize(
    "command",
    [Draw(), TakeGround(position=1), Meld(cards=("3H", "4H", "5H")), Discard(card="9H")],
    ids=["draw", "take-ground", "meld", "discard"],
)
def test_table_actions_are_accepted_only_from_the_player_whose_turn_it_is(
    command: Command,
) -> None:
    """BK-TURN-6: another seat (or the system) cannot draw, meld or discard."""
    state = table("classic", hands=["9C", "3H 4H 5H 9H", "", ""], ground="KD", drawn=False)
    rejected(state, 2, command, "not_your_turn", "BK-TURN-6")
    rejected(state, 0, command, "not_your_turn", "BK-TURN-6")
    assert banakil.legal(state, 2).commands == ()


# --- drawing (BK-DRAW) ----------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
def test_a_stock_draw_takes_exactly_the_top_card_which_nobody_saw(preset: str) -> None:
    """BK-DRAW-1: one card, the top of the stock; before the draw no seat's view shows it."""
    state = table(preset, hands=["9C", "9D", "9H", "9S"], stock="QD#2 KD#2 AD#2", drawn=False)
    for seat in (1, 2, 3, 4, None):
        assert b"QD#2" not in msgspec.json.encode(banakil.view(state, seat))
        assert banakil.view(state, seat).stock_size == 3
    after, events = apply(state, 1, Draw())
    assert events == (CardDrawn(seat=1, card="QD#2"),)
    assert after.stock == ("KD#2", "AD#2")
    assert faces_of(after.hands[0]) == ["9C", "QD"]


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
def test_the_ground_cannot_be_drawn_while_it_is_empty(preset: str) -> None:
    """BK-DRAW-2, BK-RS-4: an empty ground offers nothing; the stock draw remains."""
    state = table(preset, hands=["QD KD 9C", "", "", ""], ground="", drawn=False)
    rejected(state, 1, TakeGround(position=1), "ground_empty", "BK-DRAW-2")
    rejected(
        state, 1, TakeGround(actions=(Meld(cards=("QD", "KD", "AD")),)), "ground_empty", "BK-DRAW-2"
    )
    assert banakil.legal(state, 1).commands == ("Draw",)


def classic_ex_ground(**fields: Any) -> State:
    return table("classic", hands=["9D 8D", "", "", ""], ground=EX_GROUND, drawn=False, **fields)


def test_classic_player_sees_the_whole_ground_and_may_point_at_any_card() -> None:
    """BK-DRAW-C1, BK-DRAW-C3, PF-UI-2: the ground is open, top first; every position is
    offered, and the position is the number of cards it takes ("take 4 cards")."""
    state = classic_ex_ground()
    assert banakil.view(state, 1).ground == cards(EX_GROUND)
    assert banakil.legal(state, 1).ground_positions == (1, 2, 3, 4, 5, 6, 7)
    for position in range(1, 8):
        _, events = apply(state, 1, TakeGround(position=position))
        assert len(events[0].cards) == position  # type: ignore[union-attr]


def test_taking_the_five_takes_every_card_above_it() -> None:
    """BK-EX-1, BK-DRAW-C2: choosing the 5 gives A, 7, K, 5 ("take 4 cards"); the ground is
    left as Q (top), 9, 3; choosing the 3 takes all 7 cards."""
    state = classic_ex_ground()
    after, events = apply(state, 1, TakeGround(position=4))
    assert events == (GroundTaken(seat=1, cards=cards("AD 7C KS 5H")),)
    assert faces_of(after.hands[0]) == ["9D", "8D", "AD", "7C", "KS", "5H"]
    assert banakil.view(after, 1).ground == cards("QD 9C 3S")
    everything, events = apply(state, 1, TakeGround(position=7))
    assert faces_of(events[0].cards) == EX_GROUND.split()  # type: ignore[union-attr]
    assert everything.ground == ()


def test_a_ground_card_cannot_be_taken_without_every_card_above_it() -> None:
    """BK-EX-1, BK-DRAW-C2: taking only the 5, or the 5 and the K without the A and the 7, is
    refused. A take names one position, so no accepted command leaves a card above the
    chosen one behind, and a command that names the cards themselves does not decode."""
    state = classic_ex_ground()
    ground_top_first = cards(EX_GROUND)
    for position in range(1, 8):
        _, events = apply(state, 1, TakeGround(position=position))
        assert events[0].cards == ground_top_first[:position]  # type: ignore[union-attr]
    for picked in (["5H"], ["KS", "5H"]):
        raw = msgspec.json.encode({"type": "TakeGround", "position": 4, "cards": picked})
        with pytest.raises(msgspec.ValidationError, match="unknown field"):
            msgspec.json.decode(raw, type=Command)
    rejected(state, 1, TakeGround(position=8), "bad_ground_position", "BK-DRAW-C1")
    rejected(state, 1, TakeGround(position=0), "bad_ground_position", "BK-DRAW-C1")


def test_an_unconfirmed_or_refused_ground_take_leaves_the_ground_as_it_was() -> None:
    """BK-DRAW-C3: nothing moves until the take is confirmed (sent); a refused take leaves
    the ground untouched in its order and the draw still due."""
    state = classic_ex_ground()
    rejected(state, 1, TakeGround(position=9), "bad_ground_position", "BK-DRAW-C1")
    assert banakil.view(state, 1).ground == cards(EX_GROUND)
    assert banakil.legal(state, 1).commands == ("Draw", "TakeGround")


def test_classic_ground_cards_need_not_be_melded_and_may_be_discarded_at_once() -> None:
    """BK-DRAW-C4, BK-AMB-26: the taken cards just join the hand; one may be discarded in the
    same turn."""
    state = classic_ex_ground()
    state, _ = apply(state, 1, TakeGround(position=3))
    state, events = apply(state, 1, Discard(card="7C"))
    assert events == (CardDiscarded(seat=1, card="7C#1"),)
    assert faces_of(state.hands[0]) == ["9D", "8D", "AD", "KS"]
    assert banakil.view(state, 2).ground == cards("7C 5H QD 9C 3S")


def test_a_classic_ground_take_is_the_turns_one_draw_however_many_cards() -> None:
    """BK-DRAW-C5: after taking 4 ground cards, no stock draw and no second take."""
    state, _ = apply(classic_ex_ground(), 1, TakeGround(position=4))
    rejected(state, 1, Draw(), "already_drawn", "BK-TURN-2")
    rejected(state, 1, TakeGround(position=1), "already_drawn", "BK-TURN-2")


def sahrat_ex_ground(**fields: Any) -> State:
    return table(
        "sahrat",
        hands=["QD KD 9S", "", "", ""],
        ground=EX_GROUND,
        drawn=False,
        melds=[meld(0, 1, 1, "set", "AS AH AC")],
        **fields,
    )


def test_sahrat_ground_take_adds_the_top_card_to_the_teams_set() -> None:
    """BK-EX-2, BK-DRAW-S1, BK-DRAW-S2: the top A♦ is taken in one command that puts it
    on the table, here onto the team's set A♠ A♥ A♣."""
    state = sahrat_ex_ground()
    assert banakil.legal(state, 1).ground_positions == (1,)
    after, events = apply(state, 1, TakeGround(actions=(LayOff(meld=0, cards=("AD",)),)))
    assert events[0] == GroundTaken(seat=1, cards=("AD#1",))
    assert faces_of(p.card for p in after.melds[0].cards) == ["AS", "AH", "AC", "AD"]
    assert faces_of(after.hands[0]) == ["QD", "KD", "9S"]
    assert banakil.view(after, 1).ground == cards("7C KS 5H QD 9C 3S")


def test_sahrat_ground_take_lays_the_top_card_in_a_new_meld() -> None:
    """BK-EX-2, BK-DRAW-S2: or lays Q♦ K♦ A♦ with Q♦ K♦ from the hand."""
    after, events = apply(
        sahrat_ex_ground(), 1, TakeGround(actions=(Meld(cards=("QD", "KD", "AD")),))
    )
    assert isinstance(events[1], MeldLaid)
    assert faces_of(p.card for p in after.melds[1].cards) == ["QD", "KD", "AD"]
    assert faces_of(after.hands[0]) == ["9S"]


def test_sahrat_ground_take_without_using_the_card_is_refused_and_changes_nothing() -> None:
    """BK-EX-2, BK-DRAW-S2, BK-AMB-16: taking the A♦ without putting it on the table, or
    with table actions that do not use it, is refused as a whole; the draw is still due."""
    state = sahrat_ex_ground()
    rejected(state, 1, TakeGround(), "ground_card_unused", "BK-DRAW-S2")
    rejected(state, 1, TakeGround(position=1), "ground_card_unused", "BK-DRAW-S2")
    other = table("sahrat", hands=["3S 4S 5S 9S", "", "", ""], ground=EX_GROUND, drawn=False)
    rejected(
        other,
        1,
        TakeGround(actions=(Meld(cards=("3S", "4S", "5S")),)),
        "ground_card_unused",
        "BK-DRAW-S2",
    )
    after, events = apply(state, 1, Draw())
    assert isinstance(events[0], CardDrawn)
    assert banakil.view(after, 1).ground == cards(EX_GROUND)


def test_sahrat_only_the_top_ground_card_may_be_taken() -> None:
    """BK-EX-2, BK-DRAW-S1: choosing the 5 is refused, even with actions that use it."""
    state = table("sahrat", hands=["3H 4H 9S", "", "", ""], ground=EX_GROUND, drawn=False)
    rejected(state, 1, TakeGround(position=4), "top_card_only", "BK-DRAW-S1")
    rejected(
        state,
        1,
        TakeGround(position=4, actions=(Meld(cards=("3H", "4H", "5H")),)),
        "top_card_only",
        "BK-DRAW-S1",
    )


def test_sahrat_a_taken_ground_card_is_never_discarded_in_the_same_turn() -> None:
    """BK-DRAW-S3: the card is on the table when the take completes, so it cannot be the
    turn's discard."""
    after, _ = apply(sahrat_ex_ground(), 1, TakeGround(actions=(LayOff(meld=0, cards=("AD",)),)))
    rejected(after, 1, Discard(card="AD"), "card_not_in_hand", "BK-TURN-1")
    rejected(after, 1, Discard(card="AD#1"), "card_not_in_hand", "BK-TURN-1")


def test_sahrat_a_face_named_in_the_take_lays_the_taken_copy_not_its_twin() -> None:
    """BK-DRAW-S2: with the other A♦ already in the hand, "add AD to the set" lays the A♦
    just taken (the command names a face; the engine picks the copy that makes it legal),
    and the hand keeps its own A♦."""
    state = table(
        "sahrat",
        hands=["AD#2 9S", "", "", ""],
        ground="AD#1 7C",
        drawn=False,
        melds=[meld(0, 1, 1, "set", "AS AH AC")],
    )
    after, events = apply(state, 1, TakeGround(actions=(LayOff(meld=0, cards=("AD",)),)))
    assert events[0] == GroundTaken(seat=1, cards=("AD#1",))
    assert after.melds[0].cards[-1].card == "AD#1"
    assert sorted(after.hands[0]) == ["9S#1", "AD#2"]
    run = table("sahrat", hands=["7H#2 8H 9H", "", "", ""], ground="7H#1 7C", drawn=False)
    after, _ = apply(run, 1, TakeGround(actions=(Meld(cards=("7H", "8H", "9H")),)))
    assert after.hands[0] == ("7H#2",)


def test_sahrat_ground_card_may_go_to_the_partners_meld_after_an_own_meld() -> None:
    """BK-DRAW-S2, BK-TEAM-S1, BK-AMB-16: the take's actions run in order, so the player may
    first lay his own meld and then add the ground card to his partner's set."""
    state = table(
        "sahrat",
        hands=["3S 3H 3D 9S", "", "", ""],
        ground=EX_GROUND,
        drawn=False,
        melds=[meld(0, 1, 3, "set", "AS AH AC")],
    )
    rejected(
        state,
        1,
        TakeGround(actions=(LayOff(meld=0, cards=("AD",)),)),
        "partner_meld_locked",
        "BK-TEAM-S1",
    )
    after, _ = apply(
        state,
        1,
        TakeGround(actions=(Meld(cards=("3S", "3H", "3D")), LayOff(meld=0, cards=("AD",)))),
    )
    assert faces_of(p.card for p in after.melds[0].cards) == ["AS", "AH", "AC", "AD"]


# --- discarding (BK-DISC) -------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
def test_a_discard_goes_face_up_on_top_of_the_ground_keeping_its_order(preset: str) -> None:
    """BK-DISC-1: the ground keeps every card in order, the discard on top, seen by all.

    Only the player's own discard is tested here: the automatic discard on a timeout
    (BK-DISC-3, PF-TIMER-3..5, PF-AUTO-1..3) belongs to a later issue and is deferred."""
    state = table(preset, hands=["9S 4C", "", "", ""], ground="5H QD 3S")
    after, _ = apply(state, 1, Discard(card="9S"))
    for seat in (1, 2, 3, 4, None):
        assert banakil.view(after, seat).ground == cards("9S 5H QD 3S")


def test_discarding_ends_the_turn() -> None:
    """BK-DISC-2: after the discard the next player is to draw; the discarder can do no
    more, and a card not in the hand cannot be discarded. (BK-DISC-3, the automatic
    discard, is deferred to the timer issue.)"""
    state = table("classic", hands=["9S 4C 5C", "", "", ""], stock="KC QC")
    rejected(state, 1, Discard(card="9H"), "card_not_in_hand", "BK-TURN-1")
    after, events = apply(state, 1, Discard(card="9S"))
    assert len(events) == 1
    assert (after.turn, after.drawn) == (2, False)
    rejected(after, 1, Discard(card="4C"), "not_your_turn", "BK-TURN-6")
    assert banakil.legal(after, 2).commands == ("Draw", "TakeGround")


# --- the stock (BK-STOCK) -------------------------------------------------------------------


def stock_out(preset: str, ground: str, **fields: Any) -> State:
    """Seat 1 has drawn the last stock card and is about to discard 9S."""
    return table(preset, hands=["9S 4C", "KC", "KD", "KH"], stock="", ground=ground, **fields)


NINETEEN = "8H 7C 7D 7H 7S 8C 8D 6S 9C 9D 9H 10C 10D 10H 10S JC JD JH JS"


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
def test_an_empty_stock_is_refilled_from_the_ground_under_its_top_card(preset: str) -> None:
    """BK-STOCK-1, BK-AMB-5: at the start of the next turn, before the draw, the ground but
    its top card becomes the stock; the top card stays alone as the ground."""
    state = stock_out(preset, "QD 5H 3S")
    after, events = apply(state, 1, Discard(card="9S"))
    assert events[1] == GroundReshuffled(number=1, stock=cards("3S 5H QD"))
    assert faces_of(after.ground) == ["9S"]
    assert (after.turn, after.reshuffles) == (2, 1)
    _, drawn = apply(after, 2, Draw())
    assert drawn == (CardDrawn(seat=2, card="3S#1"),)


def test_the_reshuffle_is_the_fair_shuffle_of_the_deals_secret() -> None:
    """BK-STOCK-1, PF-FAIR-4: the k-th reshuffle shuffles the ground under its top card,
    bottom to top, under the label "reshuffle:k" of the deal's secret."""
    e = fair.entropy(["", "", "", ""])
    state = stock_out("sahrat", NINETEEN, secret=SECRET, entropy=e, reshuffles=2)
    _, events = apply(state, 1, Discard(card="9S"))
    under_top = tuple(reversed(cards(NINETEEN)))
    expected = fair.reshuffle(under_top, bytes.fromhex(SECRET), e, 3)
    assert events[1] == GroundReshuffled(number=3, stock=expected)


def test_the_player_who_takes_the_last_stock_card_finishes_his_turn_and_may_go_out() -> None:
    """BK-AMB-5: the empty stock is handled only at the next turn's start; the player who
    drew the last card plays on and may go out with the +20."""
    state = table(
        "classic",
        hands=["3S 4S 5S", "KC", "KD", "KH"],
        stock="6S",
        drawn=False,
        opened=(True, False, False, False),
    )
    state, events = apply(state, 1, Draw())
    assert state.stock == () and len(events) == 1 and state.phase == "play"
    state, events = apply(state, 1, Meld(cards=("3S", "4S", "5S", "6S")))
    assert events[1] == DealEnded(reason="went_out", finisher=1)
    assert events[2].players[0].bonus == 40  # type: ignore[union-attr]


def test_classic_reshuffles_twice_then_the_third_exhaustion_is_a_dead_deal() -> None:
    """BK-EX-17, BK-STOCK-C1, BK-STOCK-C2, BK-END-3: ground of 20 → 19 become the stock, the
    top stays; the same at the second exhaustion; at the third the deal is dead at once,
    without a finisher and before the next player acts."""
    first = stock_out("classic", NINETEEN)  # 19 on the ground + the discard = 20
    after, events = apply(first, 1, Discard(card="9S"))
    reshuffle = events[1]
    assert isinstance(reshuffle, GroundReshuffled) and reshuffle.number == 1
    assert len(reshuffle.stock) == 19 and faces_of(after.ground) == ["9S"]
    second = stock_out("classic", NINETEEN, reshuffles=1)
    _, events = apply(second, 1, Discard(card="9S"))
    reshuffle = events[1]
    assert isinstance(reshuffle, GroundReshuffled)
    assert (reshuffle.number, len(reshuffle.stock)) == (2, 19)
    third = stock_out("classic", NINETEEN, reshuffles=2)
    after, events = apply(third, 1, Discard(card="9S"))
    assert events[1] == DealEnded(reason="dead", finisher=None)
    assert isinstance(events[2], DealScored)
    assert after.turn == 0 and after.phase == "seeding"
    assert not any(isinstance(e, GroundReshuffled) for e in events)


def test_classic_deal_is_dead_when_the_ground_holds_only_its_top_card() -> None:
    """BK-STOCK-C2, BK-AMB-6: nothing to reshuffle → a dead deal even before 2 reshuffles."""
    _, events = apply(stock_out("classic", ""), 1, Discard(card="9S"))
    assert events[1] == DealEnded(reason="dead", finisher=None)


def test_sahrat_reshuffles_any_number_of_times_up_to_the_safety_limit() -> None:
    """BK-STOCK-S1, BK-STOCK-S3, BK-AMB-34: a 3rd and a 10th reshuffle happen; after the 10th
    the next exhaustion ends the deal as if all cards were used up."""
    for done in (2, 9):
        _, events = apply(stock_out("sahrat", "QD 5H", reshuffles=done), 1, Discard(card="9S"))
        assert isinstance(events[1], GroundReshuffled) and events[1].number == done + 1
    _, events = apply(stock_out("sahrat", "QD 5H", reshuffles=10), 1, Discard(card="9S"))
    assert events[1] == DealEnded(reason="used_up", finisher=None)


def test_sahrat_deal_ends_when_stock_and_ground_are_used_up() -> None:
    """BK-STOCK-S2, BK-AMB-19, BK-AMB-6, BK-END-3: stock empty and only the top card on the
    ground → all cards are used up; the deal ends at once with no finisher."""
    after, events = apply(stock_out("sahrat", ""), 1, Discard(card="9S"))
    assert events[1] == DealEnded(reason="used_up", finisher=None)
    assert isinstance(events[2], DealScored)
    assert after.finisher is None and after.turn == 0


# --- the end of a deal (BK-END) -------------------------------------------------------------


@pytest.mark.parametrize("preset", ["classic", "sahrat"])
def test_discarding_the_last_card_ends_the_deal_and_that_player_went_out(preset: str) -> None:
    """BK-END-1, BK-END-2: out by discarding the last card; the finisher is recorded, and
    no one plays on in that deal."""
    state = table(
        preset,
        hands=["9S", "KC", "KD", "KH"],
        melds=[meld(0, 1, 1, "run", "3S 4S 5S")],
        opened=(True, False, False, False),
        acted=(True, False, False, False),
        turn_clean=False,
    )
    after, events = apply(state, 1, Discard(card="9S"))
    assert events[:2] == (
        CardDiscarded(seat=1, card="9S#1"),
        DealEnded(reason="went_out", finisher=1),
    )
    assert after.finisher == 1 and after.end_reason == "went_out"
    for seat in (1, 2):
        rejected(after, seat, Draw(), "wrong_phase", "BK-TURN-1")


def test_an_ended_deal_is_scored_then_the_next_deal_follows() -> None:
    """BK-END-4, BK-WIN-1: the deal is scored, the match end checked (not reached), and the
    table waits for the next deal's seed, which deals normally."""
    state = dealt("sahrat", dealer=4)
    state, events = go_out_at_once(state)
    kinds = [type(e).__name__ for e in events]
    assert kinds == ["MeldLaid", "MeldLaid", "DealEnded", "DealScored"]
    assert state.phase == "seeding" and state.match_winner is None
    assert banakil.legal(state, 0).commands == ("CommitSeed", "StackDeck")
    assert state.totals == tuple(t.total for t in events[3].teams)  # type: ignore[union-attr]
    state = fold(state, banakil.decide(state, 0, CommitSeed(secret=SECRET)))
    state = fold(state, banakil.decide(state, 0, Deal()))
    assert state.deal == 2 and state.phase == "play"
    assert sorted(len(h) for h in state.hands) == [18, 18, 18, 19]


def test_nothing_re_deals_or_cancels_a_deal_in_play() -> None:
    """BK-END-5, PF-CONN-5: no command re-seeds, re-deals or re-cuts a deal being played,
    and a scored deal's result stands in the running totals."""
    state = dealt("classic")
    rejected(state, 0, StackDeck(cards=tuple(starter_deck())), "wrong_phase", "BK-TURN-1")
    rejected(state, 0, CommitSeed(secret=SECRET), "wrong_phase", "BK-TURN-1")
    rejected(state, 0, Deal(), "wrong_phase", "BK-TURN-1")
    rejected(state, 1, Cut(position=3), "wrong_phase", "BK-TURN-1")
    scored, events = go_out_at_once(state)
    totals = tuple(t.total for t in events[-1].teams)  # type: ignore[union-attr]
    nxt = next_deal(scored)
    assert nxt.totals == totals
