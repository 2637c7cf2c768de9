"""What a seat, a spectator and the system see of a rummy table, and the commands each may
send (engine/rummy/view.py, engine/rummy/game.py `redact`).

A seat sees its own hand and nobody else's, never the stock's order, never the round's
secret before its reveal (PF-FAIR-3, PF-VAL-2); the legal commands follow the turn rules.

Rules: RM-MOVE-4, RM-CAR-8, RM-CAR-9, RM-CAR-18, RM-OPT-3b, RM-BLOCK-1, RM-AMB-22,
RM-AMB-27, RM-TAH-2, PF-FAIR-3, PF-HINT-3, PF-VAL-2.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from engine.rummy.game import HIDDEN, redact
from engine.rummy.messages import (
    CardsDrawn,
    PlayReminded,
    RoundDealt,
    SeedCommitted,
    TablePlayed,
)
from engine.rummy.state import State
from engine.rummy.view import legal, view
from tests.unit.rummy_support import SECRET, cards, playing, table, trusting

_CARD = re.compile(r"(?:10|[2-9AJQK])[CDHS]#\d|JK#\d")


def _shown(value: object) -> set[str]:
    return set(_CARD.findall(msgspec.json.encode(value).decode()))


def _round() -> State:
    return playing(
        "manipulation",
        ["2C 3C", "4D 5D 6D", "7H"],
        stock="8S 9S 10S",
        on_table="4S 5S 6S",
        turn=2,
        secret=SECRET,
        **trusting("manipulation"),
    )


@pytest.mark.parametrize("seat", [1, 2, 3, None])
def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others_and_the_stock(
    seat: int | None,
) -> None:
    """PF-VAL-2, PF-FAIR-3: own hand, the table, counts; never another hand, the stock's
    order or the secret (a spectator, None, sees no hand)."""
    state = _round()
    seen = view(state, seat)
    own = state.hands[seat - 1] if seat else ()
    assert seen.hand == (own if seat else None)
    assert seen.hand_counts == (2, 3, 1) and seen.stock_count == 3
    assert _shown(seen) == set(own) | set(cards("4S 5S 6S"))
    assert SECRET not in msgspec.json.encode(seen).decode()


def test_the_own_hand_is_valued_as_the_variant_counts_it() -> None:
    """RM-CAR-10 (the view's hand points): Carousel counts JK K A 9 as 45."""
    state = playing("carousel", ["JK1 KC AD 9S", "2C"], stock="3C")
    assert view(state, 1).hand_points == 45


@pytest.mark.parametrize(
    ("variant", "fields", "commands"),
    [
        ("machiavelli", {}, ("Play", "Draw")),
        ("machiavelli", {"stock": ""}, ("Play", "Pass")),
        ("carousel", {}, ("Draw",)),
        ("carousel", {"drawn": 1}, ("Play", "Draw")),
        ("carousel", {"drawn": 1, "stock": ""}, ("Play", "Pass")),
        ("carousel", {"final_last": 2, "stock": ""}, ("Play", "Pass")),
        ("tahiti", {"incomplete_move": "revert_draw_3"}, ("Play", "Draw", "Touch")),
        ("tahiti", {"incomplete_move": "revert_draw_3", "locked": True}, ("Play", "GiveUp")),
        ("shanghai", {}, ("Play", "Draw", "StopGame")),
    ],
)
def test_the_seat_on_turn_is_offered_the_commands_its_turn_allows(
    variant: str, fields: dict[str, Any], commands: tuple[str, ...]
) -> None:
    """RM-CAR-8, RM-CAR-9, RM-CAR-18, RM-OPT-3b, RM-BLOCK-1, RM-AMB-27, RM-AMB-22: a
    Carousel turn opens with a draw; the final turns neither draw nor knock; a locked
    turn is Done or Give up; the Shanghai host may end the game."""
    options = {k: v for k, v in fields.items() if k == "incomplete_move"}
    built = {k: v for k, v in fields.items() if k != "incomplete_move"}
    stock = str(built.pop("stock", "9C 9D"))
    state = playing(variant, ["7S 2C", "3D"], stock=stock, **built, **options, **trusting(variant))
    assert legal(state, 1).commands == commands


def test_off_turn_seats_spectators_and_the_system_are_offered_their_own() -> None:
    """PF-VAL-2: an off-turn seat may send nothing; a spectator nothing; the system times
    the turn out, commits a secret between rounds and deals a committed round."""
    state = _round()
    assert legal(state, 1).commands == ()
    assert legal(state, None).commands == ()
    assert legal(state, 0).commands == ("Timeout",)
    assert legal(replace(state, phase="seeding"), 0).commands == ("CommitSeed",)
    assert legal(replace(state, phase="seeded"), 0).commands == ("Deal",)


def test_a_reminder_is_shown_to_the_reminded_seat_only() -> None:
    """PF-HINT-3: the hint is for the asking player only."""
    state = replace(_round(), reminded=True, reminder=("7H#1", (0,), False))
    assert view(state, 1).reminder is None and view(state, None).reminder is None
    shown = view(state, 2).reminder
    assert shown is not None and (shown.card, shown.groups, shown.rearranges) == (
        "7H#1",
        (0,),
        False,
    )


# --- redact ---------------------------------------------------------------------------------


def test_a_dealt_round_shows_each_seat_its_own_hand_and_the_singletons() -> None:
    """PF-VAL-2, RM-TAH-2: other hands and the stock hidden card by card; the face-up
    singletons public."""
    dealt = RoundDealt(
        round=1,
        first=2,
        hands=(cards("2C 3C"), cards("4D 5D")),
        stock=cards("8S 9S 10S"),
        singletons=cards("KH"),
    )
    assert redact(dealt, 2) == replace(
        dealt,
        hands=((HIDDEN, HIDDEN), cards("4D 5D")),
        stock=(HIDDEN,) * 3,
    )
    spectator = redact(dealt, None)
    assert isinstance(spectator, RoundDealt)
    assert spectator.hands == ((HIDDEN,) * 2,) * 2 and spectator.singletons == cards("KH")


def test_a_draw_is_seen_by_the_drawer_only_and_a_committed_secret_by_nobody() -> None:
    """PF-VAL-2, PF-FAIR-3: another seat learns how many cards were drawn, not which; the
    round's secret is blank in every seat's copy until SeedRevealed."""
    drawn = CardsDrawn(seat=1, cards=cards("8S 9S"), why="end")
    assert redact(drawn, 1) == drawn
    assert redact(drawn, 2) == replace(drawn, cards=(HIDDEN, HIDDEN))
    assert redact(drawn, None) == replace(drawn, cards=(HIDDEN, HIDDEN))
    committed = SeedCommitted(deal=1, commitment="c" * 64, algorithm="x", secret=SECRET)
    for seat in (1, 2, None):
        assert redact(committed, seat) == replace(committed, secret="")


def test_a_reminder_event_is_blank_for_the_other_seats_and_a_move_is_public() -> None:
    """PF-HINT-3: the hint is private; a committed move is public (it lies on the table)."""
    reminded = PlayReminded(seat=2, card="7H#1", groups=(0,), rearranges=True)
    assert redact(reminded, 2) == reminded
    assert redact(reminded, 1) == PlayReminded(seat=2, card=HIDDEN, groups=(), rearranges=False)
    played = TablePlayed(seat=1, table=table("4S 5S 6S 7S"), names=(), added=cards("7S"))
    assert redact(played, 2) == played and redact(played, None) == played
