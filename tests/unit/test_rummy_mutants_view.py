"""What a rummy seat sees of the table, field by field, and the commands it is offered
between rounds and after the game (engine/rummy/view.py).

Written against the survivors of mutation testing (scripts/mutate.sh, docs/testing.md):
the tests before read the hands, counts and legal commands of a turn, but no field of the
public table (whose turn, the turn's count, the totals, the commitment, the last round's
end …), nor the client seeds' window or a finished game.

Rules: PF-VAL-2, PF-FAIR-2, PF-FAIR-3, PF-AMB-12, RM-CORE-7, RM-VAT-5, RM-CAR-8,
RM-CAR-18, RM-CAR-21, RM-BLOCK-2, RM-OPT-3b, RM-AMB-22, PF-HINT-3.
"""

from __future__ import annotations

import hashlib

import pytest
from msgspec.structs import replace

from engine.errors import RuleViolation
from engine.rummy.messages import (
    CommitSeed,
    Play,
    SendClientSeed,
    StopGame,
)
from engine.rummy.options import options_from
from engine.rummy.rules import decide
from engine.rummy.state import State
from engine.rummy.view import Legal, legal, view
from tests.unit.rummy_support import SECRET, cards, fold, playing, step, table

_SYSTEM = 0


def _carousel_turn() -> State:
    """Round 2 of a Carousel game, seat 2's seventh turn: one card drawn, a joker on the
    table named as the 7♥, the stock run out and seat 3's final turn the last, running
    totals and rounds won."""
    state = playing(
        "carousel",
        ["2C 3C", "4D 5D 6D JK2", "KH"],
        stock="",  # final turns follow the stock's last card (RM-CAR-18)
        on_table="7S 7D JK1",
        names={"JK1": "7H"},
        turn=2,
        turn_no=7,
        first=3,
        drawn=1,
        passes=1,
        final_last=3,
        opened=(True, False, True),
        totals=(12, 40, 7),
        rounds_won=(1, 0, 0),
        round_no=2,
        secret=SECRET,
        host=2,
    )
    return replace(
        state,
        commitment=hashlib.sha256(bytes.fromhex(SECRET)).hexdigest(),
        seeds_sent=(True, False, True),
    )


@pytest.mark.parametrize("seat", [1, 2, None])
def test_every_public_field_of_the_table_is_shown_as_the_table_holds_it(
    seat: int | None,
) -> None:
    """PF-VAL-2, PF-FAIR-2: every seat and a spectator see the same public table: the
    variant, the round and its phase, whose turn and which turn it is, the round's first
    player (RM-CORE-7), the jokers' names, the cards drawn this turn (RM-CAR-8), the
    passes (RM-BLOCK-2), Carousel's last final turn (RM-CAR-18), who has opened
    (RM-VAT-5), the totals and rounds won (RM-CAR-21), the commitment and who sent a
    client seed (PF-AMB-12)."""
    seen = view(_carousel_turn(), seat)
    public = (
        seen.variant,
        seen.phase,
        seen.round,
        seen.turn,
        seen.turn_no,
        seen.first,
        seen.table,
        seen.names,
        seen.drawn,
        seen.locked,
        seen.passes,
        seen.final_last,
        seen.opened,
        seen.totals,
        seen.rounds_won,
        seen.commitment,
        seen.seeds_sent,
        seen.result,
    )
    assert public == (
        "carousel",
        "play",
        2,
        2,
        7,
        3,
        table("7S 7D JK1"),
        (("JK#1", "7H"),),
        1,
        False,
        1,
        3,
        (True, False, True),
        (12, 40, 7),
        (1, 0, 0),
        hashlib.sha256(bytes.fromhex(SECRET)).hexdigest(),
        (True, False, True),
        None,
    )


