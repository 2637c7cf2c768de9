"""Banakil deal scores, the end of a match and the series.

Rules (../shared/rules/banakil.md): BK-SCORE-C1..C6, BK-SCORE-S1..S7, BK-WIN-1,
BK-WIN-C1..C5, BK-WIN-S1..S4, BK-SER-1, BK-DEAL-C2, BK-DEAL-S4, BK-TEAM-C1 (an add-on never
opens); test cases BK-EX-11, BK-EX-13..17; decisions BK-AMB-7, 8, 9, 18, 20..23, 28, 29, 33;
platform PF-SERIES-1, PF-SERIES-2, PF-SERIES-6, PF-CUT-6.

Not covered: the seat swap between matches (PF-SERIES-3..5) is not in the engine yet.

All points are integer half-points (87.5 = 175). Deals end through `decide`, from tables
built with tests.support or dealt from a stacked deck; match-end decisions are also checked
directly on engine.banakil.scoring.match_winner.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from engine import banakil, fair
from engine.banakil.messages import (
    CardsDealt,
    Command,
    CommitSeed,
    Cut,
    Deal,
    DealEnded,
    DealScored,
    Discard,
    Draw,
    Event,
    ExchangeJoker,
    LayOff,
    MatchEnded,
    Meld,
    Play,
    PlayerScore,
    SeriesEnded,
    StackDeck,
    TeamScore,
)
from engine.banakil.scoring import hand_value, match_winner
from engine.banakil.state import State
from engine.cards import BANAKIL_DECK, canonical_deck, faces
from tests.support import apply, meld, try_
from tests.support import table as support_table

SECRET = "5e" * 32  # its fair first draw makes seat 4 the dealer
HEARTS = ("AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH")
SPADES = ("3S", "4S", "5S", "6S", "7S", "8S")
OUT_AT_ONCE = HEARTS + SPADES  # 19 cards worth 16 (32 half-points) in two melds
SPADE_RUN = ("3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS")  # 10
_PER_DEAL = ("opened", "laid", "acted", "turn_clean")


# --- helpers ------------------------------------------------------------------------------


def table(preset: str = "classic", **kwargs: Any) -> State:
    """tests.support.table, plus the per-deal flags that its builder resets."""
    flags = {k: kwargs.pop(k) for k in _PER_DEAL if k in kwargs}
    return replace(support_table(preset, **kwargs), **flags)


def fold(state: State, events: tuple[Event, ...]) -> State:
    for event in events:
        state = banakil.evolve(state, event)
    return state


def rejected(state: State, seat: int, command: Command, code: str, rule_id: str) -> None:
    before = msgspec.json.encode(state)
    err = try_(state, seat, command)
    assert (err.code, err.rule_id) == (code, rule_id), err
    assert msgspec.json.encode(state) == before


def scored(events: tuple[Event, ...]) -> DealScored:
    return next(e for e in events if isinstance(e, DealScored))


def players(events: tuple[Event, ...]) -> dict[int, PlayerScore]:
    return {p.seat: p for p in scored(events).players}


def teams(events: tuple[Event, ...]) -> dict[int, TeamScore]:
    return {t.team: t for t in scored(events).teams}


def starter_deck(seats: int = 4, bottom: str | None = None) -> list[str]:
    """A deck (faces, top first) that deals OUT_AT_ONCE to the starter (BK-DEAL-6);
    `bottom` pins the last card (the cut card after a cut at 105)."""
    pins = {i * seats: c for i, c in enumerate(OUT_AT_ONCE)}
    if bottom:
        pins[len(BANAKIL_DECK) - 1] = bottom
    rest = list(faces(canonical_deck()))
    for f in pins.values():
        rest.remove(f)
    it = iter(rest)
    return [pins[i] if i in pins else next(it) for i in range(len(BANAKIL_DECK))]


def new_table(preset: str, host: int = 1, **overrides: Any) -> State:
    return banakil.initial(banakil.options_from(preset, **overrides), host)


def deal(state: State, *, dealer: int | None = None, seats: int = 4) -> State:
    """Deal the next deal from a stacked deck; a `classic` first deal is cut by the host at
    105 with a 9 at the bottom, so the host of seat 1 starts ((9 − 1) mod 4 = 0)."""
    assert state.phase == "seeding", "a deal is already running"
    cut_first = state.options.first_player == "host_cut" and state.match == 1
    if cut_first and state.deals_in_match == 0:
        wanted = starter_deck(seats, bottom="9C")
        state = fold(
            state, banakil.decide(state, 0, StackDeck(cards=(*wanted[-105:], *wanted[:-105])))
        )
        return fold(state, banakil.decide(state, state.host, Cut(position=105)))
    deck = tuple(starter_deck(seats))
    state = fold(state, banakil.decide(state, 0, StackDeck(cards=deck, dealer=dealer)))
    return fold(state, banakil.decide(state, 0, Deal()))


def go_out_at_once(state: State) -> tuple[State, tuple[Event, ...]]:
    """The starter lays his 19 cards on his first turn and goes out (BK-TURN-5)."""
    return apply(state, state.turn, Play(actions=(Meld(cards=HEARTS), Meld(cards=SPADES))))


def pass_turn(state: State, seat: int) -> State:
    """Draw from the stock and discard the drawn card."""
    state, events = apply(state, seat, Draw())
    card = events[0].card  # type: ignore[union-attr]
    state, _ = apply(state, seat, Discard(card=card))
    return state


# --- classic: per player, with personal opening (BK-SCORE-C) --------------------------------


def ex11_table(totals: tuple[int, int] = (0, 0)) -> State:
    """BK-EX-11 at the moment seat 1 discards his last card: seats 1 and 3 each placed 14
    (four runs 7–K); seat 3 holds 3.5; seat 2 opened with 3♥ 4♥ 5♥ (1.5) and holds a K;
    seat 4 never opened, added 6♥ to seat 2's run and holds 7.5."""
    return table(
        "classic",
        hands=["9C#2", "KC#2", "3S 4S 5S 7D#2 8D#2", "2S 2D 2C 3C 4C 6C"],
        melds=[
            meld(0, 1, 1, "run", "7S 8S 9S 10S JS QS KS"),
            meld(1, 1, 1, "run", "7D 8D 9D 10D JD QD KD"),
            meld(2, 1, 3, "run", "7C 8C 9C 10C JC QC KC"),
            meld(3, 1, 3, "run", "7H 8H 9H 10H JH QH KH"),
            meld(4, 2, 2, "run", "3H 4H 5H 6H@4"),
        ],
        opened=(True, True, True, False),
        laid=(True, True, True, False),
        acted=(True, True, True, True),
        turn_clean=False,
        totals=totals,
    )


