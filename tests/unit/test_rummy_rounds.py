"""Rummy rounds: the table's options, the deal from the round's secret, the first player,
one round after another, and the host ending a Shanghai game (rules/rummy.md §2.1, §3–§10,
platform.md PF-ROOM, PF-FAIR).

The deal is checked against an independent reading of the rules: the canonical deck is
rebuilt here from PF-AMB-12 (f), shuffled with engine.fair (the fairness primitive, tested
on its own vectors), and dealt as RM-AMB-4 says.

Rules: RM-CORE-1, RM-CORE-2, RM-CORE-3, RM-CORE-5, RM-CORE-6, RM-CORE-7, RM-OPT-1,
RM-OPT-2, RM-OPT-4, RM-MAN-1, RM-MAC-1, RM-SHA-1, RM-SHA-5, RM-GUA-1, RM-CAR-1, RM-CAR-2,
RM-VAT-1, RM-TAH-1, RM-TAH-2, RM-AMB-1, RM-AMB-2, RM-AMB-3, RM-AMB-4, RM-AMB-22,
PF-FAIR-6, PF-ROOM-2, PF-ROOM-4, PF-ROOM-5.
"""

from __future__ import annotations

import msgspec
import pytest

from engine import fair
from engine.errors import RuleViolation
from engine.rummy.game import GAME
from engine.rummy.messages import (
    Command,
    CommitSeed,
    Deal,
    GameStopped,
    Pass,
    RoundDealt,
    RoundScored,
    SeedCommitted,
    SeedRevealed,
    SendClientSeed,
    StopGame,
)
from engine.rummy.options import RummyOptions, options_from
from engine.rummy.state import State
from engine.rummy.variants import VARIANTS, deck
from tests.unit.rummy_support import SECRET, dealt, playing, refused, step, trusting

_SYSTEM = 0
_OTHER_SECRET = "a7" * 32


def _canonical(copies: int, jokers: int) -> list[str]:
    """PF-AMB-12 (f): first deck then second, ♣ ♦ ♥ ♠, A 2 … 10 J Q K, jokers last."""
    ranks = ["A", *map(str, range(2, 11)), "J", "Q", "K"]
    out = [f"{r}{s}#{c}" for c in range(1, copies + 1) for s in "CDHS" for r in ranks]
    return out + [f"JK#{j}" for j in range(1, jokers + 1)]


# --- options (RM-CORE-1, RM-CORE-3, RM-OPT-1, RM-OPT-2, RM-OPT-4, PF-ROOM-2, PF-ROOM-5) ---------


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_a_table_seats_two_to_five_players(seats: int) -> None:
    """RM-CORE-1, PF-ROOM-5: 2 to 5 players."""
    assert options_from("vatican", seats=seats).seats == seats
    assert GAME.seat_counts == (2, 3, 4, 5)


@pytest.mark.parametrize("seats", [0, 1, 6])
def test_fewer_than_two_or_more_than_five_seats_are_refused(seats: int) -> None:
    """RM-CORE-1, PF-ROOM-5."""
    with pytest.raises(RuleViolation) as caught:
        options_from("carousel", seats=seats)
    assert (caught.value.code, caught.value.rule_id) == ("bad_option", "RM-CORE-1")


def test_the_host_chooses_one_of_seven_variants_manipulation_by_default() -> None:
    """RM-CORE-3, PF-ROOM-2: Manipulation is the default; an unknown variant is refused."""
    assert options_from().variant == "manipulation"
    assert RummyOptions().variant == "manipulation"
    names = (
        "manipulation",
        "machiavelli",
        "shanghai",
        "guadeloupe",
        "carousel",
        "vatican",
        "tahiti",
    )
    assert tuple(options_from(n).variant for n in names) == names
    with pytest.raises(RuleViolation) as caught:
        options_from("gin")
    assert (caught.value.code, caught.value.rule_id) == ("bad_option", "RM-CORE-3")


def test_the_extra_options_default_to_the_reminder_and_200() -> None:
    """RM-AMB-1, RM-AMB-2, RM-OPT-1, RM-OPT-2, RM-OPT-3a: reminder_with_hint, 200, undo_free."""
    options = options_from("manipulation")
    assert (options.compulsory_play, options.play_to, options.incomplete_move) == (
        "reminder_with_hint",
        200,
        "undo_free",
    )