def test_the_seat_on_turn_is_offered_in_its_view_what_legal_offers_it() -> None:
    """PF-VAL-2: the view carries the viewer's own legal commands: seat 2's final turn in
    Carousel is play or pass, no draw (RM-CAR-18); seat 1 is offered nothing."""
    state = _carousel_turn()
    assert view(state, 2).legal == legal(state, 2) == Legal(commands=("Play", "Pass"))
    assert view(state, 1).legal == Legal(commands=())


def test_a_lock_is_shown_to_everyone() -> None:
    """RM-OPT-3b: the lock of revert_draw_3 is reported to the server and shown: the seat
    may only commit or give up."""
    state = playing(
        "tahiti", ["7S 7H 7D 2C", "3D 4D"], stock="9C", locked=True, incomplete_move="revert_draw_3"
    )
    assert view(state, 2).locked is True
    assert view(state, 1).legal == Legal(commands=("Play", "GiveUp"))


def test_the_end_of_a_round_is_shown_with_its_revealed_secret() -> None:
    """PF-FAIR-3, RM-CORE-7: seat 1 goes out; every seat sees the round's end (every hand,
    the points, the revealed secret) and the phase waiting for the next commitment."""
    state = playing(
        "manipulation",
        ["7S 8S 9S", "3D 4D"],
        stock="9C 9D",
        secret=SECRET,
        compulsory_play="trust_player",
    )
    _, after = step(state, 1, Play(table=table("7S 8S 9S"), added=cards("7S 8S 9S")))
    assert after.result is not None and after.result.how == "out"
    for seat in (1, 2, None):
        seen = view(after, seat)
        assert seen.result == after.result
        assert seen.phase == after.phase != "play"


# --- between rounds: the commitment and the client seeds (PF-AMB-12) ----------------------


def _committed(seats: int) -> State:
    state = State(options=options_from("carousel", seats=seats))
    return fold(state, decide(state, _SYSTEM, CommitSeed(secret=SECRET)))


def test_every_seat_that_has_not_sent_its_client_seed_is_offered_to_send_it() -> None:
    """PF-AMB-12 h: once the round is committed (and before its deal), each seat may send
    one client seed: seats 1 and 2 are offered it, seat 3, which sent its own, is not,
    and the rules agree (seat 3's second seed is refused)."""
    state = _committed(3)
    assert view(state, 1).commitment == hashlib.sha256(bytes.fromhex(SECRET)).hexdigest()
    _, state = step(state, 3, SendClientSeed(seed="mine"))
    assert state.seeds_sent == (False, False, True)
    assert view(state, 2).seeds_sent == (False, False, True)
    assert legal(state, 1).commands == ("SendClientSeed",)
    assert legal(state, 2).commands == ("SendClientSeed",)
    assert legal(state, 3).commands == ()
    with pytest.raises(RuleViolation) as caught:
        decide(state, 3, SendClientSeed(seed="again"))
    assert caught.value.code == "seed_already_sent"
    assert decide(state, 1, SendClientSeed(seed="first"))


def test_no_client_seed_is_offered_before_the_commitment_or_after_the_deal() -> None:
    """PF-AMB-12 h: the window is between the commitment and the deal only."""
    fresh = State(options=options_from("carousel", seats=2))
    assert legal(fresh, 1).commands == ()
    in_play = playing("carousel", ["2C", "3D"], stock="9C", secret=SECRET)
    assert legal(in_play, 2).commands == ()


# --- after the game ---------------------------------------------------------------------


def test_nothing_is_offered_to_anyone_once_the_host_has_ended_the_shanghai_game() -> None:
    """RM-AMB-22: the Shanghai host may stop the game while it runs, not once it is over;
    the system then has nothing to time, commit or deal either."""
    state = playing("shanghai", ["2C 3C", "4D 5D"], stock="9C", host=2, secret=SECRET)
    assert "StopGame" in legal(state, 2).commands
    _, over = step(state, 2, StopGame())
    assert over.phase == "over"
    assert legal(over, 2) == Legal(commands=())
    assert legal(over, 1) == Legal(commands=())
    assert legal(over, _SYSTEM) == Legal(commands=())
    assert view(over, 2).legal == Legal(commands=())