def test_classic_player_scores_his_placed_cards_minus_his_hand() -> None:
    """BK-EX-11, BK-SCORE-C2, BK-DECK-5: opened, placed 14, holds 3.5 → 14 − 3.5 = 10.5."""
    _, events = apply(ex11_table(), 1, Discard(card="9C"))
    seat3 = players(events)[3]
    assert (seat3.opened, seat3.melded, seat3.hand, seat3.bonus) == (True, 28, 7, 0)
    assert seat3.score == 21
    assert players(events)[2].score == 3 - 2  # 1.5 − 1 = 0.5


def test_classic_player_who_never_opened_scores_minus_20_whatever_his_cards() -> None:
    """BK-EX-11, BK-SCORE-C3: seat 4 added 6♥ (0.5) to his partner's run and holds 7.5, yet
    scores exactly −20."""
    _, events = apply(ex11_table(), 1, Discard(card="9C"))
    seat4 = players(events)[4]
    assert (seat4.opened, seat4.melded, seat4.hand) == (False, 1, 15)
    assert seat4.score == -40


def test_classic_finisher_gets_20_more_and_his_partner_does_not() -> None:
    """BK-EX-11, BK-SCORE-C4: opened, placed 14, went out → 14 − 0 + 20 = 34; the partner's
    10.5 gets no +20."""
    _, events = apply(ex11_table(), 1, Discard(card="9C"))
    seat1, seat3 = players(events)[1], players(events)[3]
    assert (seat1.melded, seat1.hand, seat1.bonus, seat1.score) == (28, 0, 40, 68)
    assert seat3.bonus == 0


def test_classic_team_score_is_the_sum_of_its_players_added_to_the_total() -> None:
    """BK-SCORE-C5: team 1 = 34 + 10.5 = 44.5; team 2 = 0.5 − 20 = −19.5; both added to
    the running totals (100 and 50 before)."""
    state, events = apply(ex11_table(totals=(200, 100)), 1, Discard(card="9C"))
    t = teams(events)
    assert (t[1].score, t[1].total) == (89, 289)
    assert (t[2].score, t[2].total) == (-39, 61)
    assert state.totals == (289, 61)


def test_classic_opening_needs_a_new_meld_and_earlier_add_ons_then_count() -> None:
    """BK-SCORE-C1, BK-TEAM-C1, BK-AMB-8, BK-SCORE-C2: adding 10♠ to the partner's run does
    not open; laying 3♥ 4♥ 5♥ 6♥ on a later turn does, and then the earlier add-on counts:
    1 + 2 placed, out with +20 → 23."""
    state = table(
        "classic",
        hands=["9D", "9S", "10S 3H 4H 5H 9C 8C", "9H"],
        stock="KC#2 KD#2 KS#2 6H",
        melds=[meld(0, 1, 1, "run", "7S 8S 9S")],
        turn=3,
        opened=(True, False, False, False),
    )
    state, _ = apply(state, 3, LayOff(meld=0, cards=("10S",)))
    assert state.opened[2] is False
    state, _ = apply(state, 3, Discard(card="8C"))
    for seat in (4, 1, 2):
        state = pass_turn(state, seat)
    state, _ = apply(state, 3, Draw())
    state, _ = apply(state, 3, Meld(cards=("3H", "4H", "5H", "6H")))
    assert state.opened[2] is True
    _, events = apply(state, 3, Discard(card="9C"))
    seat3 = players(events)[3]
    assert (seat3.opened, seat3.melded, seat3.bonus, seat3.score) == (True, 6, 40, 46)