def test_manipulation_has_two_extra_options() -> None:
    """PF-ROOM-2, RM-OPT-1, RM-OPT-2: compulsory play and the target, both at once."""
    options = options_from("manipulation", compulsory_play="trust_player", play_to=300)
    assert (options.compulsory_play, options.play_to) == ("trust_player", 300)
    assert (
        options_from("shanghai", compulsory_play="trust_player").compulsory_play == "trust_player"
    )


@pytest.mark.parametrize(
    ("variant", "option", "value", "rule"),
    [
        ("machiavelli", "compulsory_play", "trust_player", "RM-OPT-1"),
        ("carousel", "compulsory_play", "trust_player", "RM-OPT-1"),
        ("shanghai", "play_to", 300, "RM-OPT-2"),
        ("tahiti", "play_to", 300, "RM-OPT-2"),
    ],
)
def test_an_extra_option_of_another_variant_is_refused(
    variant: str, option: str, value: object, rule: str
) -> None:
    """PF-ROOM-2, RM-OPT-1, RM-OPT-2: an option exists only for its variants."""
    with pytest.raises(RuleViolation) as caught:
        options_from(variant, **{option: value})
    assert (caught.value.code, caught.value.rule_id) == ("bad_option", rule)


def test_a_target_other_than_200_or_300_is_refused() -> None:
    """RM-OPT-2: 200 or 300 points."""
    with pytest.raises(RuleViolation) as caught:
        options_from("manipulation", play_to=250)
    assert caught.value.code == "bad_option"


def test_no_command_can_change_the_options_during_the_game() -> None:
    """RM-OPT-4, PF-ROOM-4: no command carries an option; a dealt round keeps them."""
    option_names = set(msgspec.structs.asdict(RummyOptions()))
    for command in Command.__args__:
        fields = {f.name for f in msgspec.structs.fields(command)}
        assert not fields & option_names, command
    options = options_from("tahiti", seats=3, incomplete_move="revert_draw_3")
    _, state = dealt(options)
    assert state.options is options


# --- the deal (RM-CORE-2, RM-CORE-5, RM-CORE-6, RM-AMB-4, each variant's first rules) -----------


@pytest.mark.parametrize(
    ("variant", "seats", "copies", "jokers"),
    [
        ("manipulation", 4, 2, 0),
        ("machiavelli", 3, 2, 0),
        ("shanghai", 5, 2, 0),
        ("guadeloupe", 2, 2, 0),
        ("carousel", 2, 1, 1),
        ("carousel", 3, 2, 2),
        ("carousel", 5, 2, 2),
        ("vatican", 4, 2, 2),
        ("tahiti", 3, 2, 4),
    ],
)
def test_each_variant_plays_with_its_own_deck(
    variant: str, seats: int, copies: int, jokers: int
) -> None:
    """RM-CORE-2, RM-MAN-1, RM-MAC-1, RM-SHA-1, RM-GUA-1, RM-CAR-1, RM-VAT-1, RM-TAH-1:
    104 without jokers; Carousel 53 (2 players) or 106; Vatican 106; Tahiti 108."""
    assert list(deck(VARIANTS[variant], seats)) == _canonical(copies, jokers)


@pytest.mark.parametrize(
    ("variant", "seats", "hand_size"),
    [
        ("manipulation", 5, 7),
        ("machiavelli", 4, 13),
        ("guadeloupe", 3, 5),
        ("carousel", 2, 10),
        ("carousel", 4, 10),
        ("vatican", 5, 13),
    ],
)
def test_cards_are_dealt_one_at_a_time_from_the_first_player_and_the_rest_is_the_stock(
    variant: str, seats: int, hand_size: int
) -> None:
    """RM-CORE-5, RM-CORE-6, RM-AMB-4, RM-MAN-1, RM-MAC-1, RM-GUA-1, RM-CAR-2, RM-VAT-1:
    from the top of the shuffled deck one card to each player, starting with the first
    player; the undealt cards are the stock, top first."""
    options = options_from(variant, seats=seats)
    events, state = dealt(options)
    secret, entropy = bytes.fromhex(SECRET), fair.entropy(("",) * seats)
    shuffled = fair.shuffle(deck(options.rules, seats), secret, "deal", entropy)
    first = fair.first_draw(secret, entropy, seats)
    order = [(first - 1 + k) % seats + 1 for k in range(seats)]  # seat numbers
    hands = {seat: shuffled[j : seats * hand_size : seats] for j, seat in enumerate(order)}
    assert events[1] == RoundDealt(
        round=1,
        first=first,
        hands=tuple(hands[s] for s in range(1, seats + 1)),
        stock=shuffled[seats * hand_size :],
    )
    assert (state.phase, state.turn, state.turn_no, state.table) == ("play", first, 1, ())