def test_classic_finisher_who_never_opened_scores_zero() -> None:
    """BK-AMB-7, BK-SCORE-C3, BK-SCORE-C4: out by an add-on to the partner's run and a
    discard, never having opened: −20 + 20 = 0."""
    state = table(
        "classic",
        hands=["", "", "10S 9C", ""],
        melds=[meld(0, 1, 1, "run", "7S 8S 9S")],
        turn=3,
        opened=(True, False, False, False),
    )
    state, _ = apply(state, 3, LayOff(meld=0, cards=("10S",)))
    _, events = apply(state, 3, Discard(card="9C"))
    seat3 = players(events)[3]
    assert (seat3.opened, seat3.bonus, seat3.score) == (False, 40, 0)


def test_classic_dead_deal_scores_openers_and_non_openers_with_no_plus_20() -> None:
    """BK-EX-17, BK-SCORE-C6, BK-STOCK-C2: the third exhaustion makes a dead deal: the opener
    counts 1.5 − 0.5 = 1, the non-openers −20, nobody +20."""
    state = table(
        "classic",
        hands=["9S 4C", "KC", "KD", "KH"],
        stock="",
        ground="QD 5H 3H",
        melds=[meld(0, 1, 1, "run", "3S 4S 5S")],
        reshuffles=2,
        opened=(True, False, False, False),
        acted=(True, False, False, False),
        turn_clean=False,
    )
    _, events = apply(state, 1, Discard(card="9S"))
    assert DealEnded(reason="dead", finisher=None) in events
    p = players(events)
    assert [p[s].score for s in (1, 2, 3, 4)] == [2, -40, -40, -40]
    assert all(p[s].bonus == 0 for s in (1, 2, 3, 4))
    assert [t.score for t in scored(events).teams] == [-38, -80]


def test_classic_freed_joker_counts_against_the_freer_not_the_first_melder() -> None:
    """BK-JOKER-C2, BK-AMB-9, BK-AMB-33: seat 1 frees the JK from seat 3's run and keeps it;
    at the end it counts 4 against seat 1 (0.5 placed − 5 held) and no longer for seat 3."""
    state = table(
        "classic",
        hands=["6S 9C 10C", "QD KD", "", ""],
        stock="JD#2 8D#2",
        melds=[meld(0, 1, 3, "run", "5S JK=6S 7S")],
        opened=(True, True, True, False),
        acted=(True, True, True, False),
        turn_clean=False,
    )
    state, _ = apply(state, 1, ExchangeJoker(meld=0, card="6S"))
    assert "JK#1" in state.hands[0]
    state, _ = apply(state, 1, Discard(card="9C"))
    state, _ = apply(state, 2, Draw())
    _, events = apply(state, 2, Meld(cards=("JD", "QD", "KD")))
    p = players(events)
    assert (p[1].melded, p[1].hand, p[1].score) == (1, 10, -9)
    assert (p[3].melded, p[3].score) == (3, 3)


def test_classic_freed_joker_melded_again_counts_for_the_freer() -> None:
    """BK-AMB-9, BK-JOKER-C2: seat 1 frees the JK and lays it again in 9♥ 10♥ JK: its 4
    count for him."""
    state = table(
        "classic",
        hands=["6S 9H 10H 9C", "", "", ""],
        melds=[meld(0, 1, 3, "run", "5S JK=6S 7S")],
        opened=(False, False, True, False),
    )
    state, _ = apply(state, 1, ExchangeJoker(meld=0, card="6S"))
    state, _ = apply(state, 1, Meld(cards=("9H", "10H", "JK")))
    _, events = apply(state, 1, Discard(card="9C"))
    p = players(events)
    assert (p[1].melded, p[1].score) == (13, 53)  # 6♠ 9♥ 10♥ JK = 6.5, out: 26.5
    assert p[3].melded == 3


# --- sahrat: per team, with the single meld (BK-SCORE-S) ------------------------------------


def ex14_table() -> State:
    """BK-EX-14 as seat 1 (team 1) discards his last card: team 1's melds are worth 30, the
    partner holds 4.5; team 2's melds are worth 12, its players hold 6 and 7.5."""
    return table(
        "sahrat",
        hands=["5S", "9D#2 10D#2 JD#2 QD#2 KD#2 AD#2", "9S#2 10S#2 JS#2 3D 4D 5D",
               "2S 2D 2C 3C 4C 6C"],
        melds=[
            meld(0, 1, 1, "run", "7S 8S 9S 10S JS QS KS AS"),
            meld(1, 1, 1, "run", "7D 8D 9D 10D JD QD KD AD"),
            meld(2, 1, 3, "run", "7C 8C 9C 10C JC QC KC AC"),
            meld(3, 1, 3, "run", "JH QH KH AH"),
            meld(4, 1, 1, "run", "3H 4H 5H 6H@3"),
            meld(5, 2, 2, "run", "8H#2 9H#2 10H#2 JH#2 QH#2 KH#2"),
            meld(6, 2, 4, "run", "8C#2 9C#2 10C#2 JC#2 QC#2 KC#2"),
        ],
        acted=(True, True, True, True),
        laid=(True, True, True, True),
        turn_clean=False,
    )  # fmt: skip


def test_sahrat_finishing_team_scores_20_plus_its_melds_minus_the_partners_hand() -> None:
    """BK-EX-14, BK-SCORE-S1, BK-SCORE-S2: 20 + 30 − 4.5 = 45.5."""
    _, events = apply(ex14_table(), 1, Discard(card="5S"))
    t1 = teams(events)[1]
    assert (t1.melds, t1.hands, t1.bonus, t1.single_meld, t1.score) == (60, 9, 40, False, 91)


def test_sahrat_other_team_scores_its_melds_minus_both_hands_even_below_zero() -> None:
    """BK-EX-14, BK-SCORE-S1, BK-SCORE-S3: 12 − (6 + 7.5) = −1.5."""
    state, events = apply(ex14_table(), 1, Discard(card="5S"))
    t2 = teams(events)[2]
    assert (t2.melds, t2.hands, t2.bonus, t2.score) == (24, 27, 0, -3)
    assert state.totals == (91, -3)


def ex15_table(hand: str, stock: str, team2_melds: bool = True) -> State:
    """BK-EX-15: seat 1 has laid nothing this deal; his partner's runs are worth 10 and the
    partner holds 5; team 2 has 3♥ 4♥ 5♥ on the table (or nothing)."""
    melds = [
        meld(0, 1, 3, "run", "10H JH QH KH AH"),
        meld(1, 1, 3, "run", "10C JC QC KC AC"),
    ]
    if team2_melds:
        melds.append(meld(2, 2, 2, "run", "3H#2 4H#2 5H#2"))
    return table(
        "sahrat",
        hands=[hand, "KD#2", "7H 8H 9H 7C 8C", "QD#2"],
        stock=stock,
        drawn=False,
        melds=melds,
        acted=(False, True, True, False),
        laid=(False, True, True, False),
        turn_clean=True,
    )


SPADES_AND_DIAMONDS = " ".join(SPADE_RUN) + " 3D 4D 5D 6D 7D 8D"  # 18 cards


def test_sahrat_single_meld_scores_51_plus_melds_and_the_opponents_score_0() -> None:
    """BK-EX-15, BK-SCORE-S4, BK-AMB-18: seat 1 draws and lays all 19 cards in new melds
    (worth 15); team melds 25, partner holds 5 → 51 + 25 − 5 = 71; team 2 scores 0."""
    state, _ = apply(ex15_table(SPADES_AND_DIAMONDS, "9D"), 1, Draw())
    diamonds = ("3D", "4D", "5D", "6D", "7D", "8D", "9D")
    _, events = apply(state, 1, Play(actions=(Meld(cards=SPADE_RUN), Meld(cards=diamonds))))
    t = teams(events)
    assert (t[1].melds, t[1].hands, t[1].bonus, t[1].single_meld, t[1].score) == (
        50, 10, 102, True, 142,
    )  # fmt: skip
    assert (t[2].melds, t[2].score) == (3, 0)


def test_sahrat_single_meld_may_end_with_a_discard() -> None:
    """BK-EX-15, BK-SCORE-S4, BK-AMB-18 (a): 18 cards in new melds and a final discard is
    still a single meld: 71 and 0."""
    hand = " ".join(SPADE_RUN) + " 5D 6D 7D 8D 9D 4C"
    state, _ = apply(ex15_table(hand, "10D"), 1, Draw())
    diamonds = ("5D", "6D", "7D", "8D", "9D", "10D")
    state, _ = apply(state, 1, Play(actions=(Meld(cards=SPADE_RUN), Meld(cards=diamonds))))
    _, events = apply(state, 1, Discard(card="4C"))
    t = teams(events)
    assert (t[1].single_meld, t[1].score, t[2].score) == (True, 142, 0)