def test_shanghai_deals_packets_of_three_three_three_and_one() -> None:
    """RM-SHA-1, RM-AMB-4: each packet goes round all players before the next."""
    seats = 3
    events, _ = dealt(options_from("shanghai", seats=seats))
    secret, entropy = bytes.fromhex(SECRET), fair.entropy(("",) * seats)
    shuffled = fair.shuffle(deck(VARIANTS["shanghai"], seats), secret, "deal", entropy)
    first = fair.first_draw(secret, entropy, seats)
    expected: dict[int, tuple[str, ...]] = {}
    for j in range(seats):
        seat = (first - 1 + j) % seats + 1
        packets = [shuffled[9 * k + 3 * j : 9 * k + 3 * j + 3] for k in range(3)]
        expected[seat] = (*packets[0], *packets[1], *packets[2], shuffled[27 + j])
    dealt_event = events[1]
    assert isinstance(dealt_event, RoundDealt)
    assert dealt_event.hands == tuple(expected[s] for s in (1, 2, 3))
    assert dealt_event.stock == shuffled[30:]


def test_tahiti_deals_five_cards_then_four_face_up_singletons() -> None:
    """RM-TAH-1, RM-TAH-2, RM-AMB-4: the 4 singletons are the next cards after the hands;
    each lies alone on the table."""
    seats = 4
    events, state = dealt(options_from("tahiti", seats=seats))
    secret, entropy = bytes.fromhex(SECRET), fair.entropy(("",) * seats)
    shuffled = fair.shuffle(deck(VARIANTS["tahiti"], seats), secret, "deal", entropy)
    dealt_event = events[1]
    assert isinstance(dealt_event, RoundDealt)
    assert [len(h) for h in dealt_event.hands] == [5] * seats
    assert dealt_event.singletons == shuffled[20:24]
    assert dealt_event.stock == shuffled[24:]
    assert state.table == tuple((c,) for c in shuffled[20:24])


def test_the_client_seeds_enter_the_shuffle() -> None:
    """PF-AMB-12 (h), PF-FAIR-6: the seats' seeds change E, hence the deal and the first."""
    options = options_from("guadeloupe", seats=2)
    state = State(options=options)
    _, state = step(state, _SYSTEM, CommitSeed(secret=SECRET))
    _, state = step(state, 1, SendClientSeed(seed="mine"))
    events, _ = step(state, _SYSTEM, Deal())
    entropy = fair.entropy(("mine", ""))
    secret = bytes.fromhex(SECRET)
    shuffled = fair.shuffle(deck(options.rules, 2), secret, "deal", entropy)
    first = fair.first_draw(secret, entropy, 2)
    dealt_event = events[0]
    assert isinstance(dealt_event, RoundDealt) and dealt_event.first == first
    assert dealt_event.hands[first - 1] == shuffled[0:10:2]


def test_only_the_system_deals_a_committed_round() -> None:
    """PF-FAIR-1: the deal is the system's, after the commitment."""
    state = State(options=options_from("vatican", seats=2))
    assert refused(state, _SYSTEM, Deal()) == ("wrong_phase", "PF-FAIR-1")
    _, state = step(state, _SYSTEM, CommitSeed(secret=SECRET))
    assert refused(state, 1, Deal()) == ("system_only", "PF-FAIR-1")


# --- the first player (RM-CORE-7, PF-FAIR-6, RM-AMB-3) --------------------------------------