def test_sahrat_single_meld_against_a_team_without_melds_scores_102() -> None:
    """BK-EX-15, BK-SCORE-S5: team 2 has no meld → 102 + 25 − 5 = 122; team 2 scores 0."""
    state, _ = apply(ex15_table(SPADES_AND_DIAMONDS, "9D", team2_melds=False), 1, Draw())
    diamonds = ("3D", "4D", "5D", "6D", "7D", "8D", "9D")
    _, events = apply(state, 1, Play(actions=(Meld(cards=SPADE_RUN), Meld(cards=diamonds))))
    t = teams(events)
    assert (t[1].bonus, t[1].single_meld, t[1].score) == (204, True, 244)
    assert t[2].score == 0


def test_sahrat_adding_to_the_partners_meld_in_that_turn_is_a_normal_finish() -> None:
    """BK-EX-15, BK-SCORE-S4, BK-AMB-18 (c): one card added to the partner's run in the
    finishing turn → 20 + 25 − 5 = 40; team 2 scores normally (1.5 − 2 = −0.5)."""
    state, _ = apply(ex15_table(SPADES_AND_DIAMONDS, "9H#2"), 1, Draw())
    diamonds = ("3D", "4D", "5D", "6D", "7D", "8D")
    actions = (Meld(cards=SPADE_RUN), Meld(cards=diamonds), LayOff(meld=0, cards=("9H",)))
    _, events = apply(state, 1, Play(actions=actions))
    t = teams(events)
    assert (t[1].melds, t[1].bonus, t[1].single_meld, t[1].score) == (50, 40, False, 80)
    assert t[2].score == -1


def test_sahrat_freeing_a_joker_from_the_partners_meld_is_a_normal_finish() -> None:
    """BK-AMB-18 (c), BK-AMB-29, BK-SCORE-S1: exchanging the JK in the partner's run in the
    finishing turn disqualifies the single meld; the JK moved to the player's new meld
    counts once: melds 5 + 1.5 + 5.5 = 12 → 20 + 12 − 5 = 27."""
    state = table(
        "sahrat",
        hands=["3S 4S 5S QH 6D", "KD#2", "7H 8H 9H 7C 8C", "QD#2"],
        stock="7D",
        drawn=False,
        melds=[meld(0, 1, 3, "run", "10H JH JK=QH KH AH")],
        acted=(False, True, True, False),
        laid=(False, True, True, False),
        turn_clean=True,
    )
    state, _ = apply(state, 1, Draw())
    actions = (
        Meld(cards=("3S", "4S", "5S")),
        ExchangeJoker(meld=0, card="QH"),
        Meld(cards=("6D", "7D", "JK")),
    )
    _, events = apply(state, 1, Play(actions=actions))
    t1 = teams(events)[1]
    assert (t1.melds, t1.bonus, t1.single_meld, t1.score) == (24, 40, False, 54)


def test_sahrat_a_meld_laid_earlier_in_the_deal_rules_out_the_single_meld() -> None:
    """BK-SCORE-S4, BK-AMB-18 (b): seat 1 laid 3♦ 4♦ 5♦ on an earlier turn, then lays the
    rest at once and goes out: a normal 20 (melds 1.5 + 3.5 + 10 = 15, partner 5 → 30)."""
    state = ex15_table("3D 4D 5D 4C 6D 7D 8D", "KC#2 KS#2 KH#2 9D")
    state = replace(state, drawn=True)
    state, _ = apply(state, 1, Meld(cards=("3D", "4D", "5D")))
    state, _ = apply(state, 1, Discard(card="4C"))
    for seat in (2, 3, 4):
        state = pass_turn(state, seat)
    state, _ = apply(state, 1, Draw())
    _, events = apply(state, 1, Meld(cards=("6D", "7D", "8D", "9D")))
    t1 = teams(events)[1]
    assert (t1.bonus, t1.single_meld, t1.score) == (40, False, 40 + 30 - 10)


def test_sahrat_all_cards_used_up_scores_melds_minus_hands_without_bonus() -> None:
    """BK-SCORE-S6, BK-STOCK-S2, BK-AMB-19: each team its melds − its players' hands,
    nobody gets 20: team 1 1.5 − (0.5 + 4) = −3; team 2 3 − (1 + 1) = 1."""
    state = table(
        "sahrat",
        hands=["9S 4C", "KC", "JK", "KH"],
        stock="",
        ground="",
        melds=[meld(0, 1, 1, "run", "3S 4S 5S"), meld(1, 2, 2, "run", "7H 8H 9H")],
        acted=(True, True, False, False),
        turn_clean=False,
    )
    _, events = apply(state, 1, Discard(card="9S"))
    assert DealEnded(reason="used_up", finisher=None) in events
    t = teams(events)
    assert (t[1].bonus, t[1].score, t[2].bonus, t[2].score) == (0, -6, 0, 2)


def one_vs_one(hands: list[str], team2_melds: bool = True, **fields: Any) -> State:
    melds = [meld(0, 1, 1, "run", "7H 8H 9H")] if "acted" in fields else []
    if team2_melds:
        melds.append(meld(len(melds), 2, 2, "run", "3C 4C 5C"))
    return table("sahrat", options={"mode": "one_vs_one"}, hands=hands, melds=melds, **fields)


def test_sahrat_one_vs_one_finisher_has_no_partner_hand_to_subtract() -> None:
    """BK-SCORE-S7, BK-AMB-22, BK-PLAY-S1: out → 20 + own melds (3 + 2) = 25; the opponent
    3♣ 4♣ 5♣ (1.5) − K♦ Q♦ (2) = −0.5."""
    state = one_vs_one(
        ["3S 4S 5S 6S", "KD QD"], acted=(True, True), laid=(True, True), turn_clean=False
    )
    _, events = apply(state, 1, Meld(cards=("3S", "4S", "5S", "6S")))
    t = teams(events)
    assert (t[1].hands, t[1].score, t[2].score) == (0, 50, -1)


@pytest.mark.parametrize(("opponent_melds", "bonus"), [(True, 102), (False, 204)])
def test_sahrat_one_vs_one_single_meld_gives_51_or_102_and_the_opponent_0(
    opponent_melds: bool, bonus: int
) -> None:
    """BK-AMB-22, BK-SCORE-S4, BK-SCORE-S5, BK-SCORE-S7: 51 (102 against no meld) + own
    melds 2; the opponent scores 0."""
    state = one_vs_one(["3S 4S 5S 6S", "KD QD"], team2_melds=opponent_melds)
    _, events = apply(state, 1, Meld(cards=("3S", "4S", "5S", "6S")))
    t = teams(events)
    assert (t[1].bonus, t[1].single_meld, t[1].score, t[2].score) == (bonus, True, bonus + 4, 0)


# --- the end of the match (BK-WIN) ----------------------------------------------------------


def judge(preset: str, totals: tuple[float, float], tie_break: bool = False, **kw: Any) -> Any:
    """match_winner on totals written in points; returns (winner, extra deals)."""
    state = replace(new_table(preset, **kw), tie_break=tie_break)
    return match_winner(state, (int(totals[0] * 2), int(totals[1] * 2)))


@pytest.mark.parametrize(
    ("totals", "tie_break", "expected"),
    [
        ((204, 190), False, (1, False)),  # BK-WIN-C2
        ((190, 204), False, (2, False)),
        ((210, 203), False, (1, False)),  # BK-WIN-C3: 7 > 5
        ((206, 203), False, (None, True)),  # BK-WIN-C4: 3 → tie-break deal
        ((205, 205), False, (None, True)),  # BK-WIN-C4: equal
        ((215, 209), True, (1, False)),  # BK-WIN-C5: 6 > 5 after a tie-break deal
        ((215, 212), True, (None, True)),  # BK-WIN-C5: another tie-break deal
    ],
)
def test_classic_match_end_follows_the_document_example(
    totals: tuple[float, float], tie_break: bool, expected: tuple[int | None, bool]
) -> None:
    """BK-EX-13, BK-WIN-C1..C5."""
    assert judge("classic", totals, tie_break) == expected


@pytest.mark.parametrize(
    ("totals", "tie_break", "expected"),
    [
        ((201.5, 150), False, (None, False)),  # BK-WIN-C1: the target is 202 (not 201.5)
        ((202, 201.5), False, (1, False)),  # BK-WIN-C2: exactly one at 202, by 0.5
        ((221, 0), False, (1, False)),  # BK-OPT-2: 202, not 222
        ((207, 202), False, (None, True)),  # BK-WIN-C4: a difference of exactly 5
        ((202, 207.5), False, (2, False)),  # BK-WIN-C3: 5.5 > 5
        ((200, 194), True, (1, False)),  # BK-AMB-20: wins below 202 after a tie-break
        ((180, 185.5), True, (2, False)),
        ((199, 201), True, (None, True)),  # BK-AMB-20: still within 5 → one more deal
    ],
)
def test_classic_match_end_limits(
    totals: tuple[float, float], tie_break: bool, expected: tuple[int | None, bool]
) -> None:
    """BK-WIN-C1..C5, BK-AMB-20: the 202 target, the 5-point margin and tie-break mode."""
    assert judge("classic", totals, tie_break) == expected