@pytest.mark.parametrize("secret", [SECRET, _OTHER_SECRET, "00" * 32, "ff" * 32])
def test_the_first_player_of_the_first_round_is_drawn_from_the_rounds_secret(secret: str) -> None:
    """RM-CORE-7, PF-FAIR-6, RM-AMB-3: the fair draw under the label "first"."""
    events, _ = dealt(options_from("machiavelli", seats=5), secret)
    expected = fair.first_draw(bytes.fromhex(secret), fair.entropy(("",) * 5), 5)
    assert events[0] == SeedCommitted(
        deal=1,
        commitment=fair.commitment(bytes.fromhex(secret)),
        algorithm=fair.ALGORITHM,
        secret=secret,
    )
    dealt_event = events[1]
    assert isinstance(dealt_event, RoundDealt) and dealt_event.first == expected


@pytest.mark.parametrize(("first", "seats", "next_first"), [(1, 3, 2), (3, 3, 1), (4, 5, 5)])
def test_each_later_round_starts_one_seat_on(first: int, seats: int, next_first: int) -> None:
    """RM-CORE-7, RM-AMB-3: in a multi-round game the first player moves one seat on,
    whatever the next round's secret would draw."""
    hands = ["2C"] * seats
    state = playing(
        "shanghai", hands, first=first, turn=first, passes=seats - 1, **trusting("shanghai")
    )
    events, state = step(state, first, Pass())
    assert isinstance(events[-1], RoundScored) and state.phase == "seeding"
    events, state = step(state, _SYSTEM, CommitSeed(secret=_OTHER_SECRET))
    assert isinstance(events[0], SeedCommitted) and events[0].deal == 2
    events, state = step(state, _SYSTEM, Deal())
    dealt_event = events[0]
    assert isinstance(dealt_event, RoundDealt)
    assert (dealt_event.round, dealt_event.first, state.turn) == (2, next_first, next_first)
    assert [len(h) for h in dealt_event.hands] == [10] * seats


# --- the host ends a Shanghai game (RM-SHA-5, RM-AMB-22) -----------------------------------


def test_the_host_ends_a_shanghai_game_between_rounds_with_the_lowest_leading() -> None:
    """RM-SHA-5, RM-AMB-22: the standings stand; equal lowest totals share the lead."""
    state = playing(
        "shanghai", ["2C", "3C", "4C"], passes=2, totals=(10, 3, 2), **trusting("shanghai")
    )
    _, state = step(state, 1, Pass())  # the round is blocked: totals 11, 4, 3
    assert state.phase == "seeding"
    events, after = step(state, 1, StopGame())
    assert events == (GameStopped(round=0, totals=(11, 4, 3), winners=(3,)),)
    assert after.phase == "over"
    tied = playing("shanghai", ["2C", "3C", "4C"], totals=(5, 5, 9), **trusting("shanghai"))
    events, _ = step(tied, 1, StopGame())
    assert events[0] == GameStopped(round=1, totals=(5, 5, 9), winners=(1, 2))


def test_a_shanghai_game_stopped_during_a_round_leaves_that_round_uncounted() -> None:
    """RM-AMB-22: the round in progress is not scored; its secret is revealed (PF-FAIR-3)."""
    state = playing(
        "shanghai",
        ["2C", "3C"],
        totals=(7, 9),
        round_no=4,
        secret=SECRET,
        host=2,
        **trusting("shanghai"),
    )
    events, after = step(state, 2, StopGame())
    assert events == (
        GameStopped(round=4, totals=(7, 9), winners=(1,)),
        SeedRevealed(deal=4, secret=SECRET),
    )
    assert after.phase == "over"
    assert refused(after, 2, StopGame()) == ("wrong_phase", "RM-AMB-22")


def test_only_the_host_ends_a_game_and_only_a_shanghai_game() -> None:
    """RM-AMB-22, RM-SHA-5: a guest may not; other variants end by their own rules."""
    state = playing("shanghai", ["2C", "3C"], host=1, **trusting("shanghai"))
    assert refused(state, 2, StopGame()) == ("host_only", "RM-AMB-22")
    other = playing("manipulation", ["2C", "3C"], host=1, **trusting("shanghai"))
    assert refused(other, 1, StopGame()) == ("no_stop", "RM-SHA-5")