@pytest.mark.parametrize(
    ("totals", "tie_break", "mode", "expected"),
    [
        ((225, 230), False, "partnership", (2, False)),  # BK-EX-16
        ((223.5, 223), False, "partnership", (1, False)),
        ((225, 225), False, "partnership", (None, True)),
        ((151, 149), False, "one_vs_one", (1, False)),
        ((221.5, 100), False, "partnership", (None, False)),  # BK-WIN-S1: 222 not reached
        ((222, 221.5), False, "partnership", (1, False)),  # BK-WIN-S2, BK-WIN-S3: by 0.5
        ((100, 222), False, "partnership", (2, False)),
        ((149.5, 149), False, "one_vs_one", (None, False)),  # BK-WIN-S1: 1v1 target 150
        ((150, 0), False, "one_vs_one", (1, False)),
        ((120, 119.5), True, "partnership", (1, False)),  # BK-AMB-21: below target
        ((120, 120), True, "partnership", (None, True)),  # BK-WIN-S4: still equal
    ],
)
def test_sahrat_match_end_follows_the_document_example(
    totals: tuple[float, float], tie_break: bool, mode: str, expected: tuple[int | None, bool]
) -> None:
    """BK-EX-16, BK-WIN-S1..S4, BK-AMB-21: the match ends after the deal in which a team
    reaches the target; the higher total wins; equal totals → extra deals until they
    differ, whatever the target."""
    assert judge("sahrat", totals, tie_break, mode=mode) == expected


def test_totals_are_compared_only_after_a_deal_is_scored() -> None:
    """BK-WIN-1: team 1 far above the target mid-deal does not end the match; the match ends
    only with the scored deal (here seat 2 goes out)."""
    state = table(
        "classic",
        hands=["3S 4S 5S 9C 10C", "QD KD", "", ""],
        stock="JD#2",
        totals=(1000, 0),
        opened=(True, False, False, False),
        acted=(True, False, False, False),
        turn_clean=False,
    )
    state, events = apply(state, 1, Meld(cards=("3S", "4S", "5S")))
    state, more = apply(state, 1, Discard(card="9C"))
    assert not any(isinstance(e, MatchEnded | DealScored) for e in (*events, *more))
    assert state.phase == "play" and state.match_winner is None
    state, _ = apply(state, 2, Draw())
    state, events = apply(state, 2, Meld(cards=("JD", "QD", "KD")))
    names = [type(e).__name__ for e in events]
    assert names == ["MeldLaid", "DealEnded", "DealScored", "MatchEnded"]
    assert events[-1] == MatchEnded(match=1, winner=1, totals=(1000 + 1 - 40, 46 - 40))
    assert state.phase == "over"
    rejected(state, 0, CommitSeed(secret=SECRET), "match_over", "BK-WIN-1")


def test_classic_tie_break_deals_are_played_until_the_lead_is_more_than_5() -> None:
    """BK-WIN-C4, BK-WIN-C5, BK-DEAL-C3, through decide: seat 1 goes out → 221 vs 220, both
    at 202+, 1 apart → a tie-break deal, started by seat 2, who goes out → team 2 wins."""
    state = deal(new_table("classic"))
    assert state.starter == 1
    state = replace(state, totals=(410, 520))
    state, events = go_out_at_once(state)
    assert [t.total for t in scored(events).teams] == [442, 440]
    assert scored(events).extra_deals is True
    assert not any(isinstance(e, MatchEnded) for e in events)
    assert state.tie_break is True and state.phase == "seeding"
    state = deal(state)
    assert state.starter == 2
    state, events = go_out_at_once(state)
    assert events[-1] == MatchEnded(match=1, winner=2, totals=(362, 472))
    assert state.match_winner == 2 and state.phase == "over"


def test_sahrat_equal_totals_at_the_target_lead_to_an_extra_deal() -> None:
    """BK-WIN-S2, BK-WIN-S4, BK-DEAL-S3, through decide: seat 1's single meld (102 + 16 −
    his partner's 18) brings team 1 level with team 2 at 222 → extra deal; seat 2 then
    goes out the same way and team 2 wins."""
    state = deal(new_table("sahrat"), dealer=4)
    assert hand_value(state.hands[2]) == 36
    state = replace(state, totals=(244, 444))
    state, events = go_out_at_once(state)
    assert [t.total for t in scored(events).teams] == [444, 444]
    assert scored(events).extra_deals is True and state.tie_break is True
    state = deal(state)
    assert (state.dealer, state.starter) == (1, 2)
    state, events = go_out_at_once(state)
    assert events[-1] == MatchEnded(match=1, winner=2, totals=(444, 644))


# --- the series (BK-SER-1, PF-SERIES) -------------------------------------------------------


def win_match(
    state: State, totals: tuple[int, int], *, dealer: int | None = None, seats: int = 4
) -> tuple[State, tuple[Event, ...]]:
    """Deal, set the match totals, and let the starter go out at once."""
    state = deal(state, dealer=dealer, seats=seats)
    return go_out_at_once(replace(state, totals=totals))


def test_a_classic_series_ends_at_2_0_and_the_winner_starts_the_next_match() -> None:
    """BK-SER-1, PF-SERIES-1, PF-SERIES-2, PF-SERIES-6, BK-DEAL-C2, BK-AMB-28, PF-CUT-6:
    team 1 wins match 1; match 2 starts from seat 1 with no cut (and no cut card shown),
    at 0–0, same options and teams; team 1 wins again → the series ends 2-0."""
    state = new_table("classic", series=True)
    opts = state.options
    state, events = win_match(state, (380, 0))
    assert events[-1] == MatchEnded(match=1, winner=1, totals=(412, -80))
    assert (state.match, state.series_wins, state.totals, state.phase) == (
        2,
        (1, 0),
        (0, 0),
        "seeding",
    )
    state = fold(state, banakil.decide(state, 0, StackDeck(cards=tuple(starter_deck()))))
    rejected(state, 1, Cut(position=37), "no_cut", "PF-CUT-6")
    assert banakil.legal(state, 1).commands == ()  # a stacked deck takes no client seeds
    assert banakil.legal(state, 0).commands == ("Deal",)
    events = banakil.decide(state, 0, Deal())
    assert next(e for e in events if isinstance(e, CardsDealt)).starter == 1
    state = fold(state, events)
    assert banakil.view(state, 2).cut_card is None
    assert state.options == opts
    state, events = go_out_at_once(replace(state, totals=(380, 0)))
    assert events[-2:] == (
        MatchEnded(match=2, winner=1, totals=(412, -80)),
        SeriesEnded(winner=1, wins=(2, 0)),
    )
    assert (state.series_winner, state.phase) == (1, "over")
    rejected(state, 0, CommitSeed(secret=SECRET), "match_over", "BK-WIN-1")


def test_a_series_at_1_1_plays_a_third_match_started_by_the_last_winner() -> None:
    """BK-SER-1, PF-SERIES-2, PF-SERIES-6, BK-DEAL-C2, BK-AMB-28: team 1 wins match 1,
    team 2 match 2 → match 3, started by seat 2 (team 2's lower seat); team 2 wins it and
    the series 2-1."""
    state = new_table("classic", series=True)
    state, _ = win_match(state, (380, 0))
    state, events = win_match(state, (0, 500))
    assert events[-1] == MatchEnded(match=2, winner=2, totals=(32, 420))
    assert not any(isinstance(e, SeriesEnded) for e in events)
    assert (state.match, state.series_wins, state.phase) == (3, (1, 1), "seeding")
    state = deal(state)
    assert state.starter == 2
    state, events = go_out_at_once(replace(state, totals=(0, 400)))
    assert events[-1] == SeriesEnded(winner=2, wins=(1, 2))
    assert state.phase == "over"


def test_a_single_match_has_no_series_to_continue() -> None:
    """BK-SER-1, PF-SERIES-1: the series is optional; without it the table is over after
    the first match."""
    state, events = win_match(new_table("classic"), (380, 0))
    assert isinstance(events[-1], MatchEnded)
    assert state.phase == "over" and state.match == 1
    rejected(state, 0, StackDeck(cards=tuple(starter_deck())), "match_over", "BK-WIN-1")


def test_sahrat_next_match_dealer_sits_before_the_winners_lower_seat_without_a_draw() -> None:
    """BK-DEAL-S4, BK-AMB-23, PF-SERIES-6: team 2 wins match 1; in match 2 seat 1 deals
    and seat 2 starts, although the secret's fair draw would name seat 4 as the dealer."""
    state = new_table("sahrat", series=True)
    state, events = win_match(state, (0, 500), dealer=4)
    assert events[-1] == MatchEnded(match=1, winner=2, totals=(200, 500))
    state = fold(state, banakil.decide(state, 0, CommitSeed(secret=SECRET)))
    assert fair.first_draw(bytes.fromhex(SECRET), fair.entropy(["", "", "", ""]), 4) == 4
    dealt = next(e for e in banakil.decide(state, 0, Deal()) if isinstance(e, CardsDealt))
    assert (dealt.dealer, dealt.starter) == (1, 2)
    assert len(dealt.hands[1]) == 19


def test_sahrat_one_vs_one_series_plays_to_150_and_the_winner_starts_next() -> None:
    """BK-SER-1, BK-WIN-S1, BK-DEAL-S4, BK-AMB-22: 1v1 matches end at 150 (168 < 222 still
    wins); the winning seat starts the next match and the other seat deals."""
    state = new_table("sahrat", mode="one_vs_one", series=True)
    state, events = win_match(state, (0, 100), dealer=1, seats=2)
    assert events[-1] == MatchEnded(match=1, winner=2, totals=(0, 336))
    state = deal(state, seats=2)
    assert (state.dealer, state.starter) == (1, 2)
    state, events = go_out_at_once(replace(state, totals=(0, 100)))
    assert events[-1] == SeriesEnded(winner=2, wins=(0, 2))
